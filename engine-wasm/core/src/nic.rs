//! A sender host's transmit path and its interrupts: the interface queue
//! (the qdisc, txqueuelen long), the driver's transmit ring in front of the
//! NIC, and the interrupt that reclaims the ring's descriptors and hands
//! ACKs to TCP. Sources are the Linux 2.4 e1000 driver (4.3.15-k1 and
//! 4.4.19-k1 in `lorenzo-stoakes/linux-historical`) and 2.4.20's
//! `net/ipv4/tcp.c`; docs/profiles.md lists them beside each switch.

use crate::net::{Frame, TxTime};
use std::collections::VecDeque;

/// How many frames the driver's ring holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RingSize {
    /// A ring counted in frames (the model before descriptors): this many
    /// frames besides the one on the wire; 0 is no ring.
    Frames(u32),
    /// A ring of this many descriptors; each frame takes
    /// [`Frame::descriptors`] of them. One always stays unused: the
    /// e1000's `E1000_DESC_UNUSED` is `(clean + count − use − 1) % count`.
    Descriptors(u32),
}

/// The e1000 and ixgb wake a stopped queue only when more than this many
/// descriptors are free (`E1000_TX_QUEUE_WAKE`, `IXGB_TX_QUEUE_WAKE`).
pub const TX_QUEUE_WAKE_DESCRIPTORS: u32 = 16;

/// A sender host's NIC: the interface queue (a FIFO of `txqueuelen`
/// frames, Linux's pfifo_fast for one band), then the driver's ring, whose
/// front frame is on the wire.
///
/// Linux `dev_queue_xmit` enqueues a frame (refused, and TCP backs off,
/// only when the qdisc already holds txqueuelen) and `qdisc_run` hands the
/// qdisc's frames to the driver while it takes them; the e1000's
/// `e1000_xmit_frame` takes a frame only if enough descriptors are free,
/// else stops the queue (`netif_stop_queue`) and the frame waits in the
/// qdisc. Descriptors of sent frames come back only when the driver
/// reclaims them: at once (`reclaim_on_interrupt` false) or in the next
/// interrupt (`e1000_clean_tx_irq`), which wakes the queue once more than
/// [`TX_QUEUE_WAKE_DESCRIPTORS`] are free. So between interrupts the ring
/// only drains, TCP's bursts pile up in the qdisc, and txqueuelen can
/// overflow even when the NIC is not the bottleneck.
#[derive(Debug)]
pub struct Port {
    txqueuelen_pkts: usize,
    ring_size: RingSize,
    reclaim_on_interrupt: bool,
    qdisc: VecDeque<Frame>,
    /// New (not retransmitted) segments of each flow in `qdisc`, indexed
    /// by flow and grown on demand: kept as frames come and go so that a
    /// sample reads them without scanning a queue of up to txqueuelen
    /// frames (the scan was the largest cost of a sample row with deep
    /// interface queues).
    new_segments: Vec<u32>,
    /// Frames the driver holds and the NIC has not finished; while `busy`
    /// the front is on the wire.
    ring: VecDeque<Frame>,
    /// Descriptors (or frame places) free for the driver.
    free: u32,
    /// Descriptors of sent frames not yet reclaimed.
    unreclaimed: u32,
    stopped: bool,
    busy: bool,
    tx: TxTime,
    /// Keep the flows of sent frames whose descriptors wait for the
    /// interrupt ([`take_reclaimed_flows`](Port::take_reclaimed_flows)):
    /// TCP Small Queues frees a socket's bytes only at reclaim.
    tracks_owners: bool,
    unreclaimed_flows: Vec<u32>,
    reclaimed_flows: Vec<u32>,
}

/// The interface queue was full: the frame was not taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QueueFull;

/// What finishing a frame on the wire led to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Finished {
    pub frame: Frame,
    /// When the next frame's transmission completes, if one started.
    pub next_done_ns: Option<u64>,
    /// The descriptors wait for an interrupt to be reclaimed.
    pub needs_interrupt: bool,
}

impl Port {
    pub fn new(
        rate_bps: u64,
        txqueuelen_pkts: usize,
        ring_size: RingSize,
        reclaim_on_interrupt: bool,
        wire_bytes: u32,
    ) -> Port {
        let free = match ring_size {
            // The frame on the wire takes one place too.
            RingSize::Frames(n) => n.saturating_add(1),
            RingSize::Descriptors(n) => n.saturating_sub(1).max(1),
        };
        Port {
            txqueuelen_pkts,
            ring_size,
            reclaim_on_interrupt,
            qdisc: VecDeque::with_capacity(crate::net::preallocated_frames(txqueuelen_pkts)),
            new_segments: Vec::new(),
            ring: VecDeque::new(),
            free,
            unreclaimed: 0,
            stopped: false,
            busy: false,
            tx: TxTime::new(rate_bps, wire_bytes),
            tracks_owners: false,
            unreclaimed_flows: Vec::new(),
            reclaimed_flows: Vec::new(),
        }
    }

    /// The same port keeping which flow each unreclaimed frame was
    /// (for TCP Small Queues' `tcp_wfree` at reclaim).
    pub fn tracking_owners_if(mut self, tracks: bool) -> Port {
        self.tracks_owners = tracks;
        self
    }

    /// The flows of the frames the last [`reclaim`](Port::reclaim) freed,
    /// one entry per frame, in the order they were sent (the caller hands
    /// the vector back with [`return_reclaimed_flows`](Port::return_reclaimed_flows)).
    pub fn take_reclaimed_flows(&mut self) -> Vec<u32> {
        std::mem::take(&mut self.reclaimed_flows)
    }

    /// Hand back the vector [`take_reclaimed_flows`](Port::take_reclaimed_flows)
    /// gave, emptied, to keep its allocation.
    pub fn return_reclaimed_flows(&mut self, mut flows: Vec<u32>) {
        flows.clear();
        self.reclaimed_flows = flows;
    }

    /// The same port with its transmit clock `ppb` parts per billion off
    /// nominal (its oscillator's tolerance).
    pub fn with_clock_ppb(mut self, ppb: i64) -> Port {
        self.tx = self.tx.with_clock_ppb(ppb);
        self
    }

    fn cost(&self, f: &Frame) -> u32 {
        match self.ring_size {
            RingSize::Frames(_) => 1,
            // A frame larger than the whole ring would never fit; the
            // driver's ring sizes (≥ 64) make that impossible in practice.
            RingSize::Descriptors(_) => (f.descriptors as u32).min(self.capacity()),
        }
    }

    fn capacity(&self) -> u32 {
        match self.ring_size {
            RingSize::Frames(n) => n.saturating_add(1),
            RingSize::Descriptors(n) => n.saturating_sub(1).max(1),
        }
    }

    /// Hand frames from the qdisc to the driver while they fit (Linux
    /// `qdisc_run`); the first that does not fit stops the queue. Returns
    /// the completion time of a transmission this started.
    fn run_qdisc(&mut self, now_ns: u64) -> Option<u64> {
        let mut started = None;
        while !self.stopped {
            let Some(&f) = self.qdisc.front() else { break };
            let cost = self.cost(&f);
            if cost > self.free {
                self.stopped = true;
                break;
            }
            self.qdisc.pop_front();
            self.count_new_segment(&f, false);
            self.free -= cost;
            self.ring.push_back(f);
            if !self.busy {
                self.busy = true;
                started = Some(now_ns + self.tx.of(f.wire_bytes));
            }
        }
        started
    }

    /// Frames in the interface queue (what `tc` shows as the qdisc's
    /// backlog).
    pub fn interface_queue_pkts(&self) -> usize {
        self.qdisc.len()
    }

    /// New (not retransmitted) segments of `flow` waiting in the interface
    /// queue: sent by TCP, not yet handed to the driver.
    pub fn queued_new_segments(&self, flow: u32) -> u32 {
        self.new_segments.get(flow as usize).copied().unwrap_or(0)
    }

    /// `f` joined (`joined`) or left the interface queue: keep
    /// [`queued_new_segments`](Port::queued_new_segments)'s counts.
    #[inline(always)]
    fn count_new_segment(&mut self, f: &Frame, joined: bool) {
        if f.packet.retransmission {
            return;
        }
        let i = f.packet.flow as usize;
        if joined {
            if i >= self.new_segments.len() {
                self.new_segments.resize(i + 1, 0);
            }
            self.new_segments[i] += 1;
        } else {
            self.new_segments[i] -= 1;
        }
    }

    /// Frames the driver's ring holds, the one on the wire included.
    pub fn ring_pkts(&self) -> usize {
        self.ring.len()
    }

    /// Bytes the qdisc and the ring have allocated for frames (their
    /// high-water marks: the buffers never shrink).
    pub fn allocated_bytes(&self) -> u64 {
        ((self.qdisc.capacity() + self.ring.capacity()) * std::mem::size_of::<Frame>()) as u64
    }

    /// Every frame the host holds: interface queue and ring.
    pub fn occupancy_pkts(&self) -> usize {
        self.qdisc.len() + self.ring.len()
    }

    /// Would a frame offered now be refused?
    pub fn is_full(&self) -> bool {
        self.qdisc.len() >= self.txqueuelen_pkts
            && (self.stopped || !self.qdisc.is_empty() || self.txqueuelen_pkts == 0)
    }

    /// Offer `f` at `now_ns` (Linux `dev_queue_xmit`). A full interface
    /// queue refuses it; otherwise it is queued and handed on at once if
    /// the driver takes it. Returns the time its transmission completes if
    /// the wire was idle (the caller schedules [`finish`](Port::finish)).
    #[inline]
    pub fn enqueue(&mut self, f: Frame, now_ns: u64) -> Result<Option<u64>, QueueFull> {
        if self.qdisc.is_empty() && !self.stopped {
            // The qdisc is empty: its limit is not reached, and qdisc_run
            // hands the frame on straight away if it fits.
            let cost = self.cost(&f);
            if cost <= self.free {
                self.free -= cost;
                self.ring.push_back(f);
                if self.busy {
                    return Ok(None);
                }
                self.busy = true;
                return Ok(Some(now_ns + self.tx.of(f.wire_bytes)));
            }
            if self.txqueuelen_pkts == 0 {
                return Err(QueueFull);
            }
            self.stopped = true;
            self.count_new_segment(&f, true);
            self.qdisc.push_back(f);
            return Ok(None);
        }
        if self.qdisc.len() >= self.txqueuelen_pkts {
            return Err(QueueFull);
        }
        self.count_new_segment(&f, true);
        self.qdisc.push_back(f);
        Ok(None)
    }

    /// The frame on the wire has been sent at `now_ns`.
    #[inline]
    pub fn finish(&mut self, now_ns: u64) -> Finished {
        debug_assert!(self.busy, "a port completes only while busy");
        let frame = self
            .ring
            .pop_front()
            .expect("a port completes only while busy");
        let cost = self.cost(&frame);
        let mut next_done_ns = self.ring.front().map(|n| now_ns + self.tx.of(n.wire_bytes));
        self.busy = next_done_ns.is_some();
        let needs_interrupt = if self.reclaim_on_interrupt {
            self.unreclaimed += cost;
            if self.tracks_owners {
                self.unreclaimed_flows.push(frame.packet.flow);
            }
            true
        } else {
            self.free += cost;
            if self.stopped && self.wakes() {
                self.stopped = false;
            }
            if let Some(t) = self.run_qdisc(now_ns) {
                next_done_ns = Some(t);
            }
            false
        };
        Finished {
            frame,
            next_done_ns,
            needs_interrupt,
        }
    }

    fn wakes(&self) -> bool {
        match self.ring_size {
            RingSize::Frames(_) => true,
            RingSize::Descriptors(_) => {
                self.free > TX_QUEUE_WAKE_DESCRIPTORS.min(self.capacity() - 1)
            }
        }
    }

    /// The host's interrupt reclaims the descriptors of every sent frame
    /// (`e1000_clean_tx_irq`), wakes a stopped queue once enough are free,
    /// and the transmit softirq refills the ring from the qdisc. Returns
    /// the completion time of a transmission this started.
    pub fn reclaim(&mut self, now_ns: u64) -> Option<u64> {
        self.free += std::mem::take(&mut self.unreclaimed);
        if self.tracks_owners {
            self.reclaimed_flows.append(&mut self.unreclaimed_flows);
        }
        if self.stopped && self.wakes() {
            self.stopped = false;
        }
        self.run_qdisc(now_ns)
    }
}

/// Linux 2.4's layout of a TCP segment written with `write()` on a route
/// with scatter-gather (`net/ipv4/tcp.c` 2.4.20, `select_size` and
/// `tcp_sendmsg`): a linear part of `pgbreak` bytes when the MSS exceeds
/// it, the rest in page fragments taken from the socket's cached page, each
/// new fragment starting at the next cache-line boundary. A driver that
/// maps every buffer to one descriptor (the e1000's `e1000_tx_map` with
/// buffers under its 4096- or 16128-byte limit; no checksum context, since
/// `tcp_sendmsg` checksums in software and never sets `CHECKSUM_HW`) uses
/// 1 + fragments descriptors per frame: 1 at MSS 1448, 3 or 4 at MSS 8948.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SkbLayout {
    /// Descriptors of segment n for n < `prefix.len()`, then `cycle`
    /// repeating (the page cursor is a function of the segment number,
    /// since every segment is one full MSS).
    prefix: Vec<u8>,
    cycle: Vec<u8>,
}

/// `L1_CACHE_BYTES` of the i686 kernels Red Hat 9 shipped (32; a P4 build
/// has 128).
pub const I686_CACHE_LINE_BYTES: u32 = 32;

/// i386 `PAGE_SIZE`.
pub const PAGE_BYTES: u32 = 4096;
/// 2.4's `MAX_SKB_FRAGS` (`include/linux/skbuff.h`).
const MAX_SKB_FRAGS: u32 = 6;
/// `MAX_TCP_HEADER` (128 + `MAX_HEADER` 32, no IPv6 or tunnels).
const MAX_TCP_HEADER_BYTES: u32 = 160;
/// `sizeof(struct skb_shared_info)` on 2.4 i386.
const SKB_SHARED_INFO_BYTES: u32 = 60;

impl SkbLayout {
    /// The layout for segments of `mss_bytes` with `cache_line_bytes`
    /// (`L1_CACHE_BYTES`: 32 for the i686 kernels Red Hat 9 shipped).
    pub fn linux_2_4(mss_bytes: u32, cache_line_bytes: u32) -> SkbLayout {
        let line = cache_line_bytes.max(1);
        let pgbreak = (PAGE_BYTES - MAX_TCP_HEADER_BYTES - SKB_SHARED_INFO_BYTES) / line * line;
        let linear_only =
            mss_bytes < pgbreak || mss_bytes > pgbreak + (MAX_SKB_FRAGS - 1) * PAGE_BYTES;
        if linear_only {
            return SkbLayout {
                prefix: Vec::new(),
                cycle: vec![1],
            };
        }
        let frag_bytes = mss_bytes - pgbreak;
        // Walk the page cursor from a fresh socket (offset 0) until an
        // offset repeats.
        let mut seen: Vec<Option<usize>> = vec![None; (PAGE_BYTES / line + 1) as usize];
        let mut counts = Vec::new();
        let mut off = 0u32;
        loop {
            let slot = (off / line) as usize;
            if let Some(first) = seen[slot] {
                let cycle = counts.split_off(first);
                return SkbLayout {
                    prefix: counts,
                    cycle,
                };
            }
            seen[slot] = Some(counts.len());
            let mut left = frag_bytes;
            let mut frags = 0u8;
            let mut o = off;
            while left > 0 {
                if o >= PAGE_BYTES {
                    o = 0;
                }
                let take = left.min(PAGE_BYTES - o);
                frags += 1;
                left -= take;
                o += take;
            }
            counts.push(1 + frags);
            // The next segment's first fragment starts on a cache line.
            off = o.div_ceil(line) * line;
            if off >= PAGE_BYTES {
                off = 0;
            }
        }
    }

    /// Every frame is one descriptor (frames counted as packets).
    pub fn single() -> SkbLayout {
        SkbLayout {
            prefix: Vec::new(),
            cycle: vec![1],
        }
    }

    /// Descriptors segment number `seq` takes.
    pub fn descriptors(&self, seq: u32) -> u8 {
        let n = seq as usize;
        if n < self.prefix.len() {
            self.prefix[n]
        } else {
            self.cycle[(n - self.prefix.len()) % self.cycle.len()]
        }
    }

    /// The mean over one cycle (for docs and tests).
    pub fn mean_descriptors(&self) -> f64 {
        self.cycle.iter().map(|&c| c as f64).sum::<f64>() / self.cycle.len() as f64
    }
}

/// A host's network interrupt (the e1000's `e1000_intr`): its causes are
/// ACKs arriving (receive) and sent frames' descriptors written back
/// (transmit). Each cause arms its absolute delay timer (RADV, TADV) at its
/// first occurrence since the last interrupt; the interrupt fires when the
/// first armed timer expires, but never sooner than `throttle_ns` after the
/// previous one (the ITR register). When it fires, every ACK that arrived
/// reaches TCP and every sent frame's descriptors are reclaimed.
#[derive(Debug)]
pub struct HostInterrupt<T> {
    rx_delay_ns: u64,
    tx_delay_ns: u64,
    throttle_ns: u64,
    /// The throttle allows the next interrupt from here.
    next_allowed_ns: u64,
    rx_deadline_ns: Option<u64>,
    tx_deadline_ns: Option<u64>,
    pending: Vec<T>,
}

impl<T> HostInterrupt<T> {
    /// Bytes allocated for ACKs waiting for the interrupt.
    pub fn allocated_bytes(&self) -> u64 {
        (self.pending.capacity() * std::mem::size_of::<T>()) as u64
    }

    /// `throttle_phase` in [0, 1): where in its throttle interval the NIC
    /// was when the run began (the previous interrupt came
    /// `(1 − phase)·throttle` before time zero).
    pub fn new(rx_delay_ns: u64, tx_delay_ns: u64, throttle_ns: u64, throttle_phase: f64) -> Self {
        HostInterrupt {
            rx_delay_ns,
            tx_delay_ns,
            throttle_ns,
            next_allowed_ns: (throttle_phase * throttle_ns as f64) as u64,
            rx_deadline_ns: None,
            tx_deadline_ns: None,
            pending: Vec::new(),
        }
    }

    /// Items waiting for the interrupt.
    pub fn pending_len(&self) -> usize {
        self.pending.len()
    }

    /// ACKs reach TCP as they arrive (no receive moderation).
    pub fn rx_is_immediate(&self) -> bool {
        self.rx_delay_ns == 0 && self.throttle_ns == 0
    }

    /// When the interrupt fires, if a cause is pending.
    pub fn fire_time_ns(&self) -> Option<u64> {
        let first = match (self.rx_deadline_ns, self.tx_deadline_ns) {
            (Some(a), Some(b)) => a.min(b),
            (a, b) => a.or(b)?,
        };
        Some(first.max(self.next_allowed_ns))
    }

    /// An ACK arrived at `now_ns` and waits for the interrupt.
    pub fn receive(&mut self, now_ns: u64, item: T) {
        self.pending.push(item);
        self.rx_deadline_ns.get_or_insert(now_ns + self.rx_delay_ns);
    }

    /// A sent frame's descriptors were written back at `now_ns`.
    pub fn tx_completed(&mut self, now_ns: u64) {
        self.tx_deadline_ns.get_or_insert(now_ns + self.tx_delay_ns);
    }

    /// The interrupt fires at `now_ns`: the ACKs that waited for it, in
    /// arrival order. Hand the batch back with
    /// [`recycle`](HostInterrupt::recycle) to keep its allocation.
    pub fn fire(&mut self, now_ns: u64) -> Vec<T> {
        self.rx_deadline_ns = None;
        self.tx_deadline_ns = None;
        self.next_allowed_ns = now_ns + self.throttle_ns;
        std::mem::take(&mut self.pending)
    }

    pub fn recycle(&mut self, mut batch: Vec<T>) {
        if self.pending.is_empty() {
            batch.clear();
            self.pending = batch;
        }
    }
}

/// A kernel's timer wheel: timers expire only on its ticks (jiffies), and
/// each host's ticks fall at its own phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TickClock {
    tick_ns: u64,
    phase_ns: u64,
}

impl TickClock {
    /// Exact timers.
    pub const EXACT: TickClock = TickClock {
        tick_ns: 0,
        phase_ns: 0,
    };

    /// Ticks every `1/hz` s, the first `phase` of a tick after time zero.
    pub fn new(hz: u32, phase: f64) -> TickClock {
        if hz == 0 {
            return TickClock::EXACT;
        }
        let tick_ns = 1_000_000_000 / hz as u64;
        TickClock {
            tick_ns,
            phase_ns: (phase * tick_ns as f64) as u64 % tick_ns.max(1),
        }
    }

    /// When a timer set to expire at `deadline_ns` runs: the first tick at
    /// or after it (Linux `run_timer_softirq` runs timers whose `expires`
    /// jiffy has come).
    pub fn expiry_ns(&self, deadline_ns: u64) -> u64 {
        if self.tick_ns == 0 {
            return deadline_ns;
        }
        if deadline_ns <= self.phase_ns {
            return self.phase_ns;
        }
        let since = deadline_ns - self.phase_ns;
        self.phase_ns + since.div_ceil(self.tick_ns) * self.tick_ns
    }

    /// [`expiry_ns`](TickClock::expiry_ns), exactly, remembering the tick
    /// it returns in `last_ns` (0: none yet): a deadline within the tick
    /// before the remembered one expires at it, found without a division
    /// (timers are re-armed a little later at almost every ACK, so most
    /// deadlines fall in the same tick as the one before).
    #[inline]
    pub fn expiry_ns_near(&self, deadline_ns: u64, last_ns: &mut u64) -> u64 {
        if self.tick_ns == 0 {
            return deadline_ns;
        }
        let last = *last_ns;
        // `last` is phase + k·tick: a deadline in (last − tick, last]
        // rounds up to it (k = 0: a deadline at or before the phase).
        if last != 0 && deadline_ns <= last && deadline_ns > last.saturating_sub(self.tick_ns) {
            return last;
        }
        let t = self.expiry_ns(deadline_ns);
        *last_ns = t;
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aqm::testing;

    fn frame(seq: u32, descriptors: u8) -> Frame {
        let mut f = testing::frame(0, seq, 1500, 0);
        f.descriptors = descriptors;
        f
    }

    /// The remembered tick gives exactly `expiry_ns`, for deadlines that
    /// rise, fall back, land on ticks and fall before the first tick.
    #[test]
    fn expiry_near_the_last_tick_is_expiry() {
        for (hz, phase) in [(250, 0.0), (250, 0.37), (100, 0.999), (1000, 0.5), (0, 0.0)] {
            let clock = TickClock::new(hz, phase);
            let mut last = 0;
            let mut d = 0u64;
            for i in 0..50_000u64 {
                // Mostly small steps forward, now and then a jump back or
                // onto a tick.
                d = match i % 97 {
                    0 => d / 3,
                    1 => clock.expiry_ns(d),
                    _ => d + (i * 7_919) % 1_300_000,
                };
                assert_eq!(
                    clock.expiry_ns_near(d, &mut last),
                    clock.expiry_ns(d),
                    "{hz} {phase} {d}"
                );
            }
        }
    }

    /// A port of one interface-queue place and one ring place holds two
    /// waiting frames besides the one on the wire (the model counted in
    /// frames, reclaimed at once).
    #[test]
    fn a_frame_ring_sends_in_order_and_refuses_when_queue_and_ring_are_full() {
        let mut port = Port::new(1_000_000_000, 1, RingSize::Frames(1), false, 1538);
        assert_eq!(port.enqueue(frame(0, 1), 100), Ok(Some(100 + 12_304)));
        assert_eq!(port.enqueue(frame(1, 1), 200), Ok(None));
        assert_eq!(port.enqueue(frame(2, 1), 300), Ok(None));
        assert_eq!(port.enqueue(frame(3, 1), 400), Err(QueueFull));
        assert_eq!(port.occupancy_pkts(), 3);
        assert_eq!(port.interface_queue_pkts(), 1);
        let done = port.finish(12_404);
        assert_eq!(done.frame.packet.seq, 0);
        assert_eq!(done.next_done_ns, Some(12_404 + 12_304));
        assert!(!done.needs_interrupt);
        assert_eq!(
            port.interface_queue_pkts(),
            0,
            "the ring took the queued frame"
        );
        assert_eq!(port.finish(24_708).frame.packet.seq, 1);
        let done = port.finish(37_012);
        assert_eq!((done.frame.packet.seq, done.next_done_ns), (2, None));
        assert_eq!(port.occupancy_pkts(), 0);
    }

    /// With no ring the interface queue holds txqueuelen frames besides
    /// the one on the wire, as before the ring existed.
    #[test]
    fn without_a_ring_the_interface_queue_alone_buffers() {
        let mut port = Port::new(1_000_000_000, 2, RingSize::Frames(0), false, 1538);
        assert!(port.enqueue(frame(0, 1), 0).unwrap().is_some());
        assert!(port.enqueue(frame(1, 1), 0).is_ok());
        assert!(port.enqueue(frame(2, 1), 0).is_ok());
        assert_eq!(port.enqueue(frame(3, 1), 0), Err(QueueFull));
    }

    /// e1000: a ring of 8 descriptors (7 usable) takes two 3-descriptor
    /// frames; the third stops the queue and waits in the qdisc. Sending
    /// frees nothing until the interrupt reclaims, and the queue wakes only
    /// with more than 16 (here: all but one) descriptors free.
    #[test]
    fn a_descriptor_ring_frees_its_descriptors_only_at_the_interrupt() {
        let mut port = Port::new(1_000_000_000, 10, RingSize::Descriptors(8), true, 1538);
        assert!(port.enqueue(frame(0, 3), 0).unwrap().is_some());
        assert_eq!(port.enqueue(frame(1, 3), 0), Ok(None));
        assert_eq!(port.enqueue(frame(2, 3), 0), Ok(None));
        assert_eq!((port.ring_pkts(), port.interface_queue_pkts()), (2, 1));
        let done = port.finish(12_304);
        assert!(done.needs_interrupt);
        assert!(done.next_done_ns.is_some());
        assert_eq!(port.interface_queue_pkts(), 1, "nothing reclaimed yet");
        let done = port.finish(24_608);
        assert_eq!(done.next_done_ns, None, "the ring ran dry");
        // The interrupt reclaims six descriptors and the qdisc refills.
        assert_eq!(port.reclaim(100_000), Some(100_000 + 12_304));
        assert_eq!((port.ring_pkts(), port.interface_queue_pkts()), (1, 0));
    }

    /// The qdisc refuses only when it already holds txqueuelen frames.
    #[test]
    fn a_stopped_queue_fills_the_qdisc_up_to_txqueuelen() {
        let mut port = Port::new(1_000_000_000, 2, RingSize::Descriptors(4), true, 1538);
        assert!(port.enqueue(frame(0, 3), 0).unwrap().is_some());
        assert_eq!(port.enqueue(frame(1, 3), 0), Ok(None));
        assert_eq!(port.enqueue(frame(2, 3), 0), Ok(None));
        assert!(port.is_full());
        assert_eq!(port.enqueue(frame(3, 3), 0), Err(QueueFull));
    }

    /// 2.4.20 `tcp_sendmsg` with scatter-gather on i686 (32-byte lines):
    /// pgbreak 3872, so an 8948-byte segment is 3872 linear bytes and 5076
    /// in page fragments: the first from a fresh page is 4096 + 980 (two
    /// fragments, three descriptors); a 1448-byte segment is all linear.
    #[test]
    fn linux_2_4_segments_take_three_or_four_descriptors_at_jumbo_mtu() {
        let jumbo = SkbLayout::linux_2_4(8948, 32);
        let first: Vec<u8> = (0..6).map(|n| jumbo.descriptors(n)).collect();
        // Offsets 0 → 980 → (992) 1972 → (1984) 2964 → (2976) 3956 →
        // (3968) 128 + 4096 + 852: the fifth segment spans three pages.
        assert_eq!(first, [3, 3, 3, 3, 4, 3]);
        let mean = jumbo.mean_descriptors();
        assert!(mean > 3.0 && mean < 3.5, "{mean}");
        // 255 usable descriptors hold about 78 jumbo frames, not 128.
        assert_eq!((255.0 / mean) as u32, 78);
        let standard = SkbLayout::linux_2_4(1448, 32);
        assert_eq!(standard.descriptors(0), 1);
        assert_eq!(standard.descriptors(12345), 1);
    }

    /// RADV 131 µs for ACKs, TADV 65.5 µs for sent frames, ITR 125 µs.
    #[test]
    fn the_interrupt_fires_at_the_first_timer_but_not_before_the_throttle() {
        let mut irq = HostInterrupt::new(131_072, 65_536, 124_928, 0.0);
        irq.receive(1_000, 'a');
        assert_eq!(irq.fire_time_ns(), Some(132_072));
        irq.tx_completed(2_000);
        assert_eq!(
            irq.fire_time_ns(),
            Some(67_536),
            "the transmit timer is first"
        );
        irq.receive(50_000, 'b');
        assert_eq!(irq.fire(67_536), ['a', 'b']);
        assert_eq!(irq.fire_time_ns(), None);
        irq.tx_completed(70_000);
        assert_eq!(
            irq.fire_time_ns(),
            Some(67_536 + 124_928),
            "throttled: 125 µs after the last"
        );
        // A phase of one half: the previous interrupt was 62.5 µs ago.
        let mut irq = HostInterrupt::<()>::new(0, 0, 124_928, 0.5);
        irq.tx_completed(0);
        assert_eq!(irq.fire_time_ns(), Some(62_464));
    }

    #[test]
    fn timers_expire_on_the_hosts_ticks() {
        let hz100 = TickClock::new(100, 0.25);
        assert_eq!(hz100.expiry_ns(0), 2_500_000);
        assert_eq!(hz100.expiry_ns(2_500_000), 2_500_000);
        assert_eq!(hz100.expiry_ns(2_500_001), 12_500_000);
        assert_eq!(TickClock::EXACT.expiry_ns(7), 7);
    }
}
