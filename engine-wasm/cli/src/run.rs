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

pub(crate) fn run(
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

pub(crate) fn estimate(path: &str, out: &mut impl Write) -> Result<(), String> {
    let scenario = read_scenario(path, false)?;
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
