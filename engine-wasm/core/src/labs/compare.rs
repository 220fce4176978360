//! Paper vs simulation: the paper's ranking of the series and every
//! published value next to the simulated one.

use super::aggregate::{seed_mean, series_mean};
use super::measure::PointResult;
use super::paper::{PaperSource, PaperValue, Relation};
use super::spec::{Lab, Metric, SweepValue};
use super::{paper, paper_values};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// One paper value next to what the simulation gave.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[ts(export, export_to = "labs.ts")]
pub struct Comparison {
    pub key: String,
    pub series: String,
    pub metric: Metric,
    pub group: Option<u32>,
    pub relation: Relation,
    pub relative_to: Option<String>,
    /// The x (or x range) compared, as text.
    pub at: String,
    pub paper: f64,
    pub paper_range: Option<[f64; 2]>,
    pub unit: String,
    /// `null` when no simulated point matches (a series or x the quick
    /// scale skipped, or a metric that is undefined there).
    pub simulated: Option<f64>,
    /// simulated − paper.
    pub difference: Option<f64>,
    /// Within ±10 % of the paper or inside its stated range
    /// ([`crate::fidelity::VALUE_TOLERANCE`]); `null` for ranks and
    /// missing values.
    pub within_tolerance: Option<bool>,
    /// Simulated points (x × seeds) averaged.
    pub points: u32,
    pub source: PaperSource,
}

/// The seed mean of `metric` for one series over the runs a paper value
/// applies at, and how many runs had a value.
fn mean_over(
    results: &[PointResult],
    series: &str,
    v: &PaperValue,
    metric: Metric,
) -> (Option<f64>, u32) {
    let spread = seed_mean(
        results
            .iter()
            .filter(|r| r.series == series && v.applies_at(&r.x))
            .map(|r| r.value(metric, v.group)),
    );
    (spread.map(|s| s.mean), spread.map_or(0, |s| s.runs))
}

/// Rank the lab's series as the paper did (None if the lab has no ranking).
/// Series absent from `results` are left out.
pub fn rank_series(lab: &Lab, results: &[PointResult]) -> Option<Vec<(String, f64, f64)>> {
    let ranking = lab.ranking.as_ref()?;
    let mean = |series: &str, m: Metric| series_mean(results, series, m);
    let mut rows: Vec<(String, f64, f64)> = lab
        .series
        .iter()
        .filter_map(|s| {
            Some((
                s.id.clone(),
                mean(&s.id, ranking.by)?,
                mean(&s.id, ranking.tie_break).unwrap_or(0.0),
            ))
        })
        .collect();
    let tol = ranking.tie_tolerance;
    rows.sort_by(|a, b| {
        let close = (a.1 - b.1).abs() <= tol * a.1.abs().max(b.1.abs());
        if close {
            b.2.total_cmp(&a.2)
        } else {
            b.1.total_cmp(&a.1)
        }
    });
    Some(rows)
}

/// Every paper value of the lab next to the simulated value from `results`
/// (averaged over seeds and, for range values, over the x range).
pub fn compare(lab: &Lab, results: &[PointResult]) -> Vec<Comparison> {
    let ranks = rank_series(lab, results);
    paper_values(&lab.id)
        .into_iter()
        .map(|v| {
            let (simulated, points) = if v.metric == Metric::Rank {
                let r = ranks
                    .as_ref()
                    .and_then(|rows| rows.iter().position(|(id, _, _)| *id == v.series))
                    .map(|p| (p + 1) as f64);
                (
                    r,
                    results.iter().filter(|r| r.series == v.series).count() as u32,
                )
            } else {
                let (this, n) = mean_over(results, &v.series, v, v.metric);
                match (v.relation, &v.relative_to) {
                    (Relation::Value, _) | (_, None) => (this, n),
                    (rel, Some(other)) => {
                        let (base, _) = mean_over(results, other, v, v.metric);
                        let s = match (this, base) {
                            (Some(a), Some(b)) if rel == Relation::Difference => Some(a - b),
                            (Some(a), Some(b)) if b != 0.0 => Some(100.0 * (a / b - 1.0)),
                            _ => None,
                        };
                        (s, n)
                    }
                }
            };
            let at = match (v.x, v.x_range) {
                (Some(x), _) => format!("{x}"),
                (None, Some([a, b])) => format!("{a}..{b}"),
                (None, None) => "all".into(),
            };
            Comparison {
                key: v.key.clone(),
                series: v.series.clone(),
                metric: v.metric,
                group: v.group,
                relation: v.relation,
                relative_to: v.relative_to.clone(),
                at,
                paper: v.value,
                paper_range: v.value_range,
                unit: v.unit.clone(),
                simulated,
                difference: simulated.map(|s| s - v.value),
                within_tolerance: match v.metric {
                    Metric::Rank => None,
                    _ => {
                        simulated.map(|s| crate::fidelity::value_within(v.value, v.value_range, s))
                    }
                },
                points,
                source: v.source.clone(),
            }
        })
        .collect()
}

/// The absolute paper value of `metric` (and group) for one point, if the
/// paper has one there.
pub fn paper_value_at(
    lab_id: &str,
    series: &str,
    x: &SweepValue,
    metric: Metric,
    group: Option<u32>,
) -> Option<&'static PaperValue> {
    paper().values.iter().find(|v| {
        v.lab == lab_id
            && v.series == series
            && v.metric == metric
            && v.group == group
            && v.relation == Relation::Value
            && v.applies_at(x)
    })
}
