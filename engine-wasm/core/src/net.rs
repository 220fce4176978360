//! The network: packets, interface queues, the bottleneck port (drop-tail or
//! RED/ECN) and propagation delay lines. Each element has at most one pending
//! event (htsim's design): a link schedules its next completion, a delay line
//! schedules only its head.

use std::collections::VecDeque;

/// Ethernet framing per packet on the wire: 14 header + 4 FCS + 8 preamble
/// + 12 inter-frame gap. With MTU 1500 a 1448-byte segment takes 1538 bytes
/// of line time, which is why iperf tops out near 941 Mb/s on gigabit.
pub const ETHERNET_OVERHEAD_BYTES: u32 = 38;

/// Headers inside the MTU: 20 IPv4 + 20 TCP + 12 for the timestamp option
/// (RFC 7323 §3, padded to 12), which every kernel the papers ran enabled.
/// MSS = MTU − 52: 1448 bytes at MTU 1500, 8948 at MTU 9000.
pub const TCP_IP_HEADER_BYTES: u32 = 52;

/// One data segment on its way to the receiver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Packet {
    pub flow: u32,
    /// Segment number (sequence number in units of MSS).
    pub seq: u32,
    pub sent_ns: u64,
    pub retransmission: bool,
    /// Congestion Experienced, set by a RED queue marking instead of dropping.
    pub ce: bool,
}

/// One acknowledgement on its way back to the sender.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ack {
    /// Next segment the receiver expects (cumulative ACK).
    pub cum_seq: u32,
    /// The out-of-order segment this ACK reports (a one-segment SACK block;
    /// each out-of-order arrival gets its own ACK, so the sender learns
    /// every SACKed segment exactly once).
    pub sacked_seq: Option<u32>,
    /// ECN-Echo (RFC 3168 §6.1.3).
    pub ece: bool,
    /// Timestamp echo: when the segment that triggered this ACK was sent.
    pub echo_sent_ns: u64,
    /// The echoed segment was a retransmission (no RTT sample: Karn).
    pub echo_retransmission: bool,
}

/// Nanoseconds to serialise `bytes` at `rate_bps`, rounded up.
pub fn serialisation_ns(bytes: u32, rate_bps: u64) -> u64 {
    (bytes as u64 * 8 * 1_000_000_000).div_ceil(rate_bps)
}

/// A FIFO transmitter: a queue of waiting packets plus the one on the wire.
/// The packet on the wire stays at the front of the queue until it is
/// sent, so a packet is written once on arrival and read once on leaving.
#[derive(Debug)]
pub struct Port {
    pub rate_bps: u64,
    /// Waiting packets the port holds (the one on the wire not counted).
    pub capacity_pkts: usize,
    /// While `busy`, the front is the packet on the wire.
    queue: VecDeque<Packet>,
    busy: bool,
    pub tx_ns: u64,
    pub drops: u64,
    pub marks: u64,
    pub sent_pkts: u64,
}

impl Port {
    pub fn new(rate_bps: u64, capacity_pkts: usize, wire_bytes: u32) -> Port {
        Port {
            rate_bps,
            capacity_pkts,
            queue: VecDeque::with_capacity(capacity_pkts.saturating_add(1).min(1 << 16)),
            busy: false,
            tx_ns: serialisation_ns(wire_bytes, rate_bps),
            drops: 0,
            marks: 0,
            sent_pkts: 0,
        }
    }

    /// Packets waiting, not counting the one on the wire.
    pub fn waiting_pkts(&self) -> usize {
        self.queue.len() - self.busy as usize
    }

    pub fn is_full(&self) -> bool {
        self.waiting_pkts() >= self.capacity_pkts
    }

    /// Packets waiting plus the one being sent.
    pub fn occupancy_pkts(&self) -> usize {
        self.queue.len()
    }

    /// Queue `p` (the caller checked [`is_full`](Port::is_full)). Returns
    /// true if the port was idle and starts sending it: the caller
    /// schedules its completion after `tx_ns`.
    pub fn enqueue(&mut self, p: Packet) -> bool {
        self.queue.push_back(p);
        let start = !self.busy;
        self.busy = true;
        start
    }

    /// The packet on the wire has been sent: returns it, and whether the
    /// next one starts (the caller schedules its completion).
    pub fn finish(&mut self) -> (Packet, bool) {
        debug_assert!(self.busy, "a port completes only while busy");
        let p = self
            .queue
            .pop_front()
            .expect("a port completes only while busy");
        self.sent_pkts += 1;
        self.busy = !self.queue.is_empty();
        (p, self.busy)
    }
}

/// Random Early Detection state (Floyd & Jacobson 1993, "gentle" off).
#[derive(Clone, Debug)]
pub struct Red {
    pub min_th: f64,
    pub max_th: f64,
    pub max_p: f64,
    pub weight: f64,
    pub ecn: bool,
    pub avg: f64,
    /// Packets since the last mark/drop (the `count` of the paper).
    pub count: i64,
    /// When the queue went idle, to decay `avg` across idle time.
    pub idle_since_ns: Option<u64>,
}

/// What RED decides for an arriving packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RedVerdict {
    Enqueue,
    Mark,
    Drop,
}

impl Red {
    pub fn new(min_th: f64, max_th: f64, max_p: f64, weight: f64, ecn: bool) -> Red {
        Red {
            min_th,
            max_th,
            max_p,
            weight,
            ecn,
            avg: 0.0,
            count: -1,
            idle_since_ns: None,
        }
    }

    /// Update the average with the instantaneous queue `q` and decide.
    /// `uniform` is a draw in [0, 1); `tx_ns` is one packet's transmission
    /// time, used to age the average over idle periods (Floyd & Jacobson §4).
    pub fn on_arrival(
        &mut self,
        q: usize,
        now_ns: u64,
        tx_ns: u64,
        uniform: f64,
        ect: bool,
    ) -> RedVerdict {
        if let Some(since) = self.idle_since_ns {
            // The queue stays idle until a packet is actually queued (the
            // caller clears the mark then), so age from here on.
            let m = ((now_ns - since) / tx_ns.max(1)).min(i32::MAX as u64) as i32;
            self.avg *= (1.0 - self.weight).powi(m);
            self.idle_since_ns = Some(now_ns);
        }
        self.avg = (1.0 - self.weight) * self.avg + self.weight * q as f64;
        if self.avg < self.min_th {
            self.count = -1;
            return RedVerdict::Enqueue;
        }
        let signal = if self.avg >= self.max_th {
            self.count = 0;
            true
        } else {
            self.count += 1;
            let pb = self.max_p * (self.avg - self.min_th) / (self.max_th - self.min_th);
            let denom = 1.0 - self.count as f64 * pb;
            let pa = if denom <= 0.0 { 1.0 } else { pb / denom };
            if uniform < pa {
                self.count = 0;
                true
            } else {
                false
            }
        };
        match (signal, self.ecn && ect && self.avg < self.max_th) {
            (false, _) => RedVerdict::Enqueue,
            (true, true) => RedVerdict::Mark,
            (true, false) => RedVerdict::Drop,
        }
    }
}

/// A constant-delay FIFO pipe. Items leave in order, so only the head needs
/// a pending event.
#[derive(Debug)]
pub struct DelayLine<T> {
    pub delay_ns: u64,
    /// Items leave only at multiples of this (0: exactly on time): a netem
    /// delay on a kernel whose timer ticks every jiffy.
    granularity_ns: u64,
    items: VecDeque<(u64, T)>,
}

impl<T> DelayLine<T> {
    pub fn new(delay_ns: u64) -> Self {
        Self::with_granularity(delay_ns, 0)
    }

    pub fn with_granularity(delay_ns: u64, granularity_ns: u64) -> Self {
        DelayLine {
            delay_ns,
            granularity_ns,
            items: VecDeque::new(),
        }
    }

    /// Put `item` in at `now_ns`. Returns its exit time if the line was empty
    /// (the caller schedules an event then).
    pub fn push(&mut self, now_ns: u64, item: T) -> Option<u64> {
        let mut exit = now_ns + self.delay_ns;
        if self.granularity_ns > 0 {
            exit = exit.div_ceil(self.granularity_ns) * self.granularity_ns;
        }
        let was_empty = self.items.is_empty();
        self.items.push_back((exit, item));
        was_empty.then_some(exit)
    }

    /// Take the head if it has arrived by `now_ns`.
    pub fn pop_due(&mut self, now_ns: u64) -> Option<T> {
        match self.items.front() {
            Some(&(t, _)) if t <= now_ns => self.items.pop_front().map(|(_, x)| x),
            _ => None,
        }
    }

    pub fn next_exit_ns(&self) -> Option<u64> {
        self.items.front().map(|&(t, _)| t)
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gigabit_serialisation_of_a_1500_byte_frame_is_12_304_ns() {
        assert_eq!(
            serialisation_ns(1500 + ETHERNET_OVERHEAD_BYTES, 1_000_000_000),
            12_304
        );
        assert_eq!(serialisation_ns(9038, 10_000_000_000), 7_231);
    }

    #[test]
    fn a_jiffy_delay_line_releases_on_tick_boundaries_in_order() {
        let mut d = DelayLine::with_granularity(15_000_000, 1_000_000);
        assert_eq!(d.push(100, 'a'), Some(16_000_000));
        assert_eq!(d.push(900_000, 'b'), None);
        assert_eq!(d.push(1_000_001, 'c'), None);
        assert_eq!(d.pop_due(16_000_000), Some('a'));
        assert_eq!(d.pop_due(16_000_000), Some('b'), "same tick: a burst");
        assert_eq!(d.next_exit_ns(), Some(17_000_000));
    }

    #[test]
    fn delay_line_is_fifo_and_reports_only_the_first_exit() {
        let mut d = DelayLine::new(100);
        assert_eq!(d.push(0, 'a'), Some(100));
        assert_eq!(d.push(5, 'b'), None);
        assert_eq!(d.pop_due(99), None);
        assert_eq!(d.pop_due(100), Some('a'));
        assert_eq!(d.next_exit_ns(), Some(105));
    }

    /// Floyd & Jacobson §4: the average decays over idle time, even when
    /// arrivals during the idle period are dropped (a regression: the idle
    /// mark used to be consumed by a dropped packet, freezing the average
    /// above max_th so that every retransmission was dropped).
    #[test]
    fn red_average_decays_across_idle_time_despite_drops() {
        let mut red = Red::new(5.0, 15.0, 0.1, 0.01, false);
        red.avg = 100.0;
        red.idle_since_ns = Some(0);
        assert_eq!(red.on_arrival(0, 1_000, 1_000, 0.5, true), RedVerdict::Drop);
        assert!(red.idle_since_ns.is_some(), "a drop leaves the queue idle");
        let v = red.on_arrival(0, 10_000_000, 1_000, 0.5, true);
        assert!(red.avg < 1.0, "avg {}", red.avg);
        assert_eq!(v, RedVerdict::Enqueue);
    }

    #[test]
    fn red_never_signals_below_min_th_and_always_above_max_th() {
        let mut red = Red::new(5.0, 15.0, 0.1, 1.0, false);
        for _ in 0..100 {
            assert_eq!(red.on_arrival(4, 0, 1, 0.0, true), RedVerdict::Enqueue);
        }
        assert_eq!(red.on_arrival(20, 0, 1, 0.999, true), RedVerdict::Drop);
        let mut ecn = Red::new(5.0, 15.0, 1.0, 1.0, true);
        assert_eq!(ecn.on_arrival(14, 0, 1, 0.0, true), RedVerdict::Mark);
        assert_eq!(ecn.on_arrival(14, 0, 1, 0.0, false), RedVerdict::Drop);
    }
}
