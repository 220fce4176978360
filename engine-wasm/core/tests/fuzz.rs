//! The fuzz harness in the normal test suite: a bounded number of corner
//! scenarios (`sawtooth fuzz` runs many more). Each valid one must run
//! without a panic, conserve packets, record within the budget and, in all
//! but 1 % of cases, within 10 % of the resource model (or 1 % of the
//! budget for small records, which the event log dominates).

use sawtooth_core::fuzz;

/// Cases and their size here: a few seconds of a debug build.
const CASES: u64 = 300;
const MAX_ENGINE_EVENTS: u64 = 200_000;

#[test]
fn corner_scenarios_run_within_the_budget_and_the_model() {
    let report = fuzz::run(1, CASES, MAX_ENGINE_EVENTS);
    println!("{report:#?}");
    for f in &report.failures {
        eprintln!("case {}: {:?}\n{}", f.index, f.problems, f.scenario_json);
    }
    assert!(
        report.estimate_misses_within_allowance(),
        "estimate misses {:?}",
        report.estimate_misses
    );
    assert!(
        report.passed(),
        "{} of {} cases failed",
        report.failures.len(),
        report.cases
    );
    // Corners with 512 MB windows at 10–100 Gb/s are refused by the packet
    // memory budget (issue 28), so fewer than half may run; most of the
    // rest must.
    assert!(
        report.ran > CASES * 2 / 5,
        "many cases are valid: {report:?}"
    );
    assert!(
        report.rejected > 0,
        "some corners are rejected by validation"
    );
}
