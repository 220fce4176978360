//! Sweep expansion: one lab at one scale becomes concrete, validated
//! scenarios, one per (series, x, seed).

use super::patch::scale_buffer;
use super::spec::{Axis, Lab, Measure, Series, SweepValue};
use crate::scenario::{Aqm, Scenario, ValidationError};
use serde::{Deserialize, Serialize};
use std::fmt::{self, Display};
use ts_rs::TS;

/// Faithful (the paper's durations and repetitions) or quick (browser-sized).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export, export_to = "labs.ts")]
pub enum Scale {
    Full,
    Quick,
}

/// One run of a sweep.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[ts(export, export_to = "labs.ts")]
pub struct SweepPoint {
    pub lab: String,
    pub series: String,
    pub x: SweepValue,
    pub seed: u32,
    /// Which series flow entry each flow came from (flow order).
    pub groups: Vec<u32>,
    pub scenario: Scenario,
}

/// A problem expanding a lab point.
#[derive(Clone, Debug, PartialEq)]
pub enum ExpandError {
    UnknownSeries(String),
    BadValue(String),
    Invalid(Vec<ValidationError>),
}

impl Display for ExpandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExpandError::UnknownSeries(s) => write!(f, "no series {s}"),
            ExpandError::BadValue(s) => write!(f, "{s}"),
            ExpandError::Invalid(errors) => {
                let lines: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
                write!(f, "invalid scenario: {}", lines.join("; "))
            }
        }
    }
}

impl Lab {
    pub fn series(&self, id: &str) -> Option<&Series> {
        self.series.iter().find(|s| s.id == id)
    }

    /// The swept values at this scale.
    pub fn values(&self, scale: Scale) -> &[SweepValue] {
        match (scale, &self.quick.values) {
            (Scale::Quick, Some(v)) => v,
            _ => &self.sweep.values,
        }
    }

    /// The seeds at this scale.
    pub fn seeds(&self, scale: Scale) -> Vec<u32> {
        match (scale, &self.quick.seeds) {
            (Scale::Quick, Some(s)) => s.clone(),
            _ if self.seeds.is_empty() => vec![self.base.seed],
            _ => self.seeds.clone(),
        }
    }

    /// The series run at this scale.
    pub fn series_at(&self, scale: Scale) -> Vec<&Series> {
        match (scale, &self.quick.series) {
            (Scale::Quick, Some(ids)) => {
                self.series.iter().filter(|s| ids.contains(&s.id)).collect()
            }
            _ => self.series.iter().collect(),
        }
    }

    pub fn measure_at(&self, scale: Scale) -> Option<&Measure> {
        match scale {
            Scale::Quick => self.quick.measure.as_ref().or(self.measure.as_ref()),
            Scale::Full => self.measure.as_ref(),
        }
    }

    /// Every run of the lab at this scale, series by series, x by x, seed
    /// by seed.
    pub fn expand(&self, scale: Scale) -> Result<Vec<SweepPoint>, ExpandError> {
        let mut points = Vec::new();
        for series in self.series_at(scale) {
            for x in self.values(scale) {
                for seed in self.seeds(scale) {
                    points.push(self.point(&series.id, x, seed, scale)?);
                }
            }
        }
        Ok(points)
    }

    /// The concrete scenario for one (series, x, seed).
    pub fn point(
        &self,
        series_id: &str,
        x: &SweepValue,
        seed: u32,
        scale: Scale,
    ) -> Result<SweepPoint, ExpandError> {
        let series = self
            .series(series_id)
            .ok_or_else(|| ExpandError::UnknownSeries(series_id.into()))?;
        let mut s = self.base.clone();
        series.set.apply(&mut s);
        if scale == Scale::Quick {
            self.quick.set.apply(&mut s);
        }
        // Assign algorithms, one group per flow of the (patched) base.
        let mut groups: Vec<Vec<u32>> = Vec::new();
        let mut i = 0usize;
        for host in &mut s.hosts {
            let mut g = Vec::new();
            for flow in &mut host.flows {
                let k = i.min(series.flows.len().saturating_sub(1));
                let spec = series.flows.get(k).ok_or_else(|| {
                    ExpandError::BadValue(format!("series {} lists no flows", series.id))
                })?;
                flow.algorithm = spec.algorithm.clone();
                flow.params = spec.params.clone();
                g.push(k as u32);
                i += 1;
            }
            groups.push(g);
        }
        self.apply_axis(&mut s, &mut groups, x)?;
        let buffer_set = series.set.buffer_pkts.is_some()
            || (scale == Scale::Quick && self.quick.set.buffer_pkts.is_some())
            || matches!(self.sweep.axis, Axis::BufferPkts | Axis::BufferBdp);
        if let (Some(factor), false) = (self.buffer_bdp_factor, buffer_set) {
            let buffer = bdp_buffer_pkts(&s, factor);
            scale_buffer(&mut s, buffer);
        }
        s.seed = seed;
        if self.start_jitter_ms > 0.0 {
            for (i, f) in s
                .hosts
                .iter_mut()
                .flat_map(|h| &mut h.flows)
                .enumerate()
                .skip(usize::from(!self.jitter_first_flow))
            {
                let u = unit_hash(seed, i as u32);
                f.start_ms = (f.start_ms + u * self.start_jitter_ms).min(s.duration_ms);
                f.start_ms = (f.start_ms * 1000.0).round() / 1000.0;
            }
        }
        let errors = s.validate();
        if !errors.is_empty() {
            return Err(ExpandError::Invalid(errors));
        }
        Ok(SweepPoint {
            lab: self.id.clone(),
            series: series.id.clone(),
            x: x.clone(),
            seed,
            groups: groups.into_iter().flatten().collect(),
            scenario: s,
        })
    }

    fn apply_axis(
        &self,
        s: &mut Scenario,
        groups: &mut Vec<Vec<u32>>,
        x: &SweepValue,
    ) -> Result<(), ExpandError> {
        let axis = self.sweep.axis;
        let bad = || {
            ExpandError::BadValue(format!(
                "{x} is not a value for {}: {}",
                axis.name(),
                axis.takes()
            ))
        };
        let number = || x.as_number().ok_or_else(bad);
        let count = |v: f64| -> Result<usize, ExpandError> {
            if v >= 1.0 && v.fract() == 0.0 {
                Ok(v as usize)
            } else {
                Err(bad())
            }
        };
        match axis {
            Axis::WindowBytes => {
                let v = number()?;
                for f in s.hosts.iter_mut().flat_map(|h| &mut h.flows) {
                    f.window_bytes = v as u32;
                }
            }
            Axis::TxqueuelenPkts => {
                let v = number()?;
                for h in &mut s.hosts {
                    h.txqueuelen_pkts = v as u32;
                }
            }
            Axis::RttMs => s.rtt_ms = number()?,
            Axis::Seed => s.seed = number()? as u32,
            Axis::BottleneckRateBps => s.bottleneck.rate_bps = number()?,
            Axis::BufferPkts => scale_buffer(s, number()? as u32),
            Axis::BufferBdp => {
                let buffer = bdp_buffer_pkts(s, number()?);
                scale_buffer(s, buffer);
            }
            Axis::MarkThresholdPkts => {
                // A series without step marking (a drop-tail reference) runs
                // the same at every K.
                let k = count(number()?)? as u32;
                if let Aqm::StepMark { threshold_pkts } = &mut s.bottleneck.aqm {
                    *threshold_pkts = Some(k);
                }
            }
            Axis::RttRatio => {
                let ratio = number()?;
                if !(ratio >= 1.0) || s.hosts.len() < 2 {
                    return Err(ExpandError::BadValue(format!(
                        "rtt_ratio needs a ratio of at least 1 and a base with two hosts or more, got {ratio} and {} hosts",
                        s.hosts.len()
                    )));
                }
                let extra_ms = (ratio - 1.0) * s.rtt_ms;
                if let Some(last) = s.hosts.last_mut() {
                    for f in &mut last.flows {
                        f.extra_delay_ms = extra_ms;
                    }
                }
            }
            Axis::InitialSsthreshPkts => {
                s.tcp.initial_ssthresh_pkts = match x {
                    SweepValue::Unlimited => None,
                    SweepValue::Number(v) => Some(*v as u32),
                    SweepValue::Pair(_) => return Err(bad()),
                }
            }
            Axis::ScalableAb => {
                let SweepValue::Pair([a, b]) = x else {
                    return Err(bad());
                };
                for f in s.hosts.iter_mut().flat_map(|h| &mut h.flows) {
                    if f.algorithm == "scalable" {
                        f.params.insert("a".into(), *a);
                        f.params.insert("b".into(), *b);
                    }
                }
            }
            Axis::StreamsPerHost => {
                let n = count(number()?)?;
                for (h, g) in s.hosts.iter_mut().zip(groups.iter_mut()) {
                    let flows = h.flows.clone();
                    let gs = g.clone();
                    h.flows.clear();
                    g.clear();
                    for (f, k) in flows.iter().zip(&gs) {
                        for _ in 0..n {
                            h.flows.push(f.clone());
                            g.push(*k);
                        }
                    }
                }
            }
            Axis::FlowPairs => {
                let n = count(number()?)?;
                if s.hosts.len() != 2 || n % 2 != 0 {
                    return Err(ExpandError::BadValue(format!(
                        "flow_pairs needs a base with two hosts and an even count, got {} hosts and {n}",
                        s.hosts.len()
                    )));
                }
                let mut hosts = Vec::new();
                let mut gs = Vec::new();
                for (h, g) in s.hosts.iter().zip(groups.iter()) {
                    for _ in 0..n / 2 {
                        hosts.push(h.clone());
                        gs.push(g.clone());
                    }
                }
                s.hosts = hosts;
                *groups = gs;
            }
        }
        Ok(())
    }
}

/// `factor` bandwidth-delay products of the bottleneck, in wire-size packets
/// (at least one).
fn bdp_buffer_pkts(s: &Scenario, factor: f64) -> u32 {
    (factor * s.bdp_pkts()).round().max(1.0) as u32
}

/// A number in [0, 1) fixed by (seed, i): SplitMix64.
fn unit_hash(seed: u32, i: u32) -> f64 {
    let mut z = ((seed as u64) << 32 | i as u64).wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    (z >> 11) as f64 / (1u64 << 53) as f64
}
