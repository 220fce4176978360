//! Testbed profiles: a named set of mechanisms describing one paper's kernel
//! and host (SPEC §6). Every mechanism is a separate switch a scenario may
//! override one at a time (for ablation); every value a profile sets cites
//! its source in [`SWITCHES`] (rendered into docs/profiles.md and shown in
//! the app). No value here was chosen by comparing simulated results with
//! the published ones.
//!
//! One job per file:
//! - this file: the switches' settings ([`Mechanisms`]) and a scenario's
//!   single-switch overrides ([`MechanismOverrides`]), and the re-exports
//!   that keep every item at `crate::profile::*`;
//! - `switches.rs`: the switches one by one ([`SwitchId`]): which fields
//!   each covers, whether two settings differ, the value in words;
//! - `sources.rs`: what each switch is and the source of each profile's
//!   value ([`SWITCHES`]);
//! - `catalogue.rs`: the profiles ([`PROFILES`]);
//! - `rcvbuf.rs`: Linux 2.4's receive-buffer accounting
//!   ([`advertised_window_bytes`]).

mod catalogue;
mod rcvbuf;
mod sources;
mod switches;

pub use catalogue::{
    profile, profile_ids, Profile, DEFAULT_PROFILE, LEGACY_PROFILE, PROFILES, SAWTOOTH_1,
};
pub use rcvbuf::{advertised_window_bytes, e1000_rx_buffer_bytes};
pub use sources::{switch_info, SwitchInfo, SWITCHES};
pub use switches::SwitchId;

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// What one ACK adds to the window in slow start and congestion avoidance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export, export_to = "scenario.ts")]
pub enum CwndCounting {
    /// Each acknowledged packet counts (Linux ≥ 2.6.26's `acked` argument,
    /// RFC 5681 with byte counting, RFC 3465).
    PerPacket,
    /// Each ACK counts once, however many packets it covers (Linux 2.4
    /// `tcp_cong_avoid`; 2.6.22 with `tcp_abc = 0`): with delayed ACKs the
    /// window grows about half as fast per round trip.
    PerAck,
}

/// How HighSpeed TCP finds a(w) and b(w).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export, export_to = "scenario.ts")]
pub enum HighSpeedRule {
    /// RFC 3649 §5's continuous formulas.
    Formula,
    /// RFC 3649 Appendix B's table as the kernels used it: a = k + 1 for
    /// table[k−1] < w ≤ table[k], b from the table's row, the row found
    /// only in congestion avoidance (Linux `tcp_highspeed.c`).
    Table,
}

/// Scalable TCP's behaviour at small windows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export, export_to = "scenario.ts")]
pub enum ScalableRule {
    /// Kelly 2003: Standard TCP (halving) at or below the legacy window.
    Kelly,
    /// Linux `tcp_scalable.c`: one packet per min(cwnd, 1/a) counted ACKs
    /// (Standard-like growth below 1/a packets), always decrease by b.
    LinuxAiCount,
}

/// The retransmission-timeout estimator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export, export_to = "scenario.ts")]
pub enum RtoRule {
    /// RFC 6298: max(srtt + 4·rttvar, 200 ms).
    Rfc6298,
    /// Linux `tcp_rtt_estimator`: srtt + rttvar where rttvar never falls
    /// below the 200 ms floor within a round trip (mdev_max starts each
    /// round at TCP_RTO_MIN), so RTO ≈ srtt + max(4·mdev, 200 ms).
    Linux,
}

/// How the window comes down during fast recovery.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export, export_to = "scenario.ts")]
pub enum RecoveryRule {
    /// Proportional Rate Reduction (RFC 6937; Linux ≥ 3.2).
    Prr,
    /// Rate halving (Linux 2.4–3.1 `tcp_cwnd_down`), in CWR and Recovery
    /// alike: one packet less every second ACK (duplicates included) while
    /// cwnd > ssthresh/2, never above in-flight + 1; cwnd = min(cwnd,
    /// ssthresh) when the episode ends.
    RateHalving,
    /// RFC 6675 §5 (ns-2's SACK agent): cwnd = ssthresh at once, sending
    /// while the pipe estimate is below it.
    Rfc6675,
}

/// Where ssthresh comes from when the sender backs off without a loss: a
/// full interface queue (local congestion) or an ECN echo.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export, export_to = "scenario.ts")]
pub enum CwrRule {
    /// The algorithm's own decrease (Linux ≥ 2.6.13 `tcp_enter_cwr` asks
    /// `icsk_ca_ops->ssthresh`).
    #[default]
    Algorithm,
    /// Halving whatever the algorithm (Linux 2.4 `__tcp_enter_cwr`:
    /// ssthresh = `tcp_recalc_ssthresh` = max(cwnd / 2, 2)).
    Halve,
}

/// How a lost retransmission is found before the retransmission timer
/// fires.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export, export_to = "scenario.ts")]
pub enum LostRetransmitRule {
    /// Only by the timeout (RFC 6675 has no rule for it).
    #[default]
    Timeout,
    /// In Recovery, a SACK of data sent after a retransmission marks the
    /// retransmission lost (Linux 2.4–2.6.23 `tcp_sacktag_write_queue`,
    /// "event C").
    Recovery,
    /// RACK (RFC 8985): a retransmission is lost once a segment sent
    /// after it is delivered, in Recovery and in Loss.
    Rack,
}

/// Which generation of CUBIC's and BIC's rules (`cc/cubic/`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export, export_to = "scenario.ts")]
pub enum CubicVersion {
    /// RFC 9438 (β = 0.7 by default) in the engine's floating-point model
    /// with Linux's structure and the HyStart of older kernels: the CUBIC
    /// of the profiles before `linux-6` followed `tcp_cubic.c` exactly.
    Rfc9438,
    /// Linux 2.6.22's `tcp_cubic.c` 2.1 and `tcp_bic.c`: β = 819/1024,
    /// window steps scaled by the measured packets per ACK, no HyStart.
    Linux2622,
    /// The current Linux `tcp_cubic.c` (v2.3) rule for rule, in its integer
    /// arithmetic, with HyStart as current kernels run it. BIC as for
    /// `Rfc9438`.
    Linux6,
}

/// Every switch, fully resolved.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export, export_to = "scenario.ts")]
pub struct Mechanisms {
    pub cwnd_counting: CwndCounting,
    pub highspeed: HighSpeedRule,
    pub scalable: ScalableRule,
    pub rto: RtoRule,
    /// RTO before the first RTT sample.
    pub initial_rto_ms: f64,
    pub recovery: RecoveryRule,
    pub cubic: CubicVersion,
    /// Packets the NIC driver's transmit ring holds behind the interface
    /// queue (0: none). Local congestion happens only when the interface
    /// queue itself is full.
    pub nic_ring_pkts: u32,
    /// Interrupt moderation on the sender's receive path: ACKs reach TCP at
    /// most once per this interval, in batches (0: each ACK at once).
    pub interrupt_interval_us: f64,
    /// Receive-buffer accounting as Linux 2.4 did it, with this
    /// `net.core.rmem_max` (0: none, the window is advertised exactly as
    /// set): see [`advertised_window_bytes`].
    pub rmem_max_bytes: u32,
    /// The sending host's own ceiling (bus, CPU) in b/s; 0: the NIC's line
    /// rate.
    pub host_send_limit_bps: f64,
    /// Delay lines release packets only at multiples of this (a netem
    /// router on a 1000 Hz kernel: whole jiffies); 0: exact delays.
    pub delay_granularity_us: f64,
    /// The driver's transmit ring in descriptors (0: counted in packets,
    /// `nic_ring_pkts`). Each frame takes one descriptor per buffer of
    /// Linux 2.4's skb layout (`nic::SkbLayout`): 1 at MTU 1500, 3–4 at
    /// MTU 9000.
    #[serde(default)]
    pub nic_ring_descriptors: u32,
    /// Sent frames' descriptors are reclaimed by the host's interrupt,
    /// which fires this long after the first write-back (the e1000's TADV);
    /// 0: reclaimed the moment the frame leaves.
    #[serde(default)]
    pub tx_completion_us: f64,
    /// Minimum gap between the host's network interrupts (the e1000's ITR);
    /// 0: none.
    #[serde(default)]
    pub interrupt_throttle_us: f64,
    /// The kernel's timer tick (HZ): retransmission and delayed-ACK timers
    /// expire on ticks, each host's ticks at its own phase; 0: exact
    /// timers.
    #[serde(default)]
    pub timer_hz: u32,
    /// Each port's transmit clock (each host's NIC, the bottleneck port)
    /// runs off nominal by an amount drawn per run, uniform within ± this
    /// many parts per million; 0: every clock exact.
    #[serde(default)]
    pub clock_tolerance_ppm: f64,
    /// Where a back-off without loss (CWR) takes ssthresh from.
    #[serde(default)]
    pub cwr: CwrRule,
    /// Interrupt moderation on the receiving host: data segments reach its
    /// TCP (which acknowledges them) at its network interrupt, which fires
    /// this long after the first segment that waits for it (the e1000's
    /// RADV); 0 with no throttle: each segment at once.
    #[serde(default)]
    pub receiver_interrupt_us: f64,
    /// Minimum gap between the receiving host's network interrupts (its
    /// NIC's ITR); 0: none.
    #[serde(default)]
    pub receiver_interrupt_throttle_us: f64,
    /// How a lost retransmission is detected.
    #[serde(default)]
    pub lost_retransmit: LostRetransmitRule,
}

/// Single-switch overrides a scenario may carry on top of its profile.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export, export_to = "scenario.ts")]
pub struct MechanismOverrides {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub cwnd_counting: Option<CwndCounting>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub highspeed: Option<HighSpeedRule>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub scalable: Option<ScalableRule>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub rto: Option<RtoRule>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub initial_rto_ms: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub recovery: Option<RecoveryRule>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub cubic: Option<CubicVersion>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub nic_ring_pkts: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub interrupt_interval_us: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub rmem_max_bytes: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub host_send_limit_bps: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub delay_granularity_us: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub nic_ring_descriptors: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub tx_completion_us: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub interrupt_throttle_us: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub timer_hz: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub clock_tolerance_ppm: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub cwr: Option<CwrRule>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub receiver_interrupt_us: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub receiver_interrupt_throttle_us: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub lost_retransmit: Option<LostRetransmitRule>,
}

impl MechanismOverrides {
    pub fn is_empty(&self) -> bool {
        *self == MechanismOverrides::default()
    }

    /// `base` with every override applied.
    pub fn apply(&self, base: Mechanisms) -> Mechanisms {
        Mechanisms {
            cwnd_counting: self.cwnd_counting.unwrap_or(base.cwnd_counting),
            highspeed: self.highspeed.unwrap_or(base.highspeed),
            scalable: self.scalable.unwrap_or(base.scalable),
            rto: self.rto.unwrap_or(base.rto),
            initial_rto_ms: self.initial_rto_ms.unwrap_or(base.initial_rto_ms),
            recovery: self.recovery.unwrap_or(base.recovery),
            cubic: self.cubic.unwrap_or(base.cubic),
            nic_ring_pkts: self.nic_ring_pkts.unwrap_or(base.nic_ring_pkts),
            interrupt_interval_us: self
                .interrupt_interval_us
                .unwrap_or(base.interrupt_interval_us),
            rmem_max_bytes: self.rmem_max_bytes.unwrap_or(base.rmem_max_bytes),
            host_send_limit_bps: self.host_send_limit_bps.unwrap_or(base.host_send_limit_bps),
            delay_granularity_us: self
                .delay_granularity_us
                .unwrap_or(base.delay_granularity_us),
            nic_ring_descriptors: self
                .nic_ring_descriptors
                .unwrap_or(base.nic_ring_descriptors),
            tx_completion_us: self.tx_completion_us.unwrap_or(base.tx_completion_us),
            interrupt_throttle_us: self
                .interrupt_throttle_us
                .unwrap_or(base.interrupt_throttle_us),
            timer_hz: self.timer_hz.unwrap_or(base.timer_hz),
            clock_tolerance_ppm: self.clock_tolerance_ppm.unwrap_or(base.clock_tolerance_ppm),
            cwr: self.cwr.unwrap_or(base.cwr),
            receiver_interrupt_us: self
                .receiver_interrupt_us
                .unwrap_or(base.receiver_interrupt_us),
            receiver_interrupt_throttle_us: self
                .receiver_interrupt_throttle_us
                .unwrap_or(base.receiver_interrupt_throttle_us),
            lost_retransmit: self.lost_retransmit.unwrap_or(base.lost_retransmit),
        }
    }
}
