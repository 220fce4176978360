//! `sawtooth fidelity`: every lab's paper comparison as one Markdown report.

use crate::progress::{self, Progress};
use crate::{jobs_or_cores, run_points, select_labs, short, sweep_points};
use sawtooth_core::fidelity::{self, LabFidelity, VALUE_TOLERANCE};
use sawtooth_core::labs::{self, Lab, Scale};
use sawtooth_core::sim_claims::{self, ClaimOutcome};
use std::fmt::Write as _;

pub fn run(quick: bool, jobs: Option<usize>, only: &[String], path: &str) -> Result<(), String> {
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
        reports.push((*lab, fidelity::assess(lab, &results), claims));
    }
    progress.finish();
    let text = report(scale, &reports);
    if path == "-" {
        print!("{text}");
        Ok(())
    } else {
        std::fs::write(path, text).map_err(|e| format!("cannot write {path}: {e}"))
    }
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
         each published value beside the simulated one, whether the orderings and trends the \
         paper's numbers imply hold, and a summary. A value counts as reproduced within \
         ±{:.0} % (or inside the range the paper states); paper values within {:.0} % of each \
         other make no ordering claim. Model gaps are listed per lab in the guided labs' \
         \"where the simulator differs\" and in docs/profiles.md.\n",
        if scale == Scale::Quick {
            " --quick"
        } else {
            ""
        },
        VALUE_TOLERANCE * 100.0,
        fidelity::TIE_TOLERANCE * 100.0
    );
    let _ = writeln!(s, "## Summary\n");
    let _ = writeln!(
        s,
        "| lab | profile | published values within ±10 % | orderings held | ranking (Spearman ρ) |"
    );
    let _ = writeln!(s, "|---|---|---|---|---|");
    let (mut tv, mut tw, mut to, mut th) = (0, 0, 0, 0);
    for (lab, f, _) in reports {
        tv += f.values_compared;
        tw += f.values_within_tolerance;
        to += f.orderings.len();
        th += f.orderings_held();
        let _ = writeln!(
            s,
            "| {}. {} | `{}` | {} / {} | {} / {} | {} |",
            f.number,
            f.title,
            profile_of(lab),
            f.values_within_tolerance,
            f.values_compared,
            f.orderings_held(),
            f.orderings.len(),
            f.spearman.map(|r| format!("{r:.2}")).unwrap_or("—".into())
        );
    }
    let _ = writeln!(s, "| **all** | | **{tw} / {tv}** | **{th} / {to}** | |\n");
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
                "| quantity | paper | simulated | difference | within ±10 % | source |"
            );
            let _ = writeln!(s, "|---|---|---|---|---|---|");
        }
        for c in &f.comparisons {
            let paper = match c.paper_range {
                Some([lo, hi]) => format!("{} ({}–{})", short(c.paper), short(lo), short(hi)),
                None => short(c.paper),
            };
            let within = match fidelity::within_tolerance(c) {
                Some(true) => "yes",
                Some(false) => "no",
                None => "—",
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
