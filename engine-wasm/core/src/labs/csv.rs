//! A sweep's runs as CSV: one row per run with every metric and the
//! paper's value beside it (what `sawtooth sweep` and `sawtooth merge`
//! write, and what a sweep file's rows are checked against), and how the
//! CSV writes a field or a number.

use super::compare::paper_value_at;
use super::measure::PointResult;
use super::metric::Metric;
use super::paper::Relation;
use super::paper_values;
use super::spec::Lab;
use std::fmt::Write;

/// A CSV field: quoted when it holds a comma, a quote or a line break.
pub fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

fn opt(v: Option<f64>) -> String {
    v.map(short).unwrap_or_default()
}

/// A metric for CSV: at most six decimals, trailing zeros dropped.
pub fn short(v: f64) -> String {
    if !v.is_finite() {
        return String::new();
    }
    let s = format!("{v:.6}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".into()
    } else {
        s.into()
    }
}

/// The CSV of `results` (a header line, then one row per result, each line
/// ended by `\n`).
pub fn points_csv(lab: &Lab, results: &[PointResult]) -> String {
    let mut out = String::new();
    let groups = results
        .iter()
        .map(|r| r.group_throughput_mbps.len())
        .max()
        .unwrap_or(0);
    // The (metric, group) pairs the paper gives absolute values for.
    let mut paper_cols: Vec<(Metric, Option<u32>)> = Vec::new();
    for v in paper_values(&lab.id) {
        if v.relation == Relation::Value
            && v.metric != Metric::Rank
            && !paper_cols.contains(&(v.metric, v.group))
        {
            paper_cols.push((v.metric, v.group));
        }
    }
    let mut header: Vec<String> = ["lab", "series", "x", "seed", "groups"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    // Metrics measured on request appear only for the labs that list them.
    let on_request: Vec<Metric> = Metric::ON_REQUEST
        .into_iter()
        .filter(|m| lab.metrics.contains(m))
        .collect();
    let group_share = lab.metrics.contains(&Metric::GroupShare);
    let group_delay = lab.metrics.contains(&Metric::GroupQueueDelayMs);
    header.extend(Metric::SCALARS.iter().map(|m| m.id().to_string()));
    header.extend(on_request.iter().map(|m| m.id().to_string()));
    header.extend((0..groups).map(|g| format!("group{g}_throughput_mbps")));
    if group_share {
        header.extend((0..groups).map(|g| format!("group{g}_share")));
    }
    if group_delay {
        header.extend((0..groups).map(|g| format!("group{g}_queue_delay_ms")));
    }
    header.push("flow_throughput_mbps".into());
    for (m, g) in &paper_cols {
        let name = match g {
            Some(g) => format!("{}_g{g}", m.id()),
            None => m.id().to_string(),
        };
        header.push(format!("paper_{name}"));
        header.push(format!("difference_{name}"));
    }
    let _ = writeln!(out, "{}", header.join(","));
    for r in results {
        let mut row = vec![
            r.lab.clone(),
            r.series.clone(),
            csv_field(&r.x.to_string()),
            r.seed.to_string(),
            csv_field(&r.group_labels.join("|")),
        ];
        row.extend(Metric::SCALARS.iter().map(|m| opt(r.value(*m, None))));
        row.extend(on_request.iter().map(|m| opt(r.value(*m, None))));
        row.extend((0..groups).map(|g| opt(r.group_throughput_mbps.get(g).copied())));
        if group_share {
            row.extend((0..groups).map(|g| opt(r.value(Metric::GroupShare, Some(g as u32)))));
        }
        if group_delay {
            row.extend(
                (0..groups).map(|g| opt(r.value(Metric::GroupQueueDelayMs, Some(g as u32)))),
            );
        }
        row.push(
            r.flow_throughput_mbps
                .iter()
                .map(|v| format!("{v:.3}"))
                .collect::<Vec<_>>()
                .join(";"),
        );
        for (m, g) in &paper_cols {
            let paper = paper_value_at(&lab.id, &r.series, &r.x, *m, *g).and_then(|v| v.value);
            let sim = r.value(*m, *g);
            row.push(opt(paper));
            row.push(opt(paper.zip(sim).map(|(p, s)| s - p)));
        }
        let _ = writeln!(out, "{}", row.join(","));
    }
    out
}
