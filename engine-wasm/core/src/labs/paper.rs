//! The `paper.json` schema: the papers' published measurements, parameter
//! settings and findings, and the papers themselves.

use super::check::Check;
use super::metric::Metric;
use super::spec::SweepValue;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export, export_to = "labs.ts")]
pub struct PaperFile {
    pub version: u32,
    /// Numbers the papers measured.
    pub values: Vec<PaperValue>,
    /// Published parameter settings (not measurements), e.g. the HighSpeed ns-2 study's
    /// High Window per link speed.
    pub parameters: Vec<PaperParameter>,
    /// What the papers found (who gains most, the direction and size of an
    /// effect, equalities, starvation, fairness), each with the checks that
    /// decide whether a simulation bears it out.
    pub findings: Vec<PaperFinding>,
    /// The papers themselves, as students cite them.
    pub papers: Vec<Paper>,
}

/// One of the five source papers (`seed` is its short number, 000–004, the
/// id labs.json's sources use; never shown to students).
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
    /// The number the paper gives; absent where it gives only a range
    /// (no middle value is invented).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub value: Option<f64>,
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
    /// For an effect across the sweep (one setting against another, as
    /// "txqueuelen above 210 against 100"): the swept value `relative_to`
    /// is taken at. Absent: at the same x as this value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub relative_to_x: Option<f64>,
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

/// One finding of a paper, as a checkable statement.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export, export_to = "labs.ts")]
pub struct PaperFinding {
    /// Unique within the lab.
    pub id: String,
    pub lab: String,
    /// Series the finding is about (may be empty).
    #[serde(default)]
    pub series: Vec<String>,
    /// The finding in plain words, as the page states it.
    pub text: String,
    /// Every check must hold for the simulation to bear the finding out
    /// (the [`Check`] language of the lab sentences).
    /// Empty: the lab's runs cannot decide it; `note` says why.
    #[serde(default)]
    pub checks: Vec<Check>,
    /// How the words were read into checks ("about half": within ±10 % of
    /// ½), or why the finding is not checked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub note: Option<String>,
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
        let rel = match (rel.is_empty(), self.relative_to_x) {
            (false, Some(bx)) => format!("{rel}@{bx}"),
            _ => rel,
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

    /// Is `x` where this entry's baseline (`relative_to`) is taken: its
    /// `relative_to_x`, or where the entry itself applies?
    pub fn baseline_applies_at(&self, x: &SweepValue) -> bool {
        match (self.relative_to_x, x.as_number()) {
            (Some(bx), Some(v)) => same_setting(bx, v),
            (Some(_), None) => false,
            (None, _) => self.applies_at(x),
        }
    }

    /// Does this entry apply at swept value `x`?
    pub fn applies_at(&self, x: &SweepValue) -> bool {
        match (self.x, self.x_range, x.as_number()) {
            (Some(px), _, Some(v)) => same_setting(px, v),
            (Some(_), _, None) => false,
            (None, Some([a, b]), Some(v)) => v >= a && v <= b,
            (None, Some(_), None) => false,
            (None, None, _) => true,
        }
    }
}

/// A published setting and a swept value name the same point: equal up to
/// the rounding a value picks up on its way through JSON.
fn same_setting(published: f64, swept: f64) -> bool {
    (published - swept).abs() <= 1e-9 * published.abs().max(1.0)
}
