//! The run summary: per-flow and per-host throughput, shares,
//! Jain's fairness index, utilisation, drops and congestion-event counts.
//! A pure function of the scenario, the run's totals ([`RunTotals`], which
//! the simulation fills) and its recorded samples: it knows nothing of the
//! simulation's insides.

use crate::record::{col, Recorder};
use crate::scenario::Scenario;
use crate::tcp::SenderStats;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// What a run has counted by `now_ns`: everything the summary needs
/// besides the scenario and the recorder (its samples and the count of
/// events it did not store).
#[derive(Clone, Debug, Default)]
pub struct RunTotals {
    pub now_ns: u64,
    /// In flow order (hosts in order, each host's flows in order).
    pub flows: Vec<FlowTotals>,
    /// Data packets dropped and marked at the bottleneck (probes not
    /// counted).
    pub bottleneck_drops: u64,
    pub bottleneck_ecn_marks: u64,
    /// Data packets that finished crossing the bottleneck.
    pub bottleneck_sent_pkts: u64,
    /// The latency probe's counts, when the scenario has a probe.
    pub probe: Option<ProbeTotals>,
}

/// One flow's counts.
#[derive(Clone, Debug, Default)]
pub struct FlowTotals {
    pub host: usize,
    pub algorithm: String,
    pub start_ns: u64,
    /// `u64::MAX` for a flow that runs to the end.
    pub stop_ns: u64,
    /// Segments delivered in order to the receiving application.
    pub delivered_segments: u64,
    /// Dropped at the bottleneck or by random loss.
    pub network_drops: u64,
    pub ecn_marks: u64,
    pub sender: SenderStats,
}

/// The latency probe's counts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProbeTotals {
    pub sent: u64,
    /// Dropped at the bottleneck.
    pub lost: u64,
    /// Round trips of the probes that came back, in order of return.
    pub rtts_ns: Vec<u64>,
}

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

/// What went wrong in a run (`flags::flag_run`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export, export_to = "summary.ts")]
pub enum FlagKind {
    Retransmissions,
    Timeouts,
    IdleLink,
}

/// One thing that went wrong in a run, in words.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[ts(export, export_to = "summary.ts")]
pub struct RunFlag {
    pub kind: FlagKind,
    /// The flow it concerns (absent for the link).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub flow: Option<u32>,
    /// What happened and the setting most likely responsible.
    pub text: String,
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
    /// What went wrong, if anything (`flags::flag_run`): a run with flags
    /// is not an ordinary result.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub flags: Option<Vec<RunFlag>>,
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

fn probe_summary(probe: &ProbeTotals) -> ProbeSummary {
    let mut rtts = probe.rtts_ns.clone();
    rtts.sort_unstable();
    let ms = |ns: Option<u64>| ns.map(|ns| ns as f64 / 1e6);
    let mean = (!rtts.is_empty())
        .then(|| rtts.iter().map(|&x| x as f64).sum::<f64>() / rtts.len() as f64 / 1e6);
    ProbeSummary {
        sent: probe.sent,
        received: rtts.len() as u64,
        lost: probe.lost,
        rtt_median_ms: ms(nearest_rank(&rtts, 50.0)),
        rtt_p99_ms: ms(nearest_rank(&rtts, 99.0)),
        rtt_min_ms: ms(rtts.first().copied()),
        rtt_mean_ms: mean,
    }
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

/// The summary of a run of `s` from its totals and what `rec` recorded.
pub fn summarise(s: &Scenario, totals: &RunTotals, rec: &Recorder) -> Summary {
    let t = rec.column("t_s").unwrap_or(&[]);
    let now_s = totals.now_ns as f64 / 1e9;
    let window = (1000.0 / s.sample_interval_ms).round() as usize;
    let mss = s.mss_bytes() as f64;
    let mut flows: Vec<FlowSummary> = totals
        .flows
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let start_s = f.start_ns as f64 / 1e9;
            let stop_s = (f.stop_ns as f64 / 1e9).min(now_s);
            let active_s = (stop_s - start_s).max(0.0);
            let delivered_bits = f.delivered_segments as f64 * mss * 8.0;
            let cwnd = rec.flow_column(i, col::CWND_PKTS);
            let state = rec.flow_column(i, col::STATE);
            let (sum, n) = cwnd
                .iter()
                .zip(state)
                .filter(|(_, st)| st.is_finite())
                .fold((0.0, 0usize), |(s, n), (c, _)| (s + c, n + 1));
            let st = &f.sender;
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
    let delivered: Vec<f64> = totals
        .flows
        .iter()
        .map(|f| f.delivered_segments as f64)
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
    Summary {
        duration_s,
        jain_index: jain_index(&means),
        flows,
        hosts,
        total_throughput_bps,
        capacity_bps,
        // A trace-driven link may offer nothing within a short run.
        utilisation: if capacity_bps > 0.0 {
            total_throughput_bps / capacity_bps
        } else {
            0.0
        },
        bottleneck_drops: totals.bottleneck_drops,
        ecn_marks: totals.bottleneck_ecn_marks,
        packets_delivered: totals.bottleneck_sent_pkts,
        events_not_stored: rec.events_dropped,
        probe: totals.probe.as_ref().map(probe_summary),
        flags: None,
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

    /// Two flows on two hosts, a quarter of a 10-s run apart in what they
    /// delivered, one starting at 5 s: shares from delivered segments, each
    /// mean over the flow's own active time, utilisation over the capacity.
    #[test]
    fn summarise_hand_made_totals() {
        let mut s = Scenario::jumbo_gigabit();
        s.hosts.push(s.hosts[0].clone());
        s.hosts[1].nic_bps = 100e6;
        let flow = |host: usize, start_ns: u64, delivered_segments: u64| FlowTotals {
            host,
            algorithm: "reno".into(),
            start_ns,
            stop_ns: u64::MAX,
            delivered_segments,
            ..FlowTotals::default()
        };
        let mut totals = RunTotals {
            now_ns: 10_000_000_000,
            flows: vec![flow(0, 0, 30_000), flow(1, 5_000_000_000, 10_000)],
            bottleneck_drops: 7,
            bottleneck_ecn_marks: 2,
            bottleneck_sent_pkts: 40_003,
            probe: Some(ProbeTotals {
                sent: 6,
                lost: 1,
                rtts_ns: vec![40_000_000, 10_000_000, 30_000_000, 20_000_000],
            }),
        };
        totals.flows[0].sender.segments_sent = 30_100;
        totals.flows[0].sender.retransmissions = 301;
        let recorder = Recorder::new(2, 2, true, 0);
        let summary = summarise(&s, &totals, &recorder);
        assert_eq!(summary.duration_s, 10.0);
        let shares: Vec<f64> = summary.flows.iter().map(|f| f.share).collect();
        assert_eq!(shares, [0.75, 0.25]);
        // MTU 9000: 8948-byte segments. Flow 1 was active for 5 s.
        let bits_per_segment = 8948.0 * 8.0;
        assert_eq!(
            summary.flows[0].mean_throughput_bps,
            3000.0 * bits_per_segment
        );
        assert_eq!(
            summary.flows[1].mean_throughput_bps,
            2000.0 * bits_per_segment
        );
        assert_eq!(
            summary.hosts[1].mean_throughput_bps,
            2000.0 * bits_per_segment
        );
        // Jain over 3:2 throughputs: 25 / (2 · 13).
        assert!((summary.jain_index - 25.0 / 26.0).abs() < 1e-12);
        assert_eq!(summary.total_throughput_bps, 4000.0 * bits_per_segment);
        assert_eq!(summary.capacity_bps, 1e9, "min(bottleneck, Σ NIC 1.1 Gb/s)");
        assert!((summary.utilisation - 4000.0 * bits_per_segment / 1e9).abs() < 1e-12);
        assert_eq!(summary.flows[0].retransmission_rate, 0.01);
        assert_eq!(summary.flows[0].time_to_90pct_s, None, "no samples");
        assert_eq!(
            (
                summary.bottleneck_drops,
                summary.ecn_marks,
                summary.packets_delivered
            ),
            (7, 2, 40_003)
        );
        let probe = summary.probe.expect("the totals have a probe");
        assert_eq!((probe.sent, probe.received, probe.lost), (6, 4, 1));
        assert_eq!(probe.rtt_median_ms, Some(20.0));
        assert_eq!(probe.rtt_p99_ms, Some(40.0));
        assert_eq!(probe.rtt_min_ms, Some(10.0));
        assert_eq!(probe.rtt_mean_ms, Some(25.0));
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
