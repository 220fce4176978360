//! `sawtooth sweep` and `sawtooth merge`: a lab's sweep run natively
//! (whole, or one shard of it) and written as CSV or as its paper
//! comparison; shard files joined back into the whole sweep's output.

use crate::csv::write_comparison;
use crate::lab::{find_lab, jobs_or_cores, run_points, sweep_points};
use crate::output;
use crate::progress::{self, Progress};
use crate::shard;
use sawtooth_core::labs::{self, sweep_file, Scale};
use std::io::Write;

/// Write `bytes` to `path` (`-` or none: to `out`). Callers write once,
/// after every run has finished, so a stopped job leaves no file (and the
/// merge refuses a truncated one).
fn emit(bytes: &[u8], path: Option<&str>, out: &mut impl Write) -> Result<(), String> {
    output::write_to(bytes, path.unwrap_or(output::STDOUT), out)
}

/// The output files, checked before anything runs (`inputs`: files read,
/// which an output must not replace).
fn check_outputs(
    out_path: Option<&str>,
    compare_out: Option<&str>,
    inputs: &[String],
) -> Result<(), String> {
    let outputs: Vec<(&str, &str)> = [("--out", out_path), ("--compare-out", compare_out)]
        .into_iter()
        .filter_map(|(flag, p)| p.map(|p| (flag, p)))
        .collect();
    output::check_distinct(&outputs, inputs)?;
    for (flag, path) in outputs {
        output::check_writable(path, flag)?;
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
pub(crate) fn sweep(
    lab: &str,
    quick: bool,
    jobs: Option<usize>,
    compare: bool,
    compare_out: Option<&str>,
    only: &[String],
    shard: Option<shard::Shard>,
    out_path: Option<&str>,
    out: &mut impl Write,
) -> Result<(), String> {
    let lab = find_lab(lab)?;
    if shard.is_some() && (compare || compare_out.is_some()) {
        return Err(
            "--compare and --compare-out need the whole sweep: run each --shard, \
             then `sawtooth merge --compare` on the shard files"
                .into(),
        );
    }
    check_outputs(out_path, compare_out, &[])?;
    for s in only {
        if lab.series(s).is_none() {
            let ids: Vec<&str> = lab.series.iter().map(|s| s.id.as_str()).collect();
            return Err(format!(
                "lab {} has no series {s}; one of {}",
                lab.id,
                ids.join(", ")
            ));
        }
    }
    let scale = if quick { Scale::Quick } else { Scale::Full };
    let jobs = jobs_or_cores(jobs);
    let points = sweep_points(lab, scale, only)?;
    if points.is_empty() {
        return Err("no points to run".into());
    }
    let indices: Vec<usize> = match shard {
        Some(s) => shard::indices_of(&points, s),
        None => (0..points.len()).collect(),
    };
    let mine: Vec<labs::SweepPoint> = indices.iter().map(|&i| points[i].clone()).collect();
    let results = if mine.is_empty() {
        // A shard past the point count: nothing to run.
        Vec::new()
    } else {
        let progress = Progress::new(
            mine.len() as u64,
            mine.iter().map(|p| progress::work(&p.scenario)).sum(),
        );
        progress.set_stage(&match shard {
            Some(s) => format!("{} {s}", lab.id),
            None => lab.id.clone(),
        });
        let results = run_points(lab, &mine, scale, jobs, Some(&progress));
        progress.finish();
        results?
    };
    if let Some(s) = shard {
        let bytes = shard::write_shard(lab, scale, only, &points, s, &indices, &results)?;
        return emit(&bytes, out_path, out);
    }
    let whole = shard::Gathered {
        lab,
        scale,
        only: only.to_vec(),
        points,
        results,
    };
    write_sweep(&whole, compare, compare_out, out_path, out)
}

/// A whole sweep's output: its sweep file (the runs as CSV, each run's
/// exact record and the closing line that the guided lab checks), or with
/// `compare` its paper comparison; with `compare_out` the comparison also
/// to that file.
fn write_sweep(
    whole: &shard::Gathered,
    compare: bool,
    compare_out: Option<&str>,
    out_path: Option<&str>,
    out: &mut impl Write,
) -> Result<(), String> {
    let shard::Gathered {
        lab,
        scale,
        only,
        points,
        results,
    } = whole;
    if let Some(path) = compare_out {
        let mut table = Vec::new();
        write_comparison(lab, results, &mut table)?;
        emit(&table, Some(path), out)?;
    }
    let bytes = if compare {
        let mut table = Vec::new();
        write_comparison(lab, results, &mut table)?;
        table
    } else {
        sweep_file::write(lab, *scale, only, points, results).into_bytes()
    };
    emit(&bytes, out_path, out)
}

/// `sawtooth merge`: the shards' results, checked and in sweep order,
/// written exactly as the unsharded sweep writes them.
pub(crate) fn merge(
    files: &[String],
    compare: bool,
    compare_out: Option<&str>,
    out_path: Option<&str>,
    out: &mut impl Write,
) -> Result<(), String> {
    check_outputs(out_path, compare_out, files)?;
    let whole = shard::gather(files)?;
    write_sweep(&whole, compare, compare_out, out_path, out)
}
