//! Trace-driven links (issue 25, `link_trace.rs`): the bottleneck follows a
//! delivery-opportunity trace in Mahimahi's format. Each expectation is
//! Mahimahi's rule (`src/frontend/link_queue.cc`, commit 9f0dcb7) worked
//! out by hand: 1504 bytes per opportunity, the trace repeating with its
//! last timestamp as period, unused opportunities lost, partial packets
//! carried to the next opportunity, an arrival served from the next
//! millisecond on.

use sawtooth_core::aqm::Bottleneck;
use sawtooth_core::link_trace::{self, TraceSchedule, OPPORTUNITY_BYTES};
use sawtooth_core::net::{Frame, Packet, ETHERNET_HEADER_BYTES, ETHERNET_OVERHEAD_BYTES};
use sawtooth_core::rng::Rng;
use sawtooth_core::scenario::{limits, Aqm, Flow, LatencyProbe, LinkTrace};
use sawtooth_core::{Scenario, Simulation};

const MS: u64 = 1_000_000;

fn frame(seq: u32, ip_bytes: u32) -> Frame {
    Frame::new(
        Packet {
            flow: 0,
            seq,
            sent_ns: 0,
            retransmission: false,
            ce: false,
            ect1: false,
        },
        ip_bytes,
    )
}

/// A drop-tail port of `buffer` packets following `trace` (ms).
fn port(trace: &[u64], buffer: usize, mtu: u32) -> Bottleneck {
    let ms: Vec<f64> = trace.iter().map(|&x| x as f64).collect();
    Bottleneck::new(
        &Aqm::DropTail {},
        12_000_000,
        buffer,
        mtu + ETHERNET_OVERHEAD_BYTES,
        mtu + ETHERNET_HEADER_BYTES,
        1,
    )
    .with_trace(TraceSchedule::new(&ms).unwrap())
}

/// Drive the port by hand as the simulation does: frames arrive at their
/// times, each pending opportunity is served when due. Returns every
/// delivery as (time ns, seq), until `end_ns`.
fn drive(b: &mut Bottleneck, mut arrivals: Vec<(u64, Frame)>, end_ns: u64) -> Vec<(u64, u32)> {
    let mut rng = Rng::new(1);
    arrivals.sort_by_key(|a| a.0);
    let mut arrivals = arrivals.into_iter().peekable();
    let mut pending: Option<u64> = None;
    let mut out = Vec::new();
    loop {
        let next_arrival = arrivals.peek().map(|a| a.0);
        // Arrivals at the pending instant come first here, to exercise the
        // held frames (the event queue may order them either way).
        let take_arrival = match (next_arrival, pending) {
            (Some(a), Some(p)) => a <= p,
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (None, None) => break,
        };
        if take_arrival {
            let (t, f) = arrivals.next().unwrap();
            if t > end_ns {
                break;
            }
            if let Some(at) = b.arrive(f, t, &mut rng) {
                assert!(pending.is_none(), "one pending event per link");
                pending = Some(at);
            }
        } else {
            let t = pending.take().unwrap();
            if t > end_ns {
                break;
            }
            pending = b.serve_opportunity(t, &mut rng);
            for p in b.take_delivered() {
                out.push((t, p.seq));
            }
        }
    }
    out
}

fn backlog(n: u32, ip_bytes: u32) -> Vec<(u64, Frame)> {
    (0..n).map(|i| (0, frame(i, ip_bytes))).collect()
}

/// One opportunity a millisecond carries one 1500-byte IP packet a
/// millisecond: 1504 bytes/ms, Mahimahi's 12.032 Mb/s.
#[test]
fn a_constant_trace_delivers_one_full_packet_per_opportunity() {
    let mut b = port(&[1], 100, 1500);
    let out = drive(&mut b, backlog(10, 1500), 100 * MS);
    let times: Vec<u64> = out.iter().map(|d| d.0 / MS).collect();
    assert_eq!(times, (1..=10).collect::<Vec<_>>());
    assert_eq!(link_trace::opportunity_bps(1.0), 12_032_000.0);
    assert_eq!(b.sent_pkts(), 10);
}

/// Bytes, not packets: 576-byte IP packets use 580 bytes (the TUN header)
/// of an opportunity's 1504, so after k opportunities ⌊1504·k / 580⌋ have
/// left, the one in progress keeping its served bytes.
#[test]
fn small_packets_share_an_opportunity_and_a_partial_one_carries_over() {
    let mut b = port(&[1], 1000, 576);
    let out = drive(&mut b, backlog(100, 576), 30 * MS);
    for k in 1..=30u64 {
        let through = out.iter().filter(|d| d.0 <= k * MS).count() as u64;
        assert_eq!(through, 1504 * k / 580, "after {k} opportunities");
    }
}

/// Several lines with one timestamp are several opportunities at once;
/// the trace repeats with the last line as its period: lines 2, 2, 5 give
/// opportunities at 2, 2, 5, 7, 7, 10, 12, 12, 15 ms.
#[test]
fn repeated_timestamps_are_several_opportunities_and_the_trace_loops() {
    let mut b = port(&[2, 2, 5], 100, 1500);
    let out = drive(&mut b, backlog(9, 1500), 100 * MS);
    let times: Vec<u64> = out.iter().map(|d| d.0 / MS).collect();
    assert_eq!(times, [2, 2, 5, 7, 7, 10, 12, 12, 15]);
    let seqs: Vec<u32> = out.iter().map(|d| d.1).collect();
    assert_eq!(seqs, (0..9).collect::<Vec<_>>(), "in order");
}

/// An on/off trace (on for 1–5 ms, then only its period line at 10 ms)
/// delivers only at its opportunities, however long the backlog.
#[test]
fn an_on_off_trace_delivers_only_in_its_on_periods() {
    let trace = [1, 2, 3, 4, 5, 10];
    let mut b = port(&trace, 1000, 1500);
    let out = drive(&mut b, backlog(60, 1500), 100 * MS);
    assert_eq!(out.len(), 60, "six opportunities per 10 ms for 100 ms");
    for (t, _) in &out {
        let in_cycle = (t / MS) % 10;
        assert!(
            [1, 2, 3, 4, 5, 0].contains(&in_cycle),
            "delivered at {} ms",
            t / MS
        );
    }
}

/// An opportunity that finds the queue empty is lost: after 5 idle
/// milliseconds three packets still leave one per millisecond, not at
/// once; and a packet arriving during millisecond t leaves at t + 1.
#[test]
fn unused_opportunities_are_lost() {
    let mut b = port(&[1], 100, 1500);
    let mut arrivals = vec![(5 * MS + MS / 2, frame(0, 1500))];
    arrivals.extend((1..4).map(|i| (10 * MS + MS / 5, frame(i, 1500))));
    let out = drive(&mut b, arrivals, 100 * MS);
    let times: Vec<u64> = out.iter().map(|d| d.0 / MS).collect();
    assert_eq!(times, [6, 11, 12, 13]);
}

/// Mahimahi burns the current millisecond's opportunities before it
/// enqueues an arrival: a packet arriving at the very instant of an
/// opportunity waits for the next one, whether the link was idle or busy.
#[test]
fn an_arrival_at_an_opportunitys_instant_waits_for_the_next() {
    // Idle link: arrives at 3 ms, leaves at 4.
    let mut b = port(&[1], 100, 1500);
    let out = drive(&mut b, vec![(3 * MS, frame(0, 1500))], 100 * MS);
    assert_eq!(out, [(4 * MS, 0)]);
    // Busy link: 0 arrives at 2.5 ms (pending 3 ms); 1 arrives at 3 ms
    // exactly, is held, and leaves at 4 ms although two opportunities
    // (3 ms, twice) were there.
    let mut b = port(&[1, 3, 3], 100, 1500);
    let arrivals = vec![(2 * MS + MS / 2, frame(0, 1500)), (3 * MS, frame(1, 1500))];
    let out = drive(&mut b, arrivals, 100 * MS);
    assert_eq!(out, [(3 * MS, 0), (4 * MS, 1)]);
}

/// A drop-tail buffer in front of a trace link still drops when full (the
/// packet being served not counted, as on a constant-rate link).
#[test]
fn a_full_buffer_drops_in_front_of_a_trace() {
    let mut b = port(&[1], 5, 1500);
    let out = drive(&mut b, backlog(10, 1500), 100 * MS);
    assert_eq!(out.len(), 5);
    assert_eq!(b.drops(), 5);
}

// ---- whole runs ----

fn constant_trace_scenario(aqm: Aqm, buffer_pkts: u32) -> Scenario {
    let mut s = Scenario::default_scenario();
    s.profile = "sawtooth-1".into();
    s.duration_ms = 10_000.0;
    s.sample_interval_ms = 100.0;
    s.rtt_ms = 40.0;
    s.bottleneck.buffer_pkts = buffer_pkts;
    s.bottleneck.aqm = aqm;
    s.bottleneck.trace = Some(LinkTrace {
        name: Some("constant".into()),
        opportunities_ms: vec![1.0],
    });
    s
}

/// A Reno flow over the constant trace: never more than one packet per
/// opportunity; the link's capacity column is 12.032 Mb/s in every full
/// interval; once slow start is over the flow gets most of it (a buffer of
/// 1.5 BDP keeps the link busy through the window's halving).
#[test]
fn a_flow_over_a_constant_trace_gets_what_the_trace_allows() {
    let s = constant_trace_scenario(Aqm::DropTail {}, 60);
    let mut sim = Simulation::new(&s).unwrap();
    let summary = sim.run_to_end();
    assert!(sim.packet_accounting().is_conserved());
    assert!(sim.bottleneck_packets() <= 10_000, "one per opportunity");
    let mss_bits = s.mss_bytes() as f64 * 8.0;
    let most = 1000.0 * mss_bits; // payload of one packet a millisecond
    assert!(summary.total_throughput_bps <= most);
    assert!(
        summary.total_throughput_bps > 0.85 * most,
        "{} b/s",
        summary.total_throughput_bps
    );
    // Capacity: the engine's wire-equivalent mean rate, 1538 wire bytes a
    // millisecond at MTU 1500.
    assert_eq!(s.bottleneck_rate_bps(), 1538.0 * 8.0 * 1000.0);
    let cap = sim.recorder().column("link.capacity_bps").unwrap();
    assert_eq!(cap.len(), 100);
    assert!(cap.iter().all(|&c| c == 12_032_000.0), "{cap:?}");
}

/// The queue disciplines work in front of a trace: CoDel keeps the
/// standing queue near its 5 ms target where drop-tail's 200-packet buffer
/// holds 200 ms of packets; PIE, FQ-CoDel, RED and step marking run and
/// stay within the trace.
#[test]
fn queue_disciplines_work_on_a_trace_driven_queue() {
    let probe = |mut s: Scenario| {
        s.probe = Some(LatencyProbe {
            interval_ms: Some(50.0),
            size_bytes: None,
        });
        s.duration_ms = 20_000.0;
        s
    };
    let run = |s: &Scenario| {
        let mut sim = Simulation::new(s).unwrap();
        let summary = sim.run_to_end();
        assert!(sim.packet_accounting().is_conserved());
        assert!(sim.bottleneck_packets() <= 20_000);
        summary
    };
    let tail = run(&probe(constant_trace_scenario(Aqm::DropTail {}, 200)));
    let codel = run(&probe(constant_trace_scenario(
        Aqm::Codel {
            target_ms: None,
            interval_ms: None,
            ecn: None,
        },
        200,
    )));
    let tail_median = tail.probe.as_ref().unwrap().rtt_median_ms.unwrap();
    let codel_median = codel.probe.as_ref().unwrap().rtt_median_ms.unwrap();
    assert!(
        tail_median > 40.0 + 100.0,
        "drop-tail median RTT {tail_median} ms"
    );
    assert!(
        codel_median < 40.0 + 5.0 * 4.0,
        "CoDel median RTT {codel_median} ms"
    );
    assert!(codel.bottleneck_drops > 0);
    for aqm in [
        Aqm::pie_defaults(),
        Aqm::FqCodel {
            target_ms: None,
            interval_ms: None,
            quantum_bytes: None,
            flows: None,
            ecn: None,
        },
        Aqm::Red {
            min_th_pkts: 20.0,
            max_th_pkts: 60.0,
            max_p: 0.1,
            weight: 0.002,
            ecn: false,
        },
        Aqm::StepMark {
            threshold_pkts: None,
        },
    ] {
        let kind = aqm.kind();
        let mut s = probe(constant_trace_scenario(aqm, 200));
        s.hosts[0].flows = vec![Flow::new("reno", 16 << 20); 2];
        let summary = run(&s);
        let median = summary.probe.as_ref().unwrap().rtt_median_ms.unwrap();
        assert!(median < tail_median, "{kind}: median RTT {median} ms");
        assert!(
            summary.total_throughput_bps > 0.5 * 1000.0 * 1448.0 * 8.0,
            "{kind}"
        );
    }
}

/// An on/off trace through a whole run: the flow's throughput follows the
/// trace's mean (half the time on), and nothing crosses the link in
/// sample intervals where the trace offers nothing.
#[test]
fn a_run_over_an_on_off_trace_follows_the_trace() {
    let mut s = constant_trace_scenario(Aqm::DropTail {}, 100);
    // On for 500 ms (one opportunity a ms), off for 500 ms but the period
    // line.
    let mut ms: Vec<f64> = (1..=500).map(f64::from).collect();
    ms.push(1000.0);
    s.bottleneck.trace = Some(LinkTrace {
        name: None,
        opportunities_ms: ms,
    });
    let mut sim = Simulation::new(&s).unwrap();
    let summary = sim.run_to_end();
    let opportunities = 10 * 501;
    assert!(sim.bottleneck_packets() <= opportunities);
    assert!(summary.total_throughput_bps < 501.0 * 1448.0 * 8.0);
    let cap = sim.recorder().column("link.capacity_bps").unwrap();
    let thr = sim.recorder().column("f0.throughput_bps").unwrap();
    // Row i covers (100·i, 100·(i + 1)] ms: rows 5–8 of each second hold
    // no opportunity, and from row 6 on (20 ms of propagation later) the
    // receiver gets nothing.
    for (i, (&c, &t)) in cap.iter().zip(thr).enumerate() {
        if (5..=8).contains(&(i % 10)) {
            assert_eq!(c, 0.0, "row {i}");
        }
        if (6..=8).contains(&(i % 10)) {
            assert_eq!(t, 0.0, "row {i}: nothing crosses an idle trace");
        }
    }
}

/// Runs without a trace record exactly the columns they did before.
#[test]
fn runs_without_a_trace_have_no_capacity_column() {
    let s = Scenario::default_scenario();
    let sim = Simulation::new(&s).unwrap();
    assert!(sim.recorder().column("link.capacity_bps").is_none());
    assert_eq!(
        sawtooth_core::resources::columns(&s) + 1,
        sawtooth_core::resources::columns(&constant_trace_scenario(Aqm::DropTail {}, 10))
    );
}

// ---- validation ----

fn errors_of(s: &Scenario) -> Vec<(String, String)> {
    s.validate()
        .into_iter()
        .map(|e| (e.field, e.message))
        .collect()
}

fn with_trace(ms: Vec<f64>) -> Scenario {
    let mut s = Scenario::default_scenario();
    s.bottleneck.trace = Some(LinkTrace {
        name: None,
        opportunities_ms: ms,
    });
    s
}

#[test]
fn empty_unordered_and_absurd_traces_are_clear_errors() {
    let f = "bottleneck.trace.opportunities_ms";
    let e = errors_of(&with_trace(vec![]));
    assert_eq!(e[0].0, f);
    assert!(e[0].1.contains("at least one line"), "{}", e[0].1);

    let e = errors_of(&with_trace(vec![1.0, 2.0, 4.0, 3.0]));
    assert_eq!(e[0].0, format!("{f}[3]"));
    assert!(e[0].1.contains("non-decreasing"));

    let e = errors_of(&with_trace(vec![1.0, 2.5]));
    assert_eq!(e[0].0, format!("{f}[1]"));
    assert!(e[0]
        .1
        .contains("whole number of milliseconds between 0 and 3600000"));

    let e = errors_of(&with_trace(vec![-3.0, 1.0]));
    assert_eq!(e[0].0, format!("{f}[0]"));

    let e = errors_of(&with_trace(vec![0.0]));
    assert!(e[0].1.contains("nonzero"), "{}", e[0].1);

    // 12 kb/s: below the slowest link.
    let e = errors_of(&with_trace(vec![1000.0]));
    assert_eq!(e[0].0, f);
    assert!(e[0].1.contains("mean rate"), "{}", e[0].1);

    let e = errors_of(&with_trace(vec![1.0; limits::TRACE_LINES_MAX + 1]));
    assert!(e[0].1.contains("too long"));

    let mut s = with_trace(vec![1.0]);
    s.mtu_bytes = 9000;
    let e = errors_of(&s);
    assert_eq!(e[0].0, "mtu_bytes");
    assert!(e[0].1.contains("between 576 and 1500"), "{}", e[0].1);

    assert!(errors_of(&with_trace(vec![1.0, 1.0, 3.0])).is_empty());
}

/// A scenario with a trace round-trips through JSON with its lines written
/// as whole numbers, as in the file.
#[test]
fn a_trace_round_trips_through_json() {
    let s = with_trace(vec![1.0, 1.0, 3.0]);
    let json = s.to_json();
    assert!(
        json.contains(r#""trace":{"opportunities_ms":[1,1,3]}"#),
        "{json}"
    );
    assert_eq!(Scenario::from_json(&json).unwrap(), s);
    // And a scenario without one writes no trace at all.
    assert!(!Scenario::default_scenario().to_json().contains("trace"));
}

/// The resource model sees a trace link at its mean rate: the data packets
/// it expects match one packet per opportunity.
#[test]
fn the_resource_model_reads_a_trace_at_its_mean_rate() {
    let s = constant_trace_scenario(Aqm::DropTail {}, 60);
    let e = sawtooth_core::resources::estimate(&s);
    let opportunities = 10_000.0;
    let ratio = e.data_packets as f64 / opportunities;
    assert!(
        ratio > 0.8 && ratio < 1.2,
        "{} data packets",
        e.data_packets
    );
    let _ = OPPORTUNITY_BYTES;
}

/// The traces shipped in public/traces (scripts/traces/generate.mjs) read
/// as Mahimahi files, validate, and carry a flow no faster than their
/// opportunities allow: packets delivered ≤ opportunities in the run.
#[test]
fn the_shipped_traces_validate_and_bound_a_run() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../public/traces");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("trace") {
            continue;
        }
        seen += 1;
        let text = std::fs::read_to_string(&path).unwrap();
        let ms = link_trace::parse_mahimahi(&text).unwrap();
        let mut s = constant_trace_scenario(Aqm::DropTail {}, 100);
        s.duration_ms = 5_000.0;
        s.bottleneck.trace = Some(LinkTrace {
            name: path.file_name().map(|n| n.to_string_lossy().into_owned()),
            opportunities_ms: ms.clone(),
        });
        assert!(s.validate().is_empty(), "{path:?}: {:?}", s.validate());
        let mut sim = Simulation::new(&s).unwrap();
        sim.run_to_end();
        assert!(sim.packet_accounting().is_conserved());
        let opportunities = TraceSchedule::new(&ms)
            .unwrap()
            .count_through_ns(5_000 * MS);
        assert!(
            sim.bottleneck_packets() <= opportunities,
            "{path:?}: {} packets through {opportunities} opportunities",
            sim.bottleneck_packets()
        );
        assert!(sim.bottleneck_packets() > opportunities / 4, "{path:?}");
    }
    assert_eq!(seen, 5, "the five built-in traces");
}

/// The summary's capacity for a trace-driven link is what its
/// opportunities within the run carry (wire terms): a 10 ms run of an
/// on/off trace (on 1–100 ms, period 1000) has 10 opportunities, not the
/// period's mean of 0.101 a millisecond, so utilisation stays below 1.
#[test]
fn capacity_counts_the_opportunities_within_the_run() {
    let mut s = constant_trace_scenario(Aqm::DropTail {}, 100);
    let mut ms: Vec<f64> = (1..=100).map(f64::from).collect();
    ms.push(1000.0);
    s.bottleneck.trace = Some(LinkTrace {
        name: None,
        opportunities_ms: ms,
    });
    s.duration_ms = 10.0;
    assert_eq!(s.capacity_bps(), 1538.0 * 8.0 * 1000.0);
    s.duration_ms = 2000.0;
    assert_eq!(s.capacity_bps(), 202.0 * 1538.0 * 8.0 / 2.0);
    assert_eq!(s.bottleneck_rate_bps(), 101.0 * 1538.0 * 8.0);
    // A run that ends before the first opportunity: no capacity, and a
    // utilisation of 0, not 0/0.
    s.bottleneck.trace.as_mut().unwrap().opportunities_ms = vec![5.0, 10.0];
    s.duration_ms = 3.0;
    assert_eq!(s.capacity_bps(), 0.0);
    let summary = Simulation::new(&s).unwrap().run_to_end();
    assert_eq!(summary.utilisation, 0.0);
}
