//! A claim's sentence: its placeholders (`{series-id}` for a series' label,
//! `{value:series@at:metric}` for a measured value) and how numbers and
//! swept values are written, with about three significant digits as the
//! app's tables write them.

use super::values::ValueRef;
use crate::labs::{Axis, Metric};

/// One piece of a sentence.
#[derive(Clone, Debug, PartialEq)]
pub enum Piece {
    Literal(String),
    /// A series' label.
    Label(String),
    Value(ValueRef),
}

/// Split a sentence into literal text and placeholders.
pub fn parse(template: &str) -> Result<Vec<Piece>, String> {
    let mut pieces = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        if open > 0 {
            pieces.push(Piece::Literal(rest[..open].to_string()));
        }
        let after = &rest[open + 1..];
        let close = after
            .find('}')
            .ok_or_else(|| format!("unclosed {{ in {template:?}"))?;
        let inner = &after[..close];
        if inner.contains('{') {
            return Err(format!("nested {{ in {template:?}"));
        }
        pieces.push(match inner.strip_prefix("value:") {
            Some(r) => Piece::Value(r.parse()?),
            None if !inner.is_empty() => Piece::Label(inner.to_string()),
            None => return Err(format!("empty {{}} in {template:?}")),
        });
        rest = &after[close + 1..];
    }
    if rest.contains('}') {
        return Err(format!("stray }} in {template:?}"));
    }
    if !rest.is_empty() {
        pieces.push(Piece::Literal(rest.to_string()));
    }
    Ok(pieces)
}

/// About three significant digits, no trailing zeros (the app's `formatValue`).
pub fn round3(v: f64) -> String {
    let a = v.abs();
    if a == 0.0 {
        return "0".into();
    }
    let digits = if a >= 100.0 {
        0
    } else if a >= 10.0 {
        1
    } else if a >= 1.0 {
        2
    } else if a >= 0.01 {
        3
    } else {
        // Two significant digits for very small numbers.
        let exp = a.log10().floor() as i32;
        (1 - exp) as usize
    };
    let s = format!("{v:.digits$}");
    let s = if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    };
    if s == "-0" {
        "0".into()
    } else {
        s
    }
}

/// A measured value as a sentence shows it: rates, shares, times and data
/// with their unit; counts and indices bare (the sentence names them).
pub fn number(metric: Metric, v: f64) -> String {
    if v.is_infinite() {
        return "not within the run".into();
    }
    match metric {
        Metric::StandardShare | Metric::Utilisation | Metric::GroupShare => {
            format!("{}%", round3(v * 100.0))
        }
        Metric::ProbeRttMedianMs
        | Metric::ProbeRttP99Ms
        | Metric::MeanQueueDelayMs
        | Metric::GroupQueueDelayMs => format!("{} ms", round3(v)),
        Metric::MeanQueuePkts => format!("{} {}", round3(v), plural(v, "packet", "packets")),
        Metric::MeanCapturedOutstandingKbytes => format!("{} kB", round3(v)),
        Metric::TotalThroughputMbps
        | Metric::GroupThroughputMbps
        | Metric::FlowThroughputMbps
        | Metric::StandardThroughputMbps => format!("{} Mb/s", round3(v)),
        Metric::TimeToMaxRateS => format!("{} s", round3(v)),
        Metric::MeanOutstandingKbytes => format!("{} kB", round3(v)),
        Metric::Rank => format!("rank {}", round3(v)),
        Metric::JainIndex
        | Metric::Drops
        | Metric::LocalCongestionEvents
        | Metric::CongestionEventRate => round3(v),
    }
}

/// A measured value with what it counts, for the check's detail line.
pub fn quantity(metric: Metric, v: f64) -> String {
    let n = number(metric, v);
    match metric {
        Metric::Drops => format!("{n} {}", plural(v, "drop", "drops")),
        Metric::LocalCongestionEvents => {
            format!("{n} local congestion {}", plural(v, "event", "events"))
        }
        Metric::CongestionEventRate => format!("{n} congestion events per packet"),
        Metric::JainIndex => format!("Jain's index {n}"),
        _ => n,
    }
}

/// The singular for exactly one, the plural otherwise ("1 packet", "0.5 packets").
fn plural(v: f64, one: &'static str, many: &'static str) -> &'static str {
    if v == 1.0 {
        one
    } else {
        many
    }
}

/// A swept value in its unit ("16 MB", "100 packets", "30 ms").
pub fn swept(axis: Axis, x: f64) -> String {
    const MIB: f64 = 1048576.0;
    let whole = |v: f64| round3(v);
    match axis {
        Axis::WindowBytes if x >= MIB => format!("{} MB", whole(x / MIB)),
        Axis::WindowBytes => format!("{} KB", whole(x / 1024.0)),
        Axis::BufferBdp => format!("{} BDP", whole(x)),
        Axis::TxqueuelenPkts
        | Axis::BufferPkts
        | Axis::InitialSsthreshPkts
        | Axis::MarkThresholdPkts => {
            format!("{x} {}", plural(x, "packet", "packets"))
        }
        Axis::RttMs => format!("{x} ms"),
        Axis::RttRatio => format!("RTT ratio {}", whole(x)),
        Axis::StreamsPerHost if x == 1.0 => "1 stream".into(),
        Axis::StreamsPerHost => format!("{x} streams"),
        Axis::FlowPairs => format!("{x} {}", plural(x, "flow", "flows")),
        Axis::BottleneckRateBps => format!("{} Mb/s", whole(x / 1e6)),
        Axis::Seed => format!("seed {x}"),
        Axis::ScalableAb => format!("{x}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_of_one_are_singular() {
        assert_eq!(
            quantity(Metric::LocalCongestionEvents, 1.0),
            "1 local congestion event"
        );
        assert_eq!(
            quantity(Metric::LocalCongestionEvents, 0.667),
            "0.667 local congestion events"
        );
        assert_eq!(quantity(Metric::Drops, 1.0), "1 drop");
        assert_eq!(number(Metric::MeanQueuePkts, 1.0), "1 packet");
        assert_eq!(swept(Axis::TxqueuelenPkts, 1.0), "1 packet");
        assert_eq!(swept(Axis::TxqueuelenPkts, 100.0), "100 packets");
    }
}
