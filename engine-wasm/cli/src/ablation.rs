//! `sawtooth ablation`: each lab's headline numbers with its profile as a
//! whole and with each switch turned back, one at a time, as Markdown.

use crate::csv::short;
use crate::lab::{jobs_or_cores, run_points, select_labs};
use crate::output;
use crate::progress::{self, Progress};
use sawtooth_core::ablation::{self, AblationRow, REFERENCE_PROFILE};
use sawtooth_core::labs::{Lab, Scale};
use std::fmt::Write as _;

pub fn run(
    faithful: bool,
    jobs: Option<usize>,
    only: &[String],
    path: &str,
    json: bool,
    out: &mut impl std::io::Write,
) -> Result<(), String> {
    output::check_writable(path, "--out")?;
    let scale = if faithful { Scale::Full } else { Scale::Quick };
    let jobs = jobs_or_cores(jobs);
    let mut text = header(scale);
    let mut all_rows = Vec::new();
    // Every lab's variants and their points, first, for one bar over all.
    let mut plan = Vec::new();
    for lab in select_labs(only)? {
        let mut variants = Vec::new();
        for v in ablation::variants(lab) {
            let points = ablation::expand(lab, scale, v.index)?;
            variants.push((v, points));
        }
        plan.push((lab, variants));
    }
    let all = plan
        .iter()
        .flat_map(|(_, vs)| vs.iter().flat_map(|(_, p)| p));
    let progress = Progress::new(
        all.clone().count() as u64,
        all.map(|p| progress::work(&p.scenario)).sum(),
    );
    let result = (|| {
        for (lab, variants) in &plan {
            progress.set_stage(&format!("lab {} {}", lab.number, lab.id));
            let mut rows = Vec::new();
            for (v, points) in variants {
                let results = run_points(lab, points, scale, jobs, Some(&progress))?;
                rows.push(ablation::row(lab, scale, v.index, &results)?);
            }
            lab_section(&mut text, lab, &rows);
            all_rows.push(rows);
        }
        Ok::<(), String>(())
    })();
    progress.finish();
    result?;
    if json {
        text = serde_json::to_string_pretty(&all_rows).expect("rows serialise") + "\n";
    }
    output::write_to(text.as_bytes(), path, out)
}

fn header(scale: Scale) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "# Ablation: which mechanism each lab's result depends on\n"
    );
    let _ = writeln!(
        s,
        "Written by `sawtooth ablation{}`. For each lab: its headline numbers with its testbed \
         profile as a whole, then with one switch at a time turned back to the plain model \
         (`{REFERENCE_PROFILE}`), then with each setting the papers do not state (a stated \
         unknown) at both ends of its plausible range. The last columns count, over all of the \
         lab's published values, those that agree (as `sawtooth fidelity` judges them), the \
         orderings held and the paper's findings held. A report, not a test.\n",
        if scale == Scale::Full {
            " --faithful"
        } else {
            ""
        },
    );
    s
}

fn lab_section(s: &mut String, lab: &Lab, rows: &[AblationRow]) {
    let _ = writeln!(s, "## {}. {} (`{}`)\n", lab.number, lab.title, lab.id);
    let Some(first) = rows.first() else { return };
    if rows.len() == 1 {
        let _ = writeln!(
            s,
            "The lab's profile (`{}`) sets every switch as the plain model does: nothing to turn back.\n",
            lab.base.profile
        );
    }
    // Columns no variant has a value for (an x the scale skips) are left out.
    let shown: Vec<usize> = (0..first.headline.len())
        .filter(|&i| {
            rows.iter()
                .any(|r| r.headline.get(i).and_then(|h| h.simulated).is_some())
        })
        .collect();
    let mut head = vec!["variant".to_string()];
    for h in shown.iter().map(|&i| &first.headline[i]) {
        let paper = h
            .paper
            .map(|p| format!(" (paper {} {})", short(p), h.unit))
            .unwrap_or_else(|| format!(" ({})", h.unit));
        head.push(format!("{}{paper}", h.label));
    }
    head.push("values agreeing".into());
    head.push("orderings held".into());
    head.push("findings held".into());
    if first.spearman.is_some() {
        head.push("Spearman ρ".into());
    }
    let _ = writeln!(s, "| {} |", head.join(" | "));
    let _ = writeln!(s, "|{}", "---|".repeat(head.len()));
    for r in rows {
        let name = match r.variant.index {
            0 => r.variant.label.clone(),
            _ => format!(
                "{}: {} → {}",
                r.variant.label, r.variant.profile_value, r.variant.turned_back_to
            ),
        };
        let mut cells = vec![name];
        for h in shown.iter().map(|&i| &r.headline[i]) {
            cells.push(
                h.simulated
                    .map(|v| short((v * 1000.0).round() / 1000.0))
                    .unwrap_or_else(|| "—".into()),
            );
        }
        cells.push(format!(
            "{} / {}",
            r.values_within_tolerance, r.values_compared
        ));
        cells.push(format!("{} / {}", r.orderings_held, r.orderings_total));
        cells.push(format!("{} / {}", r.findings_held, r.findings_decided));
        if first.spearman.is_some() {
            cells.push(r.spearman.map(|x| format!("{x:.2}")).unwrap_or("—".into()));
        }
        let _ = writeln!(s, "| {} |", cells.join(" | ").replace('\n', " "));
    }
    for u in &lab.unknowns {
        let _ = writeln!(
            s,
            "\nStated unknown, {}: {} The lab assumes {}; the last rows run it at {} and {} ({})",
            u.name,
            u.why_unknown,
            short(u.assumed),
            short(u.range[0]),
            short(u.range[1]),
            u.range_source
        );
    }
    let _ = writeln!(s);
}
