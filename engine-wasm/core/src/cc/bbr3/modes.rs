//! STARTUP (ended by a full pipe or by too much loss), DRAIN, and
//! PROBE_RTT with the two min-RTT filters (5 s for PROBE_RTT, 10 s for
//! the model).

use super::{
    Bbr3, Mode, CWND_MIN_TARGET, MIN_RTT_WIN_NS, PROBE_RTT_CWND_GAIN, PROBE_RTT_MODE_NS,
    PROBE_RTT_WIN_NS,
};
use crate::cc::{AckSample, CaState, Window};

/// `bbr_full_bw_thresh`, `bbr_full_bw_cnt`.
const FULL_BW_THRESH: f64 = 1.25;
const FULL_BW_CNT: u32 = 3;
/// `bbr_full_loss_cnt`: lossy ACKs in a round of Recovery that, with a
/// loss rate over the threshold, end STARTUP.
pub(super) const FULL_LOSS_CNT: u32 = 6;

impl Bbr3 {
    /// `bbr_reset_full_bw`.
    pub(super) fn reset_full_bw(&mut self) {
        self.full_bw = 0.0;
        self.full_bw_cnt = 0;
        self.full_bw_now = false;
    }

    /// `bbr_check_full_bw_reached` (v3: against each sample, not the
    /// filtered max; counted once per round).
    pub(super) fn check_full_bw_reached(&mut self, ack: &AckSample, app_limited: bool) {
        let Some(sample_bw) = ack.delivery_rate_pps else {
            return;
        };
        if self.full_bw_now || app_limited {
            return;
        }
        if sample_bw >= self.full_bw * FULL_BW_THRESH {
            self.reset_full_bw();
            self.full_bw = sample_bw;
            return;
        }
        if !self.round_start {
            return;
        }
        self.full_bw_cnt += 1;
        self.full_bw_now = self.full_bw_cnt >= FULL_BW_CNT;
        self.full_bw_reached |= self.full_bw_now;
    }

    /// `bbr_check_loss_too_high_in_startup`: at the end of a round of
    /// Recovery with at least `bbr_full_loss_cnt` lossy ACKs and a loss
    /// rate over the threshold, the pipe is full
    /// (`bbr_handle_queue_too_high_in_startup`: `inflight_hi` the larger
    /// of the BDP and what was delivered in the last round).
    pub(super) fn check_loss_too_high_in_startup(&mut self, ack: &AckSample, state: CaState) {
        if self.full_bw_reached {
            return;
        }
        if ack.losses_pkts > 0 && self.loss_events_in_round < 0xf {
            self.loss_events_in_round += 1;
        }
        if self.loss_round_start
            && state == CaState::Recovery
            && self.loss_events_in_round >= FULL_LOSS_CNT
            && self.is_inflight_too_high(ack)
        {
            self.handle_queue_too_high_in_startup();
            return;
        }
        if self.loss_round_start {
            self.loss_events_in_round = 0;
        }
    }

    /// `bbr_handle_queue_too_high_in_startup`: the pipe is full, and
    /// `inflight_hi` is the BDP or what the last round delivered.
    pub(super) fn handle_queue_too_high_in_startup(&mut self) {
        self.full_bw_reached = true;
        let bdp = self.inflight(self.max_bw_pps(), 1.0);
        self.inflight_hi = bdp.max(self.inflight_latest);
    }

    /// `bbr_check_drain`.
    pub(super) fn check_drain(&mut self, w: &mut Window, ack: &AckSample) {
        if self.mode == Mode::Startup && self.full_bw_reached {
            self.mode = Mode::Drain;
            w.ssthresh_pkts = self.inflight(self.max_bw_pps(), 1.0);
            self.reset_congestion_signals();
        }
        if self.mode == Mode::Drain && ack.in_flight_pkts <= self.inflight(self.max_bw_pps(), 1.0) {
            self.mode = Mode::ProbeBw;
            self.start_bw_probe_down(ack.now_ns, ack.delivered_pkts);
        }
    }

    /// `bbr_probe_rtt_cwnd`: half the BDP, at least 4 packets.
    pub(super) fn probe_rtt_cwnd(&self) -> u32 {
        self.bdp(self.bw_pps(), PROBE_RTT_CWND_GAIN)
            .max(CWND_MIN_TARGET)
    }

    /// `bbr_update_min_rtt` (v3): the 5-s filter that schedules PROBE_RTT
    /// feeds the 10-s min-RTT estimate; PROBE_RTT holds cwnd at half the
    /// BDP for 200 ms and a round, what it sends application-limited.
    pub(super) fn update_min_rtt(&mut self, w: &mut Window, ack: &AckSample) {
        let now = ack.now_ns;
        let probe_rtt_expired = now > self.probe_rtt_min_stamp_ns + PROBE_RTT_WIN_NS;
        if let Some(rtt) = ack.rtt_ns {
            if rtt < self.probe_rtt_min_ns || probe_rtt_expired {
                self.probe_rtt_min_ns = rtt;
                self.probe_rtt_min_stamp_ns = now;
            }
        }
        let min_rtt_expired = now > self.min_rtt_stamp_ns + MIN_RTT_WIN_NS;
        if self.probe_rtt_min_ns <= self.min_rtt_ns || min_rtt_expired {
            self.min_rtt_ns = self.probe_rtt_min_ns;
            self.min_rtt_stamp_ns = self.probe_rtt_min_stamp_ns;
        }
        if probe_rtt_expired && self.mode != Mode::ProbeRtt {
            self.mode = Mode::ProbeRtt;
            self.save_cwnd(w.cwnd_pkts);
            self.probe_rtt_done_stamp_ns = None;
            self.ack_phase = super::AckPhase::ProbeStopping;
            self.next_rtt_delivered = ack.delivered_pkts;
        }
        if self.mode == Mode::ProbeRtt {
            self.set_app_limited(ack);
            match self.probe_rtt_done_stamp_ns {
                None if ack.in_flight_pkts <= self.probe_rtt_cwnd() => {
                    self.probe_rtt_done_stamp_ns = Some(now + PROBE_RTT_MODE_NS);
                    self.probe_rtt_round_done = false;
                    self.next_rtt_delivered = ack.delivered_pkts;
                }
                Some(done) => {
                    if self.round_start {
                        self.probe_rtt_round_done = true;
                    }
                    // `bbr_check_probe_rtt_done`.
                    if self.probe_rtt_round_done && now > done {
                        self.probe_rtt_min_stamp_ns = now;
                        w.cwnd_pkts = w.cwnd_pkts.max(self.prior_cwnd);
                        self.exit_probe_rtt(ack);
                    }
                }
                None => {}
            }
        }
    }

    /// `bbr_exit_probe_rtt`: the lower bounds are forgotten; with a full
    /// pipe PROBE_BW restarts its clock in DOWN and goes straight to
    /// CRUISE (in flight is below the target after PROBE_RTT).
    fn exit_probe_rtt(&mut self, ack: &AckSample) {
        self.reset_lower_bounds();
        if self.full_bw_reached {
            self.mode = Mode::ProbeBw;
            self.start_bw_probe_down(ack.now_ns, ack.delivered_pkts);
            self.start_bw_probe_cruise();
        } else {
            self.mode = Mode::Startup;
        }
    }
}
