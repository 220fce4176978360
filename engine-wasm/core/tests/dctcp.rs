//! DCTCP through the whole engine: two flows into a 1 Gb/s bottleneck whose
//! RED marks ECN from the instantaneous queue (weight 1, max_p 1).
//!
//! RED cannot be DCTCP's step marker (mark every packet while the queue is
//! at least K, Alizadeh et al. 2010 §3.1): at or above max_th it drops
//! even ECN-capable packets (Floyd & Jacobson; RFC 3168 §7), and between
//! min_th and max_th it marks with a probability that ramps up from 0, so
//! min_th = max_th = K would drop, not mark. These runs use a short ramp
//! from K to 2K and check, as orderings and ranges, what the paper's
//! analysis (§3.3) and guidelines (§3.4) say: no losses once the flows are
//! past slow start, a queue held near K that never runs dry when
//! K > C·RTT/7 and swings no more than the step marker's amplitude
//! A = ½·√(2N(C·RTT + K)), full throughput, and, with the same small K,
//! Standard TCP over ECN halving on every mark and losing throughput.
//! (Step-marking tests come with the step-marking AQM.)

mod common;

use sawtooth_core::record::EventKind;
use sawtooth_core::scenario::{Aqm, Flow, Host};
use sawtooth_core::{Scenario, Simulation, Summary};

/// 1 Gb/s, MTU 1500 (1538 bytes of line time a packet).
const RATE_BPS: f64 = 1e9;
const WIRE_BYTES: f64 = 1538.0;
/// A data-centre-like 2 ms: C·RTT = 163 packets, so the flows refill the
/// pipe within a few hundred milliseconds after slow start's first cut
/// (α starts at 1).
const RTT_MS: f64 = 2.0;
/// Two flows.
const N: f64 = 2.0;
/// Seconds before the measurement: slow start's overshoot (which RED's
/// max_th drops) and the refill after it are over.
const WARMUP_S: f64 = 1.0;

fn capacity_pps() -> f64 {
    RATE_BPS / (WIRE_BYTES * 8.0)
}

/// C·RTT in packets: 163 at 1 Gb/s and 2 ms.
fn bdp_pkts() -> f64 {
    capacity_pps() * RTT_MS / 1e3
}

/// Two flows of `algorithm` on two hosts into one 1 Gb/s port marking from
/// `k_pkts` (RED, weight 1: the instantaneous queue).
fn scenario(algorithm: &str, k_pkts: f64) -> Scenario {
    let mut s = Scenario::jumbo_gigabit();
    s.profile = "linux-6".into();
    s.duration_ms = 4_000.0;
    s.sample_interval_ms = 1.0;
    s.mtu_bytes = 1500;
    s.rtt_ms = RTT_MS;
    s.tcp.initial_cwnd_pkts = 10;
    s.bottleneck.rate_bps = RATE_BPS;
    s.bottleneck.buffer_pkts = 4_000;
    s.bottleneck.aqm = Aqm::Red {
        min_th_pkts: k_pkts,
        max_th_pkts: 2.0 * k_pkts,
        max_p: 1.0,
        weight: 1.0,
        ecn: true,
    };
    s.hosts = (0..2)
        .map(|_| Host {
            nic_bps: RATE_BPS,
            txqueuelen_pkts: 1_000,
            flows: vec![Flow::new(algorithm, 64 << 20)],
        })
        .collect();
    s
}

struct Run {
    summary: Summary,
    /// Bottleneck occupancy samples after the warm-up.
    queue: Vec<f64>,
    /// Losses after the warm-up.
    late_losses: usize,
    /// Payload delivered after the warm-up over its duration, b/s.
    late_throughput_bps: f64,
}

fn run(s: &Scenario) -> Run {
    let mut sim = Simulation::new(s).expect("valid scenario");
    let summary = sim.run_to_end();
    let rec = sim.recorder();
    let queue = common::samples_after(rec, "q.bottleneck_pkts", WARMUP_S);
    let late_losses = rec
        .events()
        .iter()
        .filter(|e| e.kind == EventKind::NetworkLoss && e.time_s > WARMUP_S)
        .count();
    let thr: Vec<f64> = (0..2)
        .map(|f| common::mean_after(rec, &format!("f{f}.throughput_bps"), WARMUP_S))
        .collect();
    Run {
        summary,
        queue,
        late_losses,
        late_throughput_bps: thr.iter().sum(),
    }
}

fn mean(xs: &[f64]) -> f64 {
    xs.iter().sum::<f64>() / xs.len() as f64
}

/// The value below which a fraction `p` of the samples lie.
fn quantile(xs: &[f64], p: f64) -> f64 {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    v[((v.len() - 1) as f64 * p).round() as usize]
}

/// Payload rate of a full 1 Gb/s link at MTU 1500: 1448 of 1538 bytes.
fn payload_capacity_bps() -> f64 {
    RATE_BPS * 1448.0 / WIRE_BYTES
}

/// The paper's queue amplitude for N flows and step marking (§3.3):
/// A = ½·√(2N(C·RTT + K)).
fn amplitude_pkts(k: f64) -> f64 {
    0.5 * (2.0 * N * (bdp_pkts() + k)).sqrt()
}

#[test]
fn two_dctcp_flows_hold_the_queue_near_k_without_loss_at_full_throughput() {
    // K = C·RTT/5 and C·RTT/2: both above the guideline C·RTT/7 (§3.4).
    for k in [(bdp_pkts() / 5.0).round(), (bdp_pkts() / 2.0).round()] {
        let r = run(&scenario("dctcp", k));
        let q_mean = mean(&r.queue);
        let (q_min, q_lo, q_hi) = (
            quantile(&r.queue, 0.0),
            quantile(&r.queue, 0.05),
            quantile(&r.queue, 0.95),
        );
        let a = amplitude_pkts(k);
        eprintln!(
            "dctcp: K {k}, C·RTT {:.0}, queue mean {q_mean:.1}, min {q_min}, 5–95 % {q_lo}–{q_hi} (A {a:.1}), late losses {}, late throughput {:.1} Mb/s, marks {}",
            bdp_pkts(),
            r.late_losses,
            r.late_throughput_bps / 1e6,
            r.summary.ecn_marks,
        );
        assert_eq!(r.late_losses, 0, "K {k}: ECN marks, not losses");
        assert!(r.summary.ecn_marks > 0);
        // Full throughput: the queue never runs dry (K > C·RTT/7).
        assert!(q_min >= 1.0, "K {k}: the queue emptied");
        assert!(
            r.late_throughput_bps > 0.98 * payload_capacity_bps(),
            "K {k}: throughput {:.1} Mb/s",
            r.late_throughput_bps / 1e6
        );
        // The queue sits near K, within the step marker's amplitude, and
        // swings no more than that amplitude (RED's ramp marks a few
        // packets at a time where the step marks a whole window).
        assert!((q_mean - k).abs() < a, "K {k}: mean queue {q_mean}");
        assert!(q_hi - q_lo <= a, "K {k}: 5–95 % swing {}", q_hi - q_lo);
    }
}

/// The paper's point (§1, §3.4): with a marking threshold well below the
/// bandwidth-delay product, Standard TCP over ECN halves on every mark and
/// the queue runs dry, while DCTCP cuts by α/2 and keeps the link full.
#[test]
fn with_a_small_k_dctcp_keeps_the_link_full_where_standard_tcp_over_ecn_does_not() {
    let k = (bdp_pkts() / 5.0).round();
    let dctcp = run(&scenario("dctcp", k));
    let reno = run(&scenario("reno", k));
    eprintln!(
        "K {k}: dctcp {:.1} Mb/s, queue mean {:.1}; reno-ecn {:.1} Mb/s, queue mean {:.1}",
        dctcp.late_throughput_bps / 1e6,
        mean(&dctcp.queue),
        reno.late_throughput_bps / 1e6,
        mean(&reno.queue)
    );
    assert_eq!(
        reno.late_losses, 0,
        "Standard TCP too sees marks, not losses"
    );
    assert!(
        reno.late_throughput_bps < 0.9 * dctcp.late_throughput_bps,
        "DCTCP {:.1} Mb/s vs Reno {:.1} Mb/s",
        dctcp.late_throughput_bps / 1e6,
        reno.late_throughput_bps / 1e6
    );
    // Standard TCP's halving empties the queue; DCTCP's never does.
    assert_eq!(quantile(&reno.queue, 0.05), 0.0);
    assert!(quantile(&dctcp.queue, 0.0) > 0.0);
}

/// Two BBRv3 flows on the same marking queue, with v3's ECN response on
/// (the `ecn` parameter: a route with Linux's `ecn_low`, the receiver
/// echoing each mark) and off. With it, the marks cut `inflight_lo` (by
/// α/3 per marked round) and end STARTUP and probes, so the flows keep
/// the queue shorter and lose less than the same flows ignoring the marks,
/// which only RED's drops past 2K stop (google/bbr v3 `tcp_bbr.c`; the
/// 5-ms `bbr_ecn_max_rtt_us` gate is met at 2 ms).
#[test]
fn bbr3s_ecn_response_keeps_the_queue_shorter_and_loses_less() {
    let k = (bdp_pkts() / 2.0).round();
    let with = |ecn: f64| {
        let mut s = scenario("bbr3", k);
        for h in &mut s.hosts {
            h.flows[0].params.insert("ecn".into(), ecn);
        }
        run(&s)
    };
    let (on, off) = (with(1.0), with(0.0));
    for (name, r) in [("on", &on), ("off", &off)] {
        eprintln!(
            "bbr3 ECN {name}: K {k}, queue mean {:.1}, 95 % {}, late losses {}, late throughput {:.1} Mb/s",
            mean(&r.queue),
            quantile(&r.queue, 0.95),
            r.late_losses,
            r.late_throughput_bps / 1e6
        );
    }
    assert!(mean(&on.queue) < mean(&off.queue));
    assert!(on.late_losses < off.late_losses);
}
