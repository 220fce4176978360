//! TCP Vegas (Brakmo & Peterson 1995) as in Linux `tcp_vegas.c`.
//!
//! Once per round trip, with BaseRTT the smallest RTT ever seen and RTT the
//! smallest of this round (filtering delayed ACKs):
//! diff = cwnd·(RTT − BaseRTT)/BaseRTT, the packets this flow keeps queued
//! ("expected − actual" rate times BaseRTT). In congestion avoidance cwnd
//! grows by one if diff < α, shrinks by one if diff > β, holds otherwise;
//! slow start ends once diff > γ. Losses are handled as by Reno.

use super::{
    AckSample, AlgorithmInfo, CaEvent, CaState, Citation, CongestionControl, ParamInfo, Params,
    RoundCounter, Window,
};

pub static INFO: AlgorithmInfo = AlgorithmInfo {
    id: "vegas",
    name: "TCP Vegas",
    explanation: "Vegas watches the round-trip time instead of waiting for losses. It compares the rate it expects (window / smallest RTT ever seen) with the rate it actually gets (window / current RTT); the difference, multiplied by the base RTT, is the number of its own packets sitting in queues. It adds one packet per round trip when fewer than α = 2 are queued, removes one when more than β = 4 are, and otherwise holds still — so on its own it fills the pipe without building a queue or causing losses. Against loss-based flows, which fill the queue, it backs off and gets little.",
    expect_on_chart: "A quick rise that levels off into an almost flat line just above the bandwidth-delay product (α–β packets of queue), with no sawtooth unless the buffer is too small or other traffic arrives.",
    increase_tex: r"\text{diff} = w\,\frac{RTT - RTT_{\text{base}}}{RTT_{\text{base}}};\quad w \leftarrow w + 1 \text{ per RTT if diff} < \alpha",
    decrease_tex: r"w \leftarrow w - 1 \text{ per RTT if diff} > \beta;\quad w \leftarrow w/2 \text{ on loss}",
    params: &[
        ParamInfo { id: "alpha", name: "α", default: 2.0, min: 0.0, max: 100.0, step: 1.0, unit: "packets", log_scale: false, description: "Grow while fewer than α of this flow's packets are queued." },
        ParamInfo { id: "beta", name: "β", default: 4.0, min: 1.0, max: 200.0, step: 1.0, unit: "packets", log_scale: false, description: "Shrink while more than β of this flow's packets are queued." },
        ParamInfo { id: "gamma", name: "γ", default: 1.0, min: 0.0, max: 100.0, step: 1.0, unit: "packets", log_scale: false, description: "Leave slow start once more than γ packets are queued." },
    ],
    citations: &[
        Citation { label: "Brakmo & Peterson 1995", reference: "L. Brakmo, L. Peterson. TCP Vegas: End to End Congestion Avoidance on a Global Internet. IEEE JSAC 13(8), 1995." },
        Citation { label: "Linux tcp_vegas.c", reference: "Linux net/ipv4/tcp_vegas.c (alpha 2, beta 4, gamma 1)." },
    ],
};

pub fn build(p: &Params) -> Box<dyn CongestionControl> {
    Box::new(Vegas::new(
        p.get("alpha") as u64,
        p.get("beta") as u64,
        p.get("gamma") as u64,
    ))
}

pub struct Vegas {
    alpha: u64,
    beta: u64,
    gamma: u64,
    doing_vegas_now: bool,
    restart_round: bool,
    round: RoundCounter,
    cnt_rtt: u32,
    min_rtt_ns: u64,
    base_rtt_ns: u64,
    /// The last once-per-RTT decision's diff (packets), for charts/tests.
    last_diff: Option<u64>,
}

impl Vegas {
    pub fn new(alpha: u64, beta: u64, gamma: u64) -> Self {
        Vegas {
            alpha,
            beta: beta.max(alpha),
            gamma,
            doing_vegas_now: true,
            restart_round: true,
            round: RoundCounter::default(),
            cnt_rtt: 0,
            min_rtt_ns: u64::MAX,
            base_rtt_ns: u64::MAX,
            last_diff: None,
        }
    }

    pub fn linux() -> Self {
        Vegas::new(2, 4, 1)
    }

    pub fn last_diff(&self) -> Option<u64> {
        self.last_diff
    }

    fn enable(&mut self) {
        self.doing_vegas_now = true;
        self.restart_round = true;
        self.cnt_rtt = 0;
        self.min_rtt_ns = u64::MAX;
    }

    fn reno(w: &mut Window, acked: u32) {
        let mut acked = acked;
        if w.in_slow_start() {
            acked = w.slow_start(acked);
            if acked == 0 {
                return;
            }
        }
        let cwnd = w.cwnd_pkts;
        w.cong_avoid_ai(cwnd, acked);
    }
}

impl CongestionControl for Vegas {
    fn init(&mut self, _w: &mut Window, _now_ns: u64) {
        self.base_rtt_ns = u64::MAX;
        self.enable();
    }

    /// Reno on loss.
    fn ssthresh(&mut self, w: &Window, _now_ns: u64) -> u32 {
        (w.cwnd_pkts / 2).max(2)
    }

    fn pkts_acked(&mut self, _w: &Window, ack: &AckSample) {
        if let Some(rtt) = ack.rtt_ns {
            let vrtt = rtt + 1;
            self.base_rtt_ns = self.base_rtt_ns.min(vrtt);
            self.min_rtt_ns = self.min_rtt_ns.min(vrtt);
            self.cnt_rtt += 1;
        }
    }

    fn cong_avoid(&mut self, w: &mut Window, ack: &AckSample) {
        if !self.doing_vegas_now {
            Self::reno(w, ack.counted_pkts);
            return;
        }
        if self.restart_round {
            self.round.restart(ack);
            self.restart_round = false;
            if w.in_slow_start() {
                w.slow_start(ack.counted_pkts);
            }
            return;
        }
        if self.round.on_ack(ack) {
            if self.cnt_rtt <= 2 {
                // Too few samples to trust (probably delayed ACKs only).
                Self::reno(w, ack.counted_pkts);
            } else {
                let cwnd = w.cwnd_pkts as u64;
                let rtt = self.min_rtt_ns;
                let base = self.base_rtt_ns;
                let target = cwnd * base / rtt;
                let diff = cwnd * (rtt - base) / base;
                self.last_diff = Some(diff);
                if diff > self.gamma && w.in_slow_start() {
                    // Going too fast: leave slow start at the rate we can get.
                    w.cwnd_pkts = w.cwnd_pkts.min(target as u32 + 1);
                    w.ssthresh_pkts = w.ssthresh_pkts.min(w.cwnd_pkts.saturating_sub(1));
                } else if w.in_slow_start() {
                    w.slow_start(ack.counted_pkts);
                } else if diff > self.beta {
                    w.cwnd_pkts -= 1;
                    w.ssthresh_pkts = w.ssthresh_pkts.min(w.cwnd_pkts.saturating_sub(1));
                } else if diff < self.alpha {
                    w.cwnd_pkts += 1;
                }
                w.cwnd_pkts = w.cwnd_pkts.clamp(2, w.cwnd_clamp_pkts.max(2));
                // tcp_current_ssthresh (Open state): max(ssthresh, ¾·cwnd).
                w.ssthresh_pkts = w.ssthresh_pkts.max((w.cwnd_pkts >> 1) + (w.cwnd_pkts >> 2));
            }
            self.cnt_rtt = 0;
            self.min_rtt_ns = u64::MAX;
        } else if w.in_slow_start() {
            w.slow_start(ack.counted_pkts);
        }
    }

    fn set_state(&mut self, _w: &Window, state: CaState, _now_ns: u64) {
        if state == CaState::Open {
            self.enable();
        } else {
            self.doing_vegas_now = false;
        }
    }

    /// A restart after idle forgets BaseRTT (`tcp_vegas_cwnd_event`).
    fn cwnd_event(&mut self, w: &Window, event: CaEvent, now_ns: u64) {
        if matches!(event, CaEvent::TxStart { .. }) {
            let mut w = *w;
            self.init(&mut w, now_ns);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cc::testing::{run_fluid, FluidPath};
    use crate::cc::INFINITE_SSTHRESH;

    // 10 000 pkt/s, 10 ms: BDP 100 packets.
    fn path() -> FluidPath {
        FluidPath::new(10_000_000, 10_000.0)
    }

    #[test]
    fn holds_diff_between_alpha_and_beta() {
        let mut cc = Vegas::linux();
        let mut w = Window {
            cwnd_pkts: 2,
            cwnd_cnt: 0,
            ssthresh_pkts: INFINITE_SSTHRESH,
            cwnd_clamp_pkts: 100_000,
        };
        let mut p = path();
        let mut d = 0;
        let (_, trace) = run_fluid(&mut cc, &mut w, &mut p, 300, 0, &mut d);
        assert!(!w.in_slow_start(), "Vegas left slow start on delay");
        // diff = cwnd·(cwnd − BDP)/BDP with this path: α..β ⇒ cwnd 102..104.
        for r in &trace[200..] {
            assert!((101..=105).contains(&r.cwnd_pkts), "cwnd {}", r.cwnd_pkts);
        }
        let diff = cc.last_diff().unwrap();
        assert!((2..=4).contains(&diff), "diff {diff}");
        // Queue of α–β packets, never a loss-sized one.
        assert!(trace[200..].iter().all(|r| r.queue_pkts <= 6.0));
    }

    #[test]
    fn shrinks_by_one_per_rtt_when_too_much_is_queued() {
        let mut cc = Vegas::linux();
        let mut w = Window {
            cwnd_pkts: 50,
            cwnd_cnt: 0,
            ssthresh_pkts: 10,
            cwnd_clamp_pkts: 100_000,
        };
        let mut p = path();
        let mut d = 0;
        // Learn BaseRTT on an empty queue, then find 50 packets queued
        // (as when a competing flow stops or after an undo).
        let (now, _) = run_fluid(&mut cc, &mut w, &mut p, 5, 0, &mut d);
        w.cwnd_pkts = 150;
        let (_, trace) = run_fluid(&mut cc, &mut w, &mut p, 60, now, &mut d);
        // The first decision still sees the last empty-queue round: +1.
        assert_eq!(trace[1].cwnd_pkts, 151);
        for pair in trace.windows(2).skip(1).take(40) {
            assert_eq!(pair[0].cwnd_pkts - pair[1].cwnd_pkts, 1, "{:?}", pair);
        }
        assert!(
            (101..=105).contains(&w.cwnd_pkts),
            "settled at {}",
            w.cwnd_pkts
        );
    }

    #[test]
    fn cannot_see_a_queue_that_was_there_from_the_start() {
        // Vegas's known weakness: BaseRTT measured through a standing queue.
        let mut cc = Vegas::linux();
        let mut w = Window {
            cwnd_pkts: 150,
            cwnd_cnt: 0,
            ssthresh_pkts: 10,
            cwnd_clamp_pkts: 100_000,
        };
        let mut p = path();
        let mut d = 0;
        run_fluid(&mut cc, &mut w, &mut p, 30, 0, &mut d);
        assert!((150..=155).contains(&w.cwnd_pkts), "{}", w.cwnd_pkts);
    }

    #[test]
    fn grows_by_one_per_rtt_when_the_queue_is_empty() {
        let mut cc = Vegas::linux();
        let mut w = Window {
            cwnd_pkts: 50,
            cwnd_cnt: 0,
            ssthresh_pkts: 10,
            cwnd_clamp_pkts: 100_000,
        };
        let mut p = path();
        let mut d = 0;
        let (_, trace) = run_fluid(&mut cc, &mut w, &mut p, 30, 0, &mut d);
        let grown = trace.last().unwrap().cwnd_pkts - trace[1].cwnd_pkts;
        assert!((27..=29).contains(&grown), "grew {grown} in 28 RTTs");
    }
}
