//! `sawtooth lab-scenario`: the scenario of one lab point, its swept
//! value read from the command line and checked against the lab's axis.

use crate::input;
use crate::lab::find_lab;
use sawtooth_core::labs::{self, Lab, Scale, SweepValue};
use std::io::Write;

fn parse_x(x: &str) -> Result<SweepValue, String> {
    if x == "unlimited" || x == "null" {
        return Ok(SweepValue::Unlimited);
    }
    let bad = || {
        format!(
            "x = {}: expected a number, a pair a/b of numbers or \"unlimited\"",
            input::clip(x)
        )
    };
    if let Some((a, b)) = x.split_once('/') {
        let a: f64 = a.parse().map_err(|_| bad())?;
        let b: f64 = b.parse().map_err(|_| bad())?;
        return Ok(SweepValue::Pair([a, b]));
    }
    x.parse().map(SweepValue::Number).map_err(|_| bad())
}

/// A whole number for an axis that takes whole numbers: the engine would
/// truncate 10.9 to 10 (and saturate 1e20, and take -5 as 0) without a
/// word.
fn check_axis_value(lab: &Lab, x: &SweepValue, text: &str) -> Result<(), String> {
    use labs::Axis;
    let axis = lab.sweep.axis;
    let whole = match axis {
        Axis::WindowBytes
        | Axis::TxqueuelenPkts
        | Axis::StreamsPerHost
        | Axis::FlowPairs
        | Axis::Seed
        | Axis::InitialSsthreshPkts
        | Axis::BufferPkts
        | Axis::MarkThresholdPkts => true,
        Axis::RttMs
        | Axis::ScalableAb
        | Axis::BottleneckRateBps
        | Axis::BufferBdp
        | Axis::RttRatio => false,
    };
    let SweepValue::Number(v) = *x else {
        return Ok(());
    };
    // Counts (streams, flow pairs, the marking threshold K) start at 1.
    let min = match axis {
        Axis::StreamsPerHost | Axis::FlowPairs | Axis::MarkThresholdPkts => 1.0,
        _ => 0.0,
    };
    if whole && !(v.fract() == 0.0 && (min..=u32::MAX as f64).contains(&v)) {
        return Err(format!(
            "x = {}: lab {} sweeps {} ({}), which takes a whole number from {min} to {}",
            input::clip(text),
            lab.id,
            axis.name(),
            lab.sweep.unit,
            u32::MAX
        ));
    }
    Ok(())
}

pub(crate) fn lab_scenario(
    lab: &str,
    series: &str,
    x: &str,
    seed: Option<u32>,
    quick: bool,
    out: &mut impl Write,
) -> Result<(), String> {
    let lab = find_lab(lab)?;
    if lab.series(series).is_none() {
        let ids: Vec<&str> = lab.series.iter().map(|s| s.id.as_str()).collect();
        return Err(format!(
            "lab {} has no series {}; one of {}",
            lab.id,
            input::clip(series),
            ids.join(", ")
        ));
    }
    let scale = if quick { Scale::Quick } else { Scale::Full };
    let seed = seed.unwrap_or_else(|| lab.seeds(scale)[0]);
    let text = x;
    let x = parse_x(text)?;
    check_axis_value(lab, &x, text)?;
    let point = lab
        .point(series, &x, seed, scale)
        .map_err(|e| e.to_string())?;
    writeln!(
        out,
        "{}",
        serde_json::to_string_pretty(&point.scenario).expect("serialises")
    )
    .map_err(|e| e.to_string())
}
