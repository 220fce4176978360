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
