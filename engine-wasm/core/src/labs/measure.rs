//! Measurement: running one sweep point and extracting the lab's metrics
//! from the finished run.

use super::metric::Metric;
use super::spec::{Lab, SweepValue};
use super::sweep::{ExpandError, Scale, SweepPoint};
use crate::aqm::FlowSojourn;
use crate::net::ETHERNET_OVERHEAD_BYTES;
use crate::record::col;
use crate::sim::Simulation;
use crate::summary::{jain_index, Summary};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Everything measured from one run of a sweep.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[ts(export, export_to = "labs.ts")]
pub struct PointResult {
    pub lab: String,
    pub series: String,
    pub x: SweepValue,
    pub seed: u32,
    pub total_throughput_mbps: f64,
    /// Legend text of each group.
    pub group_labels: Vec<String>,
    pub group_throughput_mbps: Vec<f64>,
    pub flow_throughput_mbps: Vec<f64>,
    pub standard_throughput_mbps: Option<f64>,
    pub standard_share: Option<f64>,
    pub jain_index: f64,
    pub utilisation: f64,
    /// Flow 0; `null` if it never got there.
    pub time_to_max_rate_s: Option<f64>,
    pub flow_time_to_max_rate_s: Vec<Option<f64>>,
    #[ts(type = "number")]
    pub drops: u64,
    #[ts(type = "number")]
    pub local_congestion_events: u64,
    #[ts(type = "number")]
    pub ecn_marks: u64,
    #[ts(type = "number")]
    pub timeouts: u64,
    pub congestion_event_rate: f64,
    pub group_congestion_event_rate: Vec<f64>,
    pub mean_outstanding_kbytes: f64,
    /// Simulated seconds.
    pub duration_s: f64,
    /// Measured only for labs that list the metric (see `Metric::ON_REQUEST`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub group_share: Option<Vec<f64>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub probe_rtt_median_ms: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub probe_rtt_p99_ms: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub mean_queue_delay_ms: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub mean_queue_pkts: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub mean_captured_outstanding_kbytes: Option<f64>,
    /// Each group's mean queueing delay, ms (`null` for a group none of
    /// whose packets left the queue in the window).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub group_queue_delay_ms: Option<Vec<Option<f64>>>,
    /// What went wrong in the run, if the engine flagged it
    /// (`flags::flag_run`): listed beside the lab's results.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub flags: Option<Vec<crate::summary::RunFlag>>,
}

impl PointResult {
    /// A result of the run `seed` of `series` at `x` in which nothing was
    /// measured: no throughput, no events, no optional metric, a 1-second
    /// run. Fakes for tests start here and set only the fields they check
    /// (`PointResult { total_throughput_mbps: 900.0, ..PointResult::blank(…) }`).
    pub fn blank(lab: &str, series: &str, x: SweepValue, seed: u32) -> PointResult {
        PointResult {
            lab: lab.into(),
            series: series.into(),
            x,
            seed,
            total_throughput_mbps: 0.0,
            group_labels: vec![],
            group_throughput_mbps: vec![],
            flow_throughput_mbps: vec![],
            standard_throughput_mbps: None,
            standard_share: None,
            jain_index: 1.0,
            utilisation: 0.0,
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

    /// The value of a metric (a group's, for group metrics). `None` where
    /// undefined (no standard flow, never reached the rate).
    pub fn value(&self, metric: Metric, group: Option<u32>) -> Option<f64> {
        match metric {
            Metric::TotalThroughputMbps => Some(self.total_throughput_mbps),
            Metric::GroupThroughputMbps => self
                .group_throughput_mbps
                .get(group.unwrap_or(0) as usize)
                .copied(),
            Metric::FlowThroughputMbps => self
                .flow_throughput_mbps
                .get(group.unwrap_or(0) as usize)
                .copied(),
            Metric::StandardThroughputMbps => self.standard_throughput_mbps,
            Metric::StandardShare => self.standard_share,
            Metric::JainIndex => Some(self.jain_index),
            Metric::Utilisation => Some(self.utilisation),
            Metric::TimeToMaxRateS => self.time_to_max_rate_s,
            Metric::Drops => Some(self.drops as f64),
            Metric::LocalCongestionEvents => Some(self.local_congestion_events as f64),
            Metric::CongestionEventRate => match group {
                Some(g) => self.group_congestion_event_rate.get(g as usize).copied(),
                None => Some(self.congestion_event_rate),
            },
            Metric::MeanOutstandingKbytes => Some(self.mean_outstanding_kbytes),
            Metric::Rank => None,
            Metric::GroupShare => self
                .group_share
                .as_ref()
                .and_then(|g| g.get(group.unwrap_or(0) as usize).copied()),
            Metric::ProbeRttMedianMs => self.probe_rtt_median_ms,
            Metric::ProbeRttP99Ms => self.probe_rtt_p99_ms,
            Metric::MeanQueueDelayMs => self.mean_queue_delay_ms,
            Metric::MeanQueuePkts => self.mean_queue_pkts,
            Metric::MeanCapturedOutstandingKbytes => self.mean_captured_outstanding_kbytes,
            Metric::GroupQueueDelayMs => self
                .group_queue_delay_ms
                .as_ref()
                .and_then(|g| g.get(group.unwrap_or(0) as usize).copied().flatten()),
        }
    }
}

/// Distinct segments each flow's receiver had taken in at the edges of
/// the lab's measurement window ([`Lab::measure_at`]). The window's
/// throughput is what crossed the bottleneck between them, so it can never
/// exceed the link; in-order delivery would also count a loss's backlog
/// released inside the window although it arrived before (lab 12 read
/// 99.8 % of a link whose payload limit is 94.2 %).
#[derive(Clone, Debug, PartialEq)]
pub struct WindowCounts {
    pub from_ns: u64,
    pub to_ns: u64,
    pub from: Vec<u64>,
    pub to: Vec<u64>,
    /// Each flow's packets out of the bottleneck queue and their summed
    /// sojourn, at the window's edges.
    pub from_sojourn: Vec<FlowSojourn>,
    pub to_sojourn: Vec<FlowSojourn>,
}

fn distinct_segments(sim: &Simulation) -> Vec<u64> {
    (0..sim.flow_count())
        .map(|f| sim.flow_distinct_segments(f))
        .collect()
}

fn queue_sojourns(sim: &Simulation) -> Vec<FlowSojourn> {
    (0..sim.flow_count())
        .map(|f| sim.flow_queue_sojourn(f))
        .collect()
}

/// Run `sim` to its end, counting each flow's distinct segments at the
/// edges of the lab's measurement window on the way (`None`: the lab
/// measures the whole run).
pub fn run_measured(lab: &Lab, scale: Scale, sim: &mut Simulation) -> Option<WindowCounts> {
    let end_ns = sim.end_ns();
    let counts = lab.measure_at(scale).map(|m| {
        let at = |s: f64| ((s * 1e9).round().max(0.0) as u64).min(end_ns);
        let from_ns = at(m.from_s);
        let to_ns = m.to_s.map_or(end_ns, at).max(from_ns);
        sim.advance(from_ns);
        let from = distinct_segments(sim);
        let from_sojourn = queue_sojourns(sim);
        sim.advance(to_ns);
        WindowCounts {
            from_ns,
            to_ns,
            from,
            to: distinct_segments(sim),
            from_sojourn,
            to_sojourn: queue_sojourns(sim),
        }
    });
    sim.run_to_end();
    counts
}

/// Run one point to the end natively and measure it.
pub fn run_point(lab: &Lab, point: &SweepPoint, scale: Scale) -> Result<PointResult, ExpandError> {
    let mut sim = Simulation::new(&point.scenario).map_err(ExpandError::Invalid)?;
    let window = run_measured(lab, scale, &mut sim);
    Ok(measure(lab, point, scale, &sim, window.as_ref()))
}

/// Measure a finished (or stopped) run of `point`, with the window counts
/// [`run_measured`] took on the way (without them a windowed lab falls
/// back to the mean of the sampled in-order throughput).
pub fn measure(
    lab: &Lab,
    point: &SweepPoint,
    scale: Scale,
    sim: &Simulation,
    window_counts: Option<&WindowCounts>,
) -> PointResult {
    let summary: Summary = sim.summary();
    let s = &point.scenario;
    let rec = sim.recorder();
    let t = rec.column("t_s").unwrap_or(&[]);
    let n = summary.flows.len();
    let window = lab.measure_at(scale);

    // Per-flow throughput, whole run (iperf) or over the measurement window.
    let counted = window_counts.filter(|c| c.to_ns > c.from_ns && c.to.len() >= n);
    let flow_bps: Vec<f64> = match (window, counted) {
        (None, _) => summary
            .flows
            .iter()
            .map(|f| f.mean_throughput_bps)
            .collect(),
        (Some(_), Some(c)) => {
            let window_s = (c.to_ns - c.from_ns) as f64 / 1e9;
            let bits = s.mss_bytes() as f64 * 8.0;
            (0..n)
                .map(|f| (c.to[f] - c.from[f]) as f64 * bits / window_s)
                .collect()
        }
        (Some(m), None) => {
            let to = m.to_s.unwrap_or(f64::INFINITY);
            (0..n)
                .map(|f| {
                    let rate = rec.flow_column(f, col::THROUGHPUT_BPS);
                    let (sum, k) = t
                        .iter()
                        .zip(rate)
                        .filter(|(ts, r)| {
                            **ts > m.from_s + 1e-9 && **ts <= to + 1e-9 && r.is_finite()
                        })
                        .fold((0.0, 0usize), |(s, k), (_, r)| (s + r, k + 1));
                    if k > 0 {
                        sum / k as f64
                    } else {
                        0.0
                    }
                })
                .collect()
        }
    };
    let total_bps = match window {
        None => summary.total_throughput_bps,
        Some(_) => flow_bps.iter().sum(),
    };
    let groups_n = point
        .groups
        .iter()
        .map(|g| *g as usize + 1)
        .max()
        .unwrap_or(0);
    let series = lab.series(&point.series);
    let group_labels: Vec<String> = (0..groups_n)
        .map(|g| {
            series
                .and_then(|s| s.flows.get(g))
                .map(|f| f.label.clone())
                .unwrap_or_else(|| format!("group {g}"))
        })
        .collect();
    let mut group_bps = vec![0.0; groups_n];
    for (f, g) in point.groups.iter().enumerate() {
        group_bps[*g as usize] += flow_bps.get(f).copied().unwrap_or(0.0);
    }
    let is_standard = |f: usize| {
        series
            .and_then(|s| s.flows.get(point.groups[f] as usize))
            .is_some_and(|spec| spec.standard)
    };
    let any_standard = (0..n).any(is_standard);
    let standard_bps: f64 = (0..n)
        .filter(|f| is_standard(*f))
        .map(|f| flow_bps[f])
        .sum();
    let flow_total: f64 = flow_bps.iter().sum();
    let standard_share = any_standard.then(|| {
        if window.is_none() {
            (0..n)
                .filter(|f| is_standard(*f))
                .map(|f| summary.flows[f].share)
                .sum()
        } else if flow_total > 0.0 {
            standard_bps / flow_total
        } else {
            0.0
        }
    });

    // Time to the maximum rate: flow's 1-s average reaches 90% of its fair
    // share of the payload capacity.
    let wire = (s.mtu_bytes + ETHERNET_OVERHEAD_BYTES) as f64;
    let payload_capacity = summary.capacity_bps * s.mss_bytes() as f64 / wire;
    let per_s = (1000.0 / s.sample_interval_ms).round().max(1.0) as usize;
    let flows_flat: Vec<_> = s.hosts.iter().flat_map(|h| &h.flows).collect();
    let flow_time: Vec<Option<f64>> = (0..n)
        .map(|f| {
            let start_s = flows_flat[f].start_ms / 1e3;
            first_time_at_least(
                t,
                rec.flow_column(f, col::THROUGHPUT_BPS),
                start_s,
                per_s,
                0.9 * payload_capacity / n as f64,
            )
        })
        .collect();

    // Congestion events per delivered packet, overall and per group.
    let mss_bits = s.mss_bytes() as f64 * 8.0;
    let delivered_pkts: Vec<f64> = summary
        .flows
        .iter()
        .map(|f| {
            let active_s =
                (summary.duration_s - flows_flat[f.flow as usize].start_ms / 1e3).max(0.0);
            f.mean_throughput_bps * active_s / mss_bits
        })
        .collect();
    let events: Vec<f64> = summary
        .flows
        .iter()
        .map(|f| (f.drops + f.ecn_marks) as f64)
        .collect();
    let rate = |e: f64, d: f64| if d > 0.0 { e / d } else { 0.0 };
    let group_rate: Vec<f64> = (0..groups_n)
        .map(|g| {
            let idx = || (0..n).filter(move |f| point.groups[*f] as usize == g);
            rate(
                idx().map(|f| events[f]).sum(),
                idx().map(|f| delivered_pkts[f]).sum(),
            )
        })
        .collect();

    // Measured only for the labs that ask (other labs' results unchanged).
    let asks = |m: Metric| lab.metrics.contains(&m);
    let (from_s, to_s) = window.map_or((0.0, f64::INFINITY), |m| {
        (m.from_s, m.to_s.unwrap_or(f64::INFINITY))
    });
    let column_mean = |name: &str| {
        let v = rec.column(name)?;
        let (sum, k) = t
            .iter()
            .zip(v)
            .filter(|(ts, x)| **ts > from_s + 1e-9 && **ts <= to_s + 1e-9 && x.is_finite())
            .fold((0.0, 0usize), |(s, k), (_, x)| (s + x, k + 1));
        (k > 0).then(|| sum / k as f64)
    };
    let probe_rtts = || {
        // Probes sent inside the measurement window, nearest rank (as the summary).
        let mut rtts: Vec<u64> = sim
            .probe_samples()
            .iter()
            .filter(|p| {
                let sent_s = p.sent_ns as f64 / 1e9;
                sent_s >= from_s && sent_s <= to_s
            })
            .map(|p| p.rtt_ns)
            .collect();
        rtts.sort_unstable();
        rtts
    };
    let probe_pct =
        |pct: f64| crate::summary::nearest_rank(&probe_rtts(), pct).map(|ns| ns as f64 / 1e6);
    let group_share = asks(Metric::GroupShare).then(|| {
        group_bps
            .iter()
            .map(|b| {
                if flow_total > 0.0 {
                    b / flow_total
                } else {
                    0.0
                }
            })
            .collect()
    });

    // Each group's packets out of the bottleneck queue inside the window
    // (the whole run without window counts) and their mean sojourn.
    let group_queue_delay_ms = asks(Metric::GroupQueueDelayMs).then(|| {
        let in_window = |f: usize| {
            let end = sim.flow_queue_sojourn(f);
            match counted {
                Some(c) => c
                    .to_sojourn
                    .get(f)
                    .copied()
                    .unwrap_or(end)
                    .since(c.from_sojourn.get(f).copied().unwrap_or_default()),
                None => end,
            }
        };
        (0..groups_n)
            .map(|g| {
                let (pkts, ns) = (0..n)
                    .filter(|f| point.groups.get(*f).is_some_and(|x| *x as usize == g))
                    .map(in_window)
                    .fold((0u64, 0u128), |(p, s), x| (p + x.pkts, s + x.sojourn_ns));
                (pkts > 0).then(|| ns as f64 / pkts as f64 / 1e6)
            })
            .collect()
    });

    // Flow 0's time-average of a column over the samples while it ran, kB.
    let active_mean_kbytes = |c: usize| {
        let (sum, n) = rec
            .flow_column(0, c)
            .iter()
            .zip(rec.flow_column(0, col::STATE))
            .filter(|(_, st)| st.is_finite())
            .fold((0.0, 0usize), |(s, k), (o, _)| (s + o, k + 1));
        if n > 0 {
            sum / n as f64 / 1e3
        } else {
            0.0
        }
    };

    PointResult {
        lab: lab.id.clone(),
        series: point.series.clone(),
        x: point.x.clone(),
        seed: point.seed,
        total_throughput_mbps: total_bps / 1e6,
        group_labels,
        group_throughput_mbps: group_bps.iter().map(|b| b / 1e6).collect(),
        flow_throughput_mbps: flow_bps.iter().map(|b| b / 1e6).collect(),
        standard_throughput_mbps: any_standard.then_some(standard_bps / 1e6),
        standard_share,
        jain_index: jain_index(&flow_bps),
        utilisation: total_bps / summary.capacity_bps,
        time_to_max_rate_s: flow_time.first().copied().flatten(),
        flow_time_to_max_rate_s: flow_time,
        drops: summary.flows.iter().map(|f| f.drops).sum(),
        local_congestion_events: summary
            .flows
            .iter()
            .map(|f| f.local_congestion_events)
            .sum(),
        ecn_marks: summary.ecn_marks,
        timeouts: summary.flows.iter().map(|f| f.timeouts).sum(),
        congestion_event_rate: rate(events.iter().sum(), delivered_pkts.iter().sum()),
        group_congestion_event_rate: group_rate,
        mean_outstanding_kbytes: active_mean_kbytes(col::OUTSTANDING_BYTES),
        duration_s: summary.duration_s,
        group_share,
        probe_rtt_median_ms: asks(Metric::ProbeRttMedianMs)
            .then(|| probe_pct(50.0))
            .flatten(),
        probe_rtt_p99_ms: asks(Metric::ProbeRttP99Ms)
            .then(|| probe_pct(99.0))
            .flatten(),
        mean_queue_delay_ms: asks(Metric::MeanQueueDelayMs)
            .then(|| column_mean("q.bottleneck_delay_ms"))
            .flatten(),
        mean_queue_pkts: asks(Metric::MeanQueuePkts)
            .then(|| column_mean("q.bottleneck_pkts"))
            .flatten(),
        mean_captured_outstanding_kbytes: asks(Metric::MeanCapturedOutstandingKbytes)
            .then(|| active_mean_kbytes(col::OUTSTANDING_CAPTURED_BYTES)),
        group_queue_delay_ms,
        flags: summary.flags.clone(),
    }
}

/// First time (s after `start_s`) the `window`-sample moving average of
/// `rate` reaches `target`.
fn first_time_at_least(
    t: &[f64],
    rate: &[f64],
    start_s: f64,
    window: usize,
    target: f64,
) -> Option<f64> {
    let idx: Vec<usize> = (0..t.len())
        .filter(|&i| t[i] > start_s && rate[i].is_finite())
        .collect();
    let mut sum = 0.0;
    for (k, &i) in idx.iter().enumerate() {
        sum += rate[i];
        if k >= window {
            sum -= rate[idx[k - window]];
        }
        if k + 1 >= window.min(idx.len()) && sum / (k + 1).min(window) as f64 >= target {
            return Some(t[i] - start_s);
        }
    }
    None
}
