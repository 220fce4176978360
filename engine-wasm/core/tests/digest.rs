//! Results are unchanged bit for bit: a 64-bit FNV-1a digest of everything a
//! run produces (every sample column's f64 bits, every recorded event, the
//! summary JSON and, for lab points, the measured point as JSON) is compared
//! with the value stored in `tests/fixtures/digests.json`.
//!
//! This is the proof that an optimisation of the engine (event queue,
//! scoreboard, allocation) changed nothing a user can see. A digest that
//! differs means behaviour changed: either the change is a bug, or it is
//! meant to change results, and then the fixture is regenerated on purpose
//! and the commit says why:
//!
//! ```sh
//! SAWTOOTH_UPDATE_DIGESTS=1 cargo test -p sawtooth-core --test digest -- --include-ignored
//! ```
//!
//! (`--release` makes the long part ~4× faster when a release build is at
//! hand; the digests are the same either way.)
//!
//! Three sections:
//! * `runs`: single scenarios (the default, the canonical benchmark, every
//!   algorithm of the catalogue against Standard TCP, every testbed
//!   profile, RED with and without ECN, random loss with and without SACK,
//!   several hosts with flows that start late and stop early, timeouts).
//! * `labs_short`: every point of every guided lab's quick sweep, cut to
//!   its first two seconds (cheap enough for the debug `cargo test`).
//! * `labs_quick`: every guided lab's quick sweep exactly as the page runs
//!   it, and `canonical`: the 60-s benchmark run (`#[ignore]`: ~90 s in
//!   the debug build on two busy cores; `scripts/test.sh` runs them after
//!   `cargo test --workspace`, reusing its build).

use sawtooth_core::cc::catalogue;
use sawtooth_core::labs::{labs, measure, run_measured, Lab, Scale, SweepPoint};
use sawtooth_core::net::ETHERNET_OVERHEAD_BYTES;
use sawtooth_core::profile::PROFILES;
use sawtooth_core::scenario::{Aqm, Flow, Host};
use sawtooth_core::{parallel, Scenario, Simulation};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Mutex;

/// FNV-1a, 64 bits: tiny, stable across platforms and Rust versions (unlike
/// `DefaultHasher`), and enough to tell two results apart.
struct Fnv(u64);

impl Fnv {
    fn new() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    fn bytes(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= b as u64;
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    fn u64(&mut self, v: u64) {
        self.bytes(&v.to_le_bytes());
    }

    fn str(&mut self, s: &str) {
        self.u64(s.len() as u64);
        self.bytes(s.as_bytes());
    }

    fn hex(&self) -> String {
        format!("{:016x}", self.0)
    }
}

/// Everything a finished run shows: samples, events, summary.
fn hash_run(h: &mut Fnv, sim: &Simulation) {
    let rec = sim.recorder();
    for (name, column) in rec.column_names().iter().zip(rec.columns()) {
        h.str(name);
        h.u64(column.len() as u64);
        for v in column {
            h.u64(v.to_bits());
        }
    }
    h.u64(rec.events().len() as u64);
    for e in rec.events() {
        h.u64(e.time_s.to_bits());
        h.u64(e.flow as u64);
        h.u64(e.kind as u8 as u64);
    }
    h.u64(rec.events_dropped);
    let summary = serde_json::to_string(&sim.summary()).expect("summary serialises");
    h.str(&summary);
}

fn run_digest(s: &Scenario) -> String {
    let mut sim = Simulation::new(s).unwrap_or_else(|e| panic!("invalid scenario: {e:?}"));
    sim.run_to_end();
    let mut h = Fnv::new();
    hash_run(&mut h, &sim);
    h.hex()
}

/// Run `jobs` on every core, results in input order.
fn parallel<T: Sync, R: Send>(jobs: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    parallel::map_in_order(jobs, parallel::available_cores(), f)
}

// ---------------------------------------------------------------------------
// The fixture
// ---------------------------------------------------------------------------

fn fixture_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/digests.json")
}

fn updating() -> bool {
    std::env::var("SAWTOOTH_UPDATE_DIGESTS").is_ok_and(|v| v == "1")
}

type Sections = BTreeMap<String, BTreeMap<String, String>>;

/// Tests of one binary run in parallel threads: one writer at a time.
static FIXTURE: Mutex<()> = Mutex::new(());

fn read_fixture() -> Sections {
    match std::fs::read_to_string(fixture_path()) {
        Ok(text) => serde_json::from_str(&text).expect("digests.json parses"),
        Err(_) => Sections::new(),
    }
}

/// Compare `computed` with the fixture's `section` (or store it, when
/// SAWTOOTH_UPDATE_DIGESTS=1), naming every run that differs.
fn check(section: &str, computed: BTreeMap<String, String>) {
    let _guard = FIXTURE.lock().unwrap_or_else(|e| e.into_inner());
    let mut fixture = read_fixture();
    if updating() {
        fixture.insert(section.into(), computed);
        let text = serde_json::to_string_pretty(&fixture).expect("serialises") + "\n";
        std::fs::write(fixture_path(), text).expect("write digests.json");
        eprintln!("updated section {section} of {}", fixture_path().display());
        return;
    }
    let stored = fixture.get(section).cloned().unwrap_or_default();
    let mut problems = Vec::new();
    for (name, digest) in &computed {
        match stored.get(name) {
            Some(d) if d == digest => {}
            Some(d) => problems.push(format!("{name}: stored {d}, now {digest}")),
            None => problems.push(format!("{name}: no stored digest (now {digest})")),
        }
    }
    for name in stored.keys().filter(|n| !computed.contains_key(*n)) {
        problems.push(format!("{name}: stored but no longer run"));
    }
    assert!(
        problems.is_empty(),
        "results changed in section {section} ({} of {}):\n  {}\nIf the change is meant, regenerate with SAWTOOTH_UPDATE_DIGESTS=1 (see tests/digest.rs).",
        problems.len(),
        computed.len(),
        problems.join("\n  ")
    );
}

// ---------------------------------------------------------------------------
// Single runs
// ---------------------------------------------------------------------------

fn host(nic_bps: f64, txqueuelen_pkts: u32, flows: Vec<Flow>) -> Host {
    Host {
        nic_bps,
        txqueuelen_pkts,
        flows,
    }
}

/// The benchmark's canonical run (BENCHMARKS.md): two Standard TCP senders
/// into one 1 Gb/s bottleneck, 30 ms, MTU 1500, 16 MB windows.
fn canonical(duration_ms: f64) -> Scenario {
    let mut s = Scenario::jumbo_gigabit();
    s.mtu_bytes = 1500;
    s.duration_ms = duration_ms;
    s.bottleneck.buffer_pkts = 1000;
    s.hosts = (0..2)
        .map(|_| host(1e9, 100, vec![Flow::new("reno", 16 << 20)]))
        .collect();
    s
}

/// `id` on one host against Standard TCP on another, MTU 1500.
fn against_standard(id: &str, profile: &str) -> Scenario {
    let mut s = canonical(6_000.0);
    s.profile = profile.into();
    s.bottleneck.buffer_pkts = 300;
    s.hosts[0].flows[0] = Flow::new(id, 16 << 20);
    s.hosts[1].flows[0].start_ms = 500.0;
    s
}

fn red(ecn: bool) -> Aqm {
    Aqm::Red {
        min_th_pkts: 50.0,
        max_th_pkts: 150.0,
        max_p: 0.1,
        weight: 0.002,
        ecn,
    }
}

fn single_runs() -> Vec<(String, Scenario)> {
    let mut runs = vec![
        ("default".to_string(), Scenario::default_scenario()),
        ("canonical-10s".to_string(), canonical(10_000.0)),
    ];
    for info in catalogue() {
        runs.push((
            format!("algorithm-{}", info.id),
            against_standard(info.id, "linux-2.4"),
        ));
    }
    // Every other profile (the algorithm runs above are on linux-2.4).
    for p in PROFILES.iter().filter(|p| p.id != "linux-2.4") {
        runs.push((format!("profile-{}", p.id), against_standard("cubic", p.id)));
    }
    // RED dropping, and RED marking ECN with random loss (format 1 fixture).
    let mut s = canonical(5_000.0);
    s.bottleneck.aqm = red(false);
    s.hosts[1].flows[0] = Flow::new("highspeed", 16 << 20);
    runs.push(("red-drop".into(), s));
    let v1 = include_str!("fixtures/v1/cubic-bic-htcp-red.json");
    runs.push((
        "red-ecn-loss-v1".into(),
        Scenario::from_json(v1).expect("v1 fixture"),
    ));
    // Random loss: NewReno (no SACK) and SACK; no delayed ACKs in one.
    for (name, sack, delack) in [
        ("loss-newreno", false, true),
        ("loss-sack-no-delack", true, false),
    ] {
        let mut s = Scenario::jumbo_gigabit();
        s.duration_ms = 8_000.0;
        s.mtu_bytes = 1500;
        s.profile = "linux-6".into();
        s.loss_rate = 1e-3;
        s.seed = 42;
        s.tcp.sack = sack;
        s.tcp.delayed_ack = delack;
        s.tcp.initial_cwnd_pkts = 10;
        runs.push((name.into(), s));
    }
    // Several hosts, flows that start late and stop early, extra delays,
    // short interface queues (local congestion), 10 Gb/s NICs.
    let mut s = Scenario::jumbo_gigabit();
    s.duration_ms = 6_000.0;
    s.mtu_bytes = 1500;
    s.seed = 9;
    s.bottleneck.buffer_pkts = 400;
    let mut late = Flow::new("scalable", 8 << 20);
    late.start_ms = 1_000.0;
    late.stop_ms = Some(4_000.0);
    late.extra_delay_ms = 40.0;
    let mut delayed = Flow::new("htcp", 8 << 20);
    delayed.extra_delay_ms = 100.0;
    s.hosts = vec![
        host(1e9, 20, vec![Flow::new("reno", 16 << 20), late]),
        host(
            10e9,
            100,
            vec![
                Flow::new("cubic", 16 << 20),
                delayed,
                Flow::new("bic", 4 << 20),
            ],
        ),
        host(1e9, 5, vec![Flow::new("vegas", 16 << 20)]),
    ];
    runs.push(("multi-host".into(), s));
    // A tiny buffer on a slow link: timeouts and back-off.
    let mut s = Scenario::jumbo_gigabit();
    s.duration_ms = 6_000.0;
    s.mtu_bytes = 1500;
    s.rtt_ms = 100.0;
    s.bottleneck.rate_bps = 20e6;
    s.bottleneck.buffer_pkts = 4;
    s.hosts = vec![host(
        1e9,
        100,
        vec![Flow::new("reno", 4 << 20), Flow::new("bbr", 4 << 20)],
    )];
    runs.push(("tiny-buffer-timeouts".into(), s));
    runs
}

/// Single scenarios: see the module comment.
#[test]
fn single_runs_match_stored_digests() {
    let runs = single_runs();
    let digests = parallel(&runs, |(_, s)| run_digest(s));
    let computed = runs.iter().map(|(n, _)| n.clone()).zip(digests).collect();
    check("runs", computed);
}

/// The canonical benchmark run itself, 60 s (long in a debug build).
#[test]
#[ignore = "long: scripts/test.sh runs it (cargo test --workspace --test digest -- --ignored)"]
fn canonical_run_matches_stored_digest() {
    let computed = [(
        "canonical-60s".to_string(),
        run_digest(&canonical(60_000.0)),
    )];
    check("canonical", computed.into_iter().collect());
}

// ---------------------------------------------------------------------------
// Guided labs
// ---------------------------------------------------------------------------

/// (lab, point) for every point of every lab's quick sweep.
fn quick_points() -> Vec<(&'static Lab, SweepPoint)> {
    labs()
        .labs
        .iter()
        .flat_map(|l| {
            let points = l.expand(Scale::Quick).expect("the lab expands");
            points.into_iter().map(move |p| (l, p))
        })
        .collect()
}

/// One digest per lab over its points' digests, in sweep order.
fn per_lab(
    points: &[(&'static Lab, SweepPoint)],
    digests: Vec<String>,
) -> BTreeMap<String, String> {
    let mut by_lab: BTreeMap<String, Fnv> = BTreeMap::new();
    for ((l, _), d) in points.iter().zip(digests) {
        let h = by_lab
            .entry(format!("{:02}-{}", l.number, l.id))
            .or_insert_with(Fnv::new);
        h.str(&d);
    }
    by_lab.into_iter().map(|(k, h)| (k, h.hex())).collect()
}

/// Every quick point of every lab, cut to its first two seconds.
#[test]
fn lab_quick_points_cut_short_match_stored_digests() {
    let points = quick_points();
    let digests = parallel(&points, |(_, p)| {
        let mut s = p.scenario.clone();
        s.duration_ms = s.duration_ms.min(2_000.0);
        for f in s.hosts.iter_mut().flat_map(|h| &mut h.flows) {
            f.start_ms = f.start_ms.min(s.duration_ms);
            f.stop_ms = f.stop_ms.map(|t| t.min(s.duration_ms));
        }
        run_digest(&s)
    });
    check("labs_short", per_lab(&points, digests));
}

/// Every lab's quick sweep as the page runs it, with the measured points.
#[test]
#[ignore = "long: scripts/test.sh runs it (cargo test --workspace --test digest -- --ignored)"]
fn lab_quick_sweeps_match_stored_digests() {
    let points = quick_points();
    let digests = parallel(&points, |(l, p)| {
        let mut sim = Simulation::new(&p.scenario).expect("valid point");
        let window = run_measured(l, Scale::Quick, &mut sim);
        let mut h = Fnv::new();
        hash_run(&mut h, &sim);
        let result = measure(l, p, Scale::Quick, &sim, window.as_ref());
        // Guided-lab measures stay within physics: no utilisation above
        // the payload the link can carry (issue 23), give or take the one
        // frame on the wire at each edge of a measurement window.
        let s = &p.scenario;
        let payload_limit = s.mss_bytes() as f64 / (s.mtu_bytes + ETHERNET_OVERHEAD_BYTES) as f64;
        assert!(
            result.utilisation <= payload_limit * (1.0 + 1e-3),
            "{} {} at {}: utilisation {} above the payload limit {payload_limit}",
            l.id,
            p.series,
            p.x,
            result.utilisation
        );
        h.str(&serde_json::to_string(&result).expect("point result serialises"));
        h.hex()
    });
    check("labs_quick", per_lab(&points, digests));
}

/// The digest sees a one-bit change in a sample (it is not blind).
#[test]
fn the_digest_tells_runs_apart() {
    let mut a = Scenario::jumbo_gigabit();
    a.duration_ms = 500.0;
    let mut b = a.clone();
    b.seed += 1;
    b.loss_rate = 1e-3;
    assert_ne!(run_digest(&a), run_digest(&b));
    assert_eq!(run_digest(&a), run_digest(&a.clone()));
    let mut h1 = Fnv::new();
    h1.u64(1.0f64.to_bits());
    let mut h2 = Fnv::new();
    h2.u64(f64::from_bits(1.0f64.to_bits() + 1).to_bits());
    assert_ne!(h1.hex(), h2.hex());
}
