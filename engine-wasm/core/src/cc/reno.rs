//! Standard TCP (Reno/NewReno congestion avoidance) with settable increase
//! `a` and decrease `b`: RFC 5681 §3.1; seed 000 equations 1–2.

use super::{AckSample, AlgorithmInfo, Citation, CongestionControl, ParamInfo, Params, Window};

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
    ],
    citations: &[
        Citation { label: "RFC 5681", reference: "Allman, Paxson, Blanton. TCP Congestion Control. RFC 5681, 2009, §3.1." },
        Citation { label: "RFC 6582", reference: "Henderson et al. The NewReno Modification to TCP's Fast Recovery Algorithm. RFC 6582, 2012." },
        Citation { label: "Long, Sandia 2003", reference: "Evaluation of TCP Congestion Control Algorithms, SAND2003-4404: Standard vs HighSpeed vs Scalable TCP, equations 1–2." },
    ],
};

pub fn build(p: &Params) -> Box<dyn CongestionControl> {
    Box::new(Reno::new(p.get("a"), p.get("b")))
}

/// AIMD with increase `a` per RTT and multiplicative decrease `b`.
pub struct Reno {
    pub a: f64,
    pub b: f64,
    /// (cwnd, ACKs per one-packet increase at that cwnd): cwnd changes
    /// once a round trip, so the division and rounding are done once per
    /// change rather than on every ACK.
    per: (u32, u32),
}

impl Reno {
    pub fn new(a: f64, b: f64) -> Self {
        let mut reno = Reno { a, b, per: (0, 0) };
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
    /// RFC 5681 eq. (4) generalised: ssthresh = max((1 − b)·cwnd, 2).
    fn ssthresh(&mut self, w: &Window, _now_ns: u64) -> u32 {
        (((1.0 - self.b) * w.cwnd_pkts as f64) as u32).max(2)
    }

    /// `tcp_reno_cong_avoid`: slow start, then +a packets per window of ACKs.
    fn cong_avoid(&mut self, w: &mut Window, ack: &AckSample) {
        let mut acked = ack.counted_pkts;
        if w.in_slow_start() {
            acked = w.slow_start(acked);
            if acked == 0 {
                return;
            }
        }
        if self.per.0 != w.cwnd_pkts {
            self.per = (w.cwnd_pkts, self.acks_per_packet(w.cwnd_pkts));
        }
        w.cong_avoid_ai(self.per.1, acked);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cc::testing::grow_for_rtts;

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
