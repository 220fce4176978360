//! A run's result as a `# point` record (the lines of a shard file and of a
//! sweep file that carry each run exactly): every measured value exact
//! (floats as Rust's shortest round-trip text), read back bit for bit and
//! checked against the sweep point it claims to be.

use super::measure::PointResult;
use super::spec::Lab;
use super::sweep::SweepPoint;
use serde_json::{json, Value};

fn f(v: &f64) -> Value {
    Value::String(format!("{v:?}"))
}

fn of(v: &Option<f64>) -> Value {
    v.as_ref().map(f).unwrap_or(Value::Null)
}

fn fs(v: &[f64]) -> Value {
    Value::Array(v.iter().map(f).collect())
}

/// One run's result as a JSON object, every float exact (as text).
pub fn encode(r: &PointResult) -> Value {
    // Every field by name: a new PointResult field fails to compile here
    // until the shard format carries it.
    let PointResult {
        lab,
        series,
        x,
        seed,
        total_throughput_mbps,
        group_labels,
        group_throughput_mbps,
        flow_throughput_mbps,
        standard_throughput_mbps,
        standard_share,
        jain_index,
        utilisation,
        time_to_max_rate_s,
        flow_time_to_max_rate_s,
        drops,
        local_congestion_events,
        ecn_marks,
        timeouts,
        congestion_event_rate,
        group_congestion_event_rate,
        mean_outstanding_kbytes,
        duration_s,
        group_share,
        probe_rtt_median_ms,
        probe_rtt_p99_ms,
        mean_queue_delay_ms,
        mean_queue_pkts,
        mean_captured_outstanding_kbytes,
        group_queue_delay_ms,
        // Not carried: the engine's flags are words for the page, and the
        // CSV has no column for them (a merged or opened point lists none).
        flags: _,
    } = r;
    let mut v = json!({
        "lab": lab,
        "series": series,
        "x": x.to_string(),
        "seed": seed,
        "total_throughput_mbps": f(total_throughput_mbps),
        "group_labels": group_labels,
        "group_throughput_mbps": fs(group_throughput_mbps),
        "flow_throughput_mbps": fs(flow_throughput_mbps),
        "standard_throughput_mbps": of(standard_throughput_mbps),
        "standard_share": of(standard_share),
        "jain_index": f(jain_index),
        "utilisation": f(utilisation),
        "time_to_max_rate_s": of(time_to_max_rate_s),
        "flow_time_to_max_rate_s":
            Value::Array(flow_time_to_max_rate_s.iter().map(of).collect()),
        "drops": drops,
        "local_congestion_events": local_congestion_events,
        "ecn_marks": ecn_marks,
        "timeouts": timeouts,
        "congestion_event_rate": f(congestion_event_rate),
        "group_congestion_event_rate": fs(group_congestion_event_rate),
        "mean_outstanding_kbytes": f(mean_outstanding_kbytes),
        "duration_s": f(duration_s),
        "group_share": group_share.as_deref().map(fs).unwrap_or(Value::Null),
        "probe_rtt_median_ms": of(probe_rtt_median_ms),
        "probe_rtt_p99_ms": of(probe_rtt_p99_ms),
        "mean_queue_delay_ms": of(mean_queue_delay_ms),
        "mean_queue_pkts": of(mean_queue_pkts),
        "mean_captured_outstanding_kbytes": of(mean_captured_outstanding_kbytes),
    });
    // Only the labs that measure it carry the field, so the records of the
    // others are as they were before the metric.
    if let (Some(g), Some(obj)) = (group_queue_delay_ms, v.as_object_mut()) {
        obj.insert(
            "group_queue_delay_ms".into(),
            Value::Array(g.iter().map(of).collect()),
        );
    }
    v
}

/// Reads the fields of one `# point` record, naming what is wrong.
struct Fields<'a> {
    v: &'a Value,
    at: String,
}

impl Fields<'_> {
    fn get(&self, key: &str) -> Result<&Value, String> {
        self.v
            .get(key)
            .ok_or_else(|| format!("{}: field {key} missing", self.at))
    }

    fn bad(&self, key: &str, v: &Value, what: &str) -> String {
        format!("{}: field {key} = {v}: expected {what}", self.at)
    }

    fn float_of(&self, key: &str, v: &Value) -> Result<f64, String> {
        v.as_str()
            .and_then(|s| s.parse::<f64>().ok())
            .ok_or_else(|| self.bad(key, v, "a number as text"))
    }

    fn opt_of(&self, key: &str, v: &Value) -> Result<Option<f64>, String> {
        if v.is_null() {
            Ok(None)
        } else {
            self.float_of(key, v).map(Some)
        }
    }

    fn array(&self, key: &str) -> Result<&Vec<Value>, String> {
        let v = self.get(key)?;
        v.as_array().ok_or_else(|| self.bad(key, v, "an array"))
    }

    fn float(&self, key: &str) -> Result<f64, String> {
        self.float_of(key, self.get(key)?)
    }

    fn opt(&self, key: &str) -> Result<Option<f64>, String> {
        self.opt_of(key, self.get(key)?)
    }

    fn floats(&self, key: &str) -> Result<Vec<f64>, String> {
        self.array(key)?
            .iter()
            .map(|v| self.float_of(key, v))
            .collect()
    }

    fn count(&self, key: &str) -> Result<u64, String> {
        let v = self.get(key)?;
        v.as_u64().ok_or_else(|| self.bad(key, v, "a whole number"))
    }

    fn text(&self, key: &str) -> Result<&str, String> {
        let v = self.get(key)?;
        v.as_str().ok_or_else(|| self.bad(key, v, "text"))
    }
}

/// Rebuild one run's result, checking that it is the run of `point`.
pub fn decode(v: &Value, lab: &Lab, point: &SweepPoint, at: String) -> Result<PointResult, String> {
    let r = Fields { v, at };
    let x = point.x.to_string();
    for (key, want) in [
        ("lab", lab.id.as_str()),
        ("series", point.series.as_str()),
        ("x", x.as_str()),
    ] {
        let got = r.text(key)?;
        if got != want {
            return Err(format!(
                "{}: {key} = {got}, but this point of the sweep has {key} = {want}",
                r.at
            ));
        }
    }
    let seed = r.count("seed")?;
    if seed != point.seed as u64 {
        return Err(format!(
            "{}: seed = {seed}, but this point of the sweep has seed = {}",
            r.at, point.seed
        ));
    }
    Ok(PointResult {
        lab: lab.id.clone(),
        series: point.series.clone(),
        x: point.x.clone(),
        seed: point.seed,
        total_throughput_mbps: r.float("total_throughput_mbps")?,
        group_labels: r
            .array("group_labels")?
            .iter()
            .map(|v| {
                v.as_str()
                    .map(str::to_string)
                    .ok_or_else(|| r.bad("group_labels", v, "text"))
            })
            .collect::<Result<_, _>>()?,
        group_throughput_mbps: r.floats("group_throughput_mbps")?,
        flow_throughput_mbps: r.floats("flow_throughput_mbps")?,
        standard_throughput_mbps: r.opt("standard_throughput_mbps")?,
        standard_share: r.opt("standard_share")?,
        jain_index: r.float("jain_index")?,
        utilisation: r.float("utilisation")?,
        time_to_max_rate_s: r.opt("time_to_max_rate_s")?,
        flow_time_to_max_rate_s: r
            .array("flow_time_to_max_rate_s")?
            .iter()
            .map(|v| r.opt_of("flow_time_to_max_rate_s", v))
            .collect::<Result<_, _>>()?,
        drops: r.count("drops")?,
        local_congestion_events: r.count("local_congestion_events")?,
        ecn_marks: r.count("ecn_marks")?,
        timeouts: r.count("timeouts")?,
        congestion_event_rate: r.float("congestion_event_rate")?,
        group_congestion_event_rate: r.floats("group_congestion_event_rate")?,
        mean_outstanding_kbytes: r.float("mean_outstanding_kbytes")?,
        duration_s: r.float("duration_s")?,
        group_share: if r.get("group_share")?.is_null() {
            None
        } else {
            Some(r.floats("group_share")?)
        },
        probe_rtt_median_ms: r.opt("probe_rtt_median_ms")?,
        probe_rtt_p99_ms: r.opt("probe_rtt_p99_ms")?,
        mean_queue_delay_ms: r.opt("mean_queue_delay_ms")?,
        mean_queue_pkts: r.opt("mean_queue_pkts")?,
        mean_captured_outstanding_kbytes: r.opt("mean_captured_outstanding_kbytes")?,
        // Absent from the records of a file written before the metric.
        group_queue_delay_ms: match r.v.get("group_queue_delay_ms") {
            None | Some(Value::Null) => None,
            Some(_) => Some(
                r.array("group_queue_delay_ms")?
                    .iter()
                    .map(|v| r.opt_of("group_queue_delay_ms", v))
                    .collect::<Result<_, _>>()?,
            ),
        },
        flags: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::labs::Scale;

    #[test]
    fn a_result_survives_the_point_record_bit_for_bit() {
        let lab = crate::labs::lab("txqueuelen").unwrap();
        let point = &lab.expand(Scale::Quick).unwrap()[0];
        let r = PointResult {
            lab: lab.id.clone(),
            series: point.series.clone(),
            x: point.x.clone(),
            seed: point.seed,
            total_throughput_mbps: 0.1 + 0.2,
            group_labels: vec!["a, \"b\"|c".into()],
            group_throughput_mbps: vec![1e-300, f64::MAX],
            flow_throughput_mbps: vec![-0.0, 123.456_789_012_345_67],
            standard_throughput_mbps: None,
            standard_share: Some(1.0 / 3.0),
            jain_index: f64::NAN,
            utilisation: f64::INFINITY,
            time_to_max_rate_s: Some(9.78),
            flow_time_to_max_rate_s: vec![None, Some(2.0_f64.sqrt())],
            drops: u64::MAX,
            local_congestion_events: 1,
            ecn_marks: 2,
            timeouts: 3,
            congestion_event_rate: 5e-324,
            group_congestion_event_rate: vec![],
            mean_outstanding_kbytes: 2615.36618,
            duration_s: 10.0,
            group_share: Some(vec![0.25, 0.75]),
            probe_rtt_median_ms: Some(30.000_001),
            probe_rtt_p99_ms: None,
            mean_queue_delay_ms: Some(f64::MIN_POSITIVE),
            mean_queue_pkts: Some(1e10),
            mean_captured_outstanding_kbytes: Some(301.5),
            group_queue_delay_ms: Some(vec![Some(0.1 + 0.7), None]),
            flags: None,
        };
        let text = encode(&r).to_string();
        let back = decode(
            &serde_json::from_str(&text).unwrap(),
            lab,
            point,
            "test".into(),
        )
        .unwrap();
        assert_eq!(encode(&back).to_string(), text);
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(
            bits(&back.flow_throughput_mbps),
            bits(&r.flow_throughput_mbps)
        );
        assert_eq!(
            bits(&back.group_throughput_mbps),
            bits(&r.group_throughput_mbps)
        );
        assert_eq!(
            back.total_throughput_mbps.to_bits(),
            r.total_throughput_mbps.to_bits()
        );
        assert!(back.jain_index.is_nan());
        assert_eq!(back.congestion_event_rate.to_bits(), 1);
        let mut wrong = serde_json::from_str::<Value>(&text).unwrap();
        wrong["seed"] = 99.into();
        let e = decode(&wrong, lab, point, "f.csv point 0".into()).unwrap_err();
        assert!(e.contains("seed = 99"), "{e}");
    }
}
