//! Issue 12: a sweep cut into shards (`sweep --shard K/N`) and joined again
//! (`merge`) gives byte for byte the unsharded sweep's CSV and paper
//! comparison, and the merge refuses slices that do not make one sweep.
//! The lab is txqueuelen, the quickest quick sweep (33 runs).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

const LAB: &str = "txqueuelen";
const POINTS: usize = 33;

fn sawtooth(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sawtooth"))
        .args(args)
        .output()
        .expect("the CLI starts")
}

fn ok(args: &[&str]) -> Vec<u8> {
    let out = sawtooth(args);
    assert!(
        out.status.success(),
        "sawtooth {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// The refusal's message (standard error), after checking the exit status
/// is a failure, nothing went to standard output and nothing panicked.
fn refused(args: &[&str]) -> String {
    let out = sawtooth(args);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!out.status.success(), "sawtooth {args:?} succeeded");
    assert!(out.stdout.is_empty(), "sawtooth {args:?} wrote output");
    assert!(!err.contains("panicked"), "{err}");
    err
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

struct Sweep {
    dir: PathBuf,
    csv: Vec<u8>,
    compare: Vec<u8>,
    /// Shard k of 3 at index k - 1.
    thirds: Vec<PathBuf>,
}

/// The unsharded quick sweep and its three shards, run once for every test.
fn sweep() -> &'static Sweep {
    static SWEEP: OnceLock<Sweep> = OnceLock::new();
    SWEEP.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("shard-test");
        std::fs::remove_dir_all(&dir).ok();
        std::fs::create_dir_all(&dir).unwrap();
        let compare_out = dir.join("compare.csv");
        let csv = ok(&[
            "sweep",
            LAB,
            "--quick",
            "--jobs",
            "2",
            "--compare-out",
            s(&compare_out),
        ]);
        let compare = std::fs::read(&compare_out).unwrap();
        let thirds = (1..=3)
            .map(|k| {
                let path = dir.join(format!("third-{k}.csv"));
                ok(&[
                    "sweep",
                    LAB,
                    "--quick",
                    "--jobs",
                    "2",
                    "--shard",
                    &format!("{k}/3"),
                    "--out",
                    s(&path),
                ]);
                path
            })
            .collect();
        Sweep {
            dir,
            csv,
            compare,
            thirds,
        }
    })
}

fn thirds(order: &[usize]) -> Vec<&'static str> {
    order.iter().map(|&k| s(&sweep().thirds[k - 1])).collect()
}

#[test]
fn three_shards_merge_into_the_unsharded_csv_and_comparison() {
    let sw = sweep();
    let unsharded = String::from_utf8(sw.csv.clone()).unwrap();
    assert_eq!(
        unsharded.lines().filter(|l| !l.starts_with('#')).count(),
        1 + POINTS,
        "the whole quick sweep ran unsharded"
    );
    // A sweep file: its CSV, a record per run, and the closing line the
    // guided lab checks (issue 27).
    assert_eq!(unsharded.matches("\n# point ").count(), POINTS);
    let closing = unsharded.lines().last().unwrap();
    assert!(
        closing.starts_with(&format!(
            "# sawtooth-sweep 2 lab=txqueuelen scale=quick series=all points={POINTS} engine="
        )),
        "{closing}"
    );
    assert!(closing.contains(" results="), "{closing}");
    assert!(closing.contains(" digest="), "{closing}");
    // Each shard is that CSV's header and some of its rows, each row in
    // exactly one shard, no shard empty, none holding nearly everything.
    let mut header_and_rows = unsharded.lines().filter(|l| !l.starts_with('#'));
    let header = header_and_rows.next().unwrap();
    let mut seen = Vec::new();
    for path in &sw.thirds {
        let text = std::fs::read_to_string(path).unwrap();
        let mut lines = text.lines();
        let meta = lines.next().unwrap();
        assert!(meta.starts_with("# sawtooth-shard 2 lab=txqueuelen scale=quick series=all"));
        assert!(meta.contains(" digest="), "{meta}");
        assert!(meta.contains(&format!("points={POINTS}")), "{meta}");
        assert_eq!(lines.next().unwrap(), header);
        let rows: Vec<&str> = lines.take_while(|l| !l.starts_with('#')).collect();
        assert!((5..=20).contains(&rows.len()), "{path:?}: {}", rows.len());
        assert_eq!(text.matches("\n# point ").count(), rows.len());
        seen.extend(rows.into_iter().map(str::to_string));
    }
    let mut expected: Vec<String> = header_and_rows.map(str::to_string).collect();
    expected.sort();
    seen.sort();
    assert_eq!(seen, expected, "every run in exactly one shard");

    // Any order of the files; standard output or --out.
    let mut args = vec!["merge"];
    args.extend(thirds(&[3, 1, 2]));
    assert_eq!(ok(&args), sw.csv, "merged CSV = unsharded CSV");
    let out = sw.dir.join("merged.csv");
    let mut with_out = args.clone();
    with_out.extend(["--out", s(&out)]);
    assert!(ok(&with_out).is_empty());
    assert_eq!(std::fs::read(&out).unwrap(), sw.csv);
    args.push("--compare");
    let compare = ok(&args);
    assert!(String::from_utf8_lossy(&compare).lines().count() > 2);
    assert_eq!(compare, sw.compare, "merged --compare = sweep --compare");
}

#[test]
fn more_shards_than_runs_leave_some_empty_and_still_merge_exactly() {
    let sw = sweep();
    let n = POINTS + 7;
    let dir = sw.dir.join("many");
    std::fs::create_dir_all(&dir).unwrap();
    let paths: Vec<PathBuf> = (1..=n).map(|k| dir.join(format!("{k}.csv"))).collect();
    for (k, path) in paths.iter().enumerate() {
        ok(&[
            "sweep",
            LAB,
            "--quick",
            "--jobs",
            "1",
            "--shard",
            &format!("{}/{n}", k + 1),
            "--out",
            s(path),
        ]);
    }
    let rows = |p: &PathBuf| {
        std::fs::read_to_string(p)
            .unwrap()
            .lines()
            .filter(|l| l.starts_with("txqueuelen,"))
            .count()
    };
    let counts: Vec<usize> = paths.iter().map(rows).collect();
    assert_eq!(counts.iter().filter(|&&c| c == 1).count(), POINTS);
    assert_eq!(counts.iter().filter(|&&c| c == 0).count(), n - POINTS);
    // An empty shard is still a header and the CSV's header line.
    let empty = std::fs::read_to_string(&paths[n - 1]).unwrap();
    assert!(empty.starts_with("# sawtooth-shard 2 "), "{empty}");
    assert_eq!(empty.lines().count(), 2, "{empty}");

    let mut args = vec!["merge"];
    args.extend(paths.iter().rev().map(|p| s(p)));
    assert_eq!(ok(&args), sw.csv);
    args.push("--compare");
    assert_eq!(ok(&args), sw.compare);
}

#[test]
fn a_missing_shard_is_named() {
    let mut args = vec!["merge"];
    args.extend(thirds(&[1, 3]));
    let err = refused(&args);
    assert!(err.contains("missing shard 2/3 of lab txqueuelen"), "{err}");
}

#[test]
fn a_duplicate_shard_is_named() {
    let mut args = vec!["merge"];
    args.extend(thirds(&[1, 2, 2, 3]));
    let err = refused(&args);
    assert!(err.contains("shard 2/3 given twice"), "{err}");
    assert!(err.contains("third-2.csv"), "{err}");
}

#[test]
fn shards_of_another_lab_are_refused() {
    let sw = sweep();
    let other = sw.dir.join("other-lab.csv");
    ok(&[
        "sweep",
        "back-to-back",
        "--quick",
        "--series",
        "reno-1500",
        "--shard",
        "2/3",
        "--out",
        s(&other),
    ]);
    let mut args = vec!["merge"];
    args.extend(thirds(&[1, 3]));
    args.push(s(&other));
    let err = refused(&args);
    assert!(
        err.contains("has lab back-to-back but") && err.contains("has lab txqueuelen"),
        "{err}"
    );
    assert!(err.contains("merge the shards of one sweep only"), "{err}");
}

/// Shard 2 of 3 with `from` replaced by `to`, saved as `name`.
fn edited(name: &str, from: &str, to: &str) -> PathBuf {
    let text = std::fs::read_to_string(&sweep().thirds[1]).unwrap();
    assert!(text.contains(from), "{from}");
    let path = sweep().dir.join(name);
    std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
    path
}

#[test]
fn another_scale_or_engine_build_is_refused() {
    let full = edited("full.csv", "scale=quick", "scale=full");
    let mut args = vec!["merge"];
    args.extend(thirds(&[1, 3]));
    args.push(s(&full));
    let err = refused(&args);
    assert!(err.contains("has scale full but"), "{err}");

    // Every shard from one other build: the merge names both builds.
    let text = std::fs::read_to_string(&sweep().thirds[0]).unwrap();
    let engine = text
        .split_whitespace()
        .find(|w| w.starts_with("engine="))
        .unwrap()
        .to_string();
    let paths: Vec<PathBuf> = (1..=3)
        .map(|k| {
            let text = std::fs::read_to_string(&sweep().thirds[k - 1]).unwrap();
            let path = sweep().dir.join(format!("old-engine-{k}.csv"));
            std::fs::write(
                &path,
                text.replacen(&engine, "engine=0.0.1+0000000000000000", 1),
            )
            .unwrap();
            path
        })
        .collect();
    let mut args = vec!["merge"];
    args.extend(paths.iter().map(|p| s(p)));
    let err = refused(&args);
    assert!(
        err.contains("made by engine 0.0.1+0000000000000000, but this sawtooth is engine"),
        "{err}"
    );
}

#[test]
fn an_edited_row_or_a_plain_sweep_csv_is_refused() {
    // A throughput changed in the CSV but not in its point record.
    let text = std::fs::read_to_string(&sweep().thirds[1]).unwrap();
    let row = text.lines().nth(2).unwrap();
    let field = row.split(',').nth(5).unwrap();
    let row_edited = row.replacen(&format!(",{field},"), ",1,", 1);
    let edited = edited("edited.csv", row, &row_edited);
    let mut args = vec!["merge"];
    args.extend(thirds(&[1, 3]));
    args.push(s(&edited));
    let err = refused(&args);
    assert!(
        err.contains("CSV rows differ from its point records"),
        "{err}"
    );

    // A shard cut short (its last point record lost).
    let cut = text[..text.trim_end().rfind('\n').unwrap() + 1].to_string();
    let cut_path = sweep().dir.join("cut.csv");
    std::fs::write(&cut_path, cut).unwrap();
    let mut args = vec!["merge"];
    args.extend(thirds(&[1, 3]));
    args.push(s(&cut_path));
    let err = refused(&args);
    assert!(err.contains("cut.csv (shard 2/3) holds points"), "{err}");

    let plain = sweep().dir.join("plain.csv");
    std::fs::write(&plain, &sweep().csv).unwrap();
    let err = refused(&["merge", s(&plain)]);
    assert!(err.contains("plain.csv is not a shard of a sweep"), "{err}");
}

#[test]
fn a_bad_shard_argument_names_the_flag_and_the_form() {
    for bad in ["0/3", "4/3", "3", "1/0", "a/3", "1/3/3", "-1/3"] {
        let err = refused(&["sweep", LAB, "--quick", "--shard", bad]);
        assert!(err.contains("--shard"), "{bad}: {err}");
        assert!(err.contains("the form is K/N"), "{bad}: {err}");
    }
    let err = refused(&["sweep", LAB, "--quick", "--shard", "4/3"]);
    assert!(err.contains("K = 4 must be between 1 and N = 3"), "{err}");
    let err = refused(&["sweep", LAB, "--quick", "--shard", "1/3", "--compare"]);
    assert!(err.contains("sawtooth merge --compare"), "{err}");
}

// Issue 28: a header's shard count bounds nothing; a shard's digest; line
// endings.

/// `sawtooth ARGS` in at most 1 GB of address space: a merge that
/// allocated by a header's N would abort.
fn refused_in_1gb(args: &[&str]) -> String {
    let out = Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 1000000 && exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_sawtooth"))
        .args(args)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.code().is_some(), "killed by a signal: {err}");
    assert!(!out.status.success(), "sawtooth {args:?} succeeded");
    assert!(!err.contains("panicked"), "{err}");
    err
}

#[test]
fn a_huge_shard_count_in_a_header_costs_nothing() {
    for n in ["100000000", "4294967295"] {
        let name = format!("huge-{n}.csv");
        let path = edited(&name, "shard=2/3", &format!("shard=1/{n}"));
        let started = std::time::Instant::now();
        let err = refused_in_1gb(&["merge", s(&path)]);
        assert!(
            started.elapsed().as_secs() < 10,
            "took {:?}",
            started.elapsed()
        );
        assert!(
            err.contains(&format!("missing shards 2/{n}, 3/{n}")),
            "{err}"
        );
        assert!(err.contains("…"), "{err}");
        assert!(err.contains(&name), "names the file: {err}");
        assert!(err.len() < 2000, "{err}");
    }
}

#[test]
fn a_consistent_edit_of_a_row_and_its_record_is_refused() {
    let text = std::fs::read_to_string(&sweep().thirds[1]).unwrap();
    let mut lines = text.lines();
    lines.next();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = header
        .iter()
        .position(|&c| c == "local_congestion_events")
        .unwrap();
    let row = lines.next().unwrap();
    let mut fields: Vec<&str> = row.split(',').collect();
    let old = fields[col].to_string();
    let new = (old.parse::<u64>().unwrap() + 7).to_string();
    fields[col] = &new;
    let record = text.lines().find(|l| l.starts_with("# point ")).unwrap();
    let from = format!("\"local_congestion_events\":{old},");
    assert!(record.contains(&from), "{record}");
    let record_edited = record.replacen(&from, &format!("\"local_congestion_events\":{new},"), 1);
    let both = text
        .replacen(row, &fields.join(","), 1)
        .replacen(record, &record_edited, 1);
    let path = sweep().dir.join("consistent-edit.csv");
    std::fs::write(&path, both).unwrap();
    let mut args = vec!["merge"];
    args.extend(thirds(&[1, 3]));
    args.push(s(&path));
    let err = refused(&args);
    assert!(err.contains("consistent-edit.csv"), "{err}");
    assert!(err.contains("does not match its digest"), "{err}");

    // A shard without a digest (format 1) is named as such.
    let old_format = sweep().dir.join("format-1.csv");
    let first = text.lines().next().unwrap();
    let without = first[..first.find(" digest=").unwrap()].replacen("shard 2 ", "shard 1 ", 1);
    std::fs::write(&old_format, text.replacen(first, &without, 1)).unwrap();
    let err = refused(&["merge", s(&old_format)]);
    assert!(err.contains("format-1.csv: shard format 1"), "{err}");
}

#[test]
fn crlf_line_endings_and_trailing_blank_lines_are_accepted() {
    let sw = sweep();
    let text = std::fs::read_to_string(&sw.thirds[1]).unwrap();
    let crlf = sw.dir.join("crlf.csv");
    std::fs::write(&crlf, text.replace('\n', "\r\n")).unwrap();
    let blank = sw.dir.join("blank.csv");
    std::fs::write(&blank, format!("{text}\n\n")).unwrap();
    let both = sw.dir.join("crlf-blank.csv");
    std::fs::write(&both, format!("{}\r\n \r\n", text.replace('\n', "\r\n"))).unwrap();
    let bom = sw.dir.join("bom.csv");
    std::fs::write(&bom, format!("\u{feff}{text}")).unwrap();
    for p in [&crlf, &blank, &both, &bom] {
        let third = std::fs::read_to_string(&sw.thirds[2]).unwrap();
        let crlf3 = sw.dir.join("crlf-3.csv");
        std::fs::write(&crlf3, third.replace('\n', "\r\n")).unwrap();
        let out = sawtooth(&["merge", s(&sw.thirds[0]), s(p), s(&crlf3)]);
        assert!(
            out.status.success(),
            "{p:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(out.stdout, sw.csv, "{p:?}");
    }
    // An empty shard with a trailing blank line.
    let n = POINTS + 1;
    let empty = sw.dir.join("empty-blank.csv");
    ok(&[
        "sweep",
        LAB,
        "--quick",
        "--shard",
        &format!("{n}/{n}"),
        "--out",
        s(&empty),
    ]);
    let text = std::fs::read_to_string(&empty).unwrap();
    std::fs::write(&empty, format!("{text}\n")).unwrap();
    let err = refused(&["merge", s(&empty)]);
    assert!(err.contains(&format!("missing shards 1/{n}")), "{err}");

    // A blank line inside the file is named, not taken for a CSV row.
    let inner = sw.dir.join("inner-blank.csv");
    let mut lines: Vec<&str> = std::fs::read_to_string(&sw.thirds[1])
        .unwrap()
        .leak()
        .lines()
        .collect();
    lines.insert(3, "");
    std::fs::write(&inner, lines.join("\n") + "\n").unwrap();
    let err = refused(&["merge", s(&sw.thirds[0]), s(&inner), s(&sw.thirds[2])]);
    assert!(err.contains("inner-blank.csv:4: a blank line"), "{err}");
}
