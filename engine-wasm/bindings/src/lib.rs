//! The single-run engine's WebAssembly boundary: a thin `Raw*` layer over
//! `sawtooth-core`, all the lab page loads at first. A scenario goes in as
//! JSON; results come out as flat, column-oriented `Float64Array`s. Errors
//! are returned as values (a JS `Error` whose message is JSON), never as
//! panics. The guided labs' API lives in `sawtooth-lab-bindings`: nothing
//! here may reach `sawtooth_core::labs` (or ablation, sim_claims), so that
//! the linker drops their code and embedded data from this module.

use js_sys::Float64Array;
use sawtooth_core::{Scenario, Simulation, ValidationError};
use wasm_bindgen::prelude::*;

/// `{"errors":[...]}`, written straight from the slice: building a
/// `serde_json::Value` instead (the `json!` macro) would link Value's
/// serializer into the first load for nothing.
#[derive(serde::Serialize)]
struct Errors<'a> {
    errors: &'a [ValidationError],
}

fn errors_json(errors: &[ValidationError]) -> String {
    serde_json::to_string(&Errors { errors }).expect("errors serialise")
}

fn errors_to_js(errors: &[ValidationError]) -> JsError {
    JsError::new(&errors_json(errors))
}

/// The testbed profiles and their switches, for `profiles_json`.
#[derive(serde::Serialize)]
struct Profiles {
    profiles: &'static [sawtooth_core::profile::Profile],
    switches: &'static [sawtooth_core::profile::SwitchInfo],
}

/// A simulation the page advances in slices so charts grow live.
#[wasm_bindgen]
pub struct RawSimulation {
    sim: Simulation,
    rows_drained: usize,
    events_drained: usize,
}

#[wasm_bindgen]
impl RawSimulation {
    /// Parse, validate and set up a scenario. Throws an `Error` whose
    /// message is `{"errors":[{field,value,message}]}`.
    #[wasm_bindgen(constructor)]
    pub fn new(scenario_json: &str) -> Result<RawSimulation, JsError> {
        let scenario = Scenario::from_json(scenario_json).map_err(|e| errors_to_js(&e))?;
        let sim = Simulation::new(&scenario).map_err(|e| errors_to_js(&e))?;
        Ok(RawSimulation {
            sim,
            rows_drained: 0,
            events_drained: 0,
        })
    }

    /// Simulate up to `until_ns`; true once the whole duration is done.
    pub fn advance(&mut self, until_ns: f64) -> bool {
        self.sim.advance(until_ns.max(0.0) as u64)
    }

    pub fn now_ns(&self) -> f64 {
        self.sim.now_ns() as f64
    }

    pub fn duration_ns(&self) -> f64 {
        self.sim.end_ns() as f64
    }

    pub fn flow_count(&self) -> usize {
        self.sim.flow_count()
    }

    /// Events processed so far (for throughput benchmarks).
    pub fn processed_events(&self) -> f64 {
        self.sim.processed_events() as f64
    }

    /// JSON array of column names, in the order of `drain_samples`.
    pub fn sample_columns(&self) -> String {
        serde_json::to_string(self.sim.recorder().column_names()).expect("names serialise")
    }

    /// Samples recorded since the last call, column-major.
    pub fn drain_samples(&mut self) -> Float64Array {
        let rec = self.sim.recorder();
        let (from, to) = (self.rows_drained, rec.rows());
        let mut flat = Vec::with_capacity((to - from) * rec.columns().len());
        for column in rec.columns() {
            flat.extend_from_slice(&column[from..to]);
        }
        self.rows_drained = to;
        Float64Array::from(flat.as_slice())
    }

    /// Events recorded since the last call, as triples [t_s, flow, kind].
    pub fn drain_events(&mut self) -> Float64Array {
        let events = &self.sim.recorder().events()[self.events_drained..];
        let flat: Vec<f64> = events
            .iter()
            .flat_map(|e| [e.time_s, e.flow as f64, e.kind as u8 as f64])
            .collect();
        self.events_drained += events.len();
        Float64Array::from(flat.as_slice())
    }

    /// The summary of the run so far, as JSON.
    pub fn summary_json(&self) -> String {
        serde_json::to_string(&self.sim.summary()).expect("summary serialises")
    }
}

/// The queue disciplines the app's controls are generated from.
#[wasm_bindgen]
pub fn aqm_catalogue_json() -> String {
    serde_json::to_string(&sawtooth_core::aqm::catalogue::aqm_catalogue())
        .expect("AQM catalogue serialises")
}

/// The algorithm catalogue the app's controls are generated from.
#[wasm_bindgen]
pub fn catalogue_json() -> String {
    serde_json::to_string(&sawtooth_core::cc::catalogue()).expect("catalogue serialises")
}

/// The testbed profiles and their switches (docs/profiles.md), for the
/// app's profile control: `{"profiles":[...],"switches":[...]}`.
#[wasm_bindgen]
pub fn profiles_json() -> String {
    serde_json::to_string(&Profiles {
        profiles: sawtooth_core::profile::PROFILES,
        switches: sawtooth_core::profile::SWITCHES,
    })
    .expect("profiles serialise")
}

#[wasm_bindgen]
pub fn default_scenario_json() -> String {
    Scenario::default_scenario().to_json()
}

/// `{"errors":[...]}`, empty when the scenario is valid.
#[wasm_bindgen]
pub fn validate_scenario(scenario_json: &str) -> String {
    let errors = Scenario::from_json(scenario_json).err().unwrap_or_default();
    errors_json(&errors)
}

/// The resource model's `ResourceEstimate` (with `budget_bytes`) for any
/// scenario that parses, valid or not, so the app can show sizes beside
/// validation errors; `{"errors":[...]}` when it does not parse.
#[wasm_bindgen]
pub fn estimate_resources_json(scenario_json: &str) -> String {
    match Scenario::parse_json(scenario_json) {
        Ok(s) => serde_json::to_string(&sawtooth_core::resources::estimate(&s))
            .expect("estimate serialises"),
        Err(errors) => errors_json(&errors),
    }
}

/// What `read_trace_json` answers: the trace, or why the file is refused.
#[derive(serde::Serialize)]
struct TraceRead<'a> {
    trace: Option<&'a sawtooth_core::scenario::LinkTrace>,
    /// Mean rate at 1504 bytes per opportunity, b/s (0 with errors).
    mean_bps: f64,
    errors: &'a [ValidationError],
}

/// A Mahimahi trace file (one millisecond timestamp per line) read and
/// checked by the engine's rules (`LinkTrace::from_mahimahi`), for the lab
/// page's upload and built-in traces: `{"trace":{name,opportunities_ms},
/// "mean_bps":…,"errors":[]}`, or `{"trace":null,…,"errors":[…]}` naming
/// the field and the file's line.
#[wasm_bindgen]
pub fn read_trace_json(text: &str, name: &str) -> String {
    let name = (!name.is_empty()).then(|| name.to_string());
    let read = sawtooth_core::scenario::LinkTrace::from_mahimahi(text, name);
    let json = match &read {
        Ok(trace) => serde_json::to_string(&TraceRead {
            trace: Some(trace),
            mean_bps: trace.mean_bps(),
            errors: &[],
        }),
        Err(errors) => serde_json::to_string(&TraceRead {
            trace: None,
            mean_bps: 0.0,
            errors,
        }),
    };
    json.expect("a trace read serialises")
}

/// Deliberately trap, so the app's recovery from a WebAssembly trap can be
/// tested end to end.
#[wasm_bindgen]
pub fn debug_trap() {
    panic!("deliberate trap requested by debug_trap()");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_trace_file_is_read_or_refused_naming_its_line() {
        let ok: serde_json::Value =
            serde_json::from_str(&read_trace_json("1\n2\n", "x.trace")).unwrap();
        assert_eq!(ok["trace"]["opportunities_ms"], serde_json::json!([1, 2]));
        assert_eq!(ok["trace"]["name"], "x.trace");
        assert_eq!(ok["mean_bps"], 12_032_000.0);
        let bad: serde_json::Value =
            serde_json::from_str(&read_trace_json("1\n3\n2\n", "")).unwrap();
        assert!(bad["trace"].is_null());
        assert_eq!(
            bad["errors"][0]["field"],
            "bottleneck.trace.opportunities_ms[2]"
        );
        assert!(bad["errors"][0]["message"]
            .as_str()
            .unwrap()
            .starts_with("line 3 of the file"));
        let junk: serde_json::Value = serde_json::from_str(&read_trace_json("1\nx\n", "")).unwrap();
        assert_eq!(junk["errors"][0]["field"], "bottleneck.trace");
    }

    #[test]
    fn estimates_come_back_for_valid_and_over_budget_scenarios_and_errors_for_bad_json() {
        let mut s = Scenario::default_scenario();
        let ok: serde_json::Value =
            serde_json::from_str(&estimate_resources_json(&s.to_json())).unwrap();
        assert_eq!(ok["budget_bytes"], 256 * 1024 * 1024);
        assert_eq!(ok["sample_bytes"], 2000 * 15 * 8);

        s.sample_interval_ms = 1.0;
        s.duration_ms = 1_000_000.0;
        s.hosts[0].flows = vec![s.hosts[0].flows[0].clone(); 64];
        assert!(
            Scenario::from_json(&s.to_json()).is_err(),
            "over the budget"
        );
        let over: serde_json::Value =
            serde_json::from_str(&estimate_resources_json(&s.to_json())).unwrap();
        assert!(over["recorded_bytes_max"].as_u64().unwrap() > 256 * 1024 * 1024);

        let bad: serde_json::Value =
            serde_json::from_str(&estimate_resources_json("{not json")).unwrap();
        assert_eq!(bad["errors"][0]["field"], "(document)");
    }
}
