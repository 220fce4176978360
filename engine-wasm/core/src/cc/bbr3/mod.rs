//! BBRv3 as google's `net/ipv4/tcp_bbr.c` at `BBR_VERSION 3` ships it
//! (github.com/google/bbr, branch v3; the IETF's draft-ietf-ccwg-bbr
//! describes the same algorithm). BBRv1 stays as `bbr` (`cc/bbr`).
//!
//! What v3 adds to v1's model (max bandwidth, min RTT, pacing, cwnd = gain
//! × BDP + the ACK-aggregation allowance, quantized for TSO bursts, which
//! it shares with `cc/bbr`):
//!
//! * **Bounds from loss.** `inflight_hi`, the most it has found safe to
//!   keep in flight: set when a bandwidth probe's loss rate passes 2 %
//!   (`bbr_loss_thresh`, 5/256 in the kernel's fixed point) to what was in
//!   flight then, or 180/256 of the target (`bbr_beta` = 30/100 → 76/256
//!   is the cut); and short-term lower bounds `bw_lo` and
//!   `inflight_lo`, cut by `bbr_beta` each round trip with loss while not
//!   probing (`bbr_adapt_lower_bounds`), reset when a probe begins.
//! * **PROBE_BW in four phases** (`bbr_update_cycle_phase`): DOWN (pacing
//!   gain 91/100 → 232/256) until in flight is below both the BDP and `inflight_hi`
//!   less 15 % headroom; CRUISE (gain 1, cwnd capped at that headroom)
//!   until 2–3 s of wall-clock time have passed (`bbr_bw_probe_base_us` +
//!   a random part of `bbr_bw_probe_rand_us`) or as many round trips as
//!   Reno would take to regrow the window (`bbr_is_reno_coexistence_probe_time`,
//!   at most 63); REFILL (gain 1) for one round; UP (gain 1.25, cwnd gain
//!   2.25) growing `inflight_hi` 1, 2, 4, … packets per round while
//!   cwnd-limited at it, until the loss rate is too high, three rounds
//!   bring no 25 % more bandwidth, or a probe that found loss at
//!   `inflight_hi` reaches it again.
//! * **The bandwidth filter** keeps the maxima of the last two probe
//!   cycles (`bw_hi[2]`, advanced when a probe's ACKs stop).
//! * **STARTUP** paces at 710/256 (2.77) with cwnd gain 2, and also ends when a
//!   round of Recovery holds at least six lossy ACKs and a loss rate over
//!   2 % (`bbr_check_loss_too_high_in_startup`); DRAIN paces at 88/256.
//! * **Quantization** (v3's `bbr_quantization_budget`): the in-flight
//!   target is at least 3 TSO bursts (1 ms at the pacing rate plus 64 KB
//!   halved per 512 µs of min RTT) and 4 packets, +2 in UP; the ACK
//!   aggregation window is 1 round until the pipe is full, then 5.
//! * **Recovery**: no packet conservation and no cwnd restore after fast
//!   recovery (v1's `bbr_set_cwnd_to_recover_or_restore` is gone); loss
//!   acts only through the bounds; leaving an RTO's Loss state restores
//!   the saved cwnd.
//! * **PROBE_RTT** comes when no lower RTT was seen for 5 s
//!   (`bbr_probe_rtt_win_ms`) and halves the BDP instead of dropping to 4
//!   packets (`bbr_probe_rtt_cwnd_gain`); the min-RTT filter stays 10 s.
//! * **The per-packet loss hook** (`bbr_skb_marked_lost`): every packet
//!   marked lost notes the loss for the round and, during a probe, is
//!   tested on its own flight; a too-lossy flight sets `inflight_hi` where
//!   the loss rate crossed 2 % (`bbr_inflight_hi_from_lost_skb`) and ends
//!   the probe (`bounds.rs`).
//! * **The ECN response** (`ecn.rs`), off unless the `ecn` parameter
//!   stands for a route with Linux's `ecn_low` flag, and then only at a
//!   min RTT of at most 5 ms: an EWMA of the CE fraction cuts
//!   `inflight_lo`, more than half of a sample marked is "too high", two
//!   marked rounds end STARTUP, marks without loss bring the next probe.
//! * **Undo**: `bbr_ssthresh` saves the bounds and `bbr_undo_cwnd` takes
//!   them back, though this sender never finds a loss episode spurious.
//!
//! Not modelled: the fast path, PLB, EDT's in-flight estimate, TLP
//! recovery, and `is_cwnd_limited` (read as in flight before the ACK at
//! least the cwnd). The random draws of
//! `bbr_pick_probe_wait` come from a hash of the time, as in `cc/bbr`, so
//! runs stay deterministic.
//!
//! This file holds the constants, the state and `bbr_main`; `probe_bw.rs`
//! the four-phase cycle, `bounds.rs` the loss bounds and the caps on cwnd,
//! `modes.rs` STARTUP, DRAIN and PROBE_RTT.

mod bounds;
mod ecn;
mod modes;
mod probe_bw;
#[cfg(test)]
mod tests;

use super::bbr::ack_aggregation::{AckAggregation, EXTRA_ACKED_WIN_RTTS};
use super::bbr::cwnd::{GSO_MAX_BYTES, INIT_CWND};
use super::{
    AckSample, AlgorithmInfo, CaState, CeEcho, Citation, CongestionControl, LostPacket, ParamInfo,
    Params, Window, INFINITE_SSTHRESH,
};

pub static INFO: AlgorithmInfo = AlgorithmInfo {
    id: "bbr3",
    name: "BBRv3",
    explanation: "BBRv3 keeps BBR's model of the path — the highest recent delivery rate and the lowest recent RTT — and adds bounds learnt from loss. When a probe for more bandwidth loses more than 2 % of what it sent, the amount in flight at that moment becomes a ceiling (inflight_hi); each round trip with loss outside a probe also cuts short-term bounds on rate and in-flight data by 30 %. Between probes it cruises at the estimated rate, a little below the ceiling, and it probes again only after 2–3 seconds or as many round trips as Reno would need to regrow its window, so it leaves room for loss-based flows.",
    expect_on_chart: "A start-up like slow start that also stops on heavy loss, then long flat stretches (CRUISE) broken every 2–3 s by a probe: one round at the estimated rate, a climb of 1, 2, 4… packets per round, and a step down (pacing 0.91) when loss or the queue says the probe went too far. Every 5 s without a lower RTT, cwnd halves for 200 ms (PROBE_RTT).",
    increase_tex: r"\text{UP: } \mathit{inflight\_hi} \mathrel{+}= 2^{k}\ \text{per round};\quad cwnd = \min(2\cdot\widehat{BtlBw}\cdot\widehat{RTprop} + \text{extra},\ \mathit{inflight\_hi})",
    decrease_tex: r"\text{loss rate} > 2\,\%: \mathit{inflight\_hi} = \max(\text{in flight}, 0.7\cdot\text{target});\ \text{per lossy round: } \mathit{bw\_lo}, \mathit{inflight\_lo} \times 0.7",
    params: &[
        ParamInfo { id: "loss_thresh", name: "Loss threshold", default: 0.02, min: 0.005, max: 0.2, step: 0.005, unit: "fraction", log_scale: true, description: "Loss rate of a probe's packets above which BBRv3 takes the in-flight level as too high (bbr_loss_thresh, 2 %)." },
        ParamInfo { id: "beta", name: "Cut on loss", default: 0.3, min: 0.05, max: 0.9, step: 0.05, unit: "fraction", log_scale: false, description: "Multiplicative cut of the loss bounds, per round trip with loss (bbr_beta, 0.3: bounds × 0.7)." },
        ParamInfo { id: "ecn", name: "ECN response", default: 0.0, min: 0.0, max: 1.0, step: 1.0, unit: "on/off", log_scale: false, description: "Use CE marks as v3 does on a shallow-threshold ECN route (Linux: ECN negotiated and the route's ecn_low flag; off by default): the receiver echoes each packet's mark, and on paths of min RTT ≤ 5 ms marks cut inflight_lo and end STARTUP and probes." },
        ParamInfo { id: "headroom", name: "Headroom", default: 0.15, min: 0.0, max: 0.5, step: 0.01, unit: "fraction", log_scale: false, description: "Share of inflight_hi left free while cruising, for other flows (bbr_inflight_headroom, 15 %)." },
    ],
    citations: &[
        Citation { label: "google/bbr v3 tcp_bbr.c", reference: "Google BBR team, net/ipv4/tcp_bbr.c, BBR_VERSION 3 (github.com/google/bbr, branch v3, 2023): startup pacing gain 2.77, cwnd gain 2, PROBE_BW gains 1.25/0.91/1/1, bbr_loss_thresh 2 %, bbr_beta 0.3, bbr_inflight_headroom 15 %, bbr_bw_probe_base_us 2 s + bbr_bw_probe_rand_us 1 s, bbr_bw_probe_max_rounds 63, bbr_full_loss_cnt 6, bbr_probe_rtt_win_ms 5000, bbr_probe_rtt_cwnd_gain 1/2." },
        Citation { label: "draft-ietf-ccwg-bbr", reference: "N. Cardwell, I. Swett, J. Beshay. BBR Congestion Control. IETF Internet-Draft draft-ietf-ccwg-bbr (2024–2025)." },
        Citation { label: "Cardwell et al., IETF 117", reference: "N. Cardwell et al. BBRv3: Algorithm Bug Fixes and Public Internet Deployment. IETF 117, CCWG, July 2023." },
    ],
};

/// `bbr_startup_pacing_gain` (`BBR_UNIT * 277 / 100 + 1` = 710/256).
pub const STARTUP_PACING_GAIN: f64 = 710.0 / 256.0;
/// `bbr_startup_cwnd_gain`.
pub const STARTUP_CWND_GAIN: f64 = 2.0;
/// `bbr_drain_gain` (`BBR_UNIT * 1000 / 2885` = 88/256).
pub const DRAIN_GAIN: f64 = 88.0 / 256.0;
/// `bbr_cwnd_gain` in PROBE_BW.
pub const CWND_GAIN: f64 = 2.0;
/// `bbr_bw_probe_cwnd_gain` (1, in quarters of `BBR_UNIT`): UP's extra cwnd gain.
pub const BW_PROBE_CWND_GAIN: f64 = 0.25;
/// `bbr_cwnd_min_target`.
pub const CWND_MIN_TARGET: u32 = 4;
/// `bbr_pacing_margin_percent`.
const PACING_MARGIN: f64 = 0.01;
/// `bbr_min_rtt_win_sec`.
const MIN_RTT_WIN_NS: u64 = 10_000_000_000;
/// `bbr_probe_rtt_win_ms`: PROBE_RTT when no lower RTT for this long.
pub const PROBE_RTT_WIN_NS: u64 = 5_000_000_000;
/// `bbr_probe_rtt_mode_ms`.
const PROBE_RTT_MODE_NS: u64 = 200_000_000;
/// `bbr_probe_rtt_cwnd_gain` (`BBR_UNIT * 1 / 2`).
pub const PROBE_RTT_CWND_GAIN: f64 = 0.5;

/// `enum bbr_mode`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Startup,
    Drain,
    ProbeBw,
    ProbeRtt,
}

/// `enum bbr_pacing_gain_phase`: PROBE_BW's four phases.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Up,
    Down,
    Cruise,
    Refill,
}

impl Phase {
    /// `bbr_pacing_gain[]`: UP 5/4, DOWN 91/100 (232/256 in `BBR_UNIT`s),
    /// CRUISE and REFILL 1.
    pub fn pacing_gain(self) -> f64 {
        match self {
            Phase::Up => 1.25,
            Phase::Down => 232.0 / 256.0,
            Phase::Cruise | Phase::Refill => 1.0,
        }
    }
}

/// `enum bbr_ack_phase`: where the ACKs of a bandwidth probe stand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum AckPhase {
    Init,
    Refilling,
    ProbeStarting,
    ProbeFeedback,
    ProbeStopping,
}

/// Unset bounds (`~0U` in Linux).
const UNSET: u32 = u32::MAX;

/// A parameter as `tcp_bbr.c` holds it: in 256ths (`BBR_UNIT`), rounded
/// down as `BBR_UNIT * pct / 100` is.
fn in_bbr_units(x: f64) -> f64 {
    (x * 256.0 + 1e-9).floor() / 256.0
}

pub fn build(p: &Params) -> Box<dyn CongestionControl> {
    let mut cc = Bbr3::new(
        in_bbr_units(p.get("loss_thresh")),
        in_bbr_units(p.get("beta")),
        in_bbr_units(p.get("headroom")),
    );
    cc.ecn_enabled = p.get("ecn") >= 0.5;
    Box::new(cc)
}

pub struct Bbr3 {
    loss_thresh: f64,
    beta: f64,
    headroom: f64,

    mode: Mode,
    phase: Phase,
    ack_phase: AckPhase,
    pacing_gain: f64,
    cwnd_gain: f64,

    /// `bw_hi[2]`: the max delivery rate (packets per second) of the
    /// previous and the current probe cycle.
    bw_hi: [f64; 2],
    /// `bw_lo`, `inflight_lo`, `inflight_hi` (`UNSET` / infinity: none).
    bw_lo: f64,
    inflight_lo: u32,
    inflight_hi: u32,
    /// `bw_latest`, `inflight_latest`: this round trip's delivery signals.
    bw_latest: f64,
    inflight_latest: u32,

    /// Rounds (`next_rtt_delivered`, `round_start`) and the loss rounds
    /// (`loss_round_delivered`, `loss_round_start`, `loss_in_round`,
    /// `loss_events_in_round`).
    next_rtt_delivered: u64,
    round_start: bool,
    loss_round_delivered: u64,
    loss_round_start: bool,
    loss_in_round: bool,
    loss_events_in_round: u32,
    /// `loss_in_cycle`, `ecn_in_cycle`: loss or CE marks since the last
    /// probe ended (for the ECN re-probe).
    loss_in_cycle: bool,
    ecn_in_cycle: bool,

    /// The ECN response (`ecn.rs`): `bbr_can_use_ecn` (the `ecn`
    /// parameter), `ecn_eligible`, `ecn_in_round`, `ecn_alpha` (in 256ths),
    /// `alpha_last_delivered`, `alpha_last_delivered_ce`,
    /// `startup_ecn_rounds`.
    ecn_enabled: bool,
    ecn_eligible: bool,
    ecn_in_round: bool,
    ecn_alpha: u64,
    alpha_last_delivered: u64,
    alpha_last_delivered_ce: u64,
    startup_ecn_rounds: u32,
    /// The sender's state on this ACK (`icsk_ca_state`).
    ca_state: CaState,
    /// `undo_bw_lo`, `undo_inflight_lo`, `undo_inflight_hi`: the bounds
    /// when a loss episode began, back if it proves spurious.
    undo_bw_lo: f64,
    undo_inflight_lo: u32,
    undo_inflight_hi: u32,

    min_rtt_ns: u64,
    min_rtt_stamp_ns: u64,
    probe_rtt_min_ns: u64,
    probe_rtt_min_stamp_ns: u64,
    probe_rtt_done_stamp_ns: Option<u64>,
    probe_rtt_round_done: bool,
    /// `tp->app_limited` as PROBE_RTT sets it, as spans of the delivered
    /// count: a packet sent with a delivered count inside one was sent
    /// while the flag was set, so its rate sample is application-limited.
    app_limited_spans: Vec<(u64, u64)>,

    /// PROBE_BW: `cycle_mstamp`, `probe_wait_us`, `rounds_since_probe`,
    /// `bw_probe_up_rounds`, `bw_probe_up_acks`, `bw_probe_up_cnt`,
    /// `bw_probe_samples`, `prev_probe_too_high`, `stopped_risky_probe`.
    cycle_stamp_ns: u64,
    probe_wait_ns: u64,
    rounds_since_probe: u32,
    bw_probe_up_rounds: u32,
    bw_probe_up_acks: u32,
    bw_probe_up_cnt: u32,
    bw_probe_samples: bool,
    prev_probe_too_high: bool,
    stopped_risky_probe: bool,

    full_bw: f64,
    full_bw_cnt: u32,
    full_bw_now: bool,
    full_bw_reached: bool,

    prior_cwnd: u32,
    prev_ca_state: CaState,
    delivered_mstamp_ns: u64,
    ack_aggregation: AckAggregation,
    has_seen_rtt: bool,
    /// Bytes per second (payload).
    pacing_rate: f64,
    mss: f64,
    /// Every PROBE_BW phase entered, for tests.
    #[cfg(test)]
    phase_log: Vec<Phase>,
}

impl Bbr3 {
    pub fn new(loss_thresh: f64, beta: f64, headroom: f64) -> Self {
        Bbr3 {
            loss_thresh,
            beta,
            headroom,
            mode: Mode::Startup,
            phase: Phase::Down,
            ack_phase: AckPhase::Init,
            pacing_gain: STARTUP_PACING_GAIN,
            cwnd_gain: STARTUP_CWND_GAIN,
            bw_hi: [0.0; 2],
            bw_lo: f64::INFINITY,
            inflight_lo: UNSET,
            inflight_hi: UNSET,
            bw_latest: 0.0,
            inflight_latest: 0,
            next_rtt_delivered: 0,
            round_start: false,
            // `bbr_init`: "start sampling ECN mark rate after first full
            // flight is ACKed" (`tp->delivered + 1`).
            loss_round_delivered: 1,
            loss_round_start: false,
            loss_in_round: false,
            loss_events_in_round: 0,
            loss_in_cycle: false,
            ecn_in_cycle: false,
            ecn_enabled: false,
            ecn_eligible: false,
            ecn_in_round: false,
            ecn_alpha: ecn::ECN_ALPHA_INIT,
            alpha_last_delivered: 0,
            alpha_last_delivered_ce: 0,
            startup_ecn_rounds: 0,
            ca_state: CaState::Open,
            undo_bw_lo: 0.0,
            undo_inflight_lo: 0,
            undo_inflight_hi: 0,
            min_rtt_ns: u64::MAX,
            min_rtt_stamp_ns: 0,
            probe_rtt_min_ns: u64::MAX,
            probe_rtt_min_stamp_ns: 0,
            probe_rtt_done_stamp_ns: None,
            probe_rtt_round_done: false,
            app_limited_spans: Vec::new(),
            cycle_stamp_ns: 0,
            probe_wait_ns: 0,
            rounds_since_probe: 0,
            bw_probe_up_rounds: 0,
            bw_probe_up_acks: 0,
            bw_probe_up_cnt: UNSET,
            bw_probe_samples: false,
            prev_probe_too_high: false,
            stopped_risky_probe: false,
            full_bw: 0.0,
            full_bw_cnt: 0,
            full_bw_now: false,
            full_bw_reached: false,
            prior_cwnd: 0,
            prev_ca_state: CaState::Open,
            delivered_mstamp_ns: 0,
            ack_aggregation: AckAggregation::default(),
            has_seen_rtt: false,
            pacing_rate: 0.0,
            mss: 1448.0,
            #[cfg(test)]
            phase_log: Vec::new(),
        }
    }

    /// The v3 release's defaults, as its fixed point (`BBR_UNIT` = 256)
    /// makes them: `bbr_loss_thresh` 2/100 → 5/256, `bbr_beta` 30/100 →
    /// 76/256 (the bounds keep 180/256), `bbr_inflight_headroom` 15/100 →
    /// 38/256.
    pub fn linux() -> Self {
        Bbr3::new(5.0 / 256.0, 76.0 / 256.0, 38.0 / 256.0)
    }

    pub fn mode(&self) -> Mode {
        self.mode
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    pub fn inflight_hi(&self) -> Option<u32> {
        (self.inflight_hi != UNSET).then_some(self.inflight_hi)
    }

    pub fn inflight_lo(&self) -> Option<u32> {
        (self.inflight_lo != UNSET).then_some(self.inflight_lo)
    }

    pub fn min_rtt_ns(&self) -> u64 {
        self.min_rtt_ns
    }

    /// `bbr_max_bw`: the larger of the two cycles' maxima, packets/s.
    pub fn max_bw_pps(&self) -> f64 {
        self.bw_hi[0].max(self.bw_hi[1])
    }

    /// `bbr_bw` after `bbr_bound_bw_for_model`: the max bandwidth under
    /// the short-term bound `bw_lo`.
    pub fn bw_pps(&self) -> f64 {
        self.max_bw_pps().min(self.bw_lo)
    }

    /// `bbr_bdp`: ⌈bw·min_rtt·gain⌉, the initial window before any RTT.
    fn bdp(&self, bw_pps: f64, gain: f64) -> u32 {
        if self.min_rtt_ns == u64::MAX {
            return INIT_CWND;
        }
        (bw_pps * self.min_rtt_ns as f64 / 1e9 * gain).ceil() as u32
    }

    /// v3's `bbr_tso_segs_goal`: 1 ms of data at the pacing rate plus 64 KB
    /// halved for every 512 µs of min RTT (`bbr_tso_rtt_shift`), at most a
    /// legacy GSO burst, at least 2 segments (`sysctl_tcp_min_tso_segs`).
    fn tso_segs_goal(&self) -> u32 {
        let rtt_us = if self.min_rtt_ns == u64::MAX {
            u64::MAX
        } else {
            self.min_rtt_ns / 1000
        };
        let shift = rtt_us >> 9;
        let r = if shift >= 17 {
            0.0
        } else {
            (65_536u64 >> shift) as f64
        };
        let bytes = (self.pacing_rate / 1024.0 + r).min(GSO_MAX_BYTES);
        ((bytes / self.mss) as u32).max(2)
    }

    /// v3's `bbr_quantization_budget`: at least 3 TSO bursts and 4
    /// packets, +2 in UP.
    fn quantization_budget(&self, cwnd: u32) -> u32 {
        let mut cwnd = cwnd.max(3 * self.tso_segs_goal()).max(CWND_MIN_TARGET);
        if self.mode == Mode::ProbeBw && self.phase == Phase::Up {
            cwnd += 2;
        }
        cwnd
    }

    /// `bbr_inflight`: the in-flight target for a gain.
    fn inflight(&self, bw_pps: f64, gain: f64) -> u32 {
        self.quantization_budget(self.bdp(bw_pps, gain))
    }

    /// `bbr_target_inflight`: the BDP at the model's bandwidth, at most cwnd.
    fn target_inflight(&self, w: &Window) -> u32 {
        self.inflight(self.bw_pps(), 1.0).min(w.cwnd_pkts)
    }

    fn pacing_rate_for(&self, bw_pps: f64, gain: f64) -> f64 {
        bw_pps * self.mss * gain * (1.0 - PACING_MARGIN)
    }

    /// `bbr_init_pacing_rate_from_rtt`.
    fn init_pacing_rate(&mut self, cwnd: u32, srtt_ns: u64) {
        let rtt_s = if srtt_ns > 0 {
            self.has_seen_rtt = true;
            srtt_ns as f64 / 1e9
        } else {
            1e-3
        };
        self.pacing_rate = self.pacing_rate_for(cwnd as f64 / rtt_s, STARTUP_PACING_GAIN);
    }

    /// `bbr_save_cwnd`.
    fn save_cwnd(&mut self, cwnd: u32) {
        if !matches!(self.prev_ca_state, CaState::Recovery | CaState::Loss)
            && self.mode != Mode::ProbeRtt
        {
            self.prior_cwnd = cwnd;
        } else {
            self.prior_cwnd = self.prior_cwnd.max(cwnd);
        }
    }

    /// `bbr_update_round_start`.
    fn update_round_start(&mut self, ack: &AckSample) {
        self.round_start = false;
        if ack.delivery_rate_pps.is_some() && ack.prior_delivered_pkts >= self.next_rtt_delivered {
            self.next_rtt_delivered = ack.delivered_pkts;
            self.round_start = true;
        }
    }

    /// `rs->is_app_limited`: the sender's own flag, or the sample's packet
    /// left while PROBE_RTT had `tp->app_limited` set.
    fn sample_app_limited(&self, ack: &AckSample) -> bool {
        ack.app_limited || self.sent_app_limited(ack.prior_delivered_pkts)
    }

    /// Whether a packet sent when `delivered_at_send` packets had been
    /// delivered left while PROBE_RTT had `tp->app_limited` set (its
    /// `tx.is_app_limited`).
    fn sent_app_limited(&self, delivered_at_send: u64) -> bool {
        self.app_limited_spans
            .iter()
            .any(|&(from, until)| from <= delivered_at_send && delivered_at_send <= until)
    }

    /// PROBE_RTT's `tp->app_limited = (tp->delivered +
    /// tcp_packets_in_flight(tp)) ? : 1`, kept as a span of delivered
    /// counts (at most four remembered).
    fn set_app_limited(&mut self, ack: &AckSample) {
        let until = (ack.delivered_pkts + ack.in_flight_pkts as u64).max(1);
        match self.app_limited_spans.last_mut() {
            Some(span) if span.1 >= ack.delivered_pkts => span.1 = span.1.max(until),
            _ => {
                if self.app_limited_spans.len() == 4 {
                    self.app_limited_spans.remove(0);
                }
                self.app_limited_spans.push((ack.delivered_pkts, until));
            }
        }
    }

    /// `bbr_update_gains`.
    fn update_gains(&mut self) {
        (self.pacing_gain, self.cwnd_gain) = match self.mode {
            Mode::Startup => (STARTUP_PACING_GAIN, STARTUP_CWND_GAIN),
            Mode::Drain => (DRAIN_GAIN, STARTUP_CWND_GAIN),
            Mode::ProbeBw => (
                self.phase.pacing_gain(),
                CWND_GAIN
                    + if self.phase == Phase::Up {
                        BW_PROBE_CWND_GAIN
                    } else {
                        0.0
                    },
            ),
            Mode::ProbeRtt => (1.0, 1.0),
        };
    }

    /// `bbr_set_cwnd`, then `bbr_bound_cwnd_for_inflight_model`.
    fn set_cwnd(&mut self, w: &mut Window, ack: &AckSample) {
        let acked = ack.acked_pkts;
        let mut cwnd = w.cwnd_pkts;
        if acked > 0 {
            let bw = self.bw_pps();
            let target =
                self.bdp(bw, self.cwnd_gain) + self.ack_aggregation.cwnd(self.full_bw_reached, bw);
            let target = self.quantization_budget(target);
            if self.full_bw_reached {
                cwnd = (cwnd + acked).min(target);
            } else if cwnd < target || cwnd < 2 * INIT_CWND {
                cwnd += acked;
            }
            cwnd = cwnd.max(CWND_MIN_TARGET);
        }
        cwnd = cwnd.min(w.cwnd_clamp_pkts);
        if self.mode == Mode::ProbeRtt {
            cwnd = cwnd.min(self.probe_rtt_cwnd());
        }
        w.cwnd_pkts = self.bound_cwnd_for_inflight_model(cwnd).max(1);
    }
}

impl CongestionControl for Bbr3 {
    fn init(&mut self, w: &mut Window, now_ns: u64) {
        w.ssthresh_pkts = INFINITE_SSTHRESH;
        self.min_rtt_stamp_ns = now_ns;
        self.probe_rtt_min_stamp_ns = now_ns;
        self.delivered_mstamp_ns = now_ns;
        self.cycle_stamp_ns = now_ns;
        self.ack_aggregation.start(now_ns);
        self.init_pacing_rate(w.cwnd_pkts, 0);
        self.update_gains();
    }

    /// `bbr_ssthresh`: remember cwnd and the loss bounds for after
    /// recovery (or its undo), leave ssthresh.
    fn ssthresh(&mut self, w: &Window, _now_ns: u64) -> u32 {
        self.save_cwnd(w.cwnd_pkts);
        self.undo_bw_lo = self.bw_lo;
        self.undo_inflight_lo = self.inflight_lo;
        self.undo_inflight_hi = self.inflight_hi;
        w.ssthresh_pkts
    }

    /// Never called: BBRv3 takes `cong_control`.
    fn cong_avoid(&mut self, _w: &mut Window, _ack: &AckSample) {}

    /// `bbr_main`.
    fn cong_control(&mut self, w: &mut Window, ack: &AckSample, state: CaState) -> bool {
        self.mss = ack.mss_bytes.max(1) as f64;
        if ack.acked_pkts > 0 {
            self.delivered_mstamp_ns = ack.now_ns;
        }
        // `tcp_rate_gen`: "clear app limited if bubble is acked and gone".
        let app_limited = self.sample_app_limited(ack);
        self.ca_state = state;
        self.update_round_start(ack);
        if self.round_start {
            self.rounds_since_probe = (self.rounds_since_probe + 1).min(0xff);
            self.update_ecn_alpha(ack);
        }
        self.ecn_in_round |= self.ecn_eligible && ack.ece;
        self.update_latest_delivery_signals(ack);
        // `bbr_update_model`.
        self.update_congestion_signals(w, ack, app_limited);
        let bw = self.bw_pps();
        self.ack_aggregation.update(
            self.round_start,
            // `bbr_extra_acked_win_rtts`, 1 round until the pipe is full.
            if self.full_bw_reached {
                EXTRA_ACKED_WIN_RTTS
            } else {
                1
            },
            self.delivered_mstamp_ns,
            bw,
            w,
            ack,
        );
        self.check_loss_too_high_in_startup(ack, state);
        self.check_full_bw_reached(ack, app_limited);
        self.check_drain(w, ack);
        self.update_cycle_phase(w, ack, app_limited);
        self.update_min_rtt(w, ack);
        self.update_gains();

        // `bbr_set_pacing_rate`.
        if !self.has_seen_rtt && ack.srtt_ns > 0 {
            self.init_pacing_rate(w.cwnd_pkts, ack.srtt_ns);
        }
        let rate = self.pacing_rate_for(self.bw_pps(), self.pacing_gain);
        if self.full_bw_reached || rate > self.pacing_rate {
            self.pacing_rate = rate;
        }
        // `bbr_exit_loss_recovery`: leaving an RTO's Loss state brings back
        // the cwnd saved before it (leaving fast recovery does not).
        if self.prev_ca_state == CaState::Loss && state != CaState::Loss {
            w.cwnd_pkts = w.cwnd_pkts.max(self.prior_cwnd);
        }
        self.set_cwnd(w, ack);
        self.advance_latest_delivery_signals(ack);
        self.prev_ca_state = state;
        self.loss_in_cycle |= ack.tx_lost_pkts > 0;
        self.ecn_in_cycle |= ack.tx_delivered_ce_pkts > 0;
        true
    }

    /// `bbr_set_state`: an RTO restarts full-pipe detection, keeps the
    /// pre-RTO cwnd for `inflight_lo`, and the cwnd comes back afterwards.
    fn set_state(&mut self, w: &Window, state: CaState, _now_ns: u64) {
        if state == CaState::Loss {
            self.prev_ca_state = CaState::Loss;
            self.full_bw = 0.0;
            self.full_bw_cnt = 0;
            self.full_bw_now = false;
            if !self.is_probing_bandwidth() && self.inflight_lo == UNSET {
                self.inflight_lo = w.cwnd_pkts.max(self.prior_cwnd);
            }
        }
    }

    /// `bbr_undo_cwnd`: a spurious slow-down; restart full-pipe
    /// detection and take back the bounds the episode lowered.
    fn undo_cwnd(&mut self, w: &Window, _prior_cwnd_pkts: u32) -> u32 {
        self.full_bw = 0.0;
        self.full_bw_cnt = 0;
        self.full_bw_now = false;
        self.loss_in_round = false;
        self.bw_lo = self.bw_lo.max(self.undo_bw_lo);
        self.inflight_lo = self.inflight_lo.max(self.undo_inflight_lo);
        self.inflight_hi = self.inflight_hi.max(self.undo_inflight_hi);
        w.cwnd_pkts.max(self.prior_cwnd)
    }

    fn pacing_rate_bytes_per_s(&self) -> Option<f64> {
        Some(self.pacing_rate.max(1.0))
    }

    fn paces(&self) -> bool {
        true
    }

    fn uses_delivery_rate(&self) -> bool {
        true
    }

    fn ignores_loss(&self) -> bool {
        true
    }

    fn wants_lost_packets(&self) -> bool {
        true
    }

    /// `bbr_precise_ece_ack`: on an ECN route the receiver echoes each
    /// packet's CE state (`dctcp_ece_ack_update`).
    fn ce_echo(&self) -> CeEcho {
        if self.ecn_enabled {
            CeEcho::Dctcp
        } else {
            CeEcho::Classic
        }
    }

    /// Linux with a `cong_control` hook: the stack enters CWR and Recovery
    /// but leaves cwnd to the module.
    fn owns_window(&self) -> bool {
        true
    }

    fn skb_marked_lost(&mut self, w: &Window, lost: &LostPacket) {
        self.on_packet_lost(w, lost);
    }
}
