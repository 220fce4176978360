//! How close the simulation comes to the papers: every published value of a
//! lab beside its simulated value (judged in [`crate::labs::agreement`]),
//! whether the paper's orderings and trends hold, whether its findings hold,
//! and a rank correlation where the paper ranks series. Pure functions over
//! [`Comparison`]s; `sawtooth fidelity` writes the report.

use crate::labs::{self, Comparison, Lab, Metric, PointResult, Relation, Scale};
pub use crate::labs::{value_within, Agreement, EFFECT_FACTOR, VALUE_TOLERANCE};
use crate::sim_claims::findings::{evaluate_findings, FindingOutcome, FindingStatus};
use serde::Serialize;
/// Paper values closer than this (relative) are treated as a tie: no
/// ordering is claimed between them.
pub const TIE_TOLERANCE: f64 = 0.02;

/// One ordering the paper's numbers imply (a > b), and whether the
/// simulation agrees.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OrderingCheck {
    /// The larger value in the paper.
    pub higher: String,
    pub lower: String,
    pub held: bool,
}

/// Where one lab stands against its paper.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LabFidelity {
    pub lab: String,
    pub number: u32,
    pub title: String,
    pub comparisons: Vec<Comparison>,
    /// Non-rank values with a simulated counterpart.
    pub values_compared: usize,
    /// Of those, within ±10 % of the paper.
    pub values_within_tolerance: usize,
    pub orderings: Vec<OrderingCheck>,
    /// Spearman's ρ between the paper's and the simulated ranking.
    pub spearman: Option<f64>,
    /// The paper's findings judged on these runs.
    pub findings: Vec<FindingOutcome>,
}

impl LabFidelity {
    pub fn orderings_held(&self) -> usize {
        self.orderings.iter().filter(|o| o.held).count()
    }

    /// Findings these runs decide (held or broken).
    pub fn findings_decided(&self) -> usize {
        self.findings.iter().filter(|f| f.decided()).count()
    }

    pub fn findings_held(&self) -> usize {
        self.findings
            .iter()
            .filter(|f| f.status == FindingStatus::Held)
            .count()
    }

    /// Does the simulation agree with the paper here: every compared value
    /// and every decided finding holds (`None`: nothing was compared)?
    pub fn agrees(&self) -> Option<bool> {
        if self.values_compared == 0 && self.findings_decided() == 0 {
            return None;
        }
        Some(
            self.values_within_tolerance == self.values_compared
                && self.findings_held() == self.findings_decided(),
        )
    }
}

/// The share of orderings held in each lab, averaged over the labs that
/// have any, so one lab's all-pairs list does not dominate the total.
pub fn mean_orderings_held_per_lab(labs: &[&LabFidelity]) -> Option<f64> {
    let shares: Vec<f64> = labs
        .iter()
        .filter(|f| !f.orderings.is_empty())
        .map(|f| f.orderings_held() as f64 / f.orderings.len() as f64)
        .collect();
    (!shares.is_empty()).then(|| shares.iter().sum::<f64>() / shares.len() as f64)
}

/// Does the simulated number agree with the paper's (see
/// [`Agreement`])? `None` for ranks and missing values.
pub fn within_tolerance(c: &Comparison) -> Option<bool> {
    c.agreement.map(|a| a != Agreement::Outside)
}

/// A short, readable name of what a comparison measures.
pub fn describe(c: &Comparison) -> String {
    let mut s = c.series.clone();
    let r_at = |r: &str| match c.relative_to_x {
        Some(bx) => format!("{r} at {bx}"),
        None => r.to_string(),
    };
    match (c.relation, &c.relative_to) {
        (Relation::Difference, Some(r)) => s = format!("{s} − {}", r_at(r)),
        (Relation::Percent, Some(r)) => s = format!("{s} vs {} (%)", r_at(r)),
        _ => {}
    }
    let group = c.group.map(|g| format!("[{g}]")).unwrap_or_default();
    format!("{s} {}{group} at {}", c.metric.id(), c.at)
}

/// Pairs of comparisons the paper orders: the same quantity either across
/// series at the same x, or for one series across x (a trend).
fn comparable(a: &Comparison, b: &Comparison) -> bool {
    if a.metric != b.metric
        || a.relation != b.relation
        || a.unit != b.unit
        || a.metric == Metric::Rank
    {
        return false;
    }
    let same_point = a.at == b.at;
    let same_line = a.series == b.series
        && a.group == b.group
        && a.relative_to == b.relative_to
        && a.relative_to_x == b.relative_to_x;
    same_point != same_line
}

/// Every ordering the paper's values imply, checked against the simulation.
pub fn orderings(comparisons: &[Comparison]) -> Vec<OrderingCheck> {
    let mut out = Vec::new();
    for (i, a) in comparisons.iter().enumerate() {
        for b in &comparisons[i + 1..] {
            if !comparable(a, b) {
                continue;
            }
            let (Some(sa), Some(sb), Some(pa), Some(pb)) =
                (a.simulated, b.simulated, a.paper, b.paper)
            else {
                continue;
            };
            let scale = pa.abs().max(pb.abs()).max(1e-12);
            if (pa - pb).abs() <= TIE_TOLERANCE * scale {
                continue;
            }
            let (hi, lo, shi, slo) = if pa > pb {
                (a, b, sa, sb)
            } else {
                (b, a, sb, sa)
            };
            out.push(OrderingCheck {
                higher: describe(hi),
                lower: describe(lo),
                held: shi > slo,
            });
        }
    }
    out
}

/// Spearman's rank correlation of two rankings of the same items (no ties).
pub fn spearman(paper: &[f64], simulated: &[f64]) -> Option<f64> {
    let n = paper.len();
    if n < 2 || simulated.len() != n {
        return None;
    }
    let d2: f64 = paper
        .iter()
        .zip(simulated)
        .map(|(a, b)| (a - b).powi(2))
        .sum();
    let n = n as f64;
    Some(1.0 - 6.0 * d2 / (n * (n * n - 1.0)))
}

/// The fidelity of one lab from its sweep results at `scale`.
pub fn assess(lab: &Lab, scale: Scale, results: &[PointResult]) -> LabFidelity {
    let comparisons = labs::compare(lab, results);
    let values: Vec<&Comparison> = comparisons
        .iter()
        .filter(|c| c.metric != Metric::Rank && c.simulated.is_some())
        .collect();
    let within = values
        .iter()
        .filter(|c| within_tolerance(c) == Some(true))
        .count();
    let ranks: Vec<(f64, f64)> = comparisons
        .iter()
        .filter(|c| c.metric == Metric::Rank)
        .filter_map(|c| Some((c.paper?, c.simulated?)))
        .collect();
    let spearman = if ranks.is_empty() {
        None
    } else {
        // Re-rank the simulated positions among the ranked series only.
        let mut order: Vec<usize> = (0..ranks.len()).collect();
        order.sort_by(|&a, &b| ranks[a].1.total_cmp(&ranks[b].1));
        let mut sim_rank = vec![0.0; ranks.len()];
        for (r, &i) in order.iter().enumerate() {
            sim_rank[i] = (r + 1) as f64;
        }
        let mut order: Vec<usize> = (0..ranks.len()).collect();
        order.sort_by(|&a, &b| ranks[a].0.total_cmp(&ranks[b].0));
        let mut paper_rank = vec![0.0; ranks.len()];
        for (r, &i) in order.iter().enumerate() {
            paper_rank[i] = (r + 1) as f64;
        }
        spearman(&paper_rank, &sim_rank)
    };
    LabFidelity {
        lab: lab.id.clone(),
        number: lab.number,
        title: lab.title.clone(),
        values_compared: values.len(),
        values_within_tolerance: within,
        orderings: orderings(&comparisons),
        spearman,
        findings: evaluate_findings(lab, scale, results),
        comparisons,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::labs::PaperSource;

    fn cmp(series: &str, at: &str, paper: f64, sim: f64) -> Comparison {
        Comparison {
            key: format!("{series}:{at}"),
            series: series.into(),
            metric: Metric::TotalThroughputMbps,
            group: None,
            relation: Relation::Value,
            relative_to: None,
            relative_to_x: None,
            at: at.into(),
            paper: Some(paper),
            paper_range: None,
            unit: "Mb/s".into(),
            simulated: Some(sim),
            difference: Some(sim - paper),
            within_tolerance: Some(value_within(Some(paper), None, sim)),
            agreement: Some(labs::agreement(Some(paper), None, Relation::Value, sim)),
            points: 1,
            source: PaperSource {
                seed: "000".into(),
                file: String::new(),
                at: String::new(),
            },
        }
    }

    #[test]
    fn tolerance_is_ten_percent_or_the_papers_range() {
        assert_eq!(within_tolerance(&cmp("a", "1", 100.0, 109.9)), Some(true));
        assert_eq!(within_tolerance(&cmp("a", "1", 100.0, 111.0)), Some(false));
        let mut c = cmp("a", "1", 4.0, 1.2);
        c.paper_range = Some([1.0, 7.0]);
        c.agreement = Some(labs::agreement(None, c.paper_range, Relation::Percent, 1.2));
        assert_eq!(within_tolerance(&c), Some(true));
    }

    #[test]
    fn a_range_is_judged_by_being_inside_it_never_by_a_middle_value() {
        let r = Some([0.0, 0.5]);
        assert_eq!(
            labs::agreement(None, r, Relation::Value, 0.0285),
            Agreement::InsideRange
        );
        assert_eq!(
            labs::agreement(None, r, Relation::Value, 0.51),
            Agreement::Outside
        );
    }

    #[test]
    fn an_effect_needs_the_papers_sign_and_a_size_within_a_factor_of_one_and_a_half() {
        // Lab 2: HighSpeed's gain over Standard, +14 % in the paper.
        let gain = |sim| labs::agreement(Some(14.0), None, Relation::Percent, sim);
        assert_eq!(gain(10.0), Agreement::EffectWithinFactor);
        assert_eq!(gain(20.9), Agreement::EffectWithinFactor);
        assert_eq!(
            gain(6.1),
            Agreement::Outside,
            "3.2 % would pass a ±10 %-of-line-rate test"
        );
        assert_eq!(gain(-14.0), Agreement::Outside);
        // A loss (txqueuelen 250 against 100: −5.3 %) is an effect too.
        let loss = |sim| labs::agreement(Some(-5.3), None, Relation::Percent, sim);
        assert_eq!(loss(-4.0), Agreement::EffectWithinFactor);
        assert_eq!(
            loss(0.0),
            Agreement::Outside,
            "no effect is not the paper's effect"
        );
    }

    #[test]
    fn orderings_are_averaged_per_lab() {
        let lab = |held: usize, total: usize| LabFidelity {
            lab: String::new(),
            number: 0,
            title: String::new(),
            comparisons: vec![],
            values_compared: 0,
            values_within_tolerance: 0,
            orderings: (0..total)
                .map(|i| OrderingCheck {
                    higher: String::new(),
                    lower: String::new(),
                    held: i < held,
                })
                .collect(),
            spearman: None,
            findings: vec![],
        };
        let (big, small, none) = (lab(96, 96), lab(0, 2), lab(0, 0));
        assert_eq!(
            mean_orderings_held_per_lab(&[&big, &small, &none]),
            Some(0.5)
        );
    }

    #[test]
    fn orderings_across_series_and_along_x_ignore_ties() {
        let c = vec![
            cmp("reno", "100", 828.0, 700.0),
            cmp("highspeed", "100", 900.0, 690.0),
            cmp("reno", "250", 966.0, 900.0),
            cmp("highspeed", "250", 966.0, 950.0),
        ];
        let o = orderings(&c);
        // reno < highspeed at 100 (broken), reno 100 < 250 (held),
        // highspeed 100 < 250 (held); the tie at 250 makes no claim.
        assert_eq!(o.len(), 3, "{o:?}");
        assert_eq!(o.iter().filter(|o| o.held).count(), 2);
        assert!(!o[0].held && o[0].higher.starts_with("highspeed"));
    }

    #[test]
    fn spearman_of_identical_and_reversed_rankings() {
        assert_eq!(spearman(&[1.0, 2.0, 3.0], &[1.0, 2.0, 3.0]), Some(1.0));
        assert_eq!(spearman(&[1.0, 2.0, 3.0], &[3.0, 2.0, 1.0]), Some(-1.0));
    }
}
