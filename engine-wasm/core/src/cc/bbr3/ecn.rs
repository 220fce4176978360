//! BBRv3's ECN response (google/bbr v3 `tcp_bbr.c`), used only on a
//! "shallow-threshold ECN environment": Linux needs ECN negotiated and the
//! route's `ecn_low` flag (`bbr_can_use_ecn`), which no default sets, and
//! then only once the min RTT is at most 5 ms (`bbr_ecn_max_rtt_us`).
//! Here the `ecn` parameter stands for that route flag; the receiver then
//! echoes each packet's CE state as DCTCP's does (`bbr_precise_ece_ack`).
//!
//! * Once per round, `ecn_alpha` ← 15/16 · `ecn_alpha` + 1/16 · the
//!   round's CE fraction (`bbr_update_ecn_alpha`, in 256ths, from 1).
//! * A round trip with ECE outside a probe caps `inflight_lo` at
//!   (1 − `ecn_alpha` · 1/3) of it (`bbr_ecn_lower_bounds`).
//! * A sample with more than half its packets CE-marked is "too high"
//!   (`bbr_is_inflight_too_high`), as a loss rate over 2 % is.
//! * STARTUP ends after 2 rounds with a CE fraction of at least ½
//!   (`bbr_check_ecn_too_high_in_startup`).
//! * CE marks without loss in a cycle make the next probe come as soon as
//!   the marks stop, growing `inflight_hi` by half of it in the first round
//!   (`bbr_check_time_to_probe_bw`'s ECN re-probe).

use super::{Bbr3, UNSET};
use crate::cc::{AckSample, Window};

/// `bbr_ecn_max_rtt_us`: ECN is used only on paths of min RTT ≤ 5 ms.
pub const ECN_MAX_RTT_NS: u64 = 5_000_000;
/// `bbr_ecn_alpha_gain` (`BBR_UNIT / 16`), `bbr_ecn_alpha_init` (`BBR_UNIT`).
pub const ECN_ALPHA_GAIN: u64 = 16;
pub const ECN_ALPHA_INIT: u64 = 256;
/// `bbr_ecn_factor` (`BBR_UNIT * 1 / 3` = 85): the share of `ecn_alpha`
/// a marked round cuts from `inflight_lo`.
pub const ECN_FACTOR: u64 = 85;
/// `bbr_ecn_thresh` (`BBR_UNIT / 2`): the CE fraction that is too high.
pub const ECN_THRESH: u64 = 128;
/// `bbr_ecn_reprobe_gain` (`BBR_UNIT / 2`).
pub const ECN_REPROBE_GAIN: u64 = 128;
/// `bbr_full_ecn_cnt`: rounds of high CE fraction that end STARTUP.
pub const FULL_ECN_CNT: u32 = 2;

impl Bbr3 {
    /// `bbr_update_ecn_alpha`, at a round start: ECN eligibility, the EWMA
    /// of the CE fraction, and STARTUP's ECN exit.
    pub(super) fn update_ecn_alpha(&mut self, ack: &AckSample) {
        if !self.ecn_eligible && self.ecn_enabled && self.min_rtt_ns <= ECN_MAX_RTT_NS {
            self.ecn_eligible = true;
        }
        if !self.ecn_eligible {
            return;
        }
        let delivered = ack.delivered_pkts.saturating_sub(self.alpha_last_delivered);
        let delivered_ce = ack
            .delivered_ce_pkts
            .saturating_sub(self.alpha_last_delivered_ce);
        if delivered == 0 {
            return;
        }
        let ce_ratio = (delivered_ce << 8) / delivered;
        let alpha =
            (((256 - ECN_ALPHA_GAIN) * self.ecn_alpha) >> 8) + ((ECN_ALPHA_GAIN * ce_ratio) >> 8);
        self.ecn_alpha = alpha.min(256);
        self.alpha_last_delivered = ack.delivered_pkts;
        self.alpha_last_delivered_ce = ack.delivered_ce_pkts;
        self.check_ecn_too_high_in_startup(ce_ratio);
    }

    /// `bbr_check_ecn_too_high_in_startup`.
    fn check_ecn_too_high_in_startup(&mut self, ce_ratio: u64) {
        if self.full_bw_reached || !self.ecn_eligible {
            return;
        }
        if ce_ratio >= ECN_THRESH {
            self.startup_ecn_rounds += 1;
        } else {
            self.startup_ecn_rounds = 0;
        }
        if self.startup_ecn_rounds >= FULL_ECN_CNT {
            self.handle_queue_too_high_in_startup();
        }
    }

    /// The ECN half of `bbr_is_inflight_too_high`: more than half of the
    /// sample's delivered packets came back CE-marked.
    pub(super) fn ecn_rate_too_high(&self, ack: &AckSample) -> bool {
        let delivered = ack.delivered_pkts.saturating_sub(ack.prior_delivered_pkts);
        let delivered_ce = ack.tx_delivered_ce_pkts as u64;
        self.ecn_eligible
            && delivered_ce > 0
            && delivered > 0
            && delivered_ce > (delivered * ECN_THRESH) >> 8
    }

    /// `bbr_ecn_cut`, in 256ths: 256 − `ecn_alpha` · `bbr_ecn_factor`.
    pub(super) fn ecn_cut(&self) -> u64 {
        256 - ((self.ecn_alpha * ECN_FACTOR) >> 8)
    }

    /// The ECN part of `bbr_adapt_lower_bounds` (`bbr_init_lower_bounds`
    /// without `bw_lo`, then `bbr_ecn_lower_bounds`): the level a marked
    /// round allows, `UNSET` when the round had no ECE.
    pub(super) fn ecn_inflight_lo(&mut self, w: &Window) -> u32 {
        if !self.ecn_in_round {
            return UNSET;
        }
        if self.inflight_lo == UNSET {
            self.inflight_lo = w.cwnd_pkts;
        }
        ((self.inflight_lo as u64 * self.ecn_cut()) >> 8) as u32
    }

    /// `bbr_check_time_to_probe_bw`'s ECN re-probe: marks but no loss in
    /// this cycle, and the flow back in Open: probe now, the first UP round
    /// adding about half of `inflight_hi` (2^n with n = ⌊log2(inflight_hi ·
    /// 128/256)⌋).
    pub(super) fn ecn_reprobe_rounds(&self) -> Option<u32> {
        if !(self.ecn_eligible
            && self.ecn_in_cycle
            && !self.loss_in_cycle
            && self.ca_state == crate::cc::CaState::Open)
        {
            return None;
        }
        let half = (self.inflight_hi as u64 * ECN_REPROBE_GAIN) >> 8;
        Some(if half == 0 {
            0
        } else {
            63 - half.leading_zeros()
        })
    }
}
