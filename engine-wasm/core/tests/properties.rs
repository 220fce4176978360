//! Property tests: for arbitrary (small) scenarios the engine never panics,
//! conserves packets, and never reports more than the link can carry; the
//! parser never panics on arbitrary input.

use proptest::prelude::*;
use sawtooth_core::cc::catalogue;
use sawtooth_core::scenario::{Aqm, Flow, Host};
use sawtooth_core::{Scenario, Simulation};

fn flow_strategy() -> impl Strategy<Value = Flow> {
    let ids: Vec<&'static str> = catalogue().iter().map(|a| a.id).collect();
    (
        prop::sample::select(ids),
        64u32..4096,
        0.0f64..500.0,
        0.0f64..40.0,
    )
        .prop_map(|(alg, window_kb, start_ms, extra)| {
            let mut f = Flow::new(alg, window_kb * 1024);
            f.start_ms = start_ms;
            f.extra_delay_ms = extra;
            f
        })
}

fn scenario_strategy() -> impl Strategy<Value = Scenario> {
    (
        prop::collection::vec(
            (
                prop::collection::vec(flow_strategy(), 1..4),
                1u32..300,
                prop::bool::ANY,
            ),
            1..4,
        ),
        0.0f64..80.0,
        prop::sample::select(vec![0.0, 1e-4, 1e-2]),
        1u32..400,
        prop::bool::ANY,
        prop::bool::ANY,
        prop::bool::ANY,
        any::<u32>(),
    )
        .prop_map(|(hosts, rtt, loss, buffer, red, sack, delack, seed)| {
            let mut s = Scenario::jumbo_gigabit();
            s.duration_ms = 1500.0;
            s.seed = seed;
            s.rtt_ms = rtt;
            s.loss_rate = loss;
            s.mtu_bytes = 1500;
            s.bottleneck.rate_bps = 100e6;
            s.bottleneck.buffer_pkts = buffer.max(4);
            if red {
                let b = s.bottleneck.buffer_pkts as f64;
                s.bottleneck.aqm = Aqm::Red {
                    min_th_pkts: (b / 4.0).max(1.0),
                    max_th_pkts: (b * 0.75).max(2.0),
                    max_p: 0.1,
                    weight: 0.01,
                    ecn: seed % 2 == 0,
                };
            }
            s.tcp.sack = sack;
            s.tcp.delayed_ack = delack;
            s.hosts = hosts
                .into_iter()
                .map(|(flows, txq, fast_nic)| Host {
                    nic_bps: if fast_nic { 1e9 } else { 100e6 },
                    txqueuelen_pkts: txq,
                    flows,
                })
                .collect();
            s
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, .. ProptestConfig::default() })]

    #[test]
    fn any_scenario_runs_conserves_packets_and_respects_capacity(s in scenario_strategy()) {
        prop_assert!(s.validate().is_empty(), "{:?}", s.validate());
        let mut sim = Simulation::new(&s).unwrap();
        for k in 1..=5u64 {
            sim.advance(k * 300_000_000);
            let a = sim.packet_accounting();
            prop_assert!(a.is_conserved(), "{:?}", a);
        }
        let sum = sim.summary();
        prop_assert!(sum.utilisation <= 1.0 + 1e-9, "utilisation {}", sum.utilisation);
        prop_assert!(sum.jain_index > 0.0 && sum.jain_index <= 1.0 + 1e-9);
    }

    #[test]
    fn the_parser_never_panics_on_arbitrary_text(text in ".{0,200}") {
        let _ = Scenario::from_json(&text);
    }

    #[test]
    fn the_parser_never_panics_on_mutated_scenarios(path in 0usize..12, value in prop_oneof![
        Just(serde_json::json!(null)), Just(serde_json::json!(-1)), Just(serde_json::json!(1e308)),
        Just(serde_json::json!("x")), Just(serde_json::json!([])), Just(serde_json::json!({})), Just(serde_json::json!(f64::MAX)),
    ]) {
        let mut v: serde_json::Value = serde_json::from_str(&Scenario::jumbo_gigabit().to_json()).unwrap();
        let keys = ["seed", "duration_ms", "sample_interval_ms", "mtu_bytes", "rtt_ms", "loss_rate", "tcp", "bottleneck", "hosts"];
        match path {
            p if p < keys.len() => v[keys[p]] = value,
            9 => v["hosts"][0]["flows"][0]["window_bytes"] = value,
            10 => v["hosts"][0]["flows"][0]["params"] = value,
            _ => v["bottleneck"]["aqm"] = value,
        }
        if let Ok(s) = Scenario::from_json(&v.to_string()) {
            let mut s = s;
            s.duration_ms = s.duration_ms.min(200.0);
            if let Ok(mut sim) = Simulation::new(&s) { sim.run_to_end(); }
        }
    }
}
