//! Response functions: the mean congestion window of one long flow as a
//! function of the random loss rate p, measured through the whole
//! engine (sender state machine, SACK recovery, delayed ACKs, timers).
//!
//! Oracles (average window W in packets):
//! * Standard TCP: W = 1.2/√p (RFC 3649 §1; Long 2003);
//! * HighSpeed TCP: W = 0.12/p^0.835 where W > Low_Window (RFC 3649 §5),
//!   Standard TCP below;
//! * Scalable TCP: W = a/(b·p) = 0.08/p (Kelly 2003), where W > legacy.
//!
//! Those closed forms assume periodic losses. With independent (Bernoulli)
//! losses and one window reduction per round trip, a per-RTT Monte Carlo of
//! each rule (independent of this code base: W += a(W) per loss-free RTT,
//! W ← (1 − b(W))·W when any of the W packets of an RTT is lost) gives mean
//! windows of 1.06–1.09× the Standard formula, 1.005–1.013× the HighSpeed
//! one (p ≤ 10⁻⁴) and 0.89–0.90× the Scalable one:
//! `node scripts/response-correction.mjs` (10⁶ RTTs per point, seeded)
//! prints them. The expected value is formula × a factor in those ranges
//! (1.08, 1.02, 0.91).
//!
//! Tolerance: the mean over K loss events of a random process has a
//! relative standard deviation s₁/√K. The checks use s₁ = 0.63 (Standard),
//! 0.83 (HighSpeed), 0.86 (Scalable), an earlier estimate; the script's
//! delta-method figure per window reduction is smaller (0.37–0.47), so
//! these tolerances are wider than the per-RTT model alone needs. Each check
//! allows 2.5 standard deviations for the K events of the run plus 5% for
//! what the per-RTT model leaves out (delayed-ACK timing, recovery episodes,
//! timeouts at p = 10⁻²). Runs are deterministic (fixed seed), so this only
//! matters when the model changes.
//!
//! Cost: K events take K/p packets. Debug builds simulate ~300 000 packets
//! per second, so there p = 10⁻⁴ uses K = 100 (±21–27%) and p = 10⁻⁵ K = 20
//! (±40–53%); release builds (`cargo test --release`) use K = 300 for both
//! (±14–17%). p ≥ 10⁻³ uses K = 500 (±12–15%) in both.

use sawtooth_core::scenario::{Flow, Host};
use sawtooth_core::{Scenario, Simulation};

/// One loss-limited flow: a 100 Gb/s, 10 ms path with a huge buffer, so the
/// only congestion signal is the random loss. The initial ssthresh is the
/// expected window, so slow start does not overshoot far.
fn lossy(algorithm: &str, p: f64, w_expected: f64, events: f64) -> Scenario {
    let rtt_ms = 10.0;
    let mut s = Scenario::jumbo_gigabit();
    // The analytic oracles assume the RFC rules (per-packet counting, no
    // host mechanisms): the plain `sawtooth-1` profile.
    s.profile = "sawtooth-1".into();
    s.loss_rate = p;
    s.rtt_ms = rtt_ms;
    let pps = w_expected / (rtt_ms / 1000.0);
    s.duration_ms = (events / p / pps * 1000.0).max(2000.0);
    s.sample_interval_ms = (s.duration_ms / 20_000.0).max(1.0);
    s.bottleneck.rate_bps = 100e9;
    s.bottleneck.buffer_pkts = 1_000_000;
    s.tcp.initial_ssthresh_pkts = Some(w_expected as u32);
    s.hosts = vec![Host {
        nic_bps: 100e9,
        txqueuelen_pkts: 100_000,
        flows: vec![Flow::new(algorithm, 512 << 20)],
    }];
    s
}

struct Measured {
    mean_window: f64,
    events: u64,
}

/// Time-average of cwnd after the first tenth of the run.
fn measure(s: &Scenario) -> Measured {
    let mut sim = Simulation::new(s).unwrap();
    let summary = sim.run_to_end();
    let cwnd = sim.recorder().column("f0.cwnd_pkts").unwrap();
    let tail = &cwnd[cwnd.len() / 10..];
    let f = &summary.flows[0];
    Measured {
        mean_window: tail.iter().sum::<f64>() / tail.len() as f64,
        events: f.fast_retransmits + f.timeouts,
    }
}

/// Events at p: cheap points get many, p = 1e-5 depends on the build.
fn events_at(p: f64) -> f64 {
    let release = !cfg!(debug_assertions);
    if p >= 1e-3 {
        500.0
    } else if p >= 1e-4 {
        if release {
            300.0
        } else {
            100.0
        }
    } else if release {
        300.0
    } else {
        20.0
    }
}

/// Check one point: `formula` the closed form, `factor` the random-loss
/// correction, `s1` the per-event spread.
fn check(algorithm: &str, p: f64, formula: f64, factor: f64, s1: f64) -> Point {
    let expected = formula * factor;
    let m = measure(&lossy(algorithm, p, expected, events_at(p)));
    let k = m.events.max(1) as f64;
    let tol = 0.05 + 2.5 * s1 / k.sqrt();
    let ratio = m.mean_window / expected;
    eprintln!(
        "{algorithm} p = {p:e}: W = {:.1}, formula {formula:.1}, expected {expected:.1}, ratio {ratio:.3} (±{tol:.3}, {} events)",
        m.mean_window, m.events
    );
    assert!(
        k >= 0.5 * events_at(p),
        "{algorithm} p = {p:e}: only {k} loss events"
    );
    assert!(
        (ratio - 1.0).abs() <= tol,
        "{algorithm} p = {p:e}: W = {:.1} vs expected {expected:.1} (formula {formula:.1})",
        m.mean_window
    );
    Point {
        p,
        w: m.mean_window,
        sigma: s1 / k.sqrt(),
    }
}

struct Point {
    p: f64,
    w: f64,
    /// Relative standard deviation of `w` (s₁/√K).
    sigma: f64,
}

/// The log-log slope between two points must match the response
/// function's exponent within 2.5 standard deviations of the two means
/// (plus 0.02 for the per-RTT model's curvature).
fn check_slope(algorithm: &str, a: &Point, b: &Point, exponent: f64) {
    let slope = (b.w / a.w).ln() / (b.p / a.p).ln();
    let spread = 2.5 * (a.sigma.powi(2) + b.sigma.powi(2)).sqrt();
    let tol = (1.0 + spread).ln() / (b.p / a.p).ln().abs() + 0.02;
    eprintln!("{algorithm} log-log slope {slope:.3} (expected {exponent}, ±{tol:.3})");
    assert!(
        (slope - exponent).abs() <= tol,
        "{algorithm}: log-log slope {slope}, expected {exponent}"
    );
}

fn standard(p: f64) -> f64 {
    1.2 / p.sqrt()
}

#[test]
fn standard_tcp_follows_1_2_over_sqrt_p() {
    let w: Vec<Point> = [1e-2, 1e-3, 1e-4, 1e-5]
        .into_iter()
        .map(|p| check("reno", p, standard(p), 1.08, 0.63))
        .collect();
    // Square-root law: a hundredfold drop in p multiplies W by about 10.
    check_slope("reno", &w[0], &w[2], -0.5);
    check_slope("reno", &w[1], &w[3], -0.5);
}

#[test]
fn highspeed_follows_0_12_over_p_to_the_0_835() {
    // At p = 1e-2 the window is below Low_Window: Standard TCP.
    check("highspeed", 1e-2, standard(1e-2), 1.08, 0.63);
    let w: Vec<Point> = [1e-4, 1e-5]
        .into_iter()
        .map(|p| check("highspeed", p, 0.12 / p.powf(0.835), 1.02, 0.83))
        .collect();
    check_slope("highspeed", &w[0], &w[1], -0.835);
}

#[test]
fn scalable_follows_a_over_b_p() {
    let w: Vec<Point> = [1e-3, 1e-4, 1e-5]
        .into_iter()
        .map(|p| check("scalable", p, 0.01 / (0.125 * p), 0.91, 0.86))
        .collect();
    check_slope("scalable", &w[0], &w[1], -1.0);
    check_slope("scalable", &w[0], &w[2], -1.0);
}

#[test]
fn scalable_response_scales_with_a_over_b() {
    // Long 2003 Table 3: a = 1/50 with b = 1/8 (a/b = 4/25) and b = 1/4
    // (a/b = 2/25): doubling b should halve a/(b·p).
    let p = 1e-3;
    let mut s = lossy("scalable", p, 0.02 / (0.125 * p) * 0.91, 600.0);
    s.hosts[0].flows[0].params.insert("a".into(), 0.02);
    let eighth = measure(&s);
    let mut s = lossy("scalable", p, 0.02 / (0.25 * p) * 0.91, 600.0);
    s.hosts[0].flows[0].params.insert("a".into(), 0.02);
    s.hosts[0].flows[0].params.insert("b".into(), 0.25);
    let quarter = measure(&s);
    let ratio = eighth.mean_window / quarter.mean_window;
    eprintln!(
        "a = 1/50: W = {:.1} (b = 1/8), {:.1} (b = 1/4)",
        eighth.mean_window, quarter.mean_window
    );
    // Each mean is within 2.5·0.86/√600 ≈ 9% of its own expectation.
    assert!(
        (ratio - 2.0).abs() < 2.0 * 0.2,
        "W ratio {ratio} for b = 1/8 vs 1/4"
    );
    assert!(
        (eighth.mean_window / 160.0 - 0.91).abs() < 0.15,
        "W = {} vs 0.91·a/(b·p) = 146",
        eighth.mean_window
    );
}
