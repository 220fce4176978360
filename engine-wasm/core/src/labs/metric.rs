//! What a lab measures and plots: the metrics measured from a run
//! ([`Metric`]), those derived from a run's measurements with its flow
//! groups ([`DerivedMetric`]), and either as a chart's quantity
//! ([`ChartMetric`]).

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Quantities measured from a run (and published in the papers).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export, export_to = "labs.ts")]
pub enum Metric {
    /// Payload delivered to the receiving applications, all flows, Mb/s.
    TotalThroughputMbps,
    /// Throughput of each group (series flow entry), Mb/s.
    GroupThroughputMbps,
    /// Throughput of every flow, Mb/s.
    FlowThroughputMbps,
    /// Throughput of the flows marked `standard`, Mb/s.
    StandardThroughputMbps,
    /// Fraction of all delivered payload carried by the `standard` flows.
    StandardShare,
    /// Jain's index over the flows' mean throughputs.
    JainIndex,
    /// Total throughput over the shared capacity.
    Utilisation,
    /// Seconds from flow 0's start until its 1-s average first reaches 90%
    /// of its fair share of the payload capacity.
    TimeToMaxRateS,
    /// Packets dropped in the network.
    Drops,
    /// Interface-queue refusals that started CWR (the txqueuelen effect).
    LocalCongestionEvents,
    /// (Drops + ECN marks) per delivered packet.
    CongestionEventRate,
    /// Time-average outstanding (unacknowledged) data of flow 0, kB.
    MeanOutstandingKbytes,
    /// Position of the series in the lab's ranking (1 = best).
    Rank,
    /// Each group's fraction of all delivered payload (group metric).
    GroupShare,
    /// Median round trip of the latency probe (nearest rank), ms.
    ProbeRttMedianMs,
    /// 99th-percentile round trip of the latency probe (nearest rank), ms.
    ProbeRttP99Ms,
    /// Time-average queueing delay at the bottleneck (`q.bottleneck_delay_ms`), ms.
    MeanQueueDelayMs,
    /// Time-average bottleneck queue (`q.bottleneck_pkts`), packets.
    MeanQueuePkts,
    /// Time-average outstanding data of flow 0 as tcpdump on the sending
    /// host sees it (`outstanding_captured_bytes`: handed to the NIC's
    /// driver, not yet acknowledged), kB: what tcptrace plotted in seeds
    /// 000 and 002.
    MeanCapturedOutstandingKbytes,
    /// Each group's mean queueing delay at the bottleneck: the sojourn
    /// (arrival to the start of transmission) averaged over the group's
    /// packets that left the queue inside the measurement window, ms
    /// (group metric; in a dual queue, the delay of the queue each group
    /// is classified into).
    GroupQueueDelayMs,
}

impl Metric {
    /// The unit paper values of this metric are stated in.
    pub fn unit(self) -> &'static str {
        match self {
            Metric::TotalThroughputMbps
            | Metric::GroupThroughputMbps
            | Metric::FlowThroughputMbps
            | Metric::StandardThroughputMbps => "Mb/s",
            Metric::StandardShare | Metric::Utilisation | Metric::GroupShare => "fraction",
            Metric::ProbeRttMedianMs
            | Metric::ProbeRttP99Ms
            | Metric::MeanQueueDelayMs
            | Metric::GroupQueueDelayMs => "ms",
            Metric::MeanQueuePkts => "packets",
            Metric::JainIndex => "index",
            Metric::TimeToMaxRateS => "s",
            Metric::Drops => "packets",
            Metric::LocalCongestionEvents => "events",
            Metric::CongestionEventRate => "per packet",
            Metric::MeanOutstandingKbytes | Metric::MeanCapturedOutstandingKbytes => "kB",
            Metric::Rank => "rank",
        }
    }

    pub fn id(self) -> &'static str {
        match self {
            Metric::TotalThroughputMbps => "total_throughput_mbps",
            Metric::GroupThroughputMbps => "group_throughput_mbps",
            Metric::FlowThroughputMbps => "flow_throughput_mbps",
            Metric::StandardThroughputMbps => "standard_throughput_mbps",
            Metric::StandardShare => "standard_share",
            Metric::JainIndex => "jain_index",
            Metric::Utilisation => "utilisation",
            Metric::TimeToMaxRateS => "time_to_max_rate_s",
            Metric::Drops => "drops",
            Metric::LocalCongestionEvents => "local_congestion_events",
            Metric::CongestionEventRate => "congestion_event_rate",
            Metric::MeanOutstandingKbytes => "mean_outstanding_kbytes",
            Metric::Rank => "rank",
            Metric::GroupShare => "group_share",
            Metric::ProbeRttMedianMs => "probe_rtt_median_ms",
            Metric::ProbeRttP99Ms => "probe_rtt_p99_ms",
            Metric::MeanQueueDelayMs => "mean_queue_delay_ms",
            Metric::MeanQueuePkts => "mean_queue_pkts",
            Metric::MeanCapturedOutstandingKbytes => "mean_captured_outstanding_kbytes",
            Metric::GroupQueueDelayMs => "group_queue_delay_ms",
        }
    }

    /// Scalar metrics measured only for labs that list them (CSV columns of
    /// those labs only), so other labs' results are unchanged.
    pub const ON_REQUEST: [Metric; 5] = [
        Metric::ProbeRttMedianMs,
        Metric::ProbeRttP99Ms,
        Metric::MeanQueueDelayMs,
        Metric::MeanQueuePkts,
        Metric::MeanCapturedOutstandingKbytes,
    ];

    /// The scalar metrics, in CSV column order.
    pub const SCALARS: [Metric; 10] = [
        Metric::TotalThroughputMbps,
        Metric::StandardThroughputMbps,
        Metric::StandardShare,
        Metric::JainIndex,
        Metric::Utilisation,
        Metric::TimeToMaxRateS,
        Metric::Drops,
        Metric::LocalCongestionEvents,
        Metric::CongestionEventRate,
        Metric::MeanOutstandingKbytes,
    ];

    /// Every metric: the scalars, those with one value per group or flow,
    /// the rank and those measured on request. (The app's generated unit
    /// table is a `Record` over the generated `Metric` type, so a metric
    /// missing here fails its type check.)
    pub fn all() -> impl Iterator<Item = Metric> {
        Self::SCALARS
            .into_iter()
            .chain([
                Metric::GroupThroughputMbps,
                Metric::FlowThroughputMbps,
                Metric::GroupShare,
                Metric::Rank,
                Metric::GroupQueueDelayMs,
            ])
            .chain(Self::ON_REQUEST)
    }
}

/// A quantity derived from a run's measurements together with its flow
/// groups ([`super::SweepPoint::groups`]), so read with
/// [`super::run_value`] rather than measured into [`super::PointResult`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export, export_to = "labs.ts")]
pub enum DerivedMetric {
    /// A non-Standard flow's mean throughput over a Standard flow's, in a
    /// run that has both (the HighSpeed ns-2 study's relative fairness).
    RelativeFairness,
}

impl DerivedMetric {
    pub const ALL: [DerivedMetric; 1] = [DerivedMetric::RelativeFairness];
}

/// What a result chart plots: a measured metric or a derived one. Its id
/// and unit are the metric's own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(untagged)]
#[ts(export, export_to = "labs.ts")]
pub enum ChartMetric {
    Measured(Metric),
    Derived(DerivedMetric),
}

impl ChartMetric {
    /// Every chart metric: the measured ones, then the derived ones.
    pub fn all() -> impl Iterator<Item = ChartMetric> {
        Metric::all()
            .map(ChartMetric::Measured)
            .chain(DerivedMetric::ALL.into_iter().map(ChartMetric::Derived))
    }

    pub fn id(self) -> &'static str {
        match self {
            ChartMetric::Measured(m) => m.id(),
            ChartMetric::Derived(DerivedMetric::RelativeFairness) => "relative_fairness",
        }
    }

    /// The unit values are stated in ("fraction": 0…1).
    pub fn unit(self) -> &'static str {
        match self {
            ChartMetric::Measured(m) => m.unit(),
            ChartMetric::Derived(DerivedMetric::RelativeFairness) => "ratio",
        }
    }

    /// One value per group (series flow entry): a chart draws one line per
    /// group, the seed aggregates come per group.
    pub fn per_group(self) -> bool {
        matches!(
            self,
            ChartMetric::Measured(
                Metric::GroupThroughputMbps | Metric::GroupShare | Metric::GroupQueueDelayMs
            )
        )
    }
}
