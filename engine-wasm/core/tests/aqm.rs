//! Queue management at the bottleneck and the latency probe, end to end:
//! bufferbloat under drop-tail against the delay targets of CoDel (RFC
//! 8289), FQ-CoDel (RFC 8290) and PIE (RFC 8033), DCTCP's step marking
//! (RFC 8257), and the probe's closed-form round trip. Bounds come from the
//! RFCs' targets and the link's serialisation times, not from fitting.

use sawtooth_core::aqm::{codel, pie, step};
use sawtooth_core::net::{serialisation_ns, ETHERNET_OVERHEAD_BYTES};
use sawtooth_core::scenario::{Aqm, Flow, LatencyProbe};
use sawtooth_core::summary::Summary;
use sawtooth_core::{Scenario, Simulation};

const RATE_BPS: f64 = 100e6;
const RTT_MS: f64 = 40.0;
const MS: f64 = 1e6;

/// Reno flows over 100 Mb/s, 40 ms, a 1000-packet buffer (123 ms at
/// MTU 1500, ~3 BDPs: a bloated buffer), probed every 50 ms. The plain
/// `sawtooth-1` profile: no host mechanisms.
fn bulk(aqm: Aqm, flows: usize) -> Scenario {
    let mut s = Scenario::jumbo_gigabit();
    s.profile = "sawtooth-1".into();
    s.mtu_bytes = 1500;
    s.rtt_ms = RTT_MS;
    s.duration_ms = 20_000.0;
    s.sample_interval_ms = 100.0;
    s.tcp.initial_cwnd_pkts = 10;
    s.bottleneck.rate_bps = RATE_BPS;
    s.bottleneck.buffer_pkts = 1000;
    s.bottleneck.aqm = aqm;
    s.hosts[0].txqueuelen_pkts = 1000;
    s.hosts[0].flows = vec![Flow::new("reno", 16 << 20); flows];
    s.probe = Some(LatencyProbe {
        interval_ms: Some(50.0),
        size_bytes: None,
    });
    s
}

fn codel() -> Aqm {
    Aqm::Codel {
        target_ms: None,
        interval_ms: None,
        ecn: None,
    }
}

fn fq_codel() -> Aqm {
    Aqm::FqCodel {
        target_ms: None,
        interval_ms: None,
        quantum_bytes: None,
        flows: None,
        ecn: None,
    }
}

fn pie() -> Aqm {
    Aqm::pie_defaults()
}

/// A finished run and the probes' queueing delays (RTT less the base RTT:
/// the propagation delay plus the probe's own serialisation), in ms, of
/// probes sent in the second half (after slow start's transient).
struct Run {
    summary: Summary,
    late_queueing_ms: Vec<f64>,
}

fn run(s: &Scenario) -> Run {
    let mut sim = Simulation::new(s).unwrap();
    let summary = sim.run_to_end();
    assert!(sim.packet_accounting().is_conserved());
    let size = s.probe.as_ref().unwrap().size_bytes();
    let base_ns =
        (RTT_MS * MS) as u64 + serialisation_ns(size + ETHERNET_OVERHEAD_BYTES, RATE_BPS as u64);
    let half_ns = (s.duration_ms * MS / 2.0) as u64;
    let mut late_queueing_ms: Vec<f64> = sim
        .probe_samples()
        .iter()
        .filter(|p| p.sent_ns >= half_ns)
        .map(|p| {
            assert!(p.rtt_ns >= base_ns, "no probe beats the base RTT");
            (p.rtt_ns - base_ns) as f64 / MS
        })
        .collect();
    late_queueing_ms.sort_by(f64::total_cmp);
    assert!(late_queueing_ms.len() > 100);
    Run {
        summary,
        late_queueing_ms,
    }
}

fn percentile(sorted: &[f64], pct: f64) -> f64 {
    let rank = ((pct / 100.0 * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}

fn mean(xs: &[f64]) -> f64 {
    xs.iter().sum::<f64>() / xs.len() as f64
}

/// One full-size packet's time on the 100 Mb/s link, in ms.
fn mtu_ms() -> f64 {
    serialisation_ns(1500 + ETHERNET_OVERHEAD_BYTES, RATE_BPS as u64) as f64 / MS
}

/// The bufferbloat picture: one Reno flow fills a drop-tail buffer, so a
/// ping waits tens of milliseconds; CoDel keeps the standing queue at its
/// 5 ms TARGET, so the typical ping waits less than TARGET.
#[test]
fn codel_removes_the_bufferbloat_of_a_drop_tail_buffer() {
    let tail = run(&bulk(Aqm::DropTail {}, 1));
    let codel = run(&bulk(codel(), 1));
    let target = codel::TARGET_MS;
    let tail_p99 = percentile(&tail.late_queueing_ms, 99.0);
    assert!(
        tail_p99 > 10.0 * target,
        "drop-tail p99 queueing {tail_p99} ms"
    );
    let codel_median = percentile(&codel.late_queueing_ms, 50.0);
    let codel_p99 = percentile(&codel.late_queueing_ms, 99.0);
    assert!(codel_median <= target, "CoDel median {codel_median} ms");
    assert!(codel_p99 < tail_p99 / 2.0, "{codel_p99} vs {tail_p99}");
    let p = codel.summary.probe.as_ref().unwrap();
    assert_eq!(p.sent, 400);
    assert!(p.rtt_p99_ms.unwrap() < tail.summary.probe.unwrap().rtt_p99_ms.unwrap());
    assert!(codel.summary.bottleneck_drops > 0);
    assert_eq!(
        codel.summary.bottleneck_drops,
        codel.summary.flows.iter().map(|f| f.drops).sum::<u64>()
    );
}

/// FQ-CoDel: the probe is a sparse flow, served from the new-flow list
/// ahead of the bulk queues, so it waits at most for the packet on the
/// wire and a quantum of each other queue (RFC 8290 §4.2), while DRR shares
/// the link by bytes among the bulk flows (Jain's index near 1).
#[test]
fn fq_codel_keeps_the_ping_at_the_base_rtt_and_shares_fairly() {
    let flows = 4;
    let tail = run(&bulk(Aqm::DropTail {}, flows));
    let fq = run(&bulk(fq_codel(), flows));
    let bound = (flows + 1) as f64 * mtu_ms();
    let p99 = percentile(&fq.late_queueing_ms, 99.0);
    assert!(p99 <= bound, "probe p99 queueing {p99} ms > {bound} ms");
    assert!(percentile(&tail.late_queueing_ms, 50.0) > 10.0 * codel::TARGET_MS);
    assert!(
        fq.summary.jain_index > 0.99,
        "Jain {}",
        fq.summary.jain_index
    );
    let probe = fq.summary.probe.unwrap();
    assert_eq!(probe.lost, 0, "a sparse flow is never CoDel's target");
}

/// PIE steers the queueing delay towards QDELAY_REF (15 ms): with enough
/// flows to keep the link busy the probes' mean wait lies within a factor
/// of two of it, far below drop-tail's.
#[test]
fn pie_holds_the_delay_near_its_15_ms_target() {
    let pie = run(&bulk(pie(), 4));
    let target = pie::TARGET_MS;
    let m = mean(&pie.late_queueing_ms);
    assert!(
        m >= target / 2.0 && m <= 2.0 * target,
        "PIE mean queueing {m} ms"
    );
    let tail = run(&bulk(Aqm::DropTail {}, 4));
    assert!(mean(&tail.late_queueing_ms) > 4.0 * target);
}

/// DCTCP's switch marks from K packets and drops only when full: Reno
/// answers the marks, so the 1000-packet buffer never overflows and the
/// queue stays near K (the probe, Not-ECT, is dropped when it meets K).
#[test]
fn step_marking_marks_instead_of_filling_the_buffer() {
    let r = run(&bulk(
        Aqm::StepMark {
            threshold_pkts: None,
        },
        4,
    ));
    assert_eq!(r.summary.bottleneck_drops, 0);
    assert!(r.summary.ecn_marks > 0);
    let k_ms = step::THRESHOLD_PKTS as f64 * mtu_ms();
    let median = percentile(&r.late_queueing_ms, 50.0);
    assert!(median <= 2.0 * k_ms, "median queueing {median} ms");
}

/// Closed form: with no traffic (the only flow starts at the end) every
/// probe's RTT is the two propagation halves plus its own serialisation,
/// and one probe leaves every interval from time zero.
#[test]
fn an_idle_path_gives_the_base_rtt_exactly() {
    for aqm in [Aqm::DropTail {}, codel(), fq_codel(), pie()] {
        let mut s = bulk(aqm, 1);
        s.duration_ms = 1_000.0;
        s.hosts[0].flows[0].start_ms = s.duration_ms;
        s.probe = Some(LatencyProbe {
            interval_ms: Some(30.0),
            size_bytes: Some(1000),
        });
        let mut sim = Simulation::new(&s).unwrap();
        let summary = sim.run_to_end();
        let expected = 2 * ((RTT_MS * MS) as u64 / 2) + serialisation_ns(1038, RATE_BPS as u64);
        let samples = sim.probe_samples();
        // 34 sent (0, 30, …, 990 ms); the last two are still out at 1 s.
        let p = summary.probe.unwrap();
        assert_eq!((p.sent, p.received, p.lost), (34, 32, 0));
        for (k, x) in samples.iter().enumerate() {
            assert_eq!(x.sent_ns, k as u64 * 30_000_000);
            assert_eq!(x.rtt_ns, expected);
        }
        assert_eq!(p.rtt_min_ms, Some(expected as f64 / MS));
        assert!(sim.packet_accounting().is_conserved());
    }
}

#[test]
fn runs_with_a_probe_are_deterministic() {
    let mut s = bulk(fq_codel(), 3);
    s.duration_ms = 3_000.0;
    s.loss_rate = 1e-4;
    let once = || {
        let mut sim = Simulation::new(&s).unwrap();
        let summary = sim.run_to_end();
        (
            serde_json::to_string(&summary).unwrap(),
            sim.probe_samples().to_vec(),
            // Bits: NaN (an infinite ssthresh) equals itself.
            sim.recorder()
                .columns()
                .iter()
                .map(|c| c.iter().map(|x| x.to_bits()).collect::<Vec<_>>())
                .collect::<Vec<_>>(),
        )
    };
    let a = once();
    assert_eq!(a, once());
    assert!(!a.1.is_empty());
}

#[test]
fn the_new_disciplines_parse_from_their_kind_alone_with_rfc_defaults() {
    let mut v: serde_json::Value =
        serde_json::from_str(&Scenario::jumbo_gigabit().to_json()).unwrap();
    for kind in ["codel", "fq_codel", "pie", "step_mark"] {
        v["bottleneck"]["aqm"] = serde_json::json!({ "kind": kind });
        let s = Scenario::from_json(&v.to_string()).unwrap();
        assert_eq!(
            serde_json::to_value(&s.bottleneck.aqm).unwrap(),
            serde_json::json!({ "kind": kind }),
            "defaults stay implicit"
        );
        Simulation::new(&s).unwrap();
    }
    v["probe"] = serde_json::json!({});
    let s = Scenario::from_json(&v.to_string()).unwrap();
    let probe = s.probe.unwrap();
    assert_eq!((probe.interval_ms(), probe.size_bytes()), (200.0, 84));
}

#[test]
fn out_of_range_settings_name_the_field_and_the_range() {
    let mut s = Scenario::jumbo_gigabit();
    s.bottleneck.aqm = Aqm::FqCodel {
        target_ms: Some(0.0),
        interval_ms: Some(100.0),
        quantum_bytes: Some(100),
        flows: Some(0),
        ecn: None,
    };
    s.probe = Some(LatencyProbe {
        interval_ms: Some(0.5),
        size_bytes: Some(9001),
    });
    let e = s.validate();
    let fields: Vec<_> = e.iter().map(|e| e.field.as_str()).collect();
    assert_eq!(
        fields,
        [
            "bottleneck.aqm.target_ms",
            "bottleneck.aqm.quantum_bytes",
            "bottleneck.aqm.flows",
            "probe.interval_ms",
            "probe.size_bytes"
        ]
    );
    assert_eq!(e[1].message, "must be between 256 and 1048576 bytes");
    s.probe = None;
    s.bottleneck.aqm = Aqm::Pie {
        target_ms: None,
        t_update_ms: None,
        alpha: Some(3.0),
        beta: None,
        max_burst_ms: None,
        ecn: None,
    };
    let e = s.validate();
    assert_eq!(e[0].field, "bottleneck.aqm.alpha");
    assert_eq!(e[0].message, "must be between 0 and 2 per second");
    s.bottleneck.buffer_pkts = 10;
    s.bottleneck.aqm = Aqm::StepMark {
        threshold_pkts: None,
    };
    let e = s.validate();
    assert_eq!(e[0].field, "bottleneck.aqm.threshold_pkts");
    assert!(e[0].message.contains("at most buffer_pkts"));
}

/// `q.bottleneck_delay_ms`: the sojourn time of the packet that last left
/// the queue. Drop-tail's fills towards the whole buffer (1000 packets of
/// 0.123 ms) and never exceeds it; an idle path's is 0.
#[test]
fn the_queueing_delay_column_follows_the_sojourn_time() {
    let s = bulk(Aqm::DropTail {}, 1);
    let mut sim = Simulation::new(&s).unwrap();
    sim.run_to_end();
    let delay = sim.recorder().column("q.bottleneck_delay_ms").unwrap();
    let pkts = sim.recorder().column("q.bottleneck_pkts").unwrap();
    assert_eq!(delay.len(), pkts.len());
    let full_ms = s.bottleneck.buffer_pkts as f64 * mtu_ms();
    let max = delay.iter().cloned().fold(0.0, f64::max);
    assert!(max <= full_ms, "{max} ms > a full buffer's {full_ms} ms");
    assert!(max >= full_ms / 2.0, "the buffer fills: {max} ms");
    // Where the queue stands still at a sample, the last packet out waited
    // for about the packets now queued.
    for (d, q) in delay.iter().zip(pkts) {
        if *q > 100.0 {
            assert!(*d > 0.0);
        }
    }

    let mut idle = bulk(codel(), 1);
    idle.duration_ms = 1_000.0;
    idle.hosts[0].flows[0].start_ms = idle.duration_ms;
    let mut sim = Simulation::new(&idle).unwrap();
    sim.run_to_end();
    let delay = sim.recorder().column("q.bottleneck_delay_ms").unwrap();
    assert!(delay.iter().all(|&d| d == 0.0), "{delay:?}");
}

/// The column is what CoDel controls: over the second half, CoDel's median
/// is below TARGET while drop-tail's is many times it.
#[test]
fn codel_holds_the_delay_column_below_target() {
    let median_late = |aqm: Aqm| {
        let s = bulk(aqm, 4);
        let mut sim = Simulation::new(&s).unwrap();
        sim.run_to_end();
        let d = sim.recorder().column("q.bottleneck_delay_ms").unwrap();
        let mut late = d[d.len() / 2..].to_vec();
        late.sort_by(f64::total_cmp);
        percentile(&late, 50.0)
    };
    let target = codel::TARGET_MS;
    let c = median_late(codel());
    assert!(c <= target, "CoDel median delay {c} ms");
    let t = median_late(Aqm::DropTail {});
    assert!(t > 10.0 * target, "drop-tail median delay {t} ms");
}

/// With a probe the samples end with `probe.rtt_ms`: the latest round trip
/// back by each sample's time (NaN before the first), the same numbers as
/// the probe's own record; without a probe there is no such column.
#[test]
fn the_probe_column_holds_the_latest_round_trip() {
    let mut plain = bulk(Aqm::DropTail {}, 1);
    plain.probe = None;
    let mut sim = Simulation::new(&plain).unwrap();
    sim.run_to_end();
    assert!(sim.recorder().column("probe.rtt_ms").is_none());

    let s = bulk(Aqm::DropTail {}, 1);
    let mut sim = Simulation::new(&s).unwrap();
    sim.run_to_end();
    let names = sim.recorder().column_names();
    assert_eq!(names.last().map(String::as_str), Some("probe.rtt_ms"));
    let t = sim.recorder().column("t_s").unwrap();
    let col = sim.recorder().column("probe.rtt_ms").unwrap();
    let samples = sim.probe_samples();
    let rtt = s.rtt_ms * 1e6;
    for (ts, v) in t.iter().zip(col) {
        let now_ns = (ts * 1e9).round() as u64;
        // The latest reply by then: sent + rtt ≤ now.
        let latest = samples
            .iter()
            .filter(|p| p.sent_ns + p.rtt_ns <= now_ns)
            .last();
        match latest {
            None => assert!(v.is_nan(), "at {ts} s"),
            Some(p) => assert_eq!(*v, p.rtt_ns as f64 / 1e6, "at {ts} s"),
        }
        assert!(v.is_nan() || *v >= rtt / 1e6 - 1e-9);
    }
}
