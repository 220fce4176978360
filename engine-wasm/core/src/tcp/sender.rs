//! The Linux-like bulk TCP sender, in units of segments.
//!
//! It follows Linux's `tcp_input.c` state machine (Open, Disorder, CWR,
//! Recovery, Loss): fast retransmit on three duplicate ACKs or FACK-style
//! SACK loss marking ([`scoreboard`](super::scoreboard)), window reduction
//! in CWR and Recovery by the profile's rule ([`reduction`](super::reduction);
//! the state changes and the window update per ACK are in
//! `sender/recovery.rs`), the profile's RTO estimator ([`rtt`](super::rtt))
//! with Karn's rule and exponential back-off. Window growth is delegated to
//! a [`CongestionControl`]; what one ACK counts for is the profile's
//! `cwnd_counting` switch.
//!
//! Sequence numbers start at the flow's ISN and wrap modulo 2^32: they are
//! compared as Linux's `before()`/`after()` do and stepped with wrapping
//! arithmetic ([`seq`](super::seq)); what the algorithm sees is relative
//! to the ISN.

mod recovery;

use super::outstanding::OutstandingAverages;
use super::rtt::{RttEstimator, RTO_MAX_NS};
use super::scoreboard::{Scoreboard, Segment};
use super::seq::seq_max;
use crate::cc::{
    AckSample, CaEvent, CaState, CongestionControl, LostPacket, Window, INFINITE_SSTHRESH,
};
use crate::net::Ack;
use crate::profile::{
    CwndCounting, CwndLimitedRule, CwrRule, LostRetransmitRule, RecoveryRule, RtoRule,
};

/// How a sender is set up: the scenario's TCP settings and the profile's
/// sender mechanisms.
#[derive(Clone, Copy, Debug)]
pub struct SenderConfig {
    pub mss_bytes: u32,
    /// The receiver's advertised window (after receive-buffer accounting).
    pub rwnd_bytes: u64,
    pub initial_cwnd_pkts: u32,
    pub initial_ssthresh_pkts: Option<u32>,
    pub sack: bool,
    pub counting: CwndCounting,
    pub rto: RtoRule,
    pub initial_rto_ns: u64,
    pub recovery: RecoveryRule,
    /// Where a back-off without loss takes ssthresh from.
    pub cwr: CwrRule,
    /// The sequence number of the first segment (the ISN; see
    /// [`seq`](super::seq)).
    pub initial_seq: u32,
    /// How a lost retransmission is found before the timeout.
    pub lost_retransmit: LostRetransmitRule,
    /// When an ACK may grow the window.
    pub cwnd_limited: CwndLimitedRule,
}

impl SenderConfig {
    /// A SACK sender with today's RFC rules, for tests.
    pub fn rfc(mss_bytes: u32, rwnd_bytes: u64) -> Self {
        SenderConfig {
            mss_bytes,
            rwnd_bytes,
            initial_cwnd_pkts: 2,
            initial_ssthresh_pkts: None,
            sack: true,
            counting: CwndCounting::PerPacket,
            rto: RtoRule::Rfc6298,
            initial_rto_ns: 1_000_000_000,
            recovery: RecoveryRule::Prr,
            cwr: CwrRule::Algorithm,
            lost_retransmit: LostRetransmitRule::Timeout,
            cwnd_limited: CwndLimitedRule::InFlight,
            initial_seq: 0,
        }
    }
}

/// What the sender wants to transmit next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Transmission {
    pub seq: u32,
    pub retransmission: bool,
}

/// Congestion events the simulation records.
#[derive(Clone, Copy, Debug, Default)]
pub struct AckOutcome {
    pub fast_retransmit: bool,
}

/// Counters kept for the summary.
#[derive(Clone, Copy, Debug, Default)]
pub struct SenderStats {
    pub segments_sent: u64,
    pub retransmissions: u64,
    pub fast_retransmits: u64,
    pub timeouts: u64,
    pub local_congestion_events: u64,
    pub ifq_refusals: u64,
    pub ecn_reductions: u64,
    /// Retransmissions found lost before the timeout (Linux's
    /// `TCPLostRetransmit` counter).
    pub lost_retransmissions: u64,
}

pub struct Sender {
    pub mss_bytes: u32,
    pub window: Window,
    pub state: CaState,
    pub snd_una: u32,
    pub snd_nxt: u32,
    /// The initial sequence number: what the algorithm and the recorder
    /// see is relative to it.
    isn: u32,
    /// snd_nxt when the current reduction or loss episode began (never
    /// before snd_una: kept there once passed, which reads the same).
    high_seq: u32,
    prior_cwnd: u32,
    /// Receiver's window in segments.
    rwnd_pkts: u32,
    sack: bool,
    counting: CwndCounting,
    recovery: RecoveryRule,
    /// What each segment in flight is (SACKed, lost, resent), and counts.
    scoreboard: Scoreboard,
    dupacks: u32,
    /// Rate-halving counter (`snd_cwnd_cnt` is the algorithm's own).
    reduction_cnt: u32,
    /// Proportional Rate Reduction state (RFC 6937 §3): packets delivered
    /// and sent since Recovery began, and the flight size when it began.
    prr_delivered: u32,
    prr_out: u32,
    recover_fs: u32,
    pub rtt: RttEstimator,
    backoff: u32,
    // Delivery-rate state (Linux tcp_rate.c).
    delivered: u64,
    /// Linux `tp->delivered_ce`: packets delivered by ACKs with ECE set
    /// (`tcp_count_delivered`); kept for rate-sampling algorithms whose
    /// receiver echoes each packet's CE state (not AccECN flows).
    delivered_ce: u64,
    delivered_ns: u64,
    /// Linux `tp->first_tx_mstamp`: the send time of the packet of the
    /// latest rate sample (or of the first packet after an idle time),
    /// where the next samples' send phase begins.
    first_tx_ns: u64,
    /// When the last segment left (Linux `lsndtime`), for the idle time
    /// `CA_EVENT_TX_START` reports; None before the first.
    last_tx_ns: Option<u64>,
    /// The algorithm reads delivery-rate samples (else they are not made).
    rate_samples: bool,
    /// The algorithm wants each packet marked lost (`wants_lost_packets`).
    reports_losses: bool,
    /// CWR episodes reduce by PRR (the algorithm's `cwr_by_prr`: DCTCP).
    cwr_prr: bool,
    cwr_rule: CwrRule,
    lost_retransmit: LostRetransmitRule,
    cwnd_limited_rule: CwndLimitedRule,
    /// Linux 6 `tp->is_cwnd_limited`, `tp->max_packets_out` and
    /// `tp->cwnd_usage_seq` (`tcp_cwnd_validate`).
    is_cwnd_limited: bool,
    max_packets_out: u32,
    cwnd_usage_seq: u32,
    /// The flow's receiver runs AccECN (the algorithm's `ce_echo`: Prague).
    accecn: bool,
    /// AccECN's sender-side CE packet counter (s.cep in RFC 9768 §3.2;
    /// ACE decoding §3.2.2.2): the CE packet count the sender has seen, modulo 2^32 (compared modulo 8 with the ACE field).
    d_cep: u32,
    /// Segments go out ECT(1) (the algorithm's `sends_ect1`: Prague).
    pub ect1: bool,
    /// The algorithm's `cong_control` owns the window in every state.
    pub(super) owns_window: bool,
    /// tcptrace-style outstanding-data averages (Sandia's 10 Gb/s follow-up): the mean over
    /// ACK arrivals and the time-weighted mean.
    outstanding: OutstandingAverages,
    /// The application stopped: no new data after this.
    pub finished: bool,
    pub stats: SenderStats,
    pub cc: Box<dyn CongestionControl>,
}

impl Sender {
    /// Bytes the scoreboard has allocated (its high-water mark: the
    /// buffer never shrinks).
    pub fn scoreboard_allocated_bytes(&self) -> u64 {
        self.scoreboard.allocated_bytes()
    }

    pub fn new(config: SenderConfig, mut cc: Box<dyn CongestionControl>, now_ns: u64) -> Sender {
        let mss_bytes = config.mss_bytes;
        let rwnd_pkts = ((config.rwnd_bytes / mss_bytes as u64).min(u32::MAX as u64) as u32).max(2);
        let mut window = Window {
            cwnd_pkts: config.initial_cwnd_pkts.min(rwnd_pkts),
            cwnd_cnt: 0,
            ssthresh_pkts: config.initial_ssthresh_pkts.unwrap_or(INFINITE_SSTHRESH),
            cwnd_clamp_pkts: rwnd_pkts,
        };
        cc.init(&mut window, now_ns);
        let isn = config.initial_seq;
        Sender {
            mss_bytes,
            window,
            state: CaState::Open,
            snd_una: isn,
            snd_nxt: isn,
            isn,
            high_seq: isn,
            prior_cwnd: 0,
            rwnd_pkts,
            sack: config.sack,
            counting: config.counting,
            recovery: config.recovery,
            scoreboard: Scoreboard::new(isn, config.lost_retransmit != LostRetransmitRule::Timeout),
            lost_retransmit: config.lost_retransmit,
            cwnd_limited_rule: config.cwnd_limited,
            is_cwnd_limited: false,
            max_packets_out: 0,
            cwnd_usage_seq: isn,
            dupacks: 0,
            reduction_cnt: 0,
            prr_delivered: 0,
            prr_out: 0,
            recover_fs: 0,
            rtt: RttEstimator::new(config.rto, config.initial_rto_ns),
            backoff: 0,
            delivered: 0,
            delivered_ce: 0,
            delivered_ns: now_ns,
            first_tx_ns: now_ns,
            last_tx_ns: None,
            rate_samples: cc.uses_delivery_rate(),
            reports_losses: cc.wants_lost_packets(),
            cwr_prr: cc.cwr_by_prr(),
            cwr_rule: config.cwr,
            accecn: cc.ce_echo() == crate::cc::CeEcho::AccEcn,
            d_cep: crate::tcp::receiver::ACCECN_CEP_INIT,
            ect1: cc.sends_ect1(),
            owns_window: cc.owns_window(),
            outstanding: OutstandingAverages::new(now_ns),
            finished: false,
            stats: SenderStats::default(),
            cc,
        }
    }

    /// The initial sequence number.
    pub fn initial_seq(&self) -> u32 {
        self.isn
    }

    /// Segments sent and not yet cumulatively acknowledged.
    pub fn packets_out(&self) -> u32 {
        self.snd_nxt.wrapping_sub(self.snd_una)
    }

    /// Linux `tcp_packets_in_flight`: packets_out − (sacked + lost) + retrans.
    pub fn in_flight(&self) -> u32 {
        let sb = &self.scoreboard;
        self.packets_out() + sb.retrans_out - sb.sacked_out - sb.lost_out
    }

    pub fn outstanding_bytes(&self) -> u64 {
        self.packets_out() as u64 * self.mss_bytes as u64
    }

    pub fn delivered_pkts(&self) -> u64 {
        self.delivered
    }

    /// Segments from the first one sent to `seq` (relative to the ISN, as
    /// the algorithm and the recorder count; wraps after 2^32 segments).
    pub fn relative(&self, seq: u32) -> u32 {
        seq.wrapping_sub(self.isn)
    }

    /// The next segment the window allows, retransmissions first
    /// (RFC 6675 §5 NextSeg, simplified to "lowest lost, not yet resent").
    pub fn next_transmission(&mut self) -> Option<Transmission> {
        if self.in_flight() >= self.window.cwnd_pkts {
            return None;
        }
        if let Some(seq) = self.scoreboard.next_lost(self.snd_una, self.snd_nxt) {
            return Some(Transmission {
                seq,
                retransmission: true,
            });
        }
        if self.finished || self.packets_out() >= self.rwnd_pkts {
            return None;
        }
        Some(Transmission {
            seq: self.snd_nxt,
            retransmission: false,
        })
    }

    /// The segment chosen by [`next_transmission`] left the host stack.
    pub fn on_transmitted(&mut self, tx: Transmission, now_ns: u64) {
        self.outstanding.hold(self.packets_out(), now_ns);
        if self.packets_out() == 0 {
            // Linux `tcp_rate_skb_sent`: a flight starts afresh.
            self.delivered_ns = now_ns;
            self.first_tx_ns = now_ns;
            let w = self.window;
            let idle_ns = self.last_tx_ns.map_or(0, |t| now_ns.saturating_sub(t));
            self.cc.cwnd_event(&w, CaEvent::TxStart { idle_ns }, now_ns);
        }
        self.last_tx_ns = Some(now_ns);
        let mut entry = Segment::sent(self.delivered, self.delivered_ns, self.first_tx_ns, now_ns);
        if self.rate_samples {
            entry.in_flight_at_send = self.in_flight() + 1;
            entry.lost_at_send = self.scoreboard.lost_total as u32;
            entry.delivered_ce_at_send = self.delivered_ce as u32;
        }
        self.stats.segments_sent += 1;
        if self.state == CaState::Recovery || (self.cwr_prr && self.state == CaState::Cwr) {
            self.prr_out += 1;
        }
        if tx.retransmission {
            self.stats.retransmissions += 1;
            self.scoreboard
                .retransmitted(tx.seq, self.snd_una, self.snd_nxt, entry);
        } else {
            debug_assert_eq!(tx.seq, self.snd_nxt);
            self.scoreboard.push(entry);
            self.snd_nxt = self.snd_nxt.wrapping_add(1);
            self.outstanding.held_pkts = self.packets_out();
        }
    }

    /// The end of a round of sending (Linux 6 `tcp_write_xmit` →
    /// `tcp_cwnd_validate`, run when it sent `sent_pkts` > 0 or the window
    /// is full): remember whether the window was the limit for the data
    /// now going out, else the most packets out in it.
    #[inline]
    pub fn after_sending(&mut self, sent_pkts: u32) {
        if self.cwnd_limited_rule != CwndLimitedRule::Linux6 {
            return;
        }
        let is_cwnd_limited = self.in_flight() >= self.window.cwnd_pkts;
        if sent_pkts == 0 && !is_cwnd_limited {
            return;
        }
        if !crate::tcp::seq::before(self.snd_una, self.cwnd_usage_seq)
            || is_cwnd_limited
            || (!self.is_cwnd_limited && self.packets_out() > self.max_packets_out)
        {
            self.is_cwnd_limited = is_cwnd_limited;
            self.max_packets_out = self.packets_out();
            self.cwnd_usage_seq = self.snd_nxt;
        }
    }

    /// May this ACK grow the window? `prior_in_flight` was in flight
    /// before it, `w` the window then.
    fn window_was_the_limit(&self, prior_in_flight: u32, w: &Window) -> bool {
        match self.cwnd_limited_rule {
            CwndLimitedRule::InFlight => prior_in_flight + 1 >= w.cwnd_pkts.min(self.rwnd_pkts),
            // `tcp_is_cwnd_limited`: "If in slow start, ensure cwnd grows
            // to twice what was ACKed."
            CwndLimitedRule::Linux6 => {
                self.is_cwnd_limited
                    || (w.cwnd_pkts < w.ssthresh_pkts
                        && (w.cwnd_pkts as u64) < 2 * self.max_packets_out as u64)
            }
        }
    }

    /// Smoothed RTT (0 before the first sample).
    pub fn srtt_ns(&self) -> u64 {
        self.rtt.srtt_ns
    }

    /// The current retransmission timeout including back-off.
    pub fn backed_off_rto_ns(&self) -> u64 {
        (self.rtt.rto_ns << self.backoff.min(16)).min(RTO_MAX_NS)
    }

    /// Process one ACK (Linux `tcp_ack` + `tcp_fastretrans_alert`).
    pub fn on_ack(&mut self, ack: &Ack, now_ns: u64) -> AckOutcome {
        self.outstanding.hold(self.packets_out(), now_ns);
        let mut out = AckOutcome::default();
        let prior_in_flight = self.in_flight();
        let prior_packets_out = self.packets_out();
        let prior_sacked_out = self.scoreboard.sacked_out;
        let prior_lost_total = self.scoreboard.lost_total;
        let mut newly_acked = 0u32;
        // The segment the rate sample is about: the most recently sent of
        // those this ACK delivers (Linux `tcp_rate_skb_delivered`).
        let mut rate_from: Option<(u32, Segment)> = None;

        // SACK information first, so the cumulative step below sees it.
        if self.sack {
            if let Some(s) = ack.sacked_seq {
                let packets_out = self.packets_out();
                if let Some(seg) = self.scoreboard.sack(s, self.snd_una, packets_out) {
                    newly_acked += 1;
                    rate_from = Some((s, seg));
                }
            }
        }

        // snd_una < cum_seq <= snd_nxt, modulo 2^32.
        let n = ack.cum_seq.wrapping_sub(self.snd_una);
        let advanced = n > 0 && n <= self.packets_out();
        if advanced {
            let (acked, last) = self.scoreboard.remove_acked(n, self.snd_una);
            newly_acked += acked;
            if let Some((seq, seg)) = last {
                if rate_from.is_none_or(|(s, r)| seg.sent_after(seq, &r, s)) {
                    rate_from = Some((seq, seg));
                }
            }
            if !self.sack {
                // NewReno: duplicate ACKs counted as pseudo-SACKs are now
                // covered (Linux `tcp_remove_reno_sacks`).
                self.scoreboard.remove_reno_sacks(n);
                self.dupacks = 0;
            }
            self.snd_una = ack.cum_seq;
            // Markers the cumulative ACK passed read as snd_una wherever
            // they are used (below); move them there so that they never
            // fall 2^31 behind it, where modulo comparison would turn.
            self.scoreboard.follow_una(self.snd_una);
            self.high_seq = seq_max(self.high_seq, self.snd_una);
            self.backoff = 0;
        } else if ack.cum_seq == self.snd_una && self.packets_out() > 0 && !self.sack {
            // NewReno duplicate ACK (Linux `tcp_add_reno_sack`).
            self.dupacks += 1;
            let packets_out = self.packets_out();
            self.scoreboard.add_reno_sack(packets_out);
        }

        // RTT sample from the timestamp echo, except for retransmitted data
        // (Karn's rule, RFC 6298 §3).
        let rtt_ns =
            (newly_acked > 0 && !ack.echo_retransmission).then(|| now_ns - ack.echo_sent_ns);
        if let Some(rtt) = rtt_ns {
            self.rtt.sample(rtt, self.snd_una, self.snd_nxt);
        }

        // Delivery-rate sample (Linux `tcp_rate.c`, the rate sample of
        // draft-cheng-iccrg-delivery-rate-estimation): about the most
        // recently sent segment this ACK delivers, the packets delivered
        // since it was sent over the longer of its send phase (from the
        // `first_tx_mstamp` it was sent with to its own send time) and its
        // ACK phase (from the `delivered_mstamp` it was sent with to now):
        // `tcp_rate_gen`'s "rs->interval_us = max(snd_us, ack_us)". No
        // sample if that interval is shorter than the connection's minimum
        // RTT ("if (unlikely(rs->interval_us < tcp_min_rtt(tp)))"; before
        // any RTT sample `tcp_min_rtt` is ~0U, so none then either) or is
        // zero (`bbr_update_bw`: "rs->interval_us <= 0"). `tcp_min_rtt` is
        // a 300 s windowed minimum (`sysctl_tcp_min_rtt_wlen`); the
        // estimator's is the lifetime one, the same for shorter runs.
        self.delivered += newly_acked as u64;
        if self.rate_samples && ack.ece && !self.accecn {
            self.delivered_ce += newly_acked as u64;
        }
        let mut delivery_rate_pps = None;
        let mut prior_delivered = 0;
        let mut tx_in_flight = 0;
        let mut tx_lost_at_send = None;
        let mut tx_delivered_ce = 0;
        if let Some((_, seg)) = rate_from {
            self.first_tx_ns = seg.sent_ns;
            if self.rate_samples {
                prior_delivered = seg.delivered_at_send;
                tx_in_flight = seg.in_flight_at_send;
                tx_lost_at_send = Some(seg.lost_at_send);
                tx_delivered_ce = (self.delivered_ce as u32).wrapping_sub(seg.delivered_ce_at_send);
                let send_ns = seg.sent_ns.saturating_sub(seg.first_tx_ns_at_send);
                let ack_ns = now_ns.saturating_sub(seg.delivered_ns_at_send);
                let interval = send_ns.max(ack_ns);
                if interval > 0 && interval >= self.rtt.min_rtt_ns {
                    let d = self.delivered - seg.delivered_at_send;
                    delivery_rate_pps = Some(d as f64 * 1e9 / interval as f64);
                }
            }
        }
        if newly_acked > 0 {
            self.delivered_ns = now_ns;
        }

        let hook = self.loss_hook(now_ns);
        self.scoreboard
            .mark_lost(self.snd_una, hook.bind(&mut self.cc));
        let finds_lost_retransmits = match self.lost_retransmit {
            LostRetransmitRule::Timeout => false,
            LostRetransmitRule::Recovery => self.state == CaState::Recovery,
            LostRetransmitRule::Rack => matches!(self.state, CaState::Recovery | CaState::Loss),
        };
        if self.sack && finds_lost_retransmits {
            let hook = self.loss_hook(now_ns);
            self.stats.lost_retransmissions += self
                .scoreboard
                .mark_lost_retransmits(self.snd_una, hook.bind(&mut self.cc));
        }
        self.limit_reno_sacked();
        self.outstanding.on_ack(self.packets_out());
        // Packets this ACK newly delivered, as Linux counts them for rate
        // reduction (`newly_acked_sacked`): without SACK a duplicate ACK
        // stands for one delivered packet (a pseudo-SACK), and a cumulative
        // ACK only for what it covers beyond those.
        let delivered_now = (prior_packets_out - self.packets_out()) as i64
            + self.scoreboard.sacked_out as i64
            - prior_sacked_out as i64;
        let delivered_now = delivered_now.max(0) as u32;

        // AccECN (RFC 9768 §3.2.2): the packets newly CE-marked are the
        // ACE field's advance modulo 8; ECE means a positive advance.
        let (ece, ce_delta_pkts) = if self.accecn {
            let delta = (ack.ace as u32).wrapping_sub(self.d_cep) & 7;
            self.d_cep = self.d_cep.wrapping_add(delta);
            (delta > 0, delta)
        } else {
            (ack.ece, 0)
        };
        let sample = AckSample {
            now_ns,
            acked_pkts: newly_acked,
            counted_pkts: match self.counting {
                CwndCounting::PerPacket => newly_acked,
                CwndCounting::PerAck => newly_acked.min(1),
            },
            rtt_ns,
            min_rtt_ns: if self.rtt.min_rtt_ns == u64::MAX {
                0
            } else {
                self.rtt.min_rtt_ns
            },
            srtt_ns: self.rtt.srtt_ns,
            in_flight_pkts: self.in_flight(),
            delivered_pkts: self.delivered,
            delivery_rate_pps,
            prior_delivered_pkts: prior_delivered,
            prior_in_flight_pkts: prior_in_flight,
            tx_in_flight_pkts: tx_in_flight,
            tx_delivered_ce_pkts: tx_delivered_ce,
            delivered_ce_pkts: self.delivered_ce,
            tx_lost_pkts: 0,
            // Set below, once the state machine has marked what it marks.
            losses_pkts: 0,
            app_limited: self.packets_out() >= self.rwnd_pkts,
            ece,
            ce_delta_pkts,
            mss_bytes: self.mss_bytes,
            snd_una_seg: self.relative(self.snd_una),
            snd_nxt_seg: self.relative(self.snd_nxt),
        };
        {
            let w = self.window;
            self.cc.pkts_acked(&w, &sample);
        }

        out.fast_retransmit = self.on_ack_state(ece, advanced, now_ns);
        // Linux `tcp_ack`: `lost = tp->lost - lost`, after
        // `tcp_fastretrans_alert`, before `tcp_cong_control`.
        let newly_lost = self.scoreboard.lost_total - prior_lost_total;
        let sample = AckSample {
            losses_pkts: newly_lost.min(u32::MAX as u64) as u32,
            // `rs->lost`: packets marked lost since the sample's packet
            // left, this ACK's included.
            tx_lost_pkts: tx_lost_at_send
                .map_or(0, |at| (self.scoreboard.lost_total as u32).wrapping_sub(at)),
            ..sample
        };
        self.update_window(
            &sample,
            advanced,
            newly_acked,
            delivered_now,
            newly_lost,
            prior_in_flight,
        );
        out
    }

    /// Linux `tcp_limit_reno_sacked`: without SACK, duplicate ACKs can't
    /// stand for more segments than are outstanding and not already lost.
    fn limit_reno_sacked(&mut self) {
        if !self.sack {
            let packets_out = self.packets_out();
            self.scoreboard.limit_reno_sacked(packets_out);
        }
    }

    /// NewReno: the first unacknowledged segment is lost.
    fn mark_head_lost(&mut self, now_ns: u64) {
        if self.packets_out() == 0 {
            return;
        }
        let hook = self.loss_hook(now_ns);
        self.scoreboard
            .mark_head_lost(self.snd_una, hook.bind(&mut self.cc));
        self.limit_reno_sacked();
    }

    /// What the per-packet loss report needs besides the segment, copied
    /// before the scoreboard marks anything (the window and delivered
    /// count as they stand at the marking).
    fn loss_hook(&self, now_ns: u64) -> LossHook {
        LossHook {
            enabled: self.reports_losses,
            w: self.window,
            delivered_pkts: self.delivered,
            now_ns,
        }
    }

    pub fn prior_cwnd(&self) -> u32 {
        self.prior_cwnd
    }

    /// (mean over ACKs, time-weighted mean) of outstanding bytes so far.
    pub fn outstanding_averages_bytes(&self, now_ns: u64) -> (f64, f64) {
        let (per_ack, weighted) = self.outstanding.averages_pkts(self.packets_out(), now_ns);
        (
            per_ack * self.mss_bytes as f64,
            weighted * self.mss_bytes as f64,
        )
    }
}

/// Reports each packet the scoreboard marks lost to an algorithm that
/// wants it ([`CongestionControl::skb_marked_lost`]).
#[derive(Clone, Copy)]
struct LossHook {
    enabled: bool,
    w: Window,
    delivered_pkts: u64,
    now_ns: u64,
}

impl LossHook {
    /// The scoreboard's `on_lost` callback: `lost_total` is the sender's
    /// lost count with this segment included (`tp->lost` after
    /// `tcp_notify_skb_loss_event`'s increment).
    fn bind(self, cc: &mut Box<dyn CongestionControl>) -> impl FnMut(&Segment, u64) + '_ {
        move |seg, lost_total| {
            if self.enabled {
                cc.skb_marked_lost(
                    &self.w,
                    &LostPacket {
                        now_ns: self.now_ns,
                        delivered_pkts: self.delivered_pkts,
                        tx_in_flight_pkts: seg.in_flight_at_send,
                        tx_lost_pkts: (lost_total as u32).wrapping_sub(seg.lost_at_send),
                        delivered_at_send_pkts: seg.delivered_at_send,
                    },
                );
            }
        }
    }
}
