//! Fakes for the labs' unit tests: a point's result built from its flows'
//! rates, with every other metric at a neutral value.

use super::measure::PointResult;
use super::sweep::SweepPoint;

/// The result of `point` whose flows moved `flow_mbps`.
pub fn result_of(point: &SweepPoint, flow_mbps: &[f64]) -> PointResult {
    let total: f64 = flow_mbps.iter().sum();
    PointResult {
        lab: point.lab.clone(),
        series: point.series.clone(),
        x: point.x.clone(),
        seed: point.seed,
        total_throughput_mbps: total,
        group_labels: vec![],
        group_throughput_mbps: vec![total],
        flow_throughput_mbps: flow_mbps.to_vec(),
        standard_throughput_mbps: None,
        standard_share: None,
        jain_index: 1.0,
        utilisation: total / 1000.0,
        time_to_max_rate_s: None,
        flow_time_to_max_rate_s: vec![],
        drops: 0,
        local_congestion_events: 0,
        ecn_marks: 0,
        timeouts: 0,
        congestion_event_rate: 0.0,
        group_congestion_event_rate: vec![],
        mean_outstanding_kbytes: 0.0,
        duration_s: 1.0,
        group_share: None,
        probe_rtt_median_ms: None,
        probe_rtt_p99_ms: None,
        mean_queue_delay_ms: None,
        mean_queue_pkts: None,
        mean_captured_outstanding_kbytes: None,
        group_queue_delay_ms: None,
        flags: None,
    }
}
