//! Scalable TCP (Kelly 2003): multiplicative increase, multiplicative
//! decrease above a legacy window, Standard TCP below it. Long 2003 eq. 8;
//! Bateman et al. 2008 Appendix A; Linux `tcp_scalable.c`.
//!
//! Kelly's recommended values are a = 0.01 per acknowledged packet and
//! b = 0.125. Linux hard-codes `TCP_SCALABLE_AI_CNT = 50` (a = 1/50, chosen
//! "to account for delayed ack" when the increase was counted per ACK) and
//! `TCP_SCALABLE_MD_SCALE = 3` (b = 1/8); its `min(cwnd, 50)` makes the
//! increase Standard TCP's below 50 packets. Here the increase is counted
//! per acknowledged packet (Linux's `tcp_cong_avoid_ai(…, acked)`), so the
//! window grows by the factor (1 + a) per round trip whether or not the
//! receiver delays ACKs.

use super::{
    AckSample, AlgorithmInfo, Citation, CongestionControl, Increase, ParamInfo, Params, Window,
};
use crate::variants::enum_with_variants;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

enum_with_variants! {
    /// Scalable TCP's behaviour at small windows: the kernel-dependent rule a
    /// profile chooses (`Mechanisms::scalable`, switch `scalable`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
    #[serde(rename_all = "snake_case")]
    #[ts(export, export_to = "scenario.ts")]
    pub enum ScalableRule {
        /// Kelly 2003: Standard TCP (halving) at or below the legacy window.
        Kelly,
        /// Linux `tcp_scalable.c`: one packet per min(cwnd, 1/a) counted ACKs
        /// (Standard-like growth below 1/a packets), always decrease by b.
        LinuxAiCount,
    }
}

impl ScalableRule {
    /// The rule in words (the ablation view and docs/profiles.md).
    pub fn describe(self) -> &'static str {
        match self {
            ScalableRule::Kelly => "Kelly's legacy window",
            ScalableRule::LinuxAiCount => "Linux AI count",
        }
    }
}

pub static INFO: AlgorithmInfo = AlgorithmInfo {
    id: "scalable",
    name: "Scalable TCP",
    explanation: "Scalable TCP replaces Standard TCP's additive increase with a multiplicative one: every acknowledged packet adds a (0.01) packets, so the window grows by 1% per round trip whatever its size, and a loss removes only b = 1/8 of it. The time to recover from a loss is therefore the same at 100 Mb/s as at 10 Gb/s — a few seconds on a 30 ms path — instead of growing with the window as for Standard TCP. Below the legacy window it behaves exactly like Standard TCP, so it is no more aggressive on slow paths. The Linux version measured in Long (Sandia, 2003) used a = 1/50. On the congestion-window chart a single cut can look much deeper than 1/8: b sets ssthresh, but while the window comes down (in CWR after a full interface queue, or in fast recovery) Linux's rate halving of that era takes one packet off for every two ACKs and stops only at half of ssthresh or at the data in flight, and another congestion event in the same window cuts again. The 1/8 is the target per congestion event; what the chart shows is how the sender got there.",
    expect_on_chart: "Short, fast, exponential-looking teeth: a 12.5% drop at each loss followed by a curve that bends upwards (1% per RTT) — many more congestion events per minute than Standard TCP, each one small.",
    increase_tex: r"w \leftarrow w + a\ \text{per ACKed packet}\ \ (w \leftarrow (1 + a)\,w \text{ per RTT}),\ w > w_{\text{legacy}}",
    decrease_tex: r"w \leftarrow (1 - b)\,w,\ w > w_{\text{legacy}};\quad \text{Standard TCP below}",
    params: &[
        ParamInfo { id: "a", name: "Increase a", default: 0.01, min: 0.001, max: 0.2, step: 0.001, unit: "packets/ACK", log_scale: true, description: "Packets added per acknowledged packet: the window grows by (1 + a) per round trip (Kelly 0.01; Long's (Sandia, 2003) Linux patch 1/50)." },
        ParamInfo { id: "b", name: "Decrease b", default: 0.125, min: 0.01, max: 0.5, step: 0.005, unit: "fraction", log_scale: false, description: "Fraction of the window removed on a congestion event." },
        ParamInfo { id: "legacy_window", name: "Legacy window", default: 16.0, min: 1.0, max: 1000.0, step: 1.0, unit: "packets", log_scale: true, description: "At or below this window Scalable TCP is Standard TCP (Kelly's lwnd = 16)." },
    ],
    citations: &[
        Citation { label: "Kelly 2003", reference: "T. Kelly. Scalable TCP: Improving Performance in Highspeed Wide Area Networks. ACM SIGCOMM CCR 33(2), 2003." },
        Citation { label: "Long, Sandia 2003", reference: "Evaluation of TCP Congestion Control Algorithms, SAND2003-4404: Scalable TCP equation 8 and the a, b tuning of Table 3." },
        Citation { label: "Bateman et al. 2008", reference: "A Comparison of TCP Behaviour at High Speeds Using ns-2 and Linux, Appendix A: Scalable-TCP with legacy window." },
        Citation { label: "Linux tcp_scalable.c", reference: "J. Heffner. Linux net/ipv4/tcp_scalable.c (TCP_SCALABLE_AI_CNT 50, TCP_SCALABLE_MD_SCALE 3)." },
    ],
};

pub fn build(p: &Params) -> Box<dyn CongestionControl> {
    let mut s = Scalable::new(p.get("a"), p.get("b"), p.get("legacy_window"));
    s.rule = p.rules.scalable;
    Box::new(s)
}

/// MIMD above the legacy window, Standard TCP at or below it.
pub struct Scalable {
    pub a: f64,
    pub b: f64,
    pub legacy_window: u32,
    pub rule: ScalableRule,
    inc: Increase,
}

impl Scalable {
    pub fn new(a: f64, b: f64, legacy_window: f64) -> Self {
        Scalable {
            a,
            b,
            legacy_window: legacy_window.round() as u32,
            rule: ScalableRule::Kelly,
            inc: Increase::default(),
        }
    }

    /// Kelly's recommended values.
    pub fn kelly() -> Self {
        Scalable::new(0.01, 0.125, 16.0)
    }
}

impl CongestionControl for Scalable {
    /// Above the legacy window ssthresh = (1 − b)·w; Standard TCP's w/2 at
    /// or below it.
    fn ssthresh(&mut self, w: &Window, _now_ns: u64) -> u32 {
        self.inc.reset();
        let cwnd = w.cwnd_pkts;
        if self.rule == ScalableRule::LinuxAiCount {
            // `tcp_scalable_ssthresh`: cwnd − cwnd·b (>> 3 for b = 1/8) at
            // every window.
            return (cwnd - ((cwnd as f64 * self.b) as u32)).max(2);
        }
        if cwnd <= self.legacy_window {
            (cwnd / 2).max(2)
        } else {
            (((1.0 - self.b) * cwnd as f64) as u32).max(2)
        }
    }

    fn cong_avoid(&mut self, w: &mut Window, ack: &AckSample) {
        let mut acked = ack.counted_pkts;
        if w.in_slow_start() {
            acked = w.slow_start(acked);
            if acked == 0 {
                return;
            }
        }
        if self.rule == ScalableRule::LinuxAiCount {
            // `tcp_scalable_cong_avoid`: one packet per min(cwnd, 1/a)
            // counted ACKs (TCP_SCALABLE_AI_CNT = 50 for a = 1/50).
            let ai_cnt = ((1.0 / self.a).round() as u32).max(1);
            let per = w.cwnd_pkts.min(ai_cnt);
            w.cong_avoid_ai(per, acked);
            return;
        }
        if w.cwnd_pkts <= self.legacy_window {
            // Standard TCP, with Linux's integer counter.
            let cwnd = w.cwnd_pkts;
            w.cong_avoid_ai(cwnd, acked);
        } else {
            self.inc.add(w, self.a * acked as f64);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cc::testing::{grow_for_rtts, loss_event};

    #[test]
    fn grows_by_one_plus_a_per_rtt_above_the_legacy_window() {
        let mut cc = Scalable::kelly();
        let mut w = Window {
            cwnd_pkts: 1000,
            cwnd_cnt: 0,
            ssthresh_pkts: 10,
            cwnd_clamp_pkts: 1_000_000,
        };
        let mut expected = 1000.0f64;
        for _ in 0..20 {
            let before = w.cwnd_pkts;
            grow_for_rtts(&mut cc, &mut w, 1, 30_000_000);
            expected *= 1.01;
            // One round acks `before` packets: +a·before (integer rounding).
            let grown = (w.cwnd_pkts - before) as f64;
            assert!(
                (grown - 0.01 * before as f64).abs() <= 1.0,
                "from {before} grew {grown}"
            );
        }
        assert!(
            (w.cwnd_pkts as f64 / expected - 1.0).abs() < 0.01,
            "{} vs {expected}",
            w.cwnd_pkts
        );

        // a = 1/50 (Long 2003's Linux patch): 2% per RTT.
        let mut cc = Scalable::new(0.02, 0.125, 16.0);
        let mut w = Window {
            cwnd_pkts: 1000,
            ..w
        };
        grow_for_rtts(&mut cc, &mut w, 10, 30_000_000);
        let expected = 1000.0 * 1.02f64.powi(10);
        assert!(
            (w.cwnd_pkts as f64 / expected - 1.0).abs() < 0.01,
            "{} vs {expected}",
            w.cwnd_pkts
        );
    }

    #[test]
    fn decrease_is_b_above_and_one_half_below_the_legacy_window() {
        let mut cc = Scalable::kelly();
        let mut w = Window {
            cwnd_pkts: 1000,
            cwnd_cnt: 0,
            ssthresh_pkts: 10,
            cwnd_clamp_pkts: 1_000_000,
        };
        loss_event(&mut cc, &mut w, 0);
        assert_eq!(w.cwnd_pkts, 875);
        let mut cc = Scalable::new(0.01, 0.25, 16.0);
        w.cwnd_pkts = 1000;
        loss_event(&mut cc, &mut w, 0);
        assert_eq!(w.cwnd_pkts, 750);
        w.cwnd_pkts = 16;
        loss_event(&mut cc, &mut w, 0);
        assert_eq!(w.cwnd_pkts, 8);
    }

    /// Linux `tcp_scalable.c`: +1 per min(cwnd, 50) counted ACKs, and a
    /// 1/8 decrease even at small windows.
    #[test]
    fn linux_ai_count_rule() {
        let mut cc = Scalable::new(0.02, 0.125, 16.0);
        cc.rule = ScalableRule::LinuxAiCount;
        let mut w = Window {
            cwnd_pkts: 1000,
            cwnd_cnt: 0,
            ssthresh_pkts: 10,
            cwnd_clamp_pkts: 1_000_000,
        };
        grow_for_rtts(&mut cc, &mut w, 1, 30_000_000);
        assert_eq!(w.cwnd_pkts, 1020, "1000 ACKs / 50");
        let mut w = Window { cwnd_pkts: 20, ..w };
        grow_for_rtts(&mut cc, &mut w, 1, 30_000_000);
        assert_eq!(w.cwnd_pkts, 21, "Standard-like below 50 packets");
        w.cwnd_pkts = 16;
        loss_event(&mut cc, &mut w, 0);
        assert_eq!(w.cwnd_pkts, 14, "16 − 16/8, not halved");
    }

    #[test]
    fn standard_tcp_at_or_below_the_legacy_window() {
        let mut cc = Scalable::new(0.01, 0.125, 50.0);
        let mut w = Window {
            cwnd_pkts: 20,
            cwnd_cnt: 0,
            ssthresh_pkts: 10,
            cwnd_clamp_pkts: 1_000_000,
        };
        grow_for_rtts(&mut cc, &mut w, 10, 30_000_000);
        assert_eq!(w.cwnd_pkts, 30, "one packet per RTT like Standard TCP");
        // Above the legacy window the per-RTT gain is a·w, not 1.
        let mut w = Window { cwnd_pkts: 60, ..w };
        grow_for_rtts(&mut cc, &mut w, 10, 30_000_000);
        assert!((65..=67).contains(&w.cwnd_pkts), "{}", w.cwnd_pkts);
    }
}
