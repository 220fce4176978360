//! The network: packets, the frames queues hold and propagation delay
//! lines (a sender host's transmit path is in `nic`, the bottleneck and its
//! queue management in `aqm/`). Each element has at most one pending event (htsim's design): a
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
    /// The sender set the ECN field to ECT(1), the L4S identifier (RFC
    /// 9331 §4.1), instead of the classic ECT(0) every other TCP flow
    /// uses (TCP Prague: `TCP_CONG_WANTS_ECT_1`). DualPI2 classifies by it
    /// (RFC 9332 §2.3).
    pub ect1: bool,
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
    /// Transmit descriptors the frame takes in its host's ring (1 unless
    /// the sender's skb layout says otherwise: `nic::SkbLayout`).
    pub descriptors: u8,
}

impl Frame {
    /// A frame carrying an IP packet of `ip_bytes`.
    pub fn new(packet: Packet, ip_bytes: u32) -> Frame {
        Frame {
            packet,
            enqueued_ns: 0,
            wire_bytes: ip_bytes.max(ETHERNET_MIN_PAYLOAD_BYTES) + ETHERNET_OVERHEAD_BYTES,
            len_bytes: ip_bytes.max(ETHERNET_MIN_PAYLOAD_BYTES) + ETHERNET_HEADER_BYTES,
            descriptors: 1,
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
    /// AccECN's ACE field (RFC 9768 §3.2.2): the three least significant
    /// bits of the receiver's count of CE-marked packets (r.cep). Only an
    /// AccECN receiver ([`CeEcho::AccEcn`](crate::cc::CeEcho)) sets it; 0
    /// otherwise, and then unread.
    pub ace: u8,
}

/// Nanoseconds to serialise `bytes` at `rate_bps`, rounded up.
pub fn serialisation_ns(bytes: u32, rate_bps: u64) -> u64 {
    (bytes as u64 * 8 * 1_000_000_000).div_ceil(rate_bps)
}

/// Serialisation times at one rate, with the common frame size's cached
/// (every data packet has it).
///
/// A port whose oscillator runs off its nominal frequency (IEEE 802.3
/// allows ±100 ppm) sends at `rate_bps · (1 + ppb/10⁹)`. Its frame times
/// are then whole nanoseconds whose remainders are carried from frame to
/// frame, so the port's mean rate is exact however small the offset.
#[derive(Clone, Copy, Debug)]
pub struct TxTime {
    pub rate_bps: u64,
    pub common_wire_bytes: u32,
    /// Nanoseconds to send a frame of `common_wire_bytes` at the nominal
    /// rate.
    pub common_ns: u64,
    /// The port clock's offset from nominal, in parts per billion.
    clock_ppb: i64,
    /// What the previous frames' times left over, in units of
    /// 1 / (rate_bps · (10⁹ + clock_ppb)) ns.
    carry: u128,
    /// With an off-nominal clock: the divisor `rate_bps · (10⁹ +
    /// clock_ppb)` and the common frame's bits (in those units) divided by
    /// it, quotient and remainder, so that a common frame's time is an
    /// addition and a comparison instead of a 128-bit division
    /// (`__udivti3` was a few per cent of a run). `None` at the nominal
    /// rate, or for a zero rate (left to the general path).
    common_div: Option<CommonDiv>,
}

/// See [`TxTime::common_div`].
#[derive(Clone, Copy, Debug)]
struct CommonDiv {
    per_s: u128,
    quotient_ns: u64,
    remainder: u128,
}

const NS_PER_S: u128 = 1_000_000_000;
const PPB_ONE: i64 = 1_000_000_000;

impl TxTime {
    pub fn new(rate_bps: u64, common_wire_bytes: u32) -> TxTime {
        TxTime {
            rate_bps,
            common_wire_bytes,
            common_ns: serialisation_ns(common_wire_bytes, rate_bps),
            clock_ppb: 0,
            carry: 0,
            common_div: None,
        }
    }

    /// The same port with its clock `ppb` parts per billion fast (or slow,
    /// if negative).
    pub fn with_clock_ppb(mut self, ppb: i64) -> TxTime {
        self.clock_ppb = ppb.clamp(1 - PPB_ONE, PPB_ONE);
        self.carry = 0;
        self.common_div = None;
        if self.clock_ppb != 0 {
            let per_s = self.per_s();
            let bits = Self::bits(self.common_wire_bytes);
            if let (Some(q), Some(r)) = (bits.checked_div(per_s), bits.checked_rem(per_s)) {
                self.common_div = Some(CommonDiv {
                    per_s,
                    quotient_ns: q as u64,
                    remainder: r,
                });
            }
        }
        self
    }

    /// Nanoseconds to send the next frame, of `wire_bytes`. Call once per
    /// frame sent: an off-nominal clock carries the remainder to the next.
    #[inline]
    pub fn of(&mut self, wire_bytes: u32) -> u64 {
        if self.clock_ppb != 0 {
            if let Some(d) = self
                .common_div
                .filter(|_| wire_bytes == self.common_wire_bytes)
            {
                // bits = quotient·per_s + (remainder + carry), and both
                // remainders are below per_s: the division below, exactly.
                let left = d.remainder + self.carry;
                return if left >= d.per_s {
                    self.carry = left - d.per_s;
                    d.quotient_ns + 1
                } else {
                    self.carry = left;
                    d.quotient_ns
                };
            }
            let per_s = self.per_s();
            let bits = Self::bits(wire_bytes) + self.carry;
            self.carry = bits % per_s;
            return (bits / per_s) as u64;
        }
        if wire_bytes == self.common_wire_bytes {
            self.common_ns
        } else {
            serialisation_ns(wire_bytes, self.rate_bps)
        }
    }
}

impl TxTime {
    /// The divisor of an off-nominal clock: rate_bps · (10⁹ + clock_ppb).
    fn per_s(&self) -> u128 {
        self.rate_bps as u128 * (PPB_ONE + self.clock_ppb) as u128
    }

    /// A frame of `wire_bytes` in units of 1 / (rate_bps · (10⁹ +
    /// clock_ppb)) ns, before the carry.
    fn bits(wire_bytes: u32) -> u128 {
        wire_bytes as u128 * 8 * NS_PER_S * NS_PER_S
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
    /// The last exit time rounded up to `granularity_ns` (0: none yet):
    /// exits only grow, so most items round to the same instant as the
    /// one before, found without a division.
    last_rounded_ns: u64,
    items: VecDeque<(u64, T)>,
}

impl<T> DelayLine<T> {
    /// Bytes this line has allocated for items (its high-water mark:
    /// the buffer never shrinks).
    pub fn allocated_bytes(&self) -> u64 {
        (self.items.capacity() * std::mem::size_of::<(u64, T)>()) as u64
    }

    pub fn new(delay_ns: u64) -> Self {
        Self::with_granularity(delay_ns, 0)
    }

    pub fn with_granularity(delay_ns: u64, granularity_ns: u64) -> Self {
        DelayLine {
            delay_ns,
            granularity_ns,
            last_rounded_ns: 0,
            items: VecDeque::new(),
        }
    }

    /// Put `item` in at `now_ns`. Returns its exit time if the line was empty
    /// (the caller schedules an event then).
    pub fn push(&mut self, now_ns: u64, item: T) -> Option<u64> {
        let mut exit = now_ns + self.delay_ns;
        if self.granularity_ns > 0 {
            // The first multiple of the granularity at or after `exit`:
            // the last one if `exit` lies in the granularity before it.
            let last = self.last_rounded_ns;
            if last == 0 || exit > last || exit <= last - self.granularity_ns {
                self.last_rounded_ns = exit.div_ceil(self.granularity_ns) * self.granularity_ns;
            }
            exit = self.last_rounded_ns;
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

/// Frames a queue of `limit_pkts` reserves when it is made: room for all
/// of them and the one on the wire, at most 65 536 (a larger queue grows
/// as it fills). The resource model counts the same reservation.
pub fn preallocated_frames(limit_pkts: usize) -> usize {
    limit_pkts.saturating_add(1).min(1 << 16)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_port_100_ppm_fast_sends_a_million_frames_in_the_exact_mean_time() {
        // IEEE 802.3's ±100 ppm: 10⁶ frames of 1538 bytes at 1 Gb/s take
        // 12.304 s nominal, 12.304 / 1.0001 s on a clock 100 ppm fast.
        let mut fast = TxTime::new(1_000_000_000, 1538).with_clock_ppb(100_000);
        let mut slow = TxTime::new(1_000_000_000, 1538).with_clock_ppb(-100_000);
        let (mut fast_ns, mut slow_ns) = (0u64, 0u64);
        for _ in 0..1_000_000 {
            fast_ns += fast.of(1538);
            slow_ns += slow.of(1538);
        }
        let exact_fast = 12_304_000_000f64 / 1.0001;
        let exact_slow = 12_304_000_000f64 / 0.9999;
        assert!(
            (fast_ns as f64 - exact_fast).abs() <= 1.0,
            "{fast_ns} vs {exact_fast}"
        );
        assert!(
            (slow_ns as f64 - exact_slow).abs() <= 1.0,
            "{slow_ns} vs {exact_slow}"
        );
        // Single frames differ from nominal by whole nanoseconds at most.
        assert!((12_302..=12_304).contains(&fast.of(1538)));
    }

    /// The common frame's time without a division is the division's:
    /// frame by frame, with other sizes (probes) interleaved, at rates and
    /// clock offsets across the allowed ranges.
    #[test]
    fn the_common_frame_shortcut_is_exactly_the_division() {
        for (rate, ppb) in [
            (1_000_000_000u64, 100_000i64),
            (1_000_000_000, -100_000),
            (984_320_000, 37_123),
            (10_000_000_000, -99_999),
            (100_000_000_000, 1),
            (12_304_000, -1),
            (1, 999_999_999),
        ] {
            let mut t = TxTime::new(rate, 1538).with_clock_ppb(ppb);
            let per_s = rate as u128 * (PPB_ONE + ppb) as u128;
            let mut carry = 0u128;
            for i in 0..20_000u32 {
                let bytes = if i % 7 == 3 { 84 + i % 50 } else { 1538 };
                let bits = bytes as u128 * 8 * NS_PER_S * NS_PER_S + carry;
                carry = bits % per_s;
                assert_eq!(t.of(bytes), (bits / per_s) as u64, "{rate} {ppb} {i}");
            }
        }
    }

    #[test]
    fn a_nominal_clock_keeps_the_rounded_up_frame_time() {
        let mut t = TxTime::new(1_000_000_000, 9038);
        assert_eq!(t.of(9038), 72_304);
        assert_eq!(t.of(1538), 12_304);
        assert_eq!(t.with_clock_ppb(0).of(9038), 72_304);
    }

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
}
