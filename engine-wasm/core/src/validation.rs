//! Reading and checking a scenario: the JSON document parsed strictly
//! (duplicate keys refused, version 1 migrated) and every rule a runnable
//! scenario obeys, each violation named by field, value and allowed range.
//! It sits above the schema (`scenario`) and asks the parts that own a rule
//! (the queue disciplines' settings, the resource model) for theirs.

use crate::cc;
use crate::profile;
use crate::scenario::{
    limits, migrate_v1, range_message, LinkTrace, Scenario, ValidationError, SCENARIO_VERSION,
};
use std::fmt::Display;

impl Scenario {
    /// Parse and validate a JSON document. Every problem is reported at once
    /// where the document parses; a malformed document gives one error
    /// naming the path where parsing stopped.
    pub fn from_json(text: &str) -> Result<Scenario, Vec<ValidationError>> {
        let scenario = Scenario::parse_json(text)?;
        let errors = scenario.validate();
        if errors.is_empty() {
            Ok(scenario)
        } else {
            Err(errors)
        }
    }

    /// Parse a JSON document (migrating version 1) without validating its
    /// values: for estimates of a scenario that may not be valid yet.
    pub fn parse_json(text: &str) -> Result<Scenario, Vec<ValidationError>> {
        crate::strict_json::no_duplicate_keys(text).map_err(|e| vec![e])?;
        let value: serde_json::Value = serde_json::from_str(text).map_err(|e| {
            vec![ValidationError {
                field: "(document)".into(),
                value: format!("line {} column {}", e.line(), e.column()),
                message: format!("is not valid JSON: {e}"),
            }]
        })?;
        let mut value = value;
        match value.get("version") {
            Some(v) if v.as_u64() == Some(SCENARIO_VERSION as u64) => {}
            Some(v) if v.as_u64() == Some(1) => migrate_v1(&mut value),
            Some(v) => {
                let message = format!(
                    "unknown scenario version; this engine reads versions 1 and {}",
                    SCENARIO_VERSION
                );
                return Err(vec![ValidationError {
                    field: "version".into(),
                    value: v.to_string(),
                    message,
                }]);
            }
            None => {
                return Err(vec![ValidationError {
                    field: "version".into(),
                    value: "(missing)".into(),
                    message: format!("is required; this engine reads version {SCENARIO_VERSION}"),
                }])
            }
        }
        let scenario: Scenario = serde_path_to_error::deserialize(value).map_err(|e| {
            let path = e.path().to_string();
            let (value, message) = plain_type_error(&e.into_inner().to_string());
            vec![ValidationError {
                field: if path == "." {
                    "(document)".into()
                } else {
                    path
                },
                value,
                message,
            }]
        })?;
        Ok(scenario)
    }

    /// Every rule violation in the scenario.
    pub fn validate(&self) -> Vec<ValidationError> {
        use limits::*;
        let mut v = Validator::default();
        v.range_f("duration_ms", self.duration_ms, DURATION_MS, "ms");
        v.range_f(
            "sample_interval_ms",
            self.sample_interval_ms,
            SAMPLE_INTERVAL_MS,
            "ms",
        );
        let in_range = |x: f64, (lo, hi): (f64, f64)| x >= lo && x <= hi;
        // The interval is blamed for the samples and the recorded bytes only
        // when what they also depend on is valid: a duration out of range,
        // or a probe interval that would record unbounded probes, is that
        // field's own error, and the interval is fine.
        let duration_ok = in_range(self.duration_ms, DURATION_MS);
        if duration_ok
            && self.sample_interval_ms > 0.0
            && self.duration_ms / self.sample_interval_ms > MAX_SAMPLES
        {
            v.push(
                "sample_interval_ms",
                self.sample_interval_ms,
                format!("gives more than {MAX_SAMPLES} samples for this duration; use a longer interval"),
            );
        }
        let probe_ok = self
            .probe
            .as_ref()
            .is_none_or(|p| p.interval_ms.is_none_or(|x| in_range(x, PROBE_INTERVAL_MS)));
        if duration_ok && probe_ok && in_range(self.sample_interval_ms, SAMPLE_INTERVAL_MS) {
            if let Some(message) = crate::resources::over_budget_message(self) {
                v.push("sample_interval_ms", self.sample_interval_ms, message);
            }
        }
        v.range_u("mtu_bytes", self.mtu_bytes, MTU_BYTES, "bytes");
        v.range_f("rtt_ms", self.rtt_ms, RTT_MS, "ms");
        v.range_f("loss_rate", self.loss_rate, LOSS_RATE, "");
        if profile::profile(&self.profile).is_none() {
            v.push(
                "profile",
                &self.profile,
                format!(
                    "is not a known profile; one of {}",
                    profile::profile_ids().join(", ")
                ),
            );
        }
        let m = &self.mechanisms;
        if let Some(x) = m.initial_rto_ms {
            v.range_f("mechanisms.initial_rto_ms", x, INITIAL_RTO_MS, "ms");
        }
        if let Some(x) = m.nic_ring_pkts {
            v.range_u("mechanisms.nic_ring_pkts", x, NIC_RING_PKTS, "packets");
        }
        if let Some(x) = m.interrupt_interval_us {
            v.range_f(
                "mechanisms.interrupt_interval_us",
                x,
                INTERRUPT_INTERVAL_US,
                "µs",
            );
        }
        if let Some(x) = m.rmem_max_bytes {
            if x != 0 {
                v.range_u(
                    "mechanisms.rmem_max_bytes",
                    x,
                    RMEM_MAX_BYTES,
                    "bytes (or 0 for none)",
                );
            }
        }
        if let Some(x) = m.host_send_limit_bps {
            if x != 0.0 {
                v.range_f(
                    "mechanisms.host_send_limit_bps",
                    x,
                    RATE_BPS,
                    "b/s (or 0 for line rate)",
                );
            }
        }
        if let Some(x) = m.delay_granularity_us {
            v.range_f(
                "mechanisms.delay_granularity_us",
                x,
                DELAY_GRANULARITY_US,
                "µs",
            );
        }
        if let Some(x) = m.nic_ring_descriptors {
            v.range_u(
                "mechanisms.nic_ring_descriptors",
                x,
                NIC_RING_DESCRIPTORS,
                "descriptors (0: the ring counted in packets)",
            );
        }
        if let Some(x) = m.small_queue_limit_bytes {
            v.range_u(
                "mechanisms.small_queue_limit_bytes",
                x,
                SMALL_QUEUE_LIMIT_BYTES,
                "bytes (0: no TCP Small Queues)",
            );
        }
        if let Some(x) = m.tx_completion_us {
            v.range_f("mechanisms.tx_completion_us", x, TX_COMPLETION_US, "µs");
        }
        if let Some(x) = m.interrupt_throttle_us {
            v.range_f(
                "mechanisms.interrupt_throttle_us",
                x,
                INTERRUPT_THROTTLE_US,
                "µs",
            );
        }
        if let Some(x) = m.timer_hz {
            v.range_u("mechanisms.timer_hz", x, TIMER_HZ, "Hz (0: exact timers)");
        }
        if let Some(x) = m.clock_tolerance_ppm {
            v.range_f(
                "mechanisms.clock_tolerance_ppm",
                x,
                CLOCK_TOLERANCE_PPM,
                "ppm",
            );
        }
        if let Some(x) = m.receiver_interrupt_us {
            v.range_f(
                "mechanisms.receiver_interrupt_us",
                x,
                RECEIVER_INTERRUPT_US,
                "µs",
            );
        }
        if let Some(x) = m.receiver_interrupt_throttle_us {
            v.range_f(
                "mechanisms.receiver_interrupt_throttle_us",
                x,
                RECEIVER_INTERRUPT_THROTTLE_US,
                "µs",
            );
        }
        v.range_u(
            "tcp.initial_cwnd_pkts",
            self.tcp.initial_cwnd_pkts,
            INITIAL_CWND_PKTS,
            "packets",
        );
        if let Some(s) = self.tcp.initial_ssthresh_pkts {
            v.range_u(
                "tcp.initial_ssthresh_pkts",
                s,
                INITIAL_SSTHRESH_PKTS,
                "packets",
            );
        }
        if let Some(isn) = self.tcp.initial_sequence {
            if !(INITIAL_SEQUENCE.0..=INITIAL_SEQUENCE.1).contains(&isn) {
                v.push(
                    "tcp.initial_sequence",
                    isn,
                    range_message((INITIAL_SEQUENCE.0 as f64, INITIAL_SEQUENCE.1 as f64), ""),
                );
            }
        }
        v.range_f(
            "bottleneck.rate_bps",
            self.bottleneck.rate_bps,
            RATE_BPS,
            "b/s",
        );
        v.range_u(
            "bottleneck.buffer_pkts",
            self.bottleneck.buffer_pkts,
            BUFFER_PKTS,
            "packets",
        );
        if let Some(trace) = &self.bottleneck.trace {
            self.validate_trace(trace, &mut v);
        }
        // The queue discipline's fields: read where construction reads them.
        let queue_mtu_bytes = self.mtu_bytes as u64 + crate::net::ETHERNET_HEADER_BYTES as u64;
        let (_, aqm_problems) = crate::aqm::settings::read(
            &self.bottleneck.aqm,
            self.bottleneck.buffer_pkts,
            queue_mtu_bytes,
        );
        v.errors.extend(aqm_problems);
        if let Some(probe) = &self.probe {
            if let Some(x) = probe.interval_ms {
                v.range_f("probe.interval_ms", x, PROBE_INTERVAL_MS, "ms");
            }
            if let Some(x) = probe.size_bytes {
                v.range_u(
                    "probe.size_bytes",
                    x,
                    (
                        PROBE_MIN_SIZE_BYTES,
                        self.mtu_bytes.max(PROBE_MIN_SIZE_BYTES),
                    ),
                    "bytes (at most mtu_bytes)",
                );
            }
        }
        if self.hosts.len() < HOSTS.0 || self.hosts.len() > HOSTS.1 {
            v.push(
                "hosts",
                self.hosts.len(),
                format!("must list between {} and {} hosts", HOSTS.0, HOSTS.1),
            );
        }
        for (h, host) in self.hosts.iter().enumerate() {
            let at = |f: &str| format!("hosts[{h}].{f}");
            v.range_f(&at("nic_bps"), host.nic_bps, RATE_BPS, "b/s");
            v.range_u(
                &at("txqueuelen_pkts"),
                host.txqueuelen_pkts,
                TXQUEUELEN_PKTS,
                "packets",
            );
            if host.flows.len() < FLOWS_PER_HOST.0 || host.flows.len() > FLOWS_PER_HOST.1 {
                v.push(
                    &at("flows"),
                    host.flows.len(),
                    format!(
                        "must list between {} and {} flows",
                        FLOWS_PER_HOST.0, FLOWS_PER_HOST.1
                    ),
                );
            }
            for (i, flow) in host.flows.iter().enumerate() {
                let at = |f: &str| format!("hosts[{h}].flows[{i}].{f}");
                v.range_u(
                    &at("window_bytes"),
                    flow.window_bytes,
                    WINDOW_BYTES,
                    "bytes",
                );
                v.range_f(
                    &at("start_ms"),
                    flow.start_ms,
                    (0.0, self.duration_ms.max(0.0)),
                    "ms",
                );
                if let Some(stop) = flow.stop_ms {
                    if !(stop > flow.start_ms) || !stop.is_finite() {
                        v.push(
                            &at("stop_ms"),
                            stop,
                            "must be after start_ms (or null to run to the end)".into(),
                        );
                    }
                }
                v.range_f(
                    &at("extra_delay_ms"),
                    flow.extra_delay_ms,
                    EXTRA_DELAY_MS,
                    "ms",
                );
                match cc::algorithm_info(&flow.algorithm) {
                    None => {
                        let known: Vec<_> = cc::catalogue().iter().map(|a| a.id).collect();
                        v.push(
                            &at("algorithm"),
                            &flow.algorithm,
                            format!("is not a known algorithm; one of {}", known.join(", ")),
                        );
                    }
                    Some(info) => {
                        for (id, value) in &flow.params {
                            match info.params.iter().find(|p| p.id == id) {
                                None => {
                                    let known: Vec<_> = info.params.iter().map(|p| p.id).collect();
                                    v.push(
                                        &at(&format!("params.{id}")),
                                        value,
                                        format!(
                                            "is not a parameter of {}; known: {}",
                                            info.id,
                                            if known.is_empty() {
                                                "none".into()
                                            } else {
                                                known.join(", ")
                                            }
                                        ),
                                    );
                                }
                                Some(p) => v.range_f(
                                    &at(&format!("params.{id}")),
                                    *value,
                                    (p.min, p.max),
                                    p.unit,
                                ),
                            }
                        }
                    }
                }
            }
        }
        // Packets in flight, once every value they depend on is valid.
        if v.errors.is_empty() {
            if let Some(message) = crate::resources::in_flight_over_budget_message(self) {
                let window = self.hosts[0].flows[0].window_bytes;
                v.push("hosts[0].flows[0].window_bytes", window, message);
            }
        }
        v.errors
    }
}

impl LinkTrace {
    /// The trace's own rules (`link_trace::check` with `limits`' bounds,
    /// and its name's length), each problem named by its field in a
    /// scenario (`bottleneck.trace.opportunities_ms[i]`); the scenario's
    /// rules (the MTU) are `Scenario::validate`'s.
    pub fn validate(&self) -> Vec<ValidationError> {
        use limits::*;
        let mut v = Validator::default();
        let field = "bottleneck.trace.opportunities_ms";
        for p in crate::link_trace::check(
            &self.opportunities_ms,
            TRACE_LINES_MAX,
            TRACE_MS.1,
            TRACE_PER_MS_MAX,
            TRACE_MEAN_BPS,
        ) {
            let at = match p.index {
                Some(i) => format!("{field}[{i}]"),
                None => field.to_string(),
            };
            v.push(&at, p.value, p.message);
        }
        if let Some(name) = &self.name {
            if name.chars().count() > TRACE_NAME_CHARS {
                v.push(
                    "bottleneck.trace.name",
                    format!("{} characters", name.chars().count()),
                    format!("is too long: at most {TRACE_NAME_CHARS} characters"),
                );
            }
        }
        v.errors
    }

    /// A Mahimahi trace file (`link_trace::parse_mahimahi`) as a trace
    /// called `name`, checked by [`LinkTrace::validate`]: for the app's
    /// upload and the CLI's `--trace`. A problem at a line says which line
    /// of the file (1-based) in its message.
    pub fn from_mahimahi(
        text: &str,
        name: Option<String>,
    ) -> Result<LinkTrace, Vec<ValidationError>> {
        let opportunities_ms = crate::link_trace::parse_mahimahi(text).map_err(|e| {
            vec![ValidationError {
                field: "bottleneck.trace".into(),
                value: if e.line == 0 {
                    String::new()
                } else {
                    format!("line {}: {:?}", e.line, e.text)
                },
                message: e.message,
            }]
        })?;
        let trace = LinkTrace {
            name,
            opportunities_ms,
        };
        let errors = trace.validate();
        if !errors.is_empty() {
            return Err(errors
                .into_iter()
                .map(|mut e| {
                    if let Some(i) = e
                        .field
                        .strip_prefix("bottleneck.trace.opportunities_ms[")
                        .and_then(|r| r.strip_suffix(']'))
                        .and_then(|i| i.parse::<usize>().ok())
                    {
                        e.message = format!("line {} of the file {}", i + 1, e.message);
                    }
                    e
                })
                .collect());
        }
        Ok(trace)
    }
}

impl Scenario {
    /// A trace-driven link's rules ([`LinkTrace::validate`]) and the MTU
    /// it carries.
    fn validate_trace(&self, trace: &LinkTrace, v: &mut Validator) {
        use limits::*;
        v.errors.extend(trace.validate());
        if !(TRACE_MTU_BYTES.0..=TRACE_MTU_BYTES.1).contains(&self.mtu_bytes) {
            v.push(
                "mtu_bytes",
                self.mtu_bytes,
                format!(
                    "must be between {} and {} bytes with bottleneck.trace: a delivery \
                     opportunity carries {} bytes, an IP packet and Mahimahi's {}-byte TUN \
                     header (Mahimahi refuses larger packets)",
                    TRACE_MTU_BYTES.0,
                    TRACE_MTU_BYTES.1,
                    crate::link_trace::OPPORTUNITY_BYTES,
                    crate::link_trace::TUN_HEADER_BYTES,
                ),
            );
        }
    }
}

#[derive(Default)]
struct Validator {
    errors: Vec<ValidationError>,
}

impl Validator {
    fn push(&mut self, field: &str, value: impl Display, message: String) {
        self.errors.push(ValidationError {
            field: field.into(),
            value: value.to_string(),
            message,
        });
    }

    fn range_f(&mut self, field: &str, value: f64, (lo, hi): (f64, f64), unit: &str) {
        if !(value >= lo && value <= hi) {
            self.push(field, value, range_message((lo, hi), unit));
        }
    }

    fn range_u(&mut self, field: &str, value: u32, (lo, hi): (u32, u32), unit: &str) {
        self.range_f(field, value as f64, (lo as f64, hi as f64), unit);
    }
}

/// A value of the wrong type in serde's words ("invalid value: integer
/// `99999999999`, expected u32") as the range messages put it: the value,
/// and what the field takes ("must be a whole number from 0 to
/// 4294967295"). Other messages (an unknown field, a missing one) stay as
/// serde writes them, with no value.
fn plain_type_error(message: &str) -> (String, String) {
    let Some(rest) = message
        .strip_prefix("invalid value: ")
        .or_else(|| message.strip_prefix("invalid type: "))
    else {
        return (String::new(), message.to_string());
    };
    let Some((found, expected)) = rest.rsplit_once(", expected ") else {
        return (String::new(), message.to_string());
    };
    let takes = match expected {
        "u8" => "a whole number from 0 to 255".to_string(),
        "u16" => "a whole number from 0 to 65535".to_string(),
        "u32" => format!("a whole number from 0 to {}", u32::MAX),
        "u64" | "usize" => "a whole number of at least 0".to_string(),
        "f64" | "f32" => "a number".to_string(),
        "a boolean" => "true or false".to_string(),
        "a string" => "text in quotes".to_string(),
        _ => return (String::new(), message.to_string()),
    };
    // The value as written: `99`, "20", or the kind (null, a list, an object).
    let value = match (found.find('`'), found.rfind('`')) {
        (Some(a), Some(b)) if b > a => found[a + 1..b].to_string(),
        _ => match (found.find('"'), found.rfind('"')) {
            (Some(a), Some(b)) if b > a => found[a..=b].to_string(),
            _ => found.to_string(),
        },
    };
    let kind = if found.starts_with("string") {
        ", not text"
    } else {
        ""
    };
    (value, format!("must be {takes}{kind}"))
}

#[cfg(test)]
mod type_error_tests {
    use super::*;

    fn first_error(json: serde_json::Value) -> ValidationError {
        Scenario::parse_json(&json.to_string())
            .unwrap_err()
            .remove(0)
    }

    fn scenario() -> serde_json::Value {
        serde_json::to_value(Scenario::default_scenario()).unwrap()
    }

    /// A wrong type reads like a range error: the field, the value as
    /// written and what the field takes, not Rust's type names.
    #[test]
    fn a_value_of_the_wrong_type_names_what_the_field_takes() {
        let mut s = scenario();
        s["hosts"][0]["flows"][0]["window_bytes"] = 99999999999u64.into();
        let e = first_error(s);
        assert_eq!(e.field, "hosts[0].flows[0].window_bytes");
        assert_eq!(e.value, "99999999999");
        assert_eq!(e.message, "must be a whole number from 0 to 4294967295");
        let mut s = scenario();
        s["rtt_ms"] = "20".into();
        let e = first_error(s);
        assert_eq!((e.field.as_str(), e.value.as_str()), ("rtt_ms", "\"20\""));
        assert_eq!(e.message, "must be a number, not text");
        let mut s = scenario();
        s["tcp"]["sack"] = 1.into();
        assert_eq!(first_error(s).message, "must be true or false");
    }

    #[test]
    fn other_messages_are_kept() {
        assert_eq!(
            plain_type_error("unknown field `x`, expected one of `a`, `b`"),
            (
                String::new(),
                "unknown field `x`, expected one of `a`, `b`".into()
            )
        );
        assert_eq!(
            plain_type_error("invalid type: map, expected a sequence"),
            (
                String::new(),
                "invalid type: map, expected a sequence".into()
            )
        );
    }
}
