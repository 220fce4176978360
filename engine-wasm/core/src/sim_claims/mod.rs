//! What the simulator shows, as sentences a lab's guide makes about its own
//! runs (`guide.simulator` in labs.json), each with the checks that make it
//! true. The numbers in a sentence are placeholders filled from the results;
//! the checks (an ordering, a trend, a bound) are evaluated on the same
//! results, so a sentence that stops being true of the runs on screen is
//! shown as such rather than asserted. The app and the tests call
//! [`evaluate`]; [`validate`] checks the shipped definitions.

pub mod findings;
pub mod text;
pub mod values;

pub use crate::labs::{Check, CheckKind};
use crate::labs::{Lab, Metric, PointResult, Scale};
use serde::{Deserialize, Serialize};
use text::Piece;
use ts_rs::TS;
use values::{Measured, Runs, ValueRef, Xs};

/// One sentence about the simulated results.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export, export_to = "labs.ts")]
pub struct SimClaim {
    /// Unique within the lab.
    pub id: String,
    /// The sentence. `{series-id}` is the series' label;
    /// `{value:series@at:metric}` (or `…:metric[group]`) the seed mean of a
    /// metric at a swept value, or averaged over `a..b` or the whole sweep
    /// (`*`).
    pub text: String,
    /// Every check must hold for the sentence to be true.
    pub checks: Vec<Check>,
    /// The scales the sentence is made at; empty: both. A sentence that
    /// names a series or swept value a scale does not run is not made there.
    #[serde(default)]
    pub scales: Vec<Scale>,
}

/// One sentence as the runs so far bear it out.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
#[ts(export, export_to = "labs.ts")]
pub struct ClaimOutcome {
    pub id: String,
    /// The sentence with its placeholders filled ("…" where a value's runs
    /// have not finished).
    pub text: String,
    /// The same sentence in pieces, measured values marked.
    pub parts: Vec<ClaimPart>,
    /// `true`: every check holds for these runs; `false`: one does not;
    /// `null`: a run it is about has not finished.
    pub holds: Option<bool>,
    /// The measured values each check compared (for a sentence that does
    /// not hold, those of the swept values where it fails).
    pub detail: String,
}

/// A piece of a filled sentence.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
#[ts(export, export_to = "labs.ts")]
pub struct ClaimPart {
    pub text: String,
    /// For a measured value: its reference (`series@at:metric`).
    pub reference: Option<String>,
    /// The measured value (`null` until its runs finish, or when infinite:
    /// a rate never reached).
    pub value: Option<f64>,
}

/// The swept values a check selects.
fn xs_of(c: &Check) -> Xs {
    Xs::new(c.x, c.range)
}

/// The lab's sentences made at this scale, each evaluated on `results`.
pub fn evaluate(lab: &Lab, scale: Scale, results: &[PointResult]) -> Vec<ClaimOutcome> {
    let runs = Runs::new(lab, scale, results);
    lab.guide
        .simulator
        .iter()
        .filter(|c| applies(c, lab, scale))
        .map(|c| outcome(c, &runs))
        .collect()
}

fn outcome(claim: &SimClaim, runs: &Runs) -> ClaimOutcome {
    let parts = fill(&claim.text, runs);
    let verdicts: Vec<Verdict> = claim.checks.iter().map(|c| check(c, runs)).collect();
    let holds = if verdicts.iter().any(|v| v.holds == Some(false)) {
        Some(false)
    } else if verdicts.iter().all(|v| v.holds == Some(true)) {
        Some(true)
    } else {
        None
    };
    ClaimOutcome {
        id: claim.id.clone(),
        text: parts.iter().map(|p| p.text.as_str()).collect(),
        parts,
        holds,
        detail: joined_details(&verdicts, holds),
    }
}

/// The checks' details in order, each once: of a broken sentence only the
/// checks that broke it (two bounds on one quantity, as "about half" is
/// written, would otherwise list its values twice).
fn joined_details(verdicts: &[Verdict], holds: Option<bool>) -> String {
    let mut seen: Vec<&str> = Vec::new();
    let shown = verdicts
        .iter()
        .filter(|v| holds != Some(false) || v.holds == Some(false));
    for d in shown.map(|v| v.detail.as_str()) {
        if !d.is_empty() && !seen.contains(&d) {
            seen.push(d);
        }
    }
    seen.join("; ")
}

fn fill(template: &str, runs: &Runs) -> Vec<ClaimPart> {
    let pieces = text::parse(template).unwrap_or_else(|_| vec![Piece::Literal(template.into())]);
    pieces
        .into_iter()
        .map(|p| match p {
            Piece::Literal(t) => ClaimPart {
                text: t,
                reference: None,
                value: None,
            },
            Piece::Label(id) => ClaimPart {
                text: runs.lab.series(&id).map_or(id.clone(), |s| s.label.clone()),
                reference: None,
                value: None,
            },
            Piece::Value(r) => {
                let m = runs.value(&r);
                ClaimPart {
                    text: match m {
                        Measured::Value(v) => text::number(r.metric, v),
                        Measured::Pending => "…".into(),
                        Measured::Undefined => "—".into(),
                    },
                    reference: Some(r.to_string()),
                    value: match m {
                        Measured::Value(v) if v.is_finite() => Some(v),
                        _ => None,
                    },
                }
            }
        })
        .collect()
}

/// One check's result.
struct Verdict {
    holds: Option<bool>,
    detail: String,
}

fn check(c: &Check, runs: &Runs) -> Verdict {
    match c.kind {
        CheckKind::Rises | CheckKind::Falls => trend(c, runs),
        _ => compare(c, runs),
    }
}

/// Is `a` ahead of `b` by more than the relative tolerance?
fn ahead(a: f64, b: f64, tolerance: f64) -> bool {
    if a.is_infinite() || b.is_infinite() {
        return a > b;
    }
    a - b > tolerance * b.abs().max(a.abs())
}

/// The values of each series at one selection, judged by the check's kind.
fn judge(c: &Check, v: &[f64]) -> bool {
    let t = c.tolerance;
    match c.kind {
        CheckKind::Order if c.metric == Metric::Rank => v.windows(2).all(|p| p[0] < p[1]),
        CheckKind::Order => v.windows(2).all(|p| ahead(p[0], p[1], t)),
        CheckKind::Same => {
            let hi = v.iter().cloned().fold(f64::MIN, f64::max);
            let lo = v.iter().cloned().fold(f64::MAX, f64::min);
            hi == lo || hi - lo <= t * hi.abs().max(lo.abs())
        }
        CheckKind::Highest => v.len() >= 2 && v[1..].iter().all(|o| ahead(v[0], *o, t)),
        CheckKind::Lowest => v.len() >= 2 && v[1..].iter().all(|o| ahead(*o, v[0], t)),
        CheckKind::AtLeast => v.iter().all(|x| *x >= c.bound.unwrap_or(f64::INFINITY)),
        CheckKind::AtMost => v.iter().all(|x| *x <= c.bound.unwrap_or(f64::NEG_INFINITY)),
        CheckKind::NeverReached => v.iter().all(|x| x.is_infinite()),
        CheckKind::Rises | CheckKind::Falls => false,
    }
}

/// Order, same, highest, lowest and bounds: at each swept value, or on
/// the mean over the selection.
fn compare(c: &Check, runs: &Runs) -> Verdict {
    let selections: Vec<Xs> = if c.each {
        runs.xs(xs_of(c)).into_iter().map(Xs::One).collect()
    } else {
        vec![xs_of(c)]
    };
    let mut failed = Vec::new();
    let mut shown = Vec::new();
    for xs in &selections {
        let measured: Vec<Measured> = c
            .series
            .iter()
            .map(|s| {
                runs.value(&ValueRef {
                    series: s.clone(),
                    xs: *xs,
                    metric: c.metric,
                    group: c.group,
                })
            })
            .collect();
        if measured.contains(&Measured::Pending) {
            return Verdict {
                holds: None,
                detail: String::new(),
            };
        }
        let listed = listing(c, runs, &measured, *xs);
        let values: Option<Vec<f64>> = measured
            .iter()
            .map(|m| match m {
                Measured::Value(v) => Some(*v),
                _ => None,
            })
            .collect();
        match values {
            Some(v) if judge(c, &v) => shown.push(listed),
            _ => failed.push(listed),
        }
    }
    let holds = failed.is_empty() && !selections.is_empty();
    let detail = if !failed.is_empty() {
        failed.join("; ")
    } else if shown.len() > 2 {
        format!("{} … {}", shown[0], shown[shown.len() - 1])
    } else {
        shown.join("; ")
    };
    Verdict {
        holds: Some(holds),
        detail,
    }
}

/// "Label: value · label: value (at x)".
fn listing(c: &Check, runs: &Runs, measured: &[Measured], xs: Xs) -> String {
    let items: Vec<String> = c
        .series
        .iter()
        .zip(measured)
        .map(|(s, m)| {
            let label = runs.lab.series(s).map_or(s.as_str(), |x| x.label.as_str());
            match m {
                Measured::Value(v) => format!("{label}: {}", text::quantity(c.metric, *v)),
                _ => format!("{label}: undefined"),
            }
        })
        .collect();
    let swept = |x: f64| text::swept(runs.lab.sweep.axis, x);
    let at = match xs {
        Xs::One(x) => format!(" (at {})", swept(x)),
        Xs::Range(a, b) => format!(" (mean over {} to {})", swept(a), swept(b)),
        Xs::All => " (mean over the sweep)".into(),
    };
    format!("{}{at}", items.join(" · "))
}

/// Does the value go the wrong way (by more than the relative tolerance)
/// from `prev` to `next`? An undefined value always does.
fn steps_back(prev: f64, next: f64, sign: f64, tolerance: f64) -> bool {
    let step = sign * (next - prev);
    step.is_nan() || step < -tolerance * prev.abs()
}

/// Rises and falls: each series' seed means along the selected values.
fn trend(c: &Check, runs: &Runs) -> Verdict {
    let xs = runs.xs(xs_of(c));
    let at = |i: usize| text::swept(runs.lab.sweep.axis, xs[i]);
    let sign = if c.kind == CheckKind::Rises {
        1.0
    } else {
        -1.0
    };
    let mut details = Vec::new();
    let mut failed = xs.len() < 2;
    for s in &c.series {
        let mut vals = Vec::new();
        for x in &xs {
            match runs.at(s, *x, c.metric, c.group) {
                Measured::Value(v) => vals.push(v),
                Measured::Pending => {
                    return Verdict {
                        holds: None,
                        detail: String::new(),
                    }
                }
                Measured::Undefined => vals.push(f64::NAN),
            }
        }
        let label = runs.lab.series(s).map_or(s.as_str(), |x| x.label.as_str());
        let v = |i: usize| text::number(c.metric, vals[i]);
        let step_back =
            (1..vals.len()).find(|&i| steps_back(vals[i - 1], vals[i], sign, c.tolerance));
        let last = vals.len().saturating_sub(1);
        // Overall, the last value must be ahead of the first by more than
        // the tolerance: a trend within the tolerance is no trend.
        let overall = vals.len() >= 2 && ahead(sign * vals[last], sign * vals[0], c.tolerance);
        details.push(match step_back {
            Some(i) => {
                failed = true;
                format!(
                    "{label}: {} at {}, then {} at {}",
                    v(i - 1),
                    at(i - 1),
                    v(i),
                    at(i)
                )
            }
            None if vals.len() >= 2 => {
                failed |= !overall;
                format!(
                    "{label}: {} at {} to {} at {}",
                    v(0),
                    at(0),
                    v(last),
                    at(last)
                )
            }
            None => format!("{label}: one swept value only"),
        });
    }
    Verdict {
        holds: Some(!failed),
        detail: details.join("; "),
    }
}

/// The value references a claim's sentence and checks use.
fn references(claim: &SimClaim) -> Vec<ValueRef> {
    let mut refs: Vec<ValueRef> = text::parse(&claim.text)
        .unwrap_or_default()
        .into_iter()
        .filter_map(|p| match p {
            Piece::Value(r) => Some(r),
            _ => None,
        })
        .collect();
    for c in &claim.checks {
        for s in &c.series {
            refs.push(ValueRef {
                series: s.clone(),
                xs: xs_of(c),
                metric: c.metric,
                group: c.group,
            });
        }
    }
    refs
}

/// Is the sentence made at this scale: listed for it, and every series and
/// swept value it names run there?
pub fn applies(claim: &SimClaim, lab: &Lab, scale: Scale) -> bool {
    if !claim.scales.is_empty() && !claim.scales.contains(&scale) {
        return false;
    }
    let runs = Runs::new(lab, scale, &[]);
    let labels_run = text::parse(&claim.text)
        .unwrap_or_default()
        .iter()
        .all(|p| !matches!(p, Piece::Label(s) if !runs.has_series(s)));
    labels_run
        && references(claim)
            .iter()
            .all(|r| runs.has_series(&r.series) && !runs.xs(r.xs).is_empty())
}

/// Every problem with the lab's sentences, as text (empty: none).
pub fn validate(lab: &Lab) -> Vec<String> {
    let mut errors = Vec::new();
    let mut ids = std::collections::BTreeSet::new();
    for claim in &lab.guide.simulator {
        let mut err = |e: String| errors.push(format!("lab {} claim {:?}: {e}", lab.id, claim.id));
        if claim.id.is_empty() || !ids.insert(claim.id.clone()) {
            err("id empty or repeated".into());
        }
        match text::parse(&claim.text) {
            Err(e) => err(e),
            Ok(pieces) => {
                for p in pieces {
                    if let Piece::Label(s) = p {
                        if lab.series(&s).is_none() {
                            err(format!("{{{s}}} names no series"));
                        }
                    }
                }
            }
        }
        if claim.checks.is_empty() {
            err("no checks".into());
        }
        for c in &claim.checks {
            for e in check_problems(c) {
                err(e);
            }
        }
        for r in references(claim) {
            if lab.series(&r.series).is_none() {
                err(format!("{r}: no series {}", r.series));
            }
            if r.metric == Metric::Rank && lab.ranking.is_none() {
                err(format!("{r}: the lab has no ranking"));
            }
        }
        if ![Scale::Quick, Scale::Full]
            .iter()
            .any(|s| applies(claim, lab, *s))
        {
            err("made at no scale (a series or swept value no scale runs)".into());
        }
    }
    errors
}

pub(crate) fn check_problems(c: &Check) -> Vec<String> {
    let mut e = Vec::new();
    let n = c.series.len();
    let needs_two = matches!(
        c.kind,
        CheckKind::Order | CheckKind::Same | CheckKind::Highest | CheckKind::Lowest
    );
    if n == 0 || (needs_two && n < 2) {
        e.push(format!("{:?} check with {n} series", c.kind));
    }
    let bounded = matches!(c.kind, CheckKind::AtLeast | CheckKind::AtMost);
    if bounded != c.bound.is_some() {
        e.push(format!("{:?} check: bound {:?}", c.kind, c.bound));
    }
    if c.kind == CheckKind::NeverReached && c.metric != Metric::TimeToMaxRateS {
        e.push("never_reached is about time_to_max_rate_s".into());
    }
    if c.metric == Metric::Rank
        && (c.kind != CheckKind::Order || c.x.is_some() || c.range.is_some() || c.each)
    {
        e.push("rank: an order over the whole sweep only".into());
    }
    if matches!(c.kind, CheckKind::Rises | CheckKind::Falls) && (c.x.is_some() || c.each) {
        e.push("a trend needs several swept values".into());
    }
    if c.x.is_some() && c.range.is_some() {
        e.push("both x and range".into());
    }
    if !(c.tolerance >= 0.0 && c.tolerance < 1.0) {
        e.push(format!("tolerance {}", c.tolerance));
    }
    e
}
