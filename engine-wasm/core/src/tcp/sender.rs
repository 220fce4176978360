//! The Linux-like bulk TCP sender, in units of segments.
//!
//! It follows Linux's `tcp_input.c` state machine (Open, Disorder, CWR,
//! Recovery, Loss): fast retransmit on three duplicate ACKs or FACK-style
//! SACK loss marking, window reduction in CWR and Recovery by the profile's
//! rule ([`reduction`](super::reduction)), the profile's RTO estimator
//! ([`rtt`](super::rtt)) with Karn's rule and exponential back-off. Window
//! growth is delegated to a [`CongestionControl`]; what one ACK counts for
//! is the profile's `cwnd_counting` switch.
//!
//! Sequence numbers start at the flow's ISN and wrap modulo 2^32: they are
//! compared as Linux's `before()`/`after()` do and stepped with wrapping
//! arithmetic ([`seq`](super::seq)); what the algorithm sees is relative
//! to the ISN.

use super::outstanding::OutstandingAverages;
use super::reduction;
use super::rtt::{RttEstimator, RTO_MAX_NS};
use super::seq::{before, seq_max, seq_min};
use super::DUP_THRESH;
use crate::cc::{AckSample, CaEvent, CaState, CongestionControl, Window, INFINITE_SSTHRESH};
use crate::net::Ack;
use crate::profile::{CwndCounting, CwrRule, RecoveryRule, RtoRule};
use std::collections::VecDeque;

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
            initial_seq: 0,
        }
    }
}

const SACKED: u8 = 1;
const LOST: u8 = 2;
const RETRANS: u8 = 4;

/// Per-segment scoreboard entry, also holding what a delivery-rate sample
/// needs (Linux `tcp_rate.c`).
#[derive(Clone, Copy, Debug, Default)]
struct Segment {
    flags: u8,
    delivered_at_send: u64,
    delivered_ns_at_send: u64,
}

/// Bytes of one scoreboard entry: the sender keeps one per packet in
/// flight (the resource model counts them).
pub const SCOREBOARD_ENTRY_BYTES: u64 = std::mem::size_of::<Segment>() as u64;

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
    scoreboard: VecDeque<Segment>,
    sacked_out: u32,
    lost_out: u32,
    retrans_out: u32,
    /// Next segment to consider for FACK loss marking (never before
    /// snd_una, like `retransmit_hint`: both are read as at least snd_una,
    /// and kept there so they stay within 2^31 of it however long the run).
    lost_marker: u32,
    highest_sacked: Option<u32>,
    /// Lowest segment that may need retransmitting.
    retransmit_hint: u32,
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
    delivered_ns: u64,
    /// The algorithm reads delivery-rate samples (else they are not made).
    rate_samples: bool,
    /// CWR episodes reduce by PRR (the algorithm's `cwr_by_prr`: DCTCP).
    cwr_prr: bool,
    cwr_rule: CwrRule,
    /// tcptrace-style outstanding-data averages (seed 002): the mean over
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
        self.scoreboard.capacity() as u64 * SCOREBOARD_ENTRY_BYTES
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
            scoreboard: VecDeque::new(),
            sacked_out: 0,
            lost_out: 0,
            retrans_out: 0,
            lost_marker: isn,
            highest_sacked: None,
            retransmit_hint: isn,
            dupacks: 0,
            reduction_cnt: 0,
            prr_delivered: 0,
            prr_out: 0,
            recover_fs: 0,
            rtt: RttEstimator::new(config.rto, config.initial_rto_ns),
            backoff: 0,
            delivered: 0,
            delivered_ns: now_ns,
            rate_samples: cc.uses_delivery_rate(),
            cwr_prr: cc.cwr_by_prr(),
            cwr_rule: config.cwr,
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
        self.packets_out() + self.retrans_out - self.sacked_out - self.lost_out
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

    /// Scoreboard index of `seq`, which lies in snd_una..snd_nxt.
    fn index(&self, seq: u32) -> usize {
        seq.wrapping_sub(self.snd_una) as usize
    }

    fn seg(&mut self, seq: u32) -> &mut Segment {
        let i = self.index(seq);
        &mut self.scoreboard[i]
    }

    /// The next segment the window allows, retransmissions first
    /// (RFC 6675 §5 NextSeg, simplified to "lowest lost, not yet resent").
    pub fn next_transmission(&mut self) -> Option<Transmission> {
        if self.in_flight() >= self.window.cwnd_pkts {
            return None;
        }
        if self.lost_out > self.retrans_out {
            let mut seq = seq_max(self.retransmit_hint, self.snd_una);
            while before(seq, self.snd_nxt) {
                let f = self.scoreboard[self.index(seq)].flags;
                if f & LOST != 0 && f & RETRANS == 0 && f & SACKED == 0 {
                    self.retransmit_hint = seq;
                    return Some(Transmission {
                        seq,
                        retransmission: true,
                    });
                }
                seq = seq.wrapping_add(1);
            }
            self.retransmit_hint = self.snd_nxt;
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
            self.delivered_ns = now_ns;
            let w = self.window;
            self.cc.cwnd_event(&w, CaEvent::TxStart, now_ns);
        }
        let entry = Segment {
            flags: 0,
            delivered_at_send: self.delivered,
            delivered_ns_at_send: self.delivered_ns,
        };
        self.stats.segments_sent += 1;
        if self.state == CaState::Recovery || (self.cwr_prr && self.state == CaState::Cwr) {
            self.prr_out += 1;
        }
        if tx.retransmission {
            self.stats.retransmissions += 1;
            let s = self.seg(tx.seq);
            s.flags |= RETRANS;
            s.delivered_at_send = entry.delivered_at_send;
            s.delivered_ns_at_send = entry.delivered_ns_at_send;
            self.retrans_out += 1;
            self.retransmit_hint = tx.seq.wrapping_add(1);
        } else {
            debug_assert_eq!(tx.seq, self.snd_nxt);
            self.scoreboard.push_back(entry);
            self.snd_nxt = self.snd_nxt.wrapping_add(1);
            self.outstanding.held_pkts = self.packets_out();
        }
    }

    /// The interface queue refused a segment: local congestion (SPEC §1).
    /// Linux `tcp_enter_cwr`: only from Open/Disorder; the segment stays
    /// unsent. Returns true if a CWR episode began.
    pub fn on_local_congestion(&mut self, now_ns: u64) -> bool {
        self.stats.ifq_refusals += 1;
        if matches!(self.state, CaState::Open | CaState::Disorder) {
            self.enter_cwr(now_ns);
            self.stats.local_congestion_events += 1;
            true
        } else {
            false
        }
    }

    fn enter_cwr(&mut self, now_ns: u64) {
        let w = self.window;
        self.prior_cwnd = w.cwnd_pkts;
        self.window.ssthresh_pkts = match self.cwr_rule {
            CwrRule::Algorithm => self.cc.ssthresh(&w, now_ns),
            // Linux 2.4 `tcp_recalc_ssthresh`, whatever the algorithm; one
            // that owns its window (BBR) keeps its own rule.
            CwrRule::Halve if !self.cc.ignores_loss() => (w.cwnd_pkts / 2).max(2),
            CwrRule::Halve => self.cc.ssthresh(&w, now_ns),
        };
        if self.cwr_prr {
            // Linux ≥ 3.7 `tcp_init_cwnd_reduction`: PRR from here on, cwnd
            // untouched until the first ACK.
            self.prr_delivered = 0;
            self.prr_out = 0;
            self.recover_fs = self.packets_out();
        } else if !self.cc.ignores_loss() {
            // Algorithms that own the window (BBR's `cong_control`) keep it.
            self.window.cwnd_pkts = w.cwnd_pkts.min(self.in_flight() + 1);
        }
        self.window.cwnd_cnt = 0;
        self.reduction_cnt = 0;
        self.high_seq = self.snd_nxt;
        self.set_state(CaState::Cwr, now_ns);
    }

    /// ssthresh for a loss: the algorithm's loss rule if it has one
    /// (DCTCP), else its `ssthresh`.
    fn loss_ssthresh(&mut self, now_ns: u64) -> u32 {
        let w = self.window;
        match self.cc.loss_ssthresh(&w, now_ns) {
            Some(ss) => ss,
            None => self.cc.ssthresh(&w, now_ns),
        }
    }

    fn set_state(&mut self, state: CaState, now_ns: u64) {
        if self.state != state {
            self.state = state;
            let w = self.window;
            self.cc.set_state(&w, state, now_ns);
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
        let prior_sacked_out = self.sacked_out;
        let mut newly_acked = 0u32;
        let mut rate_from: Option<Segment> = None;

        // SACK information first, so the cumulative step below sees it.
        if self.sack {
            if let Some(s) = ack.sacked_seq {
                // In snd_una..snd_nxt (modulo 2^32).
                if s.wrapping_sub(self.snd_una) < self.packets_out() {
                    let seg = *self.seg(s);
                    if seg.flags & SACKED == 0 {
                        self.seg(s).flags = SACKED;
                        if seg.flags & LOST != 0 {
                            self.lost_out -= 1;
                        }
                        if seg.flags & RETRANS != 0 {
                            self.retrans_out -= 1;
                        }
                        self.sacked_out += 1;
                        newly_acked += 1;
                        rate_from = Some(seg);
                        self.highest_sacked =
                            Some(self.highest_sacked.map_or(s, |h| seq_max(h, s)));
                    }
                }
            }
        }

        // snd_una < cum_seq <= snd_nxt, modulo 2^32.
        let n = ack.cum_seq.wrapping_sub(self.snd_una);
        let advanced = n > 0 && n <= self.packets_out();
        if advanced {
            for _ in 0..n {
                let seg = self
                    .scoreboard
                    .pop_front()
                    .expect("scoreboard covers snd_una..snd_nxt");
                if seg.flags & SACKED != 0 {
                    self.sacked_out -= 1;
                } else {
                    newly_acked += 1;
                }
                if seg.flags & LOST != 0 {
                    self.lost_out -= 1;
                }
                if seg.flags & RETRANS != 0 {
                    self.retrans_out -= 1;
                }
                rate_from = Some(seg);
            }
            if !self.sack {
                // NewReno: duplicate ACKs counted as pseudo-SACKs are now
                // covered (Linux `tcp_remove_reno_sacks`).
                self.sacked_out = self.sacked_out.saturating_sub(n);
                self.dupacks = 0;
            }
            self.snd_una = ack.cum_seq;
            // Markers the cumulative ACK passed read as snd_una wherever
            // they are used (below); move them there so that they never
            // fall 2^31 behind it, where modulo comparison would turn.
            self.retransmit_hint = seq_max(self.retransmit_hint, self.snd_una);
            self.lost_marker = seq_max(self.lost_marker, self.snd_una);
            self.high_seq = seq_max(self.high_seq, self.snd_una);
            self.backoff = 0;
        } else if ack.cum_seq == self.snd_una && self.packets_out() > 0 && !self.sack {
            // NewReno duplicate ACK (Linux `tcp_add_reno_sack`).
            self.dupacks += 1;
            if self.sacked_out + self.lost_out < self.packets_out() {
                self.sacked_out += 1;
            }
        }

        // RTT sample from the timestamp echo, except for retransmitted data
        // (Karn's rule, RFC 6298 §3).
        let rtt_ns =
            (newly_acked > 0 && !ack.echo_retransmission).then(|| now_ns - ack.echo_sent_ns);
        if let Some(rtt) = rtt_ns {
            self.rtt.sample(rtt, self.snd_una, self.snd_nxt);
        }

        // Delivery-rate sample (Linux tcp_rate.c, simplified to the most
        // recently sent segment this ACK covers).
        self.delivered += newly_acked as u64;
        let mut delivery_rate_pps = None;
        if newly_acked > 0 {
            self.delivered_ns = now_ns;
            if let Some(seg) = rate_from.filter(|_| self.rate_samples) {
                // Linux takes the larger of the send and ACK intervals; the
                // ACK interval dominates for a sender that is not pacing.
                let interval = now_ns.saturating_sub(seg.delivered_ns_at_send);
                if interval > 0 {
                    let d = self.delivered - seg.delivered_at_send;
                    delivery_rate_pps = Some(d as f64 * 1e9 / interval as f64);
                }
            }
        }

        self.mark_lost();
        self.limit_reno_sacked();
        self.outstanding.on_ack(self.packets_out());
        // Packets this ACK newly delivered, as Linux counts them for rate
        // reduction (`newly_acked_sacked`): without SACK a duplicate ACK
        // stands for one delivered packet (a pseudo-SACK), and a cumulative
        // ACK only for what it covers beyond those.
        let delivered_now = (prior_packets_out - self.packets_out()) as i64
            + self.sacked_out as i64
            - prior_sacked_out as i64;
        let delivered_now = delivered_now.max(0) as u32;

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
            app_limited: self.packets_out() >= self.rwnd_pkts,
            ece: ack.ece,
            mss_bytes: self.mss_bytes,
            snd_una_seg: self.relative(self.snd_una),
            snd_nxt_seg: self.relative(self.snd_nxt),
        };
        {
            let w = self.window;
            self.cc.pkts_acked(&w, &sample);
        }

        // End of an episode once everything outstanding at its start is acked.
        if self.state != CaState::Open
            && self.state != CaState::Disorder
            && !before(self.snd_una, self.high_seq)
        {
            if matches!(self.state, CaState::Cwr | CaState::Recovery) && !self.cc.ignores_loss() {
                // Linux `tcp_complete_cwr` (the same rule in 2.4 and 2.6).
                self.window.cwnd_pkts = self.window.cwnd_pkts.min(self.window.ssthresh_pkts).max(1);
                let w = self.window;
                self.cc.cwnd_event(&w, CaEvent::CompleteCwr, now_ns);
            }
            self.set_state(CaState::Open, now_ns);
        }

        // ECN-Echo: one window reduction per round trip (RFC 3168 §6.1.2).
        if ack.ece
            && matches!(self.state, CaState::Open | CaState::Disorder)
            && !self.cc.ignores_loss()
        {
            self.stats.ecn_reductions += 1;
            self.enter_cwr(now_ns);
        }

        // Fast retransmit (RFC 5681 §3.2; RFC 6675 with FACK marking).
        let loss_detected = if self.sack {
            self.lost_out > 0
        } else {
            self.dupacks >= DUP_THRESH
        };
        if loss_detected && matches!(self.state, CaState::Open | CaState::Disorder | CaState::Cwr) {
            self.enter_recovery(now_ns);
            out.fast_retransmit = true;
        } else if self.state == CaState::Recovery
            && advanced
            && !self.sack
            && before(self.snd_una, self.high_seq)
        {
            // NewReno partial ACK (RFC 6582 §3.2 step 5): resend the next hole.
            self.mark_head_lost();
        } else if self.state == CaState::Open && (self.sacked_out > 0 || self.dupacks > 0) {
            self.set_state(CaState::Disorder, now_ns);
        } else if self.state == CaState::Disorder && self.sacked_out == 0 && self.dupacks == 0 {
            self.set_state(CaState::Open, now_ns);
        }

        // Window update.
        let w_before = self.window;
        let controlled = self.cc.cong_control(&mut self.window, &sample, self.state);
        if !controlled {
            match (self.state, self.recovery) {
                // Linux ≥ 3.7 reduces in CWR by PRR as in Recovery
                // (`tcp_cwnd_reduction`); for the algorithms that ask.
                (CaState::Cwr, _) if self.cwr_prr => self.prr(delivered_now),
                // Linux 2.4–3.1: every ACK that reaches
                // `tcp_fastretrans_alert` in CWR or Recovery, duplicates
                // included, calls `tcp_cwnd_down`.
                (CaState::Cwr | CaState::Recovery, RecoveryRule::RateHalving) => {
                    let in_flight = self.in_flight();
                    let floor = self.cc.min_cwnd(&self.window);
                    reduction::rate_halving(
                        &mut self.window,
                        &mut self.reduction_cnt,
                        in_flight,
                        floor,
                    );
                }
                (CaState::Cwr, _) => {
                    if advanced || newly_acked > 0 {
                        let in_flight = self.in_flight();
                        let floor = self.window.ssthresh_pkts;
                        reduction::rate_halving(
                            &mut self.window,
                            &mut self.reduction_cnt,
                            in_flight,
                            floor,
                        );
                    }
                }
                (CaState::Recovery, RecoveryRule::Prr) => self.prr(delivered_now),
                (CaState::Recovery, RecoveryRule::Rfc6675) => {
                    // RFC 6675 §5 step 4.2: cwnd = ssthresh on entry, kept
                    // until recovery ends; sending is by pipe < cwnd.
                    self.window.cwnd_pkts = self.window.ssthresh_pkts;
                }
                (CaState::Open | CaState::Disorder | CaState::Loss, _) => {
                    // Linux grows only when the window was the limit.
                    if newly_acked > 0
                        && prior_in_flight + 1 >= w_before.cwnd_pkts.min(self.rwnd_pkts)
                    {
                        self.cc.cong_avoid(&mut self.window, &sample);
                    }
                }
            }
        }
        self.window.cwnd_pkts = self
            .window
            .cwnd_pkts
            .clamp(1, self.window.cwnd_clamp_pkts.max(1));
        out
    }

    /// Proportional Rate Reduction for this ACK (see [`reduction::prr`]).
    fn prr(&mut self, delivered: u32) {
        if delivered == 0 {
            return;
        }
        self.prr_delivered += delivered;
        let pipe = self.in_flight();
        self.window.cwnd_pkts = reduction::prr(
            pipe,
            self.window.ssthresh_pkts,
            self.prr_delivered,
            self.prr_out,
            self.recover_fs,
            delivered,
        );
    }

    fn enter_recovery(&mut self, now_ns: u64) {
        self.stats.fast_retransmits += 1;
        self.prr_delivered = 0;
        self.prr_out = 0;
        self.recover_fs = self.packets_out();
        let w = self.window;
        if self.state != CaState::Cwr {
            self.prior_cwnd = w.cwnd_pkts;
            self.window.ssthresh_pkts = self.loss_ssthresh(now_ns);
            self.reduction_cnt = 0;
        } else if let Some(ss) = self.cc.loss_ssthresh(&w, now_ns) {
            // DCTCP: a loss during an ECN reduction still halves (RFC 8257
            // §3.5; Linux `dctcp_state` on entering Recovery).
            self.window.ssthresh_pkts = ss;
        }
        self.window.cwnd_cnt = 0;
        self.high_seq = self.snd_nxt;
        if !self.sack {
            self.mark_head_lost();
        }
        self.set_state(CaState::Recovery, now_ns);
    }

    /// FACK loss marking (Linux 2.6 default): a hole is lost once a segment
    /// DUP_THRESH above it has been SACKed.
    fn mark_lost(&mut self) {
        let Some(high) = self.highest_sacked else {
            return;
        };
        if before(high, self.snd_una) {
            self.highest_sacked = None;
            return;
        }
        // Below snd_una (nothing to mark) when high is within 2 of it.
        let limit = high.wrapping_sub(DUP_THRESH - 1);
        let mut seq = seq_max(self.lost_marker, self.snd_una);
        while before(seq, limit) {
            let i = self.index(seq);
            let f = &mut self.scoreboard[i].flags;
            if *f & (SACKED | LOST) == 0 {
                *f |= LOST;
                self.lost_out += 1;
                self.retransmit_hint = seq_min(self.retransmit_hint, seq);
            }
            seq = seq.wrapping_add(1);
        }
        self.lost_marker = seq_max(self.lost_marker, limit);
    }

    /// Linux `tcp_limit_reno_sacked`: without SACK, duplicate ACKs can't
    /// stand for more segments than are outstanding and not already lost.
    fn limit_reno_sacked(&mut self) {
        if !self.sack {
            self.sacked_out = self
                .sacked_out
                .min(self.packets_out().saturating_sub(self.lost_out));
        }
    }

    /// NewReno: the first unacknowledged segment is lost.
    fn mark_head_lost(&mut self) {
        if self.packets_out() == 0 {
            return;
        }
        let una = self.snd_una;
        let f = &mut self.seg(una).flags;
        if *f & LOST == 0 {
            *f |= LOST;
            *f &= !RETRANS;
            self.lost_out += 1;
        } else if *f & RETRANS != 0 {
            *f &= !RETRANS;
            self.retrans_out -= 1;
        }
        self.retransmit_hint = una;
        self.limit_reno_sacked();
    }

    /// Retransmission timeout (RFC 6298 §5, Linux `tcp_enter_loss`).
    pub fn on_timeout(&mut self, now_ns: u64) {
        self.stats.timeouts += 1;
        let w = self.window;
        // Reduce ssthresh unless already reduced inside this window: Linux
        // `tcp_enter_loss` (2.4's tcp_input.c and every later version)
        // reduces it in Open or Disorder, once the window of the last
        // reduction is acknowledged, and on a timeout in Loss after the
        // retransmissions made progress (`ca_state == TCP_CA_Loss &&
        // !retransmits`: the backoff count is reset by an ACK that advances
        // snd_una).
        if matches!(self.state, CaState::Open | CaState::Disorder)
            || !before(self.snd_una, self.high_seq)
            || (self.state == CaState::Loss && self.backoff == 0)
        {
            self.prior_cwnd = w.cwnd_pkts;
            self.window.ssthresh_pkts = self.loss_ssthresh(now_ns);
        } else if self.state == CaState::Cwr {
            // Already reduced in CWR; Linux keeps that ssthresh, except
            // DCTCP, whose ECN reduction does not count as a loss's (RFC
            // 8257 §3.5; Linux `dctcp_react_to_loss` on CA_EVENT_LOSS).
            if let Some(ss) = self.cc.loss_ssthresh(&w, now_ns) {
                self.window.ssthresh_pkts = ss;
            }
        } else {
            // Already reduced in Recovery or Loss: that ssthresh stays.
        }
        let w = self.window;
        self.cc.cwnd_event(&w, CaEvent::Loss, now_ns);
        self.window.cwnd_pkts = 1;
        self.window.cwnd_cnt = 0;
        for seg in self.scoreboard.iter_mut() {
            if seg.flags & SACKED == 0 {
                seg.flags = LOST;
            } else {
                seg.flags = SACKED;
            }
        }
        self.lost_out = self.packets_out() - self.sacked_out;
        self.retrans_out = 0;
        self.retransmit_hint = self.snd_una;
        self.lost_marker = self.snd_nxt;
        self.dupacks = 0;
        if !self.sack {
            self.sacked_out = 0;
            self.lost_out = self.packets_out();
        }
        self.high_seq = self.snd_nxt;
        self.backoff += 1;
        self.set_state(CaState::Loss, now_ns);
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
