//! BIC TCP (Xu, Harfoush, Rhee 2004) as in Linux `tcp_bic.c`: binary
//! search for the window between the window after a loss (Wmin) and the
//! window before it (Wmax), additive steps capped at Smax, then "max
//! probing" above Wmax. Bateman et al. 2008 Appendix A.
//!
//! Linux computes, per window, the number of ACKs `cnt` after which cwnd
//! grows by one (`bictcp_update`); the binary-search target is the midpoint,
//! reached in steps of (Wmax − w)/B with B = 4 (`BICTCP_B`). Linux also
//! divides `cnt` by a measured packets-per-ACK ratio; this model counts
//! acknowledged packets (`tcp_cong_avoid_ai(…, acked)`) instead, so that
//! correction is not needed.

use super::{
    AckSample, AlgorithmInfo, CaState, Citation, CongestionControl, ParamInfo, Params, Window,
};

pub static INFO: AlgorithmInfo = AlgorithmInfo {
    id: "bic",
    name: "BIC TCP",
    explanation: "BIC (Binary Increase Congestion control) treats finding the right window as a search. After a loss it remembers the window where the loss happened (Wmax) and jumps towards the midpoint between the current window and Wmax: far away it climbs by at most Smax = 16 packets per round trip, close to Wmax it slows down to a crawl, so the window spends most of its time just below the level that caused the last loss. If no loss comes at Wmax it starts probing above, slowly at first and then faster. Losses cut the window to 80% (β = 819/1024). Below the low window (14 packets) it is Standard TCP.",
    expect_on_chart: "After each loss a straight climb of about Smax packets per RTT, then a flattening plateau just under the previous peak (the binary search converging), then a slow convex rise above it; with fast convergence, successive peaks of a flow that keeps losing step down.",
    increase_tex: r"w \leftarrow w + \min\!\left(S_{\max}, \frac{W_{\max} - w}{B}\right) \text{ per RTT } (B = 4),\ \text{max probing above } W_{\max}",
    decrease_tex: r"W_{\max} \leftarrow w\ \left(\text{or } w\,\tfrac{1+\beta}{2} \text{ if } w < W_{\max}\right),\quad w \leftarrow \beta\,w",
    params: &[
        ParamInfo { id: "smax", name: "Smax (max increment)", default: 16.0, min: 1.0, max: 256.0, step: 1.0, unit: "packets/RTT", log_scale: true, description: "Largest window increase per round trip during the binary search (Linux max_increment)." },
        ParamInfo { id: "low_window", name: "Low window", default: 14.0, min: 2.0, max: 1000.0, step: 1.0, unit: "packets", log_scale: true, description: "At or below this window BIC is Standard TCP (Linux low_window)." },
        ParamInfo { id: "beta", name: "β (window kept on loss)", default: 0.8, min: 0.5, max: 0.95, step: 0.01, unit: "fraction", log_scale: false, description: "Window multiplied by β on a loss; Linux uses 819/1024." },
        ParamInfo { id: "fast_convergence", name: "Fast convergence", default: 1.0, min: 0.0, max: 1.0, step: 1.0, unit: "on/off", log_scale: false, description: "If a loss comes below the previous Wmax, remember a lower Wmax so a newcomer gets bandwidth sooner." },
        ParamInfo { id: "smooth_part", name: "Smooth part", default: 20.0, min: 1.0, max: 100.0, step: 1.0, unit: "RTTs", log_scale: false, description: "Round trips spent moving the last B packets near Wmax (Linux smooth_part)." },
    ],
    citations: &[
        Citation { label: "Xu, Harfoush, Rhee 2004", reference: "L. Xu, K. Harfoush, I. Rhee. Binary Increase Congestion Control for Fast, Long Distance Networks. IEEE INFOCOM 2004." },
        Citation { label: "Linux tcp_bic.c", reference: "S. Hemminger. Linux net/ipv4/tcp_bic.c (max_increment 16, low_window 14, beta 819, smooth_part 20, BICTCP_B 4)." },
        Citation { label: "Bateman et al. 2008", reference: "A Comparison of TCP Behaviour at High Speeds Using ns-2 and Linux, Appendix A: BIC TCP." },
    ],
};

/// Binary-search divisor: step towards (max + min)/B (`BICTCP_B`).
const BIC_B: u32 = 4;
/// `BICTCP_BETA_SCALE`.
const BETA_SCALE: u32 = 1024;

pub fn build(p: &Params) -> Box<dyn CongestionControl> {
    Box::new(Bic::new(
        p.get("smax") as u32,
        p.get("low_window") as u32,
        p.get("beta"),
        p.get("fast_convergence") >= 0.5,
        p.get("smooth_part") as u32,
    ))
}

pub struct Bic {
    max_increment: u32,
    low_window: u32,
    /// β scaled by 1024 (Linux: 819).
    beta: u32,
    fast_convergence: bool,
    smooth_part: u32,
    /// Wmax: the window before the last reduction (`last_max_cwnd`).
    last_max_cwnd: u32,
    /// ACKs per one-packet increase (`cnt`).
    cnt: u32,
}

impl Bic {
    pub fn new(
        smax: u32,
        low_window: u32,
        beta: f64,
        fast_convergence: bool,
        smooth_part: u32,
    ) -> Self {
        Bic {
            max_increment: smax.max(1),
            low_window,
            beta: (beta * BETA_SCALE as f64).round() as u32,
            fast_convergence,
            smooth_part: smooth_part.max(1),
            last_max_cwnd: 0,
            cnt: 0,
        }
    }

    /// Linux defaults.
    pub fn linux() -> Self {
        Bic::new(16, 14, 0.8, true, 20)
    }

    /// Wmax, the binary search's upper end.
    pub fn w_max(&self) -> u32 {
        self.last_max_cwnd
    }

    /// `bictcp_update`: ACKs per one-packet increase at window `cwnd`.
    fn update(&mut self, cwnd: u32) {
        let smax = self.max_increment;
        let cnt = if cwnd <= self.low_window {
            // Start off like Reno.
            cwnd
        } else if cwnd < self.last_max_cwnd {
            // Binary increase towards the midpoint, at most Smax per RTT.
            let dist = (self.last_max_cwnd - cwnd) / BIC_B;
            if dist > smax {
                cwnd / smax
            } else if dist <= 1 {
                cwnd * self.smooth_part / BIC_B
            } else {
                cwnd / dist
            }
        } else if cwnd < self.last_max_cwnd + BIC_B {
            // Max probing: slow start above Wmax …
            cwnd * self.smooth_part / BIC_B
        } else if cwnd < self.last_max_cwnd + smax * (BIC_B - 1) {
            cwnd * (BIC_B - 1) / (cwnd - self.last_max_cwnd)
        } else {
            // … then linear at Smax.
            cwnd / smax
        };
        // No loss yet (slow start ended by ssthresh): at most 5% per RTT.
        let cnt = if self.last_max_cwnd == 0 {
            cnt.min(20)
        } else {
            cnt
        };
        self.cnt = cnt.max(1);
    }
}

impl CongestionControl for Bic {
    /// BIC (2.6.22 `tcp_bic.c`) sets no `.min_cwnd`, so rate halving stops at
    /// ssthresh (2.6.22 `tcp_cwnd_min`; only CUBIC 2.0 had a hook, which
    /// also returned ssthresh).
    fn min_cwnd(&self, w: &Window) -> u32 {
        w.ssthresh_pkts
    }

    /// `bictcp_recalc_ssthresh`: remember Wmax (lowered by fast convergence
    /// if this loss came below the previous one), then β·w (w/2 at or
    /// below the low window).
    fn ssthresh(&mut self, w: &Window, _now_ns: u64) -> u32 {
        let cwnd = w.cwnd_pkts;
        self.last_max_cwnd = if cwnd < self.last_max_cwnd && self.fast_convergence {
            ((cwnd as u64 * (BETA_SCALE + self.beta) as u64) / (2 * BETA_SCALE) as u64) as u32
        } else {
            cwnd
        };
        if cwnd <= self.low_window {
            (cwnd / 2).max(2)
        } else {
            ((cwnd as u64 * self.beta as u64 / BETA_SCALE as u64) as u32).max(2)
        }
    }

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
        self.update(w.cwnd_pkts);
        w.cong_avoid_ai(self.cnt, acked);
    }

    /// `bictcp_state`: a timeout forgets everything.
    fn set_state(&mut self, _w: &Window, state: CaState, _now_ns: u64) {
        if state == CaState::Loss {
            self.last_max_cwnd = 0;
            self.cnt = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cc::testing::{grow_for_rtts, loss_event};

    use crate::cc::testing::avoidance_window as window;

    #[test]
    fn loss_keeps_819_of_1024_and_records_wmax() {
        let mut cc = Bic::linux();
        let mut w = window(1000);
        loss_event(&mut cc, &mut w, 0);
        assert_eq!(w.cwnd_pkts, 799);
        assert_eq!(cc.w_max(), 1000);
        // Fast convergence: a loss below Wmax remembers (1 + β)/2 of it.
        let mut w = window(900);
        loss_event(&mut cc, &mut w, 0);
        assert_eq!(cc.w_max(), 900 * (1024 + 819) / 2048);
        assert_eq!(w.cwnd_pkts, 900 * 819 / 1024);
        // Without it Wmax is the window at the loss.
        let mut cc = Bic::new(16, 14, 0.8, false, 20);
        cc.last_max_cwnd = 1000;
        let mut w = window(900);
        loss_event(&mut cc, &mut w, 0);
        assert_eq!(cc.w_max(), 900);
        // Reno-like at or below the low window.
        let mut w = window(14);
        loss_event(&mut cc, &mut w, 0);
        assert_eq!(w.cwnd_pkts, 7);
    }

    #[test]
    fn binary_search_steps_are_capped_at_smax_then_shrink_near_wmax() {
        let mut cc = Bic::linux();
        let mut w = window(1000);
        loss_event(&mut cc, &mut w, 0);
        // Far from Wmax: Smax = 16 per RTT ((1000 − 800)/4 = 50 > 16).
        let mut trace = vec![w.cwnd_pkts];
        for _ in 0..40 {
            grow_for_rtts(&mut cc, &mut w, 1, 30_000_000);
            trace.push(w.cwnd_pkts);
        }
        // Binary search: min(Smax, (Wmax − w)/B) per RTT, 0.2 when within B;
        // the step shrinks during the round as w approaches Wmax.
        let ideal = |c: u32| -> u32 {
            let dist = 1000u32.saturating_sub(c) / 4;
            if dist <= 1 {
                0
            } else {
                dist.min(16)
            }
        };
        for pair in trace.windows(2) {
            let (from, to) = (pair[0], pair[1]);
            let step = to - from;
            if to < 1000 {
                assert!(
                    step + 1 >= ideal(to) && step <= ideal(from) + 1,
                    "from {from}: step {step}, ideal {}..{}",
                    ideal(to),
                    ideal(from)
                );
            }
            assert!(step <= 17, "Smax clamp: from {from} step {step}");
        }
        // Linear phase at Smax, then a plateau just under Wmax.
        assert!(trace[1] - trace[0] >= 15);
        let near: Vec<_> = trace
            .iter()
            .filter(|&&c| (990..1000).contains(&c))
            .collect();
        assert!(near.len() >= 3, "the search lingers near Wmax: {trace:?}");
        assert!(*trace.last().unwrap() <= 1000 + 16);
    }

    #[test]
    fn max_probing_above_wmax_accelerates_up_to_smax() {
        let mut cc = Bic::linux();
        cc.last_max_cwnd = 1000;
        let mut w = window(1000);
        let mut steps = vec![];
        for _ in 0..40 {
            let before = w.cwnd_pkts;
            grow_for_rtts(&mut cc, &mut w, 1, 30_000_000);
            steps.push(w.cwnd_pkts - before);
        }
        assert!(steps[0] <= 1, "slow just above Wmax: {steps:?}");
        assert!(
            *steps.last().unwrap() >= 15,
            "linear at Smax far above: {steps:?}"
        );
        assert!(steps.iter().all(|&s| s <= 17));
    }

    #[test]
    fn reno_below_low_window() {
        let mut cc = Bic::linux();
        cc.last_max_cwnd = 100;
        let mut w = window(10);
        grow_for_rtts(&mut cc, &mut w, 3, 30_000_000);
        assert_eq!(w.cwnd_pkts, 13);
    }
}
