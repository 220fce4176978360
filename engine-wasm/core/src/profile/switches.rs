//! The switches one by one: which [`Mechanisms`] fields each covers (the
//! override that turns it back, whether two settings differ) and its value
//! in words.

use super::{
    CubicVersion, CwndCounting, CwrRule, HighSpeedRule, LostRetransmitRule, MechanismOverrides,
    Mechanisms, RecoveryRule, RtoRule, ScalableRule,
};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

impl MechanismOverrides {
    /// The override that turns switch `id` back to `value`'s setting.
    pub fn with_switch_from(mut self, id: SwitchId, value: &Mechanisms) -> Self {
        match id {
            SwitchId::CwndCounting => self.cwnd_counting = Some(value.cwnd_counting),
            SwitchId::Highspeed => self.highspeed = Some(value.highspeed),
            SwitchId::Scalable => self.scalable = Some(value.scalable),
            SwitchId::Rto => {
                self.rto = Some(value.rto);
                self.initial_rto_ms = Some(value.initial_rto_ms);
            }
            SwitchId::Recovery => self.recovery = Some(value.recovery),
            SwitchId::Cwr => self.cwr = Some(value.cwr),
            SwitchId::LostRetransmit => self.lost_retransmit = Some(value.lost_retransmit),
            SwitchId::Cubic => self.cubic = Some(value.cubic),
            SwitchId::NicRing => {
                self.nic_ring_pkts = Some(value.nic_ring_pkts);
                self.nic_ring_descriptors = Some(value.nic_ring_descriptors);
            }
            SwitchId::TxCompletion => self.tx_completion_us = Some(value.tx_completion_us),
            SwitchId::InterruptModeration => {
                self.interrupt_interval_us = Some(value.interrupt_interval_us);
                self.interrupt_throttle_us = Some(value.interrupt_throttle_us);
            }
            SwitchId::ReceiverInterrupt => {
                self.receiver_interrupt_us = Some(value.receiver_interrupt_us);
                self.receiver_interrupt_throttle_us = Some(value.receiver_interrupt_throttle_us);
            }
            SwitchId::TimerTick => self.timer_hz = Some(value.timer_hz),
            SwitchId::ClockTolerance => self.clock_tolerance_ppm = Some(value.clock_tolerance_ppm),
            SwitchId::ReceiveBuffer => self.rmem_max_bytes = Some(value.rmem_max_bytes),
            SwitchId::HostSendLimit => self.host_send_limit_bps = Some(value.host_send_limit_bps),
            SwitchId::DelayGranularity => {
                self.delay_granularity_us = Some(value.delay_granularity_us)
            }
        }
        self
    }
}

/// The switches, in the order the docs and the app list them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export, export_to = "profiles.ts")]
pub enum SwitchId {
    CwndCounting,
    Highspeed,
    Scalable,
    Rto,
    Recovery,
    Cwr,
    LostRetransmit,
    Cubic,
    NicRing,
    TxCompletion,
    InterruptModeration,
    ReceiverInterrupt,
    TimerTick,
    ClockTolerance,
    ReceiveBuffer,
    HostSendLimit,
    DelayGranularity,
}

impl SwitchId {
    pub const ALL: [SwitchId; 17] = [
        SwitchId::CwndCounting,
        SwitchId::Highspeed,
        SwitchId::Scalable,
        SwitchId::Rto,
        SwitchId::Recovery,
        SwitchId::Cwr,
        SwitchId::LostRetransmit,
        SwitchId::Cubic,
        SwitchId::NicRing,
        SwitchId::TxCompletion,
        SwitchId::InterruptModeration,
        SwitchId::ReceiverInterrupt,
        SwitchId::TimerTick,
        SwitchId::ClockTolerance,
        SwitchId::ReceiveBuffer,
        SwitchId::HostSendLimit,
        SwitchId::DelayGranularity,
    ];

    /// Does this switch differ between two mechanism sets?
    pub fn differs(self, a: &Mechanisms, b: &Mechanisms) -> bool {
        match self {
            SwitchId::CwndCounting => a.cwnd_counting != b.cwnd_counting,
            SwitchId::Highspeed => a.highspeed != b.highspeed,
            SwitchId::Scalable => a.scalable != b.scalable,
            SwitchId::Rto => a.rto != b.rto || a.initial_rto_ms != b.initial_rto_ms,
            SwitchId::Recovery => a.recovery != b.recovery,
            SwitchId::Cwr => a.cwr != b.cwr,
            SwitchId::LostRetransmit => a.lost_retransmit != b.lost_retransmit,
            SwitchId::Cubic => a.cubic != b.cubic,
            SwitchId::NicRing => {
                a.nic_ring_pkts != b.nic_ring_pkts
                    || a.nic_ring_descriptors != b.nic_ring_descriptors
            }
            SwitchId::TxCompletion => a.tx_completion_us != b.tx_completion_us,
            SwitchId::InterruptModeration => {
                a.interrupt_interval_us != b.interrupt_interval_us
                    || a.interrupt_throttle_us != b.interrupt_throttle_us
            }
            SwitchId::ReceiverInterrupt => {
                a.receiver_interrupt_us != b.receiver_interrupt_us
                    || a.receiver_interrupt_throttle_us != b.receiver_interrupt_throttle_us
            }
            SwitchId::TimerTick => a.timer_hz != b.timer_hz,
            SwitchId::ClockTolerance => a.clock_tolerance_ppm != b.clock_tolerance_ppm,
            SwitchId::ReceiveBuffer => a.rmem_max_bytes != b.rmem_max_bytes,
            SwitchId::HostSendLimit => a.host_send_limit_bps != b.host_send_limit_bps,
            SwitchId::DelayGranularity => a.delay_granularity_us != b.delay_granularity_us,
        }
    }

    /// The switch's value in words.
    pub fn describe_value(self, m: &Mechanisms) -> String {
        match self {
            SwitchId::CwndCounting => match m.cwnd_counting {
                CwndCounting::PerPacket => "per acknowledged packet".into(),
                CwndCounting::PerAck => "per ACK".into(),
            },
            SwitchId::Highspeed => match m.highspeed {
                HighSpeedRule::Formula => "RFC 3649 formulas".into(),
                HighSpeedRule::Table => "RFC 3649 table (kernel lookup)".into(),
            },
            SwitchId::Scalable => match m.scalable {
                ScalableRule::Kelly => "Kelly's legacy window".into(),
                ScalableRule::LinuxAiCount => "Linux AI count".into(),
            },
            SwitchId::Rto => format!(
                "{}, initial {} s",
                match m.rto {
                    RtoRule::Rfc6298 => "RFC 6298",
                    RtoRule::Linux => "Linux estimator",
                },
                m.initial_rto_ms / 1000.0
            ),
            SwitchId::Recovery => match m.recovery {
                RecoveryRule::Prr => "PRR".into(),
                RecoveryRule::RateHalving => "rate halving".into(),
                RecoveryRule::Rfc6675 => "RFC 6675 (cwnd = ssthresh)".into(),
            },
            SwitchId::Cwr => match m.cwr {
                CwrRule::Algorithm => "the algorithm's decrease".into(),
                CwrRule::Halve => "halving, whatever the algorithm".into(),
            },
            SwitchId::LostRetransmit => match m.lost_retransmit {
                LostRetransmitRule::Timeout => "only by the timeout".into(),
                LostRetransmitRule::Recovery => {
                    "in Recovery, a SACK of later data (Linux 2.4)".into()
                }
                LostRetransmitRule::Rack => "RACK (RFC 8985)".into(),
            },
            SwitchId::Cubic => match m.cubic {
                CubicVersion::Rfc9438 => "RFC 9438".into(),
                CubicVersion::Linux2622 => "Linux 2.6.22".into(),
                CubicVersion::Linux6 => "Linux 6 tcp_cubic.c".into(),
            },
            SwitchId::NicRing => {
                if m.nic_ring_descriptors > 0 {
                    format!(
                        "{} descriptors (1 per 1500-byte frame, 3–4 per 9000-byte frame)",
                        m.nic_ring_descriptors
                    )
                } else if m.nic_ring_pkts == 0 {
                    "none".into()
                } else {
                    format!("{} packets", m.nic_ring_pkts)
                }
            }
            SwitchId::TxCompletion => {
                if m.tx_completion_us == 0.0 {
                    "at once".into()
                } else {
                    format!(
                        "at the interrupt, {} µs after the first",
                        m.tx_completion_us
                    )
                }
            }
            SwitchId::InterruptModeration => {
                if m.interrupt_interval_us == 0.0 && m.interrupt_throttle_us == 0.0 {
                    "off".into()
                } else if m.interrupt_throttle_us == 0.0 {
                    format!("{} µs", m.interrupt_interval_us)
                } else {
                    format!(
                        "{} µs, at most one interrupt per {} µs",
                        m.interrupt_interval_us, m.interrupt_throttle_us
                    )
                }
            }
            SwitchId::ReceiverInterrupt => {
                if m.receiver_interrupt_us == 0.0 && m.receiver_interrupt_throttle_us == 0.0 {
                    "off".into()
                } else if m.receiver_interrupt_throttle_us == 0.0 {
                    format!("{} µs", m.receiver_interrupt_us)
                } else {
                    format!(
                        "{} µs, at most one interrupt per {} µs",
                        m.receiver_interrupt_us, m.receiver_interrupt_throttle_us
                    )
                }
            }
            SwitchId::TimerTick => {
                if m.timer_hz == 0 {
                    "exact timers".into()
                } else {
                    format!("HZ = {}", m.timer_hz)
                }
            }
            SwitchId::ClockTolerance => {
                if m.clock_tolerance_ppm == 0.0 {
                    "every clock exact".into()
                } else {
                    format!("each port within ±{} ppm", m.clock_tolerance_ppm)
                }
            }
            SwitchId::ReceiveBuffer => {
                if m.rmem_max_bytes == 0 {
                    "window as set".into()
                } else {
                    format!(
                        "Linux 2.4 accounting, rmem_max {} MB",
                        m.rmem_max_bytes as f64 / 1048576.0
                    )
                }
            }
            SwitchId::HostSendLimit => {
                if m.host_send_limit_bps == 0.0 {
                    "line rate".into()
                } else {
                    format!("{} Mb/s", m.host_send_limit_bps / 1e6)
                }
            }
            SwitchId::DelayGranularity => {
                if m.delay_granularity_us == 0.0 {
                    "exact".into()
                } else {
                    format!("{} ms steps", m.delay_granularity_us / 1000.0)
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::{profile, SAWTOOTH_1};

    #[test]
    fn an_override_turns_back_exactly_one_switch() {
        let p = profile("linux-2.4").unwrap().mechanisms;
        for id in SwitchId::ALL {
            let o = MechanismOverrides::default().with_switch_from(id, &SAWTOOTH_1);
            let m = o.apply(p);
            for other in SwitchId::ALL {
                if other != id {
                    assert!(!other.differs(&m, &p), "{id:?} also moved {other:?}");
                }
            }
            assert!(!id.differs(&m, &SAWTOOTH_1));
        }
    }
}
