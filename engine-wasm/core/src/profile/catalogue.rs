//! The profiles: each testbed's setting of every switch (the sources of
//! each value are in [`SWITCHES`](super::SWITCHES)).

use super::{
    CubicVersion, CwndCounting, CwndLimitedRule, CwrRule, HighSpeedRule, LostRetransmitRule,
    Mechanisms, RecoveryRule, RtoRestartRule, RtoRule, ScalableRule,
};
use serde::Serialize;
use ts_rs::TS;

/// One testbed profile.
#[derive(Clone, Debug, Serialize, TS)]
#[ts(export, export_to = "profiles.ts")]
pub struct Profile {
    pub id: &'static str,
    pub name: &'static str,
    /// One paragraph: which testbed, which paper.
    pub description: &'static str,
    pub mechanisms: Mechanisms,
}

/// Today's engine before profiles existed: what scenario format version 1
/// ran. Old links migrate to it and keep their results.
pub const SAWTOOTH_1: Mechanisms = Mechanisms {
    cwnd_counting: CwndCounting::PerPacket,
    highspeed: HighSpeedRule::Formula,
    scalable: ScalableRule::Kelly,
    rto: RtoRule::Rfc6298,
    initial_rto_ms: 1000.0,
    recovery: RecoveryRule::Prr,
    cubic: CubicVersion::Rfc9438,
    nic_ring_pkts: 0,
    interrupt_interval_us: 0.0,
    rmem_max_bytes: 0,
    host_send_limit_bps: 0.0,
    delay_granularity_us: 0.0,
    nic_ring_descriptors: 0,
    tx_completion_us: 0.0,
    interrupt_throttle_us: 0.0,
    timer_hz: 0,
    clock_tolerance_ppm: 0.0,
    cwr: CwrRule::Algorithm,
    receiver_interrupt_us: 0.0,
    receiver_interrupt_throttle_us: 0.0,
    lost_retransmit: LostRetransmitRule::Timeout,
    rto_restart: RtoRestartRule::Ack,
    cwnd_limited: CwndLimitedRule::InFlight,
    small_queue_limit_bytes: 0,
};

/// The Sandia hosts of Long (Sandia, 2003) (Linux 2.4, e1000); the sources of each
/// value are in SWITCHES.
const LINUX_2_4: Mechanisms = Mechanisms {
    cwnd_counting: CwndCounting::PerAck,
    highspeed: HighSpeedRule::Table,
    scalable: ScalableRule::LinuxAiCount,
    rto: RtoRule::Linux,
    initial_rto_ms: 3000.0,
    recovery: RecoveryRule::RateHalving,
    cubic: CubicVersion::Linux2622,
    nic_ring_pkts: 0,
    interrupt_interval_us: 131.072,
    rmem_max_bytes: 8_388_608,
    host_send_limit_bps: 0.0,
    delay_granularity_us: 0.0,
    nic_ring_descriptors: 256,
    tx_completion_us: 65.536,
    interrupt_throttle_us: 124.928,
    timer_hz: 100,
    clock_tolerance_ppm: 100.0,
    cwr: CwrRule::Halve,
    // The receiving host is a PRO/1000 host with the same driver.
    receiver_interrupt_us: 131.072,
    receiver_interrupt_throttle_us: 124.928,
    lost_retransmit: LostRetransmitRule::Recovery,
    rto_restart: RtoRestartRule::HeadRetransmit,
    // TCP Small Queues came with Linux 3.6.
    cwnd_limited: CwndLimitedRule::InFlight,
    small_queue_limit_bytes: 0,
};

/// Linux 6.12's `net.ipv4.tcp_limit_output_bytes` default, 16 × 65536
/// (`tcp_sk_init`; 5.0 to 6.15).
const LINUX_6_LIMIT_OUTPUT_BYTES: u32 = 16 * 65_536;

/// The profile id version-1 scenarios migrate to.
pub const LEGACY_PROFILE: &str = "sawtooth-1";
/// The profile of the default scenario (Long (Sandia, 2003)'s testbed).
pub const DEFAULT_PROFILE: &str = "linux-2.4";

pub static PROFILES: &[Profile] = &[
    Profile {
        id: "linux-2.4",
        name: "Linux 2.4 (Sandia testbed)",
        description: "The hosts of the Sandia reports (Long, 2003, and its 10 Gb/s follow-up): Linux 2.4.20 for Standard TCP, 2.4.19 with the HighSpeed and Scalable patches, Intel PRO/1000 NICs with the e1000 driver.",
        mechanisms: LINUX_2_4,
    },
    Profile {
        id: "linux-2.4-ixgb",
        name: "Linux 2.4, 10 Gb/s client (Sandia follow-up)",
        description: "The 10 Gb/s client of the Sandia follow-up (the Red Storm challenge): its tests name Linux 2.4.19 kernels with the HighSpeed and Scalable patches, and its setup loads the ixgb driver (Intel PRO/10GbE); the 1 Gb/s server is the PRO/1000 host of the first report.",
        // The PRO/1000 host's profile with ixgb's delays and no ITR
        // throttle (the sources are in SWITCHES).
        mechanisms: Mechanisms {
            interrupt_interval_us: 58.9824,
            tx_completion_us: 26.2144,
            interrupt_throttle_us: 0.0,
            ..LINUX_2_4
        },
    },
    Profile {
        id: "linux-2.6.22",
        name: "Linux 2.6.22 (ns-2 vs Linux testbed)",
        description: "The hosts of the ns-2 vs Linux study (Bateman et al. (2008)): Linux 2.6.22.6 with pluggable congestion control, a Linux 2.6.18 netem router on a 1000 Hz kernel adding the delay.",
        mechanisms: Mechanisms {
            // Differences from the plain model only (sources in SWITCHES).
            cwnd_counting: CwndCounting::PerAck,
            highspeed: HighSpeedRule::Table,
            scalable: ScalableRule::LinuxAiCount,
            rto: RtoRule::Linux,
            initial_rto_ms: 3000.0,
            recovery: RecoveryRule::RateHalving,
            cubic: CubicVersion::Linux2622,
            delay_granularity_us: 1000.0,
            timer_hz: 250,
            clock_tolerance_ppm: 100.0,
            lost_retransmit: LostRetransmitRule::Recovery,
            rto_restart: RtoRestartRule::HeadRetransmit,
            ..SAWTOOTH_1
        },
    },
    Profile {
        id: "ns-2",
        name: "ns-2",
        description: "The ns-2 simulator of the HighSpeed TCP study (the HighSpeed TCP ns-2 study): its TCP agents with SACK, RFC 3649's formulas.",
        mechanisms: Mechanisms {
            cwnd_counting: CwndCounting::PerAck,
            initial_rto_ms: 3000.0,
            recovery: RecoveryRule::Rfc6675,
            ..SAWTOOTH_1
        },
    },
    Profile {
        id: "nist",
        name: "NIST simulator",
        description: "NIST's own simulator (Mills et al. (NIST), section 7). The paper does not describe its TCP internals, so every switch is the plain default.",
        mechanisms: SAWTOOTH_1,
    },
    Profile {
        id: "linux-6",
        name: "Linux 6 (current kernel)",
        description: "A current Linux kernel, for free play: per-packet counting, PRR as Linux 6 runs it (slow start below ssthresh only on an ACK that advances snd_una and finds no new loss), CUBIC as Linux's tcp_cubic.c (RFC 9438 with HyStart), the Linux RTO estimator, 1 s initial RTO.",
        mechanisms: Mechanisms {
            highspeed: HighSpeedRule::Table,
            scalable: ScalableRule::LinuxAiCount,
            rto: RtoRule::Linux,
            lost_retransmit: LostRetransmitRule::Rack,
            rto_restart: RtoRestartRule::HeadRetransmit,
            cubic: CubicVersion::Linux6,
            recovery: RecoveryRule::PrrSafeAck,
            cwnd_limited: CwndLimitedRule::Linux6,
            small_queue_limit_bytes: LINUX_6_LIMIT_OUTPUT_BYTES,
            ..SAWTOOTH_1
        },
    },
    Profile {
        id: LEGACY_PROFILE,
        name: "Sawtooth 1 (before profiles)",
        description: "The engine's mechanisms before testbed profiles existed; links and files of scenario format 1 run on it and keep their results.",
        mechanisms: SAWTOOTH_1,
    },
];

pub fn profile(id: &str) -> Option<&'static Profile> {
    PROFILES.iter().find(|p| p.id == id)
}

pub fn profile_ids() -> Vec<&'static str> {
    PROFILES.iter().map(|p| p.id).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_profile_is_unique_and_the_defaults_exist() {
        let ids = profile_ids();
        let set: std::collections::BTreeSet<_> = ids.iter().collect();
        assert_eq!(set.len(), ids.len());
        assert!(profile(LEGACY_PROFILE).is_some());
        assert!(profile(DEFAULT_PROFILE).is_some());
    }
}
