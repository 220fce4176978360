//! The guided labs' WebAssembly boundary (issue 7), a thin layer over
//! `sawtooth-core`'s labs: sweeps run point by point across a pool of
//! workers; every number comes from the engine. Kept apart from
//! `sawtooth-bindings` (the single-run engine the lab page loads first) so
//! that the labs' code and embedded data (labs.json, paper.json, sweep
//! expansion, comparison, ablation, sim claims) load only with the
//! guided-labs view (issue 12). Errors are returned as JS `Error`s with a
//! message, never as panics.

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::prelude::*;

/// Deliberately trap, so the guided-labs view's recovery from a WebAssembly
/// trap (a replaced worker) can be tested end to end.
#[wasm_bindgen]
pub fn debug_trap() {
    panic!("deliberate trap requested by debug_trap()");
}

fn lab_or_error(lab_id: &str) -> Result<&'static sawtooth_core::labs::Lab, JsError> {
    sawtooth_core::labs::lab(lab_id)
        .ok_or_else(|| JsError::new(&format!("no lab with id {lab_id:?}")))
}

fn scale(quick: bool) -> sawtooth_core::labs::Scale {
    if quick {
        sawtooth_core::labs::Scale::Quick
    } else {
        sawtooth_core::labs::Scale::Full
    }
}

/// Point results gathered by the page (a JSON array of PointResult).
fn parse_results(results_json: &str) -> Result<Vec<sawtooth_core::labs::PointResult>, JsError> {
    serde_json::from_str(results_json).map_err(|e| JsError::new(&format!("results: {e}")))
}

/// The guided labs (definitions, guides, sweeps) as JSON.
#[wasm_bindgen]
pub fn labs_json() -> String {
    sawtooth_core::labs::labs_json()
}

/// The papers' published values as JSON.
#[wasm_bindgen]
pub fn paper_json() -> String {
    sawtooth_core::labs::paper_json()
}

/// Every run of a lab's sweep (series × x × seed), each with its complete
/// scenario, as a JSON array.
#[wasm_bindgen]
pub fn lab_points_json(lab_id: &str, quick: bool) -> Result<String, JsError> {
    let points = lab_or_error(lab_id)?
        .expand(scale(quick))
        .map_err(|e| JsError::new(&e.to_string()))?;
    Ok(serde_json::to_string(&points).expect("points serialise"))
}

/// Run point `index` of an expanded sweep to the end and measure it.
fn run_expanded(
    lab: &'static sawtooth_core::labs::Lab,
    points: &[sawtooth_core::labs::SweepPoint],
    quick: bool,
    index: usize,
) -> Result<sawtooth_core::labs::PointResult, String> {
    let point = points.get(index).ok_or_else(|| {
        format!(
            "lab {} has {} points, not {}",
            lab.id,
            points.len(),
            index + 1
        )
    })?;
    sawtooth_core::labs::run_point(lab, point, scale(quick)).map_err(|e| e.to_string())
}

/// Run point `index` of an expanded sweep to the end and return its
/// measured result as JSON.
fn run_expanded_point_json(
    lab: &'static sawtooth_core::labs::Lab,
    points: &[sawtooth_core::labs::SweepPoint],
    quick: bool,
    index: usize,
) -> Result<String, JsError> {
    let result = run_expanded(lab, points, quick, index).map_err(|e| JsError::new(&e))?;
    Ok(serde_json::to_string(&result).expect("result serialises"))
}

/// The last sweep expanded by this instance: (lab id, quick, ablation
/// variant or None for the lab as defined) and its points. A worker runs many points of one sweep in a row, and
/// expanding the whole sweep for each of them cost more than running a
/// small point; expansion is deterministic, so a cached copy is the same.
type Expansion = (
    String,
    bool,
    Option<u32>,
    Rc<Vec<sawtooth_core::labs::SweepPoint>>,
);

thread_local! {
    static EXPANDED: RefCell<Option<Expansion>> = const { RefCell::new(None) };
}

/// The points of a lab's sweep, as defined (`variant` None) or under an
/// ablation variant, expanded once per instance for consecutive calls on
/// the same sweep.
fn expanded(
    lab: &'static sawtooth_core::labs::Lab,
    quick: bool,
    variant: Option<u32>,
) -> Result<Rc<Vec<sawtooth_core::labs::SweepPoint>>, JsError> {
    let hit = EXPANDED.with(|c| match &*c.borrow() {
        Some((id, q, v, points)) if *id == lab.id && *q == quick && *v == variant => {
            Some(Rc::clone(points))
        }
        _ => None,
    });
    if let Some(points) = hit {
        return Ok(points);
    }
    let points = match variant {
        None => lab
            .expand(scale(quick))
            .map_err(|e| JsError::new(&e.to_string()))?,
        Some(v) => {
            sawtooth_core::ablation::expand(lab, scale(quick), v).map_err(|e| JsError::new(&e))?
        }
    };
    let points = Rc::new(points);
    EXPANDED.with(|c| {
        *c.borrow_mut() = Some((lab.id.clone(), quick, variant, Rc::clone(&points)));
    });
    Ok(points)
}

/// Run point `index` of a lab's sweep to the end and return its measured
/// result as JSON.
#[wasm_bindgen]
pub fn run_lab_point_json(lab_id: &str, quick: bool, index: usize) -> Result<String, JsError> {
    let lab = lab_or_error(lab_id)?;
    run_expanded_point_json(lab, &expanded(lab, quick, None)?, quick, index)
}

/// The lab's ablation variants (AblationVariant[]): index 0 is its profile
/// as a whole, each other turns one switch back to the plain model.
#[wasm_bindgen]
pub fn ablation_variants_json(lab_id: &str) -> Result<String, JsError> {
    let lab = lab_or_error(lab_id)?;
    Ok(serde_json::to_string(&sawtooth_core::ablation::variants(lab)).expect("variants serialise"))
}

/// Run point `index` of a lab's sweep under ablation variant `variant` to
/// the end and return its measured result as JSON.
#[wasm_bindgen]
pub fn run_ablation_point_json(
    lab_id: &str,
    quick: bool,
    variant: u32,
    index: usize,
) -> Result<String, JsError> {
    let lab = lab_or_error(lab_id)?;
    run_expanded_point_json(lab, &expanded(lab, quick, Some(variant))?, quick, index)
}

/// One variant's headline numbers and fidelity counts (AblationRow) from
/// its point results (a JSON array).
#[wasm_bindgen]
pub fn ablation_row_json(
    lab_id: &str,
    quick: bool,
    variant: u32,
    results_json: &str,
) -> Result<String, JsError> {
    let lab = lab_or_error(lab_id)?;
    let results = parse_results(results_json)?;
    let row = sawtooth_core::ablation::row(lab, scale(quick), variant, &results)
        .map_err(|e| JsError::new(&e))?;
    Ok(serde_json::to_string(&row).expect("row serialises"))
}

/// The paper's values beside the simulated ones, given the point results
/// gathered so far (a JSON array of results), as JSON.
#[wasm_bindgen]
pub fn compare_lab_json(lab_id: &str, results_json: &str) -> Result<String, JsError> {
    let lab = lab_or_error(lab_id)?;
    let results = parse_results(results_json)?;
    Ok(
        serde_json::to_string(&sawtooth_core::labs::compare(lab, &results))
            .expect("comparisons serialise"),
    )
}

/// The papers' findings for the lab, each judged on the point results
/// gathered so far (FindingOutcome[]), as JSON.
#[wasm_bindgen]
pub fn lab_findings_json(lab_id: &str, quick: bool, results_json: &str) -> Result<String, JsError> {
    let lab = lab_or_error(lab_id)?;
    let results = parse_results(results_json)?;
    Ok(
        serde_json::to_string(&sawtooth_core::sim_claims::findings::evaluate_findings(
            lab,
            scale(quick),
            &results,
        ))
        .expect("findings serialise"),
    )
}

/// What the lab's text says its runs show, each sentence filled from and
/// checked against the point results gathered so far (ClaimOutcome[]), as
/// JSON. Only the sentences made at this scale.
#[wasm_bindgen]
pub fn lab_claims_json(lab_id: &str, quick: bool, results_json: &str) -> Result<String, JsError> {
    let lab = lab_or_error(lab_id)?;
    let results = parse_results(results_json)?;
    Ok(serde_json::to_string(&sawtooth_core::sim_claims::evaluate(
        lab,
        scale(quick),
        &results,
    ))
    .expect("claims serialise"))
}

/// The seed aggregates the result charts and tables draw (SweepAggregates)
/// for the metrics named in `metrics_json` (a JSON array of metric ids),
/// from the point results gathered so far (a JSON array), as JSON.
#[wasm_bindgen]
pub fn lab_aggregates_json(
    lab_id: &str,
    quick: bool,
    metrics_json: &str,
    results_json: &str,
) -> Result<String, JsError> {
    let lab = lab_or_error(lab_id)?;
    let metrics: Vec<sawtooth_core::labs::ChartMetric> =
        serde_json::from_str(metrics_json).map_err(|e| JsError::new(&format!("metrics: {e}")))?;
    let results = parse_results(results_json)?;
    let points = expanded(lab, quick, None)?;
    Ok(serde_json::to_string(&sawtooth_core::labs::aggregate_sweep(
        lab, &points, &results, &metrics,
    ))
    .expect("aggregates serialise"))
}

/// The lab's series ranked as the paper ranked them (`null` when the lab
/// has no ranking): [[series, combined, standard], ...].
#[wasm_bindgen]
pub fn rank_lab_json(lab_id: &str, results_json: &str) -> Result<String, JsError> {
    let lab = lab_or_error(lab_id)?;
    let results = parse_results(results_json)?;
    Ok(
        serde_json::to_string(&sawtooth_core::labs::rank_series(lab, &results))
            .expect("ranking serialises"),
    )
}

/// A sweep file written by `sawtooth sweep` or `sawtooth merge`, opened
/// for lab `lab_id` at this scale and checked by the engine (the file's
/// lab, scale, engine build, records, rows and digest): its runs, or why it
/// is refused with the line (SweepFileOutcome), as JSON. A refusal is an
/// answer, not an error.
#[wasm_bindgen]
pub fn open_sweep_file_json(text: &str, lab_id: &str, quick: bool) -> String {
    let outcome = sawtooth_core::labs::sweep_file::SweepFileOutcome::of(text, lab_id, scale(quick));
    serde_json::to_string(&outcome).expect("outcome serialises")
}

/// The engine build this module was made from (crate version and source
/// hash), as a sweep file's closing line states it.
#[wasm_bindgen]
pub fn engine_id() -> String {
    sawtooth_core::labs::sweep_file::engine_id()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_sent_back_by_the_page_read_as_the_values_measured() {
        // The page holds results as JSON-parsed numbers and sends them back
        // for the comparison and the aggregates: each must read back as the
        // very f64 measured (serde_json's float_roundtrip), or a drawn mean
        // of one run would differ from the run's value in the last bit.
        let Ok(lab) = lab_or_error("txqueuelen") else {
            panic!("lab 3 is shipped")
        };
        let Ok(points) = expanded(lab, true, None) else {
            panic!("lab 3 expands")
        };
        let mut result = run_expanded(lab, &points, true, 0).expect("point 0 runs");
        result.total_throughput_mbps = 915.4448256000001;
        let json = serde_json::to_string(&[&result]).unwrap();
        let Ok(back) = parse_results(&json) else {
            panic!("results parse")
        };
        assert_eq!(
            back[0].total_throughput_mbps.to_bits(),
            result.total_throughput_mbps.to_bits()
        );
        let metrics = [sawtooth_core::labs::ChartMetric::Measured(
            sawtooth_core::labs::Metric::TotalThroughputMbps,
        )];
        let agg = sawtooth_core::labs::aggregate_sweep(lab, &points, &back, &metrics);
        assert_eq!(agg.at_x[0].mean, Some(915.4448256000001));
    }

    #[test]
    fn a_sweep_file_opens_as_its_runs_or_is_refused_with_a_line() {
        let lab = lab_or_error("dctcp-threshold").ok().expect("lab 14");
        let points = expanded(lab, true, None).ok().expect("expands");
        let results: Vec<_> = (0..points.len())
            .map(|i| run_expanded(lab, &points, true, i).expect("runs"))
            .collect();
        let text = sawtooth_core::labs::sweep_file::write(
            lab,
            sawtooth_core::labs::Scale::Quick,
            &[],
            &points,
            &results,
        );
        let v: serde_json::Value =
            serde_json::from_str(&open_sweep_file_json(&text, "dctcp-threshold", true)).unwrap();
        assert_eq!(v["status"], "opened");
        assert_eq!(v["quick"], true);
        assert_eq!(v["indices"].as_array().unwrap().len(), points.len());
        let back: Vec<sawtooth_core::labs::PointResult> =
            serde_json::from_value(v["results"].clone()).unwrap();
        // Every value as run; the engine's flags are not in the file.
        let unflagged: Vec<_> = results
            .into_iter()
            .map(|r| sawtooth_core::labs::PointResult { flags: None, ..r })
            .collect();
        assert_eq!(back, unflagged);
        let v: serde_json::Value =
            serde_json::from_str(&open_sweep_file_json(&text, "dctcp-threshold", false)).unwrap();
        assert_eq!(v["status"], "refused");
        assert_eq!(v["line"], text.lines().count());
        assert!(v["message"].as_str().unwrap().contains("quick scale"));
    }
}
