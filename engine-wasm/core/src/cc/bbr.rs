//! BBR v1 (Cardwell, Cheng, Gunn, Hassas Yeganeh, Jacobson 2016) as in
//! Linux `tcp_bbr.c` of the 5.10–6.x kernels (BBR v1 is what mainline
//! ships): a model of the path — bottleneck bandwidth (windowed max of
//! delivery-rate samples over 10 rounds) and round-trip propagation time
//! (windowed min over 10 s) — drives the pacing rate and cwnd.
//!
//! * STARTUP: pacing and cwnd gain 2/ln 2 ≈ 2.89 until the bandwidth stops
//!   growing by 25% for 3 rounds; DRAIN: pacing gain 1/2.89 until in-flight
//!   ≤ BDP (ssthresh set to that); PROBE_BW: pacing gain cycle [5/4, 3/4,
//!   1, 1, 1, 1, 1, 1], each phase one min-RTT long, cwnd gain 2;
//!   PROBE_RTT: when the min-RTT estimate is 10 s old (only a lower sample
//!   refreshes it), cwnd 4 for 200 ms and at least one packet-timed round
//!   after in-flight reaches 4, what it sends marked application-limited;
//!   then back, the estimate restamped.
//! * The bandwidth filter is Linux's `minmax_running_max` (`lib/win_minmax.c`);
//!   a round ends when a packet sent after it began is delivered.
//! * cwnd = gain·BDP + the ACK-aggregation allowance (`extra_acked`, at most
//!   100 ms of data) + 3 TSO-sized bursts (`bbr_quantization_budget`);
//!   losses do not cut it (packet conservation during the first round of
//!   Recovery, the pre-loss cwnd restored afterwards).
//!
//! What the sender's samples do not carry, so not modelled: `rs->losses`
//! (the cwnd deduction for newly lost packets, the 5/4 phase ending on
//! loss, long-term (policer) bandwidth sampling), `rs->is_ack_delayed`,
//! `rs->prior_delivered` (rounds are counted from delivered and in-flight
//! counts instead); nor EDT pacing (`bbr_packets_in_net_at_edt`) or idle
//! restart. The random start phase of PROBE_BW is drawn from the time of
//! entry, so runs stay deterministic.

use super::{
    AckSample, AlgorithmInfo, CaState, Citation, CongestionControl, ParamInfo, Params, Window,
    INFINITE_SSTHRESH,
};
use std::collections::VecDeque;

pub static INFO: AlgorithmInfo = AlgorithmInfo {
    id: "bbr",
    name: "BBR (v1)",
    explanation: "BBR does not treat loss as the congestion signal. It keeps a running model of the path: the highest delivery rate seen in the last 10 round trips (the bottleneck bandwidth) and the lowest RTT seen in the last 10 seconds (the propagation delay). It paces packets at that bandwidth and allows twice the bandwidth-delay product in flight. To keep the model fresh it cycles its pacing rate — one round trip at 125% to probe for more bandwidth, one at 75% to drain the queue it made, six at 100% — and every 10 s it drops to 4 packets in flight for at least 200 ms and one round trip to re-measure the empty-queue RTT. Start-up doubles the rate each round trip like slow start, then drains the queue it built.",
    expect_on_chart: "An exponential start-up, a short dip (drain), then an almost flat cwnd near 2×BDP with small periodic bumps from the 8-phase gain cycle, and a deep, brief dip to 4 packets about every 10 s (PROBE_RTT). Losses leave no sawtooth.",
    increase_tex: r"\text{pacing} = g_p \cdot \widehat{BtlBw},\ g_p \in \{\tfrac54, \tfrac34, 1, 1, 1, 1, 1, 1\};\quad cwnd = g_c \cdot \widehat{BtlBw}\cdot\widehat{RTprop},\ g_c = 2",
    decrease_tex: r"\text{no reduction on loss; PROBE\_RTT: } cwnd = 4 \text{ for } \max(200\,\text{ms}, 1 \text{ round}) \text{ every } 10\,\text{s}",
    params: &[
        ParamInfo { id: "high_gain", name: "Start-up gain", default: 2.885, min: 1.5, max: 4.0, step: 0.005, unit: "×", log_scale: false, description: "Pacing and cwnd gain in STARTUP (2/ln 2: doubles the rate every round trip)." },
        ParamInfo { id: "cwnd_gain", name: "cwnd gain", default: 2.0, min: 1.0, max: 4.0, step: 0.1, unit: "× BDP", log_scale: false, description: "In-flight cap in PROBE_BW as a multiple of the estimated BDP." },
        ParamInfo { id: "probe_rtt_interval_s", name: "PROBE_RTT interval", default: 10.0, min: 1.0, max: 60.0, step: 1.0, unit: "s", log_scale: false, description: "Age of the min-RTT estimate that triggers PROBE_RTT (the min-RTT filter window)." },
        ParamInfo { id: "probe_rtt_ms", name: "PROBE_RTT duration", default: 200.0, min: 10.0, max: 2000.0, step: 10.0, unit: "ms", log_scale: true, description: "Least time spent at 4 packets in flight in PROBE_RTT (and at least one round trip)." },
        ParamInfo { id: "bw_window_rounds", name: "Bandwidth filter", default: 10.0, min: 2.0, max: 100.0, step: 1.0, unit: "rounds", log_scale: false, description: "Window of the max filter on delivery-rate samples." },
    ],
    citations: &[
        Citation { label: "Cardwell et al. 2016", reference: "N. Cardwell, Y. Cheng, C. S. Gunn, S. Hassas Yeganeh, V. Jacobson. BBR: Congestion-Based Congestion Control. ACM Queue 14(5), 2016." },
        Citation { label: "draft-cardwell-iccrg-bbr-congestion-control-00", reference: "N. Cardwell et al. BBR Congestion Control. IETF Internet-Draft, 2017." },
        Citation { label: "Linux tcp_bbr.c", reference: "Linux net/ipv4/tcp_bbr.c (high_gain 2885/1000, cwnd_gain 2, pacing_gain cycle, min_rtt_win_sec 10, probe_rtt_mode_ms 200, cwnd_min_target 4)." },
    ],
};

/// PROBE_BW pacing gains (`bbr_pacing_gain`).
pub const PACING_GAIN_CYCLE: [f64; 8] = [1.25, 0.75, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0];
/// Random start phases: never the 3/4 one (`bbr_cycle_rand`).
const CYCLE_RAND: u64 = 7;
/// `bbr_cwnd_min_target`.
pub const CWND_MIN_TARGET: u32 = 4;
/// `bbr_full_bw_thresh`, `bbr_full_bw_cnt`.
const FULL_BW_THRESH: f64 = 1.25;
const FULL_BW_CNT: u32 = 3;
/// `bbr_pacing_margin_percent`.
const PACING_MARGIN: f64 = 0.01;
/// `TCP_INIT_CWND`.
const INIT_CWND: u32 = 10;
/// Largest TSO burst (`GSO_LEGACY_MAX_SIZE − 1 − MAX_TCP_HEADER`).
const GSO_MAX_BYTES: f64 = 65_215.0;
/// `bbr_extra_acked_gain` (`BBR_UNIT`: 1).
const EXTRA_ACKED_GAIN: f64 = 1.0;
/// `bbr_extra_acked_win_rtts`.
const EXTRA_ACKED_WIN_RTTS: u32 = 5;
/// `bbr_ack_epoch_acked_reset_thresh`.
const ACK_EPOCH_ACKED_RESET_THRESH: u32 = 1 << 20;
/// `bbr_extra_acked_max_us`, in ns.
const EXTRA_ACKED_MAX_NS: f64 = 100_000_000.0;

pub fn build(p: &Params) -> Box<dyn CongestionControl> {
    Box::new(Bbr::new(
        p.get("high_gain"),
        p.get("cwnd_gain"),
        (p.get("probe_rtt_interval_s") * 1e9) as u64,
        (p.get("probe_rtt_ms") * 1e6) as u64,
        p.get("bw_window_rounds") as u64,
    ))
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BbrMode {
    Startup,
    Drain,
    ProbeBw,
    ProbeRtt,
}

/// One sample of Linux's windowed min/max tracker (`struct minmax_sample`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct MinmaxSample {
    t: u64,
    v: f64,
}

/// Kathleen Nichols' windowed max tracker, Linux `lib/win_minmax.c`
/// (`minmax_running_max`), which `tcp_bbr.c` keeps its bandwidth in: the
/// best, second and third best samples spread over the window. A sample
/// stays the maximum while `t − its t ≤ win` (so a round-`r` sample lasts
/// through round `r + 10` for `bbr_bw_rtts` = 10); when it ages out, the
/// next choice is the one the sub-window rules kept, which is not always
/// the exact maximum of what remains; and nothing ages without a new
/// sample.
#[derive(Clone, Copy, Debug, Default)]
struct Minmax {
    s: [MinmaxSample; 3],
}

impl Minmax {
    /// `minmax_get`.
    fn get(&self) -> f64 {
        self.s[0].v
    }

    /// `minmax_reset`.
    fn reset(&mut self, t: u64, v: f64) -> f64 {
        self.s = [MinmaxSample { t, v }; 3];
        v
    }

    /// `minmax_subwin_update`: as time advances, update the 1st, 2nd and
    /// 3rd choices.
    fn subwin_update(&mut self, win: u64, val: MinmaxSample) -> f64 {
        let dt = val.t.wrapping_sub(self.s[0].t);
        if dt > win {
            // Passed the entire window without a new max: the 2nd choice
            // becomes the max, the 3rd the 2nd; maybe twice.
            self.s[0] = self.s[1];
            self.s[1] = self.s[2];
            self.s[2] = val;
            if val.t.wrapping_sub(self.s[0].t) > win {
                self.s[0] = self.s[1];
                self.s[1] = self.s[2];
                self.s[2] = val;
            }
        } else if self.s[1].t == self.s[0].t && dt > win / 4 {
            // A quarter of the window without a new max: take a 2nd choice
            // from the 2nd quarter.
            self.s[2] = val;
            self.s[1] = val;
        } else if self.s[2].t == self.s[1].t && dt > win / 2 {
            // Half the window without a new max: a 3rd choice from the
            // last half.
            self.s[2] = val;
        }
        self.s[0].v
    }

    /// `minmax_running_max`.
    fn running_max(&mut self, win: u64, t: u64, v: f64) -> f64 {
        let val = MinmaxSample { t, v };
        if val.v >= self.s[0].v || val.t.wrapping_sub(self.s[2].t) > win {
            return self.reset(t, v);
        }
        if val.v >= self.s[1].v {
            self.s[2] = val;
            self.s[1] = val;
        } else if val.v >= self.s[2].v {
            self.s[2] = val;
        }
        self.subwin_update(win, val)
    }
}

/// How many past stretches of `tp->app_limited` to remember: one per
/// PROBE_RTT (10 s apart), and a sample is about a packet sent within the
/// last round trip or so.
const APP_LIMITED_SPANS: usize = 4;

pub struct Bbr {
    high_gain: f64,
    cwnd_gain_probe_bw: f64,
    min_rtt_win_ns: u64,
    probe_rtt_mode_ns: u64,
    bw_window_rounds: u64,

    mode: BbrMode,
    /// `bbr->bw`: max delivery rate (packets per second) over
    /// `bw_window_rounds` rounds.
    bw: Minmax,
    /// `rtt_cnt`: packet-timed rounds elapsed.
    rtt_cnt: u64,
    /// A round ends when a packet sent after it began is (S)ACKed (Linux:
    /// `rs->prior_delivered >= next_rtt_delivered`, the delivered count
    /// when the packet was sent against the count when the round began).
    /// The sample carries no `prior_delivered`, so the round ends once
    /// more has been delivered than was in flight when it began: the
    /// first packet past those is one sent after the start. This is that
    /// count (delivered + in flight at the start).
    next_rtt_delivered: u64,
    round_start: bool,
    min_rtt_ns: u64,
    min_rtt_stamp_ns: u64,
    probe_rtt_done_stamp_ns: Option<u64>,
    probe_rtt_round_done: bool,
    pacing_gain: f64,
    cwnd_gain: f64,
    cycle_idx: usize,
    /// `cycle_mstamp`: `delivered_mstamp` when this phase began.
    cycle_stamp_ns: u64,
    /// `tp->delivered_mstamp`: when the last ACK that delivered data came.
    delivered_mstamp_ns: u64,
    /// `tp->app_limited` as PROBE_RTT sets it ("ignore low rate samples
    /// during this mode"): the delivered count that ends the bubble, 0
    /// when none. Linux clears it (`tcp_rate_gen`) once more than that is
    /// delivered.
    app_limited_mark: u64,
    /// When packets left with `tp->app_limited` set, as [from, until) in
    /// ns (`u64::MAX` while it is still set): their rate samples are
    /// application-limited (`tx.is_app_limited`). The sample's packet is
    /// found by its send time, `now − rtt` (the engine's RTT sample is the
    /// echo of the most recently sent packet the ACK covers).
    app_limited_spans: VecDeque<(u64, u64)>,
    /// ACK aggregation (`bbr_update_ack_aggregation`): start of the
    /// current sampling epoch (`ack_epoch_mstamp`) and packets (S)ACKed
    /// in it (`ack_epoch_acked`).
    ack_epoch_stamp_ns: u64,
    ack_epoch_acked: u32,
    /// `extra_acked[2]`: the largest excess of ACKed data over the
    /// estimated bandwidth in each of two windows of 5 rounds
    /// (`extra_acked_win_idx`, `extra_acked_win_rtts`).
    extra_acked: [u32; 2],
    extra_acked_win_idx: usize,
    extra_acked_win_rtts: u32,
    /// Every PROBE_BW phase entered, for tests.
    #[cfg(test)]
    phase_log: Vec<usize>,
    full_bw: f64,
    full_bw_cnt: u32,
    full_bw_reached: bool,
    prior_cwnd: u32,
    prev_ca_state: CaState,
    packet_conservation: bool,
    has_seen_rtt: bool,
    /// Bytes per second (payload), 0 before init.
    pacing_rate: f64,
    mss: f64,
}

impl Bbr {
    pub fn new(
        high_gain: f64,
        cwnd_gain: f64,
        min_rtt_win_ns: u64,
        probe_rtt_mode_ns: u64,
        bw_window_rounds: u64,
    ) -> Self {
        Bbr {
            high_gain,
            cwnd_gain_probe_bw: cwnd_gain,
            min_rtt_win_ns,
            probe_rtt_mode_ns,
            bw_window_rounds: bw_window_rounds.max(1),
            mode: BbrMode::Startup,
            bw: Minmax::default(),
            rtt_cnt: 0,
            next_rtt_delivered: 0,
            round_start: false,
            min_rtt_ns: u64::MAX,
            min_rtt_stamp_ns: 0,
            probe_rtt_done_stamp_ns: None,
            probe_rtt_round_done: false,
            pacing_gain: high_gain,
            cwnd_gain: high_gain,
            cycle_idx: 0,
            cycle_stamp_ns: 0,
            delivered_mstamp_ns: 0,
            app_limited_mark: 0,
            app_limited_spans: VecDeque::new(),
            ack_epoch_stamp_ns: 0,
            ack_epoch_acked: 0,
            extra_acked: [0; 2],
            extra_acked_win_idx: 0,
            extra_acked_win_rtts: 0,
            #[cfg(test)]
            phase_log: Vec::new(),
            full_bw: 0.0,
            full_bw_cnt: 0,
            full_bw_reached: false,
            prior_cwnd: 0,
            prev_ca_state: CaState::Open,
            packet_conservation: false,
            has_seen_rtt: false,
            pacing_rate: 0.0,
            mss: 1448.0,
        }
    }

    /// Linux defaults.
    pub fn linux() -> Self {
        Bbr::new(2.885, 2.0, 10_000_000_000, 200_000_000, 10)
    }

    pub fn mode(&self) -> BbrMode {
        self.mode
    }

    pub fn pacing_gain(&self) -> f64 {
        self.pacing_gain
    }

    pub fn cycle_idx(&self) -> usize {
        self.cycle_idx
    }

    /// Bottleneck bandwidth estimate, packets per second.
    pub fn max_bw_pps(&self) -> f64 {
        self.bw.get()
    }

    pub fn min_rtt_ns(&self) -> u64 {
        self.min_rtt_ns
    }

    /// When the current min-RTT estimate was last confirmed.
    pub fn min_rtt_stamp_ns(&self) -> u64 {
        self.min_rtt_stamp_ns
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
        self.pacing_rate = self.pacing_rate_for(cwnd as f64 / rtt_s, self.high_gain);
    }

    /// `bbr_bdp`: ⌈bw·min_rtt·gain⌉, the initial window before any RTT.
    fn bdp(&self, bw_pps: f64, gain: f64) -> u32 {
        if self.min_rtt_ns == u64::MAX {
            return INIT_CWND;
        }
        (bw_pps * self.min_rtt_ns as f64 / 1e9 * gain).ceil() as u32
    }

    /// `bbr_tso_segs_goal`: about 1 ms of data at the pacing rate, 2..64 KB.
    fn tso_segs_goal(&self) -> u32 {
        let bytes = (self.pacing_rate / 1024.0).min(GSO_MAX_BYTES);
        let min_segs = if self.pacing_rate < 150_000.0 { 1 } else { 2 };
        ((bytes / self.mss) as u32).max(min_segs).min(0x7f)
    }

    /// `bbr_quantization_budget`.
    fn quantization_budget(&self, cwnd: u32) -> u32 {
        let mut cwnd = cwnd + 3 * self.tso_segs_goal();
        cwnd = (cwnd + 1) & !1;
        if self.mode == BbrMode::ProbeBw && self.cycle_idx == 0 {
            cwnd += 2;
        }
        cwnd
    }

    /// `bbr_inflight`: the in-flight target for a gain.
    fn inflight(&self, bw_pps: f64, gain: f64) -> u32 {
        self.quantization_budget(self.bdp(bw_pps, gain))
    }

    fn save_cwnd(&mut self, cwnd: u32) {
        if !matches!(self.prev_ca_state, CaState::Recovery | CaState::Loss)
            && self.mode != BbrMode::ProbeRtt
        {
            self.prior_cwnd = cwnd;
        } else {
            self.prior_cwnd = self.prior_cwnd.max(cwnd);
        }
    }

    /// Begin a packet-timed round at this ACK (Linux:
    /// `bbr->next_rtt_delivered = tp->delivered`).
    fn start_round(&mut self, ack: &AckSample) {
        self.next_rtt_delivered = ack.delivered_pkts + ack.in_flight_pkts as u64;
    }

    /// Whether this ACK delivers a packet sent after the round began
    /// (`!before(rs->prior_delivered, bbr->next_rtt_delivered)`).
    fn round_ended(&self, ack: &AckSample) -> bool {
        ack.delivered_pkts > self.next_rtt_delivered
    }

    /// `rs->is_app_limited`: the sender's own flag, or the sample's packet
    /// left while PROBE_RTT had `tp->app_limited` set.
    fn sample_app_limited(&self, ack: &AckSample) -> bool {
        ack.app_limited
            || ack.rtt_ns.is_some_and(|rtt| {
                let sent = ack.now_ns.saturating_sub(rtt);
                self.app_limited_spans
                    .iter()
                    .any(|&(from, until)| from <= sent && sent < until)
            })
    }

    /// `tcp_rate_gen`: "clear app limited if bubble is acked and gone".
    fn clear_app_limited(&mut self, ack: &AckSample) {
        if self.app_limited_mark != 0 && ack.delivered_pkts > self.app_limited_mark {
            self.app_limited_mark = 0;
            if let Some(span) = self.app_limited_spans.back_mut() {
                if span.1 == u64::MAX {
                    span.1 = ack.now_ns;
                }
            }
        }
    }

    /// PROBE_RTT's `tp->app_limited = (tp->delivered +
    /// tcp_packets_in_flight(tp)) ? : 1`: what is sent from now until that
    /// much is delivered is application-limited.
    fn set_app_limited(&mut self, ack: &AckSample) {
        self.app_limited_mark = (ack.delivered_pkts + ack.in_flight_pkts as u64).max(1);
        match self.app_limited_spans.back_mut() {
            Some(span) if span.1 == u64::MAX => {}
            // Cleared and set again on the same ACK: one stretch.
            Some(span) if span.1 == ack.now_ns => span.1 = u64::MAX,
            _ => {
                if self.app_limited_spans.len() == APP_LIMITED_SPANS {
                    self.app_limited_spans.pop_front();
                }
                self.app_limited_spans.push_back((ack.now_ns, u64::MAX));
            }
        }
    }

    /// `bbr_update_ack_aggregation`: the windowed max of data ACKed
    /// beyond what the estimated bandwidth explains since the epoch began
    /// (ACKs that arrive in bursts), to keep sending through the silences
    /// between them.
    fn update_ack_aggregation(&mut self, w: &Window, ack: &AckSample) {
        if ack.acked_pkts == 0 || ack.delivery_rate_pps.is_none() {
            return;
        }
        if self.round_start {
            self.extra_acked_win_rtts = (self.extra_acked_win_rtts + 1).min(0x1f);
            if self.extra_acked_win_rtts >= EXTRA_ACKED_WIN_RTTS {
                self.extra_acked_win_rtts = 0;
                self.extra_acked_win_idx = 1 - self.extra_acked_win_idx;
                self.extra_acked[self.extra_acked_win_idx] = 0;
            }
        }
        // Packets the estimated bandwidth would deliver over the epoch.
        let epoch_ns = self
            .delivered_mstamp_ns
            .saturating_sub(self.ack_epoch_stamp_ns);
        let mut expected_acked = (self.bw.get() * epoch_ns as f64 / 1e9) as u32;
        // A new epoch when ACKs fall behind that, or after very many.
        if self.ack_epoch_acked <= expected_acked
            || self.ack_epoch_acked + ack.acked_pkts >= ACK_EPOCH_ACKED_RESET_THRESH
        {
            self.ack_epoch_acked = 0;
            self.ack_epoch_stamp_ns = self.delivered_mstamp_ns;
            expected_acked = 0;
        }
        self.ack_epoch_acked = (self.ack_epoch_acked + ack.acked_pkts).min(0xf_ffff);
        let extra_acked = (self.ack_epoch_acked - expected_acked).min(w.cwnd_pkts);
        let slot = &mut self.extra_acked[self.extra_acked_win_idx];
        // A u16 in Linux (which would wrap past 65535 packets).
        *slot = (*slot).max(extra_acked.min(u16::MAX as u32));
    }

    /// `bbr_ack_aggregation_cwnd`: the extra cwnd for ACK aggregation,
    /// at most 100 ms at the estimated bandwidth, once the pipe is full.
    fn ack_aggregation_cwnd(&self) -> u32 {
        if EXTRA_ACKED_GAIN > 0.0 && self.full_bw_reached {
            let max_aggr_cwnd = (self.bw.get() * EXTRA_ACKED_MAX_NS / 1e9) as u32;
            let extra = self.extra_acked[0].max(self.extra_acked[1]);
            let aggr_cwnd = (EXTRA_ACKED_GAIN * extra as f64) as u32;
            aggr_cwnd.min(max_aggr_cwnd)
        } else {
            0
        }
    }

    /// `bbr_advance_cycle_phase`.
    fn advance_cycle_phase(&mut self) {
        self.cycle_idx = (self.cycle_idx + 1) % PACING_GAIN_CYCLE.len();
        self.cycle_stamp_ns = self.delivered_mstamp_ns;
        #[cfg(test)]
        self.phase_log.push(self.cycle_idx);
    }

    /// `bbr_reset_probe_bw_mode`.
    fn reset_probe_bw_mode(&mut self, now_ns: u64) {
        self.mode = BbrMode::ProbeBw;
        // A pseudo-random start phase from the entry time (Linux: random).
        let mut x = now_ns ^ 0x9e37_79b9_7f4a_7c15;
        x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        x ^= x >> 31;
        self.cycle_idx = PACING_GAIN_CYCLE.len() - 1 - (x % CYCLE_RAND) as usize;
        self.advance_cycle_phase();
    }

    fn reset_mode(&mut self, now_ns: u64) {
        if self.full_bw_reached {
            self.reset_probe_bw_mode(now_ns);
        } else {
            self.mode = BbrMode::Startup;
        }
    }

    /// `bbr_update_bw`.
    fn update_bw(&mut self, ack: &AckSample, app_limited: bool) {
        self.round_start = false;
        let Some(rate) = ack.delivery_rate_pps else {
            return;
        };
        if ack.acked_pkts == 0 {
            return;
        }
        if self.round_ended(ack) {
            self.start_round(ack);
            self.rtt_cnt += 1;
            self.round_start = true;
            self.packet_conservation = false;
        }
        // App-limited samples are left out unless they raise the estimate;
        // then the filter does not age either.
        if !app_limited || rate >= self.bw.get() {
            self.bw
                .running_max(self.bw_window_rounds, self.rtt_cnt, rate);
        }
    }

    /// `bbr_is_next_cycle_phase`.
    fn is_next_cycle_phase(&self, ack: &AckSample) -> bool {
        let full_length =
            self.delivered_mstamp_ns.saturating_sub(self.cycle_stamp_ns) > self.min_rtt_ns;
        if self.pacing_gain == 1.0 {
            return full_length;
        }
        let prior_in_flight = ack.in_flight_pkts + ack.acked_pkts;
        let bw = self.bw.get();
        if self.pacing_gain > 1.0 {
            full_length && prior_in_flight >= self.inflight(bw, self.pacing_gain)
        } else {
            full_length || prior_in_flight <= self.inflight(bw, 1.0)
        }
    }

    /// `bbr_check_full_bw_reached`.
    fn check_full_bw_reached(&mut self, app_limited: bool) {
        if self.full_bw_reached || !self.round_start || app_limited {
            return;
        }
        let max_bw = self.bw.get();
        if max_bw >= self.full_bw * FULL_BW_THRESH {
            self.full_bw = max_bw;
            self.full_bw_cnt = 0;
            return;
        }
        self.full_bw_cnt += 1;
        self.full_bw_reached = self.full_bw_cnt >= FULL_BW_CNT;
    }

    /// `bbr_check_drain`.
    fn check_drain(&mut self, w: &mut Window, ack: &AckSample) {
        if self.mode == BbrMode::Startup && self.full_bw_reached {
            self.mode = BbrMode::Drain;
            w.ssthresh_pkts = self.inflight(self.bw.get(), 1.0);
        }
        if self.mode == BbrMode::Drain && ack.in_flight_pkts <= self.inflight(self.bw.get(), 1.0) {
            self.reset_probe_bw_mode(ack.now_ns);
        }
    }

    /// `bbr_update_min_rtt` and PROBE_RTT. A sample refreshes the
    /// estimate when it is lower (Linux ≥ 5.10, and the stable kernels
    /// from November 2020: commit 1b9e2a8c99a5 "tcp: only postpone
    /// PROBE_RTT if RTT is < current min_rtt estimate"; ≤ before) or once
    /// the estimate is 10 s old (5.x and 6.x then also skip samples from
    /// ACKs that may have been delayed, `rs->is_ack_delayed`, which the
    /// sample does not carry).
    fn update_min_rtt(&mut self, w: &mut Window, ack: &AckSample) {
        let now = ack.now_ns;
        let expired = now > self.min_rtt_stamp_ns + self.min_rtt_win_ns;
        if let Some(rtt) = ack.rtt_ns {
            if rtt < self.min_rtt_ns || expired {
                self.min_rtt_ns = rtt;
                self.min_rtt_stamp_ns = now;
            }
        }
        if self.probe_rtt_mode_ns > 0 && expired && self.mode != BbrMode::ProbeRtt {
            self.mode = BbrMode::ProbeRtt;
            self.save_cwnd(w.cwnd_pkts);
            self.probe_rtt_done_stamp_ns = None;
        }
        if self.mode == BbrMode::ProbeRtt {
            // Ignore low rate samples during this mode.
            self.set_app_limited(ack);
            match self.probe_rtt_done_stamp_ns {
                None if ack.in_flight_pkts <= CWND_MIN_TARGET => {
                    self.probe_rtt_done_stamp_ns = Some(now + self.probe_rtt_mode_ns);
                    self.probe_rtt_round_done = false;
                    self.start_round(ack);
                }
                Some(done) => {
                    if self.round_start {
                        self.probe_rtt_round_done = true;
                    }
                    // `bbr_check_probe_rtt_done`.
                    if self.probe_rtt_round_done && now > done {
                        self.min_rtt_stamp_ns = now;
                        w.cwnd_pkts = w.cwnd_pkts.max(self.prior_cwnd);
                        self.reset_mode(now);
                    }
                }
                None => {}
            }
        }
    }

    fn update_gains(&mut self) {
        (self.pacing_gain, self.cwnd_gain) = match self.mode {
            BbrMode::Startup => (self.high_gain, self.high_gain),
            BbrMode::Drain => (1.0 / self.high_gain, self.high_gain),
            BbrMode::ProbeBw => (PACING_GAIN_CYCLE[self.cycle_idx], self.cwnd_gain_probe_bw),
            BbrMode::ProbeRtt => (1.0, 1.0),
        };
    }

    /// `bbr_set_cwnd_to_recover_or_restore`: (cwnd, conserving).
    fn recover_or_restore(&mut self, w: &Window, ack: &AckSample, state: CaState) -> (u32, bool) {
        let prev = self.prev_ca_state;
        let mut cwnd = w.cwnd_pkts;
        let recovering = |s: CaState| matches!(s, CaState::Recovery | CaState::Loss);
        if state == CaState::Recovery && prev != CaState::Recovery {
            // Packet conservation for the first round of recovery.
            self.packet_conservation = true;
            self.start_round(ack);
            cwnd = ack.in_flight_pkts + ack.acked_pkts;
        } else if recovering(prev) && !recovering(state) {
            cwnd = cwnd.max(self.prior_cwnd);
            self.packet_conservation = false;
        }
        self.prev_ca_state = state;
        if self.packet_conservation {
            (cwnd.max(ack.in_flight_pkts + ack.acked_pkts), true)
        } else {
            (cwnd, false)
        }
    }

    fn set_cwnd(&mut self, w: &mut Window, ack: &AckSample, state: CaState) {
        let acked = ack.acked_pkts;
        let mut cwnd = w.cwnd_pkts;
        if acked > 0 {
            let (c, conserving) = self.recover_or_restore(w, ack, state);
            cwnd = c;
            if !conserving {
                let target = self.bdp(self.bw.get(), self.cwnd_gain) + self.ack_aggregation_cwnd();
                let target = self.quantization_budget(target);
                if self.full_bw_reached {
                    cwnd = (cwnd + acked).min(target);
                } else if cwnd < target || ack.delivered_pkts < INIT_CWND as u64 {
                    cwnd += acked;
                }
                cwnd = cwnd.max(CWND_MIN_TARGET);
            }
        }
        w.cwnd_pkts = cwnd.min(w.cwnd_clamp_pkts).max(1);
        if self.mode == BbrMode::ProbeRtt {
            w.cwnd_pkts = w.cwnd_pkts.min(CWND_MIN_TARGET);
        }
    }
}

impl CongestionControl for Bbr {
    fn init(&mut self, w: &mut Window, now_ns: u64) {
        w.ssthresh_pkts = INFINITE_SSTHRESH;
        self.min_rtt_stamp_ns = now_ns;
        self.delivered_mstamp_ns = now_ns;
        self.ack_epoch_stamp_ns = now_ns;
        self.init_pacing_rate(w.cwnd_pkts, 0);
        self.update_gains();
    }

    /// `bbr_ssthresh`: remember cwnd for after recovery, leave ssthresh.
    fn ssthresh(&mut self, w: &Window, _now_ns: u64) -> u32 {
        self.save_cwnd(w.cwnd_pkts);
        w.ssthresh_pkts
    }

    /// Never called: BBR takes `cong_control`.
    fn cong_avoid(&mut self, _w: &mut Window, _ack: &AckSample) {}

    /// `bbr_main` (after `tcp_rate_gen`'s part of the rate sample).
    fn cong_control(&mut self, w: &mut Window, ack: &AckSample, state: CaState) -> bool {
        self.mss = ack.mss_bytes.max(1) as f64;
        // `tcp_rate_gen`.
        self.clear_app_limited(ack);
        if ack.acked_pkts > 0 {
            self.delivered_mstamp_ns = ack.now_ns;
        }
        let app_limited = self.sample_app_limited(ack);
        // `bbr_update_model`.
        self.update_bw(ack, app_limited);
        self.update_ack_aggregation(w, ack);
        if self.mode == BbrMode::ProbeBw && self.is_next_cycle_phase(ack) {
            self.advance_cycle_phase();
        }
        self.check_full_bw_reached(app_limited);
        self.check_drain(w, ack);
        self.update_min_rtt(w, ack);
        self.update_gains();

        // Pacing rate (`bbr_set_pacing_rate`).
        if !self.has_seen_rtt && ack.srtt_ns > 0 {
            self.init_pacing_rate(w.cwnd_pkts, ack.srtt_ns);
        }
        let rate = self.pacing_rate_for(self.bw.get(), self.pacing_gain);
        if self.full_bw_reached || rate > self.pacing_rate {
            self.pacing_rate = rate;
        }
        self.set_cwnd(w, ack, state);
        true
    }

    fn set_state(&mut self, _w: &Window, state: CaState, _now_ns: u64) {
        if state == CaState::Loss {
            self.prev_ca_state = CaState::Loss;
            self.full_bw = 0.0;
            self.round_start = true;
        }
    }

    /// `bbr_undo_cwnd`: a spurious slow-down; restart full-pipe detection.
    fn undo_cwnd(&mut self, w: &Window, _prior_cwnd_pkts: u32) -> u32 {
        self.full_bw = 0.0;
        self.full_bw_cnt = 0;
        w.cwnd_pkts
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cc::testing::{run_fluid, FluidPath};

    fn start() -> (Bbr, Window, FluidPath) {
        let mut cc = Bbr::linux();
        let mut w = Window {
            cwnd_pkts: 10,
            cwnd_cnt: 0,
            ssthresh_pkts: 100,
            cwnd_clamp_pkts: 1_000_000,
        };
        cc.init(&mut w, 0);
        // 10 000 pkt/s, 20 ms: BDP 200 packets.
        (cc, w, FluidPath::new(20_000_000, 10_000.0))
    }

    #[test]
    fn startup_finds_the_bandwidth_then_drains_into_probe_bw() {
        let (mut cc, mut w, mut p) = start();
        assert_eq!(w.ssthresh_pkts, INFINITE_SSTHRESH);
        let mut d = 0;
        let mut now = 0;
        let mut modes = vec![];
        for _ in 0..40 {
            let (t, _) = run_fluid(&mut cc, &mut w, &mut p, 1, now, &mut d);
            now = t;
            modes.push(cc.mode());
        }
        assert!(modes.contains(&BbrMode::Startup));
        assert_eq!(cc.mode(), BbrMode::ProbeBw, "{modes:?}");
        assert!(
            (cc.max_bw_pps() / 10_000.0 - 1.0).abs() < 0.01,
            "bw {}",
            cc.max_bw_pps()
        );
        assert_eq!(cc.min_rtt_ns(), 20_000_000);
        // cwnd = 2·BDP + the ACK-aggregation allowance (a few packets:
        // ACKs here are single packets at the bottleneck rate) + 3 TSO
        // bursts of ~1 ms (9 packets at 14 MB/s), rounded up to even, +2
        // in the 5/4 phase.
        assert!((426..=436).contains(&w.cwnd_pkts), "cwnd {}", w.cwnd_pkts);
        // Paced at about the bottleneck rate.
        let pps = cc.pacing_rate_bytes_per_s().unwrap() / 1448.0;
        assert!(pps > 7_000.0 && pps < 13_000.0, "pacing {pps} pkt/s");
    }

    #[test]
    fn pacing_gain_cycles_through_the_eight_phases() {
        let (mut cc, mut w, mut p) = start();
        let mut d = 0;
        let (mut now, _) = run_fluid(&mut cc, &mut w, &mut p, 40, 0, &mut d);
        assert_eq!(cc.mode(), BbrMode::ProbeBw);
        let first = cc.phase_log.len() - 1;
        let entered = now;
        for _ in 0..60 {
            let (t, _) = run_fluid(&mut cc, &mut w, &mut p, 1, now, &mut d);
            now = t;
            assert_eq!(cc.pacing_gain(), PACING_GAIN_CYCLE[cc.cycle_idx()]);
        }
        let phases = &cc.phase_log[first..];
        // The start phase is never the draining 3/4 one (Linux cycle_rand).
        assert_ne!(phases[0], 1);
        // Phases advance one at a time, in order, wrapping around.
        for pair in phases.windows(2) {
            assert_eq!(pair[1], (pair[0] + 1) % 8, "{phases:?}");
        }
        // Each lasts about one min RTT (20 ms; the 5/4 phase until the
        // queue it builds shows): 60 rounds of 20–25 ms hold 6–8 cycles.
        let secs = (now - entered) as f64 / 1e9;
        let per_phase = secs / (phases.len() - 1) as f64;
        assert!(
            per_phase > 0.020 && per_phase < 0.030,
            "{per_phase} s per phase"
        );
        let gains: Vec<f64> = phases.iter().map(|&i| PACING_GAIN_CYCLE[i]).collect();
        let probe = gains.iter().position(|&g| g == 1.25).unwrap();
        assert_eq!(
            &gains[probe..probe + 8],
            &[1.25, 0.75, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]
        );
    }

    #[test]
    fn probe_rtt_dips_to_four_packets_for_200_ms_every_10_s() {
        let (mut cc, mut w, mut p) = start();
        let mut d = 0;
        let (mut now, _) = run_fluid(&mut cc, &mut w, &mut p, 40, 0, &mut d);
        // The path gets 2 ms longer: no sample reaches the old minimum again.
        p.base_rtt_ns = 22_000_000;
        let before = w.cwnd_pkts;
        let stamp = cc.min_rtt_stamp_ns();
        assert!(stamp <= now);
        let mut dip: Option<(u64, u64)> = None;
        let mut min_cwnd = u32::MAX;
        while now < stamp + 12_000_000_000 {
            let (t, _) = run_fluid(&mut cc, &mut w, &mut p, 1, now, &mut d);
            if cc.mode() == BbrMode::ProbeRtt {
                min_cwnd = min_cwnd.min(w.cwnd_pkts);
                dip = Some(dip.map_or((now, t), |(s, _)| (s, t)));
            }
            now = t;
        }
        let (s, e) = dip.expect("PROBE_RTT happened");
        let after = s - stamp;
        assert!(
            after < 10_100_000_000,
            "entered {} s after the last min-RTT sample",
            after as f64 / 1e9
        );
        assert!(
            after >= 9_950_000_000,
            "not before the 10 s filter expires: {} s",
            after as f64 / 1e9
        );
        assert_eq!(min_cwnd, CWND_MIN_TARGET);
        let len = e - s;
        assert!(
            (200_000_000..=400_000_000).contains(&len),
            "dip lasted {} ms",
            len / 1_000_000
        );
        assert_eq!(cc.mode(), BbrMode::ProbeBw);
        assert_eq!(cc.min_rtt_ns(), 22_000_000, "the new minimum was learnt");
        assert!(
            w.cwnd_pkts + 20 >= before,
            "cwnd restored: {} vs {before}",
            w.cwnd_pkts
        );
    }

    /// One ACK of `acked` packets at `now`, with the sender's delivered
    /// count and in-flight packets after it.
    fn ack_at(
        now: u64,
        acked: u32,
        delivered: u64,
        in_flight: u32,
        rtt: u64,
        pps: f64,
    ) -> AckSample {
        AckSample {
            now_ns: now,
            acked_pkts: acked,
            counted_pkts: acked,
            rtt_ns: Some(rtt),
            srtt_ns: rtt,
            in_flight_pkts: in_flight,
            delivered_pkts: delivered,
            delivery_rate_pps: Some(pps),
            mss_bytes: 1448,
            snd_una_seg: delivered as u32,
            snd_nxt_seg: (delivered + in_flight as u64) as u32,
            ..AckSample::default()
        }
    }

    /// `bbr_update_min_rtt` behind another flow's standing queue: the
    /// 20-ms minimum expires after 10 s without a lower sample and the
    /// next sample (1 s) replaces it as PROBE_RTT begins; PROBE_RTT holds
    /// cwnd at 4 for 200 ms *and* until a packet sent after in-flight
    /// reached 4 is ACKed (a packet-timed round: `next_rtt_delivered =
    /// tp->delivered`), not just until the 4 packets already in flight are
    /// (the old count-based round ended on the 4th); on exit the filter is
    /// restamped and the saved cwnd restored.
    #[test]
    fn probe_rtt_behind_a_standing_queue_lasts_a_packet_timed_round() {
        let (mut cc, mut w, mut p) = start();
        let mut d = 0;
        let (_, _) = run_fluid(&mut cc, &mut w, &mut p, 40, 0, &mut d);
        assert_eq!(cc.mode(), BbrMode::ProbeBw);
        assert_eq!(cc.min_rtt_ns(), 20_000_000);
        let saved = w.cwnd_pkts;
        let bw = cc.max_bw_pps();
        let rtt = 1_000_000_000;
        let expiry = cc.min_rtt_stamp_ns() + 10_000_000_000;
        let mut in_flight = 60u32;
        // The last ACK before the expiry changes nothing.
        let mut t = expiry;
        d += 1;
        cc.cong_control(&mut w, &ack_at(t, 1, d, in_flight, rtt, bw), CaState::Open);
        assert_eq!(cc.mode(), BbrMode::ProbeBw);
        assert_eq!(cc.min_rtt_ns(), 20_000_000);
        // The first one after it: the 1-s sample replaces the estimate.
        t += 1_000_000;
        d += 1;
        in_flight -= 1;
        cc.cong_control(&mut w, &ack_at(t, 1, d, in_flight, rtt, bw), CaState::Open);
        assert_eq!(cc.mode(), BbrMode::ProbeRtt);
        assert_eq!(cc.min_rtt_ns(), rtt, "re-measured behind the queue");
        assert_eq!(cc.min_rtt_stamp_ns(), t);
        assert_eq!(w.cwnd_pkts, CWND_MIN_TARGET);
        // The old window drains, one packet per 10 ms.
        while in_flight > CWND_MIN_TARGET {
            t += 10_000_000;
            d += 1;
            in_flight -= 1;
            cc.cong_control(&mut w, &ack_at(t, 1, d, in_flight, rtt, bw), CaState::Open);
            assert_eq!(cc.mode(), BbrMode::ProbeRtt);
            assert_eq!(w.cwnd_pkts, CWND_MIN_TARGET);
        }
        // In-flight reached 4 at `t0`. The 4 packets still in flight come
        // back over the next 400 ms (each ACK lets one new packet out:
        // 3 in flight after it); 200 ms pass, but no packet sent since
        // `t0` has returned, so PROBE_RTT goes on.
        let t0 = t;
        for _ in 0..4 {
            t += 100_000_000;
            d += 1;
            cc.cong_control(&mut w, &ack_at(t, 1, d, 3, rtt, 4.0), CaState::Open);
            assert_eq!(
                cc.mode(),
                BbrMode::ProbeRtt,
                "{} ms after in-flight reached 4",
                (t - t0) / 1_000_000
            );
            assert_eq!(w.cwnd_pkts, CWND_MIN_TARGET);
        }
        // The first packet sent after `t0` (at t0 + 100 ms) returns a
        // round trip later: the round is done and so is PROBE_RTT.
        t = t0 + 100_000_000 + rtt;
        d += 1;
        cc.cong_control(&mut w, &ack_at(t, 1, d, 3, rtt, 4.0), CaState::Open);
        assert_eq!(cc.mode(), BbrMode::ProbeBw);
        assert_eq!(cc.min_rtt_stamp_ns(), t, "the filter is restamped on exit");
        assert!(
            w.cwnd_pkts >= saved,
            "cwnd {} restored to {saved}",
            w.cwnd_pkts
        );
    }

    /// Linux ≥ 5.10 (`rs->rtt_us < bbr->min_rtt_us`): a sample equal to
    /// the estimate does not refresh it, so a flow whose RTT keeps
    /// returning exactly to the minimum still probes 10 s after the
    /// estimate was set (with ≤ it never did).
    #[test]
    fn an_rtt_equal_to_the_minimum_does_not_postpone_probe_rtt() {
        let (mut cc, mut w, mut p) = start();
        let mut d = 0;
        let (mut t, _) = run_fluid(&mut cc, &mut w, &mut p, 40, 0, &mut d);
        assert_eq!(cc.mode(), BbrMode::ProbeBw);
        let stamp = cc.min_rtt_stamp_ns();
        let min_rtt = cc.min_rtt_ns();
        let mut entered = None;
        while t < stamp + 11_000_000_000 && entered.is_none() {
            t += 10_000_000;
            d += 1;
            let a = ack_at(t, 1, d, 199, min_rtt, 10_000.0);
            cc.cong_control(&mut w, &a, CaState::Open);
            if cc.mode() == BbrMode::ProbeRtt {
                entered = Some(t);
            } else {
                assert_eq!(cc.min_rtt_stamp_ns(), stamp, "refreshed by an equal sample");
            }
        }
        let entered = entered.expect("PROBE_RTT within 11 s");
        assert!(entered > stamp + 10_000_000_000 && entered <= stamp + 10_010_000_000);
    }

    /// PROBE_RTT marks what it sends application-limited (`tp->app_limited
    /// = tp->delivered + in flight`, "ignore low rate samples during this
    /// mode"): its 4-packet delivery rate does not enter the max filter,
    /// and the filter does not age without a sample. On a 10-ms path
    /// PROBE_RTT's 200 ms are 18 rounds, more than the filter's 10.
    #[test]
    fn probe_rtt_low_rate_samples_leave_the_bandwidth_estimate_alone() {
        let mut cc = Bbr::linux();
        let mut w = Window {
            cwnd_pkts: 10,
            cwnd_cnt: 0,
            ssthresh_pkts: 100,
            cwnd_clamp_pkts: 1_000_000,
        };
        cc.init(&mut w, 0);
        let mut p = FluidPath::new(10_000_000, 10_000.0);
        let mut d = 0;
        let (mut now, _) = run_fluid(&mut cc, &mut w, &mut p, 40, 0, &mut d);
        assert_eq!(cc.mode(), BbrMode::ProbeBw);
        let bw = cc.max_bw_pps();
        assert!((bw / 10_000.0 - 1.0).abs() < 0.01, "bw {bw}");
        // 1 ms longer: PROBE_RTT comes 10 s on whatever the min-RTT rule.
        p.base_rtt_ns = 11_000_000;
        let stamp = cc.min_rtt_stamp_ns();
        let mut probed = false;
        let mut lowest = f64::INFINITY;
        while now < stamp + 11_000_000_000 {
            let (t, _) = run_fluid(&mut cc, &mut w, &mut p, 1, now, &mut d);
            now = t;
            if cc.mode() == BbrMode::ProbeRtt {
                probed = true;
            }
            if probed {
                lowest = lowest.min(cc.max_bw_pps());
            }
        }
        assert!(probed && cc.mode() == BbrMode::ProbeBw);
        assert!(
            lowest > 0.99 * bw,
            "the estimate fell to {lowest} pkt/s from {bw}"
        );
    }

    /// The bandwidth filter is Linux's `minmax_running_max` over
    /// `bbr_bw_rtts` = 10 rounds: a sample stays the maximum while fewer
    /// than 11 rounds have passed (`dt > win` ages it), and when it ages
    /// out the next choice is what the sub-window rules kept — here the
    /// sample from the 2nd quarter of the window (10 pkt/s), not the exact
    /// maximum of the last 10 rounds (90).
    #[test]
    fn bandwidth_filter_is_linux_windowed_max() {
        let mut cc = Bbr::linux();
        let mut w = Window {
            cwnd_pkts: 10,
            cwnd_cnt: 0,
            ssthresh_pkts: 100,
            cwnd_clamp_pkts: 1_000_000,
        };
        cc.init(&mut w, 0);
        let rates = [
            100.0, 90.0, 80.0, 10.0, 10.0, 10.0, 10.0, 10.0, 10.0, 10.0, 10.0, 10.0,
        ];
        let mut bws = vec![];
        for (i, &rate) in rates.iter().enumerate() {
            // Nothing left in flight: every ACK starts a round.
            let k = i as u64 + 1;
            cc.cong_control(
                &mut w,
                &ack_at(k * 10_000_000, 1, k, 0, 10_000_000, rate),
                CaState::Open,
            );
            bws.push(cc.max_bw_pps());
        }
        // Rounds 1–11 (dt ≤ 10): 100; round 12: the kept 2nd choice.
        assert_eq!(&bws[..11], &[100.0; 11], "{bws:?}");
        assert_eq!(bws[11], 10.0, "{bws:?}");
    }

    /// `bbr_check_drain` sets ssthresh to the in-flight target for gain 1
    /// on entering DRAIN (`bbr_inflight(sk, bbr_max_bw(sk), BBR_UNIT)`).
    #[test]
    fn drain_sets_ssthresh_to_one_bdp_in_flight() {
        let (mut cc, mut w, mut p) = start();
        let mut d = 0;
        let (_, _) = run_fluid(&mut cc, &mut w, &mut p, 40, 0, &mut d);
        assert_eq!(cc.mode(), BbrMode::ProbeBw);
        // BDP 200 + 3 TSO bursts at STARTUP's pacing rate (27 packets).
        assert!(
            (200..=300).contains(&w.ssthresh_pkts),
            "ssthresh {}",
            w.ssthresh_pkts
        );
    }

    /// `bbr_update_ack_aggregation` / `bbr_ack_aggregation_cwnd` (Linux
    /// ≥ 5.1): ACKs that come in bursts (here 200 packets every 20 ms,
    /// the bottleneck rate on average) add the excess over the estimated
    /// bandwidth to the cwnd target, at most 100 ms of data.
    #[test]
    fn ack_aggregation_adds_the_burst_to_the_cwnd_target() {
        let (mut cc, mut w, mut p) = start();
        let mut d = 0;
        let (mut t, _) = run_fluid(&mut cc, &mut w, &mut p, 40, 0, &mut d);
        assert_eq!(cc.mode(), BbrMode::ProbeBw);
        let plain = w.cwnd_pkts;
        assert!(plain <= 436, "cwnd {plain}");
        for _ in 0..10 {
            t += 20_000_000;
            d += 200;
            cc.cong_control(
                &mut w,
                &ack_at(t, 200, d, 230, 20_000_000, 10_000.0),
                CaState::Open,
            );
        }
        // 2·BDP (400) + 200 extra + 3 TSO bursts, even, (+2).
        assert!(
            (620..=640).contains(&w.cwnd_pkts),
            "cwnd {} (without bursts {plain})",
            w.cwnd_pkts
        );
        // Bursts of 2000 every 200 ms: capped at 100 ms of data (1000).
        for _ in 0..20 {
            t += 200_000_000;
            d += 2000;
            cc.cong_control(
                &mut w,
                &ack_at(t, 2000, d, 2100, 20_000_000, 10_000.0),
                CaState::Open,
            );
        }
        assert!((1420..=1440).contains(&w.cwnd_pkts), "cwnd {}", w.cwnd_pkts);
    }
}
