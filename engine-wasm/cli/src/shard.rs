//! Sweeps that fan out beyond one machine (issue 12): `sawtooth sweep LAB
//! --shard K/N` runs the K-th of N deterministic slices of a lab's sweep,
//! and `sawtooth merge` joins the slices into exactly the unsharded output.
//!
//! Slicing: the points are balanced by expected cost, not by count. Each
//! point's cost is the resource model's expected engine events
//! (`resources::estimate`, what the engine's speed is measured in), and the
//! points are dealt longest first, each to the shard with the least cost so
//! far (the lowest-numbered on a tie; ties between points go to the lower
//! index). This is Graham's LPT rule: its largest shard is within 4/3 of the
//! best possible, whereas dealing by index ignores that a lab's series and
//! swept values differ many-fold in cost. The rule uses integers only, so
//! every machine computes the same slices.
//!
//! A shard file is the sweep's CSV for its own points (the same columns and
//! row format), framed by comment lines that let the merge check it:
//!
//! ```text
//! # sawtooth-shard 2 lab=LAB scale=quick series=all shard=K/N points=P engine=V+H sweep=H digest=D
//! lab,series,x,seed,...                 (the CSV of this shard's points)
//! # point I {...}                       (each point's full-precision result)
//! ```
//!
//! `engine` is the crate version and a hash of the engine's sources and lab
//! data (build.rs); `sweep` hashes every expanded point (its scenario
//! included); `digest` hashes the file itself (see `digest`), so an edit
//! made consistently to a CSV row and its `# point` record is still
//! refused. The `# point` lines hold every measured value exactly (floats
//! as Rust's shortest round-trip text), so the merge rebuilds each run's
//! result bit for bit and writes the CSV and the paper comparison with the
//! same code as an unsharded sweep.
//!
//! The merge reads CRLF line endings, trailing blank lines and a leading
//! byte-order mark as the file `sweep` wrote (what an editor or a transfer
//! may change), and bounds its work by the files given, never by the N a
//! header states.

use crate::{find_lab, sweep_points, write_points};
use sawtooth_core::labs::{Lab, PointResult, Scale, SweepPoint};
use serde_json::{json, Value};
use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};
use std::fmt;

/// The first word of a shard file's first line.
const MAGIC: &str = "# sawtooth-shard";
/// The shard file format this build writes and reads (2: with `digest`).
const FORMAT: u32 = 2;
/// How many missing shards a merge names (it says how many in all).
const MISSING_NAMED: usize = 20;
const POINT: &str = "# point ";

/// This build's engine: crate version and source hash (build.rs).
pub fn engine_id() -> String {
    format!(
        "{}+{}",
        env!("CARGO_PKG_VERSION"),
        env!("SAWTOOTH_ENGINE_SOURCE_HASH")
    )
}

/// One slice of N, K counted from 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub k: u32,
    pub n: u32,
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

/// Parse `K/N` (1 ≤ K ≤ N). Clap puts "invalid value 'K/N' for '--shard
/// <K/N>'" in front of the message.
pub fn parse_shard(s: &str) -> Result<Shard, String> {
    let form = "the form is K/N, whole numbers with 1 ≤ K ≤ N (e.g. 2/8)";
    let Some((k, n)) = s.split_once('/') else {
        return Err(format!("no \"/\"; {form}"));
    };
    match (k.parse::<u32>(), n.parse::<u32>()) {
        (Ok(_), Ok(0)) => Err(format!("N = 0 must be at least 1; {form}")),
        (Ok(k), Ok(n)) if !(1..=n).contains(&k) => {
            Err(format!("K = {k} must be between 1 and N = {n}; {form}"))
        }
        (Ok(k), Ok(n)) => Ok(Shard { k, n }),
        _ if [k, n]
            .iter()
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit())) =>
        {
            Err(format!("K and N must be at most {}; {form}", u32::MAX))
        }
        _ => Err(format!("K and N must be whole numbers; {form}")),
    }
}

/// The shard (0-based) of each point, by the LPT rule of the module doc:
/// points by cost, largest first (lower index first on a tie), each to the
/// least-loaded shard (lowest number on a tie). A cost of 0 counts as 1, so
/// when N ≥ the point count every point gets a shard of its own and the
/// shards numbered above the point count stay empty.
pub fn assign(costs: &[u64], shards: u32) -> Vec<u32> {
    let mut order: Vec<usize> = (0..costs.len()).collect();
    order.sort_by(|&a, &b| costs[b].cmp(&costs[a]).then(a.cmp(&b)));
    // Shards past the point count never receive a point (see above).
    let open = (shards as usize).min(costs.len()) as u32;
    let mut load: BinaryHeap<Reverse<(u128, u32)>> = (0..open).map(|s| Reverse((0, s))).collect();
    let mut of = vec![0; costs.len()];
    for i in order {
        let Reverse((l, s)) = load.pop().expect("at least one open shard");
        of[i] = s;
        load.push(Reverse((l + costs[i].max(1) as u128, s)));
    }
    of
}

/// Indices of the points the shard runs, ascending.
pub fn indices_of(points: &[SweepPoint], shard: Shard) -> Vec<usize> {
    let costs: Vec<u64> = points
        .iter()
        .map(|p| crate::progress::work(&p.scenario))
        .collect();
    assign(&costs, shard.n)
        .into_iter()
        .enumerate()
        .filter(|&(_, s)| s == shard.k - 1)
        .map(|(i, _)| i)
        .collect()
}

fn fnv1a(mut h: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// A shard file's digest: FNV-1a (64 bits) of its header line without the
/// digest, then each further line, every line ended by "\n" (so CRLF and
/// LF files agree). It finds edits and damage, not forgery: anyone can
/// recompute it.
fn digest<'a>(header: &Header, lines: impl IntoIterator<Item = &'a str>) -> String {
    let mut h = fnv1a(0xcbf2_9ce4_8422_2325, header.line().as_bytes());
    h = fnv1a(h, b"\n");
    for line in lines {
        h = fnv1a(h, line.as_bytes());
        h = fnv1a(h, b"\n");
    }
    format!("{h:016x}")
}

/// A hash of every expanded point (scenario included), in order.
fn sweep_hash(points: &[SweepPoint]) -> String {
    let mut h = 0xcbf2_9ce4_8422_2325;
    for p in points {
        h = fnv1a(h, serde_json::to_string(p).expect("serialises").as_bytes());
        h = fnv1a(h, b"\n");
    }
    format!("{h:016x}")
}

fn scale_name(scale: Scale) -> &'static str {
    match scale {
        Scale::Quick => "quick",
        Scale::Full => "full",
    }
}

/// The series filter as written in the header: the lab's order, or "all".
fn series_name(lab: &Lab, only: &[String]) -> String {
    if only.is_empty() {
        return "all".into();
    }
    let ids: Vec<&str> = lab
        .series
        .iter()
        .map(|s| s.id.as_str())
        .filter(|id| only.iter().any(|o| o == id))
        .collect();
    ids.join(",")
}

/// What a shard file's first line says (but its digest).
#[derive(Clone, Debug, PartialEq)]
struct Header {
    format: String,
    lab: String,
    scale: String,
    series: String,
    shard: Shard,
    points: usize,
    engine: String,
    sweep: String,
}

impl Header {
    fn line(&self) -> String {
        format!(
            "{MAGIC} {} lab={} scale={} series={} shard={} points={} engine={} sweep={}",
            self.format,
            self.lab,
            self.scale,
            self.series,
            self.shard,
            self.points,
            self.engine,
            self.sweep
        )
    }

    /// The header and the digest it states.
    fn parse(file: &str, line: &str) -> Result<(Header, String), String> {
        let not_shard = || {
            format!(
                "{file} is not a shard of a sweep (its first line is not \"{MAGIC} …\"); \
                 write shards with `sawtooth sweep LAB --shard K/N --out FILE`"
            )
        };
        let rest = line.strip_prefix(MAGIC).ok_or_else(not_shard)?;
        let mut words = rest.split_whitespace();
        let format = words.next().ok_or_else(not_shard)?.to_string();
        if format != FORMAT.to_string() {
            return Err(format!(
                "{file}: shard format {format}; this sawtooth reads format {FORMAT} \
                 (format 1 had no digest): run the shards again with this build"
            ));
        }
        let mut get = |key: &str| -> Result<String, String> {
            let w = words.next().unwrap_or("");
            w.strip_prefix(key)
                .and_then(|v| v.strip_prefix('='))
                .map(str::to_string)
                .ok_or_else(|| format!("{file}: header field {key} missing (found {w:?})"))
        };
        let lab = get("lab")?;
        let scale = get("scale")?;
        let series = get("series")?;
        let shard = get("shard")?;
        let shard =
            parse_shard(&shard).map_err(|e| format!("{file}: header shard = {shard:?}: {e}"))?;
        let points = get("points")?;
        let points = points
            .parse()
            .map_err(|_| format!("{file}: header points = {points:?}: not a count"))?;
        let engine = get("engine")?;
        let sweep = get("sweep")?;
        let digest = get("digest")?;
        let header = Header {
            format,
            lab,
            scale,
            series,
            shard,
            points,
            engine,
            sweep,
        };
        Ok((header, digest))
    }
}

fn f(v: &f64) -> Value {
    Value::String(format!("{v:?}"))
}

fn of(v: &Option<f64>) -> Value {
    v.as_ref().map(f).unwrap_or(Value::Null)
}

fn fs(v: &[f64]) -> Value {
    Value::Array(v.iter().map(f).collect())
}

/// One run's result as a JSON object, every float exact (as text).
fn encode(r: &PointResult) -> Value {
    // Every field by name: a new PointResult field fails to compile here
    // until the shard format carries it.
    let PointResult {
        lab,
        series,
        x,
        seed,
        total_throughput_mbps,
        group_labels,
        group_throughput_mbps,
        flow_throughput_mbps,
        standard_throughput_mbps,
        standard_share,
        jain_index,
        utilisation,
        time_to_max_rate_s,
        flow_time_to_max_rate_s,
        drops,
        local_congestion_events,
        ecn_marks,
        timeouts,
        congestion_event_rate,
        group_congestion_event_rate,
        mean_outstanding_kbytes,
        duration_s,
        group_share,
        probe_rtt_median_ms,
        probe_rtt_p99_ms,
        mean_queue_delay_ms,
        mean_queue_pkts,
        mean_captured_outstanding_kbytes,
    } = r;
    json!({
        "lab": lab,
        "series": series,
        "x": x.to_string(),
        "seed": seed,
        "total_throughput_mbps": f(total_throughput_mbps),
        "group_labels": group_labels,
        "group_throughput_mbps": fs(group_throughput_mbps),
        "flow_throughput_mbps": fs(flow_throughput_mbps),
        "standard_throughput_mbps": of(standard_throughput_mbps),
        "standard_share": of(standard_share),
        "jain_index": f(jain_index),
        "utilisation": f(utilisation),
        "time_to_max_rate_s": of(time_to_max_rate_s),
        "flow_time_to_max_rate_s":
            Value::Array(flow_time_to_max_rate_s.iter().map(of).collect()),
        "drops": drops,
        "local_congestion_events": local_congestion_events,
        "ecn_marks": ecn_marks,
        "timeouts": timeouts,
        "congestion_event_rate": f(congestion_event_rate),
        "group_congestion_event_rate": fs(group_congestion_event_rate),
        "mean_outstanding_kbytes": f(mean_outstanding_kbytes),
        "duration_s": f(duration_s),
        "group_share": group_share.as_deref().map(fs).unwrap_or(Value::Null),
        "probe_rtt_median_ms": of(probe_rtt_median_ms),
        "probe_rtt_p99_ms": of(probe_rtt_p99_ms),
        "mean_queue_delay_ms": of(mean_queue_delay_ms),
        "mean_queue_pkts": of(mean_queue_pkts),
        "mean_captured_outstanding_kbytes": of(mean_captured_outstanding_kbytes),
    })
}

/// Reads the fields of one `# point` record, naming what is wrong.
struct Fields<'a> {
    v: &'a Value,
    at: String,
}

impl Fields<'_> {
    fn get(&self, key: &str) -> Result<&Value, String> {
        self.v
            .get(key)
            .ok_or_else(|| format!("{}: field {key} missing", self.at))
    }

    fn bad(&self, key: &str, v: &Value, what: &str) -> String {
        format!("{}: field {key} = {v}: expected {what}", self.at)
    }

    fn float_of(&self, key: &str, v: &Value) -> Result<f64, String> {
        v.as_str()
            .and_then(|s| s.parse::<f64>().ok())
            .ok_or_else(|| self.bad(key, v, "a number as text"))
    }

    fn opt_of(&self, key: &str, v: &Value) -> Result<Option<f64>, String> {
        if v.is_null() {
            Ok(None)
        } else {
            self.float_of(key, v).map(Some)
        }
    }

    fn array(&self, key: &str) -> Result<&Vec<Value>, String> {
        let v = self.get(key)?;
        v.as_array().ok_or_else(|| self.bad(key, v, "an array"))
    }

    fn float(&self, key: &str) -> Result<f64, String> {
        self.float_of(key, self.get(key)?)
    }

    fn opt(&self, key: &str) -> Result<Option<f64>, String> {
        self.opt_of(key, self.get(key)?)
    }

    fn floats(&self, key: &str) -> Result<Vec<f64>, String> {
        self.array(key)?
            .iter()
            .map(|v| self.float_of(key, v))
            .collect()
    }

    fn count(&self, key: &str) -> Result<u64, String> {
        let v = self.get(key)?;
        v.as_u64().ok_or_else(|| self.bad(key, v, "a whole number"))
    }

    fn text(&self, key: &str) -> Result<&str, String> {
        let v = self.get(key)?;
        v.as_str().ok_or_else(|| self.bad(key, v, "text"))
    }
}

/// Rebuild one run's result, checking that it is the run of `point`.
fn decode(v: &Value, lab: &Lab, point: &SweepPoint, at: String) -> Result<PointResult, String> {
    let r = Fields { v, at };
    let x = point.x.to_string();
    for (key, want) in [
        ("lab", lab.id.as_str()),
        ("series", point.series.as_str()),
        ("x", x.as_str()),
    ] {
        let got = r.text(key)?;
        if got != want {
            return Err(format!(
                "{}: {key} = {got}, but this point of the sweep has {key} = {want}",
                r.at
            ));
        }
    }
    let seed = r.count("seed")?;
    if seed != point.seed as u64 {
        return Err(format!(
            "{}: seed = {seed}, but this point of the sweep has seed = {}",
            r.at, point.seed
        ));
    }
    Ok(PointResult {
        lab: lab.id.clone(),
        series: point.series.clone(),
        x: point.x.clone(),
        seed: point.seed,
        total_throughput_mbps: r.float("total_throughput_mbps")?,
        group_labels: r
            .array("group_labels")?
            .iter()
            .map(|v| {
                v.as_str()
                    .map(str::to_string)
                    .ok_or_else(|| r.bad("group_labels", v, "text"))
            })
            .collect::<Result<_, _>>()?,
        group_throughput_mbps: r.floats("group_throughput_mbps")?,
        flow_throughput_mbps: r.floats("flow_throughput_mbps")?,
        standard_throughput_mbps: r.opt("standard_throughput_mbps")?,
        standard_share: r.opt("standard_share")?,
        jain_index: r.float("jain_index")?,
        utilisation: r.float("utilisation")?,
        time_to_max_rate_s: r.opt("time_to_max_rate_s")?,
        flow_time_to_max_rate_s: r
            .array("flow_time_to_max_rate_s")?
            .iter()
            .map(|v| r.opt_of("flow_time_to_max_rate_s", v))
            .collect::<Result<_, _>>()?,
        drops: r.count("drops")?,
        local_congestion_events: r.count("local_congestion_events")?,
        ecn_marks: r.count("ecn_marks")?,
        timeouts: r.count("timeouts")?,
        congestion_event_rate: r.float("congestion_event_rate")?,
        group_congestion_event_rate: r.floats("group_congestion_event_rate")?,
        mean_outstanding_kbytes: r.float("mean_outstanding_kbytes")?,
        duration_s: r.float("duration_s")?,
        group_share: if r.get("group_share")?.is_null() {
            None
        } else {
            Some(r.floats("group_share")?)
        },
        probe_rtt_median_ms: r.opt("probe_rtt_median_ms")?,
        probe_rtt_p99_ms: r.opt("probe_rtt_p99_ms")?,
        mean_queue_delay_ms: r.opt("mean_queue_delay_ms")?,
        mean_queue_pkts: r.opt("mean_queue_pkts")?,
        mean_captured_outstanding_kbytes: r.opt("mean_captured_outstanding_kbytes")?,
    })
}

/// The header of `shard` of this sweep.
fn header(lab: &Lab, scale: Scale, only: &[String], points: &[SweepPoint], shard: Shard) -> Header {
    Header {
        format: FORMAT.to_string(),
        lab: lab.id.clone(),
        scale: scale_name(scale).into(),
        series: series_name(lab, only),
        shard,
        points: points.len(),
        engine: engine_id(),
        sweep: sweep_hash(points),
    }
}

/// A shard file: the header, the CSV of `results` (the shard's points, in
/// sweep order) and one `# point` record per result.
pub fn write_shard(
    lab: &Lab,
    scale: Scale,
    only: &[String],
    points: &[SweepPoint],
    shard: Shard,
    indices: &[usize],
    results: &[PointResult],
) -> Result<Vec<u8>, String> {
    let head = header(lab, scale, only, points, shard);
    let mut body = Vec::new();
    write_points(lab, results, &mut body)?;
    for (i, r) in indices.iter().zip(results) {
        body.extend_from_slice(format!("{POINT}{i} {}\n", encode(r)).as_bytes());
    }
    let body = String::from_utf8(body).expect("the CSV and the records are text");
    let digest = digest(&head, body.lines());
    Ok(format!("{} digest={digest}\n{body}", head.line()).into_bytes())
}

/// One shard file read back.
struct ShardFile {
    name: String,
    header: Header,
    /// The CSV between the header and the first `# point` line.
    csv: String,
    /// (index, record) of each `# point` line.
    records: Vec<(usize, Value)>,
    /// The digest the header states, and the file's.
    digest_stated: String,
    digest_found: String,
}

fn read_shard(name: &str) -> Result<ShardFile, String> {
    let text = std::fs::read_to_string(name).map_err(|e| format!("cannot read {name}: {e}"))?;
    // LF or CRLF (`lines` takes either), without a leading byte-order mark
    // or trailing blank lines: what an editor or a transfer may change.
    let mut lines: Vec<&str> = crate::input::strip_bom(&text).lines().collect();
    while lines.last().is_some_and(|l| l.trim().is_empty()) {
        lines.pop();
    }
    let first = lines.first().copied().unwrap_or("");
    let (header, digest_stated) = Header::parse(name, first)?;
    let body = &lines[1.min(lines.len())..];
    let mut csv = String::new();
    let mut records = Vec::new();
    for (n, line) in body.iter().enumerate() {
        let line_no = n + 2;
        if line.trim().is_empty() {
            return Err(format!(
                "{name}:{line_no}: a blank line inside the shard file (only trailing blank \
                 lines are allowed; was it edited?)"
            ));
        }
        if let Some(rest) = line.strip_prefix(POINT) {
            let (i, json) = rest
                .split_once(' ')
                .ok_or_else(|| format!("{name}:{line_no}: a `# point` line without a record"))?;
            let i: usize = i
                .parse()
                .map_err(|_| format!("{name}:{line_no}: point index {i:?} is not a number"))?;
            let v: Value = serde_json::from_str(json)
                .map_err(|e| format!("{name}:{line_no}: unreadable point record: {e}"))?;
            records.push((i, v));
        } else if records.is_empty() {
            csv.push_str(line);
            csv.push('\n');
        } else {
            return Err(format!(
                "{name}:{line_no}: a CSV row after the point records (a shard file is \
                 its header, its CSV, then its `# point` lines)"
            ));
        }
    }
    let digest_found = digest(&header, body.iter().copied());
    Ok(ShardFile {
        name: name.into(),
        header,
        csv,
        records,
        digest_stated,
        digest_found,
    })
}

/// The results of the whole sweep from its shard files, in sweep order,
/// after checking that the files are exactly the N shards of one sweep
/// that this build would run.
pub fn gather(files: &[String]) -> Result<(&'static Lab, Vec<PointResult>), String> {
    let shards = files
        .iter()
        .map(|f| read_shard(f))
        .collect::<Result<Vec<_>, _>>()?;
    let first = shards
        .first()
        .ok_or("merge needs at least one shard file")?;
    let h0 = &first.header;
    // One sweep: every header field but the shard number agrees.
    for s in &shards[1..] {
        let h = &s.header;
        let fields: [(&str, &dyn fmt::Display, &dyn fmt::Display); 6] = [
            ("lab", &h0.lab, &h.lab),
            ("scale", &h0.scale, &h.scale),
            ("series", &h0.series, &h.series),
            ("engine", &h0.engine, &h.engine),
            ("shard count N", &h0.shard.n, &h.shard.n),
            ("points", &h0.points, &h.points),
        ];
        for (key, a, b) in fields {
            if a.to_string() != b.to_string() {
                return Err(format!(
                    "{} has {key} {b} but {} has {key} {a}: merge the shards of one sweep only",
                    s.name, first.name
                ));
            }
        }
        if h.sweep != h0.sweep {
            return Err(format!(
                "{} and {} expand the sweep differently (sweep hash {} vs {}): \
                 merge the shards of one sweep only",
                s.name, first.name, h.sweep, h0.sweep
            ));
        }
    }
    // Each shard once. The work and memory here grow with the files
    // given, never with the N a header states (a damaged or hand-made
    // header may say 1/4294967295).
    let n = h0.shard.n;
    let mut by_k: BTreeMap<u32, &ShardFile> = BTreeMap::new();
    for s in &shards {
        if let Some(other) = by_k.insert(s.header.shard.k, s) {
            return Err(format!(
                "shard {} given twice: {} and {}",
                s.header.shard, other.name, s.name
            ));
        }
    }
    let missing_count = n as u64 - by_k.len() as u64;
    if missing_count > 0 {
        // The first few missing: at most files + MISSING_NAMED steps.
        let shown: Vec<String> = (1..=n)
            .filter(|k| !by_k.contains_key(k))
            .take(MISSING_NAMED)
            .map(|k| format!("{k}/{n}"))
            .collect();
        return Err(format!(
            "missing shard{} {}{} of lab {} ({} of {n} given; N = {n} is from the header \
             of {})",
            if missing_count > 1 { "s" } else { "" },
            shown.join(", "),
            if missing_count > shown.len() as u64 {
                format!(", … ({missing_count} missing in all)")
            } else {
                String::new()
            },
            h0.lab,
            by_k.len(),
            first.name
        ));
    }
    // The sweep as this build expands it.
    if h0.engine != engine_id() {
        return Err(format!(
            "{} was made by engine {}, but this sawtooth is engine {}: merge with the \
             build that ran the shards",
            first.name,
            h0.engine,
            engine_id()
        ));
    }
    let lab = find_lab(&h0.lab)?;
    let scale = match h0.scale.as_str() {
        "quick" => Scale::Quick,
        "full" => Scale::Full,
        other => {
            return Err(format!(
                "{}: scale {other}: expected quick or full",
                first.name
            ))
        }
    };
    let only: Vec<String> = if h0.series == "all" {
        Vec::new()
    } else {
        h0.series.split(',').map(str::to_string).collect()
    };
    let points = sweep_points(lab, scale, &only)?;
    let expected = header(lab, scale, &only, &points, h0.shard);
    if expected != *h0 {
        return Err(format!(
            "{} does not match this build's sweep of lab {} (it says \"{}\", this build \
             expands \"{}\")",
            first.name,
            lab.id,
            h0.line(),
            expected.line()
        ));
    }
    let mut results: Vec<Option<PointResult>> = vec![None; points.len()];
    for s in &shards {
        let want = indices_of(&points, s.header.shard);
        let got: Vec<usize> = s.records.iter().map(|(i, _)| *i).collect();
        if got != want {
            return Err(format!(
                "{} (shard {}) holds points {got:?}, but that shard is points {want:?}",
                s.name, s.header.shard
            ));
        }
        let mut mine = Vec::with_capacity(want.len());
        for (i, v) in &s.records {
            let r = decode(v, lab, &points[*i], format!("{} point {i}", s.name))?;
            mine.push(r);
        }
        let mut csv = Vec::new();
        write_points(lab, &mine, &mut csv)?;
        if csv != s.csv.as_bytes() {
            return Err(format!(
                "{}: its CSV rows differ from its point records (was it edited?)",
                s.name
            ));
        }
        if s.digest_found != s.digest_stated {
            return Err(format!(
                "{}: the file does not match its digest (its header says digest={}, its \
                 contents hash to {}): it was edited or damaged after `sawtooth sweep --shard` \
                 wrote it; run that shard again",
                s.name, s.digest_stated, s.digest_found
            ));
        }
        for (i, r) in want.into_iter().zip(mine) {
            results[i] = Some(r);
        }
    }
    let results = results
        .into_iter()
        .map(|r| r.expect("every point is in exactly one shard"))
        .collect();
    Ok((lab, results))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shard_syntax_is_k_of_n_from_one() {
        assert_eq!(parse_shard("2/3"), Ok(Shard { k: 2, n: 3 }));
        assert_eq!(parse_shard("1/1"), Ok(Shard { k: 1, n: 1 }));
        for bad in [
            "0/3", "4/3", "1/0", "3", "a/b", "", "-1/3", "1/3/4", "1.5/3",
        ] {
            let e = parse_shard(bad).unwrap_err();
            assert!(e.contains("the form is K/N"), "{bad}: {e}");
        }
        assert!(parse_shard("4/3")
            .unwrap_err()
            .contains("K = 4 must be between 1 and N = 3"));
        assert!(parse_shard("1/4294967296")
            .unwrap_err()
            .contains("K and N must be at most 4294967295"));
        assert_eq!(
            parse_shard("4294967295/4294967295"),
            Ok(Shard {
                k: u32::MAX,
                n: u32::MAX
            })
        );
    }

    #[test]
    fn every_point_in_exactly_one_shard_and_loads_balanced() {
        // Costs of a lab whose series differ tenfold, in sweep order.
        let costs: Vec<u64> = (0..30)
            .map(|i| if i < 10 { 1000 } else { 100 + i })
            .collect();
        for n in 1..=40u32 {
            let of = assign(&costs, n);
            assert_eq!(of.len(), costs.len());
            assert!(of.iter().all(|&s| s < n));
            let mut load = vec![0u64; n as usize];
            for (i, &s) in of.iter().enumerate() {
                load[s as usize] += costs[i];
            }
            // LPT: the largest shard exceeds the mean by less than the
            // largest single point.
            let total: u64 = costs.iter().sum();
            let max = *load.iter().max().unwrap();
            assert!(max * n as u64 <= total + 1000 * n as u64, "n {n}: {load:?}");
            if n as usize >= costs.len() {
                let used = load.iter().filter(|&&l| l > 0).count();
                assert_eq!(used, costs.len(), "one point each, the rest empty");
            }
        }
        // Every fifth point heavy: dealing by index would give all six to
        // shard 1 of 5 (6000 against 600); LPT gives one a shard, the sixth
        // beside lighter ones.
        let costs: Vec<u64> = (0..30)
            .map(|i| if i % 5 == 0 { 1000 } else { 100 })
            .collect();
        let of = assign(&costs, 5);
        let mut load = [0u64; 5];
        for (i, &s) in of.iter().enumerate() {
            load[s as usize] += costs[i];
        }
        assert_eq!(load, [2000, 1600, 1600, 1600, 1600]);
    }

    #[test]
    fn assignment_is_by_cost_then_index() {
        assert_eq!(assign(&[5, 9, 5, 1], 2), vec![1, 0, 1, 0]);
        assert_eq!(assign(&[3, 3, 3], 5), vec![0, 1, 2]);
        assert_eq!(assign(&[], 3), Vec::<u32>::new());
    }

    #[test]
    fn a_result_survives_the_point_record_bit_for_bit() {
        let lab = find_lab("txqueuelen").unwrap();
        let point = &lab.expand(Scale::Quick).unwrap()[0];
        let r = PointResult {
            lab: lab.id.clone(),
            series: point.series.clone(),
            x: point.x.clone(),
            seed: point.seed,
            total_throughput_mbps: 0.1 + 0.2,
            group_labels: vec!["a, \"b\"|c".into()],
            group_throughput_mbps: vec![1e-300, f64::MAX],
            flow_throughput_mbps: vec![-0.0, 123.456_789_012_345_67],
            standard_throughput_mbps: None,
            standard_share: Some(1.0 / 3.0),
            jain_index: f64::NAN,
            utilisation: f64::INFINITY,
            time_to_max_rate_s: Some(9.78),
            flow_time_to_max_rate_s: vec![None, Some(2.0_f64.sqrt())],
            drops: u64::MAX,
            local_congestion_events: 1,
            ecn_marks: 2,
            timeouts: 3,
            congestion_event_rate: 5e-324,
            group_congestion_event_rate: vec![],
            mean_outstanding_kbytes: 2615.36618,
            duration_s: 10.0,
            group_share: Some(vec![0.25, 0.75]),
            probe_rtt_median_ms: Some(30.000_001),
            probe_rtt_p99_ms: None,
            mean_queue_delay_ms: Some(f64::MIN_POSITIVE),
            mean_queue_pkts: Some(1e10),
            mean_captured_outstanding_kbytes: Some(301.5),
        };
        let text = encode(&r).to_string();
        let back = decode(
            &serde_json::from_str(&text).unwrap(),
            lab,
            point,
            "test".into(),
        )
        .unwrap();
        assert_eq!(encode(&back).to_string(), text);
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(
            bits(&back.flow_throughput_mbps),
            bits(&r.flow_throughput_mbps)
        );
        assert_eq!(
            bits(&back.group_throughput_mbps),
            bits(&r.group_throughput_mbps)
        );
        assert_eq!(
            back.total_throughput_mbps.to_bits(),
            r.total_throughput_mbps.to_bits()
        );
        assert!(back.jain_index.is_nan());
        assert_eq!(back.congestion_event_rate.to_bits(), 1);
        let mut wrong = serde_json::from_str::<Value>(&text).unwrap();
        wrong["seed"] = 99.into();
        let e = decode(&wrong, lab, point, "f.csv point 0".into()).unwrap_err();
        assert!(e.contains("seed = 99"), "{e}");
    }
}
