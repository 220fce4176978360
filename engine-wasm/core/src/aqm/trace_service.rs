//! The bottleneck port driven by a delivery-opportunity trace (Mahimahi's
//! `LinkQueue`, `link_trace.rs`): the service that replaces the link's
//! rate, and the port's methods that serve it.

use super::{Bottleneck, Discipline};
use crate::link_trace::TraceSchedule;
use crate::net::{Frame, Packet};
use crate::rng::Rng;

/// A trace-driven link's service (`link_trace.rs`, Mahimahi's
/// `LinkQueue::rationalize`): the link waits for its trace's next delivery
/// opportunity rather than a frame's serialisation time.
pub(super) struct TraceService {
    pub(super) schedule: TraceSchedule,
    /// The opportunity the link's one pending event is for, if it has one:
    /// none while the queue is empty (opportunities then pass unused).
    pub(super) pending_ns: Option<u64>,
    /// Bytes of the frame on the wire (`on_wire`) not yet served.
    pub(super) left_bytes: u32,
    /// Frames that arrived at the very instant of the pending opportunity:
    /// they join the queue after it is served, as Mahimahi burns the
    /// current millisecond's opportunities before it enqueues an arrival.
    pub(super) held: Vec<Frame>,
    /// Packets the last opportunity delivered, in order, for the caller.
    pub(super) delivered: Vec<Packet>,
    /// Opportunities counted up to the last sample (`sample_capacity_bps`).
    pub(super) sampled_through_ns: u64,
}

/// What a frame uses of a trace's opportunities: its IP packet (the
/// Ethernet header not counted) and Mahimahi's TUN header. An IP packet
/// under 46 bytes counts as padded to the Ethernet minimum (`Frame` keeps
/// no other size); only a latency probe of under 46 bytes is.
fn trace_bytes(f: &Frame) -> u32 {
    f.len_bytes - crate::net::ETHERNET_HEADER_BYTES + crate::link_trace::TUN_HEADER_BYTES
}

impl Bottleneck {
    /// The link follows `schedule` (Mahimahi's delivery opportunities)
    /// instead of its rate. Its rate (`new`'s `rate_bps`) should be the
    /// trace's mean rate in wire terms (`Scenario::bottleneck_rate_bps`):
    /// RED reads a packet's transmission time from it.
    pub fn with_trace(mut self, schedule: TraceSchedule) -> Bottleneck {
        self.trace = Some(Box::new(TraceService {
            schedule,
            pending_ns: None,
            left_bytes: 0,
            held: Vec::new(),
            delivered: Vec::new(),
            sampled_through_ns: 0,
        }));
        self
    }

    /// Whether the link follows a trace: its event is then
    /// [`serve_opportunity`](Bottleneck::serve_opportunity), not
    /// [`finish`](Bottleneck::finish).
    #[inline]
    pub fn is_trace_driven(&self) -> bool {
        self.trace.is_some()
    }

    /// [`kick`](Bottleneck::kick) for a trace-driven link.
    #[cold]
    #[inline(never)]
    pub(super) fn kick_traced(&mut self, now_ns: u64) -> Option<u64> {
        let busy = self.on_wire.is_some() || self.waiting_pkts() > 0;
        let t = self.trace.as_mut().expect("a trace-driven link");
        if t.pending_ns.is_some() || !busy {
            return None;
        }
        let at = t.schedule.first_after_ns(now_ns);
        t.pending_ns = Some(at);
        Some(at)
    }

    /// A trace-driven link's pending opportunity has come (`now_ns`):
    /// every opportunity at this instant serves the queue, 1504 bytes
    /// each, as Mahimahi's `rationalize` does: the frame on the wire takes
    /// what it still needs, then frames leave the queue in turn (the
    /// discipline deciding, as at any dequeue) until the bytes run out or
    /// the queue is empty, when the rest is lost. A frame whose last byte
    /// is served leaves now ([`take_delivered`](Bottleneck::take_delivered));
    /// one served in part stays on the wire for the next opportunity.
    /// Frames that arrived at this instant then join the queue. Returns
    /// the next opportunity the link waits for, if it has frames left.
    #[cold]
    #[inline(never)]
    pub fn serve_opportunity(&mut self, now_ns: u64, rng: &mut Rng) -> Option<u64> {
        let t = self.trace.as_mut().expect("a trace-driven link");
        debug_assert_eq!(t.pending_ns, Some(now_ns));
        t.pending_ns = None;
        let mut budget =
            t.schedule.count_at_ns(now_ns) * crate::link_trace::OPPORTUNITY_BYTES as u64;
        while budget > 0 {
            if self.on_wire.is_none() {
                let Some(frame) = self.dequeue(now_ns, rng) else {
                    break;
                };
                let t = self.trace.as_mut().expect("a trace-driven link");
                t.left_bytes = trace_bytes(&frame);
                self.on_wire = Some(frame);
            }
            let t = self.trace.as_mut().expect("a trace-driven link");
            let served = budget.min(t.left_bytes as u64);
            budget -= served;
            t.left_bytes -= served as u32;
            if t.left_bytes == 0 {
                let f = self.on_wire.take().expect("a frame on the wire");
                if !f.packet.is_probe() {
                    self.sent_pkts += 1;
                }
                t.delivered.push(f.packet);
            }
        }
        let t = self.trace.as_mut().expect("a trace-driven link");
        let held = std::mem::take(&mut t.held);
        for f in &held {
            // Each may start the link: the first that does sets the
            // pending opportunity, after which `kick` returns None.
            self.enqueue(*f, now_ns, rng);
        }
        let busy = self.on_wire.is_some() || self.waiting_pkts() > 0;
        let t = self.trace.as_mut().expect("a trace-driven link");
        t.held = held;
        t.held.clear();
        if t.pending_ns.is_none() && busy {
            let at = t.schedule.first_after_ns(now_ns);
            t.pending_ns = Some(at);
        }
        let next = t.pending_ns;
        if next.is_none() {
            if let Discipline::Red(red) = &mut self.discipline {
                red.idle_since_ns = Some(now_ns);
            }
        }
        next
    }

    /// The packets the last opportunity delivered, in order (empty for a
    /// constant-rate link).
    pub fn take_delivered(&mut self) -> Vec<Packet> {
        match &mut self.trace {
            Some(t) => std::mem::take(&mut t.delivered),
            None => Vec::new(),
        }
    }

    /// Give back the (emptied) vector `take_delivered` handed out, so the
    /// link reuses its allocation.
    pub fn return_delivered(&mut self, mut v: Vec<Packet>) {
        if let Some(t) = &mut self.trace {
            v.clear();
            t.delivered = v;
        }
    }

    /// A trace-driven link's capacity since the previous call: its
    /// delivery opportunities up to `now_ns` (used or not) at 1504 bytes,
    /// over `interval_s` (b/s, Mahimahi's capacity line); `None` for a
    /// constant-rate link.
    pub fn sample_capacity_bps(&mut self, now_ns: u64, interval_s: f64) -> Option<f64> {
        let t = self.trace.as_mut()?;
        let opportunities =
            t.schedule.count_through_ns(now_ns) - t.schedule.count_through_ns(t.sampled_through_ns);
        t.sampled_through_ns = now_ns;
        Some(opportunities as f64 * crate::link_trace::OPPORTUNITY_BYTES as f64 * 8.0 / interval_s)
    }
}
