//! `sawtooth`: run a scenario file natively and print its results, or run
//! a guided lab's sweep natively and write it as CSV.
//!
//! This file holds the command line (clap) and hands each subcommand to
//! its module: `run.rs` (run, estimate), `sweep.rs` (sweep, merge, with
//! the shard files in `shard/`), `lab.rs` (labs, and finding and running
//! lab points for the others), `lab_scenario.rs`, `fidelity.rs`,
//! `ablation.rs` and `fuzz.rs`; `csv.rs` writes a sweep's CSV.

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};
use sawtooth_core::Scenario;
use std::io::Write;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "sawtooth",
    version,
    about = "Packet-level TCP congestion-control simulator"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    /// The run summary as JSON (the page's `summary()`, docs/TEST-SURFACE.md
    /// §3).
    Json,
    /// The sampled time series as CSV (the columns of docs/TEST-SURFACE.md
    /// §3.1: t_s, f<i>.<column>, q.bottleneck_pkts, h<h>.ifq_pkts, …).
    Csv,
    /// Congestion events and state changes as CSV (t_s, flow, kind; the
    /// kinds are named as in the page's Events CSV: network_loss,
    /// entered_recovery, …).
    Events,
}

#[derive(Subcommand)]
enum Command {
    /// Run a scenario JSON file ("-" for standard input).
    Run {
        /// The scenario file (the format of `default-scenario`; "-" for
        /// standard input).
        scenario: String,
        #[arg(long, value_enum, default_value = "json")]
        format: Format,
        /// Also write series.csv, events.csv and summary.json into DIR
        /// (created if missing; written before standard output).
        #[arg(long, value_name = "DIR")]
        out: Option<std::path::PathBuf>,
        /// Print to standard error what the run cost beside what the
        /// resource model expected: engine events, data packets, and the
        /// packet stores' peak memory.
        #[arg(long)]
        engine_stats: bool,
        /// Drive the bottleneck with a Mahimahi delivery-opportunity trace
        /// (one millisecond timestamp per line, each an opportunity for
        /// 1504 bytes; the trace repeats): it becomes the scenario's
        /// `bottleneck.trace`, replacing any there.
        #[arg(long, value_name = "FILE")]
        trace: Option<String>,
    },
    /// Check a scenario file without running it: exit 0 and say so if it is
    /// valid, else list every problem (as `run` would) and exit 1.
    Validate {
        /// The scenario file ("-" for standard input).
        scenario: String,
        /// As for `run`: the bottleneck follows this Mahimahi trace.
        #[arg(long, value_name = "FILE")]
        trace: Option<String>,
    },
    /// What a scenario will record and roughly how much it will simulate
    /// (the resource model), as JSON, even if it fails validation.
    Estimate {
        /// The scenario file ("-" for standard input).
        scenario: String,
        /// As for `run`: the bottleneck follows this Mahimahi trace.
        #[arg(long, value_name = "FILE")]
        trace: Option<String>,
    },
    /// Run corner scenarios at every limit the validator allows and check
    /// each: no panic, packets conserved, recorded bytes within the budget
    /// and the resource model. Prints a summary; failures go to standard
    /// error with their scenario, and the exit status is non-zero.
    Fuzz {
        /// How many cases (at most 1000000000; they are checked as they
        /// finish, so memory does not grow with the count).
        #[arg(
            long,
            default_value_t = 2000,
            value_parser = clap::value_parser!(u64).range(..=fuzz::MAX_CASES)
        )]
        cases: u64,
        /// The seed the corner scenarios are drawn from (the same seed gives
        /// the same cases).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Shorten each case until the model expects at most this many
        /// engine events.
        #[arg(long, default_value_t = 2_000_000)]
        max_events: u64,
        /// Cases in parallel (default: available cores).
        #[arg(long, value_parser = jobs_parser())]
        jobs: Option<usize>,
    },
    /// Print the default scenario as JSON.
    DefaultScenario,
    /// Print the algorithm catalogue as JSON.
    Catalogue,
    /// List the guided labs as CSV: number, id, title, and the runs and
    /// simulated seconds of each scale (quick, faithful).
    Labs,
    /// Run a lab's sweep natively and write CSV (its metrics are the
    /// `PointResult` fields of docs/TEST-SURFACE.md §8.1): one row per run (series,
    /// x, seed) with every metric and the paper's value where it has one,
    /// then each run's exact `# point` record and a closing `#
    /// sawtooth-sweep` line (lab, scale, engine, digest), so the guided lab
    /// can open the file; or with --compare one row per published value.
    Sweep {
        /// The lab: its id or number (`sawtooth labs`).
        lab: String,
        /// The browser-sized version (shorter runs, fewer points).
        #[arg(long)]
        quick: bool,
        /// Runs in parallel (default: available cores).
        #[arg(long, value_parser = jobs_parser())]
        jobs: Option<usize>,
        /// Write the paper-vs-simulation table instead of the runs.
        #[arg(long)]
        compare: bool,
        /// Also write the paper-vs-simulation table to this file.
        #[arg(long)]
        compare_out: Option<String>,
        /// Only these series (comma-separated ids).
        #[arg(long, value_delimiter = ',')]
        series: Vec<String>,
        /// Run only the K-th of N slices of the sweep (1 ≤ K ≤ N), balanced
        /// by expected cost, and write it as a shard file for `merge`
        /// (docs/scale-out.md).
        #[arg(
            long,
            value_name = "K/N",
            value_parser = shard::parse_shard,
            allow_hyphen_values = true
        )]
        shard: Option<shard::Shard>,
        /// Write to FILE instead of standard output ("-": standard output).
        /// Checked before anything runs.
        #[arg(long, value_name = "FILE")]
        out: Option<String>,
    },
    /// Join the shard files of one sweep (`sweep --shard K/N`, in any
    /// order) into exactly the unsharded sweep's file, or with --compare its
    /// paper-vs-simulation table. Refuses missing or duplicate shards and
    /// shards of another lab, scale, series or engine build.
    Merge {
        /// The shard files (`sweep --shard K/N --out FILE`), in any order.
        #[arg(required = true, value_name = "SHARD_CSV")]
        files: Vec<String>,
        /// Write the paper-vs-simulation table instead of the runs.
        #[arg(long)]
        compare: bool,
        /// Also write the paper-vs-simulation table to this file.
        #[arg(long)]
        compare_out: Option<String>,
        /// Write to FILE instead of standard output ("-": standard output;
        /// not one of the shard files).
        #[arg(long, value_name = "FILE")]
        out: Option<String>,
    },
    /// Run every lab's paper comparison and write a Markdown report
    /// (published value, simulated value, difference, source; orderings;
    /// a summary). A report, not a test: it never fails on a mismatch.
    Fidelity {
        /// Browser-sized sweeps instead of the faithful scale.
        #[arg(long, conflicts_with = "faithful")]
        quick: bool,
        /// The faithful scale (the default here).
        #[arg(long)]
        faithful: bool,
        /// Runs in parallel (default: available cores).
        #[arg(long, value_parser = jobs_parser())]
        jobs: Option<usize>,
        /// Only these labs (ids or numbers, comma-separated).
        #[arg(long, value_delimiter = ',')]
        labs: Vec<String>,
        /// Where to write the report ("-" for standard output).
        #[arg(long, default_value = "FIDELITY.md")]
        out: String,
    },
    /// Which mechanism a lab's result depends on: each lab's headline
    /// numbers with its testbed profile as a whole and with each switch
    /// turned back to the plain model, one at a time (Markdown).
    Ablation {
        /// Labs (ids or numbers, comma-separated; default: every lab).
        #[arg(long, value_delimiter = ',')]
        labs: Vec<String>,
        /// The faithful scale instead of browser-sized sweeps.
        #[arg(long, conflicts_with = "quick")]
        faithful: bool,
        /// Browser-sized sweeps (the default here).
        #[arg(long)]
        quick: bool,
        /// Runs in parallel (default: available cores).
        #[arg(long, value_parser = jobs_parser())]
        jobs: Option<usize>,
        /// Where to write the report ("-" for standard output).
        #[arg(long, default_value = "-")]
        out: String,
        /// The rows as JSON (one array of rows per lab) instead of Markdown.
        #[arg(long)]
        json: bool,
    },
    /// Print the scenario JSON of one lab point (feed it to `run`). The
    /// lab's metrics cover only its measurement window (`measure` in
    /// core/labs/labs.json, e.g. from 1 s), so `run`'s whole-run summary
    /// differs slightly from the sweep's row.
    LabScenario {
        /// The lab: its id or number (`sawtooth labs`).
        lab: String,
        /// The series id (the error for an unknown one lists them).
        series: String,
        /// The swept value: a number; for Scalable's a and b (lab 5) a
        /// pair "a/b"; for an initial ssthresh (lab 11) also "unlimited".
        #[arg(allow_negative_numbers = true)]
        x: String,
        /// The seed (default: the lab's first at that scale).
        #[arg(long)]
        seed: Option<u32>,
        /// The point at the browser-sized scale.
        #[arg(long)]
        quick: bool,
    },
}

mod ablation;
mod csv;
mod fidelity;
mod fuzz;
mod input;
mod lab;
mod lab_scenario;
mod output;
mod progress;
mod run;
mod shard;
mod sweep;

use lab::{jobs_or_cores, list_labs};
use lab_scenario::lab_scenario;
use run::{estimate, run, validate};
use sweep::{merge, sweep};

/// `--jobs`: at least one.
fn jobs_parser() -> clap::builder::RangedU64ValueParser<usize> {
    clap::builder::RangedU64ValueParser::<usize>::new().range(1..=4096)
}

fn main() -> ExitCode {
    // `--version` names the engine build that sweep files and `merge`
    // check (a cluster's nodes can be compared before a sweep).
    let version: &'static str =
        Box::leak(sawtooth_core::labs::sweep_file::engine_id().into_boxed_str());
    let parsed = Cli::command()
        .version(version)
        .try_get_matches()
        .and_then(|m| Cli::from_arg_matches(&m));
    let cli = match parsed {
        Ok(cli) => cli,
        Err(e) => {
            // Clap's own message, unless it quotes a long value: then that
            // value clipped (help and version are printed as they are).
            let text = e.render().to_string();
            let clipped = input::clip_message(&text);
            if !e.use_stderr() || clipped == text {
                e.exit();
            }
            eprint!("{clipped}");
            std::process::exit(e.exit_code());
        }
    };
    let mut out = output::Stdout::new(std::io::stdout().lock());
    let result = match cli.command {
        Command::Run {
            scenario,
            format,
            out: dir,
            engine_stats,
            trace,
        } => run(
            &scenario,
            trace.as_deref(),
            format,
            dir.as_deref(),
            engine_stats,
            &mut out,
        ),
        Command::Estimate { scenario, trace } => estimate(&scenario, trace.as_deref(), &mut out),
        Command::Validate { scenario, trace } => validate(&scenario, trace.as_deref(), &mut out),
        Command::Fuzz {
            cases,
            seed,
            max_events,
            jobs,
        } => fuzz::run(cases, seed, max_events, jobs_or_cores(jobs), &mut out),
        Command::DefaultScenario => writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&Scenario::default_scenario()).expect("serialises")
        )
        .map_err(|e| e.to_string()),
        Command::Catalogue => writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&sawtooth_core::cc::catalogue()).expect("serialises")
        )
        .map_err(|e| e.to_string()),
        Command::Labs => list_labs(&mut out),
        Command::Sweep {
            lab,
            quick,
            jobs,
            compare,
            compare_out,
            series,
            shard,
            out: path,
        } => sweep(
            &lab,
            quick,
            jobs,
            compare,
            compare_out.as_deref(),
            &series,
            shard,
            path.as_deref(),
            &mut out,
        ),
        Command::Merge {
            files,
            compare,
            compare_out,
            out: path,
        } => merge(
            &files,
            compare,
            compare_out.as_deref(),
            path.as_deref(),
            &mut out,
        ),
        Command::Fidelity {
            quick,
            faithful: _,
            jobs,
            labs: only,
            out: path,
        } => fidelity::run(quick, jobs, &only, &path, &mut out),
        Command::Ablation {
            labs: only,
            faithful,
            quick: _,
            jobs,
            out: path,
            json,
        } => ablation::run(faithful, jobs, &only, &path, json, &mut out),
        Command::LabScenario {
            lab,
            series,
            x,
            seed,
            quick,
        } => lab_scenario(&lab, &series, &x, seed, quick, &mut out),
    };
    let result = result.and_then(|()| out.flush().map_err(|e| e.to_string()));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("sawtooth: {}", input::clip_message(&message));
            ExitCode::FAILURE
        }
    }
}
