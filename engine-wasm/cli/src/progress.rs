//! Progress of many runs on standard error: a bar with the time left,
//! drawn only when standard error is a terminal (indicatif hides it
//! otherwise, so redirected output stays quiet). The bar advances by each
//! run's expected engine events (the resource model), not by run count, so
//! the time left holds when runs differ in size.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use sawtooth_core::resources;
use sawtooth_core::Scenario;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

pub struct Progress {
    bar: ProgressBar,
    runs_done: AtomicU64,
    runs_total: u64,
    started: Instant,
}

/// A run's share of the bar: its expected engine events (at least 1).
pub fn work(s: &Scenario) -> u64 {
    resources::estimate(s).engine_events.max(1)
}

impl Progress {
    /// A bar for `runs_total` runs whose works sum to `work_total`.
    pub fn new(runs_total: u64, work_total: u64) -> Progress {
        let bar =
            ProgressBar::with_draw_target(Some(work_total.max(1)), ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template(
                "{prefix:.bold} [{bar:32}] {percent:>3}% {msg} · {elapsed} elapsed, ~{eta} left",
            )
            .expect("a valid template")
            .progress_chars("=> "),
        );
        let p = Progress {
            bar,
            runs_done: AtomicU64::new(0),
            runs_total,
            started: Instant::now(),
        };
        p.show_runs(0);
        p
    }

    /// What is running now (a lab's id, say).
    pub fn set_stage(&self, stage: &str) {
        self.bar.set_prefix(stage.to_string());
    }

    /// One run of `work` finished.
    pub fn run_done(&self, work: u64) {
        let done = self.runs_done.fetch_add(1, Ordering::Relaxed) + 1;
        self.show_runs(done);
        self.bar.inc(work);
    }

    fn show_runs(&self, done: u64) {
        self.bar
            .set_message(format!("{done}/{} runs", self.runs_total));
    }

    /// Clear the bar, leaving one line (on a terminal only) saying how long
    /// it took.
    pub fn finish(&self) {
        self.bar.println(format!(
            "{} runs in {:.1} s",
            self.runs_done.load(Ordering::Relaxed),
            self.started.elapsed().as_secs_f64()
        ));
        self.bar.finish_and_clear();
    }
}
