//! Finding labs, expanding them into sweep points and running the points
//! in parallel (for `sweep`, `fidelity` and `ablation`), and `sawtooth
//! labs`, the list of labs.

use crate::csv::csv_field;
use crate::progress::{self, Progress};
use sawtooth_core::labs::{self, Lab, PointResult, Scale};
use sawtooth_core::parallel;
use std::io::Write;

/// Labs named by id or number; every lab when none is named.
pub(crate) fn select_labs(only: &[String]) -> Result<Vec<&'static Lab>, String> {
    if only.is_empty() {
        return Ok(labs::labs().labs.iter().collect());
    }
    let mut selected: Vec<&'static Lab> = Vec::new();
    for name in only {
        let lab = find_lab(name)?;
        // A lab named twice (by id and by number) runs once.
        if !selected.iter().any(|l| l.id == lab.id) {
            selected.push(lab);
        }
    }
    Ok(selected)
}

/// Runs in parallel: as asked, else one per available core.
pub(crate) fn jobs_or_cores(jobs: Option<usize>) -> usize {
    jobs.unwrap_or_else(parallel::available_cores)
}

/// A lab by its id or its number (as `labs` lists them and `?lab=3` takes).
pub(crate) fn find_lab(name: &str) -> Result<&'static Lab, String> {
    let all = &labs::labs().labs;
    labs::lab(name)
        .or_else(|| all.iter().find(|l| l.number.to_string() == name))
        .ok_or_else(|| {
            let ids: Vec<String> = all
                .iter()
                .map(|l| format!("{} ({})", l.id, l.number))
                .collect();
            format!(
                "no lab {}; one of {} (an id or its number)",
                crate::input::clip(name),
                ids.join(", ")
            )
        })
}

pub(crate) fn list_labs(out: &mut impl Write) -> Result<(), String> {
    let io = |e: std::io::Error| e.to_string();
    writeln!(
        out,
        "number,id,title,runs_quick,runs_full,simulated_s_quick,simulated_s_full"
    )
    .map_err(io)?;
    for lab in &labs::labs().labs {
        let count = |scale| {
            lab.expand(scale)
                .map(|p| {
                    let secs: f64 = p.iter().map(|p| p.scenario.duration_ms / 1e3).sum();
                    (p.len(), secs)
                })
                .unwrap_or((0, 0.0))
        };
        let (q, qs) = count(Scale::Quick);
        let (f, fs) = count(Scale::Full);
        writeln!(
            out,
            "{},{},{},{q},{f},{qs},{fs}",
            lab.number,
            lab.id,
            csv_field(&lab.title)
        )
        .map_err(io)?;
    }
    Ok(())
}

pub(crate) use sawtooth_core::labs::sweep_file::sweep_points;

/// Run sweep points on `jobs` threads; results in the points' order.
pub(crate) fn run_points(
    lab: &'static Lab,
    points: &[labs::SweepPoint],
    scale: Scale,
    jobs: usize,
    progress: Option<&Progress>,
) -> Result<Vec<PointResult>, String> {
    if points.is_empty() {
        return Err("no points to run".into());
    }
    parallel::map_in_order(points, jobs, |point| {
        let r = labs::run_point(lab, point, scale).map_err(|e| e.to_string());
        if let Some(p) = progress {
            p.run_done(progress::work(&point.scenario));
        }
        r
    })
    .into_iter()
    .collect()
}
