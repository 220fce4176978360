//! The lab page's first run (issue 24): the default scenario must show
//! Standard TCP's saw-tooth and what it costs, not a flat line at the link.

use sawtooth_core::record::EventKind;
use sawtooth_core::{Scenario, Simulation};

/// Window cuts (fast recoveries, timeouts, local back-offs) in the first
/// `until_s` seconds, and the run's utilisation.
fn cuts_and_utilisation(s: &Scenario, until_s: f64) -> (usize, f64) {
    let mut sim = Simulation::new(s).unwrap();
    let summary = sim.run_to_end();
    let cuts = sim
        .recorder()
        .events()
        .iter()
        .filter(|e| {
            matches!(
                e.kind,
                EventKind::FastRetransmit | EventKind::Timeout | EventKind::LocalCongestion
            ) && e.time_s <= until_s
        })
        .count();
    (cuts, summary.utilisation)
}

#[test]
fn default_run_shows_the_saw_tooth() {
    let s = Scenario::default_scenario();
    assert_eq!(s.flow_count(), 1);
    assert!(s.duration_ms >= 20_000.0);
    let (cuts, utilisation) = cuts_and_utilisation(&s, 20.0);
    // Slow start's cut, then a cycle about every 4.4 s.
    assert!(cuts >= 4, "{cuts} window cuts in the first 20 s");
    // Below the link, visibly: at most 90 % of its wire rate.
    assert!(utilisation < 0.9, "utilisation {utilisation}");
    assert!(utilisation > 0.7, "utilisation {utilisation}");
}

#[test]
fn the_old_default_showed_no_saw_tooth() {
    // What the test above guards against: one cut in 20 s at 94 %.
    let (cuts, utilisation) = cuts_and_utilisation(&Scenario::jumbo_gigabit(), 20.0);
    assert!(cuts < 3, "{cuts}");
    assert!(utilisation > 0.9, "{utilisation}");
}
