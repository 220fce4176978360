//! Every algorithm of the catalogue runs through the whole engine — the
//! default scenario, the two-to-one scenario against Standard TCP, and a
//! hostile one (random loss, tiny RED/ECN buffer, MTU 1500, timeouts) —
//! without panicking, and with sane results.

use sawtooth_core::cc::catalogue;
use sawtooth_core::scenario::{Aqm, Flow, Host};
use sawtooth_core::{Scenario, Simulation, Summary};

fn run(s: &Scenario) -> (Summary, Vec<f64>) {
    let mut sim = Simulation::new(s).unwrap_or_else(|e| panic!("invalid scenario: {e:?}"));
    let summary = sim.run_to_end();
    let cwnd = sim.recorder().column("f0.cwnd_pkts").unwrap().to_vec();
    (summary, cwnd)
}

fn sane(id: &str, what: &str, summary: &Summary, cwnd: &[f64]) {
    for f in &summary.flows {
        assert!(
            f.mean_throughput_bps.is_finite() && f.mean_throughput_bps > 0.0,
            "{id} {what}: flow {} got nothing",
            f.flow
        );
        assert!(
            f.mean_cwnd_pkts.is_finite() && f.mean_cwnd_pkts >= 1.0,
            "{id} {what}: mean cwnd {}",
            f.mean_cwnd_pkts
        );
    }
    assert!(
        summary.utilisation <= 1.0 + 1e-9,
        "{id} {what}: utilisation {}",
        summary.utilisation
    );
    assert!(
        cwnd.iter()
            .all(|c| c.is_nan() || (*c >= 1.0 && c.is_finite())),
        "{id} {what}: cwnd out of range"
    );
}

#[test]
fn default_scenario() {
    for info in catalogue() {
        let mut s = Scenario::jumbo_gigabit();
        s.duration_ms = 10_000.0;
        s.hosts[0].flows[0].algorithm = info.id.into();
        let (summary, cwnd) = run(&s);
        sane(info.id, "default", &summary, &cwnd);
        // One flow alone on 1 Gb/s, 30 ms, 16 MB window: every algorithm
        // fills a good part of the link within 10 s (Standard TCP from
        // initial cwnd 2 included).
        assert!(
            summary.utilisation > 0.3,
            "{}: utilisation {}",
            info.id,
            summary.utilisation
        );
        eprintln!(
            "{:10} default: {:6.1} Mb/s, mean cwnd {:7.1}",
            info.id,
            summary.total_throughput_bps / 1e6,
            summary.flows[0].mean_cwnd_pkts
        );
    }
}

#[test]
fn two_to_one_against_standard() {
    for info in catalogue() {
        let mut s = Scenario::jumbo_gigabit();
        s.duration_ms = 10_000.0;
        s.bottleneck.buffer_pkts = 200;
        s.hosts = vec![
            Host {
                nic_bps: 1e9,
                txqueuelen_pkts: 100,
                flows: vec![Flow::new(info.id, 16 << 20)],
            },
            Host {
                nic_bps: 1e9,
                txqueuelen_pkts: 100,
                flows: vec![Flow::new("reno", 16 << 20)],
            },
        ];
        let (summary, cwnd) = run(&s);
        sane(info.id, "two-to-one", &summary, &cwnd);
        assert!(
            summary.utilisation > 0.5,
            "{}: utilisation {}",
            info.id,
            summary.utilisation
        );
        eprintln!(
            "{:10} vs reno: {:6.1} / {:6.1} Mb/s, J = {:.3}",
            info.id,
            summary.flows[0].mean_throughput_bps / 1e6,
            summary.flows[1].mean_throughput_bps / 1e6,
            summary.jain_index
        );
    }
}

/// Random loss, a tiny RED/ECN buffer, MTU 1500, a flow that starts late
/// with extra delay and stops early, a CUBIC competitor on another host.
fn hostile(id: &str, sack: bool) -> Scenario {
    let mut s = Scenario::jumbo_gigabit();
    s.duration_ms = 5_000.0;
    s.mtu_bytes = 1500;
    s.loss_rate = 0.02;
    s.rtt_ms = 80.0;
    s.tcp.initial_cwnd_pkts = 10;
    s.tcp.initial_ssthresh_pkts = Some(100);
    s.tcp.sack = sack;
    s.bottleneck.rate_bps = 50e6;
    s.bottleneck.buffer_pkts = 30;
    s.bottleneck.aqm = Aqm::Red {
        min_th_pkts: 5.0,
        max_th_pkts: 15.0,
        max_p: 0.1,
        weight: 0.002,
        ecn: true,
    };
    s.hosts = vec![
        Host {
            nic_bps: 1e9,
            txqueuelen_pkts: 10,
            flows: vec![Flow::new(id, 4 << 20), Flow::new(id, 1 << 20)],
        },
        Host {
            nic_bps: 1e9,
            txqueuelen_pkts: 100,
            flows: vec![Flow::new("cubic", 4 << 20)],
        },
    ];
    s.hosts[0].flows[1].start_ms = 1000.0;
    s.hosts[0].flows[1].stop_ms = Some(3000.0);
    s.hosts[0].flows[1].extra_delay_ms = 50.0;
    // The late flow lives 2 s: with Linux 2.4's 3-s initial RTO a first
    // flight lost whole (RED drops every arrival above max_th) would leave
    // it nothing to show, so the first timeout comes after 1 s (RFC 6298).
    s.mechanisms.initial_rto_ms = Some(1000.0);
    s
}

#[test]
fn hostile_path_with_sack() {
    for info in catalogue() {
        let (summary, cwnd) = run(&hostile(info.id, true));
        sane(info.id, "hostile", &summary, &cwnd);
    }
}

/// The same with NewReno (no SACK): duplicate ACKs never account for more
/// segments than are outstanding (Linux `tcp_limit_reno_sacked`).
#[test]
fn hostile_path_with_newreno() {
    for info in catalogue() {
        let (summary, cwnd) = run(&hostile(info.id, false));
        sane(info.id, "hostile NewReno", &summary, &cwnd);
    }
}
