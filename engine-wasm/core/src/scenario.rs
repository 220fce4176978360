//! The versioned scenario document: the single source of truth for a run.
//! The app's TypeScript types are generated from these definitions (ts-rs),
//! never written twice.

use crate::profile::{self, MechanismOverrides, Mechanisms};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Display;
use ts_rs::TS;

/// The scenario format version this engine writes. Version 1 (before
/// testbed profiles) is still read: [`Scenario::from_json`] migrates it to
/// the `sawtooth-1` profile, which keeps its results.
pub const SCENARIO_VERSION: u32 = 2;

/// A whole experiment: network, TCP settings, flows, duration, seed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export, export_to = "scenario.ts")]
pub struct Scenario {
    pub version: u32,
    /// Seed of the one random generator (random loss, RED).
    pub seed: u32,
    pub duration_ms: f64,
    pub sample_interval_ms: f64,
    /// 1500 gives MSS 1448 with timestamps; 9000 gives MSS 8948.
    pub mtu_bytes: u32,
    /// Two-way propagation delay, split evenly between data and ACK paths.
    pub rtt_ms: f64,
    /// Bernoulli loss probability per data packet on the forward path.
    pub loss_rate: f64,
    /// The testbed profile: which kernel and host mechanisms the run models
    /// (docs/profiles.md).
    pub profile: String,
    /// Single switches overriding the profile (ablation).
    #[serde(default)]
    pub mechanisms: MechanismOverrides,
    pub tcp: TcpConfig,
    pub bottleneck: Bottleneck,
    pub hosts: Vec<Host>,
    /// A latency probe through the bottleneck (none by default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub probe: Option<LatencyProbe>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export, export_to = "scenario.ts")]
pub struct TcpConfig {
    /// 2 in the Linux 2.4 era of seeds 000/002; 10 today (RFC 6928).
    pub initial_cwnd_pkts: u32,
    /// `null` is Linux's "infinite" ssthresh (a route-cache flush before
    /// each test); Mills et al. (NIST) uses 100.
    pub initial_ssthresh_pkts: Option<u32>,
    /// Acknowledge every second full segment or after 40 ms (RFC 1122 §4.2.3.2).
    pub delayed_ack: bool,
    /// Selective acknowledgements (RFC 2018); NewReno partial ACKs otherwise.
    pub sack: bool,
    /// Sequence number of every flow's first segment, 0 to 4294967295
    /// (the engine numbers segments, not bytes, modulo 2^32). When absent,
    /// each flow draws its own from `seed`, as a real stack picks a random
    /// ISN (docs/ENGINE.md, "Scenario format"). No result depends on it:
    /// sequence numbers are compared modulo 2^32 and everything recorded
    /// counts from the first segment.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub initial_sequence: Option<u64>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export, export_to = "scenario.ts")]
pub struct Bottleneck {
    /// The link's rate. Ignored when `trace` is given (the trace sets the
    /// rate), but still checked, so the scenario stays runnable without it.
    pub rate_bps: f64,
    pub buffer_pkts: u32,
    pub aqm: Aqm,
    /// A trace-driven link (Mahimahi's `mm-link`): the link sends when its
    /// trace says, not at `rate_bps` (docs/ENGINE.md, "Trace-driven
    /// links"). Absent: a constant-rate link.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub trace: Option<LinkTrace>,
}

/// Queue management at the bottleneck.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[serde(deny_unknown_fields)]
#[ts(export, export_to = "scenario.ts")]
pub enum Aqm {
    DropTail {},
    /// Random Early Detection (Floyd & Jacobson 1993), optionally marking
    /// ECN-capable packets instead of dropping them (RFC 3168).
    Red {
        min_th_pkts: f64,
        max_th_pkts: f64,
        max_p: f64,
        /// EWMA weight of the average queue (w_q).
        weight: f64,
        ecn: bool,
    },
    /// Controlled Delay (RFC 8289): drops at dequeue once packets have
    /// waited more than `target_ms` for `interval_ms`, spaced by
    /// interval/√count. Missing fields take the RFC's defaults.
    Codel {
        /// TARGET, default 5 ms (RFC 8289 §4.3).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        target_ms: Option<f64>,
        /// INTERVAL, default 100 ms (RFC 8289 §4.2).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        interval_ms: Option<f64>,
        /// Mark ECN-capable packets instead of dropping (RFC 3168 §5);
        /// default false.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        ecn: Option<bool>,
    },
    /// FlowQueue-CoDel (RFC 8290): a queue per flow, deficit round robin
    /// with new flows first, CoDel in each queue; the total limit is
    /// `buffer_pkts`.
    FqCodel {
        /// Default 5 ms (RFC 8290 §5.1, CoDel's TARGET).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        target_ms: Option<f64>,
        /// Default 100 ms (RFC 8290 §5.1, CoDel's INTERVAL).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        interval_ms: Option<f64>,
        /// DRR quantum, default 1514 bytes (RFC 8290 §5.1).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        quantum_bytes: Option<u32>,
        /// Flow queues, default 1024 (RFC 8290 §5.1).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        flows: Option<u32>,
        /// Default false.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        ecn: Option<bool>,
    },
    /// Proportional Integral controller Enhanced (RFC 8033): a drop
    /// probability updated every `t_update_ms` from the queueing delay.
    Pie {
        /// QDELAY_REF, default 15 ms (RFC 8033 §4.2).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        target_ms: Option<f64>,
        /// T_UPDATE, default 15 ms (RFC 8033 §4.2).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        t_update_ms: Option<f64>,
        /// Per second, default 0.125 (RFC 8033 §4.2).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        alpha: Option<f64>,
        /// Per second, default 1.25 (RFC 8033 §4.2).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        beta: Option<f64>,
        /// MAX_BURST, default 150 ms (RFC 8033 §4.4).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        max_burst_ms: Option<f64>,
        /// Mark ECN-capable packets while the drop probability is at most
        /// 10 % (RFC 8033 §5.1); default false.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        ecn: Option<bool>,
    },
    /// DCTCP's switch (RFC 8257 §3.1): mark CE when at least K packets
    /// wait at arrival; drop only when the buffer is full.
    StepMark {
        /// K, default 20 packets (Alizadeh et al., SIGCOMM 2010, §4).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        threshold_pkts: Option<u32>,
    },
    /// DualPI2, the L4S Dual-Queue Coupled AQM (RFC 9332; Linux
    /// `sch_dualpi2.c`): ECT(1) packets in a low-latency queue marked at a
    /// 1 ms step or with k·p', the others in a classic queue under a PI
    /// controller whose p' is squared. Missing fields take Linux's defaults.
    #[serde(rename = "dualpi2")]
    #[ts(rename = "dualpi2")]
    DualPi2 {
        /// The classic queue's delay target, default 15 ms.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        target_ms: Option<f64>,
        /// The PI controller's update interval, default 16 ms.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        t_update_ms: Option<f64>,
        /// Integral gain, per second, default 41/256 (≈ 0.16).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        alpha: Option<f64>,
        /// Proportional gain, per second, default 819/256 (≈ 3.2).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        beta: Option<f64>,
        /// The L queue's marking step (sojourn time), default 1 ms.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        step_thresh_ms: Option<f64>,
        /// Coupling factor k (p_CL = k·p'), default 2.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        coupling: Option<u32>,
        /// The classic queue's scheduling weight in per cent, default 10.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        c_protection_pct: Option<u32>,
        /// Drop (true, default) rather than mark L4S packets on overload.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        drop_overload: Option<bool>,
    },
}

impl Aqm {
    /// PIE with every field omitted: RFC 8033's defaults.
    pub fn pie_defaults() -> Self {
        Aqm::Pie {
            target_ms: None,
            t_update_ms: None,
            alpha: None,
            beta: None,
            max_burst_ms: None,
            ecn: None,
        }
    }

    /// DualPI2 with every field omitted: Linux `sch_dualpi2.c`'s defaults.
    pub fn dualpi2_defaults() -> Self {
        Aqm::DualPi2 {
            target_ms: None,
            t_update_ms: None,
            alpha: None,
            beta: None,
            step_thresh_ms: None,
            coupling: None,
            c_protection_pct: None,
            drop_overload: None,
        }
    }

    /// The discipline's `kind` as a scenario names it.
    pub fn kind(&self) -> &'static str {
        match self {
            Aqm::DropTail {} => "drop_tail",
            Aqm::Red { .. } => "red",
            Aqm::Codel { .. } => "codel",
            Aqm::FqCodel { .. } => "fq_codel",
            Aqm::Pie { .. } => "pie",
            Aqm::StepMark { .. } => "step_mark",
            Aqm::DualPi2 { .. } => "dualpi2",
        }
    }

    /// Whether the queue signals with ECN marks (so senders see CWR
    /// episodes rather than losses).
    pub fn marks_ecn(&self) -> bool {
        match *self {
            Aqm::DropTail {} => false,
            Aqm::Red { ecn, .. } => ecn,
            Aqm::Codel { ecn, .. } | Aqm::FqCodel { ecn, .. } | Aqm::Pie { ecn, .. } => {
                ecn.unwrap_or(false)
            }
            Aqm::StepMark { .. } | Aqm::DualPi2 { .. } => true,
        }
    }
}

/// The classic bufferbloat ping: a host beside the senders, attached to the
/// bottleneck switch, sends a probe every `interval_ms` through the
/// bottleneck queue and measures its round trip.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export, export_to = "scenario.ts")]
pub struct LatencyProbe {
    /// Default 200 ms: the shortest interval iputils' ping(8) long allowed
    /// a user who is not root ("Only super-user may set interval to values
    /// less than 0.2 seconds"; recent releases allow 2 ms).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub interval_ms: Option<f64>,
    /// IP packet size, default 84 bytes: ping(8)'s default 56 data bytes +
    /// 8 ICMP header + 20 IPv4 header.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub size_bytes: Option<u32>,
}

impl LatencyProbe {
    pub const INTERVAL_MS: f64 = 200.0;
    pub const SIZE_BYTES: u32 = 84;

    pub fn interval_ms(&self) -> f64 {
        self.interval_ms.unwrap_or(Self::INTERVAL_MS)
    }

    pub fn size_bytes(&self) -> u32 {
        self.size_bytes.unwrap_or(Self::SIZE_BYTES)
    }
}

/// A sender host: one NIC with its interface queue, any number of flows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export, export_to = "scenario.ts")]
pub struct Host {
    pub nic_bps: f64,
    /// Interface queue length in packets (`ifconfig txqueuelen`).
    pub txqueuelen_pkts: u32,
    pub flows: Vec<Flow>,
}

/// One bulk TCP transfer (an iperf stream).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export, export_to = "scenario.ts")]
pub struct Flow {
    /// An id from the algorithm catalogue.
    pub algorithm: String,
    /// Algorithm parameters by id; missing ones take the catalogue default.
    pub params: BTreeMap<String, f64>,
    /// Socket buffer: the receiver's advertised window.
    pub window_bytes: u32,
    pub start_ms: f64,
    pub stop_ms: Option<f64>,
    /// Extra two-way delay of this flow only (RTT-fairness experiments).
    pub extra_delay_ms: f64,
}

/// One problem with a scenario, naming the field, the value and the rule.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
#[ts(export, export_to = "scenario.ts")]
pub struct ValidationError {
    pub field: String,
    pub value: String,
    pub message: String,
}

impl Display for ValidationError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.value.is_empty() {
            write!(f, "{}: {}", self.field, self.message)
        } else {
            write!(f, "{} = {}: {}", self.field, self.value, self.message)
        }
    }
}

/// Allowed ranges, shared by validation and the app's controls.
pub mod limits;
mod trace;
pub use trace::LinkTrace;

/// Scenario format 1 → 2: the run keeps today's mechanisms through the
/// `sawtooth-1` profile.
pub(crate) fn migrate_v1(doc: &mut serde_json::Value) {
    if let Some(obj) = doc.as_object_mut() {
        obj.insert("version".into(), SCENARIO_VERSION.into());
        obj.entry("profile")
            .or_insert_with(|| profile::LEGACY_PROFILE.into());
    }
}

/// A version-1 or version-2 document as version 2 JSON, unvalidated beyond
/// parsing (the app migrates links before editing them).
pub fn migrate_json(text: &str) -> Result<String, String> {
    let mut value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("is not valid JSON: {e}"))?;
    if value.get("version").and_then(|v| v.as_u64()) == Some(1) {
        migrate_v1(&mut value);
    }
    Ok(value.to_string())
}

impl Scenario {
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a scenario always serialises")
    }

    /// The profile's mechanisms with this scenario's overrides applied.
    pub fn resolved_mechanisms(&self) -> Mechanisms {
        let base = profile::profile(&self.profile)
            .map(|p| p.mechanisms)
            .unwrap_or(profile::SAWTOOTH_1);
        self.mechanisms.apply(base)
    }

    /// Maximum segment size: MTU less 20 IP + 20 TCP + 12 timestamp bytes.
    pub fn mss_bytes(&self) -> u32 {
        self.mtu_bytes - crate::net::TCP_IP_HEADER_BYTES
    }

    /// The bottleneck's rate as the rest of the engine reasons about it
    /// (b/s of Ethernet wire time, like `rate_bps`): `rate_bps`, or for a
    /// trace-driven link the wire time of the full-size packets its mean
    /// opportunity rate carries. A trace's opportunity carries one packet
    /// of the MTU and Mahimahi's 4-byte TUN header per 1504 bytes, so its
    /// mean rate counts (MTU + 38) wire bytes per (MTU + 4) opportunity
    /// bytes: 12.304 Mb/s for one opportunity a millisecond at MTU 1500.
    /// BDP, capacity, utilisation and the resource model read this.
    pub fn bottleneck_rate_bps(&self) -> f64 {
        match &self.bottleneck.trace {
            None => self.bottleneck.rate_bps,
            Some(trace) => {
                let wire = (self.mtu_bytes + crate::net::ETHERNET_OVERHEAD_BYTES) as f64;
                let tun = (self.mtu_bytes + crate::link_trace::TUN_HEADER_BYTES) as f64;
                trace.mean_bps() * wire / tun
            }
        }
    }

    /// The bottleneck's bandwidth-delay product in full-size packets on
    /// the wire (the base round trip at the bottleneck's rate).
    pub fn bdp_pkts(&self) -> f64 {
        let wire_bits = ((self.mtu_bytes + crate::net::ETHERNET_OVERHEAD_BYTES) * 8) as f64;
        self.bottleneck_rate_bps() * self.rtt_ms / 1e3 / wire_bits
    }

    /// The path's capacity over the run: the bottleneck rate, or the
    /// senders' NICs together when they are slower (b/s of wire time). A
    /// trace-driven link counts the opportunities that fall within the
    /// run's duration, after time 0 (in wire terms, as
    /// `bottleneck_rate_bps`), so a run
    /// shorter than the trace's period, or not a whole number of periods,
    /// is measured against what its link could carry in that time.
    pub fn capacity_bps(&self) -> f64 {
        let nic_sum: f64 = self.hosts.iter().map(|h| h.nic_bps).sum();
        let bottleneck = match &self.bottleneck.trace {
            None => self.bottleneck.rate_bps,
            Some(trace) => {
                let ms = &trace.opportunities_ms;
                let period = ms.last().copied().unwrap_or(0.0);
                let duration = self.duration_ms.floor();
                if !(period > 0.0 && duration > 0.0) {
                    0.0
                } else {
                    let cycles = (duration / period).floor();
                    let rest = duration - cycles * period;
                    // Opportunities in (0, duration]: one at time 0 serves
                    // nothing (a packet waits for the next after its arrival).
                    let count = cycles * ms.len() as f64
                        + ms.partition_point(|&x| x <= rest) as f64
                        - ms.partition_point(|&x| x <= 0.0) as f64;
                    let wire = (self.mtu_bytes + crate::net::ETHERNET_OVERHEAD_BYTES) as f64;
                    let tun = (self.mtu_bytes + crate::link_trace::TUN_HEADER_BYTES) as f64;
                    count * crate::link_trace::OPPORTUNITY_BYTES as f64 * 8.0 * 1e3
                        / self.duration_ms
                        * wire
                        / tun
                }
            }
        };
        bottleneck.min(nic_sum)
    }

    /// The initial sequence number of flow `flow` (counted across hosts
    /// in order): `tcp.initial_sequence` when given, else drawn from
    /// `seed` for that flow as a real stack draws a random ISN. The draw
    /// is its own SplitMix64 step on (seed, flow), not a value taken from
    /// the run's random generator, so every other random value of the run
    /// is the same as before ISNs existed.
    pub fn initial_sequence(&self, flow: usize) -> u32 {
        match self.tcp.initial_sequence {
            Some(isn) => isn as u32,
            None => {
                let key = (self.seed as u64) << 32 ^ flow as u64 ^ ISN_STREAM;
                (splitmix64(key) >> 32) as u32
            }
        }
    }

    pub fn flow_count(&self) -> usize {
        self.hosts.iter().map(|h| h.flows.len()).sum()
    }

    /// The default, the lab page's first run: one Standard TCP flow from a
    /// 1 Gb/s host through a 100 Mb/s bottleneck, 20 ms round trip, MTU
    /// 1500, a 40-packet switch buffer, txqueuelen 100, a 16 MB window, 20 s.
    ///
    /// Chosen so the first chart a student sees is the saw-tooth and what it
    /// costs (issue 24). The path is a long fat pipe in RFC 7323's sense
    /// (100 Mb/s × 20 ms = 2 Mbit, far above 10^5 bits): about 162 packets
    /// in flight fill it. The buffer is a quarter of that, so the window
    /// peaks near 200 packets; halved to about 100 it leaves the link
    /// under-used until it has grown back, one packet per two round trips
    /// (delayed ACKs), some 4.4 s. So the first 20 s hold four cuts after
    /// slow start's, each visible on the cwnd chart, and the throughput chart
    /// shows the cost: about 81 % of the link's wire rate (86 % of its
    /// payload rate), against 94 % for a buffer of a whole BDP. The switch is
    /// the bottleneck (the NIC is ten times faster), so the queue that fills
    /// and drops is the one the path view and the queues chart show. Ten
    /// times the rate would make each cycle ten times longer, which is why
    /// HighSpeed and Scalable TCP exist. `tests/default_scenario.rs` holds
    /// these numbers.
    ///
    /// Until issue 24 the default was Long's (Sandia, 2003) jumbo-frame path
    /// (1 Gb/s, 30 ms, MTU 9000, 1000 packets): one window cut in 20 s at
    /// 94 % utilisation, no saw-tooth to see.
    pub fn default_scenario() -> Scenario {
        Scenario {
            version: SCENARIO_VERSION,
            seed: 1,
            duration_ms: 20_000.0,
            sample_interval_ms: 10.0,
            mtu_bytes: 1500,
            rtt_ms: 20.0,
            loss_rate: 0.0,
            profile: profile::DEFAULT_PROFILE.into(),
            mechanisms: MechanismOverrides::default(),
            tcp: TcpConfig {
                initial_cwnd_pkts: 2,
                initial_ssthresh_pkts: None,
                delayed_ack: true,
                sack: true,
                initial_sequence: None,
            },
            bottleneck: Bottleneck {
                rate_bps: 100e6,
                buffer_pkts: 40,
                aqm: Aqm::DropTail {},
                trace: None,
            },
            hosts: vec![Host {
                nic_bps: 1e9,
                txqueuelen_pkts: 100,
                flows: vec![Flow::new("reno", 16 * 1024 * 1024)],
            }],
            probe: None,
        }
    }
}

impl Scenario {
    /// The default before issue 24, kept for the tests and benchmarks that
    /// are about it: Standard TCP back-to-back over 1 Gb/s, 30 ms, jumbo
    /// frames, a 1000-packet buffer, txqueuelen 100, a 16 MB window (Long,
    /// Sandia 2003, §4; Long 2003 §4). The NIC is as fast as the link, so the
    /// queue builds in the host (local congestion), not at the switch.
    pub fn jumbo_gigabit() -> Scenario {
        let mut s = Scenario::default_scenario();
        s.mtu_bytes = 9000;
        s.rtt_ms = 30.0;
        s.bottleneck.rate_bps = 1e9;
        s.bottleneck.buffer_pkts = 1000;
        s
    }
}

impl Flow {
    /// A flow of `algorithm` with default parameters, running the whole time.
    pub fn new(algorithm: &str, window_bytes: u32) -> Flow {
        Flow {
            algorithm: algorithm.into(),
            params: BTreeMap::new(),
            window_bytes,
            start_ms: 0.0,
            stop_ms: None,
            extra_delay_ms: 0.0,
        }
    }
}

/// Keeps the ISN draw of [`Scenario::initial_sequence`] apart from any
/// other use of SplitMix64 on the seed ("ISN" in ASCII, as a tag).
const ISN_STREAM: u64 = 0x0049_534E_0000_0000;

/// SplitMix64's output function (Steele, Lea & Flood 2014): a bijective
/// mix of 64 bits, so nearby keys give unrelated values.
fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// What validation says of a value outside `lo..=hi` (`unit` may be empty).
pub(crate) fn range_message((lo, hi): (f64, f64), unit: &str) -> String {
    let unit = if unit.is_empty() {
        String::new()
    } else {
        format!(" {unit}")
    };
    format!("must be between {lo} and {hi}{unit}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_mechanism_overrides_out_of_range_are_named() {
        let mut s = Scenario::default_scenario();
        s.mechanisms.tx_completion_us = Some(-5.0);
        s.mechanisms.interrupt_throttle_us = Some(f64::NAN);
        s.mechanisms.timer_hz = Some(2_000_000_000);
        s.mechanisms.nic_ring_descriptors = Some(70_000);
        s.mechanisms.clock_tolerance_ppm = Some(1e6);
        s.mechanisms.receiver_interrupt_us = Some(-1.0);
        s.mechanisms.receiver_interrupt_throttle_us = Some(f64::INFINITY);
        let fields: Vec<String> = s.validate().into_iter().map(|e| e.field).collect();
        for f in [
            "mechanisms.tx_completion_us",
            "mechanisms.interrupt_throttle_us",
            "mechanisms.timer_hz",
            "mechanisms.nic_ring_descriptors",
            "mechanisms.clock_tolerance_ppm",
            "mechanisms.receiver_interrupt_us",
            "mechanisms.receiver_interrupt_throttle_us",
        ] {
            assert!(fields.iter().any(|x| x == f), "{f} not named in {fields:?}");
        }
        s.mechanisms = Default::default();
        s.mechanisms.clock_tolerance_ppm = Some(100.0);
        s.mechanisms.timer_hz = Some(1000);
        assert!(s.validate().is_empty(), "{:?}", s.validate());
    }

    #[test]
    fn default_scenario_is_valid_and_round_trips() {
        let s = Scenario::default_scenario();
        assert!(s.validate().is_empty(), "{:?}", s.validate());
        assert_eq!(Scenario::from_json(&s.to_json()).unwrap(), s);
    }

    /// A field out of range is reported as itself; the sample interval,
    /// which is fine, is not blamed for the samples or bytes it would give.
    #[test]
    fn the_sample_interval_is_not_blamed_for_another_fields_error() {
        let fields =
            |s: &Scenario| -> Vec<String> { s.validate().into_iter().map(|e| e.field).collect() };
        let mut long = Scenario::default_scenario();
        long.duration_ms = 1e12;
        assert_eq!(fields(&long), ["duration_ms"]);
        let mut probing = Scenario::default_scenario();
        probing.probe = Some(LatencyProbe {
            interval_ms: Some(0.0),
            size_bytes: None,
        });
        assert_eq!(fields(&probing), ["probe.interval_ms"]);
        // Still blamed when it is the cause.
        let mut dense = Scenario::default_scenario();
        dense.duration_ms = 3_600_000.0;
        dense.sample_interval_ms = 1.0;
        let blamed = fields(&dense);
        assert!(
            !blamed.is_empty() && blamed.iter().all(|f| f == "sample_interval_ms"),
            "{blamed:?}"
        );
    }

    #[test]
    fn every_problem_is_reported_at_once_with_field_value_and_range() {
        let mut s = Scenario::default_scenario();
        s.rtt_ms = -3.0;
        s.hosts[0].txqueuelen_pkts = 0;
        s.hosts[0].flows[0].window_bytes = 12;
        s.hosts[0].flows[0].algorithm = "warp".into();
        let errors = Scenario::from_json(&s.to_json()).unwrap_err();
        let fields: Vec<_> = errors.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(
            fields,
            [
                "rtt_ms",
                "hosts[0].txqueuelen_pkts",
                "hosts[0].flows[0].window_bytes",
                "hosts[0].flows[0].algorithm"
            ]
        );
        assert_eq!(errors[0].value, "-3");
        assert_eq!(errors[0].message, "must be between 0 and 1000 ms");
        assert!(errors[3].message.contains("reno"));
    }

    #[test]
    fn unknown_versions_and_fields_are_clear_errors() {
        let mut v: serde_json::Value =
            serde_json::from_str(&Scenario::default_scenario().to_json()).unwrap();
        v["version"] = 7.into();
        let e = Scenario::from_json(&v.to_string()).unwrap_err();
        assert_eq!(e[0].field, "version");
        assert!(e[0].message.contains("unknown scenario version"));

        v["version"] = 2.into();
        v["hosts"][0]["flows"][0]["colour"] = "red".into();
        let e = Scenario::from_json(&v.to_string()).unwrap_err();
        assert_eq!(e[0].field, "hosts[0].flows[0].colour");
        assert!(
            e[0].message.contains("unknown field `colour`"),
            "{}",
            e[0].message
        );

        let e = Scenario::from_json("{not json").unwrap_err();
        assert_eq!(e[0].field, "(document)");
    }

    #[test]
    fn parameters_are_checked_against_the_catalogue() {
        let mut s = Scenario::default_scenario();
        s.hosts[0].flows[0].params.insert("b".into(), 2.0);
        s.hosts[0].flows[0].params.insert("zeta".into(), 1.0);
        let e = s.validate();
        assert_eq!(e.len(), 2);
        assert_eq!(e[0].field, "hosts[0].flows[0].params.b");
        assert!(e[0].message.contains("between 0.05 and 0.9"));
        assert!(e[1].message.contains("not a parameter of reno"));
    }
}
