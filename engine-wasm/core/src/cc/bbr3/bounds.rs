//! The bounds BBRv3 learns from loss: the loss-rate test, the short-term
//! lower bounds (`bw_lo`, `inflight_lo`) and the caps they put on cwnd.

use super::{Bbr3, Mode, Phase, CWND_MIN_TARGET, UNSET};
use crate::cc::{AckSample, Window};

impl Bbr3 {
    /// `bbr_is_probing_bandwidth`: STARTUP, REFILL and UP push in-flight
    /// up, so the lower bounds are not used there.
    pub(super) fn is_probing_bandwidth(&self) -> bool {
        self.mode == Mode::Startup
            || (self.mode == Mode::ProbeBw && matches!(self.phase, Phase::Refill | Phase::Up))
    }

    /// `bbr_is_inflight_too_high`: the packets lost since the sample's
    /// packet left (`rs->lost`) are more than `bbr_loss_thresh` of what
    /// was in flight then (`rs->tx_in_flight`).
    pub(super) fn is_inflight_too_high(&self, ack: &AckSample) -> bool {
        ack.tx_lost_pkts > 0
            && ack.tx_in_flight_pkts > 0
            && ack.tx_lost_pkts as f64 > ack.tx_in_flight_pkts as f64 * self.loss_thresh
    }

    /// `bbr_reset_congestion_signals`.
    pub(super) fn reset_congestion_signals(&mut self) {
        self.loss_in_round = false;
        self.bw_latest = 0.0;
        self.inflight_latest = 0;
    }

    /// `bbr_reset_lower_bounds`.
    pub(super) fn reset_lower_bounds(&mut self) {
        self.bw_lo = f64::INFINITY;
        self.inflight_lo = UNSET;
    }

    /// `bbr_advance_max_bw_filter`: the current cycle's max becomes the
    /// previous one's (unless this cycle had no sample).
    pub(super) fn advance_max_bw_filter(&mut self) {
        if self.bw_hi[1] == 0.0 {
            return;
        }
        self.bw_hi[0] = self.bw_hi[1];
        self.bw_hi[1] = 0.0;
    }

    /// `bbr_update_latest_delivery_signals`: this round's highest rate and
    /// delivered volume, and the loss rounds.
    pub(super) fn update_latest_delivery_signals(&mut self, ack: &AckSample) {
        self.loss_round_start = false;
        let Some(sample_bw) = ack.delivery_rate_pps else {
            return;
        };
        if ack.acked_pkts == 0 {
            return;
        }
        let delivered = ack.delivered_pkts.saturating_sub(ack.prior_delivered_pkts) as u32;
        self.bw_latest = self.bw_latest.max(sample_bw);
        self.inflight_latest = self.inflight_latest.max(delivered);
        if ack.prior_delivered_pkts >= self.loss_round_delivered {
            self.loss_round_delivered = ack.delivered_pkts;
            self.loss_round_start = true;
        }
    }

    /// `bbr_advance_latest_delivery_signals`: a new loss round starts
    /// from this ACK's sample.
    pub(super) fn advance_latest_delivery_signals(&mut self, ack: &AckSample) {
        if self.loss_round_start {
            if let Some(sample_bw) = ack.delivery_rate_pps {
                self.bw_latest = sample_bw;
                self.inflight_latest =
                    ack.delivered_pkts.saturating_sub(ack.prior_delivered_pkts) as u32;
            }
        }
    }

    /// `bbr_update_congestion_signals`: the max filter takes the sample;
    /// once per loss round, the lower bounds adapt.
    pub(super) fn update_congestion_signals(
        &mut self,
        w: &Window,
        ack: &AckSample,
        app_limited: bool,
    ) {
        let Some(sample_bw) = ack.delivery_rate_pps else {
            return;
        };
        if ack.acked_pkts == 0 {
            return;
        }
        if !app_limited || sample_bw >= self.max_bw_pps() {
            // `bbr_take_max_bw_sample`.
            self.bw_hi[1] = self.bw_hi[1].max(sample_bw);
        }
        self.loss_in_round |= ack.losses_pkts > 0;
        if !self.loss_round_start {
            return;
        }
        self.adapt_lower_bounds(w);
        self.loss_in_round = false;
    }

    /// `bbr_adapt_lower_bounds`: outside a probe, a round trip with loss
    /// cuts `bw_lo` and `inflight_lo` by `bbr_beta`, not below this
    /// round's delivery (`bbr_init_lower_bounds`, `bbr_loss_lower_bounds`).
    fn adapt_lower_bounds(&mut self, w: &Window) {
        if self.is_probing_bandwidth() || !self.loss_in_round {
            return;
        }
        if self.bw_lo.is_infinite() {
            self.bw_lo = self.max_bw_pps();
        }
        if self.inflight_lo == UNSET {
            self.inflight_lo = w.cwnd_pkts;
        }
        let keep = 1.0 - self.beta;
        self.bw_lo = self.bw_latest.max(self.bw_lo * keep);
        self.inflight_lo = self
            .inflight_latest
            .max((self.inflight_lo as f64 * keep) as u32);
    }

    /// `bbr_inflight_with_headroom`: `inflight_hi` less 15 %, at least 4.
    pub(super) fn inflight_with_headroom(&self) -> u32 {
        if self.inflight_hi == UNSET {
            return UNSET;
        }
        let headroom = ((self.inflight_hi as f64 * self.headroom) as u32).max(1);
        self.inflight_hi
            .saturating_sub(headroom)
            .max(CWND_MIN_TARGET)
    }

    /// `bbr_bound_cwnd_for_inflight_model`: `inflight_hi` caps cwnd while
    /// probing in PROBE_BW, with headroom in CRUISE and PROBE_RTT; the
    /// lower bound always.
    pub(super) fn bound_cwnd_for_inflight_model(&self, cwnd: u32) -> u32 {
        let mut cap = UNSET;
        if self.mode == Mode::ProbeBw && self.phase != Phase::Cruise {
            cap = self.inflight_hi;
        } else if self.mode == Mode::ProbeRtt
            || (self.mode == Mode::ProbeBw && self.phase == Phase::Cruise)
        {
            cap = self.inflight_with_headroom();
        }
        cap = cap.min(self.inflight_lo).max(CWND_MIN_TARGET);
        cwnd.min(cap)
    }
}
