//! Engine throughput on the canonical run: two senders into one 1 Gb/s
//! bottleneck, 30 ms, MTU 1500, 16 MB windows (Long 2003's two-to-one test).
//! Reported as simulated packets per second of wall time.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use sawtooth_core::scenario::{Flow, Host};
use sawtooth_core::{Scenario, Simulation};
use std::hint::black_box;

fn two_to_one(duration_ms: f64, rate_bps: f64) -> Scenario {
    let mut s = Scenario::jumbo_gigabit();
    s.mtu_bytes = 1500;
    s.duration_ms = duration_ms;
    s.bottleneck.rate_bps = rate_bps;
    s.bottleneck.buffer_pkts = 1000;
    s.hosts = (0..2)
        .map(|_| Host {
            nic_bps: rate_bps,
            txqueuelen_pkts: 100,
            flows: vec![Flow::new("reno", 16 << 20)],
        })
        .collect();
    s
}

fn packets(s: &Scenario) -> u64 {
    let mut sim = Simulation::new(s).unwrap();
    sim.run_to_end();
    sim.bottleneck_packets()
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("engine");
    g.sample_size(10);
    for (name, s) in [
        ("two_to_one_1g_10s", two_to_one(10_000.0, 1e9)),
        ("two_to_one_10g_2s", two_to_one(2_000.0, 10e9)),
    ] {
        g.throughput(Throughput::Elements(packets(&s)));
        g.bench_function(name, |b| {
            b.iter(|| {
                let mut sim = Simulation::new(black_box(&s)).unwrap();
                black_box(sim.run_to_end())
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
