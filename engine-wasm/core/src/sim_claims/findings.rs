//! The papers' findings (`paper.json` `findings`) judged on a lab's runs:
//! each is held, broken, waiting for runs, not run at this scale, or not
//! decidable by the lab's runs at all. The same checks as the labs' own
//! sentences ([`super::evaluate`]), so a finding and a sentence about the
//! same numbers cannot disagree.

use super::{applies, outcome, ClaimOutcome, SimClaim};
use crate::labs::{paper, Lab, PaperFinding, PaperSource, PointResult, Scale};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Where one finding stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export, export_to = "labs.ts")]
pub enum FindingStatus {
    /// Every check holds on these runs.
    Held,
    /// A check fails: the simulation does not bear the finding out.
    Broken,
    /// A run it needs has not finished.
    Pending,
    /// A series or swept value it needs is not run at this scale.
    NotRunHere,
    /// The lab's runs cannot decide it (no checks; the note says why).
    NotChecked,
}

/// One finding beside what the runs show.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
#[ts(export, export_to = "labs.ts")]
pub struct FindingOutcome {
    pub id: String,
    pub text: String,
    pub status: FindingStatus,
    /// The measured values the checks compared (where broken: where it
    /// fails).
    pub detail: String,
    pub note: Option<String>,
    pub source: PaperSource,
}

impl FindingOutcome {
    /// Decided by these runs (held or broken)?
    pub fn decided(&self) -> bool {
        matches!(self.status, FindingStatus::Held | FindingStatus::Broken)
    }
}

/// The finding as a sentence with checks (its text has no placeholders).
fn as_claim(f: &PaperFinding) -> SimClaim {
    SimClaim {
        id: f.id.clone(),
        text: f.text.replace('{', "(").replace('}', ")"),
        checks: f.checks.clone(),
        scales: Vec::new(),
    }
}

/// Judge one finding on `results` at `scale`.
pub fn judge(f: &PaperFinding, lab: &Lab, scale: Scale, results: &[PointResult]) -> FindingOutcome {
    let claim = as_claim(f);
    let (status, detail) = if f.checks.is_empty() {
        (FindingStatus::NotChecked, String::new())
    } else if !applies(&claim, lab, scale) {
        (FindingStatus::NotRunHere, String::new())
    } else {
        let o: ClaimOutcome = outcome(&claim, &super::values::Runs::new(lab, scale, results));
        let status = match o.holds {
            Some(true) => FindingStatus::Held,
            Some(false) => FindingStatus::Broken,
            None => FindingStatus::Pending,
        };
        (status, o.detail)
    };
    FindingOutcome {
        id: f.id.clone(),
        text: f.text.clone(),
        status,
        detail,
        note: f.note.clone(),
        source: f.source.clone(),
    }
}

/// Every finding of the lab, judged on `results` at `scale`.
pub fn evaluate_findings(lab: &Lab, scale: Scale, results: &[PointResult]) -> Vec<FindingOutcome> {
    paper()
        .findings
        .iter()
        .filter(|f| f.lab == lab.id)
        .map(|f| judge(f, lab, scale, results))
        .collect()
}

/// Every problem with the shipped findings, as text (empty: none): ids
/// unique per lab, series and checks valid, every checked finding decidable
/// at the faithful scale, and a note on every finding left unchecked.
pub fn validate_findings(lab: &Lab) -> Vec<String> {
    let mut errors = Vec::new();
    let mut ids = std::collections::BTreeSet::new();
    for f in paper().findings.iter().filter(|f| f.lab == lab.id) {
        let mut err = |e: String| errors.push(format!("lab {} finding {:?}: {e}", lab.id, f.id));
        if f.id.is_empty() || !ids.insert(f.id.clone()) {
            err("id empty or repeated".into());
        }
        if f.text.contains('{') || f.text.contains('}') {
            err("braces in the text (findings have no placeholders)".into());
        }
        for s in &f.series {
            if lab.series(s).is_none() {
                err(format!("no series {s}"));
            }
        }
        if f.checks.is_empty() {
            if f.note.as_deref().map_or(true, str::is_empty) {
                err("unchecked without a note saying why".into());
            }
            continue;
        }
        for c in &f.checks {
            for e in super::check_problems(c) {
                err(e);
            }
            for s in &c.series {
                if lab.series(s).is_none() {
                    err(format!("check names no series {s}"));
                }
            }
        }
        if !applies(&as_claim(f), lab, Scale::Full) {
            err(
                "not decidable at the faithful scale (a series or swept value it never runs)"
                    .into(),
            );
        }
    }
    errors
}
