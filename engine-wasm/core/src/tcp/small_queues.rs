//! TCP Small Queues (Linux ≥ 3.6; the rules below as Linux 6 runs them,
//! `net/ipv4/tcp_output.c`): a socket keeps only about a millisecond of
//! its data below TCP, in the qdisc and the driver's ring. Before each
//! segment `tcp_small_queue_check` compares the bytes the socket has
//! below TCP (`sk_wmem_alloc`: the truesize of every clone sent and not
//! yet freed) with a limit; over it the socket is throttled
//! (`TSQ_THROTTLED`) until one of its segments is freed at transmit
//! completion, when `tcp_wfree` schedules the TSQ tasklet and
//! `tcp_tsq_write` runs the sender again. The sources, and what is not
//! modelled, are in docs/profiles.md beside the switch
//! (`small_queue_limit_bytes`).

/// `sk_pacing_shift`'s default: the limit is about 1 ms (2^-10 s) of the
/// pacing rate (`sk->sk_pacing_shift = 10`, `tcp_init_sock`).
pub const PACING_SHIFT: u32 = 10;
/// `net.ipv4.tcp_pacing_ss_ratio`'s default (percent), in slow start.
pub const PACING_SS_RATIO_PERCENT: u64 = 200;
/// `net.ipv4.tcp_pacing_ca_ratio`'s default (percent), otherwise.
pub const PACING_CA_RATIO_PERCENT: u64 = 120;

/// What a data segment's buffer costs besides its payload: Linux ≥ 6.3
/// `tcp_stream_alloc_skb` takes a head of `MAX_TCP_HEADER` from the small
/// head cache and puts the payload in page fragments, so truesize =
/// `SKB_SMALL_HEAD_CACHE_SIZE` (704 on Debian 6.12's x86-64 `-amd64`
/// configuration) + 256 (`SKB_DATA_ALIGN(sizeof(struct sk_buff))`) +
/// payload: 2408 bytes at MSS 1448.
pub const SEGMENT_TRUESIZE_OVERHEAD_BYTES: u64 = 704 + 256;

/// The truesize of one of a socket's segments of `mss_bytes` (Linux 6.12
/// `skb_len_add` adds each copied byte to truesize).
pub fn segment_truesize_bytes(mss_bytes: u32) -> u64 {
    SEGMENT_TRUESIZE_OVERHEAD_BYTES + mss_bytes as u64
}

/// One socket's TSQ state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SmallQueues {
    /// `net.ipv4.tcp_limit_output_bytes`; 0: TSQ off (kernels before 3.6).
    /// The cap applies only to a socket that does not pace itself, as in
    /// Linux 5.0–6.15 (6.16 applies it to every socket).
    limit_output_bytes: u64,
    /// The truesize of one of the socket's segments (all are one MSS).
    truesize_bytes: u64,
    /// `sk_wmem_alloc`: bytes of the socket's segments below TCP.
    below_tcp_bytes: u64,
    /// `sk_pacing_rate` of a socket that does not pace itself, set by
    /// `tcp_update_pacing_rate` on each ACK; `u64::MAX` (`~0UL`, as
    /// `sock_init_data` leaves it) before the first RTT sample.
    pacing_rate_bytes_per_s: u64,
    throttled: bool,
}

impl SmallQueues {
    /// TSQ with this `tcp_limit_output_bytes` (0: off) for segments of
    /// `truesize_bytes`.
    pub fn new(limit_output_bytes: u64, truesize_bytes: u64) -> SmallQueues {
        SmallQueues {
            limit_output_bytes,
            truesize_bytes,
            below_tcp_bytes: 0,
            pacing_rate_bytes_per_s: u64::MAX,
            throttled: false,
        }
    }

    #[inline(always)]
    pub fn is_enabled(&self) -> bool {
        self.limit_output_bytes > 0
    }

    /// Bytes of the socket's segments below TCP (`sk_wmem_alloc`).
    pub fn below_tcp_bytes(&self) -> u64 {
        self.below_tcp_bytes
    }

    pub fn is_throttled(&self) -> bool {
        self.throttled
    }

    /// `tcp_update_pacing_rate` (tcp_input.c), run from `tcp_cong_control`
    /// on every ACK for an algorithm that does not set the rate itself:
    /// mss · max(cwnd, packets_out) / srtt, times 200 % while cwnd is below
    /// half of ssthresh (slow start well under way), else 120 %.
    pub fn update_pacing_rate(
        &mut self,
        mss_bytes: u32,
        cwnd_pkts: u32,
        ssthresh_pkts: u32,
        packets_out: u32,
        srtt_ns: u64,
    ) {
        if srtt_ns == 0 {
            return;
        }
        let ratio = if cwnd_pkts < ssthresh_pkts / 2 {
            PACING_SS_RATIO_PERCENT
        } else {
            PACING_CA_RATIO_PERCENT
        };
        let rate =
            mss_bytes as u128 * ratio as u128 * cwnd_pkts.max(packets_out) as u128 * 10_000_000
                / srtt_ns as u128;
        self.pacing_rate_bytes_per_s = rate.min(u64::MAX as u128) as u64;
    }

    /// The limit for the next segment (`tcp_small_queue_check`):
    /// max(2 truesize, pacing rate >> 10), capped by
    /// `tcp_limit_output_bytes` only for a socket that does not pace itself
    /// (`SK_PACING_NONE`), doubled for a retransmission (`factor` 1 in
    /// `tcp_xmit_retransmit_queue`). `own_rate` is the rate of an
    /// algorithm that paces itself (BBR sets `SK_PACING_NEEDED`).
    pub fn limit_bytes(&self, own_rate_bytes_per_s: Option<u64>, retransmission: bool) -> u64 {
        let rate = own_rate_bytes_per_s.unwrap_or(self.pacing_rate_bytes_per_s);
        let mut limit = (2 * self.truesize_bytes).max(rate >> PACING_SHIFT);
        if own_rate_bytes_per_s.is_none() {
            limit = limit.min(self.limit_output_bytes);
        }
        limit << retransmission as u32
    }

    /// Must the next segment wait (`tcp_small_queue_check` true)? Over
    /// the limit the socket is throttled, unless its retransmission queue
    /// (`packets_out` segments sent and not cumulatively acknowledged) is
    /// empty or holds one segment (Linux ≥ 6.7,
    /// `tcp_rtx_queue_empty_or_single_skb`), when it sends anyway.
    pub fn holds_back(
        &mut self,
        own_rate_bytes_per_s: Option<u64>,
        retransmission: bool,
        packets_out: u32,
    ) -> bool {
        if !self.is_enabled()
            || self.below_tcp_bytes <= self.limit_bytes(own_rate_bytes_per_s, retransmission)
            || packets_out <= 1
        {
            return false;
        }
        self.throttled = true;
        true
    }

    /// A segment went below TCP (handed to the qdisc).
    #[inline(always)]
    pub fn on_queued(&mut self) {
        if self.is_enabled() {
            self.below_tcp_bytes += self.truesize_bytes;
        }
    }

    /// A segment was freed at transmit completion (`tcp_wfree`). Returns
    /// whether the socket was throttled: the TSQ tasklet then runs its
    /// sender (`tcp_tsq_write`).
    #[inline(always)]
    pub fn on_freed(&mut self) -> bool {
        if !self.is_enabled() {
            return false;
        }
        self.below_tcp_bytes -= self.truesize_bytes;
        std::mem::take(&mut self.throttled)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MSS: u32 = 1448;
    const TRUESIZE: u64 = 2_000;

    #[test]
    fn a_full_sized_segment_costs_2408_bytes_as_in_debian_6_12() {
        assert_eq!(segment_truesize_bytes(1448), 2408);
    }

    #[test]
    fn the_pacing_rate_is_120_percent_of_cwnd_over_srtt_and_200_in_early_slow_start() {
        let mut q = SmallQueues::new(1 << 20, TRUESIZE);
        // 100 packets of 1448 bytes per 10 ms: 14.48 MB/s.
        q.update_pacing_rate(MSS, 100, 150, 80, 10_000_000);
        assert_eq!(q.pacing_rate_bytes_per_s, 14_480_000 * 12 / 10);
        q.update_pacing_rate(MSS, 100, 202, 80, 10_000_000);
        assert_eq!(q.pacing_rate_bytes_per_s, 14_480_000 * 2);
        // packets_out above cwnd counts (after a reduction).
        q.update_pacing_rate(MSS, 50, 50, 100, 10_000_000);
        assert_eq!(q.pacing_rate_bytes_per_s, 14_480_000 * 12 / 10);
    }

    #[test]
    fn the_limit_is_a_millisecond_of_the_rate_capped_unless_the_flow_paces_itself() {
        let mut q = SmallQueues::new(262_144, TRUESIZE);
        // Before an RTT sample the rate is ~0UL: the cap decides.
        assert_eq!(q.limit_bytes(None, false), 262_144);
        // 125 MB/s (1 Gb/s): 125e6 >> 10 = 122 070 bytes.
        q.pacing_rate_bytes_per_s = 125_000_000;
        assert_eq!(q.limit_bytes(None, false), 122_070);
        assert_eq!(q.limit_bytes(None, true), 244_140);
        // 10 Gb/s: the cap; a self-paced flow is not capped.
        q.pacing_rate_bytes_per_s = 1_250_000_000;
        assert_eq!(q.limit_bytes(None, false), 262_144);
        assert_eq!(q.limit_bytes(Some(1_250_000_000), false), 1_220_703);
        // A slow flow keeps two segments' worth.
        assert_eq!(q.limit_bytes(Some(1_000_000), false), 2 * TRUESIZE);
    }

    #[test]
    fn a_socket_over_the_limit_waits_for_a_transmit_completion() {
        let mut q = SmallQueues::new(262_144, TRUESIZE);
        q.pacing_rate_bytes_per_s = 125_000_000; // limit 122 070
        let mut sent = 0;
        while !q.holds_back(None, false, 10 + sent) {
            q.on_queued();
            sent += 1;
        }
        // Sends while at or under the limit: one segment crosses it.
        assert_eq!(sent as u64, 122_070 / TRUESIZE + 1);
        assert!(q.is_throttled());
        // A retransmission's limit is doubled.
        assert!(!q.holds_back(None, true, 10));
        // The first completion wakes the sender, once.
        assert!(q.on_freed());
        assert!(!q.on_freed());
        assert_eq!(q.below_tcp_bytes(), (sent as u64 - 2) * TRUESIZE);
    }

    #[test]
    fn an_empty_or_single_segment_retransmission_queue_always_sends() {
        let mut q = SmallQueues::new(4_000, TRUESIZE);
        for _ in 0..5 {
            q.on_queued();
        }
        assert!(!q.holds_back(None, false, 0));
        assert!(!q.holds_back(None, false, 1));
        assert!(q.holds_back(None, false, 2));
    }

    #[test]
    fn off_it_never_holds_back_or_counts() {
        let mut q = SmallQueues::new(0, TRUESIZE);
        for _ in 0..1000 {
            q.on_queued();
        }
        assert!(!q.holds_back(None, false, 1000));
        assert_eq!(q.below_tcp_bytes(), 0);
        assert!(!q.on_freed());
    }
}
