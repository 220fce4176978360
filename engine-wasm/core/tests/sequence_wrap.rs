//! Sequence numbers wrap (issue 28, item 1). The engine numbers segments in
//! a 32-bit space starting at each flow's initial sequence number
//! (`tcp.initial_sequence`, or one drawn from the seed); a run that crosses
//! 2^32 must behave exactly as one that does not. Each scenario below runs
//! with the ISN 0 (no wrap), just below 2^32 (the wrap comes within the
//! run) and absent (drawn from the seed), and every sample, event and the
//! summary must be the same bit for bit.

use sawtooth_core::cc::catalogue;
use sawtooth_core::scenario::{Aqm, Flow, Host};
use sawtooth_core::{Scenario, Simulation};

/// Everything a finished run shows: every sample column's bits, every
/// event, the summary as JSON.
#[derive(Debug, PartialEq)]
struct Outputs {
    columns: Vec<(String, Vec<u64>)>,
    events: Vec<(u64, u32, u8)>,
    events_dropped: u64,
    summary: String,
}

fn run(s: &Scenario) -> (Outputs, Simulation) {
    let mut sim = Simulation::new(s).unwrap_or_else(|e| panic!("invalid scenario: {e:?}"));
    sim.run_to_end();
    let rec = sim.recorder();
    let outputs = Outputs {
        columns: rec
            .column_names()
            .iter()
            .zip(rec.columns())
            .map(|(n, c)| (n.to_string(), c.iter().map(|v| v.to_bits()).collect()))
            .collect(),
        events: rec
            .events()
            .iter()
            .map(|e| (e.time_s.to_bits(), e.flow, e.kind as u8))
            .collect(),
        events_dropped: rec.events_dropped,
        summary: serde_json::to_string(&sim.summary()).expect("summary serialises"),
    };
    (outputs, sim)
}

fn with_isn(s: &Scenario, isn: Option<u64>) -> Scenario {
    let mut s = s.clone();
    s.tcp.initial_sequence = isn;
    s
}

/// Run `s` from ISN 0, from `below` segments under 2^32 (checking that
/// every flow sent past the wrap) and from the seed's ISNs: the same
/// results each time.
fn assert_wrap_changes_nothing(name: &str, s: &Scenario, below: u64) {
    let (reference, _) = run(&with_isn(s, Some(0)));
    let near = (1u64 << 32) - below;
    let (wrapped, sim) = run(&with_isn(s, Some(near)));
    for (f, t) in sim.run_totals().flows.iter().enumerate() {
        assert!(
            t.sender.segments_sent > below,
            "{name}: flow {f} sent {} segments, not past the wrap ({below} away)",
            t.sender.segments_sent
        );
    }
    assert_same(
        name,
        "initial_sequence just below 2^32",
        &reference,
        &wrapped,
    );
    let (drawn, _) = run(&with_isn(s, None));
    assert_same(name, "initial_sequence from the seed", &reference, &drawn);
}

fn assert_same(name: &str, what: &str, reference: &Outputs, other: &Outputs) {
    if reference == other {
        return;
    }
    let mut diffs = Vec::new();
    if reference.summary != other.summary {
        diffs.push(format!(
            "summary\n    ISN 0: {}\n    {what}: {}",
            reference.summary, other.summary
        ));
    }
    for ((n, a), (_, b)) in reference.columns.iter().zip(&other.columns) {
        if let Some(i) = a.iter().zip(b).position(|(x, y)| x != y) {
            diffs.push(format!(
                "column {n} from row {i}: {} vs {}",
                f64::from_bits(a[i]),
                f64::from_bits(b[i])
            ));
        }
    }
    if reference.events != other.events {
        diffs.push(format!(
            "events: {} vs {}",
            reference.events.len(),
            other.events.len()
        ));
    }
    panic!(
        "{name}: {what} changed the results:\n  {}",
        diffs.join("\n  ")
    );
}

fn one_flow(algorithm: &str, rate_bps: f64, mtu_bytes: u32, rtt_ms: f64) -> Scenario {
    let mut s = Scenario::jumbo_gigabit();
    s.profile = "sawtooth-1".into();
    s.mtu_bytes = mtu_bytes;
    s.rtt_ms = rtt_ms;
    s.bottleneck.rate_bps = rate_bps;
    s.hosts = vec![Host {
        nic_bps: rate_bps,
        txqueuelen_pkts: 1000,
        flows: vec![Flow::new(algorithm, 64 << 20)],
    }];
    s
}

/// The run, shortened: one flow at 100 Gb/s, MTU 576, 1 ms RTT,
/// no drops. Today's engine sent it into repeated timeouts at the wrap,
/// with one sample of 7.7e22 b/s and a summary of 17 b/s.
#[test]
fn a_lossless_flow_crosses_the_wrap_at_full_rate() {
    let mut s = one_flow("reno", 100e9, 576, 1.0);
    s.duration_ms = 200.0;
    s.sample_interval_ms = 10.0;
    s.bottleneck.buffer_pkts = 100_000;
    s.tcp.initial_cwnd_pkts = 100;
    // Queues that hold slow start's bursts, and a 16 MB window: 31 300
    // segments, above the 20 400 of the path's BDP and far below what the
    // buffer holds, so nothing is dropped.
    s.hosts[0].txqueuelen_pkts = 100_000;
    s.hosts[0].flows[0].window_bytes = 16 << 20;
    let (reference, _) = run(&with_isn(&s, Some(0)));
    let (wrapped, sim) = run(&with_isn(&s, Some(u32::MAX as u64 - 1_000_000)));
    let summary = sim.summary();
    let flow = &summary.flows[0];
    assert_eq!(flow.timeouts, 0);
    assert_eq!(flow.retransmits, 0);
    assert!(
        flow.mean_throughput_bps > 70e9,
        "{} b/s",
        flow.mean_throughput_bps
    );
    assert!(sim.run_totals().flows[0].sender.segments_sent > 1_000_001);
    let throughput = sim.recorder().column("f0.throughput_bps").expect("column");
    assert!(
        throughput.iter().all(|&x| x <= 100e9),
        "a sample above the line rate: {:?}",
        throughput.iter().cloned().fold(0.0, f64::max)
    );
    assert_same(
        "100 Gb/s",
        "initial_sequence 2^32 − 1 000 001",
        &reference,
        &wrapped,
    );
}

/// Random loss: fast retransmits, SACK recovery and timeouts on both sides
/// of the wrap, for every algorithm of the catalogue.
#[test]
fn every_algorithm_recovers_across_the_wrap_with_and_without_sack() {
    for info in catalogue() {
        for sack in [true, false] {
            let mut s = one_flow(info.id, 1e9, 1500, 10.0);
            s.duration_ms = 1500.0;
            s.loss_rate = 1e-3;
            s.tcp.sack = sack;
            assert_wrap_changes_nothing(&format!("{} sack={sack}", info.id), &s, 2_000);
        }
    }
}

/// Heavy loss: retransmission timeouts, back-off and Loss state while
/// the sequence numbers wrap (the ISN a handful of segments below 2^32).
#[test]
fn timeouts_and_loss_recovery_across_the_wrap() {
    let mut s = one_flow("reno", 100e6, 1500, 50.0);
    s.duration_ms = 3000.0;
    s.loss_rate = 0.05;
    s.bottleneck.buffer_pkts = 20;
    let (out, _) = run(&with_isn(&s, Some(0)));
    assert!(
        out.summary.contains("\"timeouts\":") && !out.summary.contains("\"timeouts\":0"),
        "the run has timeouts: {}",
        out.summary
    );
    for below in [1, 2, 3, 7, 100] {
        assert_wrap_changes_nothing(&format!("5 % loss, {below} below"), &s, below);
    }
}

/// Two hosts and flows under the Linux 2.4 testbed profile (its NIC ring
/// counted in descriptors per segment number, rate halving, Linux's RTO
/// estimator) with a short interface queue: local congestion and drops
/// across the wrap; each flow draws its own ISN when none is given.
#[test]
fn testbed_profile_with_competing_flows_across_the_wrap() {
    let mut s = Scenario::jumbo_gigabit();
    s.profile = "linux-2.4".into();
    s.mtu_bytes = 1500;
    s.rtt_ms = 5.0;
    s.duration_ms = 2000.0;
    s.bottleneck.buffer_pkts = 100;
    s.hosts = (0..2)
        .map(|_| Host {
            nic_bps: 1e9,
            txqueuelen_pkts: 10,
            flows: vec![Flow::new("cubic", 16 << 20), Flow::new("reno", 16 << 20)],
        })
        .collect();
    assert_wrap_changes_nothing("linux-2.4, 4 flows", &s, 15_000);
}

/// ECN: DCTCP's per-window marked fraction (counted by sequence number)
/// and RED with ECN for the classic echo.
#[test]
fn ecn_marking_across_the_wrap() {
    let mut s = one_flow("dctcp", 10e9, 1500, 1.0);
    s.duration_ms = 500.0;
    s.bottleneck.aqm = Aqm::StepMark {
        threshold_pkts: Some(20),
    };
    assert_wrap_changes_nothing("dctcp step_mark", &s, 100_000);
    let mut s = one_flow("reno", 1e9, 1500, 10.0);
    s.duration_ms = 1500.0;
    s.bottleneck.buffer_pkts = 200;
    s.bottleneck.aqm = Aqm::Red {
        min_th_pkts: 20.0,
        max_th_pkts: 100.0,
        max_p: 0.1,
        weight: 0.002,
        ecn: true,
    };
    assert_wrap_changes_nothing("red ecn", &s, 20_000);
}

#[test]
fn initial_sequence_is_validated_and_optional_in_documents() {
    let mut s = Scenario::jumbo_gigabit();
    assert!(
        s.to_json().find("initial_sequence").is_none(),
        "absent by default"
    );
    s.tcp.initial_sequence = Some(u32::MAX as u64);
    assert!(s.validate().is_empty());
    assert_eq!(Scenario::from_json(&s.to_json()).unwrap(), s);
    s.tcp.initial_sequence = Some(1 << 32);
    let errors = s.validate();
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].field, "tcp.initial_sequence");
    assert_eq!(errors[0].value, "4294967296");
    assert_eq!(errors[0].message, "must be between 0 and 4294967295");
    // A document without the field (every link made before it) parses.
    let mut v: serde_json::Value =
        serde_json::from_str(&Scenario::jumbo_gigabit().to_json()).unwrap();
    assert!(v["tcp"]
        .as_object_mut()
        .unwrap()
        .remove("initial_sequence")
        .is_none());
    assert!(Scenario::from_json(&v.to_string()).is_ok());
    v["tcp"]["initial_sequence"] = (-1).into();
    let e = Scenario::from_json(&v.to_string()).unwrap_err();
    assert_eq!(e[0].field, "tcp.initial_sequence");
}

#[test]
fn drawn_initial_sequences_differ_by_flow_and_seed_and_are_reproducible() {
    let mut s = Scenario::jumbo_gigabit();
    let a: Vec<u32> = (0..4).map(|f| s.initial_sequence(f)).collect();
    assert_eq!(a, (0..4).map(|f| s.initial_sequence(f)).collect::<Vec<_>>());
    assert!(a.windows(2).all(|w| w[0] != w[1]), "{a:?}");
    s.seed += 1;
    assert_ne!(s.initial_sequence(0), a[0]);
    s.tcp.initial_sequence = Some(7);
    assert_eq!((s.initial_sequence(0), s.initial_sequence(3)), (7, 7));
}
