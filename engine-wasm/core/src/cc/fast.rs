//! FAST TCP (Jin, Wei, Low 2004) and FAST with α tuning (FAST-AT, Mills et al. (NIST)
//! §7).
//!
//! Every other round trip (so the effect of one update is measured before
//! the next): w ← min{2w, (1 − γ)·w + γ·(BaseRTT/RTT·w + α)}, with RTT the
//! average RTT of the last round and BaseRTT the smallest ever seen. At
//! equilibrium w·(1 − BaseRTT/RTT) = α: each flow keeps α packets queued.
//! Between updates the window moves to the new value over one round (a
//! decrease is applied at once). FAST does not use slow start (the 2w cap
//! is its start-up) and halves its window on a loss, like Reno.
//!
//! FAST-AT tunes α by the achieved rate: 200 → 20 → 8 packets as the rate
//! falls through the two thresholds (lowered at once), raised one step at
//! a time and only every 200 s (Mills et al. (NIST) §7.5.3: "auto-tunes the
//! α-parameter from 200 to 20 to 8 as throughput falls … raised only every
//! 200 s"). The seed does not give the thresholds; 10 and 100 Mb/s are this
//! simulator's choice (FAST's published α of 200 packets targets ≥ 100 Mb/s
//! paths) and are settable. Tuning starts once the flow has left its
//! start-up doubling, so the slow start itself does not lower α.

use super::{
    AckSample, AlgorithmInfo, CaState, Citation, CongestionControl, Increase, ParamInfo, Params,
    RoundCounter, Window,
};

const FAST_EXPLANATION: &str = "FAST TCP is delay-based like Vegas but takes big steps when it is far from its target. Every other round trip it sets the window to a weighted average of its current window and the window that would keep exactly α packets (200 by default) of its own in the bottleneck queue: w ← (1 − γ)w + γ(BaseRTT/RTT·w + α), never more than doubling. Far from equilibrium the step is large, close to it small, so it converges in a few dozen round trips without a sawtooth. If the buffer is too small to hold α packets per flow, it keeps overflowing it and oscillates (Mills et al. (NIST)).";
const FAST_CHART: &str = "A staircase that doubles every two RTTs, then settles into a flat line α packets above the bandwidth-delay product. With buffers smaller than α per flow: rapid oscillations with losses.";
const FAST_AT_EXPLANATION: &str = "FAST-AT is FAST with automatic α tuning: the target number of queued packets follows the rate the flow achieves — 200 packets at high rates, 20 below the upper threshold, 8 below the lower one. It lowers α immediately when throughput falls but raises it only one step every 200 s, so after a congested period it recovers slowly (Mills et al. (NIST): α went 200 → 20 → 8 during congestion and only got back to 20).";
const FAST_AT_CHART: &str = "Like FAST, but after a period of low throughput the flat line sits only 8 or 20 packets above the BDP, and the window grows back in steps 200 s apart.";

const FAST_CITATIONS: &[Citation] = &[
    Citation { label: "Jin, Wei, Low 2004", reference: "C. Jin, D. Wei, S. Low. FAST TCP: Motivation, Architecture, Algorithms, Performance. IEEE INFOCOM 2004." },
    Citation { label: "Wei et al. 2006", reference: "D. Wei, C. Jin, S. Low, S. Hegde. FAST TCP: Motivation, Architecture, Algorithms, Performance. IEEE/ACM ToN 14(6), 2006." },
    Citation { label: "Mills et al., NIST", reference: "Study of Proposed Internet Congestion-Control Mechanisms, Section 7: FAST and FAST with α tuning (FAST-AT) in a scaled-down network." },
];

const ALPHA: ParamInfo = ParamInfo {
    id: "alpha",
    name: "α (packets queued)",
    default: 200.0,
    min: 1.0,
    max: 2000.0,
    step: 1.0,
    unit: "packets",
    log_scale: true,
    description: "Packets of this flow the algorithm aims to keep in the bottleneck queue.",
};
const GAMMA: ParamInfo = ParamInfo {
    id: "gamma",
    name: "γ (step weight)",
    default: 0.5,
    min: 0.05,
    max: 1.0,
    step: 0.05,
    unit: "fraction",
    log_scale: false,
    description: "How far towards the target window each update moves.",
};

pub static INFO: AlgorithmInfo = AlgorithmInfo {
    id: "fast",
    name: "FAST TCP",
    explanation: FAST_EXPLANATION,
    expect_on_chart: FAST_CHART,
    increase_tex: r"w \leftarrow \min\!\left\{2w,\ (1-\gamma)\,w + \gamma\left(\frac{RTT_{\text{base}}}{RTT}\,w + \alpha\right)\right\} \text{ every other RTT}",
    decrease_tex: r"w \leftarrow w/2 \text{ on loss};\ \text{equilibrium } w\left(1 - \tfrac{RTT_{\text{base}}}{RTT}\right) = \alpha",
    params: &[ALPHA, GAMMA],
    citations: FAST_CITATIONS,
};

pub static INFO_AT: AlgorithmInfo = AlgorithmInfo {
    id: "fast_at",
    name: "FAST TCP with α tuning",
    explanation: FAST_AT_EXPLANATION,
    expect_on_chart: FAST_AT_CHART,
    increase_tex: r"\text{as FAST, with } \alpha \in \{8, 20, 200\} \text{ chosen by the achieved rate}",
    decrease_tex: r"w \leftarrow w/2 \text{ on loss};\ \alpha \text{ lowered at once, raised one step per } 200\,\text{s}",
    params: &[
        ALPHA,
        GAMMA,
        ParamInfo {
            id: "alpha_mid",
            name: "α middle tier",
            default: 20.0,
            min: 1.0,
            max: 2000.0,
            step: 1.0,
            unit: "packets",
            log_scale: true,
            description: "α when the rate is between the two thresholds.",
        },
        ParamInfo {
            id: "alpha_low",
            name: "α low tier",
            default: 8.0,
            min: 1.0,
            max: 2000.0,
            step: 1.0,
            unit: "packets",
            log_scale: true,
            description: "α when the rate is below the lower threshold.",
        },
        ParamInfo {
            id: "low_mbps",
            name: "Lower rate threshold",
            default: 10.0,
            min: 0.01,
            max: 100_000.0,
            step: 1.0,
            unit: "Mb/s",
            log_scale: true,
            description: "Below this achieved rate α drops to the low tier.",
        },
        ParamInfo {
            id: "high_mbps",
            name: "Upper rate threshold",
            default: 100.0,
            min: 0.01,
            max: 100_000.0,
            step: 1.0,
            unit: "Mb/s",
            log_scale: true,
            description: "Below this achieved rate α drops to the middle tier.",
        },
        ParamInfo {
            id: "raise_interval_s",
            name: "Raise interval",
            default: 200.0,
            min: 1.0,
            max: 3600.0,
            step: 1.0,
            unit: "s",
            log_scale: true,
            description: "α is raised by one tier at most this often (Mills et al. (NIST): 200 s).",
        },
    ],
    citations: FAST_CITATIONS,
};

pub fn build(p: &Params) -> Box<dyn CongestionControl> {
    Box::new(Fast::new(p.get("alpha"), p.get("gamma")))
}

pub fn build_at(p: &Params) -> Box<dyn CongestionControl> {
    let tuning = AlphaTuning::new(
        [p.get("alpha_low"), p.get("alpha_mid"), p.get("alpha")],
        p.get("low_mbps") * 1e6,
        p.get("high_mbps") * 1e6,
        (p.get("raise_interval_s") * 1e9) as u64,
    );
    Box::new(Fast::with_tuning(p.get("gamma"), tuning))
}

/// FAST-AT's α tiers and the rule that moves between them.
#[derive(Clone, Copy, Debug)]
pub struct AlphaTuning {
    /// α for low, middle and high rates.
    pub tiers: [f64; 3],
    pub low_bps: f64,
    pub high_bps: f64,
    pub raise_interval_ns: u64,
    tier: usize,
    last_change_ns: u64,
}

impl AlphaTuning {
    pub fn new(tiers: [f64; 3], low_bps: f64, high_bps: f64, raise_interval_ns: u64) -> Self {
        AlphaTuning {
            tiers,
            low_bps,
            high_bps: high_bps.max(low_bps),
            raise_interval_ns,
            tier: 2,
            last_change_ns: 0,
        }
    }

    pub fn alpha(&self) -> f64 {
        self.tiers[self.tier]
    }

    /// A rate measurement: lower at once, raise one tier per interval.
    pub fn on_rate(&mut self, rate_bps: f64, now_ns: u64) {
        let wanted = if rate_bps < self.low_bps {
            0
        } else if rate_bps < self.high_bps {
            1
        } else {
            2
        };
        if wanted < self.tier {
            self.tier = wanted;
            self.last_change_ns = now_ns;
        } else if wanted > self.tier
            && now_ns.saturating_sub(self.last_change_ns) >= self.raise_interval_ns
        {
            self.tier += 1;
            self.last_change_ns = now_ns;
        }
    }
}

pub struct Fast {
    alpha: f64,
    gamma: f64,
    tuning: Option<AlphaTuning>,
    base_rtt_ns: u64,
    round: RoundCounter,
    restart_round: bool,
    active: bool,
    rtt_sum_ns: f64,
    rtt_cnt: u32,
    round_start_ns: u64,
    acked_in_round: u64,
    /// Update on this round's end (every other round).
    update_now: bool,
    /// Out of the start-up doubling (FAST-AT tunes only after that).
    started: bool,
    target: f64,
    step_per_ack: f64,
    inc: Increase,
}

impl Fast {
    pub fn new(alpha: f64, gamma: f64) -> Self {
        Fast {
            alpha,
            gamma,
            tuning: None,
            base_rtt_ns: u64::MAX,
            round: RoundCounter::default(),
            restart_round: true,
            active: true,
            rtt_sum_ns: 0.0,
            rtt_cnt: 0,
            round_start_ns: 0,
            acked_in_round: 0,
            update_now: true,
            started: false,
            target: 0.0,
            step_per_ack: 0.0,
            inc: Increase::default(),
        }
    }

    pub fn with_tuning(gamma: f64, tuning: AlphaTuning) -> Self {
        let mut f = Fast::new(tuning.alpha(), gamma);
        f.tuning = Some(tuning);
        f
    }

    /// The α in use.
    pub fn alpha(&self) -> f64 {
        self.tuning.map_or(self.alpha, |t| t.alpha())
    }

    /// FAST's window update (Jin, Wei, Low 2004, eq. 1).
    pub fn fast_update(w: f64, base_rtt: f64, rtt: f64, alpha: f64, gamma: f64) -> f64 {
        (2.0 * w).min((1.0 - gamma) * w + gamma * (base_rtt / rtt * w + alpha))
    }

    fn new_round(&mut self, now_ns: u64) {
        self.rtt_sum_ns = 0.0;
        self.rtt_cnt = 0;
        self.acked_in_round = 0;
        self.round_start_ns = now_ns;
    }
}

impl CongestionControl for Fast {
    fn init(&mut self, w: &mut Window, _now_ns: u64) {
        self.target = w.cwnd_pkts as f64;
    }

    /// Reno on loss; the FAST target restarts from the reduced window.
    fn ssthresh(&mut self, w: &Window, _now_ns: u64) -> u32 {
        let ss = (w.cwnd_pkts / 2).max(2);
        self.target = ss as f64;
        self.step_per_ack = 0.0;
        self.inc.reset();
        ss
    }

    fn pkts_acked(&mut self, _w: &Window, ack: &AckSample) {
        if let Some(rtt) = ack.rtt_ns {
            self.base_rtt_ns = self.base_rtt_ns.min(rtt.max(1));
            self.rtt_sum_ns += rtt as f64;
            self.rtt_cnt += 1;
        }
        self.acked_in_round += ack.acked_pkts as u64;
    }

    fn cong_avoid(&mut self, w: &mut Window, ack: &AckSample) {
        if !self.active {
            return;
        }
        if self.restart_round {
            self.restart_round = false;
            self.round.restart(ack);
            self.new_round(ack.now_ns);
            self.target = w.cwnd_pkts as f64;
            return;
        }
        if self.round.on_ack(ack) {
            let now = ack.now_ns;
            if self.rtt_cnt > 0 && now > self.round_start_ns {
                let avg_rtt = self.rtt_sum_ns / self.rtt_cnt as f64;
                if let Some(t) = self.tuning.as_mut() {
                    if self.started {
                        let rate = self.acked_in_round as f64 * ack.mss_bytes as f64 * 8.0 * 1e9
                            / (now - self.round_start_ns) as f64;
                        t.on_rate(rate, now);
                    }
                }
                if self.update_now {
                    let cwnd = w.cwnd_pkts as f64;
                    let alpha = self.alpha();
                    let next = Self::fast_update(
                        cwnd,
                        self.base_rtt_ns as f64,
                        avg_rtt,
                        alpha,
                        self.gamma,
                    );
                    if next < 2.0 * cwnd - 0.5 {
                        self.started = true;
                    }
                    let next = next.min(w.cwnd_clamp_pkts as f64).max(2.0);
                    self.target = next;
                    if next < cwnd {
                        w.cwnd_pkts = next as u32;
                        self.step_per_ack = 0.0;
                    } else {
                        // Spread the increase over the next round.
                        self.step_per_ack = (next - cwnd) / cwnd;
                    }
                }
                self.update_now = !self.update_now;
            }
            self.new_round(now);
        }
        if (w.cwnd_pkts as f64) < self.target && self.step_per_ack > 0.0 {
            let room = self.target - w.cwnd_pkts as f64;
            self.inc
                .add(w, (self.step_per_ack * ack.acked_pkts as f64).min(room));
        }
    }

    fn set_state(&mut self, _w: &Window, state: CaState, _now_ns: u64) {
        let active = matches!(state, CaState::Open | CaState::Disorder);
        if active && !self.active {
            self.restart_round = true;
            self.update_now = true;
        }
        self.active = active;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cc::testing::{loss_event_with_states, run_fluid, FluidPath};

    use crate::cc::testing::slow_start_window as window;

    #[test]
    fn equilibrium_keeps_alpha_packets_queued() {
        // RTT = base + (w − BDP)/C: BDP 1000 packets (C 100 000 pkt/s, 10 ms).
        for (alpha, gamma) in [(200.0, 0.5), (50.0, 0.5), (200.0, 0.2)] {
            let mut cc = Fast::new(alpha, gamma);
            let mut w = window(10);
            let mut p = FluidPath::new(10_000_000, 100_000.0);
            let mut d = 0;
            let (_, trace) = run_fluid(&mut cc, &mut w, &mut p, 300, 0, &mut d);
            let last = trace.last().unwrap();
            let bdp = p.bdp_pkts();
            let w_eq = bdp + alpha;
            assert!(
                (last.cwnd_pkts as f64 - w_eq).abs() <= 2.0,
                "α {alpha} γ {gamma}: cwnd {} vs {w_eq}",
                last.cwnd_pkts
            );
            // w·(1 − BaseRTT/RTT) = α, measured.
            let q = last.cwnd_pkts as f64 * (1.0 - p.base_rtt_ns as f64 / last.rtt_ns as f64);
            assert!((q - alpha).abs() <= 2.5, "queued {q} vs α {alpha}");
            // Converged and flat: no sawtooth.
            let tail: Vec<u32> = trace[250..].iter().map(|r| r.cwnd_pkts).collect();
            let (lo, hi) = (tail.iter().min().unwrap(), tail.iter().max().unwrap());
            assert!(hi - lo <= 2, "flat at equilibrium: {lo}..{hi}");
        }
    }

    #[test]
    fn start_up_doubles_every_other_rtt() {
        let mut cc = Fast::new(200.0, 0.5);
        let mut w = window(10);
        let mut p = FluidPath::new(100_000_000, 1e7);
        let mut d = 0;
        let (_, trace) = run_fluid(&mut cc, &mut w, &mut p, 12, 0, &mut d);
        let c: Vec<u32> = trace.iter().map(|r| r.cwnd_pkts).collect();
        // Each update doubles (the 2w cap binds while the queue is empty);
        // the increase is spread over the round after the update.
        assert!(c[11] >= 8 * c[1] / 2 && c[11] <= 32 * c[1], "{c:?}");
        assert!(c.windows(2).all(|p| p[1] <= 2 * p[0] + 1), "{c:?}");
    }

    #[test]
    fn halves_on_loss() {
        let mut cc = Fast::new(200.0, 0.5);
        let mut w = window(1000);
        loss_event_with_states(&mut cc, &mut w, 0);
        assert_eq!(w.cwnd_pkts, 500);
    }

    #[test]
    fn fast_at_steps_alpha_down_as_the_rate_falls_and_up_every_200_s() {
        // Scaled thresholds: 1448-byte packets, 1 Mb/s ≈ 86 pkt/s.
        let tuning = AlphaTuning::new([8.0, 20.0, 200.0], 0.1e6, 1e6, 200_000_000_000);
        let mut cc = Fast::with_tuning(0.5, tuning);
        let mut w = window(10);
        let mut d = 0;
        let mut now = 0;
        let mut run = |cc: &mut Fast, w: &mut Window, pps: f64, secs: f64, now: &mut u64| {
            let mut p = FluidPath::new(100_000_000, pps);
            let end = *now + (secs * 1e9) as u64;
            while *now < end {
                let (t, _) = run_fluid(cc, w, &mut p, 1, *now, &mut d);
                *now = t;
            }
        };
        run(&mut cc, &mut w, 1000.0, 20.0, &mut now); // 11.6 Mb/s
        assert_eq!(cc.alpha(), 200.0);
        run(&mut cc, &mut w, 50.0, 30.0, &mut now); // 0.58 Mb/s
        assert_eq!(cc.alpha(), 20.0);
        run(&mut cc, &mut w, 5.0, 30.0, &mut now); // 0.058 Mb/s
        assert_eq!(cc.alpha(), 8.0);
        let dropped_at = now;
        // Throughput recovers, α does not until 200 s later, one tier a time.
        run(&mut cc, &mut w, 1000.0, 150.0, &mut now);
        assert_eq!(cc.alpha(), 8.0, "no raise before 200 s");
        run(&mut cc, &mut w, 1000.0, 60.0, &mut now);
        assert_eq!(cc.alpha(), 20.0, "one tier after 200 s");
        assert!(now - dropped_at < 400_000_000_000);
        run(&mut cc, &mut w, 1000.0, 210.0, &mut now);
        assert_eq!(cc.alpha(), 200.0, "second tier 200 s later");
    }
}
