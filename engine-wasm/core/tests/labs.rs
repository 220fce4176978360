//! The guided labs: every lab expands into valid scenarios, every paper value
//! points at something that exists, and a few cheap runs show what the
//! physics guarantees (never the papers' numbers: the simulator shows what
//! its model predicts).

use sawtooth_core::cc;
use sawtooth_core::labs::{
    self, compare, lab, labs, paper, run_point, Axis, Lab, Metric, Relation, Scale, SweepValue,
};
use std::collections::BTreeSet;

/// The algorithm ids of the source papers.
const SPEC_ALGORITHMS: [&str; 11] = [
    "reno",
    "highspeed",
    "scalable",
    "bic",
    "cubic",
    "htcp",
    "vegas",
    "fast",
    "fast_at",
    "compound",
    "bbr",
];

/// Beyond the source papers: data-centre TCP (issue 15), TCP Prague (L4S,
/// issue 25), BBRv3 (issue 25).
const LATER_ALGORITHMS: [&str; 3] = ["dctcp", "prague", "bbr3"];

fn registered(id: &str) -> bool {
    cc::algorithm_info(id).is_some()
}

#[test]
fn the_labs_are_numbered_in_order_with_unique_ids() {
    let all = &labs().labs;
    // The source papers' eleven, the queueing and latency labs of issue 15,
    // then issue 25's course labs: RTT fairness (15), L4S (16), a
    // cellular-like link (17) and BBRv3 against CUBIC (18).
    assert_eq!(all.len(), 18);
    for (i, l) in all.iter().enumerate() {
        assert_eq!(l.number as usize, i + 1, "{}", l.id);
    }
    let ids: BTreeSet<_> = all.iter().map(|l| l.id.as_str()).collect();
    assert_eq!(ids.len(), all.len());
}

/// A source is one of the five source papers (an archived text file named
/// after its id) or a publication in paper.json's
/// catalogue (an RFC, a later paper) with no seed file.
fn source_is_known(id: &str, file: &str) -> bool {
    let catalogued = sawtooth_core::labs::paper()
        .papers
        .iter()
        .any(|p| p.seed == id);
    if file.is_empty() {
        catalogued && !(id.len() == 3 && id.bytes().all(|b| b.is_ascii_digit()))
    } else {
        file.starts_with(id) && file.ends_with(".txt")
    }
}

#[test]
fn every_lab_is_complete() {
    for l in &labs().labs {
        assert!(!l.title.is_empty() && !l.summary.is_empty(), "{}", l.id);
        assert!(!l.sources.is_empty(), "{}", l.id);
        for s in &l.sources {
            assert!(source_is_known(&s.seed, &s.file), "{}: {:?}", l.id, s);
        }
        assert!(!l.metrics.is_empty(), "{}", l.id);
        assert!(
            !l.series.is_empty() && !l.sweep.values.is_empty(),
            "{}",
            l.id
        );
        assert!(
            l.base.validate().is_empty()
                || l.base
                    .validate()
                    .iter()
                    .all(|e| e.field.ends_with("algorithm")),
            "{}: base {:?}",
            l.id,
            l.base.validate()
        );
        let g = &l.guide;
        for (name, text) in [
            ("question", &g.question),
            ("predict", &g.predict),
            ("control", &g.control),
            ("paper_found", &g.paper_found),
            ("mechanism", &g.mechanism),
        ] {
            assert!(text.len() > 40, "{}: guide.{name} is too short", l.id);
        }
        assert!(!g.model_differences.is_empty(), "{}", l.id);
        assert!(!l.quick.note.is_empty(), "{}", l.id);
        if let Some(ids) = &l.quick.series {
            for id in ids {
                assert!(l.series(id).is_some(), "{}: quick series {id}", l.id);
            }
        }
        let series_ids: BTreeSet<_> = l.series.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(
            series_ids.len(),
            l.series.len(),
            "{}: duplicate series",
            l.id
        );
        for s in &l.series {
            assert!(!s.flows.is_empty(), "{}/{}", l.id, s.id);
            for f in &s.flows {
                assert!(
                    SPEC_ALGORITHMS.contains(&f.algorithm.as_str())
                        || LATER_ALGORITHMS.contains(&f.algorithm.as_str()),
                    "{}/{}: {} is not an algorithm of the source papers",
                    l.id,
                    s.id,
                    f.algorithm
                );
                assert!(!f.label.is_empty());
            }
        }
        if l.metrics.contains(&Metric::Rank) {
            assert!(
                l.ranking.is_some(),
                "{}: plots rank without a ranking",
                l.id
            );
        }
    }
}

/// Every scenario of every lab, at both scales, passes validation. Flows of
/// an algorithm not yet in the catalogue are reported, not failed, so the
/// test tightens by itself as algorithms land.
#[test]
fn every_expanded_scenario_of_every_lab_validates() {
    let mut missing = BTreeSet::new();
    let mut total = 0;
    for l in &labs().labs {
        for scale in [Scale::Quick, Scale::Full] {
            for series in l.series_at(scale) {
                for x in l.values(scale) {
                    for seed in l.seeds(scale) {
                        total += 1;
                        match l.point(&series.id, x, seed, scale) {
                            Ok(p) => {
                                assert!(p.scenario.validate().is_empty());
                                assert_eq!(p.groups.len(), p.scenario.flow_count());
                                assert!(p
                                    .groups
                                    .iter()
                                    .all(|g| (*g as usize) < series.flows.len()));
                            }
                            Err(labs::ExpandError::Invalid(errors)) => {
                                for e in &errors {
                                    let unregistered = e.field.ends_with(".algorithm")
                                        && SPEC_ALGORITHMS.contains(&e.value.as_str())
                                        && !registered(&e.value);
                                    assert!(
                                        unregistered,
                                        "{}/{} x={x} seed={seed} {scale:?}: {e}",
                                        l.id, series.id
                                    );
                                    missing.insert(e.value.clone());
                                }
                            }
                            Err(e) => panic!("{}/{} x={x}: {e}", l.id, series.id),
                        }
                    }
                }
            }
        }
    }
    assert!(total > 1000);
    if !missing.is_empty() {
        eprintln!("not yet in the catalogue, skipped: {missing:?}");
    }
}

#[test]
fn every_paper_value_refers_to_an_existing_lab_series_and_point() {
    let p = paper();
    assert!(p.values.len() >= 60);
    let mut keys = BTreeSet::new();
    for v in &p.values {
        assert!(keys.insert(v.key.clone()), "duplicate key {}", v.key);
        assert_eq!(v.key, v.expected_key(), "key of {:?}", v);
        let l = lab(&v.lab).unwrap_or_else(|| panic!("{}: no lab {}", v.key, v.lab));
        let s = l
            .series(&v.series)
            .unwrap_or_else(|| panic!("{}: no series {}", v.key, v.series));
        match v.relation {
            Relation::Value => {
                assert!(v.relative_to.is_none(), "{}", v.key);
                assert!(v.relative_to_x.is_none(), "{}", v.key);
                assert_eq!(v.unit, v.metric.unit(), "{}", v.key);
            }
            Relation::Difference | Relation::Percent => {
                let other = v.relative_to.as_deref().expect("relative_to");
                assert!(l.series(other).is_some(), "{}: no series {other}", v.key);
                if let Some(bx) = v.relative_to_x {
                    assert!(
                        l.sweep.values.contains(&SweepValue::Number(bx)),
                        "{}: baseline x={bx} is not swept",
                        v.key
                    );
                    assert!(
                        !v.applies_at(&SweepValue::Number(bx)),
                        "{}: effect of x on itself",
                        v.key
                    );
                }
                let unit = if v.relation == Relation::Percent {
                    "%"
                } else {
                    v.metric.unit()
                };
                assert_eq!(v.unit, unit, "{}", v.key);
            }
        }
        if let Some(x) = v.x {
            assert!(
                l.sweep.values.contains(&SweepValue::Number(x)),
                "{}: x={x} is not swept",
                v.key
            );
        }
        if let Some([a, b]) = v.x_range {
            assert!(a <= b, "{}", v.key);
            assert!(
                l.sweep
                    .values
                    .iter()
                    .filter_map(|x| x.as_number())
                    .any(|x| x >= a && x <= b),
                "{}: no swept value in range",
                v.key
            );
        }
        if let Some(g) = v.group {
            assert!((g as usize) < s.flows.len(), "{}: no group {g}", v.key);
        }
        if v.metric == Metric::StandardShare || v.metric == Metric::StandardThroughputMbps {
            assert!(s.flows.iter().any(|f| f.standard), "{}", v.key);
        }
        if v.metric == Metric::Rank {
            assert!(l.ranking.is_some(), "{}", v.key);
        }
        // A number or a range, never an invented middle of a range.
        assert!(
            v.value.is_some() != v.value_range.is_some(),
            "{}: give the paper's number or its range",
            v.key
        );
        assert!(source_is_known(&v.source.seed, &v.source.file), "{}", v.key);
        for run in &v.runs {
            assert!(run.is_finite());
        }
        if !v.runs.is_empty() {
            let mean = v.runs.iter().sum::<f64>() / v.runs.len() as f64;
            let value = v.value.expect("tabulated runs have a mean");
            assert!(
                (mean - value).abs() < 0.01 * value,
                "{}: runs average {mean}, value {value}",
                v.key
            );
        }
    }
    for f in &p.findings {
        assert!(lab(&f.lab).is_some(), "finding for no lab {}", f.lab);
        assert!(source_is_known(&f.source.seed, &f.source.file), "{}", f.id);
    }
    let errors: Vec<String> = labs()
        .labs
        .iter()
        .flat_map(sawtooth_core::sim_claims::findings::validate_findings)
        .collect();
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    for par in &p.parameters {
        assert!(lab(&par.lab).is_some(), "{}", par.key);
    }
    // The labs' headline numbers are all there.
    let has = |lab: &str, series: &str, value: f64| {
        p.values
            .iter()
            .any(|v| v.lab == lab && v.series == series && v.value == Some(value))
    };
    assert!(has("txqueuelen", "reno", 828.0) && has("txqueuelen", "reno", 966.0));
    assert!(has("two-to-one", "sc-std", 242.0) && has("two-to-one", "sc-std", 0.295));
    assert!(has("ten-into-one", "scalable-2c-30ms", 996.6));
    assert!(has("ten-into-one", "reno-1c-30ms", 5.0));
    assert!(has("txqueuelen-two-to-one", "hs-hs-q250", 817.0));
    assert_eq!(
        p.values
            .iter()
            .filter(|v| v.lab == "scalable-ab" && v.metric == Metric::Rank)
            .count(),
        8
    );
}

/// the HighSpeed ns-2 study Table I: the corrected High Window is 8.3 per Mb/s of link.
#[test]
fn corrected_high_window_follows_seed_004_table_1() {
    let per_mbps: Vec<f64> = paper()
        .parameters
        .iter()
        .filter(|p| p.name == "high_window")
        .map(|p| {
            let mbps: f64 = p
                .condition
                .trim_start_matches("link ")
                .trim_end_matches(" Mb/s")
                .parse()
                .unwrap();
            p.value / mbps
        })
        .collect();
    assert_eq!(per_mbps.len(), 5);
    let l = lab("highspeed-many-flows").unwrap();
    let mut corrected = 0;
    for s in &l.series {
        let rate = s
            .set
            .bottleneck_rate_bps
            .unwrap_or(l.base.bottleneck.rate_bps);
        for f in &s.flows {
            if let Some(hw) = f.params.get("high_window") {
                corrected += 1;
                assert!((hw / (rate / 1e6) - 8.3).abs() < 0.05, "{}: {hw}", s.id);
                assert!(per_mbps
                    .iter()
                    .all(|k| (k - hw / (rate / 1e6)).abs() < 0.05));
            }
        }
    }
    assert!(corrected > 0);
}

fn window_lab() -> &'static Lab {
    lab("two-to-one").unwrap()
}

#[test]
fn expansion_applies_the_axis_series_and_seed() {
    let l = window_lab();
    let p = l
        .point("sc-std", &SweepValue::Number(4194304.0), 3, Scale::Full)
        .unwrap();
    let flows: Vec<_> = p.scenario.hosts.iter().flat_map(|h| &h.flows).collect();
    assert_eq!(flows.len(), 2);
    assert_eq!(flows[0].algorithm, "scalable");
    assert_eq!(flows[0].params.get("a"), Some(&0.02));
    assert_eq!(flows[1].algorithm, "reno");
    assert!(flows.iter().all(|f| f.window_bytes == 4194304));
    assert_eq!(p.scenario.seed, 3);
    assert_eq!(flows[0].start_ms, 0.0);
    assert!(flows[1].start_ms >= 0.0 && flows[1].start_ms < l.start_jitter_ms);
    // Same seed, same jitter; another seed, another start.
    let again = l
        .point("sc-std", &SweepValue::Number(4194304.0), 3, Scale::Full)
        .unwrap();
    assert_eq!(again, p);
    let other = l
        .point("sc-std", &SweepValue::Number(4194304.0), 4, Scale::Full)
        .unwrap();
    assert_ne!(other.scenario.hosts[1].flows[0].start_ms, flows[1].start_ms);
    assert!(l
        .point("no-such-series", &SweepValue::Number(1.0), 1, Scale::Full)
        .is_err());
}

#[test]
fn streams_and_flow_pairs_replicate_flows_and_keep_groups() {
    let rs = lab("ten-into-one").unwrap();
    assert_eq!(rs.sweep.axis, Axis::StreamsPerHost);
    let p = rs
        .point("scalable-2c-30ms", &SweepValue::Number(4.0), 1, Scale::Full)
        .unwrap();
    assert_eq!(p.scenario.hosts.len(), 2);
    assert!(p.scenario.hosts.iter().all(|h| h.flows.len() == 4));
    assert_eq!(p.groups, [0, 0, 0, 0, 1, 1, 1, 1]);
    let one = rs
        .point("reno-1c-0ms", &SweepValue::Number(1.0), 1, Scale::Full)
        .unwrap();
    assert_eq!(one.scenario.hosts.len(), 1);
    assert_eq!(one.scenario.rtt_ms, 0.0);

    let hs = lab("highspeed-many-flows").unwrap();
    assert_eq!(hs.sweep.axis, Axis::FlowPairs);
    let p = hs
        .point("mix-hs8300-1g", &SweepValue::Number(10.0), 1, Scale::Full)
        .unwrap();
    assert_eq!(p.scenario.hosts.len(), 10);
    let algs: Vec<_> = p
        .scenario
        .hosts
        .iter()
        .map(|h| h.flows[0].algorithm.as_str())
        .collect();
    assert_eq!(algs.iter().filter(|a| **a == "highspeed").count(), 5);
    assert_eq!(algs.iter().filter(|a| **a == "reno").count(), 5);
    assert_eq!(p.groups.iter().filter(|g| **g == 1).count(), 5);
}

/// The RTT-ratio axis lengthens only the last host's round trip, by
/// (x - 1) times the path's, and keeps one group per host.
#[test]
fn rtt_ratio_lengthens_the_last_hosts_round_trip_only() {
    let l = lab("two-rtts").unwrap();
    assert_eq!(l.sweep.axis, Axis::RttRatio);
    let at = |x: f64| {
        l.point("cubic-shallow", &SweepValue::Number(x), 1, Scale::Full)
            .unwrap()
    };
    let p = at(8.0);
    assert_eq!(p.scenario.rtt_ms, 10.0);
    assert_eq!(p.groups, [0, 1]);
    assert_eq!(p.scenario.hosts[0].flows[0].extra_delay_ms, 0.0);
    assert_eq!(p.scenario.hosts[1].flows[0].extra_delay_ms, 70.0);
    assert_eq!(at(1.0).scenario.hosts[1].flows[0].extra_delay_ms, 0.0);
    assert_eq!(at(2.5).scenario.hosts[1].flows[0].extra_delay_ms, 15.0);
    // A ratio below 1 would need a negative delay.
    assert!(l
        .point("cubic-shallow", &SweepValue::Number(0.5), 1, Scale::Full)
        .is_err());
    // The series' buffers: one BDP of the 10-ms and of the 80-ms path.
    let buffer = |series: &str| {
        l.point(series, &SweepValue::Number(8.0), 1, Scale::Full)
            .unwrap()
            .scenario
            .bottleneck
            .buffer_pkts
    };
    let bdp_10ms = p.scenario.bdp_pkts();
    assert_eq!(buffer("bbr-shallow") as f64, bdp_10ms.round());
    assert_eq!(buffer("bbr-deep") as f64, (8.0 * bdp_10ms).round());
}

#[test]
fn buffers_scale_with_the_bandwidth_delay_product_and_red_thresholds_follow() {
    let l = lab("low-ssthresh").unwrap();
    let at = |rtt: f64, series: &str| {
        l.point(series, &SweepValue::Number(rtt), 1, Scale::Full)
            .unwrap()
            .scenario
    };
    // 80 000 packets/s x RTT.
    assert_eq!(at(100.0, "reno").bottleneck.buffer_pkts, 8000);
    assert_eq!(at(25.0, "reno").bottleneck.buffer_pkts, 2000);
    assert_eq!(at(100.0, "fast-small-buffer").bottleneck.buffer_pkts, 100);
    assert_eq!(at(100.0, "reno").tcp.initial_ssthresh_pkts, Some(100));
    assert_eq!(at(100.0, "reno-unlimited").tcp.initial_ssthresh_pkts, None);

    let hs = lab("highspeed-many-flows").unwrap();
    let buf = |series: &str| {
        let s = hs
            .point(series, &SweepValue::Number(2.0), 1, Scale::Full)
            .unwrap()
            .scenario;
        let sawtooth_core::scenario::Aqm::Red { min_th_pkts, .. } = s.bottleneck.aqm else {
            panic!("RED expected");
        };
        (s.bottleneck.buffer_pkts, min_th_pkts)
    };
    let (b1, m1) = buf("all-std-1g");
    let (b2, m2) = buf("all-std-200m");
    assert!((b1 as f64 / b2 as f64 - 5.0).abs() < 0.01);
    assert!((m1 / m2 - 5.0).abs() < 0.05);
}

#[test]
fn quick_scale_is_smaller_than_full() {
    for l in &labs().labs {
        let work = |scale| -> f64 {
            l.expand(scale)
                .map(|ps| ps.iter().map(|p| p.scenario.duration_ms).sum())
                .unwrap_or(0.0)
        };
        // Only meaningful when all algorithms are registered.
        if l.series
            .iter()
            .flat_map(|s| &s.flows)
            .all(|f| registered(&f.algorithm))
        {
            assert!(work(Scale::Quick) <= work(Scale::Full), "{}", l.id);
            assert!(work(Scale::Quick) > 0.0, "{}", l.id);
        }
    }
}

// ----------------------------------------------------------------------------
// Physics the model guarantees, from short, cheap runs.

/// Run one point with the duration cut to `duration_ms`.
fn run_short(l: &Lab, series: &str, x: f64, duration_ms: f64) -> labs::PointResult {
    let mut p = l
        .point(
            series,
            &SweepValue::Number(x),
            l.seeds(Scale::Quick)[0],
            Scale::Quick,
        )
        .unwrap();
    p.scenario.duration_ms = duration_ms;
    for f in p.scenario.hosts.iter_mut().flat_map(|h| &mut h.flows) {
        f.start_ms = f.start_ms.min(duration_ms / 2.0);
    }
    run_point(l, &p, Scale::Quick).unwrap()
}

/// Lab 1: with no delay, jumbo frames fill the link up to the payload
/// ceiling MSS / wire bytes = 8948 / 9038 of 1 Gb/s.
#[test]
fn back_to_back_jumbo_frames_reach_the_payload_ceiling() {
    let l = lab("back-to-back").unwrap();
    let ceiling = 1e3 * 8948.0 / 9038.0;
    for series in ["reno-9000", "scalable-9000"] {
        let r = run_short(l, series, 5242880.0, 1000.0);
        assert!(
            r.total_throughput_mbps > 0.98 * ceiling && r.total_throughput_mbps <= ceiling + 1e-6,
            "{series}: {} Mb/s",
            r.total_throughput_mbps
        );
        assert_eq!(r.drops, 0);
    }
    let r = run_short(l, "reno-1500", 5242880.0, 500.0);
    assert!(r.total_throughput_mbps <= 1e3 * 1448.0 / 1538.0 + 1e-6);
    assert!(r.total_throughput_mbps > 0.95 * 1e3 * 1448.0 / 1538.0);
}

/// Lab 3: a longer interface queue never hurts a lone Standard TCP flow on
/// an idle path (fewer or later CWR back-offs).
#[test]
fn a_longer_txqueuelen_helps_a_lone_standard_flow() {
    let l = lab("txqueuelen").unwrap();
    let short = run_short(l, "reno", 100.0, 4000.0);
    let long = run_short(l, "reno", 250.0, 4000.0);
    assert!(
        long.total_throughput_mbps >= short.total_throughput_mbps,
        "250: {} < 100: {}",
        long.total_throughput_mbps,
        short.total_throughput_mbps
    );
    // The back-offs are local: nothing is dropped in the network.
    assert_eq!(short.drops, 0);
    assert!(short.local_congestion_events >= 1);
}

/// Lab 2: below the bandwidth-delay product the window caps throughput at
/// about window / RTT, whatever the algorithm.
#[test]
fn a_small_window_caps_throughput_at_window_over_rtt() {
    let l = lab("back-to-back-30ms").unwrap();
    let window = 524288.0;
    let cap = window * 8.0 / 0.030 / 1e6;
    for series in ["reno-9000", "highspeed-9000"] {
        if !registered(&l.series(series).unwrap().flows[0].algorithm) {
            continue;
        }
        let r = run_short(l, series, window, 3000.0);
        assert!(
            r.total_throughput_mbps <= cap * 1.01,
            "{series}: {}",
            r.total_throughput_mbps
        );
    }
}

/// Lab 7: N parallel Standard streams together get at least what one gets.
#[test]
fn parallel_standard_streams_get_at_least_one_stream() {
    let l = lab("parallel-streams").unwrap();
    let one = run_short(l, "reno", 1.0, 4000.0);
    let four = run_short(l, "reno", 4.0, 4000.0);
    assert!(
        four.total_throughput_mbps >= one.total_throughput_mbps,
        "4 streams {} < 1 stream {}",
        four.total_throughput_mbps,
        one.total_throughput_mbps
    );
    assert_eq!(four.flow_throughput_mbps.len(), 4);
    assert_eq!(four.group_throughput_mbps.len(), 1);
}

/// Lab 4: shares, group sums and the comparison with the paper hang
/// together for a two-to-one run.
#[test]
fn two_to_one_metrics_are_consistent_and_join_the_paper() {
    let l = window_lab();
    let r = run_short(l, "std-std", 4194304.0, 3000.0);
    assert_eq!(r.group_throughput_mbps.len(), 2);
    let sum: f64 = r.group_throughput_mbps.iter().sum();
    assert!((sum - r.flow_throughput_mbps.iter().sum::<f64>()).abs() < 1e-9);
    let share = r.standard_share.unwrap();
    assert!((0.0..=1.0).contains(&share));
    assert!(r.jain_index > 0.5 && r.jain_index <= 1.0 + 1e-12);
    assert!(r.utilisation <= 1.0);
    // Two senders into one port: the switch, not the hosts, drops.
    assert!(r.total_throughput_mbps <= 1e3 * 8948.0 / 9038.0 + 1e-6);

    let rows = compare(l, std::slice::from_ref(&r));
    let share_row = rows
        .iter()
        .find(|c| c.series == "std-std" && c.metric == Metric::StandardShare)
        .unwrap();
    assert_eq!(share_row.paper, Some(0.38));
    assert_eq!(share_row.simulated, Some(share));
    assert_eq!(share_row.points, 1);
    // Series that were not run have no simulated value.
    assert!(rows
        .iter()
        .filter(|c| c.series == "sc-std")
        .all(|c| c.simulated.is_none()));
}

/// Lab 11: with an unlimited initial ssthresh, slow start reaches the
/// maximum rate long before Reno's one-packet-per-RTT growth from 100.
#[test]
fn low_initial_ssthresh_slows_reno_to_the_maximum_rate() {
    let l = lab("low-ssthresh").unwrap();
    let fast = run_short(l, "reno-unlimited", 25.0, 6000.0);
    let slow = run_short(l, "reno", 25.0, 6000.0);
    let t = fast
        .time_to_max_rate_s
        .expect("slow start reaches the rate");
    assert!(t < 3.0, "{t}");
    // From 100 packets to the 2000-packet BDP at one packet per 25 ms takes
    // about 47 s: not within 6 s.
    assert_eq!(slow.time_to_max_rate_s, None);
    assert!(slow.total_throughput_mbps < fast.total_throughput_mbps);
}

/// Ranking orders the series by the `by` metric.
#[test]
fn ranking_orders_series_by_combined_throughput() {
    let l = lab("scalable-ab").unwrap();
    let mk = |series: &str, total: f64| {
        let mut r = run_short(l, series, 2097152.0, 200.0);
        r.total_throughput_mbps = total;
        r
    };
    let results = vec![mk("a1_100-b1_8", 700.0), mk("a2_25-b1_2", 900.0)];
    let ranks = labs::rank_series(l, &results).unwrap();
    assert_eq!(ranks[0].0, "a2_25-b1_2");
    assert_eq!(ranks[1].0, "a1_100-b1_8");
    let rows = compare(l, &results);
    let first = rows.iter().find(|c| c.series == "a1_100-b1_8").unwrap();
    assert_eq!((first.paper, first.simulated), (Some(1.0), Some(2.0)));
}

/// What the app receives (every field written out) reads back unchanged.
#[test]
fn labs_and_paper_json_round_trip() {
    let l: labs::LabsFile = serde_json::from_str(&labs::labs_json()).unwrap();
    assert_eq!(&l, labs());
    let p: labs::PaperFile = serde_json::from_str(&labs::paper_json()).unwrap();
    assert_eq!(&p, paper());
}
