//! PROBE_BW's four phases (`bbr_update_cycle_phase`): DOWN, CRUISE,
//! REFILL, UP, and when to probe again.

use super::{AckPhase, Bbr3, Mode, Phase, UNSET};
use crate::cc::{AckSample, Window};

/// `bbr_bw_probe_base_us`, `bbr_bw_probe_rand_us`: the wall-clock wait
/// before the next probe, 2 s plus up to 1 s.
pub(super) const BW_PROBE_BASE_NS: u64 = 2_000_000_000;
pub(super) const BW_PROBE_RAND_NS: u64 = 1_000_000_000;
/// `bbr_bw_probe_rand_rounds`: the round count starts at 0 or 1.
const BW_PROBE_RAND_ROUNDS: u64 = 2;
/// `bbr_bw_probe_max_rounds`: "fair with Reno/CUBIC up to a BDP of at
/// least 25 Mbps × .030 s / 1514 bytes = 61.9 packets".
pub(super) const BW_PROBE_MAX_ROUNDS: u32 = 63;

/// A pseudo-random number below `n` from the time (Linux:
/// `get_random_u32_below`), so runs stay deterministic.
fn hashed_below(now_ns: u64, salt: u64, n: u64) -> u64 {
    let mut x = now_ns ^ salt;
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^= x >> 31;
    x % n.max(1)
}

impl Bbr3 {
    fn set_phase(&mut self, phase: Phase) {
        self.phase = phase;
        #[cfg(test)]
        self.phase_log.push(phase);
    }

    /// `bbr_has_elapsed_in_phase`.
    fn has_elapsed_in_phase(&self, now_ns: u64, interval_ns: u64) -> bool {
        now_ns > self.cycle_stamp_ns + interval_ns
    }

    /// `bbr_pick_probe_wait`.
    fn pick_probe_wait(&mut self, now_ns: u64) {
        self.rounds_since_probe =
            hashed_below(now_ns, 0x9e37_79b9_7f4a_7c15, BW_PROBE_RAND_ROUNDS) as u32;
        self.probe_wait_ns =
            BW_PROBE_BASE_NS + hashed_below(now_ns, 0x5851_f42d_4c95_7f2d, BW_PROBE_RAND_NS);
    }

    /// The wall-clock wait chosen for this cycle, for tests.
    pub fn probe_wait_ns(&self) -> u64 {
        self.probe_wait_ns
    }

    /// `bbr_start_bw_probe_down`.
    pub(super) fn start_bw_probe_down(&mut self, now_ns: u64, delivered_pkts: u64) {
        self.reset_congestion_signals();
        self.bw_probe_up_cnt = UNSET;
        self.pick_probe_wait(now_ns);
        self.cycle_stamp_ns = now_ns;
        self.ack_phase = AckPhase::ProbeStopping;
        self.next_rtt_delivered = delivered_pkts;
        self.set_phase(Phase::Down);
    }

    /// `bbr_start_bw_probe_cruise`.
    pub(super) fn start_bw_probe_cruise(&mut self) {
        if self.inflight_lo != UNSET {
            self.inflight_lo = self.inflight_lo.min(self.inflight_hi);
        }
        self.set_phase(Phase::Cruise);
    }

    /// `bbr_start_bw_probe_refill`.
    fn start_bw_probe_refill(&mut self, ack: &AckSample, bw_probe_up_rounds: u32) {
        self.reset_lower_bounds();
        self.bw_probe_up_rounds = bw_probe_up_rounds;
        self.bw_probe_up_acks = 0;
        self.stopped_risky_probe = false;
        self.ack_phase = AckPhase::Refilling;
        self.next_rtt_delivered = ack.delivered_pkts;
        self.set_phase(Phase::Refill);
    }

    /// `bbr_start_bw_probe_up`.
    fn start_bw_probe_up(&mut self, w: &Window, ack: &AckSample) {
        self.ack_phase = AckPhase::ProbeStarting;
        self.next_rtt_delivered = ack.delivered_pkts;
        self.cycle_stamp_ns = ack.now_ns;
        self.reset_full_bw();
        self.full_bw = ack.delivery_rate_pps.unwrap_or(0.0);
        self.set_phase(Phase::Up);
        self.raise_inflight_hi_slope(w);
    }

    /// `bbr_raise_inflight_hi_slope`: in UP, `inflight_hi` grows by
    /// 1, 2, 4, … packets per round (one per `bw_probe_up_cnt` ACKed).
    pub(super) fn raise_inflight_hi_slope(&mut self, w: &Window) {
        let growth_this_round = 1u32 << self.bw_probe_up_rounds;
        self.bw_probe_up_rounds = (self.bw_probe_up_rounds + 1).min(30);
        self.bw_probe_up_cnt = (w.cwnd_pkts / growth_this_round).max(1);
    }

    /// `bbr_probe_inflight_hi_upward`.
    pub(super) fn probe_inflight_hi_upward(&mut self, w: &Window, ack: &AckSample) {
        // `tp->is_cwnd_limited`, read as the flight before this ACK
        // filling the window.
        let cwnd_limited = ack.prior_in_flight_pkts >= w.cwnd_pkts;
        if !cwnd_limited || w.cwnd_pkts < self.inflight_hi {
            return;
        }
        self.bw_probe_up_acks += ack.acked_pkts;
        if self.bw_probe_up_acks >= self.bw_probe_up_cnt {
            let delta = self.bw_probe_up_acks / self.bw_probe_up_cnt;
            self.bw_probe_up_acks -= delta * self.bw_probe_up_cnt;
            self.inflight_hi = self.inflight_hi.saturating_add(delta);
        }
        if self.round_start {
            self.raise_inflight_hi_slope(w);
        }
    }

    /// `bbr_is_reno_coexistence_probe_time`: no longer than Reno would
    /// take to grow its window back by the BDP, at most 63 rounds.
    fn is_reno_coexistence_probe_time(&self, w: &Window) -> bool {
        let rounds = self.target_inflight(w).min(BW_PROBE_MAX_ROUNDS);
        self.rounds_since_probe >= rounds
    }

    /// `bbr_check_time_to_probe_bw`: the ECN re-probe, the 2–3 s wall
    /// clock, or Reno's round count.
    fn check_time_to_probe_bw(&mut self, w: &Window, ack: &AckSample) -> bool {
        if let Some(rounds) = self.ecn_reprobe_rounds() {
            self.start_bw_probe_refill(ack, rounds);
            return true;
        }
        if self.has_elapsed_in_phase(ack.now_ns, self.probe_wait_ns)
            || self.is_reno_coexistence_probe_time(w)
        {
            self.start_bw_probe_refill(ack, 0);
            return true;
        }
        false
    }

    /// `bbr_check_time_to_cruise`: in flight below the headroom under
    /// `inflight_hi` and below the BDP.
    fn check_time_to_cruise(&self, inflight: u32, bw_pps: f64) -> bool {
        if inflight > self.inflight_with_headroom() {
            return false;
        }
        inflight <= self.inflight(bw_pps, 1.0)
    }

    /// `bbr_update_cycle_phase`.
    pub(super) fn update_cycle_phase(&mut self, w: &Window, ack: &AckSample, app_limited: bool) {
        if !self.full_bw_reached {
            return;
        }
        if self.adapt_upper_bounds(w, ack, app_limited) {
            return;
        }
        if self.mode != Mode::ProbeBw {
            return;
        }
        // `bbr_packets_in_net_at_edt(sk, rs->prior_in_flight)`; no EDT.
        let inflight = ack.prior_in_flight_pkts;
        let bw = self.max_bw_pps();
        match self.phase {
            Phase::Cruise => {
                self.check_time_to_probe_bw(w, ack);
            }
            Phase::Refill => {
                if self.round_start {
                    self.bw_probe_samples = true;
                    self.start_bw_probe_up(w, ack);
                }
            }
            Phase::Up => {
                // (a) the last probe found loss at inflight_hi and this one
                // reached it again; (b) inflight_hi is what limits the
                // flow, so no bandwidth plateau can end UP; (c) three rounds
                // without 25 % more bandwidth (`full_bw_now`).
                let risky = self.prev_probe_too_high && inflight >= self.inflight_hi;
                let mut done = false;
                if risky {
                    self.stopped_risky_probe = true;
                    done = true;
                } else if ack.prior_in_flight_pkts >= w.cwnd_pkts && w.cwnd_pkts >= self.inflight_hi
                {
                    self.reset_full_bw();
                    self.full_bw = ack.delivery_rate_pps.unwrap_or(0.0);
                } else if self.full_bw_now {
                    done = true;
                }
                if done {
                    self.prev_probe_too_high = false;
                    self.start_bw_probe_down(ack.now_ns, ack.delivered_pkts);
                }
            }
            Phase::Down => {
                if self.check_time_to_probe_bw(w, ack) {
                    return;
                }
                if self.check_time_to_cruise(inflight, bw) {
                    self.start_bw_probe_cruise();
                }
            }
        }
    }

    /// `bbr_adapt_upper_bounds`: the probe's ACK phases, the max filter's
    /// advance once a probe's samples are in, and `inflight_hi` from the
    /// loss rate. True when it decided a state change.
    fn adapt_upper_bounds(&mut self, w: &Window, ack: &AckSample, app_limited: bool) -> bool {
        if self.ack_phase == AckPhase::ProbeStarting && self.round_start {
            self.ack_phase = AckPhase::ProbeFeedback;
        }
        if self.ack_phase == AckPhase::ProbeStopping && self.round_start {
            self.bw_probe_samples = false;
            self.ack_phase = AckPhase::Init;
            // The best time to forget the previous cycle's samples.
            if self.mode == Mode::ProbeBw && !app_limited {
                self.advance_max_bw_filter();
            }
            // Probed up to inflight_hi without too much loss: probe again,
            // this time staying at inflight_hi for a round first.
            if self.mode == Mode::ProbeBw && self.stopped_risky_probe && !self.prev_probe_too_high {
                self.start_bw_probe_refill(ack, 0);
                return true;
            }
        }
        if self.is_inflight_too_high(ack) {
            if self.bw_probe_samples {
                self.handle_inflight_too_high(
                    w,
                    ack.tx_in_flight_pkts,
                    app_limited,
                    ack.now_ns,
                    ack.delivered_pkts,
                );
            }
        } else {
            if self.inflight_hi == UNSET {
                return false;
            }
            // Resilient to random loss: a higher level seen safe in any
            // phase raises inflight_hi.
            if ack.tx_in_flight_pkts > self.inflight_hi {
                self.inflight_hi = ack.tx_in_flight_pkts;
            }
            if self.mode == Mode::ProbeBw && self.phase == Phase::Up {
                self.probe_inflight_hi_upward(w, ack);
            }
        }
        false
    }

    /// `bbr_handle_inflight_too_high`: `inflight_hi` is what was in flight
    /// when the too-lossy flight's packet left (`tx_in_flight_pkts`), or
    /// 0.7 of the target if more; a probe stops.
    pub(super) fn handle_inflight_too_high(
        &mut self,
        w: &Window,
        tx_in_flight_pkts: u32,
        app_limited: bool,
        now_ns: u64,
        delivered_pkts: u64,
    ) {
        self.prev_probe_too_high = true;
        self.bw_probe_samples = false;
        if !app_limited {
            let floor = (self.target_inflight(w) as f64 * (1.0 - self.beta)) as u32;
            self.inflight_hi = tx_in_flight_pkts.max(floor);
        }
        if self.mode == Mode::ProbeBw && self.phase == Phase::Up {
            self.start_bw_probe_down(now_ns, delivered_pkts);
        }
    }
}
