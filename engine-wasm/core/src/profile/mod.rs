//! Testbed profiles: a named set of mechanisms describing one paper's kernel
//! and host. Every mechanism is a separate switch a scenario may
//! override one at a time (for ablation); every value a profile sets cites
//! its source in [`SWITCHES`] (rendered into docs/profiles.md and shown in
//! the app). No value here was chosen by comparing simulated results with
//! the published ones.
//!
//! One job per file:
//! - this file: the rules that are not one algorithm's (window counting,
//!   RTO and its restart, recovery, CWR, lost retransmissions), and the re-exports that
//!   keep every item at `crate::profile::*`; an algorithm's own
//!   kernel-dependent rule lives in its `cc/` file (`cc::AlgorithmRules`);
//! - `table.rs`: the one table of switches: the settings ([`Mechanisms`]),
//!   a scenario's single-switch overrides ([`MechanismOverrides`]), the
//!   switches ([`SwitchId`]), which fields each covers and which algorithm
//!   it belongs to, and the values each setting may take (what the fuzz
//!   harness draws: [`ValueVisitor`]), all generated from it;
//! - `switches.rs`: each switch's value in words;
//! - `sources.rs`: what each switch is and the source of each profile's
//!   value ([`SWITCHES`]);
//! - `catalogue.rs`: the profiles ([`PROFILES`]);
//! - `rcvbuf.rs`: Linux 2.4's receive-buffer accounting
//!   ([`advertised_window_bytes`]).

mod catalogue;
mod rcvbuf;
mod sources;
mod switches;
mod table;

pub use crate::cc::{AlgorithmRules, CubicVersion, HighSpeedRule, ScalableRule};
pub use catalogue::{
    profile, profile_ids, Profile, DEFAULT_PROFILE, LEGACY_PROFILE, PROFILES, SAWTOOTH_1,
};
pub use rcvbuf::{advertised_window_bytes, e1000_rx_buffer_bytes};
pub use sources::{switch_info, SwitchInfo, SWITCHES};
pub use table::{MechanismOverrides, Mechanisms, SwitchId, ValueVisitor};

use crate::variants::enum_with_variants;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

enum_with_variants! {
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
}

enum_with_variants! {
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
}

enum_with_variants! {
    /// How the window comes down during fast recovery.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
    #[serde(rename_all = "snake_case")]
    #[ts(export, export_to = "scenario.ts")]
    pub enum RecoveryRule {
        /// Proportional Rate Reduction (RFC 6937; Linux's first PRR, 3.2): below
        /// ssthresh every ACK may send one more than it delivered (the
        /// slow-start reduction bound).
        Prr,
        /// Proportional Rate Reduction as Linux 6 does it
        /// (`tcp_cwnd_reduction`): below ssthresh, packet conservation,
        /// and one more only on an ACK that advances snd_una and finds no new
        /// loss (`flag & FLAG_SND_UNA_ADVANCED && !newly_lost`), so that a
        /// recovery meeting further losses does not slow-start into them.
        PrrSafeAck,
        /// Rate halving (Linux 2.4–3.1 `tcp_cwnd_down`), in CWR and Recovery
        /// alike: one packet less every second ACK (duplicates included) while
        /// cwnd > ssthresh/2, never above in-flight + 1; cwnd = min(cwnd,
        /// ssthresh) when the episode ends.
        RateHalving,
        /// RFC 6675 §5 (ns-2's SACK agent): cwnd = ssthresh at once, sending
        /// while the pipe estimate is below it.
        Rfc6675,
    }
}

enum_with_variants! {
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
}

enum_with_variants! {
    /// When the retransmission timer restarts, beside an ACK of new data and
    /// its own expiry.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
    #[serde(rename_all = "snake_case")]
    #[ts(export, export_to = "scenario.ts")]
    pub enum RtoRestartRule {
        /// RFC 6298 §5.1 and §5.3 only: the timer starts when a segment is
        /// sent with none running and restarts when an ACK acknowledges new
        /// data; a retransmission during recovery leaves it running.
        #[default]
        Ack,
        /// Linux (2.4 to 6.x) `tcp_xmit_retransmit_queue`: retransmitting the
        /// first unacknowledged segment (the head of the retransmission queue)
        /// also restarts the timer, for a full RTO from that retransmission
        /// (`tcp_reset_xmit_timer(sk, ICSK_TIME_RETRANS, icsk_rto, ...)`).
        HeadRetransmit,
    }
}

enum_with_variants! {
    /// When an ACK may grow the window: only while the window, not the
    /// sender, was the limit.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
    #[serde(rename_all = "snake_case")]
    #[ts(export, export_to = "scenario.ts")]
    pub enum CwndLimitedRule {
        /// When the packets in flight before the ACK, plus one, reached the
        /// window (or the receiver's window, if smaller).
        #[default]
        InFlight,
        /// Linux 6 (`tcp_is_cwnd_limited`, kept by `tcp_cwnd_validate` at
        /// the end of each `tcp_write_xmit`): when the sender was
        /// window-limited at any send since the window's data went out, or,
        /// in slow start, while cwnd is below twice the most packets out in
        /// that time.
        Linux6,
    }
}

enum_with_variants! {
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
}
