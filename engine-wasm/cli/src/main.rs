//! `sawtooth`: run a scenario file natively and print its results, or run
//! a guided lab's sweep natively and write it as CSV.

use clap::{Parser, Subcommand, ValueEnum};
use sawtooth_core::labs::{self, Lab, Metric, PointResult, Relation, Scale, SweepValue};
use sawtooth_core::{Scenario, Simulation};
use std::io::Write;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

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
    /// The run summary as JSON.
    Json,
    /// The sampled time series as CSV.
    Csv,
    /// Congestion events as CSV.
    Events,
}

#[derive(Subcommand)]
enum Command {
    /// Run a scenario JSON file ("-" for standard input).
    Run {
        scenario: String,
        #[arg(long, value_enum, default_value = "json")]
        format: Format,
        /// Also write series.csv, events.csv and summary.json into DIR.
        #[arg(long, value_name = "DIR")]
        out: Option<std::path::PathBuf>,
        /// Print to standard error what the run cost beside what the
        /// resource model expected: engine events, data packets, and the
        /// packet stores' peak memory.
        #[arg(long)]
        engine_stats: bool,
    },
    /// What a scenario will record and roughly how much it will simulate
    /// (the resource model), as JSON, even if it fails validation.
    Estimate { scenario: String },
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
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Shorten each case until the model expects at most this many
        /// engine events.
        #[arg(long, default_value_t = 2_000_000)]
        max_events: u64,
        /// Cases in parallel (default: available cores).
        #[arg(long)]
        jobs: Option<usize>,
    },
    /// Print the default scenario as JSON.
    DefaultScenario,
    /// Print the algorithm catalogue as JSON.
    Catalogue,
    /// List the guided labs: id, number, title, runs at each scale.
    Labs,
    /// Run a lab's sweep natively and write CSV: one row per run (series,
    /// x, seed) with every metric and the paper's value where it has one,
    /// or with --compare one row per published value.
    Sweep {
        lab: String,
        /// The browser-sized version (shorter runs, fewer points).
        #[arg(long)]
        quick: bool,
        /// Runs in parallel (default: available cores).
        #[arg(long)]
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
        /// Write to FILE instead of standard output.
        #[arg(long, value_name = "FILE")]
        out: Option<String>,
    },
    /// Join the shard files of one sweep (`sweep --shard K/N`, in any
    /// order) into exactly the unsharded sweep's CSV, or with --compare its
    /// paper-vs-simulation table. Refuses missing or duplicate shards and
    /// shards of another lab, scale, series or engine build.
    Merge {
        #[arg(required = true, value_name = "SHARD_CSV")]
        files: Vec<String>,
        /// Write the paper-vs-simulation table instead of the runs.
        #[arg(long)]
        compare: bool,
        /// Also write the paper-vs-simulation table to this file.
        #[arg(long)]
        compare_out: Option<String>,
        /// Write to FILE instead of standard output.
        #[arg(long, value_name = "FILE")]
        out: Option<String>,
    },
    /// Run every lab's paper comparison and write a Markdown report
    /// (published value, simulated value, difference, source; orderings;
    /// a summary). A report, not a test: it never fails on a mismatch.
    Fidelity {
        /// Browser-sized sweeps instead of the faithful scale.
        #[arg(long)]
        quick: bool,
        /// Runs in parallel (default: available cores).
        #[arg(long)]
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
        #[arg(long)]
        faithful: bool,
        /// Runs in parallel (default: available cores).
        #[arg(long)]
        jobs: Option<usize>,
        /// Where to write the report ("-" for standard output).
        #[arg(long, default_value = "-")]
        out: String,
        /// The rows as JSON (one array of rows per lab) instead of Markdown.
        #[arg(long)]
        json: bool,
    },
    /// Print the scenario JSON of one lab point (feed it to `run`).
    LabScenario {
        lab: String,
        series: String,
        /// The swept value: a number, "a/b" for a pair, or "unlimited".
        #[arg(allow_negative_numbers = true)]
        x: String,
        #[arg(long)]
        seed: Option<u32>,
        #[arg(long)]
        quick: bool,
    },
}

mod ablation;
mod fidelity;
mod fuzz;
mod input;
mod progress;
mod shard;

use progress::Progress;

/// A file's text ("-": standard input), without a leading byte-order mark.
fn read_input(path: &str) -> Result<String, String> {
    let text = if path == "-" {
        std::io::read_to_string(std::io::stdin())
            .map_err(|e| format!("cannot read standard input: {e}"))?
    } else {
        std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?
    };
    Ok(match input::strip_bom(&text) {
        t if t.len() == text.len() => text,
        t => t.to_string(),
    })
}

/// A scenario file's errors, one per line, values clipped.
fn scenario_errors(what: &str, path: &str, errors: &[sawtooth_core::ValidationError]) -> String {
    let lines: Vec<String> = errors
        .iter()
        .map(|e| format!("  {}", input::describe(e)))
        .collect();
    format!("{what} {path}:\n{}", lines.join("\n"))
}

/// Parse (and with `validate` check) a scenario file's text, refusing a
/// key given twice in one object.
fn read_scenario(path: &str, validate: bool) -> Result<Scenario, String> {
    let text = read_input(path)?;
    let what = if validate {
        "invalid scenario"
    } else {
        "unreadable scenario"
    };
    input::no_duplicate_keys(&text).map_err(|e| scenario_errors(what, path, &[e]))?;
    let parsed = if validate {
        Scenario::from_json(&text)
    } else {
        Scenario::parse_json(&text)
    };
    parsed.map_err(|errors| scenario_errors(what, path, &errors))
}

fn run(
    path: &str,
    format: Format,
    out_dir: Option<&std::path::Path>,
    engine_stats: bool,
    out: &mut impl Write,
) -> Result<(), String> {
    let scenario = read_scenario(path, true)?;
    let mut sim = Simulation::new(&scenario).map_err(|e| format!("{e:?}"))?;
    let summary = sim.run_to_end();
    if engine_stats {
        let e = sawtooth_core::resources::estimate(&scenario);
        let sent: u64 = sim
            .run_totals()
            .flows
            .iter()
            .map(|f| f.sender.segments_sent)
            .sum();
        let m = sim.packet_memory();
        let b = sawtooth_core::resources::bytes;
        eprintln!(
            "engine events {} (model {}); data packets {} (model {}); packet memory peak {} \
             (model {}): scoreboards {}, out of order {}, links {}, hosts {}, bottleneck {}",
            sim.processed_events(),
            e.engine_events,
            sent,
            e.data_packets,
            b(m.total()),
            b(e.in_flight_bytes_max),
            b(m.scoreboards),
            b(m.out_of_order),
            b(m.links),
            b(m.hosts),
            b(m.bottleneck),
        );
    }
    let io = |e: std::io::Error| e.to_string();
    let write_summary = |out: &mut dyn Write| {
        writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&summary).expect("summary serialises")
        )
    };
    let write_series = |out: &mut dyn Write| -> std::io::Result<()> {
        let rec = sim.recorder();
        writeln!(out, "{}", rec.column_names().join(","))?;
        for r in 0..rec.rows() {
            let row: Vec<String> = rec.columns().iter().map(|c| format_value(c[r])).collect();
            writeln!(out, "{}", row.join(","))?;
        }
        Ok(())
    };
    let write_events = |out: &mut dyn Write| -> std::io::Result<()> {
        writeln!(out, "t_s,flow,kind")?;
        for e in sim.recorder().events() {
            writeln!(out, "{},{},{:?}", e.time_s, e.flow, e.kind)?;
        }
        Ok(())
    };
    match format {
        Format::Json => write_summary(out).map_err(io)?,
        Format::Csv => write_series(out).map_err(io)?,
        Format::Events => write_events(out).map_err(io)?,
    }
    if let Some(dir) = out_dir {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        let file = |name: &str| {
            let p = dir.join(name);
            std::fs::File::create(&p)
                .map(std::io::BufWriter::new)
                .map_err(|e| format!("cannot write {}: {e}", p.display()))
        };
        write_series(&mut file("series.csv")?).map_err(io)?;
        write_events(&mut file("events.csv")?).map_err(io)?;
        write_summary(&mut file("summary.json")?).map_err(io)?;
    }
    Ok(())
}

fn estimate(path: &str, out: &mut impl Write) -> Result<(), String> {
    let scenario = read_scenario(path, false)?;
    let estimate = sawtooth_core::resources::estimate(&scenario);
    writeln!(
        out,
        "{}",
        serde_json::to_string_pretty(&estimate).expect("estimate serialises")
    )
    .map_err(|e| e.to_string())
}

/// Labs named by id or number; every lab when none is named.
pub(crate) fn select_labs(only: &[String]) -> Result<Vec<&'static Lab>, String> {
    if only.is_empty() {
        return Ok(labs::labs().labs.iter().collect());
    }
    only.iter()
        .map(|id| {
            labs::labs()
                .labs
                .iter()
                .find(|l| l.number.to_string() == *id)
                .map(Ok)
                .unwrap_or_else(|| find_lab(id))
        })
        .collect()
}

/// Runs in parallel: as asked, else one per available core.
pub(crate) fn jobs_or_cores(jobs: Option<usize>) -> usize {
    jobs.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    })
}

pub(crate) fn find_lab(id: &str) -> Result<&'static Lab, String> {
    labs::lab(id).ok_or_else(|| {
        let ids: Vec<&str> = labs::labs().labs.iter().map(|l| l.id.as_str()).collect();
        format!("no lab {id}; one of {}", ids.join(", "))
    })
}

fn list_labs(out: &mut impl Write) -> Result<(), String> {
    let io = |e: std::io::Error| e.to_string();
    writeln!(
        out,
        "number,id,title,runs_quick,runs_full,simulated_s_quick,simulated_s_full"
    )
    .map_err(io)?;
    for lab in &labs::labs().labs {
        let count = |scale| {
            lab.expand(scale)
                .map(|p| {
                    let secs: f64 = p.iter().map(|p| p.scenario.duration_ms / 1e3).sum();
                    (p.len(), secs)
                })
                .unwrap_or((0, 0.0))
        };
        let (q, qs) = count(Scale::Quick);
        let (f, fs) = count(Scale::Full);
        writeln!(
            out,
            "{},{},{},{q},{f},{qs},{fs}",
            lab.number,
            lab.id,
            csv_field(&lab.title)
        )
        .map_err(io)?;
    }
    Ok(())
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

fn opt(v: Option<f64>) -> String {
    v.map(short).unwrap_or_default()
}

/// A metric for CSV: at most six decimals, trailing zeros dropped.
pub(crate) fn short(v: f64) -> String {
    if !v.is_finite() {
        return String::new();
    }
    let s = format!("{v:.6}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".into()
    } else {
        s.into()
    }
}

fn parse_x(x: &str) -> Result<SweepValue, String> {
    if x == "unlimited" || x == "null" {
        return Ok(SweepValue::Unlimited);
    }
    let bad = || {
        format!(
            "x = {}: expected a number, a pair a/b of numbers or \"unlimited\"",
            input::clip(x)
        )
    };
    if let Some((a, b)) = x.split_once('/') {
        let a: f64 = a.parse().map_err(|_| bad())?;
        let b: f64 = b.parse().map_err(|_| bad())?;
        return Ok(SweepValue::Pair([a, b]));
    }
    x.parse().map(SweepValue::Number).map_err(|_| bad())
}

/// A whole number for an axis that takes whole numbers: the engine would
/// truncate 10.9 to 10 (and saturate 1e20, and take -5 as 0) without a
/// word.
fn check_axis_value(lab: &Lab, x: &SweepValue, text: &str) -> Result<(), String> {
    use labs::Axis;
    let axis = lab.sweep.axis;
    let whole = match axis {
        Axis::WindowBytes
        | Axis::TxqueuelenPkts
        | Axis::StreamsPerHost
        | Axis::FlowPairs
        | Axis::Seed
        | Axis::InitialSsthreshPkts
        | Axis::BufferPkts
        | Axis::MarkThresholdPkts => true,
        Axis::RttMs | Axis::ScalableAb | Axis::BottleneckRateBps | Axis::BufferBdp => false,
    };
    let SweepValue::Number(v) = *x else {
        return Ok(());
    };
    if whole && !(v.fract() == 0.0 && (0.0..=u32::MAX as f64).contains(&v)) {
        let name = serde_json::to_value(axis)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_else(|| format!("{axis:?}"));
        return Err(format!(
            "x = {}: lab {} sweeps {name} ({}), which takes a whole number from 0 to {}",
            input::clip(text),
            lab.id,
            lab.sweep.unit,
            u32::MAX
        ));
    }
    Ok(())
}

fn lab_scenario(
    lab: &str,
    series: &str,
    x: &str,
    seed: Option<u32>,
    quick: bool,
    out: &mut impl Write,
) -> Result<(), String> {
    let lab = find_lab(lab)?;
    let scale = if quick { Scale::Quick } else { Scale::Full };
    let seed = seed.unwrap_or_else(|| lab.seeds(scale)[0]);
    let text = x;
    let x = parse_x(text)?;
    check_axis_value(lab, &x, text)?;
    let point = lab
        .point(series, &x, seed, scale)
        .map_err(|e| e.to_string())?;
    writeln!(
        out,
        "{}",
        serde_json::to_string_pretty(&point.scenario).expect("serialises")
    )
    .map_err(|e| e.to_string())
}

/// The lab's sweep points at `scale`, only the `only` series if any.
pub(crate) fn sweep_points(
    lab: &Lab,
    scale: Scale,
    only: &[String],
) -> Result<Vec<labs::SweepPoint>, String> {
    Ok(lab
        .expand(scale)
        .map_err(|e| format!("lab {}: {e}", lab.id))?
        .into_iter()
        .filter(|p| only.is_empty() || only.contains(&p.series))
        .collect())
}

/// Run sweep points on `jobs` threads; results in the points' order.
pub(crate) fn run_points(
    lab: &'static Lab,
    points: &[labs::SweepPoint],
    scale: Scale,
    jobs: usize,
    progress: Option<&Progress>,
) -> Result<Vec<PointResult>, String> {
    if points.is_empty() {
        return Err("no points to run".into());
    }
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Result<PointResult, String>>>> =
        Mutex::new(vec![None; points.len()]);
    std::thread::scope(|scope| {
        for _ in 0..jobs.max(1).min(points.len()) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(point) = points.get(i) else { break };
                let r = labs::run_point(lab, point, scale).map_err(|e| e.to_string());
                if let Some(p) = progress {
                    p.run_done(progress::work(&point.scenario));
                }
                results.lock().expect("no panics while locked")[i] = Some(r);
            });
        }
    });
    results
        .into_inner()
        .expect("threads finished")
        .into_iter()
        .map(|r| r.expect("every point ran"))
        .collect()
}

fn write_points(lab: &Lab, results: &[PointResult], out: &mut impl Write) -> Result<(), String> {
    let io = |e: std::io::Error| e.to_string();
    let groups = results
        .iter()
        .map(|r| r.group_throughput_mbps.len())
        .max()
        .unwrap_or(0);
    // The (metric, group) pairs the paper gives absolute values for.
    let mut paper_cols: Vec<(Metric, Option<u32>)> = Vec::new();
    for v in labs::paper_values(&lab.id) {
        if v.relation == Relation::Value
            && v.metric != Metric::Rank
            && !paper_cols.contains(&(v.metric, v.group))
        {
            paper_cols.push((v.metric, v.group));
        }
    }
    let mut header: Vec<String> = ["lab", "series", "x", "seed", "groups"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    // Metrics measured on request appear only for the labs that list them.
    let on_request: Vec<Metric> = Metric::ON_REQUEST
        .into_iter()
        .filter(|m| lab.metrics.contains(m))
        .collect();
    let group_share = lab.metrics.contains(&Metric::GroupShare);
    header.extend(Metric::SCALARS.iter().map(|m| m.id().to_string()));
    header.extend(on_request.iter().map(|m| m.id().to_string()));
    header.extend((0..groups).map(|g| format!("group{g}_throughput_mbps")));
    if group_share {
        header.extend((0..groups).map(|g| format!("group{g}_share")));
    }
    header.push("flow_throughput_mbps".into());
    for (m, g) in &paper_cols {
        let name = match g {
            Some(g) => format!("{}_g{g}", m.id()),
            None => m.id().to_string(),
        };
        header.push(format!("paper_{name}"));
        header.push(format!("difference_{name}"));
    }
    writeln!(out, "{}", header.join(",")).map_err(io)?;
    for r in results {
        let mut row = vec![
            r.lab.clone(),
            r.series.clone(),
            csv_field(&r.x.to_string()),
            r.seed.to_string(),
            csv_field(&r.group_labels.join("|")),
        ];
        row.extend(Metric::SCALARS.iter().map(|m| opt(r.value(*m, None))));
        row.extend(on_request.iter().map(|m| opt(r.value(*m, None))));
        row.extend((0..groups).map(|g| opt(r.group_throughput_mbps.get(g).copied())));
        if group_share {
            row.extend((0..groups).map(|g| opt(r.value(Metric::GroupShare, Some(g as u32)))));
        }
        row.push(
            r.flow_throughput_mbps
                .iter()
                .map(|v| format!("{v:.3}"))
                .collect::<Vec<_>>()
                .join(";"),
        );
        for (m, g) in &paper_cols {
            let paper =
                labs::paper_value_at(&lab.id, &r.series, &r.x, *m, *g).and_then(|v| v.value);
            let sim = r.value(*m, *g);
            row.push(opt(paper));
            row.push(opt(paper.zip(sim).map(|(p, s)| s - p)));
        }
        writeln!(out, "{}", row.join(",")).map_err(io)?;
    }
    Ok(())
}

fn write_comparison(
    lab: &Lab,
    results: &[PointResult],
    out: &mut impl Write,
) -> Result<(), String> {
    let io = |e: std::io::Error| e.to_string();
    writeln!(
        out,
        "key,series,metric,group,relation,relative_to,at,paper,paper_low,paper_high,simulated,difference,unit,points,source"
    )
    .map_err(io)?;
    for c in labs::compare(lab, results) {
        let relation = match c.relation {
            Relation::Value => "value",
            Relation::Difference => "difference",
            Relation::Percent => "percent",
        };
        let row = [
            csv_field(&c.key),
            c.series.clone(),
            c.metric.id().to_string(),
            c.group.map(|g| g.to_string()).unwrap_or_default(),
            relation.to_string(),
            c.relative_to.clone().unwrap_or_default(),
            csv_field(&c.at),
            opt(c.paper),
            opt(c.paper_range.map(|r| r[0])),
            opt(c.paper_range.map(|r| r[1])),
            opt(c.simulated),
            opt(c.difference),
            csv_field(&c.unit),
            c.points.to_string(),
            csv_field(&format!(
                "{} {}",
                labs::source_name(&c.source.seed),
                c.source.at
            )),
        ];
        writeln!(out, "{}", row.join(",")).map_err(io)?;
    }
    Ok(())
}

/// Write `bytes` to `path`, or to `out` if no path. Callers write once,
/// after every run has finished, so a stopped job leaves no file (and the
/// merge refuses a truncated one).
fn emit(bytes: &[u8], path: Option<&str>, out: &mut impl Write) -> Result<(), String> {
    match path {
        None => out.write_all(bytes).map_err(|e| e.to_string()),
        Some(path) => std::fs::write(path, bytes).map_err(|e| format!("cannot write {path}: {e}")),
    }
}

#[allow(clippy::too_many_arguments)]
fn sweep(
    lab: &str,
    quick: bool,
    jobs: Option<usize>,
    compare: bool,
    compare_out: Option<&str>,
    only: &[String],
    shard: Option<shard::Shard>,
    out_path: Option<&str>,
    out: &mut impl Write,
) -> Result<(), String> {
    let lab = find_lab(lab)?;
    if shard.is_some() && (compare || compare_out.is_some()) {
        return Err(
            "--compare and --compare-out need the whole sweep: run each --shard, \
             then `sawtooth merge --compare` on the shard files"
                .into(),
        );
    }
    for s in only {
        if lab.series(s).is_none() {
            let ids: Vec<&str> = lab.series.iter().map(|s| s.id.as_str()).collect();
            return Err(format!(
                "lab {} has no series {s}; one of {}",
                lab.id,
                ids.join(", ")
            ));
        }
    }
    let scale = if quick { Scale::Quick } else { Scale::Full };
    let jobs = jobs.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    });
    let points = sweep_points(lab, scale, only)?;
    if points.is_empty() {
        return Err("no points to run".into());
    }
    let indices: Vec<usize> = match shard {
        Some(s) => shard::indices_of(&points, s),
        None => (0..points.len()).collect(),
    };
    let mine: Vec<labs::SweepPoint> = indices.iter().map(|&i| points[i].clone()).collect();
    let results = if mine.is_empty() {
        // A shard past the point count: nothing to run.
        Vec::new()
    } else {
        let progress = Progress::new(
            mine.len() as u64,
            mine.iter().map(|p| progress::work(&p.scenario)).sum(),
        );
        progress.set_stage(&match shard {
            Some(s) => format!("{} {s}", lab.id),
            None => lab.id.clone(),
        });
        let results = run_points(lab, &mine, scale, jobs, Some(&progress));
        progress.finish();
        results?
    };
    if let Some(s) = shard {
        let bytes = shard::write_shard(lab, scale, only, &points, s, &indices, &results)?;
        return emit(&bytes, out_path, out);
    }
    write_sweep(lab, &results, compare, compare_out, out_path, out)
}

/// A whole sweep's output: its runs as CSV, or with `compare` its paper
/// comparison; with `compare_out` the comparison also to that file.
fn write_sweep(
    lab: &Lab,
    results: &[PointResult],
    compare: bool,
    compare_out: Option<&str>,
    out_path: Option<&str>,
    out: &mut impl Write,
) -> Result<(), String> {
    if let Some(path) = compare_out {
        let mut table = Vec::new();
        write_comparison(lab, results, &mut table)?;
        emit(&table, Some(path), out)?;
    }
    let mut bytes = Vec::new();
    if compare {
        write_comparison(lab, results, &mut bytes)?;
    } else {
        write_points(lab, results, &mut bytes)?;
    }
    emit(&bytes, out_path, out)
}

/// `sawtooth merge`: the shards' results, checked and in sweep order,
/// written exactly as the unsharded sweep writes them.
fn merge(
    files: &[String],
    compare: bool,
    compare_out: Option<&str>,
    out_path: Option<&str>,
    out: &mut impl Write,
) -> Result<(), String> {
    let (lab, results) = shard::gather(files)?;
    write_sweep(lab, &results, compare, compare_out, out_path, out)
}

fn format_value(v: f64) -> String {
    if v.is_nan() {
        String::new()
    } else {
        format!("{v}")
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
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
    let mut out = std::io::stdout().lock();
    let result = match cli.command {
        Command::Run {
            scenario,
            format,
            out: dir,
            engine_stats,
        } => run(&scenario, format, dir.as_deref(), engine_stats, &mut out),
        Command::Estimate { scenario } => estimate(&scenario, &mut out),
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
            jobs,
            labs: only,
            out: path,
        } => fidelity::run(quick, jobs, &only, &path),
        Command::Ablation {
            labs: only,
            faithful,
            jobs,
            out: path,
            json,
        } => ablation::run(faithful, jobs, &only, &path, json),
        Command::LabScenario {
            lab,
            series,
            x,
            seed,
            quick,
        } => lab_scenario(&lab, &series, &x, seed, quick, &mut out),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("sawtooth: {}", input::clip_message(&message));
            ExitCode::FAILURE
        }
    }
}
