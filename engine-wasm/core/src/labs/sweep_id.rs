//! What sweep a results file holds and which engine made it (issue 27):
//! the engine's identity (a hash of its sources), a lab's results stamp (a
//! hash of the lab's committed digests), the hash of a
//! sweep's expanded points, and the names files give scales and series.
//! Shared by the sweep files (`sweep_file.rs`), the CLI's shard files and
//! the page's engine.

use super::spec::Lab;
use super::sweep::{Scale, SweepPoint};

/// FNV-1a's 64-bit offset basis.
pub const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

/// FNV-1a, 64 bits: stable and dependency-free (not a security hash).
pub fn fnv1a(mut h: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// This build's engine: the crate version and a hash of the engine's
/// sources and lab data (`core/build.rs`). The CLI and the page's engine
/// built from the same sources state the same one.
pub fn engine_id() -> String {
    format!(
        "{}+{}",
        env!("CARGO_PKG_VERSION"),
        env!("SAWTOOTH_ENGINE_SOURCE_HASH")
    )
}

/// The committed digests of the engine's canonical runs and of every lab's
/// quick sweep, which `core/tests/digest.rs` holds this build to bit for bit.
const DIGESTS_JSON: &str = include_str!("../../tests/fixtures/digests.json");

/// This build's results stamp for `lab`: FNV-1a over the lab's committed
/// digests (`tests/fixtures/digests.json`: its quick sweep, measured, and
/// every quick point cut to 2 s), which `core/tests/digest.rs` holds this
/// build to bit for bit. It changes only when the lab's results change, so
/// a file stamped with it was computed by an engine that gives this lab the
/// same results as this one (where the digests look), even if its sources
/// differ in ways that do not touch them (a comment, another lab's queue
/// discipline). The files shipped with the site carry it
/// (`public/results/`); "none" for a lab without digests yet.
pub fn results_stamp(lab: &Lab) -> String {
    // Parsed once per process: the page's worker stamps every file it opens.
    static DIGESTS: std::sync::OnceLock<serde_json::Value> = std::sync::OnceLock::new();
    let digests = DIGESTS.get_or_init(|| serde_json::from_str(DIGESTS_JSON).unwrap_or_default());
    let key = format!("{:02}-{}", lab.number, lab.id);
    let mut h = FNV_OFFSET;
    for section in ["labs_quick", "labs_short"] {
        let Some(d) = digests[section][&key].as_str() else {
            return "none".into();
        };
        h = fnv1a(h, section.as_bytes());
        h = fnv1a(h, d.as_bytes());
    }
    format!("{h:016x}")
}

/// A hash of every expanded point (scenario included), in order.
pub fn sweep_hash(points: &[SweepPoint]) -> String {
    let mut h = FNV_OFFSET;
    for p in points {
        h = fnv1a(h, serde_json::to_string(p).expect("serialises").as_bytes());
        h = fnv1a(h, b"\n");
    }
    format!("{h:016x}")
}

/// The scale as files write it.
pub fn scale_name(scale: Scale) -> &'static str {
    match scale {
        Scale::Quick => "quick",
        Scale::Full => "full",
    }
}

/// The scale a file names.
pub fn parse_scale(name: &str) -> Option<Scale> {
    match name {
        "quick" => Some(Scale::Quick),
        "full" => Some(Scale::Full),
        _ => None,
    }
}

/// The series filter as files write it: the lab's order, or "all".
pub fn series_name(lab: &Lab, only: &[String]) -> String {
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

/// The lab's points at `scale`, only the `only` series if any (all when
/// empty), in sweep order.
pub fn sweep_points(lab: &Lab, scale: Scale, only: &[String]) -> Result<Vec<SweepPoint>, String> {
    Ok(lab
        .expand(scale)
        .map_err(|e| format!("lab {}: {e}", lab.id))?
        .into_iter()
        .filter(|p| only.is_empty() || only.contains(&p.series))
        .collect())
}
