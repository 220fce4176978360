//! Scenario format 1 (before testbed profiles) still reads, migrates to
//! the `sawtooth-1` profile and gives exactly the results the engine gave
//! before profiles existed: the summaries in `fixtures/v1/` were written by
//! that engine (`sawtooth run`) and are compared field for field.

use sawtooth_core::{Scenario, Simulation};
use std::path::Path;

fn fixture(name: &str) -> String {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/v1");
    std::fs::read_to_string(dir.join(name)).unwrap()
}

#[test]
fn version_1_documents_migrate_to_the_legacy_profile_with_identical_results() {
    for name in ["default", "cubic-bic-htcp-red"] {
        let text = fixture(&format!("{name}.json"));
        assert!(
            text.contains("\"version\": 1"),
            "{name} is a version-1 file"
        );
        let scenario = Scenario::from_json(&text).unwrap();
        assert_eq!(scenario.version, 2);
        assert_eq!(scenario.profile, "sawtooth-1");
        let summary = Simulation::new(&scenario).unwrap().run_to_end();
        // Compared as text: serde_json's parser is not bit-exact for
        // floats, its printer is.
        let got = serde_json::to_string_pretty(&summary).unwrap();
        let want = fixture(&format!("{name}.summary.json"));
        assert_eq!(
            got.trim(),
            want.trim(),
            "{name}: results changed for a version-1 link"
        );
    }
}

#[test]
fn the_same_scenario_on_a_testbed_profile_runs_differently() {
    let mut scenario = Scenario::from_json(&fixture("default.json")).unwrap();
    let legacy = Simulation::new(&scenario).unwrap().run_to_end();
    scenario.profile = "linux-2.4".into();
    let testbed = Simulation::new(&scenario).unwrap().run_to_end();
    assert_ne!(
        legacy.total_throughput_bps, testbed.total_throughput_bps,
        "the profile must matter"
    );
}

#[test]
fn unknown_profiles_and_bad_overrides_are_named() {
    let mut v: serde_json::Value =
        serde_json::from_str(&Scenario::default_scenario().to_json()).unwrap();
    v["profile"] = "linux-1.0".into();
    v["mechanisms"] = serde_json::json!({ "nic_ring_pkts": 100000, "cwnd_counting": "per_ack" });
    let e = Scenario::from_json(&v.to_string()).unwrap_err();
    assert_eq!(e[0].field, "profile");
    assert!(e[0].message.contains("linux-2.4"), "{}", e[0].message);
    assert_eq!(e[1].field, "mechanisms.nic_ring_pkts");
    v["mechanisms"] = serde_json::json!({ "cwnd_counting": "per_byte" });
    let e = Scenario::from_json(&v.to_string()).unwrap_err();
    assert!(e[0].field.starts_with("mechanisms"), "{:?}", e[0]);
}
