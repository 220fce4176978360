//! Compound TCP (Tan, Song, Zhang, Sridharan 2006): a loss-based window
//! `cwnd` (Reno) plus a delay-based window `dwnd`; the sender uses
//! win = cwnd + dwnd. Mills et al. (NIST) (CTCP in the NIST study).
//!
//! Once per round trip, with diff = win·(1 − BaseRTT/RTT) the packets this
//! flow keeps queued (RTT the smallest of the round, as in the Linux port):
//! * diff < γ: dwnd ← dwnd + (α·win^k − 1)⁺ (the −1 offsets cwnd's own +1);
//! * diff ≥ γ: dwnd ← (dwnd − ζ·diff)⁺.
//!
//! On a loss: cwnd ← cwnd/2 and dwnd ← (win·(1 − β) − cwnd/2)⁺, so the
//! total becomes win·(1 − β). cwnd grows by 1/win per ACKed packet (one
//! packet per RTT). dwnd is only used in congestion avoidance.

use super::{
    AckSample, AlgorithmInfo, CaEvent, CaState, Citation, CongestionControl, ParamInfo, Params,
    RoundCounter, Window,
};

pub static INFO: AlgorithmInfo = AlgorithmInfo {
    id: "compound",
    name: "Compound TCP (CTCP)",
    explanation: "Compound TCP, Microsoft's high-speed TCP, adds two windows: a normal Reno window and a delay-based window dwnd. While the round-trip time shows almost no queueing (fewer than γ = 30 of its packets queued) dwnd grows fast — the total window grows like α·win^0.75 per round trip, similar to HighSpeed TCP. As soon as the queue builds up, dwnd shrinks by the amount queued, handing the link back to the Reno part. So on an empty path it is as quick as the high-speed TCPs, and on a congested one it behaves like Standard TCP.",
    expect_on_chart: "A steep, accelerating climb while the queue is empty, a sharp bend when the queueing delay appears (dwnd draining), then a slow Reno-like ramp up to the loss; after a loss the window is halved and the fast climb repeats if the queue has drained.",
    increase_tex: r"\text{win} = cwnd + dwnd;\ dwnd \leftarrow dwnd + (\alpha\,\text{win}^k - 1)^+ \text{ per RTT if diff} < \gamma",
    decrease_tex: r"dwnd \leftarrow (dwnd - \zeta\,\text{diff})^+ \text{ if diff} \ge \gamma;\ \text{loss: win} \leftarrow (1-\beta)\,\text{win}",
    params: &[
        ParamInfo { id: "alpha", name: "α", default: 0.125, min: 0.01, max: 1.0, step: 0.005, unit: "", log_scale: true, description: "Scale of the delay-based growth α·win^k per round trip." },
        ParamInfo { id: "beta", name: "β", default: 0.5, min: 0.1, max: 0.9, step: 0.05, unit: "fraction", log_scale: false, description: "Fraction of the total window removed on a loss." },
        ParamInfo { id: "k", name: "k", default: 0.75, min: 0.5, max: 1.0, step: 0.05, unit: "", log_scale: false, description: "Exponent of the delay-based growth (0.75 is close to HighSpeed TCP's response)." },
        ParamInfo { id: "gamma", name: "γ", default: 30.0, min: 1.0, max: 1000.0, step: 1.0, unit: "packets", log_scale: true, description: "Queued packets at which dwnd stops growing and starts draining." },
        ParamInfo { id: "zeta", name: "ζ", default: 1.0, min: 0.1, max: 5.0, step: 0.1, unit: "", log_scale: false, description: "How fast dwnd drains per queued packet." },
    ],
    citations: &[
        Citation { label: "Tan et al. 2006", reference: "K. Tan, J. Song, Q. Zhang, M. Sridharan. A Compound TCP Approach for High-speed and Long Distance Networks. IEEE INFOCOM 2006." },
        Citation { label: "draft-sridharan-tcpm-ctcp", reference: "M. Sridharan, K. Tan, D. Bansal, D. Thaler. Compound TCP: A New TCP Congestion Control for High-Speed and Long Distance Networks. IETF Internet-Draft, 2008." },
        Citation { label: "Mills et al., NIST", reference: "Study of Proposed Internet Congestion-Control Mechanisms, Section 7: CTCP (algorithm 2)." },
    ],
};

pub fn build(p: &Params) -> Box<dyn CongestionControl> {
    Box::new(Compound::new(
        p.get("alpha"),
        p.get("beta"),
        p.get("k"),
        p.get("gamma"),
        p.get("zeta"),
    ))
}

pub struct Compound {
    alpha: f64,
    beta: f64,
    k: f64,
    gamma: f64,
    zeta: f64,
    /// Loss-based part (packets).
    cwnd: u32,
    /// Delay-based part (packets).
    dwnd: u32,
    /// Fraction of a packet of dwnd growth carried between rounds.
    dwnd_frac: f64,
    acc: f64,
    base_rtt_ns: u64,
    min_rtt_ns: u64,
    cnt_rtt: u32,
    round: RoundCounter,
    restart_round: bool,
    active: bool,
    last_diff: Option<f64>,
}

impl Compound {
    pub fn new(alpha: f64, beta: f64, k: f64, gamma: f64, zeta: f64) -> Self {
        Compound {
            alpha,
            beta,
            k,
            gamma,
            zeta,
            cwnd: 0,
            dwnd: 0,
            dwnd_frac: 0.0,
            acc: 0.0,
            base_rtt_ns: u64::MAX,
            min_rtt_ns: u64::MAX,
            cnt_rtt: 0,
            round: RoundCounter::default(),
            restart_round: true,
            active: true,
            last_diff: None,
        }
    }

    /// Tan et al.'s defaults.
    pub fn tan() -> Self {
        Compound::new(0.125, 0.5, 0.75, 30.0, 1.0)
    }

    pub fn cwnd(&self) -> u32 {
        self.cwnd
    }

    pub fn dwnd(&self) -> u32 {
        self.dwnd
    }

    pub fn last_diff(&self) -> Option<f64> {
        self.last_diff
    }

    /// Follow changes the sender made to the total window (reductions in
    /// CWR/Recovery, a timeout, an undo): reductions come out of dwnd first.
    fn reconcile(&mut self, w: &Window) {
        let win = w.cwnd_pkts;
        let sum = self.cwnd + self.dwnd;
        if win < sum {
            if self.cwnd > win {
                self.cwnd = win;
                self.dwnd = 0;
            } else {
                self.dwnd = win - self.cwnd;
            }
        } else if win > sum {
            self.cwnd += win - sum;
        }
    }

    fn write(&self, w: &mut Window) {
        w.cwnd_pkts = (self.cwnd + self.dwnd).min(w.cwnd_clamp_pkts).max(1);
    }
}

impl CongestionControl for Compound {
    fn init(&mut self, w: &mut Window, _now_ns: u64) {
        self.cwnd = w.cwnd_pkts;
        self.dwnd = 0;
    }

    /// cwnd/2 for the loss part, dwnd so that the total is win·(1 − β).
    fn ssthresh(&mut self, w: &Window, _now_ns: u64) -> u32 {
        self.reconcile(w);
        let win = w.cwnd_pkts as f64;
        let half = self.cwnd / 2;
        let dwnd = (win * (1.0 - self.beta) - half as f64).max(0.0) as u32;
        self.cwnd = half.max(1);
        self.dwnd = dwnd;
        self.acc = 0.0;
        (self.cwnd + self.dwnd).max(2)
    }

    fn pkts_acked(&mut self, _w: &Window, ack: &AckSample) {
        if let Some(rtt) = ack.rtt_ns {
            let v = rtt + 1;
            self.base_rtt_ns = self.base_rtt_ns.min(v);
            self.min_rtt_ns = self.min_rtt_ns.min(v);
            self.cnt_rtt += 1;
        }
    }

    fn cong_avoid(&mut self, w: &mut Window, ack: &AckSample) {
        self.reconcile(w);
        if w.in_slow_start() {
            // Slow start on the loss-based window; dwnd is not used.
            w.slow_start(ack.counted_pkts);
            self.reconcile(w);
            return;
        }
        // Reno part: one packet per round trip of the total window.
        let win = w.cwnd_pkts.max(1);
        self.acc += ack.counted_pkts as f64 / win as f64;
        if self.acc >= 1.0 {
            self.cwnd += self.acc.floor() as u32;
            self.acc -= self.acc.floor();
        }
        if self.restart_round {
            self.restart_round = false;
            self.round.restart(ack);
            self.cnt_rtt = 0;
            self.min_rtt_ns = u64::MAX;
        } else if self.round.on_ack(ack) {
            if self.active && self.cnt_rtt > 2 && self.min_rtt_ns != u64::MAX {
                let win = win as f64;
                let diff = win * (1.0 - self.base_rtt_ns as f64 / self.min_rtt_ns as f64);
                self.last_diff = Some(diff);
                if diff < self.gamma {
                    // Tan et al. §3: dwnd += (α·win^k − 1)⁺ per round, in
                    // fractions of a packet (rounding each round's step
                    // down froze dwnd below win ≈ 41).
                    let grow = self.alpha * win.powf(self.k) - 1.0;
                    if grow > 0.0 {
                        self.dwnd_frac += grow;
                        let whole = self.dwnd_frac.floor();
                        self.dwnd += whole as u32;
                        self.dwnd_frac -= whole;
                    }
                } else {
                    self.dwnd = (self.dwnd as f64 - self.zeta * diff).max(0.0) as u32;
                }
                // Never beyond the receiver's window.
                let room = w.cwnd_clamp_pkts.saturating_sub(self.cwnd);
                self.dwnd = self.dwnd.min(room);
            }
            self.cnt_rtt = 0;
            self.min_rtt_ns = u64::MAX;
        }
        self.write(w);
    }

    fn set_state(&mut self, _w: &Window, state: CaState, _now_ns: u64) {
        let active = state == CaState::Open;
        if active && !self.active {
            self.restart_round = true;
        }
        self.active = active;
    }

    /// Restart after idle: new samples before the next dwnd decision
    /// (BaseRTT is kept, as the CTCP draft says).
    fn cwnd_event(&mut self, _w: &Window, event: CaEvent, _now_ns: u64) {
        if matches!(event, CaEvent::TxStart { .. }) {
            self.restart_round = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cc::testing::{loss_event, run_fluid, FluidPath};

    #[test]
    fn dwnd_grows_only_while_the_queue_is_below_gamma() {
        // BDP 1000 packets (100 000 pkt/s, 10 ms), a large buffer.
        let mut cc = Compound::tan();
        let mut w = Window {
            cwnd_pkts: 400,
            cwnd_cnt: 0,
            ssthresh_pkts: 100,
            cwnd_clamp_pkts: 1_000_000,
        };
        cc.init(&mut w, 0);
        let mut p = FluidPath::new(10_000_000, 100_000.0);
        let bdp = p.bdp_pkts();
        let mut d = 0;
        let mut now = 0;
        let mut grew_while_empty = 0;
        let mut shrank_when_queued = 0;
        for _ in 0..150 {
            let (before_dwnd, before_win) = (cc.dwnd(), w.cwnd_pkts);
            let (t, trace) = run_fluid(&mut cc, &mut w, &mut p, 1, now, &mut d);
            now = t;
            let queue = trace[0].queue_pkts;
            let (after, diff) = (cc.dwnd(), cc.last_diff());
            if let Some(diff) = diff {
                if diff < 30.0 {
                    assert!(after >= before_dwnd, "dwnd fell with diff {diff}");
                    if queue == 0.0 && after > before_dwnd {
                        // α·win^k − 1 per round.
                        let expect = (0.125 * (before_win as f64).powf(0.75)).floor() - 1.0;
                        assert!(
                            (after - before_dwnd) as f64 <= expect + 2.0,
                            "step {} vs {expect}",
                            after - before_dwnd
                        );
                        grew_while_empty += 1;
                    }
                } else {
                    assert!(
                        after < before_dwnd || before_dwnd == 0,
                        "dwnd must drain when diff {diff} ≥ γ"
                    );
                    shrank_when_queued += 1;
                }
            }
            // The delay-based part never pushes far past BDP + γ.
            assert!(
                (w.cwnd_pkts as f64) < bdp + 30.0 + 60.0,
                "win {} at queue {queue}",
                w.cwnd_pkts
            );
        }
        assert!(
            grew_while_empty >= 5,
            "dwnd grew on {grew_while_empty} rounds"
        );
        assert!(shrank_when_queued >= 1);
        assert!(cc.cwnd() + cc.dwnd() == w.cwnd_pkts);
    }

    #[test]
    fn loss_removes_beta_of_the_total_window() {
        let mut cc = Compound::tan();
        let mut w = Window {
            cwnd_pkts: 300,
            cwnd_cnt: 0,
            ssthresh_pkts: 100,
            cwnd_clamp_pkts: 1_000_000,
        };
        cc.init(&mut w, 0);
        cc.dwnd = 700;
        w.cwnd_pkts = 1000;
        loss_event(&mut cc, &mut w, 0);
        assert_eq!(w.cwnd_pkts, 500);
        assert_eq!((cc.cwnd(), cc.dwnd()), (150, 350));
    }

    #[test]
    fn reno_without_a_queue_signal_below_ssthresh() {
        let mut cc = Compound::tan();
        let mut w = Window {
            cwnd_pkts: 10,
            cwnd_cnt: 0,
            ssthresh_pkts: 40,
            cwnd_clamp_pkts: 1_000_000,
        };
        cc.init(&mut w, 0);
        let mut p = FluidPath::new(10_000_000, 100_000.0);
        let mut d = 0;
        run_fluid(&mut cc, &mut w, &mut p, 2, 0, &mut d);
        assert_eq!(w.cwnd_pkts, 40, "slow start to ssthresh");
        assert_eq!(cc.dwnd(), 0);
    }
}
