//! A sweep's paper comparison as CSV: one row per published value. The
//! runs' CSV (one row per run) and how a field or a number is written are
//! the engine's (`sawtooth_core::labs::points_csv`), shared with the
//! sweep file the page opens.

use sawtooth_core::labs::{self, Lab, PointResult, Relation};
pub(crate) use sawtooth_core::labs::{csv_field, short};
use std::io::Write;

fn opt(v: Option<f64>) -> String {
    v.map(short).unwrap_or_default()
}

pub(crate) fn write_comparison(
    lab: &Lab,
    results: &[PointResult],
    out: &mut impl Write,
) -> Result<(), String> {
    let io = |e: std::io::Error| e.to_string();
    writeln!(
        out,
        "key,series,metric,group,relation,relative_to,relative_to_x,at,paper,paper_low,paper_high,simulated,difference,unit,points,source"
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
            opt(c.relative_to_x),
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
