//! Guided labs (SPEC §4): the eleven experiments of the source papers as data
//! (`labs/labs.json`), the papers' published measurements (`labs/paper.json`),
//! the expansion of a lab into concrete scenarios, the metrics extracted from
//! each run, and the join of simulated values to the papers' values.
//!
//! Nothing here is tuned to a paper number: a lab fixes the testbed's
//! settings (or states an assumption where the paper gives none), the engine
//! runs them, and [`compare`] puts the two side by side.

use crate::net::ETHERNET_OVERHEAD_BYTES;
use crate::record::col;
use crate::scenario::{Aqm, LatencyProbe, Scenario, ValidationError};
use crate::sim::Simulation;
use crate::summary::{jain_index, Summary};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::{self, Display};
use std::sync::OnceLock;
use ts_rs::TS;

/// The eleven labs, as shipped.
pub const LABS_JSON: &str = include_str!("../labs/labs.json");
/// Every published measurement the labs are compared against.
pub const PAPER_JSON: &str = include_str!("../labs/paper.json");

// ---------------------------------------------------------------------------
// labs.json
// ---------------------------------------------------------------------------

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
    /// amount fixed by the seed: the simulator has no run-to-run noise of
    /// its own, so this stands in for the start-up jitter of real runs.
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
    fn apply(&self, s: &mut Scenario) {
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
            Metric::MeanOutstandingKbytes => "kB",
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
        }
    }

    /// Scalar metrics measured only for labs that list them (CSV columns of
    /// those labs only), so other labs' results are unchanged.
    pub const ON_REQUEST: [Metric; 4] = [
        Metric::ProbeRttMedianMs,
        Metric::ProbeRttP99Ms,
        Metric::MeanQueueDelayMs,
        Metric::MeanQueuePkts,
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
}

// ---------------------------------------------------------------------------
// paper.json
// ---------------------------------------------------------------------------

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export, export_to = "labs.ts")]
pub struct PaperFile {
    pub version: u32,
    /// Numbers the papers measured.
    pub values: Vec<PaperValue>,
    /// Published parameter settings (not measurements), e.g. seed 004's
    /// High Window per link speed.
    pub parameters: Vec<PaperParameter>,
    /// Findings the papers state without a number.
    pub claims: Vec<PaperClaim>,
    /// The papers themselves, as students cite them.
    pub papers: Vec<Paper>,
}

/// One of the five source papers (`seed` is its file's number in
/// shared/seeds, never shown to students).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export, export_to = "labs.ts")]
pub struct Paper {
    pub seed: String,
    /// Authors as printed, or who issued it where the copy names no author.
    pub authors: String,
    pub title: String,
    /// Institution or venue.
    pub publisher: String,
    pub year: String,
    /// In running text: "Long (Sandia, 2003)".
    pub short: String,
    /// What the copy used does not say (authors, year), if anything.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub note: Option<String>,
}

/// How a paper value relates to the simulated metric.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export, export_to = "labs.ts")]
pub enum Relation {
    /// The metric itself.
    #[default]
    Value,
    /// This series minus `relative_to`, in the metric's unit.
    Difference,
    /// 100 × (this series / `relative_to` − 1), in %.
    Percent,
}

/// One published measurement.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export, export_to = "labs.ts")]
pub struct PaperValue {
    /// `lab:series:x:metric[group]`, unique; built from the fields below.
    pub key: String,
    pub lab: String,
    pub series: String,
    pub metric: Metric,
    /// For group metrics: which series flow entry (0-based).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub group: Option<u32>,
    /// The swept value it was measured at…
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub x: Option<f64>,
    /// …or the range of swept values it is an average over (inclusive).
    /// Neither: it applies to every x.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub x_range: Option<[f64; 2]>,
    pub value: f64,
    /// Where the paper gives a range ("1–7%").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub value_range: Option<[f64; 2]>,
    pub unit: String,
    #[serde(default)]
    pub relation: Relation,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub relative_to: Option<String>,
    /// Individual runs, where the paper tabulates them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub runs: Vec<f64>,
    pub source: PaperSource,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub note: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export, export_to = "labs.ts")]
pub struct PaperSource {
    pub seed: String,
    pub file: String,
    /// Table, figure, page or section.
    pub at: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export, export_to = "labs.ts")]
pub struct PaperParameter {
    pub key: String,
    pub lab: String,
    pub name: String,
    /// The condition it belongs to, e.g. "link 1000 Mb/s".
    pub condition: String,
    pub value: f64,
    pub unit: String,
    pub source: PaperSource,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export, export_to = "labs.ts")]
pub struct PaperClaim {
    pub lab: String,
    /// Series the claim is about (may be empty).
    #[serde(default)]
    pub series: Vec<String>,
    pub text: String,
    pub source: PaperSource,
}

impl PaperValue {
    /// The key this entry must carry.
    pub fn expected_key(&self) -> String {
        let x = match (self.x, self.x_range) {
            (Some(x), _) => format!("{x}"),
            (None, Some([a, b])) => format!("{a}..{b}"),
            (None, None) => "*".into(),
        };
        let rel = match (&self.relation, &self.relative_to) {
            (Relation::Value, _) | (_, None) => String::new(),
            (Relation::Difference, Some(r)) => format!("-{r}"),
            (Relation::Percent, Some(r)) => format!("%{r}"),
        };
        let group = self.group.map(|g| format!("[{g}]")).unwrap_or_default();
        format!(
            "{}:{}{}:{}:{}{}",
            self.lab,
            self.series,
            rel,
            x,
            self.metric.id(),
            group
        )
    }

    /// Does this entry apply at swept value `x`?
    pub fn applies_at(&self, x: &SweepValue) -> bool {
        match (self.x, self.x_range, x.as_number()) {
            (Some(px), _, Some(v)) => (px - v).abs() <= 1e-9 * px.abs().max(1.0),
            (Some(_), _, None) => false,
            (None, Some([a, b]), Some(v)) => v >= a && v <= b,
            (None, Some(_), None) => false,
            (None, None, _) => true,
        }
    }
}

// ---------------------------------------------------------------------------
// Loading
// ---------------------------------------------------------------------------

/// The shipped labs (parsed once).
pub fn labs() -> &'static LabsFile {
    static LABS: OnceLock<LabsFile> = OnceLock::new();
    LABS.get_or_init(|| {
        serde_path_to_error::deserialize(&mut serde_json::Deserializer::from_str(LABS_JSON))
            .unwrap_or_else(|e| panic!("labs.json does not parse at {}: {}", e.path(), e.inner()))
    })
}

/// The shipped paper values (parsed once).
pub fn paper() -> &'static PaperFile {
    static PAPER: OnceLock<PaperFile> = OnceLock::new();
    PAPER.get_or_init(|| {
        serde_path_to_error::deserialize(&mut serde_json::Deserializer::from_str(PAPER_JSON))
            .unwrap_or_else(|e| panic!("paper.json does not parse at {}: {}", e.path(), e.inner()))
    })
}

/// The labs as JSON with every field written out (defaults filled in):
/// the shape of the generated `LabsFile` TypeScript type. Give this to the
/// app rather than the raw `labs.json`, which omits defaulted fields.
pub fn labs_json() -> String {
    serde_json::to_string(labs()).expect("labs serialise")
}

/// The paper values as JSON (the generated `PaperFile` type).
pub fn paper_json() -> String {
    serde_json::to_string(paper()).expect("paper values serialise")
}

pub fn lab(id: &str) -> Option<&'static Lab> {
    labs().labs.iter().find(|l| l.id == id)
}

/// Paper values for one lab.
/// How reports name a source: "seed 000" for one of the SPEC's seed papers
/// (`../shared/seeds`), the catalogue's short citation for any other
/// publication (an RFC, a later paper), whose `file` is empty.
pub fn source_name(id: &str) -> String {
    if id.len() == 3 && id.bytes().all(|b| b.is_ascii_digit()) {
        return format!("seed {id}");
    }
    paper()
        .papers
        .iter()
        .find(|p| p.seed == id)
        .map_or_else(|| id.to_string(), |p| p.short.clone())
}

pub fn paper_values(lab_id: &str) -> Vec<&'static PaperValue> {
    paper().values.iter().filter(|v| v.lab == lab_id).collect()
}

// ---------------------------------------------------------------------------
// Expansion
// ---------------------------------------------------------------------------

/// Faithful (the paper's durations and repetitions) or quick (browser-sized).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export, export_to = "labs.ts")]
pub enum Scale {
    Full,
    Quick,
}

/// One run of a sweep.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[ts(export, export_to = "labs.ts")]
pub struct SweepPoint {
    pub lab: String,
    pub series: String,
    pub x: SweepValue,
    pub seed: u32,
    /// Which series flow entry each flow came from (flow order).
    pub groups: Vec<u32>,
    pub scenario: Scenario,
}

/// A problem expanding a lab point.
#[derive(Clone, Debug, PartialEq)]
pub enum ExpandError {
    UnknownSeries(String),
    BadValue(String),
    Invalid(Vec<ValidationError>),
}

impl Display for ExpandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExpandError::UnknownSeries(s) => write!(f, "no series {s}"),
            ExpandError::BadValue(s) => write!(f, "{s}"),
            ExpandError::Invalid(errors) => {
                let lines: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
                write!(f, "invalid scenario: {}", lines.join("; "))
            }
        }
    }
}

impl Lab {
    pub fn series(&self, id: &str) -> Option<&Series> {
        self.series.iter().find(|s| s.id == id)
    }

    /// The swept values at this scale.
    pub fn values(&self, scale: Scale) -> &[SweepValue] {
        match (scale, &self.quick.values) {
            (Scale::Quick, Some(v)) => v,
            _ => &self.sweep.values,
        }
    }

    /// The seeds at this scale.
    pub fn seeds(&self, scale: Scale) -> Vec<u32> {
        match (scale, &self.quick.seeds) {
            (Scale::Quick, Some(s)) => s.clone(),
            _ if self.seeds.is_empty() => vec![self.base.seed],
            _ => self.seeds.clone(),
        }
    }

    /// The series run at this scale.
    pub fn series_at(&self, scale: Scale) -> Vec<&Series> {
        match (scale, &self.quick.series) {
            (Scale::Quick, Some(ids)) => {
                self.series.iter().filter(|s| ids.contains(&s.id)).collect()
            }
            _ => self.series.iter().collect(),
        }
    }

    pub fn measure_at(&self, scale: Scale) -> Option<&Measure> {
        match scale {
            Scale::Quick => self.quick.measure.as_ref().or(self.measure.as_ref()),
            Scale::Full => self.measure.as_ref(),
        }
    }

    /// Every run of the lab at this scale, series by series, x by x, seed
    /// by seed.
    pub fn expand(&self, scale: Scale) -> Result<Vec<SweepPoint>, ExpandError> {
        let mut points = Vec::new();
        for series in self.series_at(scale) {
            for x in self.values(scale) {
                for seed in self.seeds(scale) {
                    points.push(self.point(&series.id, x, seed, scale)?);
                }
            }
        }
        Ok(points)
    }

    /// The concrete scenario for one (series, x, seed).
    pub fn point(
        &self,
        series_id: &str,
        x: &SweepValue,
        seed: u32,
        scale: Scale,
    ) -> Result<SweepPoint, ExpandError> {
        let series = self
            .series(series_id)
            .ok_or_else(|| ExpandError::UnknownSeries(series_id.into()))?;
        let mut s = self.base.clone();
        series.set.apply(&mut s);
        if scale == Scale::Quick {
            self.quick.set.apply(&mut s);
        }
        // Assign algorithms, one group per flow of the (patched) base.
        let mut groups: Vec<Vec<u32>> = Vec::new();
        let mut i = 0usize;
        for host in &mut s.hosts {
            let mut g = Vec::new();
            for flow in &mut host.flows {
                let k = i.min(series.flows.len().saturating_sub(1));
                let spec = series.flows.get(k).ok_or_else(|| {
                    ExpandError::BadValue(format!("series {} lists no flows", series.id))
                })?;
                flow.algorithm = spec.algorithm.clone();
                flow.params = spec.params.clone();
                g.push(k as u32);
                i += 1;
            }
            groups.push(g);
        }
        self.apply_axis(&mut s, &mut groups, x)?;
        let buffer_set = series.set.buffer_pkts.is_some()
            || (scale == Scale::Quick && self.quick.set.buffer_pkts.is_some())
            || matches!(self.sweep.axis, Axis::BufferPkts | Axis::BufferBdp);
        if let (Some(factor), false) = (self.buffer_bdp_factor, buffer_set) {
            let buffer = bdp_buffer_pkts(&s, factor);
            scale_buffer(&mut s, buffer);
        }
        s.seed = seed;
        if self.start_jitter_ms > 0.0 {
            for (i, f) in s
                .hosts
                .iter_mut()
                .flat_map(|h| &mut h.flows)
                .enumerate()
                .skip(1)
            {
                let u = unit_hash(seed, i as u32);
                f.start_ms = (f.start_ms + u * self.start_jitter_ms).min(s.duration_ms);
                f.start_ms = (f.start_ms * 1000.0).round() / 1000.0;
            }
        }
        let errors = s.validate();
        if !errors.is_empty() {
            return Err(ExpandError::Invalid(errors));
        }
        Ok(SweepPoint {
            lab: self.id.clone(),
            series: series.id.clone(),
            x: x.clone(),
            seed,
            groups: groups.into_iter().flatten().collect(),
            scenario: s,
        })
    }

    fn apply_axis(
        &self,
        s: &mut Scenario,
        groups: &mut Vec<Vec<u32>>,
        x: &SweepValue,
    ) -> Result<(), ExpandError> {
        let axis = self.sweep.axis;
        let bad = || ExpandError::BadValue(format!("{x} is not a value for axis {axis:?}"));
        let number = || x.as_number().ok_or_else(bad);
        let count = |v: f64| -> Result<usize, ExpandError> {
            if v >= 1.0 && v.fract() == 0.0 {
                Ok(v as usize)
            } else {
                Err(bad())
            }
        };
        match axis {
            Axis::WindowBytes => {
                let v = number()?;
                for f in s.hosts.iter_mut().flat_map(|h| &mut h.flows) {
                    f.window_bytes = v as u32;
                }
            }
            Axis::TxqueuelenPkts => {
                let v = number()?;
                for h in &mut s.hosts {
                    h.txqueuelen_pkts = v as u32;
                }
            }
            Axis::RttMs => s.rtt_ms = number()?,
            Axis::Seed => s.seed = number()? as u32,
            Axis::BottleneckRateBps => s.bottleneck.rate_bps = number()?,
            Axis::BufferPkts => scale_buffer(s, number()? as u32),
            Axis::BufferBdp => {
                let buffer = bdp_buffer_pkts(s, number()?);
                scale_buffer(s, buffer);
            }
            Axis::MarkThresholdPkts => {
                // A series without step marking (a drop-tail reference) runs
                // the same at every K.
                let k = count(number()?)? as u32;
                if let Aqm::StepMark { threshold_pkts } = &mut s.bottleneck.aqm {
                    *threshold_pkts = Some(k);
                }
            }
            Axis::InitialSsthreshPkts => {
                s.tcp.initial_ssthresh_pkts = match x {
                    SweepValue::Unlimited => None,
                    SweepValue::Number(v) => Some(*v as u32),
                    SweepValue::Pair(_) => return Err(bad()),
                }
            }
            Axis::ScalableAb => {
                let SweepValue::Pair([a, b]) = x else {
                    return Err(bad());
                };
                for f in s.hosts.iter_mut().flat_map(|h| &mut h.flows) {
                    if f.algorithm == "scalable" {
                        f.params.insert("a".into(), *a);
                        f.params.insert("b".into(), *b);
                    }
                }
            }
            Axis::StreamsPerHost => {
                let n = count(number()?)?;
                for (h, g) in s.hosts.iter_mut().zip(groups.iter_mut()) {
                    let flows = h.flows.clone();
                    let gs = g.clone();
                    h.flows.clear();
                    g.clear();
                    for (f, k) in flows.iter().zip(&gs) {
                        for _ in 0..n {
                            h.flows.push(f.clone());
                            g.push(*k);
                        }
                    }
                }
            }
            Axis::FlowPairs => {
                let n = count(number()?)?;
                if s.hosts.len() != 2 || n % 2 != 0 {
                    return Err(ExpandError::BadValue(format!(
                        "flow_pairs needs a base with two hosts and an even count, got {} hosts and {n}",
                        s.hosts.len()
                    )));
                }
                let mut hosts = Vec::new();
                let mut gs = Vec::new();
                for (h, g) in s.hosts.iter().zip(groups.iter()) {
                    for _ in 0..n / 2 {
                        hosts.push(h.clone());
                        gs.push(g.clone());
                    }
                }
                s.hosts = hosts;
                *groups = gs;
            }
        }
        Ok(())
    }
}

/// `factor` bandwidth-delay products of the bottleneck, in wire-size packets
/// (at least one).
fn bdp_buffer_pkts(s: &Scenario, factor: f64) -> u32 {
    let wire_bits = ((s.mtu_bytes + ETHERNET_OVERHEAD_BYTES) * 8) as f64;
    let bdp = s.bottleneck.rate_bps * s.rtt_ms / 1e3 / wire_bits;
    (factor * bdp).round().max(1.0) as u32
}

/// Set the bottleneck buffer, scaling RED's thresholds with it.
fn scale_buffer(s: &mut Scenario, buffer_pkts: u32) {
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

/// A number in [0, 1) fixed by (seed, i): SplitMix64.
fn unit_hash(seed: u32, i: u32) -> f64 {
    let mut z = ((seed as u64) << 32 | i as u64).wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    (z >> 11) as f64 / (1u64 << 53) as f64
}

// ---------------------------------------------------------------------------
// Metrics
// ---------------------------------------------------------------------------

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
}

impl PointResult {
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
        }
    }
}

/// Run one point to the end natively and measure it.
pub fn run_point(lab: &Lab, point: &SweepPoint, scale: Scale) -> Result<PointResult, ExpandError> {
    let mut sim = Simulation::new(&point.scenario).map_err(ExpandError::Invalid)?;
    sim.run_to_end();
    Ok(measure(lab, point, scale, &sim))
}

/// Measure a finished (or stopped) run of `point`. The app calls this after
/// stepping the simulation itself.
pub fn measure(lab: &Lab, point: &SweepPoint, scale: Scale, sim: &Simulation) -> PointResult {
    let summary: Summary = sim.summary();
    let s = &point.scenario;
    let rec = sim.recorder();
    let t = rec.column("t_s").unwrap_or(&[]);
    let n = summary.flows.len();
    let window = lab.measure_at(scale);

    // Per-flow throughput, whole run (iperf) or over the measurement window.
    let flow_bps: Vec<f64> = match window {
        None => summary
            .flows
            .iter()
            .map(|f| f.mean_throughput_bps)
            .collect(),
        Some(m) => {
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

    let outstanding = rec.flow_column(0, col::OUTSTANDING_BYTES);
    let state = rec.flow_column(0, col::STATE);
    let (o_sum, o_n) = outstanding
        .iter()
        .zip(state)
        .filter(|(_, st)| st.is_finite())
        .fold((0.0, 0usize), |(s, k), (o, _)| (s + o, k + 1));

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
        mean_outstanding_kbytes: if o_n > 0 {
            o_sum / o_n as f64 / 1e3
        } else {
            0.0
        },
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

// ---------------------------------------------------------------------------
// Paper vs simulation
// ---------------------------------------------------------------------------

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

fn mean_over(
    results: &[PointResult],
    series: &str,
    v: &PaperValue,
    metric: Metric,
) -> (Option<f64>, u32) {
    let vals: Vec<f64> = results
        .iter()
        .filter(|r| r.series == series && v.applies_at(&r.x))
        .filter_map(|r| r.value(metric, v.group))
        .collect();
    if vals.is_empty() {
        (None, 0)
    } else {
        (
            Some(vals.iter().sum::<f64>() / vals.len() as f64),
            vals.len() as u32,
        )
    }
}

/// Rank the lab's series as the paper did (None if the lab has no ranking).
/// Series absent from `results` are left out.
pub fn rank_series(lab: &Lab, results: &[PointResult]) -> Option<Vec<(String, f64, f64)>> {
    let ranking = lab.ranking.as_ref()?;
    let mean = |series: &str, m: Metric| {
        let v: Vec<f64> = results
            .iter()
            .filter(|r| r.series == series)
            .filter_map(|r| r.value(m, None))
            .collect();
        (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64)
    };
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
