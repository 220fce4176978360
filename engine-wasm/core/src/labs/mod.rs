//! Guided labs: the eleven experiments of the source papers as data
//! (`labs/labs.json`), the papers' published measurements (`labs/paper.json`),
//! the expansion of a lab into concrete scenarios, the metrics extracted from
//! each run, and the join of simulated values to the papers' values.
//!
//! Nothing here is tuned to a paper number: a lab fixes the testbed's
//! settings (or states an assumption where the paper gives none), the engine
//! runs them, and [`compare()`] puts the two side by side.
//!
//! One job per file:
//! - `spec.rs`: the `labs.json` schema (a lab, its sweep, series, guide);
//! - `metric.rs`: what a lab measures and plots ([`Metric`],
//!   [`DerivedMetric`], [`ChartMetric`]);
//! - `patch.rs`: the scenario changes a series or the quick scale makes
//!   ([`ScenarioPatch`]) and buffer sizing with RED's thresholds;
//! - `paper.rs`: the `paper.json` schema (published values, parameters,
//!   findings, the papers);
//! - `check.rs`: the check language of findings and lab sentences;
//! - `sweep.rs`: expanding a lab into concrete scenarios ([`Lab::expand`]);
//! - `measure.rs`: running a point and measuring it ([`PointResult`]);
//! - `aggregate.rs`: seed averaging (mean, min, max over repeated runs)
//!   for the comparison, the ranking and the app's result charts, and the
//!   metric that also needs a run's flow groups (relative fairness);
//! - `compare.rs`: ranking the series, joining the simulated values to
//!   the paper's ([`Comparison`]) and judging each (value, range, effect);
//! - `csv.rs`: a sweep's runs as CSV ([`points_csv`]);
//! - `record.rs`: a run's exact result as a `# point` record;
//! - `sweep_file.rs`: a sweep's results as a file (the CSV, the records
//!   and a closing line naming lab, scale and engine), written by the CLI
//!   and opened, checked, by the CLI and the page;
//! - `sweep_id.rs`: what sweep a file holds and which engine made it (the
//!   engine's identity, its results stamp, the sweep's hash);
//! - this file: the embedded JSON, parsed once, and the re-exports that keep
//!   every item at `crate::labs::*`.

mod aggregate;
mod check;
mod compare;
mod csv;
mod measure;
mod metric;
mod paper;
mod patch;
pub mod record;
mod spec;
mod sweep;
pub mod sweep_file;
pub mod sweep_id;
#[cfg(test)]
mod testing;

pub use aggregate::{
    aggregate_sweep, relative_fairness, run_value, seed_mean, series_mean, SeedAggregate,
    SeriesMean, Spread, SweepAggregates,
};
pub use check::{Check, CheckKind};
pub use compare::{
    agreement, compare, paper_value_at, rank_series, value_within, Agreement, Comparison,
    EFFECT_FACTOR, VALUE_TOLERANCE,
};
pub use csv::{csv_field, points_csv, short};
pub use measure::{measure, run_measured, run_point, PointResult, WindowCounts};
pub use metric::{ChartMetric, DerivedMetric, Metric};
pub use paper::{
    Paper, PaperFile, PaperFinding, PaperParameter, PaperSource, PaperValue, Relation,
};
pub use patch::ScenarioPatch;
pub use spec::{
    Axis, FlowSpec, Guide, Lab, LabsFile, Measure, Quick, Ranking, Series, Source, StatedUnknown,
    Sweep, SweepValue, UnknownSetting,
};
pub use sweep::{ExpandError, Scale, SweepPoint};

use std::sync::OnceLock;

/// The eleven labs, as shipped.
pub const LABS_JSON: &str = include_str!("../../labs/labs.json");
/// Every published measurement the labs are compared against.
pub const PAPER_JSON: &str = include_str!("../../labs/paper.json");

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

/// How reports name a source: the paper catalogue's short citation
/// ("Long (Sandia, 2003)", "RFC 8033"; docs/papers.md), the id itself for a
/// source the catalogue lacks.
pub fn source_name(id: &str) -> String {
    paper()
        .papers
        .iter()
        .find(|p| p.seed == id)
        .map_or_else(|| id.to_string(), |p| p.short.clone())
}

/// Paper values for one lab.
pub fn paper_values(lab_id: &str) -> Vec<&'static PaperValue> {
    paper().values.iter().filter(|v| v.lab == lab_id).collect()
}
