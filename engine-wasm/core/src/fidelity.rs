//! How close the simulation comes to the papers: every published value of a
//! lab beside its simulated value, whether the paper's orderings and trends
//! hold, and a rank correlation where the paper ranks series. Pure
//! functions over [`Comparison`]s; `sawtooth fidelity` writes the report.

use crate::labs::{self, Comparison, Lab, Metric, PointResult, Relation};
use serde::Serialize;

/// A published value counts as reproduced within this relative tolerance.
pub const VALUE_TOLERANCE: f64 = 0.10;
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
}

impl LabFidelity {
    pub fn orderings_held(&self) -> usize {
        self.orderings.iter().filter(|o| o.held).count()
    }
}

/// Is `simulated` within [`VALUE_TOLERANCE`] of `paper` (or inside the
/// paper's stated range)?
pub fn within_tolerance(c: &Comparison) -> Option<bool> {
    Some(value_within(c.paper, c.paper_range, c.simulated?))
}

/// Is `simulated` within [`VALUE_TOLERANCE`] of `paper`, or inside `range`?
pub fn value_within(paper: f64, range: Option<[f64; 2]>, simulated: f64) -> bool {
    if let Some([lo, hi]) = range {
        if simulated >= lo.min(hi) && simulated <= hi.max(lo) {
            return true;
        }
    }
    let scale = paper.abs().max(1e-12);
    (simulated - paper).abs() <= VALUE_TOLERANCE * scale
}

/// A short, readable name of what a comparison measures.
pub fn describe(c: &Comparison) -> String {
    let mut s = c.series.clone();
    match (c.relation, &c.relative_to) {
        (Relation::Difference, Some(r)) => s = format!("{s} − {r}"),
        (Relation::Percent, Some(r)) => s = format!("{s} vs {r} (%)"),
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
    let same_line = a.series == b.series && a.group == b.group && a.relative_to == b.relative_to;
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
            let (Some(sa), Some(sb)) = (a.simulated, b.simulated) else {
                continue;
            };
            let scale = a.paper.abs().max(b.paper.abs()).max(1e-12);
            if (a.paper - b.paper).abs() <= TIE_TOLERANCE * scale {
                continue;
            }
            let (hi, lo, shi, slo) = if a.paper > b.paper {
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

/// The fidelity of one lab from its sweep results.
pub fn assess(lab: &Lab, results: &[PointResult]) -> LabFidelity {
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
        .filter_map(|c| Some((c.paper, c.simulated?)))
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
            at: at.into(),
            paper,
            paper_range: None,
            unit: "Mb/s".into(),
            simulated: Some(sim),
            difference: Some(sim - paper),
            within_tolerance: Some(value_within(paper, None, sim)),
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
        assert_eq!(within_tolerance(&c), Some(true));
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
