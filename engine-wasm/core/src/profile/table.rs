//! The one table of switches. Each field of [`Mechanisms`] is one setting a
//! profile fixes from a source; each switch groups the fields that one
//! mechanism needs and, for an algorithm's own kernel-dependent rule, names
//! the algorithm (the rule's type lives in its `cc/` file). From the table
//! come the settings, a scenario's override keys ([`MechanismOverrides`]),
//! the switch ids ([`SwitchId`]), which fields a switch turns back, whether
//! two settings differ in a switch, the ablation's relevance check
//! ([`SwitchId::algorithm`]) and the values each setting may take, which
//! the fuzz harness draws ([`MechanismOverrides::visit_values`]). Adding a
//! switch is one field line per setting (its type and its values) and one
//! switch line here, its values in each profile (`catalogue.rs`), its
//! sources (`sources.rs`) and its words (`switches.rs`).
//!
//! A setting's values are one of
//! - `variants`: every variant of its enum ([`Variants::ALL`], written by
//!   the macro that writes the enum, so none can be left out);
//! - `numbers([...])`: listed numbers (the off value, the limits'
//!   ends, a typical value between), for a number only;
//! - `range(limits::…)`: any real number between a limit's ends.

use super::{
    CubicVersion, CwndCounting, CwndLimitedRule, CwrRule, HighSpeedRule, LostRetransmitRule,
    RecoveryRule, RtoRestartRule, RtoRule, ScalableRule,
};
use crate::scenario::limits;
use crate::variants::Variants;
use serde::{Deserialize, Serialize};
use std::fmt::Debug;
use ts_rs::TS;

/// Visits each setting of [`MechanismOverrides`] with the values it may
/// take and its override (the fuzz harness sets it, its test reads it).
pub trait ValueVisitor {
    /// A setting that takes one of `values`: every variant of an enum, or
    /// listed numbers.
    fn one_of<T: Copy + PartialEq + Debug>(
        &mut self,
        field: &'static str,
        values: &[T],
        value: &mut Option<T>,
    );

    /// A setting that takes any value from `range.0` to `range.1`.
    fn range(&mut self, field: &'static str, range: (f64, f64), value: &mut Option<f64>);
}

/// What `numbers(...)` may list: an enum's values are its every variant
/// (`variants`), never a chosen few.
trait Number: Copy + PartialEq + Debug {}
impl Number for u32 {}
impl Number for f64 {}

fn numbers<T: Number>(values: &[T]) -> &[T] {
    values
}

macro_rules! switch_table {
    (@values $visit:ident, $value:expr, $field:ident: $ty:ty, variants) => {
        $visit.one_of(stringify!($field), <$ty as Variants>::ALL, $value)
    };
    (@values $visit:ident, $value:expr, $field:ident: $ty:ty, numbers($values:expr)) => {
        $visit.one_of::<$ty>(stringify!($field), numbers(&$values), $value)
    };
    (@values $visit:ident, $value:expr, $field:ident: $ty:ty, range($range:expr)) => {
        $visit.range(stringify!($field), $range, $value)
    };
    (
        fields {
            $(
                $(#[$field_meta:meta])*
                $field:ident : $ty:ty => $kind:ident $( ( $values:expr ) )?,
            )*
        }
        switches {
            $( $id:ident for $algorithm:expr => [ $( $covers:ident ),+ ], )*
        }
    ) => {
        /// Every switch, fully resolved.
        #[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, TS)]
        #[serde(deny_unknown_fields)]
        #[ts(export, export_to = "scenario.ts")]
        pub struct Mechanisms {
            $( $(#[$field_meta])* pub $field: $ty, )*
        }

        /// Single-switch overrides a scenario may carry on top of its profile.
        #[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize, TS)]
        #[serde(deny_unknown_fields)]
        #[ts(export, export_to = "scenario.ts")]
        pub struct MechanismOverrides {
            $(
                #[serde(default, skip_serializing_if = "Option::is_none")]
                #[ts(optional)]
                pub $field: Option<$ty>,
            )*
        }

        impl MechanismOverrides {
            pub fn is_empty(&self) -> bool {
                *self == MechanismOverrides::default()
            }

            /// `base` with every override applied.
            pub fn apply(&self, base: Mechanisms) -> Mechanisms {
                Mechanisms {
                    $( $field: self.$field.unwrap_or(base.$field), )*
                }
            }

            /// The override that turns switch `id` back to `value`'s setting.
            pub fn with_switch_from(mut self, id: SwitchId, value: &Mechanisms) -> Self {
                match id {
                    $( SwitchId::$id => { $( self.$covers = Some(value.$covers); )+ } )*
                }
                self
            }

            /// Visits each field, in the table's order, with the values it
            /// may take and its override.
            pub fn visit_values(&mut self, visit: &mut impl ValueVisitor) {
                $(
                    switch_table!(
                        @values visit, &mut self.$field, $field: $ty, $kind $( ($values) )?
                    );
                )*
            }
        }

        /// The switches, in the order the docs and the app list them.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
        #[serde(rename_all = "snake_case")]
        #[ts(export, export_to = "profiles.ts")]
        pub enum SwitchId {
            $( $id, )*
        }

        impl SwitchId {
            pub const ALL: [SwitchId; [$( stringify!($id) ),*].len()] = [$( SwitchId::$id ),*];

            /// Does this switch differ between two mechanism sets?
            pub fn differs(self, a: &Mechanisms, b: &Mechanisms) -> bool {
                match self {
                    $( SwitchId::$id => false $( || a.$covers != b.$covers )+, )*
                }
            }

            /// The algorithm whose own rule this switch sets (it acts only
            /// in runs of that algorithm); `None` for the host's and the
            /// stack's mechanisms, which act in every run.
            pub fn algorithm(self) -> Option<&'static str> {
                match self {
                    $( SwitchId::$id => $algorithm, )*
                }
            }
        }
    };
}

switch_table! {
    fields {
        cwnd_counting: CwndCounting => variants,
        highspeed: HighSpeedRule => variants,
        scalable: ScalableRule => variants,
        rto: RtoRule => variants,
        /// RTO before the first RTT sample.
        initial_rto_ms: f64 => range(limits::INITIAL_RTO_MS),
        recovery: RecoveryRule => variants,
        cubic: CubicVersion => variants,
        /// Packets the NIC driver's transmit ring holds behind the interface
        /// queue (0: none). Local congestion happens only when the interface
        /// queue itself is full.
        nic_ring_pkts: u32 => numbers([0, 256, limits::NIC_RING_PKTS.1]),
        /// Interrupt moderation on the sender's receive path: ACKs reach TCP at
        /// most once per this interval, in batches (0: each ACK at once).
        interrupt_interval_us: f64 => range(limits::INTERRUPT_INTERVAL_US),
        /// Receive-buffer accounting as Linux 2.4 did it, with this
        /// `net.core.rmem_max` (0: none, the window is advertised exactly as
        /// set): see [`advertised_window_bytes`].
        rmem_max_bytes: u32
            => numbers([0, limits::RMEM_MAX_BYTES.0, limits::RMEM_MAX_BYTES.1]),
        /// The sending host's own ceiling (bus, CPU) in b/s; 0: the NIC's line
        /// rate.
        host_send_limit_bps: f64 => numbers([0.0, limits::RATE_BPS.0, limits::RATE_BPS.1]),
        /// Delay lines release packets only at multiples of this (a netem
        /// router on a 1000 Hz kernel: whole jiffies); 0: exact delays.
        delay_granularity_us: f64 => range(limits::DELAY_GRANULARITY_US),
        /// The driver's transmit ring in descriptors (0: counted in packets,
        /// `nic_ring_pkts`). Each frame takes one descriptor per buffer of
        /// Linux 2.4's skb layout (`nic::SkbLayout`): 1 at MTU 1500, 3–4 at
        /// MTU 9000.
        #[serde(default)]
        nic_ring_descriptors: u32
            => numbers([0, 1, 256, limits::NIC_RING_DESCRIPTORS.1]),
        /// Sent frames' descriptors are reclaimed by the host's interrupt,
        /// which fires this long after the first write-back (the e1000's TADV);
        /// 0: reclaimed the moment the frame leaves.
        #[serde(default)]
        tx_completion_us: f64 => range(limits::TX_COMPLETION_US),
        /// Minimum gap between the host's network interrupts (the e1000's ITR);
        /// 0: none.
        #[serde(default)]
        interrupt_throttle_us: f64 => range(limits::INTERRUPT_THROTTLE_US),
        /// The kernel's timer tick (HZ): retransmission and delayed-ACK timers
        /// expire on ticks, each host's ticks at its own phase; 0: exact
        /// timers.
        #[serde(default)]
        timer_hz: u32 => numbers([0, 100, limits::TIMER_HZ.1]),
        /// Each port's transmit clock (each host's NIC, the bottleneck port)
        /// runs off nominal by an amount drawn per run, uniform within ± this
        /// many parts per million; 0: every clock exact.
        #[serde(default)]
        clock_tolerance_ppm: f64 => range(limits::CLOCK_TOLERANCE_PPM),
        /// Where a back-off without loss (CWR) takes ssthresh from.
        #[serde(default)]
        cwr: CwrRule => variants,
        /// Interrupt moderation on the receiving host: data segments reach its
        /// TCP (which acknowledges them) at its network interrupt, which fires
        /// this long after the first segment that waits for it (the e1000's
        /// RADV); 0 with no throttle: each segment at once.
        #[serde(default)]
        receiver_interrupt_us: f64 => range(limits::RECEIVER_INTERRUPT_US),
        /// Minimum gap between the receiving host's network interrupts (its
        /// NIC's ITR); 0: none.
        #[serde(default)]
        receiver_interrupt_throttle_us: f64
            => range(limits::RECEIVER_INTERRUPT_THROTTLE_US),
        /// How a lost retransmission is detected.
        #[serde(default)]
        lost_retransmit: LostRetransmitRule => variants,
        /// When the retransmission timer restarts beside an ACK of new data.
        #[serde(default)]
        rto_restart: RtoRestartRule => variants,
        /// When an ACK may grow the window (the sender was window-limited).
        #[serde(default)]
        cwnd_limited: CwndLimitedRule => variants,
        /// TCP Small Queues' `tcp_limit_output_bytes`: a socket keeps about
        /// 1 ms of its pacing rate below TCP (in the qdisc and the ring), at
        /// most this many bytes unless it paces itself; 0: no limit (Linux
        /// before 3.6).
        #[serde(default)]
        small_queue_limit_bytes: u32
            => numbers([0, 262_144, limits::SMALL_QUEUE_LIMIT_BYTES.1]),
    }
    switches {
        CwndCounting for None => [cwnd_counting],
        Highspeed for Some("highspeed") => [highspeed],
        Scalable for Some("scalable") => [scalable],
        Rto for None => [rto, initial_rto_ms],
        RtoRestart for None => [rto_restart],
        Recovery for None => [recovery],
        Cwr for None => [cwr],
        LostRetransmit for None => [lost_retransmit],
        Cubic for Some("cubic") => [cubic],
        NicRing for None => [nic_ring_pkts, nic_ring_descriptors],
        TxCompletion for None => [tx_completion_us],
        InterruptModeration for None => [interrupt_interval_us, interrupt_throttle_us],
        ReceiverInterrupt for None => [receiver_interrupt_us, receiver_interrupt_throttle_us],
        TimerTick for None => [timer_hz],
        ClockTolerance for None => [clock_tolerance_ppm],
        ReceiveBuffer for None => [rmem_max_bytes],
        HostSendLimit for None => [host_send_limit_bps],
        CwndLimited for None => [cwnd_limited],
        SmallQueues for None => [small_queue_limit_bytes],
        DelayGranularity for None => [delay_granularity_us],
    }
}

impl Mechanisms {
    /// The algorithms' own kernel-dependent rules, as the congestion
    /// controllers take them.
    pub fn algorithm_rules(&self) -> crate::cc::AlgorithmRules {
        crate::cc::AlgorithmRules {
            highspeed: self.highspeed,
            scalable: self.scalable,
            cubic: self.cubic,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::{PROFILES, SAWTOOTH_1};

    /// Every field belongs to a switch: turning on each switch of a profile
    /// over the plain model, one after another, gives the profile.
    #[test]
    fn the_switches_cover_every_setting_of_every_profile() {
        for p in PROFILES {
            let mut o = MechanismOverrides::default();
            for id in SwitchId::ALL {
                o = o.with_switch_from(id, &p.mechanisms);
            }
            assert_eq!(o.apply(SAWTOOTH_1), p.mechanisms, "{}", p.id);
        }
    }

    #[test]
    fn only_the_algorithms_own_rules_name_an_algorithm() {
        let named: Vec<_> = SwitchId::ALL
            .into_iter()
            .filter_map(|id| id.algorithm().map(|a| (id, a)))
            .collect();
        assert_eq!(
            named,
            [
                (SwitchId::Highspeed, "highspeed"),
                (SwitchId::Scalable, "scalable"),
                (SwitchId::Cubic, "cubic")
            ]
        );
        for (_, a) in named {
            assert!(crate::cc::algorithm_info(a).is_some(), "{a}");
        }
    }
}
