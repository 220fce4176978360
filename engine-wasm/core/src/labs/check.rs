//! The check language shared by the labs' own sentences
//! ([`crate::sim_claims`]) and the papers' findings (`paper.json`): an
//! ordering, an equality, a trend or a bound over the series' seed means.

use super::metric::Metric;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// What a check asserts of the series' values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export, export_to = "labs.ts")]
pub enum CheckKind {
    /// The series in the order given, highest value first (for `rank`:
    /// best place first), each ahead of the next by more than `tolerance`.
    Order,
    /// All series within `tolerance` of each other.
    Same,
    /// The first series above every other by more than `tolerance`.
    Highest,
    /// The first series below every other by more than `tolerance`.
    Lowest,
    /// For each series: the value rises along the swept values (last above
    /// first by more than `tolerance`; no step back larger than it).
    Rises,
    Falls,
    /// Each series' value is at least `bound`.
    AtLeast,
    AtMost,
    /// Each series never reaches the rate within its runs (time to the
    /// maximum rate undefined).
    NeverReached,
}

/// One check of a claim.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export, export_to = "labs.ts")]
pub struct Check {
    pub kind: CheckKind,
    pub metric: Metric,
    /// For group metrics: which series flow entry.
    #[serde(default)]
    pub group: Option<u32>,
    pub series: Vec<String>,
    /// One swept value…
    #[serde(default)]
    pub x: Option<f64>,
    /// …or the swept values in this range (inclusive); neither: every
    /// swept value of the scale.
    #[serde(default)]
    pub range: Option<[f64; 2]>,
    /// Check at each swept value of the selection rather than on the mean
    /// over it.
    #[serde(default)]
    pub each: bool,
    /// Relative margin (see the kinds).
    #[serde(default)]
    pub tolerance: f64,
    /// For `at_least` and `at_most`, in the metric's unit.
    #[serde(default)]
    pub bound: Option<f64>,
}
