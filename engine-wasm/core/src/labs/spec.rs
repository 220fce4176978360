//! The `labs.json` schema: a guided lab, its swept control, its series
//! and its guide text. The metrics it plots are in `metric.rs`, the
//! scenario changes a series or the quick scale makes in `patch.rs`.

use super::metric::Metric;
use super::patch::ScenarioPatch;
use crate::scenario::Scenario;
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
    /// The first flow's start is jittered too: for labs on a link whose
    /// rate follows a trace, where the moment a download begins within the
    /// trace's variation is the run-to-run difference (a phone's user does
    /// not start on the trace's first millisecond).
    #[serde(default)]
    pub jitter_first_flow: bool,
    /// Measure throughput over this window only (from 1-s samples) instead
    /// of over the whole run (iperf's whole-run average).
    #[serde(default)]
    pub measure: Option<Measure>,
    /// Size the bottleneck buffer (and RED thresholds with it) to this many
    /// bandwidth-delay products of the bottleneck at the run's RTT, unless
    /// a series sets `buffer_pkts` itself.
    #[serde(default)]
    pub buffer_bdp_factor: Option<f64>,
    /// How the paper ranked the series, if it did (Long 2003 Table 3).
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

    /// The unit its values are counted in (for labels).
    pub fn unit(self) -> &'static str {
        match self {
            UnknownSetting::BottleneckBufferPkts => "packets",
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
    /// The source paper's archived text file name (empty for a publication
    /// catalogued in paper.json only); never shown to students.
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
    /// The base RTT of the last host's flows as a multiple of the path's
    /// (`rtt_ms`): each of them gets an extra two-way delay of
    /// (x − 1) · `rtt_ms` (`Flow::extra_delay_ms`); the other hosts keep
    /// the path's RTT. At least 1.
    RttRatio,
}

impl Axis {
    /// The axis's name in lab files (`labs.json` `sweep.axis`).
    pub fn name(self) -> String {
        serde_json::to_value(self)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_else(|| format!("{self:?}"))
    }

    /// What a value of this axis is, in words (for refusals).
    pub fn takes(self) -> &'static str {
        match self {
            Axis::StreamsPerHost | Axis::FlowPairs | Axis::MarkThresholdPkts => {
                "a whole number of at least 1"
            }
            Axis::ScalableAb => "a pair a/b",
            Axis::InitialSsthreshPkts => "a whole number, or unlimited",
            Axis::RttRatio => "a ratio of at least 1",
            Axis::WindowBytes | Axis::TxqueuelenPkts | Axis::Seed | Axis::BufferPkts => {
                "a whole number"
            }
            Axis::RttMs | Axis::BottleneckRateBps | Axis::BufferBdp => "a number",
        }
    }
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
    /// The swept value the lab's prediction question asks about (default:
    /// the last one run at the scale): set where the paper's own numbers
    /// part at another value and meet at the last (lab 3: at txqueuelen
    /// 100 the paper has 828, 897 and 948 Mb/s, above 210 all about 966).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub predict_at: Option<f64>,
}
