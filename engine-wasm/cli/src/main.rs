//! `sawtooth`: run a scenario file natively and print its results.

use clap::{Parser, Subcommand, ValueEnum};
use sawtooth_core::{Scenario, Simulation};
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
    },
    /// Print the default scenario as JSON.
    DefaultScenario,
    /// Print the algorithm catalogue as JSON.
    Catalogue,
}

fn read_input(path: &str) -> Result<String, String> {
    if path == "-" {
        std::io::read_to_string(std::io::stdin())
            .map_err(|e| format!("cannot read standard input: {e}"))
    } else {
        std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))
    }
}

fn run(path: &str, format: Format, out: &mut impl Write) -> Result<(), String> {
    let text = read_input(path)?;
    let scenario = Scenario::from_json(&text).map_err(|errors| {
        let lines: Vec<String> = errors.iter().map(|e| format!("  {e}")).collect();
        format!("invalid scenario {path}:\n{}", lines.join("\n"))
    })?;
    let mut sim = Simulation::new(&scenario).map_err(|e| format!("{e:?}"))?;
    let summary = sim.run_to_end();
    let io = |e: std::io::Error| e.to_string();
    match format {
        Format::Json => writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&summary).expect("summary serialises")
        )
        .map_err(io)?,
        Format::Csv => {
            let rec = sim.recorder();
            writeln!(out, "{}", rec.column_names().join(",")).map_err(io)?;
            for r in 0..rec.rows() {
                let row: Vec<String> = rec.columns().iter().map(|c| format_value(c[r])).collect();
                writeln!(out, "{}", row.join(",")).map_err(io)?;
            }
        }
        Format::Events => {
            writeln!(out, "t_s,flow,kind").map_err(io)?;
            for e in sim.recorder().events() {
                writeln!(out, "{},{},{:?}", e.time_s, e.flow, e.kind).map_err(io)?;
            }
        }
    }
    Ok(())
}

fn format_value(v: f64) -> String {
    if v.is_nan() {
        String::new()
    } else {
        format!("{v}")
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let mut out = std::io::stdout().lock();
    let result = match cli.command {
        Command::Run { scenario, format } => run(&scenario, format, &mut out),
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
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("sawtooth: {message}");
            ExitCode::FAILURE
        }
    }
}
