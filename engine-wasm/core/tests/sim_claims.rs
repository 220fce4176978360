//! The evaluator of the labs' simulator sentences (`sim_claims`), on
//! results made up for the purpose: each kind of check holds when the
//! numbers bear it out and fails when they do not, placeholders are filled
//! with seed means, and a sentence whose runs have not all finished is
//! neither true nor false.

use sawtooth_core::labs::{lab, Lab, Metric, PointResult, Scale, SweepValue};
use sawtooth_core::sim_claims::{
    self, applies, text, validate, Check, CheckKind, ClaimOutcome, SimClaim,
};

const MB: f64 = 1048576.0;

/// Lab 2 with the given sentences: quick scale, windows 0.5-16 MB, one seed.
fn lab2_with(claims: Vec<SimClaim>) -> Lab {
    let mut l = lab("back-to-back-30ms").unwrap().clone();
    l.guide.simulator = claims;
    l
}

/// Lab 4 (three seeds at the quick scale) with the given sentences.
fn lab4_with(claims: Vec<SimClaim>) -> Lab {
    let mut l = lab("two-to-one").unwrap().clone();
    l.guide.simulator = claims;
    l
}

fn point(series: &str, x: f64, seed: u32, total: f64) -> PointResult {
    PointResult {
        total_throughput_mbps: total,
        group_labels: vec!["flow".into()],
        group_throughput_mbps: vec![total],
        flow_throughput_mbps: vec![total],
        utilisation: total / 1000.0,
        flow_time_to_max_rate_s: vec![None],
        group_congestion_event_rate: vec![0.0],
        duration_s: 10.0,
        ..PointResult::blank("test", series, SweepValue::Number(x), seed)
    }
}

/// Every quick-scale window of lab 2 for one series, with `f(x)` as throughput.
fn sweep(series: &str, f: impl Fn(f64) -> f64) -> Vec<PointResult> {
    lab("back-to-back-30ms")
        .unwrap()
        .values(Scale::Quick)
        .iter()
        .map(|v| v.as_number().unwrap())
        .map(|x| point(series, x, 1, f(x)))
        .collect()
}

fn check(kind: CheckKind, series: &[&str]) -> Check {
    Check {
        kind,
        metric: Metric::TotalThroughputMbps,
        group: None,
        series: series.iter().map(|s| s.to_string()).collect(),
        x: None,
        range: None,
        each: false,
        tolerance: 0.0,
        bound: None,
    }
}

fn claim(text: &str, checks: Vec<Check>) -> SimClaim {
    SimClaim {
        id: "c".into(),
        text: text.into(),
        checks,
        scales: vec![],
    }
}

fn one(l: &Lab, results: &[PointResult]) -> ClaimOutcome {
    let mut out = sim_claims::evaluate(l, Scale::Quick, results);
    assert_eq!(out.len(), 1, "one sentence made");
    out.remove(0)
}

fn at_16mb(mut c: Check) -> Check {
    c.x = Some(16.0 * MB);
    c
}

#[test]
fn order_holds_when_the_values_are_in_that_order_and_fails_otherwise() {
    let l = lab2_with(vec![claim(
        "order",
        vec![at_16mb(check(
            CheckKind::Order,
            &["scalable-9000", "reno-9000"],
        ))],
    )]);
    let mut rs = sweep("scalable-9000", |_| 900.0);
    rs.extend(sweep("reno-9000", |_| 800.0));
    assert_eq!(one(&l, &rs).holds, Some(true));

    let mut swapped = sweep("scalable-9000", |_| 800.0);
    swapped.extend(sweep("reno-9000", |_| 900.0));
    let o = one(&l, &swapped);
    assert_eq!(o.holds, Some(false));
    assert!(
        o.detail.contains("800 Mb/s") && o.detail.contains("900 Mb/s"),
        "{}",
        o.detail
    );
}

#[test]
fn order_needs_a_lead_larger_than_the_tolerance() {
    let mut c = at_16mb(check(CheckKind::Order, &["scalable-9000", "reno-9000"]));
    c.tolerance = 0.05;
    let l = lab2_with(vec![claim("order", vec![c])]);
    let mut close = sweep("scalable-9000", |_| 830.0);
    close.extend(sweep("reno-9000", |_| 800.0));
    assert_eq!(one(&l, &close).holds, Some(false), "3.6 % is within 5 %");
    let mut far = sweep("scalable-9000", |_| 900.0);
    far.extend(sweep("reno-9000", |_| 800.0));
    assert_eq!(one(&l, &far).holds, Some(true));
}

#[test]
fn same_holds_within_the_tolerance_only() {
    let mut c = check(CheckKind::Same, &["reno-9000", "highspeed-9000"]);
    c.each = true;
    c.tolerance = 0.01;
    let l = lab2_with(vec![claim("same", vec![c])]);
    let mut near = sweep("reno-9000", |_| 900.0);
    near.extend(sweep("highspeed-9000", |_| 905.0));
    assert_eq!(one(&l, &near).holds, Some(true));
    // Apart at one window only: "at each" fails.
    let mut apart = sweep("reno-9000", |_| 900.0);
    apart.extend(sweep("highspeed-9000", |x| {
        if x == 16.0 * MB {
            950.0
        } else {
            900.0
        }
    }));
    let o = one(&l, &apart);
    assert_eq!(o.holds, Some(false));
    assert!(o.detail.contains("16 MB"), "names the window: {}", o.detail);
}

#[test]
fn highest_and_lowest_compare_the_first_series_with_every_other() {
    let three = ["highspeed-9000", "scalable-9000", "reno-9000"];
    let mut rs = sweep("highspeed-9000", |_| 950.0);
    rs.extend(sweep("scalable-9000", |_| 900.0));
    rs.extend(sweep("reno-9000", |_| 920.0));
    let l = lab2_with(vec![claim("", vec![check(CheckKind::Highest, &three)])]);
    assert_eq!(one(&l, &rs).holds, Some(true));
    let l = lab2_with(vec![claim("", vec![check(CheckKind::Lowest, &three)])]);
    assert_eq!(one(&l, &rs).holds, Some(false));
    let l = lab2_with(vec![claim(
        "",
        vec![check(
            CheckKind::Lowest,
            &["scalable-9000", "highspeed-9000", "reno-9000"],
        )],
    )]);
    assert_eq!(one(&l, &rs).holds, Some(true));
}

#[test]
fn a_rise_allows_small_steps_back_only_within_the_tolerance() {
    let rising = |x: f64| 100.0 + x / MB;
    let dip = |x: f64| {
        if x == 4.0 * MB {
            rising(x) - 3.0
        } else {
            rising(x)
        }
    };
    let mut c = check(CheckKind::Rises, &["reno-9000"]);
    let l = lab2_with(vec![claim("", vec![c.clone()])]);
    assert_eq!(one(&l, &sweep("reno-9000", rising)).holds, Some(true));
    assert_eq!(one(&l, &sweep("reno-9000", dip)).holds, Some(false));
    c.tolerance = 0.05;
    let l = lab2_with(vec![claim("", vec![c])]);
    assert_eq!(one(&l, &sweep("reno-9000", dip)).holds, Some(true));
    // Flat is not a rise.
    assert_eq!(one(&l, &sweep("reno-9000", |_| 500.0)).holds, Some(false));
    let l = lab2_with(vec![claim(
        "",
        vec![check(CheckKind::Falls, &["reno-9000"])],
    )]);
    assert_eq!(one(&l, &sweep("reno-9000", rising)).holds, Some(false));
    assert_eq!(
        one(&l, &sweep("reno-9000", |x| 1000.0 - x / MB)).holds,
        Some(true)
    );
}

#[test]
fn a_trend_within_the_tolerance_is_no_trend() {
    // 941.0 to 941.5 Mb/s along the sweep: no fall, and with a 2 % tolerance
    // no rise either.
    let barely = |x: f64| 941.0 + 0.5 * x / (16.0 * MB);
    let mut c = check(CheckKind::Rises, &["reno-9000"]);
    let l = lab2_with(vec![claim("", vec![c.clone()])]);
    assert_eq!(one(&l, &sweep("reno-9000", barely)).holds, Some(true));
    c.tolerance = 0.02;
    let l = lab2_with(vec![claim("", vec![c])]);
    assert_eq!(one(&l, &sweep("reno-9000", barely)).holds, Some(false));
    let steep = |x: f64| 800.0 + 100.0 * x / (16.0 * MB);
    assert_eq!(one(&l, &sweep("reno-9000", steep)).holds, Some(true));
}

#[test]
fn a_range_restricts_the_trend_to_its_swept_values() {
    // Rises up to 4 MB, falls after: a rise over 0.5-4 MB only.
    let shape = |x: f64| if x <= 4.0 * MB { x / MB } else { 0.0 };
    let mut c = check(CheckKind::Rises, &["reno-9000"]);
    let l = lab2_with(vec![claim("", vec![c.clone()])]);
    assert_eq!(one(&l, &sweep("reno-9000", shape)).holds, Some(false));
    c.range = Some([0.0, 4.0 * MB]);
    let l = lab2_with(vec![claim("", vec![c])]);
    assert_eq!(one(&l, &sweep("reno-9000", shape)).holds, Some(true));
}

#[test]
fn bounds_compare_each_series_with_a_number() {
    let mut at_least = check(CheckKind::AtLeast, &["reno-9000"]);
    at_least.metric = Metric::Drops;
    at_least.each = true;
    at_least.bound = Some(1.0);
    let mut at_most = at_least.clone();
    at_most.kind = CheckKind::AtMost;
    at_most.bound = Some(0.0);
    let none = sweep("reno-9000", |_| 900.0);
    let some: Vec<PointResult> = none
        .iter()
        .cloned()
        .map(|mut r| {
            r.drops = 3;
            r
        })
        .collect();
    let l = lab2_with(vec![claim("", vec![at_least])]);
    assert_eq!(one(&l, &none).holds, Some(false));
    assert_eq!(one(&l, &some).holds, Some(true));
    let l = lab2_with(vec![claim("", vec![at_most])]);
    assert_eq!(one(&l, &none).holds, Some(true));
    assert_eq!(one(&l, &some).holds, Some(false));
}

#[test]
fn never_reached_means_no_time_to_the_rate_in_any_run() {
    let mut c = at_16mb(check(CheckKind::NeverReached, &["reno-9000"]));
    c.metric = Metric::TimeToMaxRateS;
    let l = lab2_with(vec![claim(
        "{value:reno-9000@16777216:time_to_max_rate_s}",
        vec![c],
    )]);
    let never = sweep("reno-9000", |_| 100.0);
    let o = one(&l, &never);
    assert_eq!(o.holds, Some(true));
    assert_eq!(o.text, "not within the run");
    let reached: Vec<PointResult> = never
        .into_iter()
        .map(|mut r| {
            r.time_to_max_rate_s = Some(12.5);
            r
        })
        .collect();
    let o = one(&l, &reached);
    assert_eq!(o.holds, Some(false));
    assert_eq!(o.text, "12.5 s");
}

#[test]
fn a_sentence_is_unknown_until_every_run_it_is_about_has_finished() {
    let l = lab2_with(vec![claim(
        "Scalable {value:scalable-9000@16777216:total_throughput_mbps}",
        vec![at_16mb(check(
            CheckKind::Order,
            &["scalable-9000", "reno-9000"],
        ))],
    )]);
    let scalable = sweep("scalable-9000", |_| 900.0);
    let o = one(&l, &scalable);
    assert_eq!(o.holds, None, "Standard TCP's runs are missing");
    assert_eq!(o.text, "Scalable 900 Mb/s");
    let o = one(&l, &[]);
    assert_eq!(o.holds, None);
    assert_eq!(o.text, "Scalable …");
    assert_eq!(o.parts[1].value, None);
}

#[test]
fn a_seed_mean_waits_for_every_seed_of_the_scale() {
    // Lab 4 runs seeds 1-3 at the quick scale.
    let l = lab4_with(vec![claim(
        "{value:std-std@16777216:total_throughput_mbps}",
        vec![at_16mb(check(CheckKind::AtLeast, &["std-std"]))],
    )
    .with_bound(100.0)]);
    let two = vec![
        point("std-std", 16.0 * MB, 1, 800.0),
        point("std-std", 16.0 * MB, 2, 900.0),
    ];
    let o = one(&l, &two);
    assert_eq!(o.holds, None);
    assert_eq!(o.text, "…");
    let mut three = two;
    three.push(point("std-std", 16.0 * MB, 3, 1000.0));
    let o = one(&l, &three);
    assert_eq!(o.holds, Some(true));
    assert_eq!(o.text, "900 Mb/s");
    assert_eq!(o.parts[0].value, Some(900.0));
    assert_eq!(
        o.parts[0].reference.as_deref(),
        Some("std-std@16777216:total_throughput_mbps")
    );
}

trait WithBound {
    fn with_bound(self, b: f64) -> Self;
}

impl WithBound for SimClaim {
    fn with_bound(mut self, b: f64) -> Self {
        for c in &mut self.checks {
            c.bound = Some(b);
        }
        self
    }
}

#[test]
fn placeholders_are_filled_with_labels_and_means_in_the_metrics_units() {
    let mut l = lab4_with(vec![claim(
        "{std-std}: {value:std-std@*:total_throughput_mbps}, share {value:std-std@16777216:standard_share}, client 2 {value:std-std@16777216:group_throughput_mbps[1]}",
        vec![check(CheckKind::AtLeast, &["std-std"])],
    )
    .with_bound(0.0)]);
    l.quick.values = Some(vec![
        SweepValue::Number(8.0 * MB),
        SweepValue::Number(16.0 * MB),
    ]);
    let mut rs = Vec::new();
    for (x, total) in [(8.0 * MB, 600.0), (16.0 * MB, 800.0)] {
        for seed in 1..=3 {
            let mut r = point("std-std", x, seed, total);
            r.standard_share = Some(0.25);
            r.group_throughput_mbps = vec![total - 200.0, 200.0 + seed as f64];
            rs.push(r);
        }
    }
    let o = one(&l, &rs);
    assert_eq!(
        o.text,
        "Standard vs Standard: 700 Mb/s, share 25%, client 2 202 Mb/s"
    );
    assert_eq!(o.holds, Some(true));
}

#[test]
fn rank_orders_by_the_labs_ranking() {
    let mut l = lab("scalable-ab").unwrap().clone();
    let mut c = check(CheckKind::Order, &["a1_100-b1_8", "a1_50-b1_8"]);
    c.metric = Metric::Rank;
    l.guide.simulator = vec![claim("", vec![c])];
    let results = |kelly: f64| -> Vec<PointResult> {
        let mut rs = Vec::new();
        for s in &l.series {
            for x in l.values(Scale::Quick) {
                for seed in l.seeds(Scale::Quick) {
                    let t = if s.id == "a1_100-b1_8" { kelly } else { 850.0 };
                    let mut r = point(&s.id, x.as_number().unwrap(), seed, t);
                    r.standard_throughput_mbps = Some(200.0);
                    rs.push(r);
                }
            }
        }
        rs
    };
    assert_eq!(one(&l, &results(900.0)).holds, Some(true));
    assert_eq!(one(&l, &results(700.0)).holds, Some(false));
    // One run short: no ranking yet.
    let mut partial = results(900.0);
    partial.pop();
    assert_eq!(one(&l, &partial).holds, None);
}

#[test]
fn a_sentence_is_made_only_at_the_scales_that_run_what_it_names() {
    let l = lab("highspeed-many-flows").unwrap();
    // The 200 Mb/s series are not run at the quick scale.
    let c = claim(
        "",
        vec![check(CheckKind::Same, &["all-std-200m", "all-std-1g"])],
    );
    assert!(!applies(&c, l, Scale::Quick));
    assert!(applies(&c, l, Scale::Full));
    // A swept value only the faithful scale runs.
    let mut at4 = check(CheckKind::Same, &["all-std-1g", "all-hs83000-1g"]);
    at4.x = Some(4.0);
    let c = claim("", vec![at4]);
    assert!(!applies(&c, l, Scale::Quick));
    assert!(applies(&c, l, Scale::Full));
    // Listed for one scale only.
    let mut quick_only = claim(
        "",
        vec![check(CheckKind::Same, &["all-std-1g", "all-hs83000-1g"])],
    );
    quick_only.scales = vec![Scale::Quick];
    assert!(applies(&quick_only, l, Scale::Quick));
    assert!(!applies(&quick_only, l, Scale::Full));
}

#[test]
fn validation_names_each_problem() {
    let mut bad_bound = check(CheckKind::AtMost, &["reno-9000"]);
    bad_bound.bound = None;
    let l = lab2_with(vec![
        claim(
            "{no-such-series} is fast",
            vec![check(CheckKind::Rises, &["reno-9000"])],
        ),
        claim(
            "{value:reno-9000@16777216:speed}",
            vec![check(CheckKind::Rises, &["reno-9000"])],
        ),
        claim("ok", vec![bad_bound]),
        claim("ok", vec![check(CheckKind::Order, &["reno-9000"])]),
    ]);
    let errors = validate(&l);
    assert!(
        errors.iter().any(|e| e.contains("no-such-series")),
        "{errors:?}"
    );
    assert!(errors.iter().any(|e| e.contains("metric")), "{errors:?}");
    assert!(errors.iter().any(|e| e.contains("bound")), "{errors:?}");
    assert!(
        errors
            .iter()
            .any(|e| e.contains("Order check with 1 series")),
        "{errors:?}"
    );
    assert!(errors.iter().any(|e| e.contains("repeated")), "{errors:?}");
    assert!(validate(lab("back-to-back-30ms").unwrap()).is_empty());
}

#[test]
fn numbers_are_written_with_about_three_significant_digits() {
    assert_eq!(text::round3(941.428), "941");
    assert_eq!(text::round3(97.39), "97.4");
    assert_eq!(text::round3(2.0), "2");
    assert_eq!(text::round3(0.66253), "0.663");
    assert_eq!(text::round3(0.002256), "0.0023");
    assert_eq!(text::number(Metric::StandardShare, 0.1223), "12.2%");
    assert_eq!(text::number(Metric::TotalThroughputMbps, 884.9), "885 Mb/s");
    assert_eq!(text::number(Metric::Drops, 8.0), "8");
}

/// A quantity held between two bounds (an at-least and an at-most check of
/// the same values, as "about half" is written): a broken sentence names
/// the values of the bound it broke, once.
#[test]
fn a_broken_sentence_names_the_values_of_the_check_it_broke_once() {
    let mut at_least = check(CheckKind::AtLeast, &["reno-9000"]);
    at_least.each = true;
    at_least.bound = Some(1000.0);
    let mut at_most = at_least.clone();
    at_most.kind = CheckKind::AtMost;
    at_most.bound = Some(2000.0);
    let l = lab2_with(vec![claim("", vec![at_least.clone(), at_most])]);
    let out = one(&l, &sweep("reno-9000", |_| 900.0));
    assert_eq!(out.holds, Some(false));
    let alone = one(
        &lab2_with(vec![claim("", vec![at_least])]),
        &sweep("reno-9000", |_| 900.0),
    );
    assert!(!out.detail.is_empty());
    assert_eq!(out.detail, alone.detail, "the broken bound's values, once");
}
