//! The bounds BBRv3 learns from loss: the loss-rate test, the short-term
//! lower bounds (`bw_lo`, `inflight_lo`) and the caps they put on cwnd.

use super::{Bbr3, Mode, Phase, CWND_MIN_TARGET, UNSET};
use crate::cc::{AckSample, LostPacket, Window};

impl Bbr3 {
    /// `bbr_is_probing_bandwidth`: STARTUP, REFILL and UP push in-flight
    /// up, so the lower bounds are not used there.
    pub(super) fn is_probing_bandwidth(&self) -> bool {
        self.mode == Mode::Startup
            || (self.mode == Mode::ProbeBw && matches!(self.phase, Phase::Refill | Phase::Up))
    }

    /// `bbr_is_inflight_too_high`: the packets lost since the sample's
    /// packet left (`rs->lost`) are more than `bbr_loss_thresh` of what
    /// was in flight then (`rs->tx_in_flight`), or (ECN routes) more than
    /// half of the sample's packets came back CE-marked.
    pub(super) fn is_inflight_too_high(&self, ack: &AckSample) -> bool {
        self.loss_rate_too_high(ack.tx_in_flight_pkts, ack.tx_lost_pkts)
            || self.ecn_rate_too_high(ack)
    }

    /// The test of `bbr_is_inflight_too_high` on any flight: `lost_pkts`
    /// of `tx_in_flight_pkts` is over `bbr_loss_thresh`.
    pub(super) fn loss_rate_too_high(&self, tx_in_flight_pkts: u32, lost_pkts: u32) -> bool {
        lost_pkts > 0
            && tx_in_flight_pkts > 0
            && lost_pkts as f64 > tx_in_flight_pkts as f64 * self.loss_thresh
    }

    /// `bbr_note_loss`: the first loss of a round trip starts the loss
    /// round at the current delivered count, "to have a better chance of
    /// observing the full capacity of the path".
    pub(super) fn note_loss(&mut self, delivered_pkts: u64) {
        if !self.loss_in_round {
            self.loss_round_delivered = delivered_pkts;
        }
        self.loss_in_round = true;
        self.loss_in_cycle = true;
    }

    /// `bbr_skb_marked_lost`: while a probe's packets are out, each packet
    /// marked lost is tested on the flight that led up to it (its own
    /// `tx.in_flight` and the losses since it left); if that flight lost
    /// too much, `inflight_hi` is set where the loss rate crossed the
    /// threshold.
    pub(super) fn on_packet_lost(&mut self, w: &Window, lost: &LostPacket) {
        self.note_loss(lost.delivered_pkts);
        if !self.bw_probe_samples {
            return;
        }
        if self.loss_rate_too_high(lost.tx_in_flight_pkts, lost.tx_lost_pkts) {
            let tx_in_flight = self.inflight_hi_from_lost_packet(lost);
            let app_limited = self.sent_app_limited(lost.delivered_at_send_pkts);
            self.handle_inflight_too_high(
                w,
                tx_in_flight,
                app_limited,
                lost.now_ns,
                lost.delivered_pkts,
            );
        }
    }

    /// `bbr_inflight_hi_from_lost_skb` for a one-packet skb (no TSO here):
    /// the flight before this packet, plus the part of this packet at which
    /// the losses crossed `bbr_loss_thresh` (in the kernel's fixed point,
    /// `loss_budget` rounded up); unset if the counts are inconsistent.
    pub(super) fn inflight_hi_from_lost_packet(&self, lost: &LostPacket) -> u32 {
        const PCOUNT: i64 = 1;
        let thresh = (self.loss_thresh * 256.0).round() as i64;
        let inflight_prev = lost.tx_in_flight_pkts as i64 - PCOUNT;
        let lost_prev = lost.tx_lost_pkts as i64 - PCOUNT;
        if inflight_prev < 0 || lost_prev < 0 || thresh >= 256 {
            return UNSET;
        }
        let loss_budget = (inflight_prev * thresh + 255) >> 8;
        let lost_prefix = if lost_prev >= loss_budget {
            0
        } else {
            ((loss_budget - lost_prev) << 8) / (256 - thresh)
        };
        (inflight_prev + lost_prefix).min(UNSET as i64 - 1) as u32
    }

    /// `bbr_reset_congestion_signals`.
    pub(super) fn reset_congestion_signals(&mut self) {
        self.loss_in_round = false;
        self.ecn_in_round = false;
        self.loss_in_cycle = false;
        self.ecn_in_cycle = false;
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
        self.ecn_in_round = false;
    }

    /// `bbr_adapt_lower_bounds`: outside a probe, a round trip with loss
    /// cuts `bw_lo` and `inflight_lo` by `bbr_beta`, not below this
    /// round's delivery (`bbr_init_lower_bounds`, `bbr_loss_lower_bounds`);
    /// one with CE marks caps `inflight_lo` by the ECN cut (`ecn.rs`).
    pub(super) fn adapt_lower_bounds(&mut self, w: &Window) {
        if self.is_probing_bandwidth() {
            return;
        }
        let ecn_inflight_lo = self.ecn_inflight_lo(w);
        if self.loss_in_round {
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
        self.inflight_lo = self.inflight_lo.min(ecn_inflight_lo);
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
