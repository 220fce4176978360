//! Which mechanism a lab's result depends on: the lab's headline numbers
//! with its testbed profile as a whole, and with each of the profile's
//! switches turned back, one at a time, to the engine's plain model
//! (`sawtooth-1`). Pure functions: the CLI (`sawtooth ablation`) and the
//! browser run the points and hand the results back here.

use crate::fidelity::{self, value_within};
#[cfg(test)]
use crate::labs::UnknownSetting;
use crate::labs::{Comparison, Lab, Metric, PointResult, Scale, SweepPoint};
use crate::profile::{self, MechanismOverrides, Mechanisms, SwitchId, SAWTOOTH_1};
use serde::Serialize;
use ts_rs::TS;

/// The setting each switch is turned back to: the engine before testbed
/// profiles (one mechanism per switch, the textbook one).
pub const REFERENCE_PROFILE: &str = profile::LEGACY_PROFILE;

/// One run of the lab's sweep: the profile as a whole (`switch: null`), or
/// with one switch turned back.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
#[ts(export, export_to = "ablation.ts")]
pub struct AblationVariant {
    pub index: u32,
    pub switch: Option<SwitchId>,
    /// "linux-2.4 as a whole" or the switch's name.
    pub label: String,
    /// The profile's setting of the switch, in words (empty for the whole profile).
    pub profile_value: String,
    /// The setting it is turned back to.
    pub turned_back_to: String,
    pub overrides: MechanismOverrides,
    /// For a stated unknown at one end of its plausible range: which, and
    /// the value run (the switches as the profile sets them).
    pub unknown: Option<UnknownAt>,
}

/// A stated unknown of the lab set to one value.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
#[ts(export, export_to = "ablation.ts")]
pub struct UnknownAt {
    pub id: String,
    pub value: f64,
}

/// One headline number of a lab under one variant.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
#[ts(export, export_to = "ablation.ts")]
pub struct HeadlineValue {
    /// The published value's key (null for a series mean).
    pub key: Option<String>,
    pub series: String,
    pub metric: Metric,
    /// Plain-text name (the CLI's column heading).
    pub label: String,
    pub unit: String,
    /// The published value, where the paper gives one.
    pub paper: Option<f64>,
    pub simulated: Option<f64>,
}

/// A variant's headline numbers and how close it comes to the paper.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
#[ts(export, export_to = "ablation.ts")]
pub struct AblationRow {
    pub variant: AblationVariant,
    pub headline: Vec<HeadlineValue>,
    pub values_compared: u32,
    pub values_within_tolerance: u32,
    pub orderings_total: u32,
    pub orderings_held: u32,
    /// Spearman's ρ of the paper's ranking, for labs that rank.
    pub spearman: Option<f64>,
    /// The paper's findings these runs decide, and of those, held.
    pub findings_decided: u32,
    pub findings_held: u32,
}

fn lab_mechanisms(lab: &Lab) -> Mechanisms {
    lab.base.resolved_mechanisms()
}

/// Does the switch act in this lab at all? An algorithm's own rule only
/// where a series runs that algorithm (`SwitchId::algorithm`).
fn relevant(lab: &Lab, id: SwitchId) -> bool {
    id.algorithm().is_none_or(|alg| {
        lab.series
            .iter()
            .flat_map(|s| &s.flows)
            .any(|f| f.algorithm == alg)
    })
}

/// The variants of a lab: index 0 is the profile as a whole, then one per
/// switch that the lab's profile sets differently from the reference and
/// that acts in the lab.
pub fn variants(lab: &Lab) -> Vec<AblationVariant> {
    let mine = lab_mechanisms(lab);
    let mut out = vec![AblationVariant {
        index: 0,
        switch: None,
        label: format!("{} as a whole", lab.base.profile),
        profile_value: String::new(),
        turned_back_to: String::new(),
        overrides: MechanismOverrides::default(),
        unknown: None,
    }];
    for id in SwitchId::ALL {
        if !id.differs(&mine, &SAWTOOTH_1) || !relevant(lab, id) {
            continue;
        }
        let name = profile::switch_info(id)
            .map(|s| s.name.to_string())
            .unwrap_or_else(|| format!("{id:?}"));
        out.push(AblationVariant {
            index: out.len() as u32,
            switch: Some(id),
            label: name,
            profile_value: id.describe_value(&mine),
            turned_back_to: id.describe_value(&SAWTOOTH_1),
            overrides: lab.base.mechanisms.with_switch_from(id, &SAWTOOTH_1),
            unknown: None,
        });
    }
    for u in &lab.unknowns {
        for (end, value) in ["low", "high"].iter().zip(u.range) {
            out.push(AblationVariant {
                index: out.len() as u32,
                switch: None,
                label: format!("{} at the {end} end of its plausible range", u.name),
                profile_value: format!(
                    "{} {} (assumed)",
                    crate::sim_claims::text::round3(u.assumed),
                    u.setting.unit()
                ),
                turned_back_to: format!(
                    "{} {}",
                    crate::sim_claims::text::round3(value),
                    u.setting.unit()
                ),
                overrides: lab.base.mechanisms,
                unknown: Some(UnknownAt {
                    id: u.id.clone(),
                    value,
                }),
            });
        }
    }
    out
}

/// The lab's sweep at `scale` under variant `index`.
pub fn expand(lab: &Lab, scale: Scale, index: u32) -> Result<Vec<SweepPoint>, String> {
    let all = variants(lab);
    let v = all.get(index as usize).ok_or_else(|| {
        format!(
            "lab {} has {} ablation variants, not {}",
            lab.id,
            all.len(),
            index + 1
        )
    })?;
    let mut points = lab.expand(scale).map_err(|e| e.to_string())?;
    let unknown = v
        .unknown
        .as_ref()
        .and_then(|at| Some((lab.unknowns.iter().find(|u| u.id == at.id)?, at.value)));
    for p in &mut points {
        p.scenario.mechanisms = v.overrides;
        if let Some((u, value)) = unknown {
            u.setting.apply(&mut p.scenario, value);
        }
    }
    Ok(points)
}

/// The comparisons a lab's ablation shows: the keys listed in the lab's
/// `headline`, in that order.
fn headline_comparisons<'a>(lab: &Lab, comparisons: &'a [Comparison]) -> Vec<&'a Comparison> {
    lab.headline
        .iter()
        .filter_map(|k| comparisons.iter().find(|c| &c.key == k))
        .collect()
}

/// Labs without published values (their papers state findings, not
/// numbers) show each series' mean of the lab's first metric.
fn series_means(lab: &Lab, results: &[PointResult]) -> Vec<HeadlineValue> {
    let Some(&metric) = lab.metrics.iter().find(|m| **m != Metric::Rank) else {
        return Vec::new();
    };
    lab.series
        .iter()
        .filter_map(|s| {
            let vals: Vec<f64> = results
                .iter()
                .filter(|r| r.series == s.id)
                .filter_map(|r| r.value(metric, None))
                .collect();
            if vals.is_empty() {
                return None;
            }
            Some(HeadlineValue {
                key: None,
                series: s.id.clone(),
                metric,
                label: format!("{} {}", s.label, metric.id()),
                unit: metric.unit().into(),
                paper: None,
                simulated: Some(vals.iter().sum::<f64>() / vals.len() as f64),
            })
        })
        .collect()
}

/// A variant's row from its sweep results.
pub fn row(
    lab: &Lab,
    scale: Scale,
    index: u32,
    results: &[PointResult],
) -> Result<AblationRow, String> {
    let variant = variants(lab)
        .into_iter()
        .nth(index as usize)
        .ok_or_else(|| format!("lab {} has no ablation variant {}", lab.id, index + 1))?;
    let f = fidelity::assess(lab, scale, results);
    let picked = headline_comparisons(lab, &f.comparisons);
    let headline = if picked.is_empty() {
        series_means(lab, results)
    } else {
        picked
            .into_iter()
            .map(|c| HeadlineValue {
                key: Some(c.key.clone()),
                series: c.series.clone(),
                metric: c.metric,
                label: fidelity::describe(c),
                unit: c.unit.clone(),
                paper: c.paper,
                simulated: c.simulated,
            })
            .collect()
    };
    Ok(AblationRow {
        variant,
        headline,
        values_compared: f.values_compared as u32,
        values_within_tolerance: f.values_within_tolerance as u32,
        orderings_total: f.orderings.len() as u32,
        orderings_held: f.orderings_held() as u32,
        spearman: f.spearman,
        findings_decided: f.findings_decided() as u32,
        findings_held: f.findings_held() as u32,
    })
}

/// How many of a row's headline values are within the tolerance.
pub fn headline_within(row: &AblationRow) -> usize {
    row.headline
        .iter()
        .filter(|h| match (h.paper, h.simulated) {
            (Some(p), Some(s)) => value_within(Some(p), None, s),
            _ => false,
        })
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::labs;

    #[test]
    fn the_first_variant_is_the_whole_profile_and_each_other_turns_one_switch_back() {
        let lab = labs::lab("txqueuelen").expect("lab 3");
        let v = variants(lab);
        assert_eq!(v[0].switch, None);
        assert!(v[0].overrides.is_empty());
        let mine = lab_mechanisms(lab);
        for x in &v[1..] {
            let id = x.switch.expect("a switch");
            let m = x.overrides.apply(mine);
            assert!(!id.differs(&m, &SAWTOOTH_1), "{id:?} turned back");
            for other in SwitchId::ALL.into_iter().filter(|o| *o != id) {
                assert!(!other.differs(&m, &mine), "{other:?} untouched by {id:?}");
            }
        }
    }

    #[test]
    fn algorithm_switches_appear_only_where_the_algorithm_runs() {
        // Lab 3 runs Standard, HighSpeed and Scalable, not CUBIC.
        let lab = labs::lab("txqueuelen").expect("lab 3");
        let ids: Vec<_> = variants(lab).iter().filter_map(|v| v.switch).collect();
        assert!(ids.contains(&SwitchId::Highspeed));
        assert!(ids.contains(&SwitchId::Scalable));
        assert!(!ids.contains(&SwitchId::Cubic));
        assert!(ids.contains(&SwitchId::CwndCounting));
    }

    #[test]
    fn a_variant_sweep_carries_its_override_and_nothing_else_changes() {
        let lab = labs::lab("txqueuelen").expect("lab 3");
        let whole = expand(lab, Scale::Quick, 0).unwrap();
        let v = variants(lab);
        let k = v
            .iter()
            .position(|x| x.switch == Some(SwitchId::CwndCounting))
            .unwrap() as u32;
        let back = expand(lab, Scale::Quick, k).unwrap();
        assert_eq!(whole.len(), back.len());
        for (a, b) in whole.iter().zip(&back) {
            let mut b2 = b.scenario.clone();
            b2.mechanisms = a.scenario.mechanisms;
            assert_eq!(a.scenario, b2);
            assert_eq!(
                b.scenario.resolved_mechanisms().cwnd_counting,
                SAWTOOTH_1.cwnd_counting
            );
        }
        assert!(expand(lab, Scale::Quick, v.len() as u32).is_err());
    }

    #[test]
    fn a_stated_unknown_runs_at_each_end_of_its_range_and_changes_nothing_else() {
        let lab = labs::lab("two-to-one").expect("lab 4");
        let u = &lab.unknowns[0];
        let whole = expand(lab, Scale::Quick, 0).unwrap();
        for p in &whole {
            assert_eq!(
                u.setting.get(&p.scenario),
                u.assumed,
                "the lab runs at the assumed value"
            );
        }
        let all = variants(lab);
        let at: Vec<&AblationVariant> = all.iter().filter(|v| v.unknown.is_some()).collect();
        assert_eq!(at.len(), 2, "low and high end");
        for (v, end) in at.iter().zip(u.range) {
            assert_eq!(v.switch, None);
            let points = expand(lab, Scale::Quick, v.index).unwrap();
            assert_eq!(points.len(), whole.len());
            for (a, b) in whole.iter().zip(&points) {
                assert_eq!(u.setting.get(&b.scenario), end);
                let mut b2 = b.scenario.clone();
                u.setting.apply(&mut b2, u.assumed);
                assert_eq!(a.scenario, b2);
            }
        }
    }

    #[test]
    fn every_stated_unknown_is_assumed_by_its_lab_and_inside_a_real_range() {
        for lab in &labs::labs().labs {
            for u in &lab.unknowns {
                assert!(u.range[0] < u.range[1], "{}: {:?}", lab.id, u.range);
                assert!(!u.range_source.is_empty() && !u.why_unknown.is_empty());
                assert_eq!(u.setting.get(&lab.base), u.assumed, "{}", lab.id);
                for s in &lab.series {
                    assert!(
                        s.set.buffer_pkts.is_none()
                            || u.setting != UnknownSetting::BottleneckBufferPkts,
                        "{}: series {} sets the bottleneck the unknown varies",
                        lab.id,
                        s.id
                    );
                }
            }
        }
    }

    #[test]
    fn every_headline_key_names_a_published_value_of_its_lab() {
        for lab in &labs::labs().labs {
            let keys: Vec<String> = labs::paper_values(&lab.id)
                .iter()
                .map(|v| v.key.clone())
                .collect();
            for k in &lab.headline {
                assert!(keys.contains(k), "lab {}: headline {k} unknown", lab.id);
            }
        }
    }
}
