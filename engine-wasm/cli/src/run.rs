//! `sawtooth run` and `sawtooth estimate`: a scenario file read (from a
//! path or standard input), run to the end and written as its summary,
//! series or events; or the resource model's estimate of it.

use crate::{input, Format};
use sawtooth_core::{Scenario, Simulation};
use std::io::Write;

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
/// key given twice in one object; with `trace`, the bottleneck follows
/// that Mahimahi trace file (`--trace`).
fn read_scenario(path: &str, trace: Option<&str>, validate: bool) -> Result<Scenario, String> {
    let text = read_input(path)?;
    let what = if validate {
        "invalid scenario"
    } else {
        "unreadable scenario"
    };
    input::no_duplicate_keys(&text).map_err(|e| scenario_errors(what, path, &[e]))?;
    let mut scenario =
        Scenario::parse_json(&text).map_err(|errors| scenario_errors(what, path, &errors))?;
    if let Some(file) = trace {
        scenario.bottleneck.trace = Some(read_trace(file)?);
    }
    if validate {
        let errors = scenario.validate();
        if !errors.is_empty() {
            let errors: Vec<_> = errors.into_iter().map(|e| trace_line(e, trace)).collect();
            return Err(scenario_errors(what, path, &errors));
        }
    }
    Ok(scenario)
}

/// A Mahimahi trace file as a scenario's `bottleneck.trace`, named by its
/// file name.
fn read_trace(path: &str) -> Result<sawtooth_core::scenario::LinkTrace, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let opportunities_ms = sawtooth_core::link_trace::parse_mahimahi(&text)
        .map_err(|e| format!("invalid trace {path}: {e}"))?;
    let name = std::path::Path::new(path)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned());
    // The trace's own rules are checked with the scenario's, which name
    // the file's lines (`trace_line`).
    Ok(sawtooth_core::scenario::LinkTrace {
        name,
        opportunities_ms,
    })
}

/// A trace problem at one line, named by the file's line when the trace
/// came from `--trace`.
fn trace_line(
    mut e: sawtooth_core::ValidationError,
    trace: Option<&str>,
) -> sawtooth_core::ValidationError {
    const FIELD: &str = "bottleneck.trace.opportunities_ms";
    if let Some(file) = trace {
        let index = e
            .field
            .strip_prefix(FIELD)
            .and_then(|rest| rest.strip_prefix('['))
            .and_then(|rest| rest.strip_suffix(']'))
            .and_then(|i| i.parse::<usize>().ok());
        if let Some(i) = index {
            e.field = format!("{file} line {} ({})", i + 1, e.field);
        } else if e.field == FIELD {
            e.field = format!("{file} ({FIELD})");
        }
    }
    e
}

pub(crate) fn run(
    path: &str,
    trace: Option<&str>,
    format: Format,
    out_dir: Option<&std::path::Path>,
    engine_stats: bool,
    out: &mut impl Write,
) -> Result<(), String> {
    let scenario = read_scenario(path, trace, true)?;
    // The folder is made (or found not to be one) before the run.
    if let Some(dir) = out_dir {
        if dir.as_os_str() == crate::output::STDOUT {
            return Err(
                "--out -: run writes its output to standard output already; --out takes a folder"
                    .into(),
            );
        }
        if dir.exists() && !dir.is_dir() {
            return Err(format!(
                "--out {}: is a file; --out takes a folder (series.csv, events.csv and summary.json go in it)",
                dir.display()
            ));
        }
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("--out {}: cannot create the folder: {e}", dir.display()))?;
    }
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
            writeln!(out, "{},{},{}", e.time_s, e.flow, e.kind.name())?;
        }
        Ok(())
    };
    // The folder first: what happens to standard output (a reader that
    // stops early) must not cost the files.
    if let Some(dir) = out_dir {
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
    match format {
        Format::Json => write_summary(out).map_err(io)?,
        Format::Csv => write_series(out).map_err(io)?,
        Format::Events => write_events(out).map_err(io)?,
    }
    Ok(())
}

/// `sawtooth validate`: the scenario's problems (an error), or a line
/// saying it is valid.
pub(crate) fn validate(
    path: &str,
    trace: Option<&str>,
    out: &mut impl Write,
) -> Result<(), String> {
    read_scenario(path, trace, true)?;
    writeln!(out, "valid scenario {path}").map_err(|e| e.to_string())
}

pub(crate) fn estimate(
    path: &str,
    trace: Option<&str>,
    out: &mut impl Write,
) -> Result<(), String> {
    let scenario = read_scenario(path, trace, false)?;
    let estimate = sawtooth_core::resources::estimate(&scenario);
    writeln!(
        out,
        "{}",
        serde_json::to_string_pretty(&estimate).expect("estimate serialises")
    )
    .map_err(|e| e.to_string())
}

fn format_value(v: f64) -> String {
    if v.is_nan() {
        String::new()
    } else {
        format!("{v}")
    }
}
