//! HighSpeed TCP: RFC 3649 (Floyd 2003); Long 2003 equations 3–7; the HighSpeed ns-2 study
//! on scaling High_Window with the link speed.
//!
//! The increase a(w) and decrease b(w) are computed from the RFC's formulas
//! for the configured Low_Window, High_Window, High_P and High_Decrease
//! (RFC 3649 §5), not read from the RFC's table, so that changing a
//! parameter (the HighSpeed ns-2 study: High_Window = 8300 at 1 Gb/s) moves the whole table:
//!
//! * b(w) = (HD − 0.5)·(ln w − ln LW)/(ln HW − ln LW) + 0.5
//! * p(w): log-linear between (LW, LP) and (HW, HP), where LP = (1.2/LW)² is
//!   Standard TCP's loss rate at LW (RFC 3649's w = 1.2/√p; 10⁻³ for LW = 38)
//! * a(w) = w²·p(w)·2·b(w)/(2 − b(w)), at least 1
//!
//! Long 2003 prints eq. 4 with HW²·HP in place of w²·p(w) (its value at
//! w = HW) and eq. 5 with LW and HW swapped in the denominator; the forms
//! above are the RFC's and reproduce the seed's Table 1. At or below LW the
//! algorithm is Standard TCP; above HW a(w) and b(w) stay at their HW values.

use super::{
    AckSample, AlgorithmInfo, Citation, CongestionControl, Increase, ParamInfo, Params, Window,
};
use crate::variants::enum_with_variants;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

enum_with_variants! {
    /// How HighSpeed TCP finds a(w) and b(w): the kernel-dependent rule a
    /// profile chooses (`Mechanisms::highspeed`, switch `highspeed`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
    #[serde(rename_all = "snake_case")]
    #[ts(export, export_to = "scenario.ts")]
    pub enum HighSpeedRule {
        /// RFC 3649 §5's continuous formulas.
        Formula,
        /// RFC 3649 Appendix B's table as the kernels used it: a = k + 1 for
        /// table[k−1] < w ≤ table[k], b from the table's row, the row found
        /// only in congestion avoidance (Linux `tcp_highspeed.c`).
        Table,
    }
}

impl HighSpeedRule {
    /// The rule in words (the ablation view and docs/profiles.md).
    pub fn describe(self) -> &'static str {
        match self {
            HighSpeedRule::Formula => "RFC 3649 formulas",
            HighSpeedRule::Table => "RFC 3649 table (kernel lookup)",
        }
    }
}

pub static INFO: AlgorithmInfo = AlgorithmInfo {
    id: "highspeed",
    name: "HighSpeed TCP",
    explanation: "HighSpeed TCP (RFC 3649) keeps Standard TCP's AIMD shape but lets the increase a(w) grow and the decrease b(w) shrink as the window w gets larger. Below the Low Window (38 packets) it is exactly Standard TCP; at the High Window (83000 packets) it adds about 72 packets per round trip and gives back only 10% on a loss. The values come from one rule: the average window should follow W = 0.12/p^0.835 instead of Standard TCP's 1.2/√p, so large windows survive realistic loss rates. The HighSpeed TCP ns-2 study points out that the default High Window was meant for 10 Gb/s; at 1 Gb/s it should be about 8300.",
    expect_on_chart: "A sawtooth like Standard TCP's at small windows; at large windows the teeth are shallower (cuts of 20–35% instead of 50%) and the climbs steeper, with the slope increasing in visible steps as w crosses the table rows (Long (Sandia, 2003) Fig. 3: a bend where a(w) goes from 4 to 5 near w = 347).",
    increase_tex: r"w \leftarrow w + \frac{a(w)}{w}\ \text{per ACK},\quad a(w) = \frac{2\,w^2\,p(w)\,b(w)}{2 - b(w)}",
    decrease_tex: r"w \leftarrow (1 - b(w))\,w,\quad b(w) = (HD - 0.5)\frac{\ln w - \ln LW}{\ln HW - \ln LW} + 0.5",
    params: &[
        ParamInfo { id: "low_window", name: "Low Window", default: 38.0, min: 4.0, max: 100.0, step: 1.0, unit: "packets", log_scale: false, description: "At or below this window HighSpeed TCP is Standard TCP (a = 1, b = 0.5)." },
        ParamInfo { id: "high_window", name: "High Window", default: 83000.0, min: 200.0, max: 1_000_000.0, step: 100.0, unit: "packets", log_scale: true, description: "Window at which the decrease reaches High Decrease; 83000 targets 10 Gb/s, the HighSpeed TCP ns-2 study recommends 8300 at 1 Gb/s." },
        ParamInfo { id: "high_p", name: "High P", default: 1e-7, min: 1e-10, max: 1e-4, step: 1e-8, unit: "loss rate", log_scale: true, description: "Loss rate at which the average window should be High Window." },
        ParamInfo { id: "high_decrease", name: "High Decrease", default: 0.1, min: 0.01, max: 0.5, step: 0.01, unit: "fraction", log_scale: false, description: "Decrease b(w) at the High Window." },
    ],
    citations: &[
        Citation { label: "RFC 3649", reference: "S. Floyd. HighSpeed TCP for Large Congestion Windows. RFC 3649, 2003, §5 and Appendix B." },
        Citation { label: "Long, Sandia 2003", reference: "Evaluation of TCP Congestion Control Algorithms, SAND2003-4404: Standard vs HighSpeed vs Scalable TCP, equations 3–7 and Table 1." },
        Citation { label: "HighSpeed TCP ns-2 study", reference: "a HighSpeed TCP study by ns-2 simulation: High Window should be 8.3 × link speed in Mb/s (8300 at 1 Gb/s)." },
        Citation { label: "Linux tcp_highspeed.c", reference: "J. Heffner. Linux net/ipv4/tcp_highspeed.c (the RFC 3649 Appendix B table)." },
    ],
};

pub fn build(p: &Params) -> Box<dyn CongestionControl> {
    let params = HighSpeedParams {
        low_window: p.get("low_window"),
        high_window: p.get("high_window"),
        high_p: p.get("high_p"),
        high_decrease: p.get("high_decrease"),
    };
    Box::new(match p.rules.highspeed {
        HighSpeedRule::Formula => HighSpeed::new(params),
        HighSpeedRule::Table => HighSpeed::with_table(params),
    })
}

/// RFC 3649 Appendix B as the Linux module carries it (`hstcp_aimd_vals`
/// in `net/ipv4/tcp_highspeed.c`): row k holds the largest window with
/// a = k + 1, and b scaled by 256.
#[rustfmt::skip]
pub const RFC3649_TABLE: &[(u32, u32)] = &[
    (38, 128), (118, 112), (221, 104), (347, 98), (495, 93), (663, 89),
    (851, 86), (1058, 83), (1284, 81), (1529, 78), (1793, 76), (2076, 74),
    (2378, 72), (2699, 71), (3039, 69), (3399, 68), (3778, 66), (4177, 65),
    (4596, 64), (5036, 62), (5497, 61), (5979, 60), (6483, 59), (7009, 58),
    (7558, 57), (8130, 56), (8726, 55), (9346, 54), (9991, 53), (10661, 52),
    (11358, 52), (12082, 51), (12834, 50), (13614, 49), (14424, 48), (15265, 48),
    (16137, 47), (17042, 46), (17981, 45), (18955, 45), (19965, 44), (21013, 43),
    (22101, 43), (23230, 42), (24402, 41), (25618, 41), (26881, 40), (28193, 39),
    (29557, 39), (30975, 38), (32450, 38), (33986, 37), (35586, 36), (37253, 36),
    (38992, 35), (40808, 35), (42707, 34), (44694, 33), (46776, 33), (48961, 32),
    (51258, 32), (53677, 31), (56230, 30), (58932, 30), (61799, 29), (64851, 28),
    (68113, 28), (71617, 27), (75401, 26), (79517, 26), (84035, 25), (89053, 24),
];

/// The table rule's lookup: Linux's own table for RFC 3649's parameters,
/// or for other parameters the same kind of table read row by row from
/// the formulas (materialised, it can have tens of millions of rows at the
/// parameters' limits).
#[derive(Clone, Debug)]
enum Table {
    Linux(TableLookup),
    Generated { params: HighSpeedParams, ai: usize },
}

impl Table {
    /// Move to the row holding `cwnd` (Linux `hstcp_cong_avoid`).
    fn update(&mut self, cwnd: u32) {
        match self {
            Table::Linux(t) => t.update(cwnd),
            // The generated table's row ai ends one below the first
            // window reaching a = ai + 2, so cwnd's row is ⌊a(cwnd)⌋ − 1
            // (a(w) increases on [LW, HW]), and the last row is
            // ⌊a(HW)⌋ − 1.
            Table::Generated { params, ai } => {
                let top = params.a(params.high_window).floor() as usize;
                let row = params.a(cwnd as f64).floor() as usize;
                *ai = row.min(top).saturating_sub(1);
            }
        }
    }

    /// a at the current row.
    fn a(&self) -> u32 {
        match self {
            Table::Linux(t) => t.ai as u32 + 1,
            Table::Generated { ai, .. } => *ai as u32 + 1,
        }
    }

    /// b·256 at the current row: b where the row starts.
    fn md(&self) -> u32 {
        match self {
            Table::Linux(t) => t.rows[t.ai].1,
            Table::Generated { params, ai } => {
                let w = if *ai == 0 {
                    params.low_window
                } else {
                    first_window_reaching(params, *ai as u32 + 1)
                };
                (params.b(w) * 256.0).round() as u32
            }
        }
    }
}

/// The kernels' lookup: a table of (window, b·256) rows and the current row.
#[derive(Clone, Debug)]
struct TableLookup {
    rows: Vec<(u32, u32)>,
    /// `ca->ai`: moved only in congestion avoidance, so the first decrease
    /// after slow start uses row 0 (b = 0.5), as Linux's does.
    ai: usize,
}

impl TableLookup {
    /// Linux `hstcp_cong_avoid`: keep rows[ai−1].w < cwnd ≤ rows[ai].w.
    fn update(&mut self, cwnd: u32) {
        let last = self.rows.len() - 1;
        if cwnd > self.rows[self.ai].0 {
            while cwnd > self.rows[self.ai].0 && self.ai < last {
                self.ai += 1;
            }
        } else {
            while self.ai > 0 && cwnd <= self.rows[self.ai - 1].0 {
                self.ai -= 1;
            }
        }
    }
}

/// The four RFC 3649 parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HighSpeedParams {
    pub low_window: f64,
    pub high_window: f64,
    pub high_p: f64,
    pub high_decrease: f64,
}

impl HighSpeedParams {
    /// RFC 3649's defaults (10 Gb/s, 1500-byte packets, 100 ms).
    pub const RFC3649: HighSpeedParams = HighSpeedParams {
        low_window: 38.0,
        high_window: 83000.0,
        high_p: 1e-7,
        high_decrease: 0.1,
    };

    /// Standard TCP's loss rate at Low_Window: w = 1.2/√p ⇒ p = (1.2/w)²
    /// (RFC 3649 §5: Low_P = 10⁻³ for Low_Window = 38).
    pub fn low_p(&self) -> f64 {
        (1.2 / self.low_window).powi(2)
    }

    /// Fraction of the way from LW to HW on a log scale, clamped to [0, 1].
    fn position(&self, w: f64) -> f64 {
        if w <= self.low_window {
            return 0.0;
        }
        let x = (w.ln() - self.low_window.ln()) / (self.high_window.ln() - self.low_window.ln());
        x.clamp(0.0, 1.0)
    }

    /// RFC 3649 §5: b(w), log-linear from 0.5 at LW to HD at HW.
    pub fn b(&self, w: f64) -> f64 {
        (self.high_decrease - 0.5) * self.position(w) + 0.5
    }

    /// RFC 3649 §5: the loss rate at which w is the average window,
    /// log-linear between (LW, LP) and (HW, HP).
    pub fn p(&self, w: f64) -> f64 {
        let x = self.position(w);
        (self.low_p().ln() + x * (self.high_p.ln() - self.low_p().ln())).exp()
    }

    /// RFC 3649 §5: a(w) = w²·p(w)·2·b(w)/(2 − b(w)), never below 1.
    pub fn a(&self, w: f64) -> f64 {
        if w <= self.low_window {
            return 1.0;
        }
        let w = w.min(self.high_window);
        let b = self.b(w);
        (w * w * self.p(w) * 2.0 * b / (2.0 - b)).max(1.0)
    }

    /// The response function the parameters encode: the average window at
    /// loss rate `p` (RFC 3649 §5; Standard TCP's 1.2/√p below LW).
    pub fn response_window(&self, p: f64) -> f64 {
        let standard = 1.2 / p.sqrt();
        if standard <= self.low_window {
            return standard;
        }
        let s =
            (self.high_window.ln() - self.low_window.ln()) / (self.high_p.ln() - self.low_p().ln());
        self.low_window * (p / self.low_p()).powf(s)
    }
}

/// a(w) and b(w) of RFC 3649 for window `w` (packets).
pub fn highspeed_a_b(w: f64, params: &HighSpeedParams) -> (f64, f64) {
    (params.a(w), params.b(w))
}

/// One row of the RFC 3649 Appendix B table: from window `w` on, the
/// increase is `a` packets per RTT; `b` is the decrease at `w`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HighSpeedRow {
    pub w: u32,
    pub a: u32,
    pub b: f64,
}

/// The RFC 3649 Appendix B table for these parameters: the smallest window
/// at which a(w) reaches each integer, from (LW, 1, 0.5) up to HW.
pub fn highspeed_table(params: &HighSpeedParams) -> Vec<HighSpeedRow> {
    let lw = params.low_window;
    let mut rows = vec![HighSpeedRow {
        w: lw as u32,
        a: 1,
        b: params.b(lw),
    }];
    let top = params.a(params.high_window).floor() as u32;
    for a in 2..=top {
        let w = first_window_reaching(params, a);
        rows.push(HighSpeedRow {
            w: w as u32,
            a,
            b: params.b(w),
        });
    }
    rows
}

/// The first integer window at which a(w) reaches `a` (≥ 2): a(w)
/// increases on [LW, HW], so bisect.
fn first_window_reaching(params: &HighSpeedParams, a: u32) -> f64 {
    let lw = params.low_window;
    let (mut lo, mut hi) = (lw, params.high_window);
    while hi - lo > 0.5 {
        let mid = 0.5 * (lo + hi);
        if params.a(mid) >= a as f64 {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    let mut w = hi.floor().max(lw);
    while params.a(w) < a as f64 {
        w += 1.0;
    }
    w
}

/// HighSpeed TCP congestion avoidance with RFC 3649's a(w) and b(w).
pub struct HighSpeed {
    params: HighSpeedParams,
    inc: Increase,
    /// a(w) for the window it was computed at (recomputed when cwnd moves).
    cached: (u32, f64),
    /// The kernels' table lookup instead of the formulas.
    table: Option<Table>,
}

impl HighSpeed {
    pub fn new(params: HighSpeedParams) -> Self {
        HighSpeed {
            params,
            inc: Increase::default(),
            cached: (0, 1.0),
            table: None,
        }
    }

    /// The table rule (profile switch `highspeed = table`): Linux's table
    /// for RFC 3649's parameters; for other parameters the same kind of
    /// table generated from them (the window where a(w) reaches each
    /// integer, b at that window).
    pub fn with_table(params: HighSpeedParams) -> Self {
        let table = if params == HighSpeedParams::RFC3649 {
            Table::Linux(TableLookup {
                rows: RFC3649_TABLE.to_vec(),
                ai: 0,
            })
        } else {
            Table::Generated { params, ai: 0 }
        };
        HighSpeed {
            table: Some(table),
            ..HighSpeed::new(params)
        }
    }

    /// a(w) by the table: ai + 1 for the row holding `cwnd`.
    pub fn table_a(cwnd: u32) -> u32 {
        let mut t = TableLookup {
            rows: RFC3649_TABLE.to_vec(),
            ai: 0,
        };
        t.update(cwnd);
        t.ai as u32 + 1
    }

    fn a_at(&mut self, cwnd: u32) -> f64 {
        if self.cached.0 != cwnd {
            self.cached = (cwnd, self.params.a(cwnd as f64));
        }
        self.cached.1
    }
}

impl CongestionControl for HighSpeed {
    /// RFC 3649 §5 / Long 2003 eq. 7: ssthresh = (1 − b(w))·w.
    fn ssthresh(&mut self, w: &Window, _now_ns: u64) -> u32 {
        self.inc.reset();
        if let Some(t) = &self.table {
            // Linux `hstcp_ssthresh`: cwnd − cwnd·md/256 at the current row.
            let md = t.md() as u64;
            let cwnd = w.cwnd_pkts as u64;
            return ((cwnd - ((cwnd * md) >> 8)) as u32).max(2);
        }
        let cwnd = w.cwnd_pkts as f64;
        (((1.0 - self.params.b(cwnd)) * cwnd) as u32).max(2)
    }

    /// Slow start unchanged; in congestion avoidance a(w)/w per acked packet
    /// (Long 2003 eq. 6), so a(w) packets per round trip.
    fn cong_avoid(&mut self, w: &mut Window, ack: &AckSample) {
        let mut acked = ack.counted_pkts;
        if w.in_slow_start() {
            acked = w.slow_start(acked);
            if acked == 0 {
                return;
            }
        }
        if let Some(t) = &mut self.table {
            // Linux `hstcp_cong_avoid`: snd_cwnd_cnt += a per counted ACK,
            // one packet each time it reaches cwnd.
            t.update(w.cwnd_pkts);
            if w.cwnd_pkts < w.cwnd_clamp_pkts {
                w.cwnd_cnt += t.a() * acked;
                while w.cwnd_cnt >= w.cwnd_pkts && w.cwnd_pkts < w.cwnd_clamp_pkts {
                    w.cwnd_cnt -= w.cwnd_pkts;
                    w.cwnd_pkts += 1;
                }
            }
            return;
        }
        if (w.cwnd_pkts as f64) <= self.params.low_window {
            // Standard TCP, with Linux's integer counter.
            let cwnd = w.cwnd_pkts;
            w.cong_avoid_ai(cwnd, acked);
            return;
        }
        let a = self.a_at(w.cwnd_pkts);
        self.inc
            .add(w, a * acked as f64 / w.cwnd_pkts.max(1) as f64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cc::testing::{grow_for_rtts, loss_event};

    const RFC: HighSpeedParams = HighSpeedParams::RFC3649;

    /// RFC 3649 Appendix B as reproduced in Linux tcp_highspeed.c: row k
    /// (from 1) is the window at which a(w) = k; b from the md column
    /// (md/256, printed to two decimals in the RFC).
    const RFC_TABLE: &[(u32, u32, f64)] = &[
        (38, 1, 0.50),
        (118, 2, 0.44),
        (221, 3, 0.41),
        (347, 4, 0.38),
        (495, 5, 0.37),
        (663, 6, 0.35),
        (851, 7, 0.34),
        (1058, 8, 0.33),
        (2076, 12, 0.29),
        (5036, 20, 0.25),
        (10661, 30, 0.21),
        (21013, 42, 0.17),
        (40808, 56, 0.14),
        (64851, 66, 0.11),
        (84035, 71, 0.10),
    ];

    /// The kernels' table lookup (Long 2003 Fig. 3 text: w = 262 → a = 4,
    /// above 347 → 5), and the row boundaries exactly.
    #[test]
    fn table_lookup_rounds_up_to_the_row_above() {
        assert_eq!(HighSpeed::table_a(262), 4);
        assert_eq!(HighSpeed::table_a(347), 4);
        assert_eq!(HighSpeed::table_a(348), 5);
        assert_eq!(HighSpeed::table_a(38), 1);
        assert_eq!(HighSpeed::table_a(39), 2);
        assert_eq!(HighSpeed::table_a(100_000), 72);
        // The formula gives less at 262 (3.39): 15 % slower regrowth.
        assert!(RFC.a(262.0) < 3.5);
    }

    #[test]
    fn table_rule_grows_a_per_rtt_and_cuts_by_the_rows_b() {
        let mut cc = HighSpeed::with_table(RFC);
        let mut w = Window {
            cwnd_pkts: 262,
            cwnd_cnt: 0,
            ssthresh_pkts: 10,
            cwnd_clamp_pkts: 1_000_000,
        };
        // The first decrease after slow start uses row 0 (b = 0.5): the
        // row is only found in congestion avoidance.
        assert_eq!(cc.ssthresh(&w, 0), 131);
        grow_for_rtts(&mut cc, &mut w, 5, 30_000_000);
        assert!(
            (281..=283).contains(&w.cwnd_pkts),
            "a = 4 per RTT: {}",
            w.cwnd_pkts
        );
        // Row 3 (w ≤ 347): md = 98/256.
        assert_eq!(cc.ssthresh(&w, 0), w.cwnd_pkts - (w.cwnd_pkts * 98 >> 8));
    }

    #[test]
    fn seed_000_table_1_values() {
        // Long 2003 Table 1 / RFC 3649 Appendix B check values.
        for (w, a, b) in [
            (38.0, 1, 0.50),
            (118.0, 2, 0.44),
            (221.0, 3, 0.41),
            (347.0, 4, 0.38),
            (495.0, 5, 0.37),
        ] {
            let (aw, bw) = highspeed_a_b(w, &RFC);
            assert_eq!(aw.floor() as u32, a, "a({w}) = {aw}");
            assert!((bw - b).abs() < 0.005 + 1e-9, "b({w}) = {bw}, table {b}");
        }
    }

    #[test]
    fn formulas_track_the_rfc_appendix_table() {
        for &(w, a, b) in RFC_TABLE {
            let (aw, bw) = highspeed_a_b(w as f64, &RFC);
            // b(w) does not depend on the p(w) approximation: equal to 2 decimals.
            assert!((bw - b).abs() <= 0.006, "b({w}) = {bw}, RFC {b}");
            // The RFC table was built with p(w) ≈ 0.078/w^1.2, which sits a
            // little below the exact log-linear p(w): a(w) here is 1–2.5% above.
            let rel = (aw - a as f64) / a as f64;
            assert!((0.0..=0.03).contains(&rel), "a({w}) = {aw}, RFC {a}");
        }
        // At High_Window: b = HD and a = HW²·HP·2·HD/(2 − HD) = 72.5 (Long 2003 eq. 4).
        let (a, b) = highspeed_a_b(83000.0, &RFC);
        assert!((b - 0.1).abs() < 1e-12);
        assert!(
            (a - 83000f64.powi(2) * 1e-7 * 0.2 / 1.9).abs() < 1e-6,
            "a(HW) = {a}"
        );
        assert_eq!(a.floor(), 72.0);
        // And the row at w = 1058: a = 8, b = 0.33.
        let (a, b) = highspeed_a_b(1058.0, &RFC);
        assert_eq!((a.floor(), (b * 100.0).round() / 100.0), (8.0, 0.33));
    }

    #[test]
    fn generated_table_rows_match_the_rfc() {
        let table = highspeed_table(&RFC);
        assert_eq!(
            table[0],
            HighSpeedRow {
                w: 38,
                a: 1,
                b: 0.5
            }
        );
        assert_eq!(table.last().unwrap().a, 72);
        // a(w) 1–2.5% above the RFC's puts each row 1.7–3% earlier up to
        // w ≈ 5000; near HW a(w) is flat, so the same small difference in a
        // moves the row by up to 9%.
        for &(w, a, _) in &RFC_TABLE[1..] {
            let row = table.iter().find(|r| r.a == a).unwrap();
            let rel = (row.w as f64 - w as f64) / w as f64;
            let floor = if w <= 5036 { -0.035 } else { -0.09 };
            assert!(
                (floor..=0.0).contains(&rel),
                "a = {a}: w {} vs RFC {w}",
                row.w
            );
        }
        // Rows are strictly increasing.
        assert!(table.windows(2).all(|r| r[0].w < r[1].w && r[0].b > r[1].b));
    }

    /// The generated table read row by row gives what the materialised
    /// table gives: the same a and the same b at every window.
    #[test]
    fn generated_table_lookup_matches_the_materialised_table() {
        let cases = [
            HighSpeedParams {
                high_window: 8300.0,
                ..RFC
            },
            HighSpeedParams {
                low_window: 37.3,
                high_p: 1e-6,
                ..RFC
            },
            HighSpeedParams {
                low_window: 4.0,
                high_window: 200.0,
                high_p: 1e-4,
                high_decrease: 0.5,
            },
            HighSpeedParams {
                high_window: 1_000_000.0,
                high_p: 1e-10,
                high_decrease: 0.01,
                ..RFC
            },
        ];
        for params in cases {
            let t = highspeed_table(&params);
            let mut rows: Vec<(u32, u32)> = t
                .windows(2)
                .map(|r| (r[1].w - 1, (r[0].b * 256.0).round() as u32))
                .collect();
            rows.push((u32::MAX, (t.last().unwrap().b * 256.0).round() as u32));
            let mut materialised = Table::Linux(TableLookup { rows, ai: 0 });
            let mut generated = Table::Generated { params, ai: 0 };
            for cwnd in (1..30_000).chain([100_000, 2_000_000]) {
                materialised.update(cwnd);
                generated.update(cwnd);
                assert_eq!(materialised.a(), generated.a(), "{params:?} cwnd {cwnd}");
                assert_eq!(materialised.md(), generated.md(), "{params:?} cwnd {cwnd}");
            }
        }
    }

    /// At the parameters' limits a(High Window) is tens of millions: the
    /// table rule still builds and steps at once.
    #[test]
    fn the_table_rule_copes_with_parameters_at_their_limits() {
        let params = HighSpeedParams {
            low_window: 4.0,
            high_window: 1_000_000.0,
            high_p: 1e-4,
            high_decrease: 0.5,
        };
        assert!(params.a(params.high_window) > 1e7);
        let mut cc = HighSpeed::with_table(params);
        let mut w = Window {
            cwnd_pkts: 500_000,
            cwnd_cnt: 0,
            ssthresh_pkts: 10,
            cwnd_clamp_pkts: u32::MAX,
        };
        let ack = AckSample {
            counted_pkts: 1,
            ..AckSample::default()
        };
        cc.cong_avoid(&mut w, &ack);
        assert!(w.cwnd_pkts > 500_000, "a(w) is large, cwnd grows at once");
        assert!(cc.ssthresh(&w, 0) < w.cwnd_pkts);
    }

    #[test]
    fn high_window_8300_moves_the_table_as_seed_004_says() {
        let p = HighSpeedParams {
            high_window: 8300.0,
            ..RFC
        };
        // b reaches High_Decrease at 8300 instead of 83000 …
        assert!((p.b(8300.0) - 0.1).abs() < 1e-12);
        assert!(
            (RFC.b(8300.0) - 0.22).abs() < 0.005,
            "default b(8300) = {}",
            RFC.b(8300.0)
        );
        // … halfway (geometrically) between LW and HW b is 0.3 …
        let mid = (38.0f64 * 8300.0).sqrt();
        assert!((p.b(mid) - 0.3).abs() < 1e-9);
        // … and with High_P still 1e-7, a(w) never exceeds Standard's 1:
        // only the decrease is gentler (a(8300) would be 0.73).
        assert_eq!(p.a(8300.0), 1.0);
        assert!((8300f64.powi(2) * 1e-7 * 0.2 / 1.9) < 1.0);
        assert!(RFC.a(8300.0) > 26.0);
        // The response function passes through (HW, HP).
        assert!((p.response_window(1e-7) / 8300.0 - 1.0).abs() < 1e-9);
    }

    #[test]
    fn response_function_is_0_12_over_p_to_the_0_835() {
        for p in [1e-4, 1e-5, 1e-6, 1e-7] {
            let w = RFC.response_window(p);
            let rfc = 0.12 / p.powf(0.835);
            assert!((w / rfc - 1.0).abs() < 0.05, "p = {p}: {w} vs {rfc}");
        }
        // Standard TCP below Low_Window.
        assert!((RFC.response_window(1e-2) - 12.0).abs() < 1e-9);
    }

    #[test]
    fn standard_below_low_window_and_a_of_w_above() {
        let mut cc = HighSpeed::new(RFC);
        let mut w = Window {
            cwnd_pkts: 20,
            cwnd_cnt: 0,
            ssthresh_pkts: 10,
            cwnd_clamp_pkts: 1_000_000,
        };
        grow_for_rtts(&mut cc, &mut w, 10, 30_000_000);
        assert_eq!(w.cwnd_pkts, 30, "one packet per RTT below LW");
        assert_eq!(cc.ssthresh(&w, 0), 15, "halving below LW");

        // Around w = 1058 a(w) ≈ 8.1: ten RTTs add about 81.
        let mut w = Window {
            cwnd_pkts: 1058,
            cwnd_cnt: 0,
            ssthresh_pkts: 10,
            cwnd_clamp_pkts: 1_000_000,
        };
        grow_for_rtts(&mut cc, &mut w, 10, 30_000_000);
        let grown = w.cwnd_pkts - 1058;
        assert!((79..=84).contains(&grown), "grew {grown}");

        // Decrease b(5036) = 0.246 (RFC table: 0.25).
        let mut w = Window {
            cwnd_pkts: 5036,
            ..w
        };
        loss_event(&mut cc, &mut w, 0);
        assert_eq!(w.cwnd_pkts, ((1.0 - RFC.b(5036.0)) * 5036.0) as u32);
        assert!(
            (3777..=3800).contains(&w.cwnd_pkts),
            "after loss {}",
            w.cwnd_pkts
        );
    }
}
