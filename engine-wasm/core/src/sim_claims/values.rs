//! The measured numbers a claim speaks of: the seed mean of a metric for
//! one series at one swept value (or averaged over several), and whether
//! every run it averages has finished at this scale.

use crate::labs::{rank_series, Lab, Metric, PointResult, Scale};
use std::fmt::{self, Display};
use std::str::FromStr;

/// Which swept values a claim looks at.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Xs {
    One(f64),
    /// Every value of the scale in [from, to].
    Range(f64, f64),
    /// Every value of the scale.
    All,
}

impl Xs {
    pub fn new(x: Option<f64>, range: Option<[f64; 2]>) -> Xs {
        match (x, range) {
            (Some(x), _) => Xs::One(x),
            (None, Some([a, b])) => Xs::Range(a.min(b), a.max(b)),
            (None, None) => Xs::All,
        }
    }

    fn contains(self, v: f64) -> bool {
        match self {
            Xs::One(x) => same_x(x, v),
            Xs::Range(a, b) => v >= a - 1e-9 && v <= b + 1e-9,
            Xs::All => true,
        }
    }
}

fn same_x(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(1.0)
}

/// One measured quantity, written `series@at:metric` or
/// `series@at:metric[group]` where `at` is a swept value, `a..b` or `*`.
#[derive(Clone, Debug, PartialEq)]
pub struct ValueRef {
    pub series: String,
    pub xs: Xs,
    pub metric: Metric,
    pub group: Option<u32>,
}

impl FromStr for ValueRef {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let bad = |why: &str| format!("{s:?} is not series@at:metric[group] ({why})");
        let (series, rest) = s.split_once('@').ok_or_else(|| bad("no @"))?;
        let (at, metric) = rest.split_once(':').ok_or_else(|| bad("no :"))?;
        let number = |t: &str| t.trim().parse::<f64>().map_err(|_| bad("at"));
        let xs = match at {
            "*" => Xs::All,
            _ => match at.split_once("..") {
                Some((a, b)) => Xs::Range(number(a)?, number(b)?),
                None => Xs::One(number(at)?),
            },
        };
        let (metric, group) = match metric.strip_suffix(']').and_then(|m| m.split_once('[')) {
            Some((m, g)) => (m, Some(g.parse::<u32>().map_err(|_| bad("group"))?)),
            None => (metric, None),
        };
        let metric: Metric = serde_json::from_value(serde_json::Value::String(metric.into()))
            .map_err(|_| bad("metric"))?;
        if series.is_empty() {
            return Err(bad("series"));
        }
        Ok(ValueRef {
            series: series.into(),
            xs,
            metric,
            group,
        })
    }
}

impl Display for ValueRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}@", self.series)?;
        match self.xs {
            Xs::One(x) => write!(f, "{x}")?,
            Xs::Range(a, b) => write!(f, "{a}..{b}")?,
            Xs::All => write!(f, "*")?,
        }
        write!(f, ":{}", self.metric.id())?;
        if let Some(g) = self.group {
            write!(f, "[{g}]")?;
        }
        Ok(())
    }
}

/// A measured value, or why there is none.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Measured {
    /// Not every run it averages has finished.
    Pending,
    /// The metric has no value in some run (no standard flow, …).
    Undefined,
    /// Infinite for a time never reached within the run.
    Value(f64),
}

/// The results of one lab at one scale, looked up the way claims need.
pub struct Runs<'a> {
    pub lab: &'a Lab,
    scale: Scale,
    results: &'a [PointResult],
    seeds: Vec<u32>,
}

impl<'a> Runs<'a> {
    pub fn new(lab: &'a Lab, scale: Scale, results: &'a [PointResult]) -> Self {
        Runs {
            lab,
            scale,
            results,
            seeds: lab.seeds(scale),
        }
    }

    /// Is the series run at this scale?
    pub fn has_series(&self, series: &str) -> bool {
        self.lab
            .series_at(self.scale)
            .iter()
            .any(|s| s.id == series)
    }

    /// The scale's swept values in the selection, in sweep order.
    pub fn xs(&self, xs: Xs) -> Vec<f64> {
        self.lab
            .values(self.scale)
            .iter()
            .filter_map(|v| v.as_number())
            .filter(|v| xs.contains(*v))
            .collect()
    }

    /// Mean over seeds of one series' metric at one swept value.
    pub fn at(&self, series: &str, x: f64, metric: Metric, group: Option<u32>) -> Measured {
        if metric == Metric::Rank {
            return Measured::Undefined;
        }
        let runs: Vec<&PointResult> = self
            .results
            .iter()
            .filter(|r| r.series == series && r.x.as_number().is_some_and(|v| same_x(v, x)))
            .collect();
        if !self.seeds.iter().all(|s| runs.iter().any(|r| r.seed == *s)) {
            return Measured::Pending;
        }
        let mut sum = 0.0;
        for r in &runs {
            match (r.value(metric, group), metric) {
                (Some(v), _) => sum += v,
                // Flow 0 never reached the rate within the run.
                (None, Metric::TimeToMaxRateS) => sum += f64::INFINITY,
                (None, _) => return Measured::Undefined,
            }
        }
        Measured::Value(sum / runs.len() as f64)
    }

    /// The quantity a reference names: for several swept values, the mean
    /// of the seed means. A rank is the series' place in the lab's ranking
    /// over every run of the scale.
    pub fn value(&self, r: &ValueRef) -> Measured {
        if r.metric == Metric::Rank {
            return self.rank(&r.series);
        }
        let xs = self.xs(r.xs);
        if xs.is_empty() {
            return Measured::Undefined;
        }
        let mut sum = 0.0;
        for x in &xs {
            match self.at(&r.series, *x, r.metric, r.group) {
                Measured::Value(v) => sum += v,
                other => return other,
            }
        }
        Measured::Value(sum / xs.len() as f64)
    }

    fn rank(&self, series: &str) -> Measured {
        let all_done = self.lab.series_at(self.scale).iter().all(|s| {
            self.xs(Xs::All)
                .iter()
                .all(|x| self.at(&s.id, *x, Metric::TotalThroughputMbps, None) != Measured::Pending)
        });
        if !all_done {
            return Measured::Pending;
        }
        rank_series(self.lab, self.results)
            .and_then(|rows| rows.iter().position(|(id, _, _)| id == series))
            .map_or(Measured::Undefined, |p| Measured::Value((p + 1) as f64))
    }
}
