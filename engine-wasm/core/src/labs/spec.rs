//! The `labs.json` schema: a guided lab, its swept control, its series,
//! the metrics it plots and its guide text.

use crate::scenario::{Aqm, LatencyProbe, Scenario};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::{self, Display};
use ts_rs::TS;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export, export_to = "labs.ts")]
pub struct LabsFile {
    pub version: u32,
    pub labs: Vec<Lab>,
}

/// One guided experiment: a base scenario, one swept control, several
/// series (who runs what), the metrics to plot and the guide text.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export, export_to = "labs.ts")]
pub struct Lab {
    pub id: String,
    pub number: u32,
    pub title: String,
    /// One sentence for the lab list.
    pub summary: String,
    pub sources: Vec<Source>,
    /// A complete, valid scenario; series, the sweep and the scale modify a
    /// copy of it.
    pub base: Scenario,
    pub sweep: Sweep,
    pub series: Vec<Series>,
    /// What to plot against the swept value, most important first.
    pub metrics: Vec<Metric>,
    /// Repetitions (each seed is one run per series and x). Empty: the
    /// base scenario's seed only.
    #[serde(default)]
    pub seeds: Vec<u32>,
    /// Each flow after the first starts up to this much later, by an
    /// amount fixed by the seed: the start-up jitter of real runs (flows
    /// started by hand or by script). The profiles' clocks (timer-tick and
    /// interrupt phases, each port's offset within Ethernet's ±100 ppm)
    /// are the only other run-to-run difference.
    #[serde(default)]
    pub start_jitter_ms: f64,
    /// Measure throughput over this window only (from 1-s samples) instead
    /// of over the whole run (iperf's whole-run average).
    #[serde(default)]
    pub measure: Option<Measure>,
    /// Size the bottleneck buffer (and RED thresholds with it) to this many
    /// bandwidth-delay products of the bottleneck at the run's RTT, unless
    /// a series sets `buffer_pkts` itself.
    #[serde(default)]
    pub buffer_bdp_factor: Option<f64>,
    /// How the paper ranked the series, if it did (seed 000 Table 3).
    #[serde(default)]
    pub ranking: Option<Ranking>,
    /// The browser-sized version of the lab: the default click.
    pub quick: Quick,
    pub guide: Guide,
    /// Keys of the published values the ablation view shows (most telling
    /// first). Empty: each series' mean of the first metric.
    #[serde(default)]
    pub headline: Vec<String>,
    /// Settings the papers do not state: the lab runs at an assumed value,
    /// and the ablation view runs it again at each end of the plausible
    /// range, so the band the unknown spans is shown beside the paper.
    #[serde(default)]
    pub unknowns: Vec<StatedUnknown>,
}

/// A setting the papers do not give, stated as unknown: the value the lab
/// assumes and the plausible range it is run across.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export, export_to = "labs.ts")]
pub struct StatedUnknown {
    pub id: String,
    /// What it is, in words ("the switch's egress buffer").
    pub name: String,
    pub setting: UnknownSetting,
    /// The value every run of the lab assumes (the lab's base scenario).
    pub assumed: f64,
    /// The ends of the plausible range, low first.
    pub range: [f64; 2],
    /// What the papers say about it (or that they say nothing).
    pub why_unknown: String,
    /// Where the range comes from.
    pub range_source: String,
}

/// Which scenario setting a stated unknown varies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export, export_to = "labs.ts")]
pub enum UnknownSetting {
    /// The bottleneck's buffer, packets (`bottleneck.buffer_pkts`).
    BottleneckBufferPkts,
}

impl UnknownSetting {
    /// Set it in a scenario.
    pub fn apply(self, scenario: &mut crate::scenario::Scenario, value: f64) {
        match self {
            UnknownSetting::BottleneckBufferPkts => {
                scenario.bottleneck.buffer_pkts = value.round().max(1.0) as _;
            }
        }
    }

    /// Its value in a scenario.
    pub fn get(self, scenario: &crate::scenario::Scenario) -> f64 {
        match self {
            UnknownSetting::BottleneckBufferPkts => scenario.bottleneck.buffer_pkts as f64,
        }
    }
}

/// Where in which paper a lab comes from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export, export_to = "labs.ts")]
pub struct Source {
    /// Seed number, e.g. "000".
    pub seed: String,
    /// File name under `shared/seeds/`.
    pub file: String,
    /// Figures, tables or sections, e.g. "Fig. 31, 35, 40".
    pub refs: String,
}

/// The swept control.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export, export_to = "labs.ts")]
pub struct Sweep {
    pub axis: Axis,
    /// Axis title for the chart.
    pub label: String,
    /// Unit of the values as stored (bytes, packets, ms, …).
    pub unit: String,
    pub values: Vec<SweepValue>,
    #[serde(default)]
    pub log_scale: bool,
}

/// What a sweep value changes in the scenario.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export, export_to = "labs.ts")]
pub enum Axis {
    /// Socket buffer (advertised window) of every flow, bytes.
    WindowBytes,
    /// Interface queue of every host, packets.
    TxqueuelenPkts,
    /// Two-way propagation delay, ms.
    RttMs,
    /// Each host's flows are replicated N times (iperf -P N).
    StreamsPerHost,
    /// N flows in all, half of each of the series' two flows, each on its
    /// own host (the base must have exactly two hosts).
    FlowPairs,
    /// `[a, b]` of every Scalable TCP flow.
    ScalableAb,
    /// The run's seed.
    Seed,
    /// Initial slow-start threshold, packets; `null` is unlimited.
    InitialSsthreshPkts,
    /// Bottleneck rate, b/s.
    BottleneckRateBps,
    /// Bottleneck buffer, packets.
    BufferPkts,
    /// Bottleneck buffer in bandwidth-delay products (of the bottleneck
    /// rate and the base RTT, in wire-size packets).
    BufferBdp,
    /// The step-marking threshold K of a `step_mark` bottleneck, packets.
    MarkThresholdPkts,
}

/// One point on the swept axis: a number, an `[a, b]` pair, or `null`
/// ("unlimited", for the initial ssthresh).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(untagged)]
#[ts(export, export_to = "labs.ts")]
pub enum SweepValue {
    Number(f64),
    Pair([f64; 2]),
    Unlimited,
}

impl SweepValue {
    pub fn as_number(&self) -> Option<f64> {
        match self {
            SweepValue::Number(x) => Some(*x),
            _ => None,
        }
    }
}

impl Display for SweepValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SweepValue::Number(x) => write!(f, "{x}"),
            SweepValue::Pair([a, b]) => write!(f, "{a}/{b}"),
            SweepValue::Unlimited => write!(f, "unlimited"),
        }
    }
}

/// One line on the lab's charts: which algorithm (and parameters) each
/// flow runs, plus any scenario settings this series changes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export, export_to = "labs.ts")]
pub struct Series {
    pub id: String,
    pub label: String,
    /// Assigned to the base's flows in order (hosts first to last); if
    /// there are fewer entries than flows the last one repeats. Each entry
    /// is a "group": flows replicated from it (parallel streams, flow
    /// pairs) report their throughput together.
    pub flows: Vec<FlowSpec>,
    #[serde(default)]
    pub set: ScenarioPatch,
}

/// Algorithm and parameters for one flow of a series.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export, export_to = "labs.ts")]
pub struct FlowSpec {
    pub algorithm: String,
    #[serde(default)]
    pub params: BTreeMap<String, f64>,
    /// Legend text for this group, e.g. "client 1 (Scalable)".
    pub label: String,
    /// Counts as "the Standard TCP flow" for the standard-share metrics.
    #[serde(default)]
    pub standard: bool,
}

/// Scenario settings a series (or the quick scale) changes. Every field is
/// optional; `host_count` is applied first, then the rest.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export, export_to = "labs.ts")]
pub struct ScenarioPatch {
    /// Keep the first N hosts (or repeat the last one up to N).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub host_count: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub duration_ms: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub sample_interval_ms: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub mtu_bytes: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub rtt_ms: Option<f64>,
    /// Every host's NIC.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub nic_bps: Option<f64>,
    /// Every host's interface queue.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub txqueuelen_pkts: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub bottleneck_rate_bps: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub buffer_pkts: Option<u32>,
    /// Every flow's window.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub window_bytes: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub initial_ssthresh_pkts: Option<u32>,
    /// Set the initial ssthresh to Linux's "infinite".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub unlimited_ssthresh: Option<bool>,
    /// The bottleneck's queue discipline.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub aqm: Option<Aqm>,
    /// Add the latency probe.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub probe: Option<LatencyProbe>,
    /// Start times of the flows, in the order of `Series::flows`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub start_ms: Option<Vec<f64>>,
}

impl ScenarioPatch {
    pub(super) fn apply(&self, s: &mut Scenario) {
        if let Some(n) = self.host_count {
            let n = n.max(1) as usize;
            if s.hosts.len() > n {
                s.hosts.truncate(n);
            }
            while s.hosts.len() < n {
                let last = s.hosts.last().expect("a base has hosts").clone();
                s.hosts.push(last);
            }
        }
        if let Some(v) = self.duration_ms {
            s.duration_ms = v;
        }
        if let Some(v) = self.sample_interval_ms {
            s.sample_interval_ms = v;
        }
        if let Some(v) = self.mtu_bytes {
            s.mtu_bytes = v;
        }
        if let Some(v) = self.rtt_ms {
            s.rtt_ms = v;
        }
        if let Some(v) = self.bottleneck_rate_bps {
            s.bottleneck.rate_bps = v;
        }
        if let Some(aqm) = &self.aqm {
            s.bottleneck.aqm = aqm.clone();
        }
        if let Some(probe) = &self.probe {
            s.probe = Some(probe.clone());
        }
        if let Some(v) = self.buffer_pkts {
            scale_buffer(s, v);
        }
        if let Some(v) = self.initial_ssthresh_pkts {
            s.tcp.initial_ssthresh_pkts = Some(v);
        }
        if self.unlimited_ssthresh == Some(true) {
            s.tcp.initial_ssthresh_pkts = None;
        }
        for h in &mut s.hosts {
            if let Some(v) = self.nic_bps {
                h.nic_bps = v;
            }
            if let Some(v) = self.txqueuelen_pkts {
                h.txqueuelen_pkts = v;
            }
            if let Some(v) = self.window_bytes {
                for f in &mut h.flows {
                    f.window_bytes = v;
                }
            }
        }
        if let Some(starts) = &self.start_ms {
            for (i, f) in s.hosts.iter_mut().flat_map(|h| &mut h.flows).enumerate() {
                if let Some(t) = starts.get(i).or(starts.last()) {
                    f.start_ms = *t;
                }
            }
        }
    }
}

/// A measurement window, seconds from the start of the run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export, export_to = "labs.ts")]
pub struct Measure {
    pub from_s: f64,
    /// `null`: to the end of the run.
    #[serde(default)]
    pub to_s: Option<f64>,
}

/// How the paper ranked the series: by the mean of `by` over the sweep,
/// and where two series are within `tie_tolerance` (relative), by the mean
/// of `tie_break`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export, export_to = "labs.ts")]
pub struct Ranking {
    pub by: Metric,
    pub tie_break: Metric,
    pub tie_tolerance: f64,
}

/// The browser-sized version of a lab: shorter runs, fewer points.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export, export_to = "labs.ts")]
pub struct Quick {
    #[serde(default)]
    pub set: ScenarioPatch,
    #[serde(default)]
    pub values: Option<Vec<SweepValue>>,
    #[serde(default)]
    pub seeds: Option<Vec<u32>>,
    /// Series ids to run; `null`: all.
    #[serde(default)]
    pub series: Option<Vec<String>>,
    #[serde(default)]
    pub measure: Option<Measure>,
    /// What the quick version gives up, in one sentence.
    pub note: String,
}

/// The guide: the paper's question, a prediction to make, the control to
/// move, what the paper found and why.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export, export_to = "labs.ts")]
pub struct Guide {
    pub question: String,
    pub predict: String,
    pub control: String,
    pub paper_found: String,
    pub mechanism: String,
    /// Where the simulator's model differs from the testbed.
    pub model_differences: Vec<String>,
    /// Suggested follow-ups.
    #[serde(default)]
    pub try_next: Vec<String>,
    /// What the simulator shows: sentences whose numbers and truth come
    /// from the runs ([`crate::sim_claims`]), unlike the prose above.
    #[serde(default)]
    pub simulator: Vec<crate::sim_claims::SimClaim>,
}

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
            Metric::ProbeRttMedianMs | Metric::ProbeRttP99Ms | Metric::MeanQueueDelayMs => "ms",
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
    /// run that has both (seed 004's relative fairness).
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
            ChartMetric::Measured(Metric::GroupThroughputMbps | Metric::GroupShare)
        )
    }
}

/// Set the bottleneck buffer, scaling RED's thresholds with it.
pub(super) fn scale_buffer(s: &mut Scenario, buffer_pkts: u32) {
    let old = s.bottleneck.buffer_pkts.max(1) as f64;
    let new = buffer_pkts.max(1);
    if let Aqm::Red {
        min_th_pkts,
        max_th_pkts,
        ..
    } = &mut s.bottleneck.aqm
    {
        let k = new as f64 / old;
        *min_th_pkts = (*min_th_pkts * k).max(1.0);
        *max_th_pkts = (*max_th_pkts * k).max(*min_th_pkts + 1.0).min(new as f64);
    }
    if let Aqm::StepMark {
        threshold_pkts: Some(k),
    } = &mut s.bottleneck.aqm
    {
        *k = (*k).min(new);
    }
    s.bottleneck.buffer_pkts = new;
}
