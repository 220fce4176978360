//! Running and checking the fuzz cases (`super::case` makes them): each
//! valid case is run behind `catch_unwind` and held to packet conservation,
//! the recorded-bytes budget and the resource model.

use super::{case, estimate_is_close, ESTIMATE_FLOOR_BYTES, ESTIMATE_MISSES_ALLOWED};
use crate::resources::{self, RECORDED_BYTES_BUDGET};
use crate::scenario::{Scenario, ValidationError};
use crate::sim::Simulation;
use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// A case is run in this many slices, checking conservation after each.
const SLICES: u64 = 4;

/// A run that processes this many times the engine events the model
/// predicted is stopped (and counted), so one misjudged case cannot hold
/// the harness for hours.
const RUNAWAY_FACTOR: u64 = 20;

/// What one valid case did.
#[derive(Clone, Debug, PartialEq)]
pub struct CaseRun {
    pub recorded_bytes: u64,
    pub allocated_bytes: u64,
    pub estimated_bytes: u64,
    /// |estimate − recorded| / recorded.
    pub estimate_error: f64,
    pub engine_events: u64,
    pub estimated_engine_events: u64,
    /// Heap bytes the packet stores needed at their largest
    /// (`Simulation::packet_memory`), and the model's bound on them.
    pub packet_memory_bytes: u64,
    pub packet_memory_model_bytes: u64,
    /// Stopped after `RUNAWAY_FACTOR` × the predicted engine events.
    pub stopped_early: bool,
    /// Recorded bytes within the estimate's tolerance (true when stopped
    /// early: not compared).
    pub estimate_close: bool,
    /// Broken checks, in words; empty when the case passed.
    pub problems: Vec<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    Rejected(Vec<ValidationError>),
    Ran(CaseRun),
}

/// Validate `s` and, if valid, run it and check it.
pub fn run_case(s: &Scenario) -> Outcome {
    let errors = s.validate();
    if !errors.is_empty() {
        return Outcome::Rejected(errors);
    }
    let estimate = resources::estimate(s);
    match catch_unwind(AssertUnwindSafe(|| simulate(s, &estimate))) {
        Ok(run) => Outcome::Ran(run),
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic".into());
            Outcome::Ran(CaseRun {
                recorded_bytes: 0,
                allocated_bytes: 0,
                estimated_bytes: estimate.recorded_bytes,
                estimate_error: 0.0,
                engine_events: 0,
                estimated_engine_events: estimate.engine_events,
                packet_memory_bytes: 0,
                packet_memory_model_bytes: estimate.in_flight_bytes_max,
                stopped_early: false,
                estimate_close: true,
                problems: vec![format!("the engine panicked: {what}")],
            })
        }
    }
}

fn simulate(s: &Scenario, estimate: &resources::ResourceEstimate) -> CaseRun {
    let mut problems = Vec::new();
    let mut sim = match Simulation::new(s) {
        Ok(sim) => sim,
        Err(e) => panic!("a validated scenario was refused: {e:?}"),
    };
    let runaway = estimate
        .engine_events
        .max(100_000)
        .saturating_mul(RUNAWAY_FACTOR);
    let end_ns = sim.end_ns();
    let mut stopped_early = false;
    for k in 1..=SLICES {
        sim.advance(end_ns / SLICES * k + if k == SLICES { end_ns % SLICES } else { 0 });
        let a = sim.packet_accounting();
        if !a.is_conserved() {
            problems.push(format!("packets not conserved at slice {k}: {a:?}"));
        }
        if sim.processed_events() > runaway && k < SLICES {
            stopped_early = true;
            break;
        }
    }
    let recorded = sim.recorded_bytes();
    let allocated = sim.recorder_allocated_bytes();
    // The packet stores' high-water marks within the memory model (issue
    // 28): checked on runs stopped early too, which only held less.
    let packet_memory = sim.packet_memory().total();
    if packet_memory > estimate.in_flight_bytes_max {
        problems.push(format!(
            "packet stores needed {packet_memory} bytes, the memory model allows {} ({:?})",
            estimate.in_flight_bytes_max,
            sim.packet_memory()
        ));
    }
    if recorded > RECORDED_BYTES_BUDGET || allocated > RECORDED_BYTES_BUDGET {
        problems.push(format!(
            "recorded {recorded} bytes, allocated {allocated}: over the budget"
        ));
    }
    let error = (estimate.recorded_bytes as f64 - recorded as f64).abs() / recorded.max(1) as f64;
    if !stopped_early {
        if sim.recorder().rows() as u64 != estimate.samples_per_flow {
            problems.push(format!(
                "{} sample rows, the model said {}",
                sim.recorder().rows(),
                estimate.samples_per_flow
            ));
        }
        let summary = sim.summary();
        if summary.utilisation.is_nan() || summary.utilisation > 1.0 + 1e-9 {
            problems.push(format!("utilisation {} above 1", summary.utilisation));
        }
        // Delivery counted from the ISN, not read off a wrapped number.
        for (f, t) in sim.run_totals().flows.iter().enumerate() {
            if t.delivered_segments > t.sender.segments_sent {
                problems.push(format!(
                    "flow {f} delivered {} segments of {} sent",
                    t.delivered_segments, t.sender.segments_sent
                ));
            }
        }
    }
    CaseRun {
        recorded_bytes: recorded,
        allocated_bytes: allocated,
        estimated_bytes: estimate.recorded_bytes,
        estimate_error: if stopped_early { 0.0 } else { error },
        engine_events: sim.processed_events(),
        estimated_engine_events: estimate.engine_events,
        packet_memory_bytes: packet_memory,
        packet_memory_model_bytes: estimate.in_flight_bytes_max,
        stopped_early,
        estimate_close: stopped_early || estimate_is_close(estimate.recorded_bytes, recorded),
        problems,
    }
}

/// A failed case, with what it takes to reproduce it.
#[derive(Clone, Debug, PartialEq)]
pub struct Failure {
    pub index: u64,
    pub scenario_json: String,
    pub problems: Vec<String>,
}

/// Totals over many cases.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Report {
    pub cases: u64,
    pub rejected: u64,
    /// Rejections per field (the first error of each rejected case).
    pub rejected_by_field: BTreeMap<String, u64>,
    pub ran: u64,
    /// Cases stopped after `RUNAWAY_FACTOR` × the engine events the model
    /// predicted (checked for conservation and the budget, not the model).
    pub stopped_early: Vec<u64>,
    pub max_recorded_bytes: u64,
    pub max_allocated_bytes: u64,
    /// The largest packet-store high-water mark, and the largest share of
    /// its model's bound any run used.
    pub max_packet_memory_bytes: u64,
    pub max_packet_memory_share: f64,
    /// The largest |estimate − recorded| / recorded over all runs, and
    /// the case it came from.
    pub max_estimate_error: f64,
    pub worst_estimate_case: Option<u64>,
    /// The same over runs that recorded at least `ESTIMATE_FLOOR_BYTES`.
    pub max_estimate_error_large: f64,
    /// The largest |estimate − recorded| in bytes.
    pub max_estimate_error_bytes: u64,
    /// Cases whose recorded bytes fell outside the estimate's tolerance.
    pub estimate_misses: Vec<u64>,
    pub engine_events: u64,
    pub failures: Vec<Failure>,
}

impl Report {
    pub fn add(&mut self, index: u64, scenario: &Scenario, outcome: &Outcome) {
        self.cases += 1;
        match outcome {
            Outcome::Rejected(errors) => {
                self.rejected += 1;
                let field = errors.first().map_or("?", |e| e.field.as_str());
                // hosts[3].flows[1].x → hosts[].flows[].x, to group them.
                let mut grouped = String::new();
                let mut in_index = false;
                for c in field.chars() {
                    match c {
                        '[' => {
                            in_index = true;
                            grouped.push('[');
                        }
                        ']' => {
                            in_index = false;
                            grouped.push(']');
                        }
                        _ if in_index => {}
                        _ => grouped.push(c),
                    }
                }
                *self.rejected_by_field.entry(grouped).or_default() += 1;
            }
            Outcome::Ran(run) => {
                self.ran += 1;
                if run.stopped_early {
                    self.stopped_early.push(index);
                }
                self.max_recorded_bytes = self.max_recorded_bytes.max(run.recorded_bytes);
                self.max_allocated_bytes = self.max_allocated_bytes.max(run.allocated_bytes);
                self.max_packet_memory_bytes =
                    self.max_packet_memory_bytes.max(run.packet_memory_bytes);
                if run.packet_memory_model_bytes > 0 {
                    self.max_packet_memory_share = self
                        .max_packet_memory_share
                        .max(run.packet_memory_bytes as f64 / run.packet_memory_model_bytes as f64);
                }
                self.engine_events += run.engine_events;
                if run.estimate_error > self.max_estimate_error
                    || self.worst_estimate_case.is_none()
                {
                    self.max_estimate_error = run.estimate_error;
                    self.worst_estimate_case = Some(index);
                }
                if !run.stopped_early {
                    if run.recorded_bytes >= ESTIMATE_FLOOR_BYTES {
                        self.max_estimate_error_large =
                            self.max_estimate_error_large.max(run.estimate_error);
                    }
                    self.max_estimate_error_bytes = self
                        .max_estimate_error_bytes
                        .max(run.estimated_bytes.abs_diff(run.recorded_bytes));
                }
                if !run.estimate_close {
                    self.estimate_misses.push(index);
                }
                if !run.problems.is_empty() {
                    self.failures.push(Failure {
                        index,
                        scenario_json: scenario.to_json(),
                        problems: run.problems.clone(),
                    });
                }
            }
        }
    }

    /// No broken check, and few enough estimate misses.
    pub fn passed(&self) -> bool {
        self.failures.is_empty() && self.estimate_misses_within_allowance()
    }

    pub fn estimate_misses_within_allowance(&self) -> bool {
        self.estimate_misses.len() as f64 <= ESTIMATE_MISSES_ALLOWED * self.ran as f64
    }
}

/// Run cases `0..cases` of `seed` one after another.
pub fn run(seed: u64, cases: u64, max_engine_events: u64) -> Report {
    let mut report = Report::default();
    for i in 0..cases {
        let s = case(seed, i, max_engine_events);
        let outcome = run_case(&s);
        report.add(i, &s, &outcome);
    }
    report
}
