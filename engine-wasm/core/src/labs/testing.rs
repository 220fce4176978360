//! Fakes for the labs' unit tests: a point's result built from its flows'
//! rates, with every other metric at a neutral value.

use super::measure::PointResult;
use super::sweep::SweepPoint;

/// The result of `point` whose flows moved `flow_mbps`.
pub fn result_of(point: &SweepPoint, flow_mbps: &[f64]) -> PointResult {
    let total: f64 = flow_mbps.iter().sum();
    PointResult {
        total_throughput_mbps: total,
        group_throughput_mbps: vec![total],
        flow_throughput_mbps: flow_mbps.to_vec(),
        utilisation: total / 1000.0,
        ..PointResult::blank(&point.lab, &point.series, point.x.clone(), point.seed)
    }
}
