//! Queue management at the bottleneck: the port that every flow and the
//! latency probe share, with its discipline (drop-tail, RED, CoDel,
//! FQ-CoDel, PIE, DCTCP's step marking, DualPI2). Each discipline is a pure state
//! machine in its own module, with time passed in; [`Bottleneck`] holds
//! the queue and the frame on the wire, asks the discipline at enqueue and
//! dequeue, and collects the drops and marks for the simulation to record
//! ([`Signals`]).
//!
//! Dequeue happens when the link is free to send: when the previous frame
//! has finished, or at once when a frame arrives at an idle link. That is
//! when CoDel measures a packet's sojourn time (RFC 8289 §3.1) and may drop
//! it; the frames it drops leave the queue at that instant without using
//! the link. A trace-driven link (`link_trace.rs`) dequeues at its delivery
//! opportunities instead, Mahimahi's way: each opportunity's 1504 bytes
//! serve the frame on the wire and then the next frames the discipline
//! hands out (`Bottleneck::serve_opportunity`).

pub mod catalogue;
pub mod codel;
pub mod dualpi2;
pub mod fq_codel;
pub mod pie;
pub mod red;
pub mod settings;
pub mod step;
mod trace_service;

use crate::net::{Frame, Packet, TxTime};
use crate::rng::Rng;
use crate::scenario::Aqm;
use codel::{Codel, CodelParams, CodelQueue};
use dualpi2::DualPi2;
use fq_codel::FqCodel;
use pie::Pie;
use red::Red;
use settings::Settings;
use std::collections::VecDeque;
use step::StepMark;
use trace_service::TraceService;

/// What a discipline decides for an arriving packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Enqueue,
    Mark,
    Drop,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SignalKind {
    Drop,
    /// Marked Congestion Experienced (RFC 3168 §5) and sent on.
    Mark,
}

/// A drop or mark of one packet of `flow` (`net::PROBE_FLOW` for a probe).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Signal {
    pub flow: u32,
    pub kind: SignalKind,
}

/// The drops and marks of a queue: the ones the simulation has not taken
/// yet, in order, and the totals.
#[derive(Clone, Debug, Default)]
pub struct Signals {
    pub list: Vec<Signal>,
    /// Data packets dropped and marked (probes are counted apart).
    pub drops: u64,
    pub marks: u64,
    pub probe_drops: u64,
}

impl Signals {
    pub fn drop(&mut self, p: &Packet) {
        if p.is_probe() {
            self.probe_drops += 1;
        } else {
            self.drops += 1;
        }
        self.list.push(Signal {
            flow: p.flow,
            kind: SignalKind::Drop,
        });
    }

    pub fn mark(&mut self, p: &mut Packet) {
        p.ce = true;
        if !p.is_probe() {
            self.marks += 1;
        }
        self.list.push(Signal {
            flow: p.flow,
            kind: SignalKind::Mark,
        });
    }
}

enum Discipline {
    DropTail,
    Red(Red),
    Codel(CodelParams, Codel),
    FqCodel(FqCodel),
    Pie(Pie),
    Step(StepMark),
    DualPi2(Box<DualPi2>),
}

/// One flow's packets that left the bottleneck's queue onto the link (a
/// packet the discipline drops at dequeue is not counted) and the sum of
/// their sojourn times, arrival to the start of transmission. The probe's
/// packets are not counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FlowSojourn {
    pub pkts: u64,
    pub sojourn_ns: u128,
}

impl FlowSojourn {
    /// The packets and sojourn added since `earlier`.
    pub fn since(self, earlier: FlowSojourn) -> FlowSojourn {
        FlowSojourn {
            pkts: self.pkts - earlier.pkts,
            sojourn_ns: self.sojourn_ns - earlier.sojourn_ns,
        }
    }
}

/// The FIFO as CoDel sees it.
struct FifoView<'a> {
    fifo: &'a mut VecDeque<Frame>,
    bytes: &'a mut u64,
}

impl CodelQueue for FifoView<'_> {
    fn pop(&mut self) -> Option<(Frame, u64)> {
        let f = self.fifo.pop_front()?;
        *self.bytes -= f.len_bytes as u64;
        Some((f, *self.bytes))
    }
}

/// The bottleneck port: its queue (one FIFO, or FQ-CoDel's flow queues),
/// the frame on the wire and the discipline.
pub struct Bottleneck {
    /// Frames the queue holds, the one on the wire not counted
    /// (`bottleneck.buffer_pkts`).
    capacity_pkts: usize,
    tx: TxTime,
    discipline: Discipline,
    fifo: VecDeque<Frame>,
    /// Queue bytes (`Frame::len_bytes`) waiting in the FIFO.
    fifo_bytes: u64,
    on_wire: Option<Frame>,
    signals: Signals,
    /// Data packets sent (probes not counted).
    sent_pkts: u64,
    last_sojourn_ns: u64,
    dequeued_since_sample: bool,
    /// Per data flow: the packets that left the queue onto the link and
    /// the sum of their sojourn times (the labs' per-flow queueing delay).
    flow_sojourn: Vec<FlowSojourn>,
    /// The trace a trace-driven link follows; `None`: the link sends at
    /// its rate (`tx`).
    trace: Option<Box<TraceService>>,
}

impl Bottleneck {
    /// A port of `rate_bps` for `aqm`; data frames are `data_wire_bytes`
    /// on the wire and `data_len_bytes` in the queue (the MTU plus the
    /// Ethernet header, CoDel's MAXPACKET and PIE's MEAN_PKTSIZE);
    /// `tcp_flows` flows share it with the probe.
    pub fn new(
        aqm: &Aqm,
        rate_bps: u64,
        capacity_pkts: usize,
        data_wire_bytes: u32,
        data_len_bytes: u32,
        tcp_flows: usize,
    ) -> Bottleneck {
        // A scenario's settings were validated (Scenario::validate reads
        // them the same way); out-of-range ones are used as given.
        let buffer_pkts = u32::try_from(capacity_pkts).unwrap_or(u32::MAX);
        let (settings, _problems) = settings::read(aqm, buffer_pkts, data_len_bytes as u64);
        let discipline = match settings {
            Settings::DropTail => Discipline::DropTail,
            Settings::Red(red) => Discipline::Red(red),
            Settings::Codel(params) => Discipline::Codel(params, Codel::default()),
            Settings::FqCodel {
                codel,
                quantum_bytes,
                flows,
            } => Discipline::FqCodel(FqCodel::new(codel, quantum_bytes, flows, tcp_flows)),
            Settings::Pie(params) => Discipline::Pie(Pie::new(params)),
            Settings::StepMark(step) => Discipline::Step(step),
            Settings::DualPi2(params) => Discipline::DualPi2(Box::new(DualPi2::new(params))),
        };
        let fifo_capacity = match discipline {
            Discipline::FqCodel(_) | Discipline::DualPi2(_) => 0,
            _ => crate::net::preallocated_frames(capacity_pkts),
        };
        Bottleneck {
            capacity_pkts,
            tx: TxTime::new(rate_bps, data_wire_bytes),
            discipline,
            fifo: VecDeque::with_capacity(fifo_capacity),
            fifo_bytes: 0,
            on_wire: None,
            signals: Signals::default(),
            sent_pkts: 0,
            last_sojourn_ns: 0,
            dequeued_since_sample: false,
            flow_sojourn: vec![FlowSojourn::default(); tcp_flows],
            trace: None,
        }
    }

    /// The port's clock runs `ppb` parts per billion off nominal (its
    /// oscillator's tolerance).
    pub fn set_clock_ppb(&mut self, ppb: i64) {
        self.tx = self.tx.with_clock_ppb(ppb);
    }

    /// Frames waiting, not counting the one on the wire.
    pub fn waiting_pkts(&self) -> usize {
        match &self.discipline {
            Discipline::FqCodel(fq) => fq.len(),
            Discipline::DualPi2(d) => d.len(),
            _ => self.fifo.len(),
        }
    }

    /// Frames waiting plus the one being sent.
    /// Bytes the queue has allocated for frames (its high-water mark).
    pub fn allocated_bytes(&self) -> u64 {
        let fq = match &self.discipline {
            Discipline::FqCodel(fq) => fq.allocated_bytes(),
            Discipline::DualPi2(d) => d.allocated_bytes(),
            _ => 0,
        };
        let trace = self.trace.as_ref().map_or(0, |t| {
            t.held.capacity() * std::mem::size_of::<Frame>()
                + t.delivered.capacity() * std::mem::size_of::<Packet>()
        });
        (self.fifo.capacity() * std::mem::size_of::<Frame>()) as u64 + fq + trace as u64
    }

    /// Frames that arrived at the instant of a trace-driven link's pending
    /// opportunity and join the queue once it is served (for the packet
    /// accounting; 0 at any other time).
    pub fn held_pkts(&self) -> usize {
        self.trace.as_ref().map_or(0, |t| t.held.len())
    }

    pub fn occupancy_pkts(&self) -> usize {
        self.waiting_pkts() + self.on_wire.is_some() as usize
    }

    /// Queue bytes waiting.
    pub fn waiting_bytes(&self) -> u64 {
        match &self.discipline {
            Discipline::FqCodel(fq) => fq.bytes(),
            Discipline::DualPi2(d) => d.bytes(),
            _ => self.fifo_bytes,
        }
    }

    /// `f` arrives at `now_ns`. If the link was idle and starts sending (it
    /// or, after CoDel's drops, nothing), returns when that transmission
    /// completes: the caller schedules [`finish`](Bottleneck::finish)
    /// then. Drops and marks wait in
    /// [`take_signals`](Bottleneck::take_signals).
    #[inline]
    pub fn arrive(&mut self, f: Frame, now_ns: u64, rng: &mut Rng) -> Option<u64> {
        if self.trace.is_some() {
            return self.arrive_traced(f, now_ns, rng);
        }
        self.enqueue(f, now_ns, rng)
    }

    /// A frame arrives at a trace-driven link: held if it comes at the
    /// very instant of the pending opportunity, else queued.
    #[cold]
    #[inline(never)]
    fn arrive_traced(&mut self, f: Frame, now_ns: u64, rng: &mut Rng) -> Option<u64> {
        let t = self.trace.as_mut().expect("a trace-driven link");
        if t.pending_ns == Some(now_ns) {
            t.held.push(f);
            return None;
        }
        self.enqueue(f, now_ns, rng)
    }

    /// [`arrive`](Bottleneck::arrive)'s work: the discipline's verdict,
    /// the frame queued, and the link started if it was idle.
    #[inline(always)]
    fn enqueue(&mut self, mut f: Frame, now_ns: u64, rng: &mut Rng) -> Option<u64> {
        f.enqueued_ns = now_ns;
        let waiting = self.waiting_pkts();
        let full = waiting >= self.capacity_pkts;
        let ect = f.packet.is_ect();
        let verdict = match &mut self.discipline {
            Discipline::DropTail | Discipline::Codel(..) => Verdict::Enqueue,
            Discipline::Red(red) => {
                let u = rng.uniform();
                red.on_arrival(waiting, now_ns, self.tx.common_ns, u, ect)
            }
            // RFC 8033 §5 `enque`: a full queue drops before the random
            // drop is considered.
            Discipline::Pie(pie) if full => {
                pie.on_overflow(now_ns);
                Verdict::Drop
            }
            Discipline::Pie(pie) => pie.on_arrival(now_ns, self.fifo_bytes, ect, || rng.uniform()),
            Discipline::Step(step) => step.on_arrival(waiting, ect),
            Discipline::FqCodel(fq) => {
                // RFC 8290 §4.1: enqueue, then drop from the fattest queue
                // if the qdisc is over its limit.
                fq.enqueue(f);
                if fq.len() > self.capacity_pkts {
                    if let Some(d) = fq.drop_from_fattest() {
                        self.signals.drop(&d.packet);
                    }
                }
                return self.kick(now_ns, rng);
            }
            // RFC 9332 / Linux `dualpi2_enqueue_skb`: the limit counts both
            // queues; marks and drops by p' come at dequeue.
            Discipline::DualPi2(d) => {
                if full {
                    d.update_to(now_ns);
                    self.signals.drop(&f.packet);
                    return None;
                }
                d.enqueue(f, now_ns);
                return self.kick(now_ns, rng);
            }
        };
        if verdict == Verdict::Drop || full {
            self.signals.drop(&f.packet);
            return None;
        }
        if verdict == Verdict::Mark {
            self.signals.mark(&mut f.packet);
        }
        self.fifo_bytes += f.len_bytes as u64;
        self.fifo.push_back(f);
        if let Discipline::Red(red) = &mut self.discipline {
            red.idle_since_ns = None;
        }
        self.kick(now_ns, rng)
    }

    /// A frame has joined the queue at `now_ns`: an idle link starts. A
    /// constant-rate link puts the next frame on the wire and returns when
    /// it will have been sent; a trace-driven link with no opportunity
    /// pending waits for the first one after `now_ns`.
    #[inline(always)]
    fn kick(&mut self, now_ns: u64, rng: &mut Rng) -> Option<u64> {
        if self.trace.is_some() {
            return self.kick_traced(now_ns);
        }
        if self.on_wire.is_none() {
            self.start_next(now_ns, rng)
        } else {
            None
        }
    }

    /// The frame on the wire has been sent at `now_ns`: returns its packet,
    /// and when the next frame's transmission completes if one starts.
    #[inline]
    pub fn finish(&mut self, now_ns: u64, rng: &mut Rng) -> (Packet, Option<u64>) {
        let f = self
            .on_wire
            .take()
            .expect("a bottleneck completes only while busy");
        if !f.packet.is_probe() {
            self.sent_pkts += 1;
        }
        let next = self.start_next(now_ns, rng);
        if next.is_none() {
            if let Discipline::Red(red) = &mut self.discipline {
                red.idle_since_ns = Some(now_ns);
            }
        }
        (f.packet, next)
    }

    /// Dequeue the next frame to send (the discipline may drop some
    /// first) and put it on the wire; returns when it will have been sent.
    fn start_next(&mut self, now_ns: u64, rng: &mut Rng) -> Option<u64> {
        let frame = self.dequeue(now_ns, rng)?;
        let done_ns = now_ns + self.tx.of(frame.wire_bytes);
        self.on_wire = Some(frame);
        Some(done_ns)
    }

    /// Take the next frame from the queue at `now_ns` (the discipline may
    /// drop some first), recording its sojourn.
    #[inline(always)]
    fn dequeue(&mut self, now_ns: u64, rng: &mut Rng) -> Option<Frame> {
        let frame = match &mut self.discipline {
            Discipline::Codel(params, codel) => {
                let mut fifo = FifoView {
                    fifo: &mut self.fifo,
                    bytes: &mut self.fifo_bytes,
                };
                codel.dequeue(params, now_ns, &mut fifo, &mut self.signals)
            }
            Discipline::FqCodel(fq) => fq.dequeue(now_ns, &mut self.signals),
            Discipline::DualPi2(d) => d.dequeue(now_ns, rng, &mut self.signals),
            _ => {
                let f = self.fifo.pop_front();
                if let Some(f) = &f {
                    self.fifo_bytes -= f.len_bytes as u64;
                }
                f
            }
        }?;
        let sojourn_ns = now_ns - frame.enqueued_ns;
        self.last_sojourn_ns = sojourn_ns;
        self.dequeued_since_sample = true;
        if let Some(s) = self.flow_sojourn.get_mut(frame.packet.flow as usize) {
            s.pkts += 1;
            s.sojourn_ns += sojourn_ns as u128;
        }
        if let Discipline::Pie(pie) = &mut self.discipline {
            pie.on_dequeue(now_ns, sojourn_ns, self.fifo_bytes);
        }
        Some(frame)
    }

    /// The drops and marks since the last call, in order.
    #[inline]
    pub fn take_signals(&mut self) -> std::vec::Drain<'_, Signal> {
        self.signals.list.drain(..)
    }

    /// DualPI2's per-queue totals, if the port runs DualPI2.
    pub fn dualpi2_stats(&self) -> Option<dualpi2::DualPi2Stats> {
        match &self.discipline {
            Discipline::DualPi2(d) => Some(d.stats),
            _ => None,
        }
    }

    /// Flow `flow`'s packets that have left the queue onto the link so far,
    /// and their summed sojourn times (zero for an unknown flow).
    pub fn flow_sojourn(&self, flow: usize) -> FlowSojourn {
        self.flow_sojourn.get(flow).copied().unwrap_or_default()
    }

    /// Data packets dropped so far (probes not counted).
    pub fn drops(&self) -> u64 {
        self.signals.drops
    }

    /// Data packets marked CE so far.
    pub fn ecn_marks(&self) -> u64 {
        self.signals.marks
    }

    /// Latency probes dropped so far.
    pub fn probe_drops(&self) -> u64 {
        self.signals.probe_drops
    }

    /// Data packets that finished crossing the link (probes not counted).
    pub fn sent_pkts(&self) -> u64 {
        self.sent_pkts
    }

    /// The queueing delay for a sample row: the sojourn time (arrival to
    /// the start of its transmission, its own serialisation excluded) of
    /// the frame that most recently left the queue, if it left since the
    /// last sample or is still on the wire; 0 if the link stayed idle.
    /// Starts a new sample interval.
    pub fn sample_delay_ns(&mut self) -> u64 {
        let delay = if self.dequeued_since_sample || self.on_wire.is_some() {
            self.last_sojourn_ns
        } else {
            0
        };
        self.dequeued_since_sample = false;
        delay
    }
}

// Declared last: the module-cycle test (tests/module_cycles.rs) reads a
// file's code up to its first test-only item.
#[cfg(test)]
pub(crate) mod testing;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::PROBE_FLOW;

    fn data(flow: u32, seq: u32) -> Frame {
        testing::frame(flow, seq, 1500, 0)
    }

    fn port(aqm: Aqm, buffer: usize) -> Bottleneck {
        Bottleneck::new(&aqm, 1_000_000_000, buffer, 1538, 1514, 2)
    }

    #[test]
    fn each_frame_takes_its_own_size_on_the_wire() {
        let mut b = port(Aqm::DropTail {}, 10);
        let mut rng = Rng::new(1);
        assert_eq!(b.arrive(data(0, 0), 0, &mut rng), Some(12_304));
        let probe = testing::frame(PROBE_FLOW, 0, 84, 0);
        assert_eq!(probe.wire_bytes, 84 + 38);
        assert_eq!(b.arrive(probe, 0, &mut rng), None);
        let (p, next) = b.finish(12_304, &mut rng);
        assert_eq!(p.flow, 0);
        assert_eq!(next, Some(12_304 + 976), "122 bytes at 1 Gb/s");
        assert_eq!(b.sample_delay_ns(), 12_304, "the probe waited one frame");
        let (p, next) = b.finish(12_304 + 976, &mut rng);
        assert!(p.is_probe());
        assert_eq!(next, None);
        assert_eq!(b.sent_pkts, 1, "probes are not data");
        assert_eq!(b.sample_delay_ns(), 0, "idle since");
    }

    /// Each flow's packets and their summed sojourn: a frame sent at once
    /// waited 0, the one behind it one frame time (12 304 ns for 1538
    /// bytes at 1 Gb/s), the third two; a dropped arrival and the probe
    /// are not counted.
    #[test]
    fn each_flows_sojourn_is_summed_over_its_packets_that_left_the_queue() {
        let mut b = port(Aqm::DropTail {}, 2);
        let mut rng = Rng::new(1);
        b.arrive(data(0, 0), 0, &mut rng);
        b.arrive(data(1, 0), 0, &mut rng);
        b.arrive(data(1, 1), 0, &mut rng);
        b.arrive(data(0, 1), 0, &mut rng); // the buffer holds two: dropped
        let probe = Frame::new(
            Packet {
                flow: PROBE_FLOW,
                ..data(0, 0).packet
            },
            84,
        );
        b.arrive(probe, 0, &mut rng); // dropped too
        let mut t = 12_304;
        while b.occupancy_pkts() > 0 {
            t = b.finish(t, &mut rng).1.unwrap_or(t);
        }
        assert_eq!(
            b.flow_sojourn(0),
            FlowSojourn {
                pkts: 1,
                sojourn_ns: 0
            }
        );
        assert_eq!(
            b.flow_sojourn(1),
            FlowSojourn {
                pkts: 2,
                sojourn_ns: 12_304 + 2 * 12_304
            }
        );
        assert_eq!(b.flow_sojourn(7), FlowSojourn::default(), "no such flow");
        let later = b.flow_sojourn(1);
        assert_eq!(
            later.since(FlowSojourn {
                pkts: 1,
                sojourn_ns: 12_304
            }),
            FlowSojourn {
                pkts: 1,
                sojourn_ns: 2 * 12_304
            }
        );
    }

    #[test]
    fn the_ethernet_minimum_pads_tiny_packets() {
        let f = data(0, 0);
        assert_eq!((f.wire_bytes, f.len_bytes), (1538, 1514));
        let tiny = Frame::new(f.packet, 28);
        assert_eq!((tiny.wire_bytes, tiny.len_bytes), (84, 60));
    }

    #[test]
    fn a_full_drop_tail_buffer_drops_arrivals() {
        let mut b = port(Aqm::DropTail {}, 2);
        let mut rng = Rng::new(1);
        for s in 0..4 {
            b.arrive(data(0, s), 0, &mut rng);
        }
        assert_eq!(b.occupancy_pkts(), 3);
        assert_eq!(b.signals.drops, 1);
        assert_eq!(
            b.signals.list,
            [Signal {
                flow: 0,
                kind: SignalKind::Drop
            }]
        );
    }

    /// DCTCP's step marking through the port: the arrival that finds K
    /// packets waiting is marked, and the queue drops only when full.
    #[test]
    fn step_marking_through_the_port() {
        let mut b = port(
            Aqm::StepMark {
                threshold_pkts: Some(3),
            },
            5,
        );
        let mut rng = Rng::new(1);
        for s in 0..8 {
            b.arrive(data(0, s), 0, &mut rng);
        }
        // 1 on the wire; arrivals 2–4 find 0–2 waiting; 5 and 6 find 3
        // and 4 (marked); 7 and 8 find 5: full.
        assert_eq!(b.signals.marks, 2);
        assert_eq!(b.signals.drops, 2);
    }
}
