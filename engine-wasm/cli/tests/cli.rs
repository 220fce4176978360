//! The native CLI as a user runs it: results on stdout, errors on stderr
//! with a non-zero exit, files with --out.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn sawtooth(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sawtooth"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the CLI starts");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn default_scenario() -> serde_json::Value {
    let out = sawtooth(&["default-scenario"], "");
    assert!(out.status.success());
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn runs_a_scenario_and_prints_the_summary() {
    let mut s = default_scenario();
    s["duration_ms"] = 2000.into();
    let out = sawtooth(&["run", "-"], &s.to_string());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(summary["total_throughput_bps"].as_f64().unwrap() > 0.0);
}

#[test]
fn a_bad_scenario_names_every_field_on_stderr_and_fails() {
    let mut s = default_scenario();
    s["rtt_ms"] = (-5).into();
    s["bottleneck"]["rate_bps"] = 0.into();
    let out = sawtooth(&["run", "-"], &s.to_string());
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("rtt_ms = -5: must be between 0 and 1000 ms"),
        "{err}"
    );
    assert!(
        err.contains("bottleneck.rate_bps = 0: must be between"),
        "{err}"
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn out_writes_series_events_and_summary() {
    let dir = std::env::temp_dir().join(format!("sawtooth-cli-test-{}", std::process::id()));
    let mut s = default_scenario();
    s["duration_ms"] = 1000.into();
    let out = sawtooth(
        &[
            "run",
            "-",
            "--format",
            "csv",
            "--out",
            dir.to_str().unwrap(),
        ],
        &s.to_string(),
    );
    assert!(out.status.success());
    let series = std::fs::read_to_string(dir.join("series.csv")).unwrap();
    assert_eq!(series, String::from_utf8_lossy(&out.stdout));
    assert_eq!(
        series.lines().count(),
        1 + 100,
        "a header and one row per 10 ms sample"
    );
    assert!(std::fs::read_to_string(dir.join("events.csv"))
        .unwrap()
        .starts_with("t_s,flow,kind"));
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["duration_s"], 1.0);
    std::fs::remove_dir_all(dir).ok();
}

/// Issue 11's shared link: one host, 64 Reno flows, 1 Mb/s, 1 ms samples,
/// 1000 s. It used to run out of memory; now validation stops it.
fn over_budget_scenario() -> serde_json::Value {
    let mut s = default_scenario();
    s["bottleneck"]["rate_bps"] = 1e6.into();
    s["sample_interval_ms"] = 1.into();
    s["duration_ms"] = 1_000_000.into();
    let flow = s["hosts"][0]["flows"][0].clone();
    s["hosts"][0]["flows"] = serde_json::Value::Array(vec![flow; 64]);
    s
}

#[test]
fn a_scenario_over_the_memory_budget_is_refused_with_what_to_change() {
    let out = sawtooth(&["run", "-"], &over_budget_scenario().to_string());
    assert!(!out.status.success());
    assert!(out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("sample_interval_ms = 1: "), "{err}");
    assert!(err.contains("64 flows × 1 000 s"), "{err}");
    assert!(err.contains("use ≥ 20 ms"), "{err}");
    assert!(err.contains("duration_ms"), "{err}");
}

#[test]
fn estimate_sizes_a_scenario_even_over_the_budget() {
    let out = sawtooth(&["estimate", "-"], &over_budget_scenario().to_string());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let e: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(e["samples_per_flow"], 1_000_000);
    assert!(e["recorded_bytes_max"].as_u64().unwrap() > e["budget_bytes"].as_u64().unwrap());
}

#[test]
fn fuzz_prints_a_summary_and_keeps_standard_error_quiet_off_a_terminal() {
    let out = sawtooth(
        &[
            "fuzz",
            "--cases",
            "6",
            "--seed",
            "3",
            "--max-events",
            "20000",
            "--jobs",
            "2",
        ],
        "",
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.is_empty(), "no progress bar off a terminal: {err:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("6 cases from seed 3"), "{text}");
    assert!(text.contains("failures                0"), "{text}");
}

#[test]
fn a_sweep_writes_csv_and_keeps_standard_error_quiet_off_a_terminal() {
    let out = sawtooth(
        &[
            "sweep",
            "back-to-back-30ms",
            "--quick",
            "--series",
            "reno-1500",
        ],
        "",
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.is_empty(), "no per-run lines, no bar: {err:?}");
    let csv = String::from_utf8_lossy(&out.stdout);
    assert!(csv.starts_with("lab,series,x,seed"), "{csv}");
    assert!(csv.lines().count() > 1);
}
