//! Each switch's value in words (the ablation view, docs/profiles.md).
//! Which fields a switch covers is in the table (`table.rs`).

use super::{
    CwndCounting, CwndLimitedRule, CwrRule, LostRetransmitRule, Mechanisms, RecoveryRule,
    RtoRestartRule, RtoRule, SwitchId,
};

impl SwitchId {
    /// The switch's value in words.
    pub fn describe_value(self, m: &Mechanisms) -> String {
        match self {
            SwitchId::CwndCounting => match m.cwnd_counting {
                CwndCounting::PerPacket => "per acknowledged packet".into(),
                CwndCounting::PerAck => "per ACK".into(),
            },
            SwitchId::Highspeed => m.highspeed.describe().into(),
            SwitchId::Scalable => m.scalable.describe().into(),
            SwitchId::Rto => format!(
                "{}, initial {} s",
                match m.rto {
                    RtoRule::Rfc6298 => "RFC 6298",
                    RtoRule::Linux => "Linux estimator",
                },
                m.initial_rto_ms / 1000.0
            ),
            SwitchId::RtoRestart => match m.rto_restart {
                RtoRestartRule::Ack => "on an ACK of new data (RFC 6298)".into(),
                RtoRestartRule::HeadRetransmit => {
                    "also when the first unacknowledged segment is resent (Linux)".into()
                }
            },
            SwitchId::Recovery => match m.recovery {
                RecoveryRule::Prr => "PRR".into(),
                RecoveryRule::PrrSafeAck => "PRR, slow start only on a safe ACK (Linux 6)".into(),
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
            SwitchId::Cubic => m.cubic.describe().into(),
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
            SwitchId::CwndLimited => match m.cwnd_limited {
                CwndLimitedRule::InFlight => "when the flight before the ACK filled the window".into(),
                CwndLimitedRule::Linux6 => {
                    "window-limited since the window's data left, or below twice the flight in slow start (Linux 6)".into()
                }
            },
            SwitchId::SmallQueues => {
                if m.small_queue_limit_bytes == 0 {
                    "none".into()
                } else {
                    format!(
                        "about 1 ms of the pacing rate per socket, at most {} KiB",
                        m.small_queue_limit_bytes / 1024
                    )
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
    use crate::profile::{profile, MechanismOverrides, SAWTOOTH_1};

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
