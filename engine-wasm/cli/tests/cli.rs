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

// Issue 28: what the CLI reads and how it answers bad input.

fn short_scenario() -> serde_json::Value {
    let mut s = default_scenario();
    s["duration_ms"] = 1000.into();
    s
}

/// The refusal's message (standard error), after checking the exit status
/// is a failure, nothing went to standard output and nothing panicked.
fn refused(args: &[&str], stdin: &str) -> String {
    let out = sawtooth(args, stdin);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!out.status.success(), "sawtooth {args:?} succeeded");
    assert!(out.status.code().is_some(), "killed by a signal: {err}");
    assert!(out.stdout.is_empty(), "sawtooth {args:?} wrote output");
    assert!(!err.contains("panicked"), "{err}");
    err
}

#[test]
fn a_scenario_starting_with_a_byte_order_mark_is_read() {
    let text = format!("\u{feff}{}", short_scenario());
    let out = sawtooth(&["run", "-"], &text);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let path = std::env::temp_dir().join(format!("sawtooth-bom-{}.json", std::process::id()));
    std::fs::write(&path, &text).unwrap();
    let out = sawtooth(&["estimate", path.to_str().unwrap()], "");
    std::fs::remove_file(&path).ok();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Only a leading one: a byte-order mark elsewhere is still not JSON.
    let err = refused(&["run", "-"], &format!("{}\u{feff}", short_scenario()));
    assert!(err.contains("is not valid JSON"), "{err}");
}

#[test]
fn a_key_given_twice_is_refused_naming_it() {
    let text = short_scenario().to_string();
    let top = text.replacen('{', "{\"rtt_ms\":5,", 1);
    let err = refused(&["run", "-"], &top);
    assert!(err.contains("rtt_ms"), "{err}");
    assert!(err.contains("given more than once"), "{err}");
    let err = refused(&["estimate", "-"], &top);
    assert!(err.contains("rtt_ms: given more than once"), "{err}");
    // Nested: the path to the key.
    let nested = text.replacen("\"nic_bps\"", "\"nic_bps\":1e9,\"nic_bps\"", 1);
    assert_ne!(nested, text);
    let err = refused(&["run", "-"], &nested);
    assert!(
        err.contains("hosts[0].nic_bps: given more than once"),
        "{err}"
    );
    // The same key in two objects is fine.
    let out = sawtooth(&["run", "-"], &text);
    assert!(out.status.success());
}

#[test]
fn long_values_are_clipped_in_messages() {
    let mut s = short_scenario();
    s["profile"] = "y".repeat(1_000_000).into();
    let err = refused(&["run", "-"], &s.to_string());
    assert!(err.len() < 2000, "{} bytes", err.len());
    assert!(
        err.contains(&format!(
            "profile = {}…(999920 more characters)",
            "y".repeat(80)
        )),
        "{err}"
    );
    assert!(err.contains("is not a known profile; one of"), "{err}");

    // A long unknown name inside a message (serde's, with the name quoted).
    let mut s = short_scenario();
    s["bottleneck"]["aqm"]["kind"] = "z".repeat(100_000).into();
    let err = refused(&["run", "-"], &s.to_string());
    assert!(err.len() < 2000, "{} bytes: {}", err.len(), &err[..200]);
    assert!(err.contains("(99920 more characters)"), "{err}");
    assert!(err.contains("bottleneck.aqm"), "{err}");

    // A tiny number is written short, not in 300 digits.
    let mut s = short_scenario();
    s["duration_ms"] = 1e-300.into();
    let err = refused(&["run", "-"], &s.to_string());
    assert!(
        err.contains("duration_ms = 1e-300: must be between 1 and 3600000 ms"),
        "{err}"
    );

    // A long argument in the CLI's own messages.
    let long = "q".repeat(5000);
    let err = refused(&["lab-scenario", &long, "reno", "10"], "");
    assert!(err.len() < 2000, "{err}");
    assert!(err.contains("(4920 more characters)"), "{err}");
}

#[test]
fn a_non_integer_for_an_integer_axis_is_refused() {
    let err = refused(
        &["lab-scenario", "txqueuelen", "reno", "10.9", "--quick"],
        "",
    );
    assert!(err.contains("10.9"), "{err}");
    assert!(err.contains("txqueuelen_pkts"), "{err}");
    assert!(err.contains("a whole number"), "{err}");
    for bad in ["1e20", "-5", "NaN", "inf"] {
        let err = refused(&["lab-scenario", "txqueuelen", "reno", bad, "--quick"], "");
        assert!(
            err.contains("a whole number from 0 to 4294967295"),
            "{bad}: {err}"
        );
    }
    let out = sawtooth(&["lab-scenario", "txqueuelen", "reno", "10", "--quick"], "");
    assert!(out.status.success());
    let s: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(s["hosts"][0]["txqueuelen_pkts"], 10);
    // A continuous axis takes fractions.
    let out = sawtooth(
        &[
            "lab-scenario",
            "rtt-fairness",
            "newreno-vs-newreno",
            "10.5",
            "--quick",
        ],
        "",
    );
    assert!(out.status.success());
    let s: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(s["rtt_ms"], 10.5);
}

#[test]
fn fuzz_refuses_an_absurd_case_count_without_panicking() {
    let err = refused(&["fuzz", "--cases", "18446744073709551615"], "");
    assert!(err.contains("--cases"), "{err}");
    assert!(err.contains("1000000000"), "{err}");
}

#[test]
fn fuzz_does_not_allocate_by_the_case_count() {
    // 10^8 cases in 2 GB of address space: it used to reserve 8 GB at the
    // start and abort; now it runs (and is stopped here).
    let mut child = Command::new("sh")
        .args([
            "-c",
            "ulimit -v 2000000 && exec \"$0\" \"$@\"",
            env!("CARGO_BIN_EXE_sawtooth"),
            "fuzz",
            "--cases",
            "100000000",
            "--max-events",
            "2000",
            "--jobs",
            "1",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let status = child.try_wait().unwrap();
    if status.is_none() {
        child.kill().unwrap();
    }
    let out = child.wait_with_output().unwrap();
    assert!(
        status.is_none(),
        "exited with {status:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `--trace FILE` drives the bottleneck with a Mahimahi trace: one
/// opportunity a millisecond (12.032 Mb/s) caps the flow's throughput at a
/// 1448-byte payload a millisecond, whatever `rate_bps` says; the series
/// gains the link's capacity column. A bad line is named by file and line.
#[test]
fn trace_drives_the_bottleneck_from_a_mahimahi_file() {
    let dir = std::env::temp_dir().join(format!("sawtooth-trace-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("constant.trace");
    std::fs::write(&good, "1\n").unwrap();
    let mut s = default_scenario();
    s["duration_ms"] = 3000.into();
    let text = s.to_string();
    let out = sawtooth(&["run", "-", "--trace", good.to_str().unwrap()], &text);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let throughput = summary["total_throughput_bps"].as_f64().unwrap();
    assert!(throughput <= 1448.0 * 8.0 * 1000.0, "{throughput}");
    assert!(throughput > 1448.0 * 8.0 * 1000.0 * 0.5, "{throughput}");
    let out = sawtooth(
        &[
            "run",
            "-",
            "--format",
            "csv",
            "--trace",
            good.to_str().unwrap(),
        ],
        &text,
    );
    let csv = String::from_utf8(out.stdout).unwrap();
    assert!(csv.lines().next().unwrap().ends_with(",link.capacity_bps"));

    let bad = dir.join("unordered.trace");
    std::fs::write(&bad, "1\n2\n5\n4\n").unwrap();
    let out = sawtooth(&["run", "-", "--trace", bad.to_str().unwrap()], &text);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("unordered.trace line 4"), "{err}");
    assert!(err.contains("non-decreasing"), "{err}");

    let junk = dir.join("junk.trace");
    std::fs::write(&junk, "1\n2\nabc\n").unwrap();
    let out = sawtooth(&["run", "-", "--trace", junk.to_str().unwrap()], &text);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("line 3"), "{err}");
    assert!(err.contains("not a whole number"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

/// 10 s at 10 ms samples: a series CSV of 1000 rows.
fn long_series_scenario() -> serde_json::Value {
    let mut s = default_scenario();
    s["duration_ms"] = 10_000.into();
    s
}

/// A reader that stops early (`| head -1`): the command still writes its
/// --out folder and exits 0 without a word, as a Unix tool does.
#[test]
fn a_reader_that_stops_early_costs_neither_the_out_folder_nor_the_exit_status() {
    let dir = std::env::temp_dir().join(format!("sawtooth-cli-pipe-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut child = Command::new(env!("CARGO_BIN_EXE_sawtooth"))
        .args([
            "run",
            "-",
            "--format",
            "csv",
            "--out",
            dir.to_str().unwrap(),
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(long_series_scenario().to_string().as_bytes())
        .unwrap();
    // Read a little, then close the pipe: the 1000-row series (about 150 KB)
    // cannot fit the pipe's buffer (64 KB), so later writes meet a closed
    // pipe whatever the timing.
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 16];
    std::io::Read::read_exact(&mut stdout, &mut first).unwrap();
    drop(stdout);
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.is_empty(), "{err}");
    assert_eq!(
        std::fs::read_to_string(dir.join("series.csv"))
            .unwrap()
            .lines()
            .count(),
        1001
    );
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn events_are_named_as_the_page_names_them() {
    let mut s = short_scenario();
    s["loss_rate"] = 0.01.into();
    let out = sawtooth(&["run", "-", "--format", "events"], &s.to_string());
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let kinds: std::collections::BTreeSet<&str> = text
        .lines()
        .skip(1)
        .filter_map(|l| l.rsplit(',').next())
        .collect();
    assert!(kinds.contains("network_loss"), "{kinds:?}");
    assert!(
        kinds
            .iter()
            .all(|k| k.chars().all(|c| c.is_ascii_lowercase() || c == '_')),
        "{kinds:?}"
    );
}

/// An output file that cannot be written is refused before any run, and a
/// file given to `run --out` (which takes a folder) likewise.
#[test]
fn outputs_are_checked_before_anything_runs() {
    let missing = std::env::temp_dir()
        .join(format!("sawtooth-no-such-folder-{}", std::process::id()))
        .join("x.csv");
    let err = refused(
        &[
            "sweep",
            "two-to-one",
            "--quick",
            "--jobs",
            "1",
            "--out",
            missing.to_str().unwrap(),
        ],
        "",
    );
    assert!(
        err.contains("--out") && err.contains("cannot write there"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    let file = std::env::temp_dir().join(format!("sawtooth-cli-file-{}", std::process::id()));
    std::fs::write(&file, "").unwrap();
    let err = refused(
        &["run", "-", "--out", file.to_str().unwrap()],
        &short_scenario().to_string(),
    );
    assert!(err.contains("takes a folder"), "{err}");
    std::fs::remove_file(file).ok();
}

#[test]
fn a_lab_is_named_by_its_id_or_its_number_and_a_bad_series_lists_the_good_ones() {
    let by_number = sawtooth(&["lab-scenario", "14", "dctcp", "20", "--quick"], "");
    let by_id = sawtooth(
        &["lab-scenario", "dctcp-threshold", "dctcp", "20", "--quick"],
        "",
    );
    assert!(by_number.status.success());
    assert_eq!(by_number.stdout, by_id.stdout);
    let err = refused(&["lab-scenario", "14", "nos", "20"], "");
    assert!(err.contains("one of dctcp, reno-drop-tail"), "{err}");
    let err = refused(&["lab-scenario", "14", "dctcp", "0"], "");
    assert!(
        err.contains("mark_threshold_pkts") && err.contains("from 1"),
        "{err}"
    );
}

#[test]
fn version_names_the_engine_build() {
    let out = sawtooth(&["--version"], "");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with("sawtooth 0.") && text.contains('+'),
        "{text}"
    );
}

#[test]
fn validate_checks_a_scenario_without_running_it() {
    let out = sawtooth(&["validate", "-"], &short_scenario().to_string());
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout), "valid scenario -\n");
    let mut s = short_scenario();
    s["rtt_ms"] = (-5).into();
    let err = refused(&["validate", "-"], &s.to_string());
    assert!(err.contains("rtt_ms = -5: must be between"), "{err}");
}
