//! The network: packets, the frames queues hold, interface queues and
//! propagation delay lines (the bottleneck and its queue management are in
//! `aqm/`). Each element has at most one pending event (htsim's design): a
//! link schedules its next completion, a delay line schedules only its head.

use std::collections::VecDeque;

/// Ethernet framing per packet on the wire: 14 header + 4 FCS + 8 preamble
/// + 12 inter-frame gap. With MTU 1500 a 1448-byte segment takes 1538 bytes
/// of line time, which is why iperf tops out near 941 Mb/s on gigabit.
pub const ETHERNET_OVERHEAD_BYTES: u32 = 38;

/// The Ethernet header (14 bytes) inside that overhead: what a Linux qdisc
/// counts of a frame besides its IP packet (`qdisc_pkt_len` is `skb->len`,
/// header included, FCS, preamble and gap not).
pub const ETHERNET_HEADER_BYTES: u32 = 14;

/// The smallest Ethernet payload (IEEE 802.3: a 64-byte minimum frame less
/// its 14-byte header and 4-byte FCS); shorter IP packets are padded.
pub const ETHERNET_MIN_PAYLOAD_BYTES: u32 = 46;

/// Headers inside the MTU: 20 IPv4 + 20 TCP + 12 for the timestamp option
/// (RFC 7323 §3, padded to 12), which every kernel the papers ran enabled.
/// MSS = MTU − 52: 1448 bytes at MTU 1500, 8948 at MTU 9000.
pub const TCP_IP_HEADER_BYTES: u32 = 52;

/// The `flow` of a latency probe (an ICMP echo of the probe host, not a
/// TCP flow): no flow index reaches it (at most 64 × 64 flows).
pub const PROBE_FLOW: u32 = u32::MAX;

/// One data segment on its way to the receiver, or a latency probe
/// (`flow == PROBE_FLOW`, `seq` its number).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Packet {
    pub flow: u32,
    /// Segment number (sequence number in units of MSS).
    pub seq: u32,
    pub sent_ns: u64,
    pub retransmission: bool,
    /// Congestion Experienced, set by a queue marking instead of dropping.
    pub ce: bool,
}

impl Packet {
    /// ECN-capable transport (RFC 3168 §5): every TCP flow is, as the
    /// RED+ECN model always assumed; a latency probe is not (ping sends its
    /// echo requests Not-ECT), so a queue that would mark it drops it.
    pub fn is_ect(&self) -> bool {
        self.flow != PROBE_FLOW
    }

    pub fn is_probe(&self) -> bool {
        self.flow == PROBE_FLOW
    }
}

/// A packet in a queue, with its size and the time it joined the queue.
/// (`Packet` itself stays the receiver's 24-byte view of a segment; what
/// only queues need lives here.)
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Frame {
    pub packet: Packet,
    /// When the frame joined its current queue: its sojourn time is
    /// measured from here (RFC 8289 §3.1).
    pub enqueued_ns: u64,
    /// Bytes of line time: the IP packet (padded to the minimum Ethernet
    /// payload) plus [`ETHERNET_OVERHEAD_BYTES`].
    pub wire_bytes: u32,
    /// Bytes a queue counts (backlogs, DRR deficits, MTU comparisons): the
    /// IP packet plus the Ethernet header, as Linux's qdiscs count them.
    pub len_bytes: u32,
}

impl Frame {
    /// A frame carrying an IP packet of `ip_bytes`.
    pub fn new(packet: Packet, ip_bytes: u32) -> Frame {
        Frame {
            packet,
            enqueued_ns: 0,
            wire_bytes: ip_bytes.max(ETHERNET_MIN_PAYLOAD_BYTES) + ETHERNET_OVERHEAD_BYTES,
            len_bytes: ip_bytes.max(ETHERNET_MIN_PAYLOAD_BYTES) + ETHERNET_HEADER_BYTES,
        }
    }
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

/// Serialisation times at one rate, with the common frame size's cached
/// (every data packet has it).
#[derive(Clone, Copy, Debug)]
pub struct TxTime {
    pub rate_bps: u64,
    pub common_wire_bytes: u32,
    /// Nanoseconds to send a frame of `common_wire_bytes`.
    pub common_ns: u64,
}

impl TxTime {
    pub fn new(rate_bps: u64, common_wire_bytes: u32) -> TxTime {
        TxTime {
            rate_bps,
            common_wire_bytes,
            common_ns: serialisation_ns(common_wire_bytes, rate_bps),
        }
    }

    /// Nanoseconds to send a frame of `wire_bytes`.
    #[inline]
    pub fn of(&self, wire_bytes: u32) -> u64 {
        if wire_bytes == self.common_wire_bytes {
            self.common_ns
        } else {
            serialisation_ns(wire_bytes, self.rate_bps)
        }
    }
}

/// A sender host's NIC: a FIFO transmitter whose queue is the interface
/// queue (txqueuelen) with the driver's transmit ring behind it, plus the
/// frame on the wire, each frame sent in its own size's time. The ring and
/// the interface queue are one FIFO whose first `ring_pkts` places are the
/// ring (the qdisc hands packets on whenever the ring has room), so TCP is
/// refused only when both are full. The frame on the wire stays at the
/// front of the queue until it is sent, so a frame is written once on
/// arrival and read once on leaving.
#[derive(Debug)]
pub struct Port {
    /// Waiting frames the port holds, interface queue and ring together
    /// (the one on the wire not counted).
    capacity_pkts: usize,
    ring_pkts: usize,
    /// While `busy`, the front is the frame on the wire.
    queue: VecDeque<Frame>,
    busy: bool,
    tx: TxTime,
}

/// The port's queue was full: the frame was not taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QueueFull;

impl Port {
    pub fn new(rate_bps: u64, txqueuelen_pkts: usize, ring_pkts: usize, wire_bytes: u32) -> Port {
        let capacity_pkts = txqueuelen_pkts + ring_pkts;
        Port {
            capacity_pkts,
            ring_pkts,
            queue: VecDeque::with_capacity(capacity_pkts.saturating_add(1).min(1 << 16)),
            busy: false,
            tx: TxTime::new(rate_bps, wire_bytes),
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

    /// Packets in the interface queue proper (what `tc` shows as the
    /// qdisc's backlog): the occupancy less the ring's places.
    pub fn interface_queue_pkts(&self) -> usize {
        self.queue.len().saturating_sub(self.ring_pkts)
    }

    /// Offer `f` at `now_ns`. A full port refuses it; otherwise it is
    /// queued and, if the port was idle, starts at once: then the time its
    /// transmission completes is returned (the caller schedules
    /// [`finish`](Port::finish) then).
    #[inline]
    pub fn enqueue(&mut self, f: Frame, now_ns: u64) -> Result<Option<u64>, QueueFull> {
        if self.is_full() {
            return Err(QueueFull);
        }
        let done_ns = (!self.busy).then(|| now_ns + self.tx.of(f.wire_bytes));
        self.queue.push_back(f);
        self.busy = true;
        Ok(done_ns)
    }

    /// The frame on the wire has been sent at `now_ns`: returns it, and
    /// when the next frame's transmission completes if one starts (the
    /// caller schedules its completion).
    #[inline]
    pub fn finish(&mut self, now_ns: u64) -> (Frame, Option<u64>) {
        debug_assert!(self.busy, "a port completes only while busy");
        let f = self
            .queue
            .pop_front()
            .expect("a port completes only while busy");
        let next = self
            .queue
            .front()
            .map(|n| now_ns + self.tx.of(n.wire_bytes));
        self.busy = next.is_some();
        (f, next)
    }
}

/// A NIC's receive interrupt moderation (the e1000's absolute delay
/// timer): the first packet after an interrupt starts the timer, and every
/// packet that arrives before it fires reaches the host with that
/// interrupt, in arrival order, so ACKs reach TCP in batches. An interval
/// of 0 is no moderation: each packet reaches the host at once.
#[derive(Debug)]
pub struct RxInterrupt<T> {
    interval_ns: u64,
    pending: Vec<T>,
    scheduled: bool,
}

impl<T> RxInterrupt<T> {
    pub fn new(interval_ns: u64) -> Self {
        RxInterrupt {
            interval_ns,
            pending: Vec::new(),
            scheduled: false,
        }
    }

    /// Packets reach the host as they arrive (no moderation).
    pub fn is_immediate(&self) -> bool {
        self.interval_ns == 0
    }

    /// `item` arrived at `now_ns` and waits for the interrupt. Returns when
    /// the interrupt fires if this arrival started its timer (the caller
    /// schedules [`fire`](RxInterrupt::fire) then).
    pub fn receive(&mut self, now_ns: u64, item: T) -> Option<u64> {
        self.pending.push(item);
        if self.scheduled {
            return None;
        }
        self.scheduled = true;
        Some(now_ns + self.interval_ns)
    }

    /// The interrupt fired: the items that waited for it, in arrival
    /// order. Hand the batch back with [`recycle`](RxInterrupt::recycle)
    /// to keep its allocation for the next one.
    pub fn fire(&mut self) -> Vec<T> {
        self.scheduled = false;
        std::mem::take(&mut self.pending)
    }

    pub fn recycle(&mut self, mut batch: Vec<T>) {
        if self.pending.is_empty() {
            batch.clear();
            self.pending = batch;
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

    fn frame(seq: u32) -> Frame {
        Frame::new(
            Packet {
                flow: 0,
                seq,
                sent_ns: 0,
                retransmission: false,
                ce: false,
            },
            1500,
        )
    }

    /// A port of one interface-queue place and one ring place holds two
    /// waiting frames besides the one on the wire, and reports the time
    /// each transmission completes.
    #[test]
    fn a_port_sends_in_order_and_refuses_when_queue_and_ring_are_full() {
        let mut port = Port::new(1_000_000_000, 1, 1, 1538);
        assert_eq!(port.enqueue(frame(0), 100), Ok(Some(100 + 12_304)));
        assert_eq!(port.enqueue(frame(1), 200), Ok(None));
        assert_eq!(port.enqueue(frame(2), 300), Ok(None));
        assert_eq!(port.enqueue(frame(3), 400), Err(QueueFull));
        assert_eq!(port.occupancy_pkts(), 3);
        assert_eq!(
            port.interface_queue_pkts(),
            2,
            "the ring's place not counted"
        );
        let (f, next) = port.finish(12_404);
        assert_eq!(f.packet.seq, 0);
        assert_eq!(next, Some(12_404 + 12_304));
        assert_eq!(port.finish(24_708).0.packet.seq, 1);
        let (f, next) = port.finish(37_012);
        assert_eq!((f.packet.seq, next), (2, None));
        assert_eq!(port.occupancy_pkts(), 0);
    }

    #[test]
    fn moderated_interrupts_deliver_in_batches_from_the_first_arrival() {
        let mut rx = RxInterrupt::new(125_000);
        assert!(!rx.is_immediate());
        assert_eq!(rx.receive(1_000, 'a'), Some(126_000));
        assert_eq!(rx.receive(50_000, 'b'), None, "the timer is running");
        let batch = rx.fire();
        assert_eq!(batch, ['a', 'b']);
        rx.recycle(batch);
        assert_eq!(rx.receive(200_000, 'c'), Some(325_000));
        assert_eq!(rx.fire(), ['c']);
        assert!(RxInterrupt::<char>::new(0).is_immediate());
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
}
