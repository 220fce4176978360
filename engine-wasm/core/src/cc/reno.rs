//! Standard TCP (Reno/NewReno congestion avoidance) with settable increase
//! `a` and decrease `b`: RFC 5681 §3.1; Long 2003 equations 1–2. Slow start
//! is standard unless the `hystart` parameter asks for HyStart or HyStart++
//! (`cc/hystart.rs`; Linux's Reno has none, so the default is 0).

use super::hystart::{SlowStart, SlowStartMode};
use super::{
    AckSample, AlgorithmInfo, CaState, Citation, CongestionControl, ParamInfo, Params, Window,
};

pub static INFO: AlgorithmInfo = AlgorithmInfo {
    id: "reno",
    name: "Standard TCP (Reno)",
    explanation: "Standard TCP adds about a packets to its window every round trip and, after a loss, cuts the window to (1 − b) of its size. With a = 1 and b = 0.5 this is the classic AIMD sawtooth. A 1 Gb/s, 30 ms path holds about 2 400 packets of 1500 bytes: after one loss Standard TCP must win back about 1 200 of them at one per round trip, about 37 s, and twice that when the window grows per ACK with delayed ACKs, as in Linux 2.4. With 9000-byte frames (the default scenario) the path holds about 415 packets and the regrowth takes about 6 to 12 s. The bigger the path, the longer the wait, which is why the high-speed variants were invented.",
    expect_on_chart: "A slow linear climb and a halving at each loss: a sawtooth whose period grows with the square of the window.",
    increase_tex: r"w \leftarrow w + \frac{a}{w} \text{ per ACK}",
    decrease_tex: r"w \leftarrow (1 - b)\,w",
    params: &[
        ParamInfo { id: "a", name: "Increase a", default: 1.0, min: 0.1, max: 10.0, step: 0.1, unit: "packets/RTT", log_scale: false, description: "Packets added to the window per round trip in congestion avoidance." },
        ParamInfo { id: "b", name: "Decrease b", default: 0.5, min: 0.05, max: 0.9, step: 0.05, unit: "fraction", log_scale: false, description: "Fraction of the window removed on a congestion event." },
        ParamInfo { id: "hystart", name: "Slow start: 0 standard, 1 HyStart, 2 HyStart++", default: 0.0, min: 0.0, max: 2.0, step: 1.0, unit: "", log_scale: false, description: "How slow start ends before the first loss. 0: standard slow start (RFC 5681), as Linux's Reno. 1: HyStart (Ha & Rhee 2011) with the rules of Linux's tcp_cubic.c: leave slow start when the ACKs of a round arrive as one long train or the round's RTT rises. 2: HyStart++ (RFC 9406): on a rise of the round's minimum RTT, grow a quarter as fast for 5 rounds (Conservative Slow Start), back to slow start if the RTT falls again." },
    ],
    citations: &[
        Citation { label: "RFC 5681", reference: "Allman, Paxson, Blanton. TCP Congestion Control. RFC 5681, 2009, §3.1." },
        Citation { label: "RFC 6582", reference: "Henderson et al. The NewReno Modification to TCP's Fast Recovery Algorithm. RFC 6582, 2012." },
        Citation { label: "RFC 9406", reference: "P. Balasubramanian, Y. Huang, M. Olson. HyStart++: Modified Slow Start for TCP. RFC 9406, 2023, §4." },
        Citation { label: "Ha, Rhee 2011", reference: "S. Ha, I. Rhee. Taming the elephants: New TCP slow start (HyStart). Computer Networks 55(9), 2011." },
        Citation { label: "Long, Sandia 2003", reference: "Evaluation of TCP Congestion Control Algorithms, SAND2003-4404: Standard vs HighSpeed vs Scalable TCP, equations 1–2." },
    ],
};

pub fn build(p: &Params) -> Box<dyn CongestionControl> {
    let mut reno = Reno::new(p.get("a"), p.get("b"));
    reno.slow_start = SlowStart::new(SlowStartMode::from_param(p.get("hystart")));
    Box::new(reno)
}

/// AIMD with increase `a` per RTT and multiplicative decrease `b`.
pub struct Reno {
    pub a: f64,
    pub b: f64,
    /// (cwnd, ACKs per one-packet increase at that cwnd): cwnd changes
    /// once a round trip, so the division and rounding are done once per
    /// change rather than on every ACK.
    per: (u32, u32),
    /// Slow start (standard unless the `hystart` parameter says otherwise).
    pub slow_start: SlowStart,
    /// Smallest RTT sample since the start or the last timeout, in µs, for
    /// HyStart's thresholds (as CUBIC's `delay_min`).
    delay_min_us: u32,
}

impl Reno {
    pub fn new(a: f64, b: f64) -> Self {
        let mut reno = Reno {
            a,
            b,
            per: (0, 0),
            slow_start: SlowStart::new(SlowStartMode::Standard),
            delay_min_us: 0,
        };
        reno.per = (0, reno.acks_per_packet(0));
        reno
    }

    pub fn standard() -> Self {
        Reno::new(1.0, 0.5)
    }

    /// ACKs (packets acked) per packet of increase: cwnd / a, rounded.
    fn acks_per_packet(&self, cwnd_pkts: u32) -> u32 {
        ((cwnd_pkts as f64 / self.a).round() as u32).max(1)
    }
}

impl CongestionControl for Reno {
    fn init(&mut self, _w: &mut Window, _now_ns: u64) {
        self.slow_start.on_init();
        self.delay_min_us = 0;
    }

    /// RFC 5681 eq. (4) generalised: ssthresh = max((1 − b)·cwnd, 2).
    fn ssthresh(&mut self, w: &Window, _now_ns: u64) -> u32 {
        self.slow_start.on_congestion();
        (((1.0 - self.b) * w.cwnd_pkts as f64) as u32).max(2)
    }

    /// RTT samples for HyStart or HyStart++ (nothing in standard slow start).
    fn pkts_acked(&mut self, w: &Window, ack: &AckSample) {
        if self.slow_start.mode == SlowStartMode::Standard {
            return;
        }
        self.slow_start.on_ack(w, ack);
        let Some(rtt_ns) = ack.rtt_ns else { return };
        let delay_us = ((rtt_ns / 1000).min(u32::MAX as u64) as u32).max(1);
        if self.delay_min_us == 0 || delay_us < self.delay_min_us {
            self.delay_min_us = delay_us;
        }
        self.slow_start
            .on_delay(w, ack, delay_us, self.delay_min_us);
    }

    /// `tcp_reno_cong_avoid`: slow start, then +a packets per window of ACKs.
    fn cong_avoid(&mut self, w: &mut Window, ack: &AckSample) {
        let mut acked = ack.counted_pkts;
        if w.in_slow_start() {
            acked = self.slow_start.grow(w, acked);
            if acked == 0 {
                return;
            }
        }
        if self.per.0 != w.cwnd_pkts {
            self.per = (w.cwnd_pkts, self.acks_per_packet(w.cwnd_pkts));
        }
        w.cong_avoid_ai(self.per.1, acked);
    }

    /// A timeout: HyStart starts over (as in CUBIC), with a new minimum RTT.
    fn set_state(&mut self, _w: &Window, state: CaState, now_ns: u64) {
        if state == CaState::Loss {
            self.delay_min_us = 0;
            self.slow_start.on_timeout(now_ns);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cc::testing::{grow_for_rtts, run_fluid, FluidPath};
    use crate::cc::INFINITE_SSTHRESH;

    /// Each slow start on a fluid path (BDP 500, unbounded buffer):
    /// standard slow start doubles for 12 rounds; HyStart sets ssthresh near
    /// the BDP; HyStart++ slows to a quarter after the RTT rises.
    #[test]
    fn slow_start_modes() {
        let run = |mode: f64| {
            let mut cc = Reno::new(1.0, 0.5);
            cc.slow_start = SlowStart::new(SlowStartMode::from_param(mode));
            let mut w = Window {
                cwnd_pkts: 10,
                cwnd_cnt: 0,
                ssthresh_pkts: INFINITE_SSTHRESH,
                cwnd_clamp_pkts: 1_000_000,
            };
            cc.init(&mut w, 0);
            let mut path = FluidPath::new(50_000_000, 10_000.0);
            let mut delivered = 0;
            run_fluid(&mut cc, &mut w, &mut path, 12, 0, &mut delivered);
            w
        };
        let standard = run(0.0);
        let hystart = run(1.0);
        let plus = run(2.0);
        assert_eq!(standard.cwnd_pkts, 10 << 12);
        assert_eq!(standard.ssthresh_pkts, INFINITE_SSTHRESH);
        assert!(hystart.ssthresh_pkts <= 1100, "{}", hystart.ssthresh_pkts);
        assert!(
            plus.cwnd_pkts < standard.cwnd_pkts / 4,
            "{}",
            plus.cwnd_pkts
        );
    }

    #[test]
    fn standard_adds_one_packet_per_rtt_and_halves() {
        let mut cc = Reno::standard();
        let mut w = Window {
            cwnd_pkts: 100,
            cwnd_cnt: 0,
            ssthresh_pkts: 50,
            cwnd_clamp_pkts: 100_000,
        };
        grow_for_rtts(&mut cc, &mut w, 10, 30_000_000);
        assert_eq!(w.cwnd_pkts, 110);
        assert_eq!(cc.ssthresh(&w, 0), 55);
    }

    #[test]
    fn a_and_b_scale_increase_and_decrease() {
        let mut cc = Reno::new(2.0, 0.25);
        let mut w = Window {
            cwnd_pkts: 100,
            cwnd_cnt: 0,
            ssthresh_pkts: 50,
            cwnd_clamp_pkts: 100_000,
        };
        grow_for_rtts(&mut cc, &mut w, 10, 30_000_000);
        assert!((119..=121).contains(&w.cwnd_pkts), "cwnd {}", w.cwnd_pkts);
        assert_eq!(
            cc.ssthresh(
                &Window {
                    cwnd_pkts: 100,
                    ..w
                },
                0
            ),
            75
        );
    }
}
