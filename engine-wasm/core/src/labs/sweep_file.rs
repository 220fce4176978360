//! A sweep's results as a file (issue 27): what `sawtooth sweep` and
//! `sawtooth merge` write and the guided lab opens. The CSV of the runs
//! comes first, unchanged (its header on line 1, one row per run); then
//! each run's exact result as a `# point` record; then one closing line
//! that says which sweep this is and which engine ran it:
//!
//! ```text
//! lab,series,x,seed,...                 (the CSV, as before)
//! # point I {...}                       (each run's exact result, in sweep order)
//! # sawtooth-sweep 2 lab=LAB scale=quick series=all points=P engine=V+H results=R sweep=H digest=D
//! ```
//!
//! Tools that skip `#` comments read the CSV as before. The closing line
//! comes last so that a file cut short has none. `digest` is FNV-1a (64
//! bits) over the closing line without its ` digest=…` field, then every
//! line before it, each line ended by `\n`: it finds edits and damage, not
//! forgery. Reading (`open`) accepts CRLF line endings, a leading
//! byte-order mark and trailing blank lines, and refuses, naming the line
//! where there is one: another file kind (a shard, a paper comparison, any
//! other CSV), a file cut short, another lab or scale than asked, another
//! engine whose results differ (another build is accepted only when its
//! results stamp, `results=`, is this build's: `sweep_id.rs`), a sweep
//! this build expands differently, a damaged or
//! duplicated record, a missing run, a CSV row that differs from its
//! record, and a file that does not match its digest.
//!
//! The engine's identity, its results stamp and the sweep's hash live in
//! `sweep_id.rs` (re-exported here for the CLI's shard files).

use super::csv::points_csv;
use super::measure::PointResult;
use super::record::{decode, encode};
use super::spec::Lab;
use super::sweep::{Scale, SweepPoint};
pub use super::sweep_id::{
    engine_id, fnv1a, parse_scale, results_stamp, scale_name, series_name, sweep_hash,
    sweep_points, FNV_OFFSET,
};
use serde::Serialize;
use serde_json::Value;
use ts_rs::TS;

/// The first words of a sweep file's closing line.
pub const MAGIC: &str = "# sawtooth-sweep";
/// The sweep file format this build writes and reads (2: with `results`).
pub const FORMAT: u32 = 2;
/// The start of a run's exact record.
pub const POINT: &str = "# point ";
/// The first words of a shard file (the CLI's `sweep --shard`).
const SHARD_MAGIC: &str = "# sawtooth-shard";

/// The closing line's fields (its digest apart).
#[derive(Clone, Debug, PartialEq)]
struct Closing {
    format: String,
    lab: String,
    scale: String,
    series: String,
    points: usize,
    engine: String,
    results: String,
    sweep: String,
}

impl Closing {
    fn line(&self) -> String {
        format!(
            "{MAGIC} {} lab={} scale={} series={} points={} engine={} results={} sweep={}",
            self.format,
            self.lab,
            self.scale,
            self.series,
            self.points,
            self.engine,
            self.results,
            self.sweep
        )
    }
}

fn digest<'a>(closing: &Closing, lines: impl IntoIterator<Item = &'a str>) -> String {
    let mut h = fnv1a(FNV_OFFSET, closing.line().as_bytes());
    h = fnv1a(h, b"\n");
    for line in lines {
        h = fnv1a(h, line.as_bytes());
        h = fnv1a(h, b"\n");
    }
    format!("{h:016x}")
}

/// The whole sweep's file: the CSV of `results` (one per point of
/// `points`, the lab's sweep at `scale` with the `only` series, in order),
/// their records and the closing line.
pub fn write(
    lab: &Lab,
    scale: Scale,
    only: &[String],
    points: &[SweepPoint],
    results: &[PointResult],
) -> String {
    debug_assert_eq!(points.len(), results.len());
    let mut body = points_csv(lab, results);
    for (i, r) in results.iter().enumerate() {
        body.push_str(&format!("{POINT}{i} {}\n", encode(r)));
    }
    let closing = Closing {
        format: FORMAT.to_string(),
        lab: lab.id.clone(),
        scale: scale_name(scale).into(),
        series: series_name(lab, only),
        points: points.len(),
        engine: engine_id(),
        results: results_stamp(lab),
        sweep: sweep_hash(points),
    };
    let digest = digest(&closing, body.lines());
    body.push_str(&format!("{} digest={digest}\n", closing.line()));
    body
}

/// Why a file was refused: the line (from 1) where there is one, and the
/// problem in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub line: Option<usize>,
    pub message: String,
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line {
            Some(n) => write!(f, "line {n}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

fn at(line: usize, message: impl Into<String>) -> Problem {
    Problem {
        line: Some(line),
        message: message.into(),
    }
}

fn whole(message: impl Into<String>) -> Problem {
    Problem {
        line: None,
        message: message.into(),
    }
}

/// A sweep file read back and checked.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepFile {
    pub lab: &'static Lab,
    pub scale: Scale,
    /// The series filter (`sweep --series`); empty: every series.
    pub series: Vec<String>,
    pub engine: String,
    /// The results stamp of the engine that wrote it (`results_stamp`).
    pub results_stamp: String,
    /// Each run's index in the lab's whole sweep at this scale (every
    /// series), and its exact result, in sweep order.
    pub results: Vec<(usize, PointResult)>,
}

fn scale_words(scale: Scale) -> &'static str {
    match scale {
        Scale::Quick => "quick scale (`--quick`)",
        Scale::Full => "faithful scale (without `--quick`)",
    }
}

fn lab_words(lab: &Lab) -> String {
    format!("lab {} ({}, \"{}\")", lab.number, lab.id, lab.title)
}

/// Read a sweep file and check it against this build's sweep; with
/// `expect`, the file must hold that lab (by id) at that scale.
pub fn open(text: &str, expect: Option<(&str, Scale)>) -> Result<SweepFile, Problem> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines: Vec<&str> = text.lines().collect();
    while lines.last().is_some_and(|l| l.trim().is_empty()) {
        lines.pop();
    }
    let Some(&first) = lines.first() else {
        return Err(whole("the file is empty"));
    };
    if first.starts_with(SHARD_MAGIC) {
        let shard = first
            .split_whitespace()
            .find_map(|w| w.strip_prefix("shard="))
            .unwrap_or("K/N");
        return Err(at(
            1,
            format!(
                "this is one shard ({shard}) of a sweep, written by `sawtooth sweep --shard`; \
                 join all the shards with `sawtooth merge shard-*.csv --out FILE` and open FILE"
            ),
        ));
    }
    if first.starts_with("key,series,metric,") {
        return Err(at(
            1,
            "this is a paper comparison (`--compare`), not the sweep's runs; open the CSV \
             written without `--compare`",
        ));
    }
    let csv_like = first.starts_with("lab,series,x,seed,");
    let last_no = lines.len();
    let last = lines[last_no - 1];
    let Some(rest) = last.strip_prefix(MAGIC) else {
        return Err(if csv_like {
            at(
                last_no,
                format!(
                    "the file ends at line {last_no} without its closing \"{MAGIC} …\" line: \
                     it was cut short, or written by a sawtooth older than this page (whose \
                     CSV does not say which lab, scale and engine made it); write it again \
                     with this version's `sawtooth sweep` or `sawtooth merge`"
                ),
            )
        } else {
            at(
                1,
                "this is not a sweep file from `sawtooth sweep` or `sawtooth merge` (its \
                 first line is not the sweep CSV's header \"lab,series,x,seed,…\")",
            )
        });
    };
    let (closing, stated) = parse_closing(rest, last_no)?;
    let named_lab = super::lab(&closing.lab);
    let scale = parse_scale(&closing.scale).ok_or_else(|| {
        at(
            last_no,
            format!("scale={}: expected quick or full", closing.scale),
        )
    })?;
    if let Some((want_lab, want_scale)) = expect {
        if closing.lab != want_lab {
            let theirs = named_lab
                .map(lab_words)
                .unwrap_or_else(|| format!("lab {}", closing.lab));
            let ours = super::lab(want_lab)
                .map(lab_words)
                .unwrap_or_else(|| format!("lab {want_lab}"));
            return Err(at(
                last_no,
                format!("this file holds {theirs}, not {ours}: open it in that lab"),
            ));
        }
        if scale != want_scale {
            return Err(at(
                last_no,
                format!(
                    "this file holds the {}, but this page shows the {}: open it at the \
                     other scale",
                    scale_words(scale),
                    scale_words(want_scale)
                ),
            ));
        }
    }
    // Another build is trusted only with this build's results for the lab.
    let ours = named_lab.map(results_stamp).filter(|s| s != "none");
    if closing.engine != engine_id() && ours.as_deref() != Some(&*closing.results) {
        return Err(at(
            last_no,
            format!(
                "this file was written by engine {} (results stamp {}), but this page runs \
                 engine {} (results stamp {}): that engine gives other numbers, so they are \
                 not shown; run the sweep again with the `sawtooth` built from this version",
                closing.engine,
                closing.results,
                engine_id(),
                ours.unwrap_or_else(|| "none".into())
            ),
        ));
    }
    let lab = named_lab.ok_or_else(|| at(last_no, format!("no lab {}", closing.lab)))?;
    let only: Vec<String> = if closing.series == "all" {
        Vec::new()
    } else {
        closing.series.split(',').map(str::to_string).collect()
    };
    if let Some(s) = only.iter().find(|s| lab.series(s).is_none()) {
        return Err(at(
            last_no,
            format!(
                "series={}: lab {} has no series {s}",
                closing.series, lab.id
            ),
        ));
    }
    let points = sweep_points(lab, scale, &only).map_err(|e| at(last_no, e))?;
    if closing.points != points.len() || closing.sweep != sweep_hash(&points) {
        return Err(at(
            last_no,
            format!(
                "this build expands the sweep of lab {} differently (the file says points={} \
                 sweep={}, this build has points={} sweep={})",
                lab.id,
                closing.points,
                closing.sweep,
                points.len(),
                sweep_hash(&points)
            ),
        ));
    }
    let body = &lines[..last_no - 1];
    // The CSV, then the records; line numbers from 1.
    let mut csv: Vec<(usize, &str)> = Vec::new();
    let mut records: Vec<(usize, usize, Value)> = Vec::new();
    let mut seen: Vec<Option<usize>> = vec![None; points.len()];
    for (n, line) in body.iter().enumerate() {
        let no = n + 1;
        if line.trim().is_empty() {
            return Err(at(
                no,
                "a blank line inside the file (only trailing blank lines are allowed; was it \
                 edited?)",
            ));
        }
        if let Some(rest) = line.strip_prefix(POINT) {
            let (i, json) = rest
                .split_once(' ')
                .ok_or_else(|| at(no, "a `# point` line without its record"))?;
            let i: usize = i
                .parse()
                .map_err(|_| at(no, format!("point index {i:?} is not a number")))?;
            if i >= points.len() {
                return Err(at(
                    no,
                    format!(
                        "point {i}, but the sweep has points 0 to {}",
                        points.len() - 1
                    ),
                ));
            }
            if let Some(other) = seen[i] {
                return Err(at(
                    no,
                    format!("point {i} given twice (also on line {other})"),
                ));
            }
            seen[i] = Some(no);
            let v: Value = serde_json::from_str(json)
                .map_err(|e| at(no, format!("point {i}: its record is damaged ({e})")))?;
            records.push((no, i, v));
        } else if line.starts_with('#') {
            return Err(at(no, "a comment line this format does not have"));
        } else if records.is_empty() {
            csv.push((no, line));
        } else {
            return Err(at(
                no,
                "a CSV row after the `# point` records (the file is its CSV, its records, \
                 then its closing line)",
            ));
        }
    }
    let missing: Vec<String> = seen
        .iter()
        .enumerate()
        .filter(|(_, s)| s.is_none())
        .map(|(i, _)| i.to_string())
        .collect();
    if !missing.is_empty() {
        let shown: Vec<&str> = missing.iter().take(20).map(String::as_str).collect();
        return Err(whole(format!(
            "the file holds {} of the sweep's {} runs: point{} {}{} missing (was it cut short \
             or edited?)",
            points.len() - missing.len(),
            points.len(),
            if missing.len() > 1 { "s" } else { "" },
            shown.join(", "),
            if missing.len() > shown.len() {
                format!(", … ({} in all)", missing.len())
            } else {
                String::new()
            }
        )));
    }
    records.sort_by_key(|(_, i, _)| *i);
    let mut results = Vec::with_capacity(points.len());
    for (no, i, v) in &records {
        let r = decode(v, lab, &points[*i], format!("point {i}")).map_err(|e| at(*no, e))?;
        results.push(r);
    }
    // The CSV rows are what these records write.
    let expected = points_csv(lab, &results);
    let mut want = expected.lines();
    let mut rows_seen: std::collections::HashMap<&str, usize> = Default::default();
    for (k, (no, line)) in csv.iter().enumerate() {
        let earlier = rows_seen.insert(line, *no);
        match want.next() {
            Some(w) if w == *line => {}
            _ if k > 0 && earlier.is_some() => {
                return Err(at(
                    *no,
                    format!(
                        "this row repeats line {} (a duplicated row?)",
                        earlier.unwrap_or_default()
                    ),
                ))
            }
            Some(_) if k == 0 => {
                return Err(at(
                    *no,
                    "the CSV header is not the one this engine writes for this lab (was the \
                     file edited?)",
                ))
            }
            Some(_) => {
                return Err(at(
                    *no,
                    format!(
                        "this CSV row differs from the exact record of run {}{} (was one of \
                         them edited?)",
                        k - 1,
                        records
                            .get(k - 1)
                            .map(|(record_no, _, _)| format!(" on line {record_no}"))
                            .unwrap_or_default()
                    ),
                ))
            }
            None => {
                return Err(at(
                    *no,
                    format!(
                        "a CSV row more than the sweep's {} runs (a duplicated row?)",
                        points.len()
                    ),
                ))
            }
        }
    }
    if want.next().is_some() {
        let after = csv.last().map(|(no, _)| *no).unwrap_or(0);
        return Err(at(
            after + 1,
            format!(
                "the CSV has {} rows, but the sweep has {} runs (was a row removed?)",
                csv.len().saturating_sub(1),
                points.len()
            ),
        ));
    }
    let found = digest(&closing, body.iter().copied());
    if found != stated {
        return Err(whole(format!(
            "the file does not match its digest (its closing line says digest={stated}, its \
             contents hash to {found}): it was edited or damaged after sawtooth wrote it"
        )));
    }
    // Indices in the lab's whole sweep (a --series file holds some series).
    let indices: Vec<usize> = if only.is_empty() {
        (0..points.len()).collect()
    } else {
        lab.expand(scale)
            .map_err(|e| whole(format!("lab {}: {e}", lab.id)))?
            .iter()
            .enumerate()
            .filter(|(_, p)| only.contains(&p.series))
            .map(|(i, _)| i)
            .collect()
    };
    Ok(SweepFile {
        lab,
        scale,
        series: only,
        engine: closing.engine,
        results_stamp: closing.results,
        results: indices.into_iter().zip(results).collect(),
    })
}

/// The closing line after its magic, and the digest it states.
fn parse_closing(rest: &str, no: usize) -> Result<(Closing, String), Problem> {
    let mut words = rest.split_whitespace();
    let format = words.next().unwrap_or("").to_string();
    if format != FORMAT.to_string() {
        return Err(at(
            no,
            format!("sweep file format {format:?}; this engine reads format {FORMAT}"),
        ));
    }
    let mut get = |key: &str| -> Result<String, Problem> {
        let w = words.next().unwrap_or("");
        w.strip_prefix(key)
            .and_then(|v| v.strip_prefix('='))
            .map(str::to_string)
            .ok_or_else(|| at(no, format!("field {key} missing (found {w:?})")))
    };
    let lab = get("lab")?;
    let scale = get("scale")?;
    let series = get("series")?;
    let points = get("points")?;
    let points = points
        .parse()
        .map_err(|_| at(no, format!("points={points}: not a count")))?;
    let engine = get("engine")?;
    let results = get("results")?;
    let sweep = get("sweep")?;
    let digest = get("digest")?;
    Ok((
        Closing {
            format,
            lab,
            scale,
            series,
            points,
            engine,
            results,
            sweep,
        },
        digest,
    ))
}

/// What the page's engine answers for a file it was given
/// (`open_sweep_file_json` in the lab bindings).
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
#[serde(tag = "status", rename_all = "snake_case")]
#[ts(export, export_to = "labs.ts")]
pub enum SweepFileOutcome {
    /// The file's runs, to show as the lab's sweep.
    Opened {
        lab: String,
        quick: bool,
        /// The series filter (`sweep --series`); empty: every series.
        series: Vec<String>,
        engine: String,
        /// The results stamp of the engine that wrote it: this build's
        /// when the file was written by another build with the same results.
        results_stamp: String,
        /// Each run's index in the lab's whole sweep at this scale.
        indices: Vec<u32>,
        /// Each run's exact result, in the order of `indices`.
        results: Vec<PointResult>,
    },
    /// Why the file was refused, naming the line (from 1) where there is one.
    Refused { line: Option<u32>, message: String },
}

impl SweepFileOutcome {
    /// Open `text` for the lab `lab_id` at `scale`.
    pub fn of(text: &str, lab_id: &str, scale: Scale) -> SweepFileOutcome {
        match open(text, Some((lab_id, scale))) {
            Ok(f) => SweepFileOutcome::Opened {
                lab: f.lab.id.clone(),
                quick: f.scale == Scale::Quick,
                series: f.series,
                engine: f.engine,
                results_stamp: f.results_stamp,
                indices: f.results.iter().map(|(i, _)| *i as u32).collect(),
                results: f.results.into_iter().map(|(_, r)| r).collect(),
            },
            Err(p) => SweepFileOutcome::Refused {
                line: p.line.map(|n| n as u32),
                message: p.message,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LAB: &str = "txqueuelen";

    /// A made-up result for each point, with values that six decimals
    /// cannot hold, so only the records can bring them back exactly.
    fn results(points: &[SweepPoint]) -> Vec<PointResult> {
        points
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let v = (i as f64 + 1.0) / 3.0;
                PointResult {
                    total_throughput_mbps: 100.0 * v + 0.1 + 0.2,
                    group_labels: vec!["Standard, \"TCP\"".into()],
                    group_throughput_mbps: vec![100.0 * v],
                    flow_throughput_mbps: vec![100.0 * v],
                    standard_throughput_mbps: Some(100.0 * v),
                    standard_share: Some(1.0),
                    jain_index: 1.0 - v / 1e9,
                    utilisation: v / 10.0,
                    time_to_max_rate_s: if i % 2 == 0 { None } else { Some(v) },
                    flow_time_to_max_rate_s: vec![None],
                    drops: i as u64,
                    local_congestion_events: 2 * i as u64,
                    timeouts: 1,
                    congestion_event_rate: v * 1e-7,
                    group_congestion_event_rate: vec![v * 1e-7],
                    mean_outstanding_kbytes: 1000.0 * v,
                    duration_s: 10.0,
                    mean_captured_outstanding_kbytes: Some(v),
                    ..PointResult::blank(&p.lab, &p.series, p.x.clone(), p.seed)
                }
            })
            .collect()
    }

    fn file(scale: Scale, only: &[String]) -> (Vec<PointResult>, String) {
        let lab = super::super::lab(LAB).unwrap();
        let points = sweep_points(lab, scale, only).unwrap();
        let rs = results(&points);
        let text = write(lab, scale, only, &points, &rs);
        (rs, text)
    }

    fn refused(text: &str, expect: Option<(&str, Scale)>) -> Problem {
        open(text, expect).expect_err("refused")
    }

    /// `text` with line `no` (from 1) replaced by `f` of it.
    fn edit(text: &str, no: usize, f: impl Fn(&str) -> String) -> String {
        text.lines()
            .enumerate()
            .map(|(i, l)| if i + 1 == no { f(l) } else { l.to_string() } + "\n")
            .collect()
    }

    #[test]
    fn a_sweep_written_then_read_back_is_the_same_bit_for_bit() {
        let (rs, text) = file(Scale::Quick, &[]);
        assert!(
            text.starts_with("lab,series,x,seed,"),
            "the CSV comes first"
        );
        let f = open(&text, Some((LAB, Scale::Quick))).unwrap();
        assert_eq!(f.lab.id, LAB);
        assert_eq!(f.scale, Scale::Quick);
        assert!(f.series.is_empty());
        assert_eq!(f.engine, engine_id());
        assert_eq!(f.results.len(), rs.len());
        for (k, ((i, back), r)) in f.results.iter().zip(&rs).enumerate() {
            assert_eq!(*i, k);
            assert_eq!(encode(back).to_string(), encode(r).to_string());
            assert_eq!(
                back.total_throughput_mbps.to_bits(),
                r.total_throughput_mbps.to_bits()
            );
            assert_eq!(back.jain_index.to_bits(), r.jain_index.to_bits());
        }
        // Written again, the same bytes.
        let lab = f.lab;
        let points = sweep_points(lab, Scale::Quick, &[]).unwrap();
        let again: Vec<PointResult> = f.results.into_iter().map(|(_, r)| r).collect();
        assert_eq!(write(lab, Scale::Quick, &[], &points, &again), text);
        // What an editor or a transfer may change is read as written.
        let crlf = format!("\u{feff}{}\r\n\r\n", text.replace('\n', "\r\n"));
        assert!(open(&crlf, Some((LAB, Scale::Quick))).is_ok());
        // Any lab and scale when none is expected.
        assert!(open(&text, None).is_ok());
    }

    #[test]
    fn a_series_filtered_sweep_opens_at_its_places_in_the_whole_sweep() {
        let lab = super::super::lab(LAB).unwrap();
        let all = lab.expand(Scale::Quick).unwrap();
        let last = all.last().unwrap().series.clone();
        let (_, text) = file(Scale::Quick, std::slice::from_ref(&last));
        let f = open(&text, Some((LAB, Scale::Quick))).unwrap();
        assert_eq!(f.series, vec![last.clone()]);
        assert!(!f.results.is_empty());
        for (i, r) in &f.results {
            assert_eq!(all[*i].series, last);
            assert_eq!((&all[*i].x, all[*i].seed), (&r.x, r.seed));
        }
    }

    #[test]
    fn another_lab_scale_or_engine_is_refused_by_name() {
        let (_, text) = file(Scale::Quick, &[]);
        let n = text.lines().count();
        let p = refused(&text, Some(("two-to-one", Scale::Quick)));
        assert_eq!(p.line, Some(n));
        assert!(
            p.message.contains("this file holds lab 3 (txqueuelen"),
            "{p}"
        );
        assert!(p.message.contains("not lab 4 (two-to-one"), "{p}");
        let p = refused(&text, Some((LAB, Scale::Full)));
        assert!(p.message.contains("holds the quick scale"), "{p}");
        assert!(p.message.contains("shows the faithful scale"), "{p}");
        let other = edit(&text, n, |l| {
            l.replace(
                &format!("engine={}", engine_id()),
                "engine=0.0.9+0123456789abcdef",
            )
            .replace(
                &format!("results={}", results_stamp(super::super::lab(LAB).unwrap())),
                "results=fedcba9876543210",
            )
        });
        let p = refused(&other, Some((LAB, Scale::Quick)));
        assert_eq!(p.line, Some(n));
        assert!(
            p.message.contains(
                "written by engine 0.0.9+0123456789abcdef (results stamp fedcba9876543210)"
            ),
            "{p}"
        );
        assert!(p.message.contains(&engine_id()), "{p}");
        assert!(
            p.message
                .contains(&results_stamp(super::super::lab(LAB).unwrap())),
            "{p}"
        );
    }

    /// Another build whose results stamp is this build's (its sources
    /// differ, its digested results do not) is trusted: the files shipped
    /// with the site stay usable across edits that change no result.
    #[test]
    fn another_build_with_this_builds_results_stamp_is_accepted() {
        let (rs, text) = file(Scale::Quick, &[]);
        let lines: Vec<&str> = text.lines().collect();
        let (body, last) = lines.split_at(lines.len() - 1);
        let rest = last[0].strip_prefix(MAGIC).expect("a closing line");
        let (mut closing, _) = parse_closing(rest, lines.len()).expect("parses");
        closing.engine = "0.0.9+0123456789abcdef".into();
        let rewritten = format!(
            "{}\n{} digest={}\n",
            body.join("\n"),
            closing.line(),
            digest(&closing, body.iter().copied())
        );
        let f = open(&rewritten, Some((LAB, Scale::Quick))).expect("accepted by its stamp");
        assert_eq!(f.engine, "0.0.9+0123456789abcdef");
        assert_eq!(f.results_stamp, results_stamp(f.lab));
        assert_eq!(f.results.len(), rs.len());
        // The same build is trusted whatever the stamp says.
        closing.engine = engine_id();
        closing.results = "fedcba9876543210".into();
        let rewritten = format!(
            "{}\n{} digest={}\n",
            body.join("\n"),
            closing.line(),
            digest(&closing, body.iter().copied())
        );
        assert!(open(&rewritten, Some((LAB, Scale::Quick))).is_ok());
    }

    /// A file damaged anywhere (a character changed, inserted or removed,
    /// a line repeated, dropped or cut, multi-byte text put in) is refused
    /// with a message or read as the same sweep: `open` never panics on
    /// what a user drops on the page.
    #[test]
    fn randomly_damaged_files_are_refused_without_a_panic() {
        let (_, text) = file(Scale::Quick, &[]);
        let expect = Some((LAB, Scale::Quick));
        let mut rng = crate::rng::Rng::new(20261129);
        let mut pick = |n: usize| ((rng.uniform() * n as f64) as usize).min(n.saturating_sub(1));
        const PIECES: [&str; 8] = ["µ", "≥", "\u{feff}", ",", "\n", "\"", "# point 0 {", "e309"];
        for case in 0..400 {
            let mut chars: Vec<char> = text.chars().collect();
            let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
            let damaged: String = match case % 6 {
                0 => {
                    let i = pick(chars.len());
                    chars[i] = PIECES[pick(PIECES.len())].chars().next().unwrap();
                    chars.into_iter().collect()
                }
                1 => {
                    let i = pick(chars.len());
                    let piece = PIECES[pick(PIECES.len())];
                    chars.splice(i..i, piece.chars());
                    chars.into_iter().collect()
                }
                2 => {
                    let i = pick(chars.len());
                    chars.remove(i);
                    chars.into_iter().collect()
                }
                3 => {
                    let i = pick(lines.len());
                    let l = lines[i].clone();
                    lines.insert(pick(lines.len()), l);
                    lines.join("\n")
                }
                4 => {
                    lines.remove(pick(lines.len()));
                    lines.join("\n")
                }
                _ => {
                    let i = pick(lines.len());
                    let cut: String = lines[i]
                        .chars()
                        .take(pick(lines[i].chars().count() + 1))
                        .collect();
                    lines[i] = cut;
                    lines.join("\n")
                }
            };
            let outcome = std::panic::catch_unwind(|| open(&damaged, expect).map(|_| ()));
            match outcome {
                Ok(Err(p)) => assert!(!p.message.is_empty(), "case {case}: an empty message"),
                Ok(Ok(())) => {}
                Err(_) => panic!("case {case}: open panicked on\n{damaged}"),
            }
        }
    }

    #[test]
    fn damaged_truncated_or_duplicated_files_are_refused_naming_the_line() {
        let (_, text) = file(Scale::Quick, &[]);
        let expect = Some((LAB, Scale::Quick));
        let n = text.lines().count();
        let rows = text.lines().filter(|l| !l.starts_with('#')).count();
        // Cut short: no closing line.
        let cut: String = text.lines().take(n - 3).map(|l| format!("{l}\n")).collect();
        let p = refused(&cut, expect);
        assert_eq!(p.line, Some(n - 3));
        assert!(p.message.contains("cut short"), "{p}");
        // An old sweep CSV (rows only) is refused the same way.
        let old: String = text.lines().take(rows).map(|l| format!("{l}\n")).collect();
        assert!(refused(&old, expect)
            .message
            .contains("without its closing"));
        // A number changed in a row.
        let damaged = edit(&text, 3, |l| {
            l.replacen(",1,", ",2,", 1).replacen("33", "34", 1)
        });
        assert_ne!(damaged, text);
        let p = refused(&damaged, expect);
        assert_eq!(p.line, Some(3), "{p}");
        // Named with the record's own line, since either may be the one edited.
        let record_line = 1 + text
            .lines()
            .position(|l| l.starts_with(&format!("{POINT}1 ")))
            .expect("run 1's record");
        assert!(
            p.message.contains(&format!(
                "differs from the exact record of run 1 on line {record_line}"
            )),
            "{p}"
        );
        // A row given twice.
        let dup = edit(&text, 2, |l| format!("{l}\n{l}"));
        let p = refused(&dup, expect);
        assert_eq!(p.line, Some(3), "{p}");
        assert!(p.message.contains("repeats line 2"), "{p}");
        // A record given twice.
        let rec = rows + 1;
        let dup = edit(&text, rec, |l| format!("{l}\n{l}"));
        let p = refused(&dup, expect);
        assert_eq!(p.line, Some(rec + 1), "{p}");
        assert!(
            p.message.contains("point 0 given twice (also on line"),
            "{p}"
        );
        // A record cut in the middle.
        let broken = edit(&text, rec, |l| l[..l.len() / 2].to_string());
        let p = refused(&broken, expect);
        assert_eq!(p.line, Some(rec), "{p}");
        assert!(p.message.contains("point 0: its record is damaged"), "{p}");
        // A record removed.
        let gone = edit(&text, rec, |_| String::new()).replace("\n\n", "\n");
        let p = refused(&gone, expect);
        assert!(p.message.contains("point 0 missing"), "{p}");
        // A blank line inside.
        let blank = edit(&text, 2, |l| format!("\n{l}"));
        assert_eq!(refused(&blank, expect).line, Some(2));
        // Row and record edited alike: only the digest sees it.
        let closing = text.lines().last().unwrap();
        assert!(closing.contains(" digest="));
        let lab = super::super::lab(LAB).unwrap();
        let points = sweep_points(lab, Scale::Quick, &[]).unwrap();
        let mut rs = results(&points);
        rs[0].drops += 1;
        let forged = write(lab, Scale::Quick, &[], &points, &rs);
        let mixed: String = forged
            .lines()
            .take(n - 1)
            .chain([closing])
            .map(|l| format!("{l}\n"))
            .collect();
        let p = refused(&mixed, expect);
        assert_eq!(p.line, None);
        assert!(p.message.contains("does not match its digest"), "{p}");
    }

    #[test]
    fn other_files_are_refused_with_what_they_are() {
        let expect = Some((LAB, Scale::Quick));
        assert!(refused("", expect).message.contains("empty"));
        assert!(refused("a,b\n1,2\n", expect)
            .message
            .contains("not a sweep file"));
        let shard = "# sawtooth-shard 2 lab=txqueuelen scale=quick series=all shard=2/4 points=1\n";
        let p = refused(shard, expect);
        assert!(p.message.contains("one shard (2/4)"), "{p}");
        assert!(p.message.contains("sawtooth merge"), "{p}");
        let cmp = "key,series,metric,group\n";
        assert!(refused(cmp, expect).message.contains("paper comparison"));
    }
}
