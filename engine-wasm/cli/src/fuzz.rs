//! `sawtooth fuzz`: many corner scenarios (sawtooth_core::fuzz) on every
//! core, a summary on standard output, each failure with its scenario on
//! standard error and a non-zero exit.
//!
//! The cases are added to the report as they finish, in case order (a
//! finished case waits only for the cases before it that are still
//! running), so memory does not grow with `--cases`.

use crate::progress::Progress;
use sawtooth_core::fuzz::{
    self, Outcome, Report, ESTIMATE_FLOOR_BYTES, ESTIMATE_MISSES_ALLOWED, ESTIMATE_TOLERANCE,
};
use sawtooth_core::resources::{bytes, group_thousands, RECORDED_BYTES_BUDGET};
use sawtooth_core::Scenario;
use std::collections::BTreeMap;
use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// The most cases one `sawtooth fuzz` runs (`--cases`): beyond any useful
/// run (at a millisecond a case, 11 days), and it keeps the count far from
/// overflowing anything.
pub const MAX_CASES: u64 = 1_000_000_000;

/// The report so far: the cases added in order, and those finished ahead
/// of a case still running.
struct Ordered {
    report: Report,
    next: u64,
    waiting: BTreeMap<u64, (Scenario, Outcome)>,
}

impl Ordered {
    fn finished(&mut self, i: u64, s: Scenario, outcome: Outcome) {
        self.waiting.insert(i, (s, outcome));
        while let Some((s, outcome)) = self.waiting.remove(&self.next) {
            self.report.add(self.next, &s, &outcome);
            self.next += 1;
        }
    }
}

pub fn run(
    cases: u64,
    seed: u64,
    max_engine_events: u64,
    jobs: usize,
    out: &mut impl Write,
) -> Result<(), String> {
    let started = Instant::now();
    let progress = Progress::new(cases, cases);
    progress.set_stage("fuzz");
    if cases > MAX_CASES {
        return Err(format!(
            "--cases = {cases}: must be between 0 and {MAX_CASES}"
        ));
    }
    let next = AtomicU64::new(0);
    let ordered = Mutex::new(Ordered {
        report: Report::default(),
        next: 0,
        waiting: BTreeMap::new(),
    });
    std::thread::scope(|scope| {
        for _ in 0..(jobs.max(1) as u64).min(cases.max(1)) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= cases {
                    break;
                }
                let s = fuzz::case(seed, i, max_engine_events);
                let outcome = fuzz::run_case(&s);
                ordered
                    .lock()
                    .expect("no panics while locked")
                    .finished(i, s, outcome);
                progress.run_done(1);
            });
        }
    });
    progress.finish();
    // Totals in case order, whatever order the threads finished in.
    let ordered = ordered.into_inner().expect("threads finished");
    assert!(
        ordered.waiting.is_empty() && ordered.next == cases,
        "every case ran"
    );
    let report = ordered.report;
    let wall_s = started.elapsed().as_secs_f64();
    write_summary(&report, seed, max_engine_events, jobs, wall_s, out)
        .map_err(|e| e.to_string())?;
    for f in &report.failures {
        eprintln!(
            "case {}: {}\n{}",
            f.index,
            f.problems.join("; "),
            f.scenario_json
        );
    }
    if report.passed() {
        Ok(())
    } else if !report.failures.is_empty() {
        Err(format!(
            "{} of {} cases failed (seed {seed})",
            report.failures.len(),
            report.cases
        ))
    } else {
        Err(format!(
            "the resource model missed more than {:.0} % of the runs (seed {seed})",
            ESTIMATE_MISSES_ALLOWED * 100.0
        ))
    }
}

fn write_summary(
    r: &Report,
    seed: u64,
    max_engine_events: u64,
    jobs: usize,
    wall_s: f64,
    out: &mut impl Write,
) -> std::io::Result<()> {
    let rejected: Vec<String> = r
        .rejected_by_field
        .iter()
        .map(|(field, n)| format!("{field} {n}"))
        .collect();
    let stopped = if r.stopped_early.is_empty() {
        String::new()
    } else {
        format!(
            "; {} stopped past 20× the expected events (cases {:?})",
            r.stopped_early.len(),
            r.stopped_early
        )
    };
    writeln!(
        out,
        "sawtooth fuzz: {} cases from seed {seed}, each at most ~{} expected engine events, {jobs} job{}",
        r.cases,
        group_thousands(max_engine_events as f64),
        if jobs == 1 { "" } else { "s" }
    )?;
    writeln!(
        out,
        "  rejected by validation  {}{}",
        r.rejected,
        if rejected.is_empty() {
            String::new()
        } else {
            format!(" ({})", rejected.join(", "))
        }
    )?;
    writeln!(out, "  ran                     {}{stopped}", r.ran)?;
    writeln!(
        out,
        "  engine events           {}",
        group_thousands(r.engine_events as f64)
    )?;
    writeln!(
        out,
        "  max recorded            {} (allocated {}; budget {})",
        bytes(r.max_recorded_bytes),
        bytes(r.max_allocated_bytes),
        bytes(RECORDED_BYTES_BUDGET)
    )?;
    writeln!(
        out,
        "  max packet memory       {} ({:.0} % of its model's bound at most)",
        bytes(r.max_packet_memory_bytes),
        r.max_packet_memory_share * 100.0
    )?;
    writeln!(
        out,
        "  max estimate error      {:.1} % on records of {} or more; {:.0} % overall (case {}), at most {}",
        r.max_estimate_error_large * 100.0,
        bytes(ESTIMATE_FLOOR_BYTES),
        r.max_estimate_error * 100.0,
        r.worst_estimate_case
            .map_or("none".to_string(), |c| c.to_string()),
        bytes(r.max_estimate_error_bytes)
    )?;
    let misses = &r.estimate_misses;
    writeln!(
        out,
        "  outside the estimate    {} of {} runs ({:.1} %; allowed {:.0} %): off by more than {:.0} % and {}{}",
        misses.len(),
        r.ran,
        100.0 * misses.len() as f64 / r.ran.max(1) as f64,
        ESTIMATE_MISSES_ALLOWED * 100.0,
        ESTIMATE_TOLERANCE * 100.0,
        bytes(ESTIMATE_FLOOR_BYTES),
        if misses.is_empty() {
            String::new()
        } else {
            format!(" (cases {misses:?})")
        }
    )?;
    writeln!(out, "  failures                {}", r.failures.len())?;
    writeln!(out, "  wall time               {wall_s:.1} s")
}
