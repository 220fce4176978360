//! `sawtooth merge`: the shard files checked to be exactly the N shards of
//! one sweep that this build would run, and their results put back in
//! sweep order.

use super::format::{header, read_shard, ShardFile};
use super::indices_of;
use crate::lab::{find_lab, sweep_points};
use sawtooth_core::labs::record::decode;
use sawtooth_core::labs::sweep_file::{engine_id, parse_scale};
use sawtooth_core::labs::{points_csv, Lab, PointResult, Scale, SweepPoint};
use std::collections::BTreeMap;
use std::fmt;

/// How many missing shards a merge names (it says how many in all).
const MISSING_NAMED: usize = 20;

/// A whole sweep gathered from its shards.
pub struct Gathered {
    pub lab: &'static Lab,
    pub scale: Scale,
    /// The series filter (`--series`); empty: every series.
    pub only: Vec<String>,
    pub points: Vec<SweepPoint>,
    /// One result per point, in sweep order.
    pub results: Vec<PointResult>,
}

/// The results of the whole sweep from its shard files, in sweep order,
/// after checking that the files are exactly the N shards of one sweep
/// that this build would run.
pub fn gather(files: &[String]) -> Result<Gathered, String> {
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
    let scale = parse_scale(&h0.scale)
        .ok_or_else(|| format!("{}: scale {}: expected quick or full", first.name, h0.scale))?;
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
        if points_csv(lab, &mine) != s.csv {
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
    Ok(Gathered {
        lab,
        scale,
        only,
        points,
        results,
    })
}
