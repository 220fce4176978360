//! A sweep's results as CSV: one row per run with every metric and the
//! paper's value beside it, or one row per published value (the paper
//! comparison); and how the CSV writes a field or a number.

use sawtooth_core::labs::{self, Lab, Metric, PointResult, Relation};
use std::io::Write;

pub(crate) fn csv_field(s: &str) -> String {
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
pub(crate) fn short(v: f64) -> String {
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

pub(crate) fn write_points(
    lab: &Lab,
    results: &[PointResult],
    out: &mut impl Write,
) -> Result<(), String> {
    let io = |e: std::io::Error| e.to_string();
    let groups = results
        .iter()
        .map(|r| r.group_throughput_mbps.len())
        .max()
        .unwrap_or(0);
    // The (metric, group) pairs the paper gives absolute values for.
    let mut paper_cols: Vec<(Metric, Option<u32>)> = Vec::new();
    for v in labs::paper_values(&lab.id) {
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
    header.extend(Metric::SCALARS.iter().map(|m| m.id().to_string()));
    header.extend(on_request.iter().map(|m| m.id().to_string()));
    header.extend((0..groups).map(|g| format!("group{g}_throughput_mbps")));
    if group_share {
        header.extend((0..groups).map(|g| format!("group{g}_share")));
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
    writeln!(out, "{}", header.join(",")).map_err(io)?;
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
        row.push(
            r.flow_throughput_mbps
                .iter()
                .map(|v| format!("{v:.3}"))
                .collect::<Vec<_>>()
                .join(";"),
        );
        for (m, g) in &paper_cols {
            let paper =
                labs::paper_value_at(&lab.id, &r.series, &r.x, *m, *g).and_then(|v| v.value);
            let sim = r.value(*m, *g);
            row.push(opt(paper));
            row.push(opt(paper.zip(sim).map(|(p, s)| s - p)));
        }
        writeln!(out, "{}", row.join(",")).map_err(io)?;
    }
    Ok(())
}

pub(crate) fn write_comparison(
    lab: &Lab,
    results: &[PointResult],
    out: &mut impl Write,
) -> Result<(), String> {
    let io = |e: std::io::Error| e.to_string();
    writeln!(
        out,
        "key,series,metric,group,relation,relative_to,at,paper,paper_low,paper_high,simulated,difference,unit,points,source"
    )
    .map_err(io)?;
    for c in labs::compare(lab, results) {
        let relation = match c.relation {
            Relation::Value => "value",
            Relation::Difference => "difference",
            Relation::Percent => "percent",
        };
        let row = [
            csv_field(&c.key),
            c.series.clone(),
            c.metric.id().to_string(),
            c.group.map(|g| g.to_string()).unwrap_or_default(),
            relation.to_string(),
            c.relative_to.clone().unwrap_or_default(),
            csv_field(&c.at),
            opt(c.paper),
            opt(c.paper_range.map(|r| r[0])),
            opt(c.paper_range.map(|r| r[1])),
            opt(c.simulated),
            opt(c.difference),
            csv_field(&c.unit),
            c.points.to_string(),
            csv_field(&format!(
                "{} {}",
                labs::source_name(&c.source.seed),
                c.source.at
            )),
        ];
        writeln!(out, "{}", row.join(",")).map_err(io)?;
    }
    Ok(())
}
