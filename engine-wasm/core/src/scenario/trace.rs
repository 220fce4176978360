//! A bottleneck's delivery-opportunity trace as a scenario carries it
//! (`bottleneck.trace`); `link_trace.rs` parses, checks and schedules it.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// A delivery-opportunity trace in Mahimahi's format (`link_trace.rs`):
/// each entry is one opportunity for 1504 bytes (an IP packet of up to 1500
/// bytes and Mahimahi's 4-byte TUN header) at that millisecond; entries
/// are whole, non-decreasing milliseconds, and the trace repeats with the
/// last one as its period. Opportunities that find the queue empty are
/// lost.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export, export_to = "scenario.ts")]
pub struct LinkTrace {
    /// What the trace is called (a file name or a built-in trace's id),
    /// for display; the run does not read it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub name: Option<String>,
    /// The lines of a Mahimahi trace file, in order: one delivery
    /// opportunity each, in milliseconds from the start of the run.
    #[serde(serialize_with = "whole_numbers")]
    pub opportunities_ms: Vec<f64>,
}

/// Whole numbers written without a fraction (`12`, not `12.0`), so a
/// trace in a scenario reads like its file; other values as they are.
fn whole_numbers<S: serde::Serializer>(values: &[f64], s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeSeq;
    let mut seq = s.serialize_seq(Some(values.len()))?;
    for &x in values {
        if x.fract() == 0.0 && x.abs() < 9.007_199_254_740_992e15 {
            seq.serialize_element(&(x as i64))?;
        } else {
            seq.serialize_element(&x)?;
        }
    }
    seq.end()
}

impl LinkTrace {
    /// The trace's mean rate in b/s of opportunity bytes (1504 per
    /// opportunity, as Mahimahi counts its link's capacity); 0 for a trace
    /// that does not validate.
    pub fn mean_bps(&self) -> f64 {
        match self.opportunities_ms.last() {
            Some(&last) if last > 0.0 => {
                crate::link_trace::mean_bps_of(self.opportunities_ms.len(), last)
            }
            _ => 0.0,
        }
    }
}
