//! The shard file (see the format in the parent module's doc): its header
//! line and digest, writing a shard's CSV and point records, reading a file
//! back as `sweep` wrote it.

use super::{parse_shard, Shard};
use sawtooth_core::labs::record::encode;
use sawtooth_core::labs::sweep_file::{
    self, engine_id, fnv1a, scale_name, series_name, sweep_hash, FNV_OFFSET,
};
use sawtooth_core::labs::{points_csv, Lab, PointResult, Scale, SweepPoint};
use serde_json::Value;

/// The first word of a shard file's first line.
const MAGIC: &str = "# sawtooth-shard";
/// The shard file format this build writes and reads (2: with `digest`).
const FORMAT: u32 = 2;
const POINT: &str = sweep_file::POINT;

/// A shard file's digest: FNV-1a (64 bits) of its header line without the
/// digest, then each further line, every line ended by "\n" (so CRLF and
/// LF files agree). It finds edits and damage, not forgery: anyone can
/// recompute it.
fn digest<'a>(header: &Header, lines: impl IntoIterator<Item = &'a str>) -> String {
    let mut h = fnv1a(FNV_OFFSET, header.line().as_bytes());
    h = fnv1a(h, b"\n");
    for line in lines {
        h = fnv1a(h, line.as_bytes());
        h = fnv1a(h, b"\n");
    }
    format!("{h:016x}")
}

/// What a shard file's first line says (but its digest).
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Header {
    pub(super) format: String,
    pub(super) lab: String,
    pub(super) scale: String,
    pub(super) series: String,
    pub(super) shard: Shard,
    pub(super) points: usize,
    pub(super) engine: String,
    pub(super) sweep: String,
}

impl Header {
    pub(super) fn line(&self) -> String {
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

/// The header of `shard` of this sweep.
pub(super) fn header(
    lab: &Lab,
    scale: Scale,
    only: &[String],
    points: &[SweepPoint],
    shard: Shard,
) -> Header {
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
    let mut body = points_csv(lab, results);
    for (i, r) in indices.iter().zip(results) {
        body.push_str(&format!("{POINT}{i} {}\n", encode(r)));
    }
    let digest = digest(&head, body.lines());
    Ok(format!("{} digest={digest}\n{body}", head.line()).into_bytes())
}

/// One shard file read back.
pub(super) struct ShardFile {
    pub(super) name: String,
    pub(super) header: Header,
    /// The CSV between the header and the first `# point` line.
    pub(super) csv: String,
    /// (index, record) of each `# point` line.
    pub(super) records: Vec<(usize, Value)>,
    /// The digest the header states, and the file's.
    pub(super) digest_stated: String,
    pub(super) digest_found: String,
}

pub(super) fn read_shard(name: &str) -> Result<ShardFile, String> {
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
