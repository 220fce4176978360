//! What each guided lab says its own runs show (`guide.simulator` in
//! labs.json) is true of those runs.
//!
//! One test per lab runs the lab's sweep exactly as the page's quick scale
//! does (every point, natively) and asserts that every sentence made at
//! that scale holds, through the same evaluator the page calls. A sentence
//! that stops being true when the model changes fails here; rewrite it from
//! what the runs show, never tune the model to it. The faithful scale is
//! checked by the ignored `faithful_scale_claims` (long: run it with
//! `--release -- --ignored` after changing the model or the claims).
//!
//! Run with `--nocapture` to see each sentence filled from the runs.

use sawtooth_core::labs::{lab, labs, run_point, Lab, PointResult, Scale, SweepPoint};
use sawtooth_core::parallel;
use sawtooth_core::sim_claims::{self, ClaimOutcome};

/// Every point of the lab's sweep at this scale, run on all cores.
fn run_sweep(l: &Lab, scale: Scale) -> Vec<PointResult> {
    let points: Vec<SweepPoint> = l.expand(scale).expect("the lab expands");
    parallel::map_in_order(&points, parallel::available_cores(), |p| {
        run_point(l, p, scale).unwrap_or_else(|e| panic!("{}: {e}", p.series))
    })
}

fn report(l: &Lab, scale: Scale, outcomes: &[ClaimOutcome]) {
    for o in outcomes {
        println!(
            "lab {:>2} {scale:?} | {} {}: {} [{}]",
            l.number,
            match o.holds {
                Some(true) => "holds  ",
                Some(false) => "FAILS  ",
                None => "unknown",
            },
            o.id,
            o.text,
            o.detail
        );
    }
}

/// Every sentence the lab makes at this scale holds for its runs.
fn assert_claims_hold(id: &str, scale: Scale) {
    let l = lab(id).unwrap_or_else(|| panic!("no lab {id}"));
    let results = run_sweep(l, scale);
    let outcomes = sim_claims::evaluate(l, scale, &results);
    report(l, scale, &outcomes);
    for o in &outcomes {
        // What a student reads: placeholders filled, no internal names.
        let leaks = o.text.contains(['{', '}', '…', '—'])
            || o.text
                .split(|c: char| !c.is_alphanumeric() && c != '_')
                .any(|w| w.contains('_') || l.series.iter().any(|s| s.id == w && w.contains('-')));
        assert!(!leaks, "lab {id}, {}: {:?}", o.id, o.text);
    }
    let wrong: Vec<String> = outcomes
        .iter()
        .filter(|o| o.holds != Some(true))
        .map(|o| format!("{} ({:?}): {} [{}]", o.id, o.holds, o.text, o.detail))
        .collect();
    assert!(
        wrong.is_empty(),
        "lab {id}: what the text says is not what the {scale:?} runs show:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn every_claim_is_well_formed_and_made_at_some_scale() {
    let errors: Vec<String> = labs().labs.iter().flat_map(sim_claims::validate).collect();
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

#[test]
fn every_lab_says_what_its_quick_runs_show() {
    for l in &labs().labs {
        let made = l
            .guide
            .simulator
            .iter()
            .filter(|c| sim_claims::applies(c, l, Scale::Quick))
            .count();
        assert!(made > 0, "lab {} makes no claim at the quick scale", l.id);
    }
}

/// One test per lab (a failure names its lab), and the list of labs they
/// cover, which must be every lab in labs.json: a new lab fails
/// `every_lab_has_its_claims_test` until it is added here.
macro_rules! quick_claims_tests {
    ($($name:ident => $id:literal,)*) => {
        const REGISTERED: &[&str] = &[$($id),*];
        $(
            #[test]
            fn $name() {
                assert_claims_hold($id, Scale::Quick);
            }
        )*
    };
}

quick_claims_tests! {
    lab01_claims_hold_at_quick_scale => "back-to-back",
    lab02_claims_hold_at_quick_scale => "back-to-back-30ms",
    lab03_claims_hold_at_quick_scale => "txqueuelen",
    lab04_claims_hold_at_quick_scale => "two-to-one",
    lab05_claims_hold_at_quick_scale => "scalable-ab",
    lab06_claims_hold_at_quick_scale => "txqueuelen-two-to-one",
    lab07_claims_hold_at_quick_scale => "parallel-streams",
    lab08_claims_hold_at_quick_scale => "ten-into-one",
    lab09_claims_hold_at_quick_scale => "rtt-fairness",
    lab10_claims_hold_at_quick_scale => "highspeed-many-flows",
    lab11_claims_hold_at_quick_scale => "low-ssthresh",
    lab12_claims_hold_at_quick_scale => "bufferbloat-aqm",
    lab13_claims_hold_at_quick_scale => "bbr-vs-cubic",
    lab14_claims_hold_at_quick_scale => "dctcp-threshold",
    lab15_claims_hold_at_quick_scale => "two-rtts",
    lab16_claims_hold_at_quick_scale => "l4s-dualpi2",
    lab17_claims_hold_at_quick_scale => "cellular-trace",
    lab18_claims_hold_at_quick_scale => "bbr3-vs-cubic",
}

#[test]
fn every_lab_has_its_claims_test() {
    let ids: Vec<&str> = labs().labs.iter().map(|l| l.id.as_str()).collect();
    assert_eq!(
        REGISTERED,
        ids.as_slice(),
        "register each lab in quick_claims_tests!, in labs.json's order"
    );
}

/// The faithful scale: hours of simulated time (tens of minutes in
/// release). `SAWTOOTH_LABS=id,id` checks only those labs.
#[test]
#[ignore]
fn faithful_scale_claims() {
    let only = std::env::var("SAWTOOTH_LABS").ok();
    for l in &labs().labs {
        if only
            .as_ref()
            .is_none_or(|o| o.split(',').any(|id| id == l.id))
        {
            assert_claims_hold(&l.id, Scale::Full);
        }
    }
}
