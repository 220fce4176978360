//! The engine's identity (issue 12; here since issue 27, so that the CLI and
//! the page's engine state the same one): a hash of the engine's sources and
//! lab data (`core/src`, `core/labs`, `core/Cargo.toml`), so `sawtooth merge`
//! can refuse slices that another build of the engine ran, and the guided
//! lab can refuse a sweep file that another build wrote. The crate version alone never changes between
//! commits. Any edit to these files (a comment too) changes the identity:
//! a conservative rule, since one build runs every shard of a sweep.

use std::path::{Path, PathBuf};

/// FNV-1a, 64 bits: a stable, dependency-free hash (not a security one).
fn fnv1a(mut h: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, out);
        } else if matches!(
            path.extension().and_then(|e| e.to_str()),
            Some("rs" | "json" | "toml")
        ) {
            out.push(path);
        }
    }
}

fn main() {
    let core = Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf();
    let mut files = Vec::new();
    for dir in ["src", "labs"] {
        println!("cargo:rerun-if-changed={}", core.join(dir).display());
        collect(&core.join(dir), &mut files);
    }
    files.push(core.join("Cargo.toml"));
    println!(
        "cargo:rerun-if-changed={}",
        core.join("Cargo.toml").display()
    );
    // Relative paths, sorted: the same sources hash the same anywhere.
    let mut named: Vec<(String, PathBuf)> = files
        .into_iter()
        .map(|p| {
            let rel = p
                .strip_prefix(&core)
                .unwrap_or(&p)
                .to_string_lossy()
                .replace('\\', "/");
            (rel, p)
        })
        .collect();
    named.sort();
    let mut h = FNV_OFFSET;
    for (rel, path) in &named {
        h = fnv1a(h, rel.as_bytes());
        h = fnv1a(h, &[0]);
        h = fnv1a(h, &std::fs::read(path).unwrap_or_default());
        h = fnv1a(h, &[0]);
    }
    println!("cargo:rustc-env=SAWTOOTH_ENGINE_SOURCE_HASH={h:016x}");
}
