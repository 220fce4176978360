//! H-TCP (Leith & Shorten 2004) as in Linux `tcp_htcp.c`; Bateman et al. (St Andrews, 2008)
//! Appendix A.
//!
//! * Increase per RTT α = 2(1 − β)·f(Δ), Δ the time since the last
//!   congestion event: f = 1 for Δ ≤ Δ_L, else
//!   f = 1 + 10(Δ − Δ_L) + 0.25(Δ − Δ_L)² (seconds).
//! * RTT scaling: f ← max(f·RTT_min/100 ms, 1), with RTT_min/100 ms clamped
//!   to [0.1, 2] (Linux's `scale` in [1/2, 10]).
//! * Adaptive backoff: β = RTT_min/RTT_max clamped to [0.5, 0.8]; β = 0.5
//!   when the maximum throughput of the last epoch differs from the
//!   previous one by more than Δ_B (20%), and for the first epoch after a
//!   switch (Linux `modeswitch`).

use super::{
    AckSample, AlgorithmInfo, CaState, Citation, CongestionControl, Increase, ParamInfo, Params,
    Window,
};

pub static INFO: AlgorithmInfo = AlgorithmInfo {
    id: "htcp",
    name: "H-TCP",
    explanation: "H-TCP (Hamilton TCP) makes the increase depend on the time Δ since the last congestion event. For the first second it behaves like Standard TCP; after that the increase per round trip grows quadratically — about 11 packets per RTT after 2 s, 22 after 3 s — so a flow that has not seen a loss for a while climbs quickly. On a loss it backs off by β = RTT_min/RTT_max (between 0.5 and 0.8): if the queue was short, it gives back little. Scaling the increase by the RTT makes flows with different RTTs share more fairly.",
    expect_on_chart: "Teeth that start flat (Reno-like for one second after each loss) and then curve upwards ever more steeply (quadratic in time); cuts of 20–50% depending on how much the RTT grew with the queue.",
    increase_tex: r"w \leftarrow w + \frac{2(1-\beta)\,f_\alpha(\Delta)}{w}\ \text{per ACK},\quad f_\alpha = 1 + 10(\Delta-\Delta_L) + \tfrac14(\Delta-\Delta_L)^2",
    decrease_tex: r"w \leftarrow \beta\,w,\quad \beta = \min\!\left(\max\!\left(\frac{RTT_{\min}}{RTT_{\max}}, 0.5\right), 0.8\right)",
    params: &[
        ParamInfo { id: "delta_l", name: "Δ_L (low-speed time)", default: 1.0, min: 0.1, max: 10.0, step: 0.1, unit: "s", log_scale: false, description: "Time after a congestion event during which H-TCP grows like Standard TCP." },
        ParamInfo { id: "delta_b", name: "Δ_B (bandwidth switch)", default: 0.2, min: 0.05, max: 1.0, step: 0.05, unit: "fraction", log_scale: false, description: "If the achieved throughput changed by more than this fraction between epochs, back off by 0.5." },
        ParamInfo { id: "rtt_scaling", name: "RTT scaling", default: 1.0, min: 0.0, max: 1.0, step: 1.0, unit: "on/off", log_scale: false, description: "Scale the increase by RTT_min/100 ms so different RTTs grow alike in time." },
        ParamInfo { id: "adaptive_backoff", name: "Adaptive backoff", default: 1.0, min: 0.0, max: 1.0, step: 1.0, unit: "on/off", log_scale: false, description: "Use β = RTT_min/RTT_max in [0.5, 0.8]; off: always halve." },
    ],
    citations: &[
        Citation { label: "Leith & Shorten 2004", reference: "D. Leith, R. Shorten. H-TCP: TCP for high-speed and long-distance networks. PFLDnet 2004." },
        Citation { label: "Linux tcp_htcp.c", reference: "B. Jacobsen, D. Leith. Linux net/ipv4/tcp_htcp.c (BETA_MIN 0.5, BETA_MAX 0.8, use_rtt_scaling, use_bandwidth_switch)." },
        Citation { label: "Bateman et al. 2008", reference: "A Comparison of TCP Behaviour at High Speeds Using ns-2 and Linux, Appendix A: Hamilton TCP." },
    ],
};

pub const BETA_MIN: f64 = 0.5;
pub const BETA_MAX: f64 = 0.8;

pub fn build(p: &Params) -> Box<dyn CongestionControl> {
    Box::new(Htcp::new(
        p.get("delta_l"),
        p.get("delta_b"),
        p.get("rtt_scaling") >= 0.5,
        p.get("adaptive_backoff") >= 0.5,
    ))
}

/// f_α(Δ) before RTT scaling: 1 up to Δ_L, then 1 + 10d + d²/4, d = Δ − Δ_L.
pub fn htcp_factor(delta_s: f64, delta_l_s: f64) -> f64 {
    let d = delta_s - delta_l_s;
    if d > 0.0 {
        1.0 + 10.0 * d + 0.25 * d * d
    } else {
        1.0
    }
}

pub struct Htcp {
    delta_l_s: f64,
    delta_b: f64,
    rtt_scaling: bool,
    adaptive: bool,
    /// Increase per RTT.
    alpha: f64,
    beta: f64,
    modeswitch: bool,
    min_rtt_ns: u64,
    max_rtt_ns: u64,
    last_cong_ns: u64,
    /// Set when a congestion event began: Δ restarts when Open returns.
    undo_last_cong: bool,
    // Achieved-throughput estimate (packets per second).
    packetcount: u32,
    lasttime_ns: u64,
    bi: f64,
    min_b: f64,
    max_b: f64,
    old_max_b: f64,
    state: CaState,
    inc: Increase,
}

impl Htcp {
    pub fn new(delta_l_s: f64, delta_b: f64, rtt_scaling: bool, adaptive: bool) -> Self {
        Htcp {
            delta_l_s,
            delta_b,
            rtt_scaling,
            adaptive,
            alpha: 1.0,
            beta: BETA_MIN,
            modeswitch: false,
            min_rtt_ns: 0,
            max_rtt_ns: 0,
            last_cong_ns: 0,
            undo_last_cong: false,
            packetcount: 0,
            lasttime_ns: 0,
            bi: 0.0,
            min_b: 0.0,
            max_b: 0.0,
            old_max_b: 0.0,
            state: CaState::Open,
            inc: Increase::default(),
        }
    }

    pub fn linux() -> Self {
        Htcp::new(1.0, 0.2, true, true)
    }

    pub fn alpha(&self) -> f64 {
        self.alpha
    }

    pub fn beta(&self) -> f64 {
        self.beta
    }

    fn cong_time_s(&self, now_ns: u64) -> f64 {
        now_ns.saturating_sub(self.last_cong_ns) as f64 / 1e9
    }

    /// Round trips since the last congestion event (`htcp_ccount`).
    fn ccount(&self, now_ns: u64) -> u64 {
        now_ns
            .saturating_sub(self.last_cong_ns)
            .checked_div(self.min_rtt_ns)
            .unwrap_or(0)
    }

    /// `htcp_alpha_update`.
    fn alpha_update(&mut self, now_ns: u64) {
        let mut factor = htcp_factor(self.cong_time_s(now_ns), self.delta_l_s);
        if self.rtt_scaling && self.min_rtt_ns > 0 {
            let ratio = (self.min_rtt_ns as f64 / 100e6).clamp(0.1, 2.0);
            factor = (factor * ratio).max(1.0);
        }
        self.alpha = 2.0 * factor * (1.0 - self.beta);
        if self.alpha <= 0.0 {
            self.alpha = 1.0;
        }
    }

    /// `htcp_beta_update`.
    fn beta_update(&mut self) {
        if !self.adaptive {
            self.beta = BETA_MIN;
            return;
        }
        let (max_b, old_max_b) = (self.max_b, self.old_max_b);
        self.old_max_b = self.max_b;
        // |B(k+1) − B(k)|/B(k) > Δ_B: a bandwidth jump.
        if (max_b - old_max_b).abs() > self.delta_b * old_max_b {
            self.beta = BETA_MIN;
            self.modeswitch = false;
            return;
        }
        if self.modeswitch && self.min_rtt_ns > 10_000_000 && self.max_rtt_ns > 0 {
            self.beta = (self.min_rtt_ns as f64 / self.max_rtt_ns as f64).clamp(BETA_MIN, BETA_MAX);
        } else {
            self.beta = BETA_MIN;
            self.modeswitch = true;
        }
    }

    /// `htcp_param_update`: at each congestion event.
    fn param_update(&mut self, now_ns: u64) {
        self.beta_update();
        self.alpha_update(now_ns);
        // Let RTT_max forget slowly (95%) so β can recover.
        if self.min_rtt_ns > 0 && self.max_rtt_ns > self.min_rtt_ns {
            self.max_rtt_ns = self.min_rtt_ns + (self.max_rtt_ns - self.min_rtt_ns) * 95 / 100;
        }
    }

    /// `measure_achieved_throughput`: packets per second, averaged per RTT.
    fn measure_throughput(&mut self, w: &Window, ack: &AckSample) {
        let now = ack.now_ns;
        if !matches!(self.state, CaState::Open | CaState::Disorder) {
            self.packetcount = 0;
            self.lasttime_ns = now;
            return;
        }
        self.packetcount += ack.acked_pkts;
        let need = w.cwnd_pkts.saturating_sub((self.alpha as u32).max(1));
        if self.packetcount >= need
            && self.min_rtt_ns > 0
            && now - self.lasttime_ns >= self.min_rtt_ns
        {
            let cur = self.packetcount as f64 * 1e9 / (now - self.lasttime_ns) as f64;
            if self.ccount(now) <= 3 {
                // Just after a backoff: start afresh.
                self.min_b = cur;
                self.max_b = cur;
                self.bi = cur;
            } else {
                self.bi = (3.0 * self.bi + cur) / 4.0;
                self.max_b = self.max_b.max(self.bi);
                self.min_b = self.min_b.min(self.max_b);
            }
            self.packetcount = 0;
            self.lasttime_ns = now;
        }
    }
}

impl CongestionControl for Htcp {
    fn init(&mut self, _w: &mut Window, now_ns: u64) {
        self.last_cong_ns = now_ns;
        self.lasttime_ns = now_ns;
    }

    /// `htcp_recalc_ssthresh`: update β (and α), ssthresh = β·cwnd.
    fn ssthresh(&mut self, w: &Window, now_ns: u64) -> u32 {
        self.param_update(now_ns);
        self.inc.reset();
        ((w.cwnd_pkts as f64 * self.beta) as u32).max(2)
    }

    /// `measure_rtt` and the throughput estimate.
    fn pkts_acked(&mut self, w: &Window, ack: &AckSample) {
        if ack.rtt_ns.is_some() {
            // Linux uses the smoothed RTT.
            let srtt = if ack.srtt_ns > 0 {
                ack.srtt_ns
            } else {
                ack.rtt_ns.unwrap_or(0)
            };
            if self.min_rtt_ns == 0 || srtt < self.min_rtt_ns {
                self.min_rtt_ns = srtt;
            }
            if self.state == CaState::Open {
                if self.max_rtt_ns < self.min_rtt_ns {
                    self.max_rtt_ns = self.min_rtt_ns;
                }
                // Grow RTT_max by at most 20 ms per sample (filters spikes).
                if self.max_rtt_ns < srtt && srtt <= self.max_rtt_ns + 20_000_000 {
                    self.max_rtt_ns = srtt;
                }
            }
        }
        if ack.acked_pkts > 0 {
            self.measure_throughput(w, ack);
        }
    }

    /// Slow start, then α/cwnd per ACKed packet (`htcp_cong_avoid`).
    fn cong_avoid(&mut self, w: &mut Window, ack: &AckSample) {
        // Slow start counts what the profile counts; congestion avoidance
        // counts packets: 2.6.22's BIC scales its step by the measured
        // packets per ACK (`delayed_ack`), H-TCP adds `pkts_acked`.
        let mut acked = ack.acked_pkts;
        if w.in_slow_start() {
            let left = w.slow_start(ack.counted_pkts);
            if left == 0 {
                return;
            }
            acked = acked.min(left);
        }
        self.alpha_update(ack.now_ns);
        self.inc
            .add(w, self.alpha * acked as f64 / w.cwnd_pkts.max(1) as f64);
    }

    /// `htcp_state`: Δ is measured from the end of the last congestion
    /// episode.
    fn set_state(&mut self, _w: &Window, state: CaState, now_ns: u64) {
        self.state = state;
        match state {
            CaState::Open => {
                if self.undo_last_cong {
                    self.last_cong_ns = now_ns;
                    self.undo_last_cong = false;
                }
            }
            CaState::Cwr | CaState::Recovery | CaState::Loss => {
                self.undo_last_cong = true;
                self.last_cong_ns = now_ns;
            }
            CaState::Disorder => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cc::testing::{grow_from, loss_event_with_states};

    #[test]
    fn alpha_of_delta() {
        assert_eq!(htcp_factor(0.5, 1.0), 1.0);
        assert_eq!(htcp_factor(1.0, 1.0), 1.0);
        assert!((htcp_factor(2.0, 1.0) - 11.25).abs() < 1e-12);
        assert!((htcp_factor(3.0, 1.0) - 22.0).abs() < 1e-12);
        assert!((htcp_factor(11.0, 1.0) - 126.0).abs() < 1e-12);

        // Through the controller: RTT 100 ms (scale 1), β = 0.5 ⇒ α = f.
        let rtt = 100_000_000;
        let mut cc = Htcp::linux();
        let mut w = Window {
            cwnd_pkts: 100,
            cwnd_cnt: 0,
            ssthresh_pkts: 50,
            cwnd_clamp_pkts: 1_000_000,
        };
        cc.init(&mut w, 0);
        let mut now = 0;
        let mut seen = vec![];
        for _ in 0..30 {
            now = grow_from(&mut cc, &mut w, 1, rtt, now);
            seen.push((now as f64 / 1e9, cc.alpha()));
        }
        for (t, a) in seen {
            let expected = htcp_factor(t, 1.0);
            assert!(
                (a - expected).abs() / expected < 0.05,
                "Δ = {t:.2}: α {a} vs {expected}"
            );
        }
    }

    #[test]
    fn rtt_scaling_multiplies_by_min_rtt_over_100_ms() {
        let rtt = 50_000_000;
        let mut cc = Htcp::linux();
        let mut w = Window {
            cwnd_pkts: 100,
            cwnd_cnt: 0,
            ssthresh_pkts: 50,
            cwnd_clamp_pkts: 1_000_000,
        };
        cc.init(&mut w, 0);
        grow_from(&mut cc, &mut w, 60, rtt, 0); // Δ = 3 s
        assert!((cc.alpha() - 22.0 * 0.5).abs() < 0.6, "α {}", cc.alpha());
        let mut cc = Htcp::new(1.0, 0.2, false, true);
        cc.init(&mut w, 0);
        grow_from(&mut cc, &mut w, 60, rtt, 0);
        assert!((cc.alpha() - 22.0).abs() < 1.2, "unscaled α {}", cc.alpha());
    }

    /// Feed ACKs with a given smoothed RTT for `secs` seconds at a rate.
    fn feed(
        cc: &mut Htcp,
        w: &Window,
        from_ns: u64,
        secs: f64,
        pps: f64,
        srtt_ns: u64,
        delivered: &mut u64,
    ) -> u64 {
        let n = (secs * pps) as u64;
        let step = (1e9 / pps) as u64;
        let mut now = from_ns;
        for _ in 0..n {
            now += step;
            *delivered += 1;
            let ack = AckSample {
                now_ns: now,
                acked_pkts: 1,
                counted_pkts: 1,
                rtt_ns: Some(srtt_ns),
                min_rtt_ns: 0,
                srtt_ns,
                in_flight_pkts: w.cwnd_pkts,
                delivered_pkts: *delivered,
                delivery_rate_pps: None,
                app_limited: false,
                ece: false,
                ce_delta_pkts: 0,
                mss_bytes: 1448,
                snd_una_seg: *delivered as u32,
                snd_nxt_seg: *delivered as u32 + w.cwnd_pkts,
                ..AckSample::default()
            };
            cc.pkts_acked(w, &ack);
        }
        now
    }

    /// Ramp the smoothed RTT from 100 ms up to `top` in 10 ms steps and back
    /// (a queue building to a loss and draining), at `pps`.
    fn ramp(cc: &mut Htcp, w: &Window, now: u64, top: u64, pps: f64, d: &mut u64) -> u64 {
        let mut t = now;
        let mut r = 100_000_000;
        while r < top {
            r = (r + 10_000_000).min(top);
            t = feed(cc, w, t, 0.2, pps, r, d);
        }
        feed(cc, w, t, 2.0, pps, 100_000_000, d)
    }

    /// β chosen at the third congestion event of epochs whose RTT peaks at
    /// `top` (the first two settle the bandwidth switch and modeswitch),
    /// and whether those first two used 0.5.
    fn beta_at_third_event(top: u64, third_pps: f64) -> (f64, [f64; 2]) {
        let w = Window {
            cwnd_pkts: 1000,
            cwnd_cnt: 0,
            ssthresh_pkts: 50,
            cwnd_clamp_pkts: 1_000_000,
        };
        let mut cc = Htcp::linux();
        let mut w0 = w;
        cc.init(&mut w0, 0);
        let mut d = 0;
        let mut now = feed(&mut cc, &w, 0, 2.0, 10_000.0, 100_000_000, &mut d);
        let mut first = [0.0; 2];
        for b in first.iter_mut() {
            now = ramp(&mut cc, &w, now, top, 10_000.0, &mut d);
            let mut w1 = w;
            loss_event_with_states(&mut cc, &mut w1, now);
            *b = cc.beta();
        }
        now = ramp(&mut cc, &w, now, top, third_pps, &mut d);
        let ss = cc.ssthresh(&w, now);
        assert_eq!(ss, (1000.0 * cc.beta()) as u32);
        (cc.beta(), first)
    }

    #[test]
    fn adaptive_beta_is_rtt_min_over_rtt_max_clamped() {
        // RTT 100 → 150 ms: β = 100/150.
        let (beta, first) = beta_at_third_event(150_000_000, 10_000.0);
        assert_eq!(
            first,
            [0.5, 0.5],
            "bandwidth-switch start-up, then modeswitch"
        );
        assert!((beta - 100.0 / 150.0).abs() < 1e-6, "β {beta}");
        // A short queue (100 → 110 ms): 0.91, clamped to 0.8.
        let (beta, _) = beta_at_third_event(110_000_000, 10_000.0);
        assert_eq!(beta, BETA_MAX);
        // A long one (100 → 300 ms): 0.33, clamped to 0.5.
        let (beta, _) = beta_at_third_event(300_000_000, 10_000.0);
        assert_eq!(beta, BETA_MIN);
        // The throughput halved since the last epoch (|ΔB|/B > Δ_B): 0.5.
        let (beta, _) = beta_at_third_event(150_000_000, 5_000.0);
        assert_eq!(beta, BETA_MIN);
        // … but a 10% change is within Δ_B = 0.2.
        let (beta, _) = beta_at_third_event(150_000_000, 9_000.0);
        assert!((beta - 100.0 / 150.0).abs() < 1e-6, "β {beta}");
    }
}
