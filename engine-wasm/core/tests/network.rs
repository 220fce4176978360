//! Behaviour of the network model and the Linux-like sender that a student
//! (or the science) relies on. Closed-form oracles are stated per test.

use sawtooth_core::record::{col, EventKind};
use sawtooth_core::scenario::{Aqm, Flow, Host};
use sawtooth_core::{Scenario, Simulation};

/// The closed-form oracles below assume the RFC rules and no host
/// mechanisms (no NIC ring, no receive-buffer accounting): the
/// `sawtooth-1` profile. Profile mechanisms have their own unit tests.
fn plain() -> Scenario {
    let mut s = Scenario::jumbo_gigabit();
    s.profile = "sawtooth-1".into();
    s
}

fn back_to_back(rtt_ms: f64, window_bytes: u32, txqueuelen: u32) -> Scenario {
    let mut s = plain();
    s.rtt_ms = rtt_ms;
    s.hosts[0].txqueuelen_pkts = txqueuelen;
    s.hosts[0].flows[0].window_bytes = window_bytes;
    s
}

fn two_to_one(a: &str, b: &str) -> Scenario {
    let mut s = plain();
    s.hosts = vec![
        Host {
            nic_bps: 1e9,
            txqueuelen_pkts: 100,
            flows: vec![Flow::new(a, 16 << 20)],
        },
        Host {
            nic_bps: 1e9,
            txqueuelen_pkts: 100,
            flows: vec![Flow::new(b, 16 << 20)],
        },
    ];
    s.bottleneck.buffer_pkts = 200;
    s
}

fn count(sim: &Simulation, kind: EventKind) -> usize {
    sim.recorder()
        .events()
        .iter()
        .filter(|e| e.kind == kind)
        .count()
}

#[test]
fn same_seed_gives_the_same_trace_bit_for_bit() {
    let mut s = two_to_one("reno", "reno");
    s.loss_rate = 1e-4;
    s.duration_ms = 3000.0;
    let run = |s: &Scenario| {
        let mut sim = Simulation::new(s).unwrap();
        sim.run_to_end();
        (
            sim.recorder().columns().to_vec(),
            sim.recorder().events().to_vec(),
        )
    };
    let (a, ea) = run(&s);
    let (b, eb) = run(&s);
    assert!(a
        .iter()
        .flatten()
        .zip(b.iter().flatten())
        .all(|(x, y)| x.to_bits() == y.to_bits()));
    assert_eq!(ea, eb);
    s.seed = 2;
    let (c, _) = run(&s);
    assert_ne!(a, c, "a different seed must change a lossy run");
}

#[test]
fn slicing_a_run_gives_the_same_result_as_one_pass() {
    let s = two_to_one("reno", "reno");
    let mut whole = Simulation::new(&s).unwrap();
    let summary = whole.run_to_end();
    let mut sliced = Simulation::new(&s).unwrap();
    let mut t = 0;
    while !sliced.advance(t) {
        t += 7_777_777;
    }
    assert!(sliced.summary() == summary, "summaries differ");
    let same = sliced
        .recorder()
        .columns()
        .iter()
        .flatten()
        .zip(whole.recorder().columns().iter().flatten())
        .all(|(a, b)| a.to_bits() == b.to_bits());
    assert!(same, "sliced columns differ from one pass");
}

#[test]
fn packets_are_conserved_at_every_100_ms() {
    let mut s = two_to_one("reno", "reno");
    s.loss_rate = 1e-3;
    s.hosts[0].flows.push(Flow::new("reno", 4 << 20));
    s.duration_ms = 5000.0;
    let mut sim = Simulation::new(&s).unwrap();
    for k in 1..=50 {
        sim.advance(k * 100_000_000);
        let a = sim.packet_accounting();
        assert!(a.is_conserved(), "at {k}00 ms: {a:?}");
    }
    assert!(sim.packet_accounting().dropped > 0);
}

#[test]
fn utilisation_never_exceeds_one() {
    for s in [
        back_to_back(0.0, 16 << 20, 100),
        back_to_back(30.0, 16 << 20, 1000),
        two_to_one("reno", "reno"),
    ] {
        let sum = Simulation::new(&s).unwrap().run_to_end();
        assert!(
            sum.utilisation <= 1.0 && sum.utilisation > 0.5,
            "{}",
            sum.utilisation
        );
    }
}

/// With jumbo frames every data packet is 9038 bytes on the wire, so the
/// most iperf can see on gigabit is 1e9 × 8948 / 9038 = 990 Mb/s (Long (Sandia, 2003), Fig. 8);
/// with MTU 1500 it is 1e9 × 1448 / 1538 = 941 Mb/s.
#[test]
fn back_to_back_without_delay_reaches_line_rate_less_headers() {
    for (mtu, expect) in [(9000, 990.0e6), (1500, 941.5e6)] {
        let mut s = back_to_back(0.0, 4 << 20, 100);
        s.mtu_bytes = mtu;
        s.duration_ms = 5000.0;
        let sum = Simulation::new(&s).unwrap().run_to_end();
        let got = sum.flows[0].mean_throughput_bps;
        assert!((got - expect).abs() / expect < 0.02, "MTU {mtu}: {got}");
    }
}

/// Slow start (RFC 5681 §3.1) without delayed ACKs doubles cwnd every RTT:
/// sampled at the middle of each RTT the window goes 2, 4, 8, … 256.
#[test]
fn slow_start_doubles_every_rtt() {
    let mut s = back_to_back(100.0, 64 << 20, 10_000);
    s.tcp.delayed_ack = false;
    s.duration_ms = 1000.0;
    s.sample_interval_ms = 1.0;
    let mut sim = Simulation::new(&s).unwrap();
    sim.run_to_end();
    let cwnd = sim.recorder().flow_column(0, col::CWND_PKTS);
    let at_mid_rtt: Vec<f64> = (0..8).map(|k| cwnd[k * 100 + 49]).collect();
    assert_eq!(at_mid_rtt, [2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0]);
}

/// One Reno flow into a drop-tail buffer of B packets (no local congestion:
/// a huge txqueuelen and a NIC 10× faster). The window peaks at the pipe
/// size BDP + B, then halves (RFC 5681); between losses it grows one packet
/// per RTT, so the period is about (W/2) RTTs with the RTT growing as the
/// queue fills.
#[test]
fn reno_sawtooth_peaks_at_bdp_plus_buffer() {
    let mut s = back_to_back(20.0, 512 << 20, 100_000);
    s.mtu_bytes = 1500;
    s.hosts[0].nic_bps = 10e9;
    s.bottleneck.rate_bps = 100e6;
    s.bottleneck.buffer_pkts = 100;
    s.duration_ms = 60_000.0;
    let mut sim = Simulation::new(&s).unwrap();
    let sum = sim.run_to_end();
    let bdp = 100e6 * 0.020 / 8.0 / 1538.0; // 162.5 packets
    let pipe = bdp + 100.0;
    let cwnd = sim.recorder().flow_column(0, col::CWND_PKTS);
    let t = sim.recorder().column("t_s").unwrap();
    let after_ss: Vec<f64> = cwnd
        .iter()
        .zip(t)
        .filter(|(_, &t)| t > 10.0)
        .map(|(c, _)| *c)
        .collect();
    let peak = after_ss.iter().cloned().fold(0.0, f64::max);
    assert!(
        (peak - pipe).abs() / pipe < 0.08,
        "peak {peak} vs BDP+B {pipe}"
    );
    let trough = after_ss.iter().cloned().fold(f64::MAX, f64::min);
    assert!(
        (trough - pipe / 2.0).abs() / (pipe / 2.0) < 0.15,
        "trough {trough} vs {}",
        pipe / 2.0
    );
    assert!(sum.flows[0].fast_retransmits >= 3);
    assert_eq!(sum.flows[0].timeouts, 0);
    assert!(
        sum.utilisation > 0.9,
        "a buffer of 0.6 BDP keeps the link busy: {}",
        sum.utilisation
    );
}

/// Local congestion: with the window capped below BDP +
/// txqueuelen the interface queue can never overflow; above it, it must.
#[test]
fn local_congestion_needs_a_window_above_bdp_plus_txqueuelen() {
    let mss = 8948.0;
    let bdp = 1e9 * 0.030 / 8.0 / 9038.0; // packets in flight at line rate
    for (extra, expect) in [(-12.0, false), (-5.0, false), (6.0, true), (30.0, true)] {
        let window_pkts = bdp + 100.0 + extra;
        let mut s = back_to_back(30.0, (window_pkts * mss) as u32, 100);
        s.tcp.initial_ssthresh_pkts = Some(2);
        s.duration_ms = 20_000.0;
        let mut sim = Simulation::new(&s).unwrap();
        let sum = sim.run_to_end();
        let seen = sum.flows[0].local_congestion_events > 0;
        assert_eq!(
            seen, expect,
            "window = BDP + txqueuelen {extra:+}: {} events",
            sum.flows[0].local_congestion_events
        );
        assert_eq!(
            count(&sim, EventKind::LocalCongestion) as u64,
            sum.flows[0].local_congestion_events
        );
        assert_eq!(
            sum.flows[0].retransmits, 0,
            "local congestion never retransmits"
        );
        assert_eq!(sum.flows[0].drops, 0);
    }
}

/// RED with ECN (RFC 3168): with a buffer far above max_th, congestion is
/// signalled by marks, not drops, and the sender still backs off.
#[test]
fn ecn_marks_replace_drops() {
    let mut s = two_to_one("reno", "reno");
    s.bottleneck.buffer_pkts = 2000;
    s.bottleneck.aqm = Aqm::Red {
        min_th_pkts: 150.0,
        max_th_pkts: 600.0,
        max_p: 0.1,
        weight: 0.002,
        ecn: true,
    };
    s.hosts.iter_mut().for_each(|h| h.txqueuelen_pkts = 10_000);
    s.tcp.initial_ssthresh_pkts = Some(100);
    let mut sim = Simulation::new(&s).unwrap();
    let sum = sim.run_to_end();
    assert!(sum.ecn_marks > 0);
    assert_eq!(sum.bottleneck_drops, 0);
    assert_eq!(sum.flows.iter().map(|f| f.retransmits).sum::<u64>(), 0);
    assert!(sum.utilisation > 0.8);
}

/// RTO (RFC 6298 §2.4 with Linux's 200 ms floor, §5.5 back-off): on a very
/// lossy link timeouts happen, are at least 200 ms apart for a flow, and
/// the flow still moves data afterwards.
#[test]
fn timeouts_respect_the_200_ms_floor_and_the_flow_recovers() {
    let mut s = back_to_back(10.0, 1 << 20, 1000);
    s.loss_rate = 0.2;
    s.mtu_bytes = 1500;
    s.duration_ms = 20_000.0;
    let mut sim = Simulation::new(&s).unwrap();
    let sum = sim.run_to_end();
    let times: Vec<f64> = sim
        .recorder()
        .events()
        .iter()
        .filter(|e| e.kind == EventKind::Timeout)
        .map(|e| e.time_s)
        .collect();
    assert!(times.len() >= 2, "a 20% loss rate must cause timeouts");
    assert!(
        times.windows(2).all(|w| w[1] - w[0] >= 0.2 - 1e-9),
        "{times:?}"
    );
    let thr = sim.recorder().flow_column(0, col::THROUGHPUT_BPS);
    assert!(
        thr[thr.len() - 200..].iter().any(|&x| x > 0.0),
        "data still flows at the end"
    );
    assert!(sum.flows[0].mean_throughput_bps > 0.0);
    // Not stuck in any state: the last state change is recent. (It may
    // end in Disorder: with cwnd held at a few packets by the losses and
    // grown only by ACKs that advance snd_una, a SACK above a hole can
    // wait there for the next timeout, at least 200 ms.)
    let last_change = sim
        .recorder()
        .events()
        .iter()
        .filter(|e| format!("{:?}", e.kind).starts_with("Entered"))
        .map(|e| e.time_s)
        .fold(0.0, f64::max);
    assert!(
        last_change > s.duration_ms / 1000.0 - 1.0,
        "no state change after {last_change} s (now {:?})",
        sim.flow_state(0)
    );
}

/// Without SACK, NewReno partial ACKs (RFC 6582) still repair several
/// losses in one window and the transfer completes its run.
#[test]
fn newreno_without_sack_recovers_from_losses() {
    let mut s = back_to_back(30.0, 8 << 20, 1000);
    s.tcp.sack = false;
    s.loss_rate = 1e-4;
    s.duration_ms = 10_000.0;
    let sum = Simulation::new(&s).unwrap().run_to_end();
    assert!(sum.flows[0].fast_retransmits > 0);
    assert!(
        sum.flows[0].mean_throughput_bps > 50e6,
        "{}",
        sum.flows[0].mean_throughput_bps
    );
}

/// Parallel streams share one NIC and interface queue; the bottleneck
/// summary splits the link between them.
#[test]
fn parallel_streams_share_the_host_queue() {
    let mut s = back_to_back(30.0, 16 << 20, 100);
    s.hosts[0].flows = (0..4).map(|_| Flow::new("reno", 16 << 20)).collect();
    let sum = Simulation::new(&s).unwrap().run_to_end();
    assert_eq!(sum.flows.len(), 4);
    let shares: f64 = sum.flows.iter().map(|f| f.share).sum();
    assert!((shares - 1.0).abs() < 1e-9);
    assert!(sum.flows.iter().all(|f| f.mean_throughput_bps > 50e6));
    assert!(sum.hosts[0].mean_throughput_bps > 800e6);
}

#[test]
fn flows_start_and_stop_on_time() {
    let mut s = two_to_one("reno", "reno");
    s.hosts[1].flows[0].start_ms = 5000.0;
    s.hosts[0].flows[0].stop_ms = Some(10_000.0);
    let mut sim = Simulation::new(&s).unwrap();
    sim.run_to_end();
    let t = sim.recorder().column("t_s").unwrap();
    let thr1 = sim.recorder().flow_column(1, col::THROUGHPUT_BPS);
    let thr0 = sim.recorder().flow_column(0, col::THROUGHPUT_BPS);
    for i in 0..t.len() {
        if t[i] <= 5.0 {
            assert_eq!(thr1[i], 0.0);
        }
        if t[i] > 10.5 {
            assert_eq!(thr0[i], 0.0, "flow 0 stopped at 10 s, at {}", t[i]);
        }
    }
}

/// tcptrace's averages (Sandia's 10 Gb/s study): with the window capped well below the
/// BDP the outstanding data sits at the window, so both averages approach
/// it; the time-weighted one is never above the maximum seen.
#[test]
fn outstanding_averages_follow_the_window() {
    let mut s = back_to_back(30.0, 1 << 20, 1000);
    s.duration_ms = 10_000.0;
    let mut sim = Simulation::new(&s).unwrap();
    sim.run_to_end();
    let rec = sim.recorder();
    let out = rec.flow_column(0, col::OUTSTANDING_BYTES);
    let avg = rec.flow_column(0, col::OUTSTANDING_AVG_BYTES);
    let wavg = rec.flow_column(0, col::OUTSTANDING_WAVG_BYTES);
    let max = out.iter().cloned().fold(0.0, f64::max);
    let window = (1u32 << 20) as f64;
    assert!(max <= window && max > 0.9 * window, "max outstanding {max}");
    let last = out.len() - 1;
    assert!(
        wavg[last] <= max && wavg[last] > 0.85 * window,
        "wavg {}",
        wavg[last]
    );
    assert!(
        avg[last] <= max && avg[last] > 0.85 * window,
        "avg {}",
        avg[last]
    );
    let cwnd_bytes = rec.flow_column(0, col::CWND_BYTES);
    let cwnd = rec.flow_column(0, col::CWND_PKTS);
    assert_eq!(cwnd_bytes[last], cwnd[last] * 8948.0);
}

/// The event log records state changes: every fast retransmit is
/// followed by entering Recovery, and every recovery ends back in Open.
#[test]
fn state_changes_are_logged() {
    let mut s = back_to_back(30.0, 8 << 20, 1000);
    s.loss_rate = 1e-4;
    s.duration_ms = 10_000.0;
    let mut sim = Simulation::new(&s).unwrap();
    let sum = sim.run_to_end();
    let n = |k| count(&sim, k) as u64;
    assert!(sum.flows[0].fast_retransmits > 0);
    assert_eq!(n(EventKind::EnteredRecovery), sum.flows[0].fast_retransmits);
    assert!(n(EventKind::EnteredOpen) >= n(EventKind::EnteredRecovery) - 1);
}

/// IEEE 802.3 lets each port's clock run up to ±100 ppm off nominal
/// (docs/profiles.md, "Clock tolerance"). A flow that fills its NIC with no
/// delay is paced by the slower of its NIC and the bottleneck port, so its
/// throughput moves from seed to seed, never by more than the tolerance
/// (plus the 1-s edge effects of the measurement), and with exact clocks
/// every seed gives the same number.
#[test]
fn port_clocks_within_100_ppm_make_seeds_differ_by_at_most_the_tolerance() {
    let run = |seed: u32, ppm: f64| {
        let mut s = back_to_back(0.0, 4 << 20, 1000);
        s.profile = "linux-2.4".into();
        s.mechanisms.clock_tolerance_ppm = Some(ppm);
        // Only the port clocks: the receiver's interrupt throttle would
        // draw its own phase per seed.
        s.mechanisms.receiver_interrupt_us = Some(0.0);
        s.mechanisms.receiver_interrupt_throttle_us = Some(0.0);
        s.seed = seed;
        s.duration_ms = 3000.0;
        Simulation::new(&s)
            .unwrap()
            .run_to_end()
            .total_throughput_bps
    };
    let exact: Vec<f64> = (1..=6).map(|seed| run(seed, 0.0)).collect();
    assert!(
        exact.iter().all(|&t| t == exact[0]),
        "exact clocks: {exact:?}"
    );
    let drawn: Vec<f64> = (1..=6).map(|seed| run(seed, 100.0)).collect();
    for &t in &drawn {
        let off = t / exact[0] - 1.0;
        assert!(off.abs() <= 100e-6 + 1e-5, "{off:e} beyond the tolerance");
    }
    let mut distinct = drawn.clone();
    distinct.sort_by(f64::total_cmp);
    distinct.dedup();
    assert!(
        distinct.len() >= 4,
        "seeds should pace differently: {drawn:?}"
    );
}

/// Receiver interrupt moderation (the e1000's RADV on the receiving host):
/// every segment waits for the receiver's interrupt, which fires `d` after
/// the first segment of a batch. A window-limited flow whose whole window
/// arrives as one batch then sees its round trip grow by about `d`, so its
/// throughput falls to W / (cycle + d) from W / cycle, where the cycle is
/// the RTT plus the window's serialisation at line rate. Off, the run is
/// the plain one.
#[test]
fn receiver_interrupt_delay_lengthens_a_window_limited_round_trip() {
    let run = |delay_us: f64| {
        let mut s = back_to_back(10.0, 65_536, 1000);
        s.mtu_bytes = 1500;
        s.bottleneck.rate_bps = 1e9;
        s.hosts[0].nic_bps = 1e9;
        s.bottleneck.buffer_pkts = 1000;
        s.duration_ms = 4000.0;
        s.mechanisms.receiver_interrupt_us = Some(delay_us);
        Simulation::new(&s).unwrap().run_to_end().flows[0].mean_throughput_bps
    };
    let off = run(0.0);
    let on = run(2000.0);
    // 45 segments of 1538 wire bytes take 0.55 ms at 1 Gb/s.
    let cycle_ms = 10.0 + 45.0 * 1538.0 * 8.0 / 1e9 * 1e3;
    let expect = cycle_ms / (cycle_ms + 2.0);
    let ratio = on / off;
    assert!(
        (ratio - expect).abs() < 0.03,
        "throughput ratio {ratio:.3}, closed form {expect:.3} ({on:.0} / {off:.0} b/s)"
    );
}

/// Outstanding data as tcpdump on the sender sees it (the tcptrace plots of
/// seeds 000 and 002; Linux 2.4 taps a frame in `qdisc_restart` as the
/// qdisc hands it to the driver): the sender's unacknowledged data less
/// its new segments still in the interface queue. With a window past the
/// BDP the back-to-back host's queue fills, so the two measures part by
/// what waits there, and never by more.
#[test]
fn captured_outstanding_leaves_out_what_waits_in_the_interface_queue() {
    let s = back_to_back(30.0, 16 << 20, 100);
    let mss = (s.mtu_bytes - 52) as f64;
    let mut sim = Simulation::new(&s).unwrap();
    sim.run_to_end();
    let rec = sim.recorder();
    let out = rec.flow_column(0, col::OUTSTANDING_BYTES);
    let captured = rec.flow_column(0, col::OUTSTANDING_CAPTURED_BYTES);
    let ifq = rec.column("h0.ifq_pkts").unwrap();
    let mut parted = 0;
    for ((o, c), q) in out.iter().zip(captured).zip(ifq) {
        let waiting = o - c;
        assert!(
            waiting >= 0.0 && waiting <= q * mss,
            "{o} − {c} with {q} queued"
        );
        if waiting > 0.0 {
            parted += 1;
        }
    }
    assert!(parted > out.len() / 2, "{parted} of {} samples", out.len());
}

/// TCP Small Queues (Linux ≥ 3.6 `tcp_small_queue_check`): a socket keeps
/// at most its limit, capped by `tcp_limit_output_bytes` for a socket that
/// does not pace itself, plus the one segment that crosses it, below TCP.
/// Back to back on `linux-6` with a 16 MB window the host's 1000-packet
/// interface queue overflows without it; with a 1 MiB cap it never holds
/// more than 1 MiB / truesize + 1 segments, the host never backs off
/// locally, and the NIC stays as busy.
#[test]
fn small_queues_keep_a_socket_from_filling_the_interface_queue() {
    use sawtooth_core::tcp::small_queues::segment_truesize_bytes;
    let cap = 1u32 << 20;
    let mut runs = Vec::new();
    for limit in [0, cap] {
        let mut s = back_to_back(30.0, 16 << 20, 1000);
        s.profile = "linux-6".into();
        s.duration_ms = 5_000.0;
        s.mechanisms.small_queue_limit_bytes = Some(limit);
        let mut sim = Simulation::new(&s).unwrap();
        let sum = sim.run_to_end();
        let peak = sim
            .recorder()
            .column("h0.ifq_pkts")
            .unwrap()
            .iter()
            .fold(0.0f64, |a, &b| a.max(b));
        runs.push((
            peak,
            sum.flows[0].local_congestion_events,
            sum.flows[0].mean_throughput_bps,
        ));
    }
    let mss = plain().mtu_bytes - 52;
    let bound = (cap as u64 / segment_truesize_bytes(mss) + 1) as f64;
    let (peak_off, local_off, _) = runs[0];
    let (peak_on, local_on, rate_on) = runs[1];
    assert!(peak_off > 900.0 && local_off > 0, "without TSQ: {runs:?}");
    assert!(
        peak_on <= bound && local_on == 0,
        "with TSQ (≤ {bound}): {runs:?}"
    );
    // The NIC stays busy: TSQ keeps a millisecond queued, enough at 1 Gb/s.
    assert!(rate_on > 0.9 * runs[0].2, "{runs:?}");
}
