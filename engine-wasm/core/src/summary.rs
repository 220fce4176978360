//! The run summary (SPEC §5): per-flow and per-host throughput, shares,
//! Jain's fairness index, utilisation, drops and congestion-event counts.

use crate::record::col;
use crate::sim::Simulation;
use serde::Serialize;
use ts_rs::TS;

#[derive(Clone, Debug, PartialEq, Serialize, TS)]
#[ts(export, export_to = "summary.ts")]
pub struct FlowSummary {
    pub flow: u32,
    pub host: u32,
    pub algorithm: String,
    /// Payload delivered in order to the application per second of the
    /// flow's active time (what iperf reports).
    pub mean_throughput_bps: f64,
    /// This flow's fraction of all delivered payload.
    pub share: f64,
    /// Time-average of cwnd while the flow was active.
    pub mean_cwnd_pkts: f64,
    pub drops: u64,
    pub ecn_marks: u64,
    pub local_congestion_events: u64,
    pub ifq_refusals: u64,
    pub retransmits: u64,
    /// Retransmitted segments over all segments sent.
    pub retransmission_rate: f64,
    pub fast_retransmits: u64,
    pub timeouts: u64,
    /// Seconds from the flow's start until its 1-s average throughput first
    /// reached 90% of its final rate (the mean over the last tenth of the run).
    pub time_to_90pct_s: Option<f64>,
}

#[derive(Clone, Debug, PartialEq, Serialize, TS)]
#[ts(export, export_to = "summary.ts")]
pub struct HostSummary {
    pub host: u32,
    pub mean_throughput_bps: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize, TS)]
#[ts(export, export_to = "summary.ts")]
pub struct Summary {
    pub duration_s: f64,
    pub flows: Vec<FlowSummary>,
    pub hosts: Vec<HostSummary>,
    pub total_throughput_bps: f64,
    /// The rate the senders could share: min(bottleneck, sum of NIC rates).
    pub capacity_bps: f64,
    /// Total throughput over capacity (payload only, so at most
    /// MSS / wire bytes: 0.94 at MTU 1500, 0.99 at 9000).
    pub utilisation: f64,
    /// Jain's index J = (Σx)² / (N·Σx²) over the flows' mean throughputs.
    pub jain_index: f64,
    pub bottleneck_drops: u64,
    pub ecn_marks: u64,
    /// Data packets that crossed the bottleneck.
    pub packets_delivered: u64,
    pub events_not_stored: u64,
    /// The latency probe's round trips, when the scenario has a probe.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub probe: Option<ProbeSummary>,
}

/// The latency probe's round trips (`Scenario::probe`). Percentiles are
/// nearest-rank: the p-th percentile of n sorted round trips is the one of
/// rank ⌈p/100 · n⌉ (so the median of 4 is the 2nd). None when no probe
/// came back.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
#[ts(export, export_to = "summary.ts")]
pub struct ProbeSummary {
    #[ts(type = "number")]
    pub sent: u64,
    /// Replies back by the end of the run.
    #[ts(type = "number")]
    pub received: u64,
    /// Dropped at the bottleneck (probes still in flight at the end are
    /// neither received nor lost).
    #[ts(type = "number")]
    pub lost: u64,
    pub rtt_median_ms: Option<f64>,
    pub rtt_p99_ms: Option<f64>,
    pub rtt_min_ms: Option<f64>,
    pub rtt_mean_ms: Option<f64>,
}

/// The nearest-rank `pct`-th percentile of `sorted` (ascending).
pub fn nearest_rank(sorted: &[u64], pct: f64) -> Option<u64> {
    if sorted.is_empty() {
        return None;
    }
    let rank = ((pct / 100.0 * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    Some(sorted[rank - 1])
}

fn probe_summary(sim: &Simulation) -> Option<ProbeSummary> {
    let (sent, lost) = sim.probe_counts()?;
    let mut rtts: Vec<u64> = sim.probe_samples().iter().map(|s| s.rtt_ns).collect();
    rtts.sort_unstable();
    let ms = |ns: Option<u64>| ns.map(|ns| ns as f64 / 1e6);
    let mean = (!rtts.is_empty())
        .then(|| rtts.iter().map(|&x| x as f64).sum::<f64>() / rtts.len() as f64 / 1e6);
    Some(ProbeSummary {
        sent,
        received: rtts.len() as u64,
        lost,
        rtt_median_ms: ms(nearest_rank(&rtts, 50.0)),
        rtt_p99_ms: ms(nearest_rank(&rtts, 99.0)),
        rtt_min_ms: ms(rtts.first().copied()),
        rtt_mean_ms: mean,
    })
}

/// Jain's fairness index (Jain, Chiu, Hawe 1984): 1 when all equal, 1/N
/// when one flow takes everything.
pub fn jain_index(xs: &[f64]) -> f64 {
    let sum: f64 = xs.iter().sum();
    let sum_sq: f64 = xs.iter().map(|x| x * x).sum();
    if xs.is_empty() || sum_sq == 0.0 {
        return 1.0;
    }
    sum * sum / (xs.len() as f64 * sum_sq)
}

/// First time (seconds after `start_s`) at which the `window`-sample moving
/// average of `rate` reaches `fraction` of the mean of its last tenth.
pub fn time_to_fraction(
    t_s: &[f64],
    rate: &[f64],
    start_s: f64,
    window: usize,
    fraction: f64,
) -> Option<f64> {
    let idx: Vec<usize> = (0..t_s.len())
        .filter(|&i| t_s[i] > start_s && rate[i].is_finite())
        .collect();
    if idx.is_empty() {
        return None;
    }
    let tail = (idx.len() / 10).max(1);
    let final_rate = idx[idx.len() - tail..]
        .iter()
        .map(|&i| rate[i])
        .sum::<f64>()
        / tail as f64;
    if final_rate <= 0.0 {
        return None;
    }
    let window = window.max(1);
    let mut sum = 0.0;
    for (k, &i) in idx.iter().enumerate() {
        sum += rate[i];
        if k >= window {
            sum -= rate[idx[k - window]];
        }
        let n = (k + 1).min(window) as f64;
        if sum / n >= fraction * final_rate {
            return Some(t_s[i] - start_s);
        }
    }
    None
}

pub(crate) fn summarise(sim: &Simulation) -> Summary {
    let rec = sim.recorder();
    let s = sim.scenario();
    let t = rec.column("t_s").unwrap_or(&[]);
    let now_s = sim.now_ns() as f64 / 1e9;
    let window = (1000.0 / s.sample_interval_ms).round() as usize;
    let mss = s.mss_bytes() as f64;
    let mut flows: Vec<FlowSummary> = sim
        .flows
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let start_s = f.start_ns as f64 / 1e9;
            let stop_s = (f.stop_ns as f64 / 1e9).min(now_s);
            let active_s = (stop_s - start_s).max(0.0);
            let delivered_bits = f.receiver.delivered_segments as f64 * mss * 8.0;
            let cwnd = rec.flow_column(i, col::CWND_PKTS);
            let state = rec.flow_column(i, col::STATE);
            let (sum, n) = cwnd
                .iter()
                .zip(state)
                .filter(|(_, st)| st.is_finite())
                .fold((0.0, 0usize), |(s, n), (c, _)| (s + c, n + 1));
            let st = &f.sender.stats;
            FlowSummary {
                flow: i as u32,
                host: f.host as u32,
                algorithm: f.algorithm.clone(),
                mean_throughput_bps: if active_s > 0.0 {
                    delivered_bits / active_s
                } else {
                    0.0
                },
                share: 0.0,
                mean_cwnd_pkts: if n > 0 { sum / n as f64 } else { 0.0 },
                drops: f.network_drops,
                ecn_marks: f.ecn_marks,
                local_congestion_events: st.local_congestion_events,
                ifq_refusals: st.ifq_refusals,
                retransmits: st.retransmissions,
                retransmission_rate: if st.segments_sent > 0 {
                    st.retransmissions as f64 / st.segments_sent as f64
                } else {
                    0.0
                },
                fast_retransmits: st.fast_retransmits,
                timeouts: st.timeouts,
                time_to_90pct_s: time_to_fraction(
                    t,
                    rec.flow_column(i, col::THROUGHPUT_BPS),
                    start_s,
                    window,
                    0.9,
                ),
            }
        })
        .collect();
    let delivered: Vec<f64> = sim
        .flows
        .iter()
        .map(|f| f.receiver.delivered_segments as f64)
        .collect();
    let total_delivered: f64 = delivered.iter().sum();
    for (fs, d) in flows.iter_mut().zip(&delivered) {
        fs.share = if total_delivered > 0.0 {
            d / total_delivered
        } else {
            0.0
        };
    }
    let duration_s = now_s;
    let total_bits = total_delivered * mss * 8.0;
    let total_throughput_bps = if duration_s > 0.0 {
        total_bits / duration_s
    } else {
        0.0
    };
    let capacity_bps = s.capacity_bps();
    let hosts = (0..s.hosts.len())
        .map(|h| HostSummary {
            host: h as u32,
            mean_throughput_bps: flows
                .iter()
                .filter(|f| f.host == h as u32)
                .map(|f| f.mean_throughput_bps)
                .sum(),
        })
        .collect();
    let means: Vec<f64> = flows.iter().map(|f| f.mean_throughput_bps).collect();
    let port = sim.bottleneck();
    Summary {
        duration_s,
        jain_index: jain_index(&means),
        flows,
        hosts,
        total_throughput_bps,
        capacity_bps,
        utilisation: total_throughput_bps / capacity_bps,
        bottleneck_drops: port.signals.drops,
        ecn_marks: port.signals.marks,
        packets_delivered: port.sent_pkts,
        events_not_stored: rec.events_dropped,
        probe: probe_summary(sim),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jain_index_is_one_when_equal_and_one_over_n_when_one_takes_all() {
        assert!((jain_index(&[5.0, 5.0, 5.0]) - 1.0).abs() < 1e-12);
        assert!((jain_index(&[9.0, 0.0, 0.0]) - 1.0 / 3.0).abs() < 1e-12);
        assert!((jain_index(&[500.0, 308.0]) - 0.94655).abs() < 1e-4);
    }

    #[test]
    fn percentiles_are_nearest_rank() {
        let xs = [10, 20, 30, 40];
        assert_eq!(nearest_rank(&xs, 50.0), Some(20));
        assert_eq!(nearest_rank(&xs, 99.0), Some(40));
        assert_eq!(nearest_rank(&xs, 0.0), Some(10));
        let hundred: Vec<u64> = (1..=100).collect();
        assert_eq!(nearest_rank(&hundred, 99.0), Some(99));
        assert_eq!(nearest_rank(&hundred, 50.0), Some(50));
        assert_eq!(nearest_rank(&[], 50.0), None);
    }

    #[test]
    fn time_to_fraction_finds_the_ramp() {
        let t: Vec<f64> = (1..=100).map(|i| i as f64 * 0.1).collect();
        let r: Vec<f64> = (1..=100).map(|i| (i as f64 * 10.0).min(500.0)).collect();
        // reaches 450 (90% of 500) at sample 45 → t = 4.5 s with no smoothing
        assert_eq!(time_to_fraction(&t, &r, 0.0, 1, 0.9), Some(4.5));
    }
}
