//! BBR v1 (Cardwell, Cheng, Gunn, Hassas Yeganeh, Jacobson 2016) as in
//! Linux `tcp_bbr.c`: a model of the path — bottleneck bandwidth (windowed
//! max of delivery-rate samples over 10 rounds) and round-trip propagation
//! time (windowed min over 10 s) — drives the pacing rate and cwnd.
//!
//! * STARTUP: pacing and cwnd gain 2/ln 2 ≈ 2.89 until the bandwidth stops
//!   growing by 25% for 3 rounds; DRAIN: pacing gain 1/2.89 until in-flight
//!   ≤ BDP; PROBE_BW: pacing gain cycle [5/4, 3/4, 1, 1, 1, 1, 1, 1], each
//!   phase one min-RTT long, cwnd gain 2; PROBE_RTT: when the min-RTT sample
//!   is 10 s old, cwnd 4 for max(200 ms, one round), then back.
//! * cwnd = gain·BDP + 3 TSO-sized bursts (`bbr_quantization_budget`);
//!   losses do not cut it (packet conservation during the first round of
//!   Recovery, the pre-loss cwnd restored afterwards).
//!
//! Not modelled: long-term (policer) bandwidth sampling, ACK-aggregation
//! cwnd, idle restart. The random start phase of PROBE_BW is drawn from the
//! time of entry, so runs stay deterministic.

use super::{
    AckSample, AlgorithmInfo, CaState, Citation, CongestionControl, ParamInfo, Params,
    RoundCounter, Window, INFINITE_SSTHRESH,
};
use std::collections::VecDeque;

pub static INFO: AlgorithmInfo = AlgorithmInfo {
    id: "bbr",
    name: "BBR (v1)",
    explanation: "BBR does not treat loss as the congestion signal. It keeps a running model of the path: the highest delivery rate seen in the last 10 round trips (the bottleneck bandwidth) and the lowest RTT seen in the last 10 seconds (the propagation delay). It paces packets at that bandwidth and allows twice the bandwidth-delay product in flight. To keep the model fresh it cycles its pacing rate — one round trip at 125% to probe for more bandwidth, one at 75% to drain the queue it made, six at 100% — and every 10 s it drops to 4 packets in flight for 200 ms to re-measure the empty-queue RTT. Start-up doubles the rate each round trip like slow start, then drains the queue it built.",
    expect_on_chart: "An exponential start-up, a short dip (drain), then an almost flat cwnd near 2×BDP with small periodic bumps from the 8-phase gain cycle, and a deep, brief dip to 4 packets about every 10 s (PROBE_RTT). Losses leave no sawtooth.",
    increase_tex: r"\text{pacing} = g_p \cdot \widehat{BtlBw},\ g_p \in \{\tfrac54, \tfrac34, 1, 1, 1, 1, 1, 1\};\quad cwnd = g_c \cdot \widehat{BtlBw}\cdot\widehat{RTprop},\ g_c = 2",
    decrease_tex: r"\text{no reduction on loss; PROBE\_RTT: } cwnd = 4 \text{ for } 200\,\text{ms every } 10\,\text{s}",
    params: &[
        ParamInfo { id: "high_gain", name: "Start-up gain", default: 2.885, min: 1.5, max: 4.0, step: 0.005, unit: "×", log_scale: false, description: "Pacing and cwnd gain in STARTUP (2/ln 2: doubles the rate every round trip)." },
        ParamInfo { id: "cwnd_gain", name: "cwnd gain", default: 2.0, min: 1.0, max: 4.0, step: 0.1, unit: "× BDP", log_scale: false, description: "In-flight cap in PROBE_BW as a multiple of the estimated BDP." },
        ParamInfo { id: "probe_rtt_interval_s", name: "PROBE_RTT interval", default: 10.0, min: 1.0, max: 60.0, step: 1.0, unit: "s", log_scale: false, description: "Age of the min-RTT estimate that triggers PROBE_RTT (the min-RTT filter window)." },
        ParamInfo { id: "probe_rtt_ms", name: "PROBE_RTT duration", default: 200.0, min: 10.0, max: 2000.0, step: 10.0, unit: "ms", log_scale: true, description: "Time spent at 4 packets in flight in PROBE_RTT." },
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

/// Windowed maximum over the last `window` rounds (exact, monotone deque;
/// Linux's `minmax` keeps an approximation of the same).
#[derive(Clone, Debug, Default)]
struct MaxFilter {
    samples: VecDeque<(u64, f64)>,
}

impl MaxFilter {
    fn update(&mut self, round: u64, value: f64, window: u64) {
        while self.samples.back().is_some_and(|&(_, v)| v <= value) {
            self.samples.pop_back();
        }
        self.samples.push_back((round, value));
        self.expire(round, window);
    }

    fn expire(&mut self, round: u64, window: u64) {
        while self.samples.len() > 1
            && self
                .samples
                .front()
                .is_some_and(|&(r, _)| r + window <= round)
        {
            self.samples.pop_front();
        }
    }

    fn get(&self) -> f64 {
        self.samples.front().map_or(0.0, |&(_, v)| v)
    }
}

pub struct Bbr {
    high_gain: f64,
    cwnd_gain_probe_bw: f64,
    min_rtt_win_ns: u64,
    probe_rtt_mode_ns: u64,
    bw_window_rounds: u64,

    mode: BbrMode,
    bw: MaxFilter,
    round: RoundCounter,
    round_start: bool,
    min_rtt_ns: u64,
    min_rtt_stamp_ns: u64,
    probe_rtt_done_stamp_ns: Option<u64>,
    probe_rtt_round_done: bool,
    pacing_gain: f64,
    cwnd_gain: f64,
    cycle_idx: usize,
    cycle_stamp_ns: u64,
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
            bw: MaxFilter::default(),
            round: RoundCounter::default(),
            round_start: false,
            min_rtt_ns: u64::MAX,
            min_rtt_stamp_ns: 0,
            probe_rtt_done_stamp_ns: None,
            probe_rtt_round_done: false,
            pacing_gain: high_gain,
            cwnd_gain: high_gain,
            cycle_idx: 0,
            cycle_stamp_ns: 0,
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

    fn advance_cycle_phase(&mut self, now_ns: u64) {
        self.cycle_idx = (self.cycle_idx + 1) % PACING_GAIN_CYCLE.len();
        self.cycle_stamp_ns = now_ns;
        #[cfg(test)]
        self.phase_log.push(self.cycle_idx);
    }

    fn reset_probe_bw_mode(&mut self, now_ns: u64) {
        self.mode = BbrMode::ProbeBw;
        // A pseudo-random start phase from the entry time (Linux: random).
        let mut x = now_ns ^ 0x9e37_79b9_7f4a_7c15;
        x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        x ^= x >> 31;
        self.cycle_idx = PACING_GAIN_CYCLE.len() - 1 - (x % CYCLE_RAND) as usize;
        self.advance_cycle_phase(now_ns);
    }

    fn reset_mode(&mut self, now_ns: u64) {
        if self.full_bw_reached {
            self.reset_probe_bw_mode(now_ns);
        } else {
            self.mode = BbrMode::Startup;
        }
    }

    /// `bbr_update_bw`.
    fn update_bw(&mut self, ack: &AckSample) {
        self.round_start = false;
        let Some(rate) = ack.delivery_rate_pps else {
            return;
        };
        if ack.acked_pkts == 0 {
            return;
        }
        if self.round.on_ack(ack) {
            self.round_start = true;
            self.packet_conservation = false;
        }
        let round = self.round.rounds;
        self.bw.expire(round, self.bw_window_rounds);
        if !ack.app_limited || rate >= self.bw.get() {
            self.bw.update(round, rate, self.bw_window_rounds);
        }
    }

    /// `bbr_is_next_cycle_phase`.
    fn is_next_cycle_phase(&self, ack: &AckSample) -> bool {
        let full_length = ack.now_ns.saturating_sub(self.cycle_stamp_ns) > self.min_rtt_ns;
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
    fn check_full_bw_reached(&mut self, ack: &AckSample) {
        if self.full_bw_reached || !self.round_start || ack.app_limited {
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
    fn check_drain(&mut self, ack: &AckSample) {
        if self.mode == BbrMode::Startup && self.full_bw_reached {
            self.mode = BbrMode::Drain;
        }
        if self.mode == BbrMode::Drain && ack.in_flight_pkts <= self.inflight(self.bw.get(), 1.0) {
            self.reset_probe_bw_mode(ack.now_ns);
        }
    }

    /// `bbr_update_min_rtt` and PROBE_RTT.
    fn update_min_rtt(&mut self, w: &mut Window, ack: &AckSample) {
        let now = ack.now_ns;
        let expired = now > self.min_rtt_stamp_ns + self.min_rtt_win_ns;
        if let Some(rtt) = ack.rtt_ns {
            if rtt <= self.min_rtt_ns || expired {
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
            match self.probe_rtt_done_stamp_ns {
                None if ack.in_flight_pkts <= CWND_MIN_TARGET => {
                    self.probe_rtt_done_stamp_ns = Some(now + self.probe_rtt_mode_ns);
                    self.probe_rtt_round_done = false;
                    self.round.restart(ack);
                }
                Some(done) => {
                    if self.round_start {
                        self.probe_rtt_round_done = true;
                    }
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

    /// `bbr_set_cwnd_to_recover_or_restore`: Some(cwnd) while conserving.
    fn recover_or_restore(&mut self, w: &Window, ack: &AckSample, state: CaState) -> (u32, bool) {
        let prev = self.prev_ca_state;
        let mut cwnd = w.cwnd_pkts;
        let recovering = |s: CaState| matches!(s, CaState::Recovery | CaState::Loss);
        if state == CaState::Recovery && prev != CaState::Recovery {
            // Packet conservation for the first round of recovery.
            self.packet_conservation = true;
            self.round.restart(ack);
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
                let target = self.quantization_budget(self.bdp(self.bw.get(), self.cwnd_gain));
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

    /// `bbr_main`.
    fn cong_control(&mut self, w: &mut Window, ack: &AckSample, state: CaState) -> bool {
        self.mss = ack.mss_bytes.max(1) as f64;
        self.update_bw(ack);
        if self.mode == BbrMode::ProbeBw && self.is_next_cycle_phase(ack) {
            self.advance_cycle_phase(ack.now_ns);
        }
        self.check_full_bw_reached(ack);
        self.check_drain(ack);
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
        // cwnd = 2·BDP + 3 TSO bursts of ~1 ms (9 packets at 14 MB/s),
        // rounded up to even, +2 in the 5/4 phase.
        assert!((426..=430).contains(&w.cwnd_pkts), "cwnd {}", w.cwnd_pkts);
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
        assert!(now - stamp < 1_000_000_000);
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
}
