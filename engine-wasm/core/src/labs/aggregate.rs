//! Seed averaging, in one place: the mean (with min and max) of a metric
//! over repeated runs, as the paper comparison, the ranking and the app's
//! result charts show it; and the metric that needs a run's flow groups
//! besides its measurements (relative fairness).

use super::measure::PointResult;
use super::metric::{ChartMetric, DerivedMetric, Metric};
use super::spec::{Lab, Series, SweepValue};
use super::sweep::SweepPoint;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use ts_rs::TS;

/// What the runs that have a value give: their mean, min and max.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spread {
    pub mean: f64,
    pub min: f64,
    pub max: f64,
    /// Runs with a value (those averaged).
    pub runs: u32,
}

/// The mean, min and max of the defined values (`None` in a run: the metric
/// is undefined there, e.g. a time never reached); `None` when no run has a
/// value. The mean sums in the order given, so the same runs in the same
/// order always give the same bits.
pub fn seed_mean(values: impl IntoIterator<Item = Option<f64>>) -> Option<Spread> {
    let defined: Vec<f64> = values.into_iter().flatten().collect();
    if defined.is_empty() {
        return None;
    }
    Some(Spread {
        mean: defined.iter().sum::<f64>() / defined.len() as f64,
        min: defined.iter().copied().fold(f64::INFINITY, f64::min),
        max: defined.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        runs: defined.len() as u32,
    })
}

/// Mean of a metric over every run of one series (the ranking's measure).
pub fn series_mean(results: &[PointResult], series: &str, metric: Metric) -> Option<f64> {
    seed_mean(
        results
            .iter()
            .filter(|r| r.series == series)
            .map(|r| r.value(metric, None)),
    )
    .map(|s| s.mean)
}

/// A non-Standard flow's mean throughput over a Standard flow's, in a run
/// that has both (the HighSpeed ns-2 study, relative fairness); `None` otherwise. `groups`
/// is the run's flow → series flow entry map ([`SweepPoint::groups`]).
pub fn relative_fairness(series: &Series, groups: &[u32], result: &PointResult) -> Option<f64> {
    let (mut standard_mbps, mut standard_flows) = (0.0, 0u32);
    let (mut other_mbps, mut other_flows) = (0.0, 0u32);
    for (flow, group) in groups.iter().enumerate() {
        let Some(&mbps) = result.flow_throughput_mbps.get(flow) else {
            continue;
        };
        if !mbps.is_finite() {
            continue;
        }
        if series
            .flows
            .get(*group as usize)
            .is_some_and(|f| f.standard)
        {
            standard_mbps += mbps;
            standard_flows += 1;
        } else {
            other_mbps += mbps;
            other_flows += 1;
        }
    }
    if standard_flows == 0 || other_flows == 0 || standard_mbps <= 0.0 {
        return None;
    }
    Some(other_mbps / other_flows as f64 / (standard_mbps / standard_flows as f64))
}

/// The value of `metric` (a group's, for group metrics) in one run of
/// `point`: what [`PointResult::value`] gives, or a derived metric from the
/// run's measurements and flow groups.
pub fn run_value(
    lab: &Lab,
    point: &SweepPoint,
    result: &PointResult,
    metric: ChartMetric,
    group: Option<u32>,
) -> Option<f64> {
    match metric {
        ChartMetric::Measured(m) => result.value(m, group),
        ChartMetric::Derived(DerivedMetric::RelativeFairness) => {
            relative_fairness(lab.series(&point.series)?, &point.groups, result)
        }
    }
}

/// One line of a result chart (a series, or one of its groups) at one
/// swept value: the mean over the seeds that ran, with min and max.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[ts(export, export_to = "labs.ts")]
pub struct SeedAggregate {
    pub metric: ChartMetric,
    pub series: String,
    /// The group (series flow entry) of a per-group metric; `null` otherwise.
    pub group: Option<u32>,
    pub x: SweepValue,
    /// Over the runs with a value; `null` when none has one (never reached,
    /// undefined).
    pub mean: Option<f64>,
    pub min: Option<f64>,
    pub max: Option<f64>,
    /// Each finished run's value, in sweep order (`null`: none in that run).
    pub values: Vec<Option<f64>>,
    /// The sweep's point indices of those runs.
    pub runs: Vec<u32>,
    /// Their seeds.
    pub seeds: Vec<u32>,
}

/// One series' mean of a metric over all its finished runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[ts(export, export_to = "labs.ts")]
pub struct SeriesMean {
    pub metric: ChartMetric,
    pub series: String,
    /// `null` when no run has a value.
    pub mean: Option<f64>,
}

/// What the app's result charts and tables draw for a sweep's results.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, TS)]
#[ts(export, export_to = "labs.ts")]
pub struct SweepAggregates {
    /// Per metric, series (lab order), group and swept value (sweep order),
    /// wherever at least one run has finished.
    pub at_x: Vec<SeedAggregate>,
    /// Per metric and series with finished runs.
    pub series: Vec<SeriesMean>,
}

/// The seed aggregates of `metrics` for the finished `results` of a sweep
/// whose points are `points` (each result is matched to its point by
/// series, swept value and seed; one that matches none is left out).
pub fn aggregate_sweep(
    lab: &Lab,
    points: &[SweepPoint],
    results: &[PointResult],
    metrics: &[ChartMetric],
) -> SweepAggregates {
    let key = |series: &str, x: &SweepValue, seed: u32| format!("{series}|{x}|{seed}");
    let by_point: HashMap<String, &PointResult> = results
        .iter()
        .map(|r| (key(&r.series, &r.x, r.seed), r))
        .collect();
    // (point index, point, its result), in sweep order.
    let finished: Vec<(u32, &SweepPoint, &PointResult)> = points
        .iter()
        .enumerate()
        .filter_map(|(i, p)| Some((i as u32, p, *by_point.get(&key(&p.series, &p.x, p.seed))?)))
        .collect();
    let mut xs: Vec<&SweepValue> = Vec::new();
    for p in points {
        if !xs.contains(&&p.x) {
            xs.push(&p.x);
        }
    }
    let mut out = SweepAggregates::default();
    for &metric in metrics {
        for series in lab
            .series
            .iter()
            .filter(|s| points.iter().any(|p| p.series == s.id))
        {
            let runs: Vec<&(u32, &SweepPoint, &PointResult)> = finished
                .iter()
                .filter(|(_, p, _)| p.series == series.id)
                .collect();
            if runs.is_empty() {
                continue;
            }
            let groups: Vec<Option<u32>> = if metric.per_group() {
                (0..series.flows.len() as u32).map(Some).collect()
            } else {
                vec![None]
            };
            for group in groups {
                for x in &xs {
                    let at: Vec<_> = runs.iter().filter(|(_, p, _)| p.x == **x).collect();
                    if at.is_empty() {
                        continue;
                    }
                    let values: Vec<Option<f64>> = at
                        .iter()
                        .map(|(_, p, r)| run_value(lab, p, r, metric, group))
                        .collect();
                    let spread = seed_mean(values.iter().copied());
                    out.at_x.push(SeedAggregate {
                        metric,
                        series: series.id.clone(),
                        group,
                        x: (*x).clone(),
                        mean: spread.map(|s| s.mean),
                        min: spread.map(|s| s.min),
                        max: spread.map(|s| s.max),
                        values,
                        runs: at.iter().map(|(i, _, _)| *i).collect(),
                        seeds: at.iter().map(|(_, p, _)| p.seed).collect(),
                    });
                }
            }
            let all = seed_mean(
                runs.iter()
                    .map(|(_, p, r)| run_value(lab, p, r, metric, None)),
            );
            out.series.push(SeriesMean {
                metric,
                series: series.id.clone(),
                mean: all.map(|s| s.mean),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::labs::testing::result_of;
    use crate::labs::{labs, Scale};

    const RELATIVE_FAIRNESS: ChartMetric = ChartMetric::Derived(DerivedMetric::RelativeFairness);
    const TOTAL: ChartMetric = ChartMetric::Measured(Metric::TotalThroughputMbps);

    #[test]
    fn labs_seed_mean_averages_the_defined_values_with_min_and_max() {
        let s = seed_mean([Some(400.0), None, Some(500.0)]).unwrap();
        assert_eq!((s.mean, s.min, s.max, s.runs), (450.0, 400.0, 500.0, 2));
        assert_eq!(seed_mean([None, None]), None);
        // One run: its value exactly.
        assert_eq!(seed_mean([Some(0.1 + 0.2)]).unwrap().mean, 0.1 + 0.2);
    }

    #[test]
    fn labs_relative_fairness_is_a_non_standard_flows_mean_over_a_standard_flows() {
        let lab = labs()
            .labs
            .iter()
            .find(|l| {
                l.series.iter().any(|s| {
                    s.flows.iter().any(|f| f.standard) && s.flows.iter().any(|f| !f.standard)
                })
            })
            .expect("a lab mixes Standard and other flows");
        let series = lab
            .series
            .iter()
            .find(|s| s.flows.iter().any(|f| f.standard) && s.flows.iter().any(|f| !f.standard))
            .unwrap();
        let standard = series.flows.iter().position(|f| f.standard).unwrap() as u32;
        let other = series.flows.iter().position(|f| !f.standard).unwrap() as u32;
        let point = SweepPoint {
            lab: lab.id.clone(),
            series: series.id.clone(),
            x: SweepValue::Number(4.0),
            seed: 1,
            groups: vec![other, other, standard, standard],
            scenario: lab.base.clone(),
        };
        let r = result_of(&point, &[300.0, 340.0, 100.0, 60.0]);
        let rf = run_value(lab, &point, &r, RELATIVE_FAIRNESS, None).unwrap();
        assert!((rf - 320.0 / 80.0).abs() < 1e-12);
        // Only Standard flows: undefined.
        let all_standard = SweepPoint {
            groups: vec![standard, standard],
            ..point.clone()
        };
        let r2 = result_of(&all_standard, &[100.0, 60.0]);
        assert_eq!(
            run_value(lab, &all_standard, &r2, RELATIVE_FAIRNESS, None),
            None
        );
    }

    #[test]
    fn labs_aggregates_follow_the_sweep_per_series_group_and_x() {
        let lab = crate::labs::lab("parallel-streams").expect("lab 7");
        let points = lab.expand(Scale::Quick).unwrap();
        // Every run but the first finished, each at 100 + its index Mb/s.
        let results: Vec<PointResult> = points
            .iter()
            .enumerate()
            .skip(1)
            .map(|(i, p)| {
                let n = p.groups.len() as f64;
                result_of(p, &vec![(100.0 + i as f64) / n; p.groups.len()])
            })
            .collect();
        let agg = aggregate_sweep(
            lab,
            &points,
            &results,
            &[TOTAL, ChartMetric::Measured(Metric::GroupThroughputMbps)],
        );
        let first = &points[0];
        let cell = agg
            .at_x
            .iter()
            .find(|a| a.metric == TOTAL && a.series == first.series && a.x == first.x)
            .unwrap();
        // Point 0 has no result: the other seeds at its x only.
        assert!(!cell.runs.contains(&0));
        assert_eq!(cell.runs.len(), cell.values.len());
        assert!(cell.runs.windows(2).all(|w| w[0] < w[1]));
        let vals: Vec<f64> = cell.runs.iter().map(|i| 100.0 + *i as f64).collect();
        let mean = vals.iter().sum::<f64>() / vals.len() as f64;
        assert!((cell.mean.unwrap() - mean).abs() < 1e-9);
        assert_eq!(cell.min, Some(vals[0]));
        assert_eq!(cell.max, Some(*vals.last().unwrap()));
        assert!(cell.group.is_none());
        // Per-group metrics come per group of the series.
        let groups: Vec<Option<u32>> = agg
            .at_x
            .iter()
            .filter(|a| {
                a.metric == ChartMetric::Measured(Metric::GroupThroughputMbps)
                    && a.series == first.series
                    && a.x == first.x
            })
            .map(|a| a.group)
            .collect();
        let n = lab.series(&first.series).unwrap().flows.len() as u32;
        assert_eq!(groups, (0..n).map(Some).collect::<Vec<_>>());
        // The series mean is over every finished run of the series.
        let sm = agg
            .series
            .iter()
            .find(|m| m.metric == TOTAL && m.series == first.series)
            .unwrap();
        assert_eq!(
            sm.mean,
            series_mean(&results, &first.series, Metric::TotalThroughputMbps)
        );
    }

    #[test]
    fn labs_chart_metrics_read_and_write_as_their_ids() {
        let ids: std::collections::HashSet<&str> = ChartMetric::all().map(|m| m.id()).collect();
        assert_eq!(ids.len(), ChartMetric::all().count(), "every metric once");
        for m in ChartMetric::all() {
            let json = serde_json::to_string(&m).unwrap();
            assert_eq!(json, format!("\"{}\"", m.id()));
            assert_eq!(serde_json::from_str::<ChartMetric>(&json).unwrap(), m);
        }
        assert_eq!(RELATIVE_FAIRNESS.unit(), "ratio");
        assert_eq!(
            ChartMetric::Measured(Metric::Utilisation).unit(),
            "fraction"
        );
        assert!(ChartMetric::Measured(Metric::GroupShare).per_group());
        assert!(!TOTAL.per_group());
    }
}
