//! `sawtooth fidelity`: every lab's paper comparison as one Markdown report.

use crate::csv::short;
use crate::lab::{jobs_or_cores, run_points, select_labs, sweep_points};
use crate::output;
use crate::progress::{self, Progress};
use sawtooth_core::fidelity::{self, Agreement, LabFidelity, EFFECT_FACTOR, VALUE_TOLERANCE};
use sawtooth_core::labs::{self, Lab, Scale};
use sawtooth_core::sim_claims::findings::FindingStatus;
use sawtooth_core::sim_claims::{self, ClaimOutcome};
use std::fmt::Write as _;

pub fn run(
    quick: bool,
    jobs: Option<usize>,
    only: &[String],
    path: &str,
    out: &mut impl std::io::Write,
) -> Result<(), String> {
    output::check_writable(path, "--out")?;
    let scale = if quick { Scale::Quick } else { Scale::Full };
    let jobs = jobs_or_cores(jobs);
    let sweeps = select_labs(only)?
        .into_iter()
        .map(|lab| Ok((lab, sweep_points(lab, scale, &[])?)))
        .collect::<Result<Vec<_>, String>>()?;
    let all = sweeps.iter().flat_map(|(_, points)| points);
    let progress = Progress::new(
        all.clone().count() as u64,
        all.map(|p| progress::work(&p.scenario)).sum(),
    );
    let mut reports = Vec::new();
    for (lab, points) in &sweeps {
        progress.set_stage(&format!("lab {} {}", lab.number, lab.id));
        let results = run_points(lab, points, scale, jobs, Some(&progress));
        let results = match results {
            Ok(r) => r,
            Err(e) => {
                progress.finish();
                return Err(e);
            }
        };
        let claims = sim_claims::evaluate(lab, scale, &results);
        reports.push((*lab, fidelity::assess(lab, scale, &results), claims));
    }
    progress.finish();
    let text = report(scale, &reports);
    output::write_to(text.as_bytes(), path, out)
}

fn profile_of(lab: &Lab) -> String {
    lab.base.profile.clone()
}

fn report(scale: Scale, reports: &[(&Lab, LabFidelity, Vec<ClaimOutcome>)]) -> String {
    let mut s = String::new();
    let scale_name = match scale {
        Scale::Quick => "quick (browser-sized sweeps, `--quick`)",
        Scale::Full => "faithful (the paper's windows, durations and repetitions)",
    };
    let _ = writeln!(s, "# Fidelity: the simulation beside the papers\n");
    let _ = writeln!(
        s,
        "Written by `sawtooth fidelity{}` at the {scale_name} scale. A report, not a test: \
         each published value beside the simulated one, the paper's findings held or broken, \
         whether the orderings and trends the paper's numbers imply hold, and a summary. A \
         value counts as reproduced within ±{:.0} %; a range the paper states, by being inside \
         it (no middle value is invented); an effect (a difference or gain between two \
         series), by having the paper's sign and a size within a factor of {} of the paper's. \
         Paper values within {:.0} % of each other make no ordering claim; orderings are \
         averaged per lab, so one lab's all-pairs list does not dominate. A lab agrees with its \
         paper only when every compared value and every finding its runs decide holds. Model \
         gaps are listed per lab in the guided labs' \"where the simulator differs\" and in \
         docs/profiles.md.\n",
        if scale == Scale::Quick {
            " --quick"
        } else {
            ""
        },
        VALUE_TOLERANCE * 100.0,
        EFFECT_FACTOR,
        fidelity::TIE_TOLERANCE * 100.0
    );
    let _ = writeln!(s, "## Summary\n");
    let _ = writeln!(
        s,
        "| lab | profile | published values agreeing | findings held | orderings held | ranking (Spearman ρ) | agrees with the paper |"
    );
    let _ = writeln!(s, "|---|---|---|---|---|---|---|");
    let (mut tv, mut tw, mut tf, mut tfh) = (0, 0, 0, 0);
    for (lab, f, _) in reports {
        tv += f.values_compared;
        tw += f.values_within_tolerance;
        tf += f.findings_decided();
        tfh += f.findings_held();
        let _ = writeln!(
            s,
            "| {}. {} | `{}` | {} / {} | {} / {} | {} / {} | {} | {} |",
            f.number,
            f.title,
            profile_of(lab),
            f.values_within_tolerance,
            f.values_compared,
            f.findings_held(),
            f.findings_decided(),
            f.orderings_held(),
            f.orderings.len(),
            f.spearman.map(|r| format!("{r:.2}")).unwrap_or("—".into()),
            match f.agrees() {
                Some(true) => "yes",
                Some(false) => "**no**",
                None => "—",
            }
        );
    }
    let per_lab: Vec<&LabFidelity> = reports.iter().map(|(_, f, _)| f).collect();
    let orderings = fidelity::mean_orderings_held_per_lab(&per_lab)
        .map(|m| format!("{:.0} % per lab", m * 100.0))
        .unwrap_or("—".into());
    let _ = writeln!(
        s,
        "| **all** | | **{tw} / {tv}** | **{tfh} / {tf}** | **{orderings}** | | |\n"
    );
    for (lab, f, claims) in reports {
        let _ = writeln!(s, "## {}. {} (`{}`)\n", f.number, f.title, f.lab);
        let sources: Vec<String> = lab
            .sources
            .iter()
            .map(|src| format!("{} ({})", labs::source_name(&src.seed), src.refs))
            .collect();
        let _ = writeln!(
            s,
            "Profile `{}`; sources: {}.\n",
            profile_of(lab),
            sources.join("; ")
        );
        if f.comparisons.is_empty() {
            let _ = writeln!(
                s,
                "The paper gives no value in its text that a run can be compared with (its values are in its figures only). Its qualitative findings are asserted in `engine-wasm/core/tests/lab_findings.rs`."
            );
        } else {
            let _ = writeln!(
                s,
                "| quantity | paper | simulated | difference | agrees | source |"
            );
            let _ = writeln!(s, "|---|---|---|---|---|---|");
        }
        for c in &f.comparisons {
            let paper = match (c.paper, c.paper_range) {
                (Some(p), Some([lo, hi])) => format!("{} ({}–{})", short(p), short(lo), short(hi)),
                (None, Some([lo, hi])) => format!("{} to {}", short(lo), short(hi)),
                (Some(p), None) => short(p),
                (None, None) => "—".into(),
            };
            let within = match c.agreement {
                Some(Agreement::WithinTolerance) => "within ±10 %".to_string(),
                Some(Agreement::InsideRange) => "inside the stated range".into(),
                Some(Agreement::EffectWithinFactor) => {
                    format!("effect within ×{EFFECT_FACTOR}")
                }
                Some(Agreement::Outside) => "**no**".into(),
                None => "—".into(),
            };
            let _ = writeln!(
                s,
                "| {} | {} {} | {} | {} | {} | {}, {} |",
                fidelity::describe(c),
                paper,
                c.unit,
                c.simulated.map(|v| format!("{v:.3}")).unwrap_or("—".into()),
                c.difference
                    .map(|v| format!("{v:+.3}"))
                    .unwrap_or("—".into()),
                within,
                labs::source_name(&c.source.seed),
                c.source.at.replace('|', "/")
            );
        }
        if !f.orderings.is_empty() {
            let _ = writeln!(
                s,
                "\nOrderings and trends the paper's values imply: {} of {} held.\n",
                f.orderings_held(),
                f.orderings.len()
            );
            for o in &f.orderings {
                let _ = writeln!(
                    s,
                    "- {} {} > {}",
                    if o.held { "held:" } else { "**broken:**" },
                    o.higher,
                    o.lower
                );
            }
        }
        if let Some(r) = f.spearman {
            let _ = writeln!(s, "\nRanking: Spearman ρ = {r:.2} against the paper's.");
        }
        if !f.findings.is_empty() {
            let _ = writeln!(
                s,
                "\nThe paper's findings ({} of {} these runs decide held):\n",
                f.findings_held(),
                f.findings_decided()
            );
            for x in &f.findings {
                let mark = match x.status {
                    FindingStatus::Held => "held:",
                    FindingStatus::Broken => "**broken:**",
                    FindingStatus::Pending => "waiting:",
                    FindingStatus::NotRunHere => "not run at this scale:",
                    FindingStatus::NotChecked => "not checked:",
                };
                let mut line = format!("- {mark} {}", x.text);
                if !x.detail.is_empty() {
                    line += &format!(" — simulated {}", x.detail.replace('|', "/"));
                }
                if x.status == FindingStatus::NotChecked {
                    if let Some(n) = &x.note {
                        line += &format!(" ({n})");
                    }
                }
                let _ = writeln!(
                    s,
                    "{line} [{}, {}]",
                    labs::source_name(&x.source.seed),
                    x.source.at
                );
            }
        }
        if !claims.is_empty() {
            let _ = writeln!(
                s,
                "\nWhat the simulation shows at this scale (the lab's own sentences, checked against these runs):\n"
            );
            for c in claims {
                let mark = match c.holds {
                    Some(true) => "holds:",
                    Some(false) => "**does not hold:**",
                    None => "not checked:",
                };
                let _ = writeln!(s, "- {mark} {}", c.text.replace('\n', " "));
            }
        }
        let _ = writeln!(s);
    }
    s
}
