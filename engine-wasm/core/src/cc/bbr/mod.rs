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
//! The sender's rate sample is Linux `tcp_rate.c`'s: `delivered`,
//! `prior_delivered` (rounds end on it), `prior_in_flight` (the gain
//! cycle's in-flight test), `losses` (cwnd less the newly lost packets,
//! `bbr_set_cwnd_to_recover_or_restore`; the 5/4 phase ends on a loss,
//! `bbr_is_next_cycle_phase`) and the interval max(send phase, ACK phase),
//! no sample below the minimum RTT (`tcp_rate_gen`). Long-term (policer)
//! bandwidth sampling (`bbr_lt_bw_sampling`) is Linux's (`lt_bw`; the
//! losses an RTO marks are not in its lost count). Not modelled:
//! `rs->is_ack_delayed`, EDT pacing (`bbr_packets_in_net_at_edt` reads
//! `prior_in_flight` as it is) and idle restart; whether a sample's packet
//! left inside PROBE_RTT's application-limited bubble is found from its
//! send time (see `app_limited_spans`). The random start phase of PROBE_BW
//! is drawn from the time of entry, so runs stay deterministic.
//!
//! This file holds the parameters, the state and `bbr_main`; the rest is
//! split by job: `windowed_max` (the bandwidth filter), `model` (rounds,
//! bandwidth samples, application-limited stretches), `modes` (the state
//! machine and the min-RTT estimate), `cwnd` (the in-flight target and
//! recovery), `ack_aggregation` (the allowance for bursty ACKs).

pub(crate) mod ack_aggregation;
pub(crate) mod cwnd;
mod lt_bw;
mod model;
mod modes;
pub(crate) mod windowed_max;

use super::{
    AckSample, AlgorithmInfo, CaState, Citation, CongestionControl, ParamInfo, Params, Window,
    INFINITE_SSTHRESH,
};
use ack_aggregation::AckAggregation;
use std::collections::VecDeque;
use windowed_max::Minmax;

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
/// `bbr_cwnd_min_target`.
pub const CWND_MIN_TARGET: u32 = 4;
/// `bbr_pacing_margin_percent`.
const PACING_MARGIN: f64 = 0.01;

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
    /// when the sample's packet was sent against the count when the round
    /// began, which this is).
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
    /// ACK aggregation (`bbr_update_ack_aggregation`).
    ack_aggregation: AckAggregation,
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
    /// Long-term bandwidth sampling (`bbr_lt_bw_sampling`): `lt_is_sampling`,
    /// `lt_rtt_cnt`, `lt_use_bw`, `lt_bw` (packets per second),
    /// `lt_last_delivered`, `lt_last_stamp` (ms), `lt_last_lost`.
    lt_is_sampling: bool,
    lt_rtt_cnt: u32,
    lt_use_bw: bool,
    lt_bw: f64,
    lt_last_delivered: u64,
    lt_last_stamp_ms: u64,
    lt_last_lost: u64,
    /// `tp->lost` and `tp->delivered` as the ACKs report them.
    lost: u64,
    delivered: u64,
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
            ack_aggregation: AckAggregation::default(),
            #[cfg(test)]
            phase_log: Vec::new(),
            full_bw: 0.0,
            full_bw_cnt: 0,
            full_bw_reached: false,
            prior_cwnd: 0,
            prev_ca_state: CaState::Open,
            packet_conservation: false,
            has_seen_rtt: false,
            lt_is_sampling: false,
            lt_rtt_cnt: 0,
            lt_use_bw: false,
            lt_bw: 0.0,
            lt_last_delivered: 0,
            lt_last_stamp_ms: 0,
            lt_last_lost: 0,
            lost: 0,
            delivered: 0,
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
}

impl CongestionControl for Bbr {
    fn init(&mut self, w: &mut Window, now_ns: u64) {
        w.ssthresh_pkts = INFINITE_SSTHRESH;
        self.min_rtt_stamp_ns = now_ns;
        self.delivered_mstamp_ns = now_ns;
        self.ack_aggregation.start(now_ns);
        self.reset_lt_bw_sampling();
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
        self.count_lost_delivered(ack);
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
        // `bw = bbr_bw(sk)` for the pacing rate and cwnd.
        let rate = self.pacing_rate_for(self.bw_est(), self.pacing_gain);
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
            self.round_start = true; // treat RTO like end of a round
            self.lt_bw_sampling(1, false);
        }
    }

    /// `bbr_undo_cwnd`: a spurious slow-down; restart full-pipe detection.
    fn undo_cwnd(&mut self, w: &Window, _prior_cwnd_pkts: u32) -> u32 {
        self.full_bw = 0.0;
        self.full_bw_cnt = 0;
        self.reset_lt_bw_sampling();
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

    /// Linux's defaults, started at time zero with a 10-packet window.
    pub(super) fn linux_started() -> (Bbr, Window) {
        let mut cc = Bbr::linux();
        let mut w = Window {
            cwnd_pkts: 10,
            cwnd_cnt: 0,
            ssthresh_pkts: 100,
            cwnd_clamp_pkts: 1_000_000,
        };
        cc.init(&mut w, 0);
        (cc, w)
    }

    pub(super) fn start() -> (Bbr, Window, FluidPath) {
        let (cc, w) = linux_started();
        // 10 000 pkt/s, 20 ms: BDP 200 packets.
        (cc, w, FluidPath::new(20_000_000, 10_000.0))
    }

    /// One ACK of `acked` packets at `now`, with the sender's delivered
    /// count and in-flight packets after it.
    pub(super) fn ack_at(
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
            // The packet acknowledged now left `in_flight` deliveries ago.
            prior_delivered_pkts: delivered.saturating_sub(in_flight as u64),
            prior_in_flight_pkts: in_flight + acked,
            mss_bytes: 1448,
            snd_una_seg: delivered as u32,
            snd_nxt_seg: (delivered + in_flight as u64) as u32,
            ..AckSample::default()
        }
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
}
