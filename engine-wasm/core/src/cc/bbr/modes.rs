//! The state machine: STARTUP until the pipe is full, DRAIN, PROBE_BW's
//! pacing-gain cycle, and PROBE_RTT with the min-RTT estimate that
//! triggers it; each mode's pacing and cwnd gains.

use super::{Bbr, BbrMode, CWND_MIN_TARGET, PACING_GAIN_CYCLE};
use crate::cc::{AckSample, Window};

/// Random start phases: never the 3/4 one (`bbr_cycle_rand`).
const CYCLE_RAND: u64 = 7;
/// `bbr_full_bw_thresh`, `bbr_full_bw_cnt`.
const FULL_BW_THRESH: f64 = 1.25;
const FULL_BW_CNT: u32 = 3;

impl Bbr {
    /// `bbr_advance_cycle_phase`.
    pub(super) fn advance_cycle_phase(&mut self) {
        self.cycle_idx = (self.cycle_idx + 1) % PACING_GAIN_CYCLE.len();
        self.cycle_stamp_ns = self.delivered_mstamp_ns;
        #[cfg(test)]
        self.phase_log.push(self.cycle_idx);
    }

    /// `bbr_reset_probe_bw_mode`.
    pub(super) fn reset_probe_bw_mode(&mut self, now_ns: u64) {
        self.mode = BbrMode::ProbeBw;
        // A pseudo-random start phase from the entry time (Linux: random).
        let mut x = now_ns ^ 0x9e37_79b9_7f4a_7c15;
        x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        x ^= x >> 31;
        self.cycle_idx = PACING_GAIN_CYCLE.len() - 1 - (x % CYCLE_RAND) as usize;
        self.advance_cycle_phase();
    }

    pub(super) fn reset_mode(&mut self, now_ns: u64) {
        if self.full_bw_reached {
            self.reset_probe_bw_mode(now_ns);
        } else {
            self.mode = BbrMode::Startup;
        }
    }

    /// `bbr_is_next_cycle_phase`.
    pub(super) fn is_next_cycle_phase(&self, ack: &AckSample) -> bool {
        let full_length =
            self.delivered_mstamp_ns.saturating_sub(self.cycle_stamp_ns) > self.min_rtt_ns;
        if self.pacing_gain == 1.0 {
            return full_length;
        }
        // `bbr_packets_in_net_at_edt(sk, rs->prior_in_flight)`; no EDT.
        let prior_in_flight = ack.prior_in_flight_pkts;
        let bw = self.bw.get();
        if self.pacing_gain > 1.0 {
            // "perhaps pacing_gain*BDP won't fit": a loss ends the probe.
            full_length
                && (ack.losses_pkts > 0 || prior_in_flight >= self.inflight(bw, self.pacing_gain))
        } else {
            full_length || prior_in_flight <= self.inflight(bw, 1.0)
        }
    }

    /// `bbr_check_full_bw_reached`.
    pub(super) fn check_full_bw_reached(&mut self, app_limited: bool) {
        if self.full_bw_reached || !self.round_start || app_limited {
            return;
        }
        let max_bw = self.bw.get();
        if max_bw >= self.full_bw * FULL_BW_THRESH {
            self.full_bw = max_bw;
            self.full_bw_cnt = 0;
            return;
        }
        self.full_bw_cnt += 1;
        self.full_bw_reached = self.full_bw_cnt >= FULL_BW_CNT;
    }

    /// `bbr_check_drain`.
    pub(super) fn check_drain(&mut self, w: &mut Window, ack: &AckSample) {
        if self.mode == BbrMode::Startup && self.full_bw_reached {
            self.mode = BbrMode::Drain;
            w.ssthresh_pkts = self.inflight(self.bw.get(), 1.0);
        }
        if self.mode == BbrMode::Drain && ack.in_flight_pkts <= self.inflight(self.bw.get(), 1.0) {
            self.reset_probe_bw_mode(ack.now_ns);
        }
    }

    /// `bbr_update_min_rtt` and PROBE_RTT. A sample refreshes the
    /// estimate when it is lower (Linux ≥ 5.10, and the stable kernels
    /// from November 2020: commit 1b9e2a8c99a5 "tcp: only postpone
    /// PROBE_RTT if RTT is < current min_rtt estimate"; ≤ before) or once
    /// the estimate is 10 s old (5.x and 6.x then also skip samples from
    /// ACKs that may have been delayed, `rs->is_ack_delayed`, which the
    /// sample does not carry).
    pub(super) fn update_min_rtt(&mut self, w: &mut Window, ack: &AckSample) {
        let now = ack.now_ns;
        let expired = now > self.min_rtt_stamp_ns + self.min_rtt_win_ns;
        if let Some(rtt) = ack.rtt_ns {
            if rtt < self.min_rtt_ns || expired {
                self.min_rtt_ns = rtt;
                self.min_rtt_stamp_ns = now;
            }
        }
        if self.probe_rtt_mode_ns > 0 && expired && self.mode != BbrMode::ProbeRtt {
            self.mode = BbrMode::ProbeRtt;
            self.save_cwnd(w.cwnd_pkts);
            self.probe_rtt_done_stamp_ns = None;
        }
        if self.mode == BbrMode::ProbeRtt {
            // Ignore low rate samples during this mode.
            self.set_app_limited(ack);
            match self.probe_rtt_done_stamp_ns {
                None if ack.in_flight_pkts <= CWND_MIN_TARGET => {
                    self.probe_rtt_done_stamp_ns = Some(now + self.probe_rtt_mode_ns);
                    self.probe_rtt_round_done = false;
                    self.start_round(ack);
                }
                Some(done) => {
                    if self.round_start {
                        self.probe_rtt_round_done = true;
                    }
                    // `bbr_check_probe_rtt_done`.
                    if self.probe_rtt_round_done && now > done {
                        self.min_rtt_stamp_ns = now;
                        w.cwnd_pkts = w.cwnd_pkts.max(self.prior_cwnd);
                        self.reset_mode(now);
                    }
                }
                None => {}
            }
        }
    }

    pub(super) fn update_gains(&mut self) {
        (self.pacing_gain, self.cwnd_gain) = match self.mode {
            BbrMode::Startup => (self.high_gain, self.high_gain),
            BbrMode::Drain => (1.0 / self.high_gain, self.high_gain),
            BbrMode::ProbeBw => (
                if self.lt_use_bw {
                    1.0
                } else {
                    PACING_GAIN_CYCLE[self.cycle_idx]
                },
                self.cwnd_gain_probe_bw,
            ),
            BbrMode::ProbeRtt => (1.0, 1.0),
        };
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{ack_at, start};
    use super::super::*;
    use crate::cc::testing::run_fluid;

    #[test]
    fn pacing_gain_cycles_through_the_eight_phases() {
        let (mut cc, mut w, mut p) = start();
        let mut d = 0;
        let (mut now, _) = run_fluid(&mut cc, &mut w, &mut p, 40, 0, &mut d);
        assert_eq!(cc.mode(), BbrMode::ProbeBw);
        let first = cc.phase_log.len() - 1;
        let entered = now;
        for _ in 0..60 {
            let (t, _) = run_fluid(&mut cc, &mut w, &mut p, 1, now, &mut d);
            now = t;
            assert_eq!(cc.pacing_gain(), PACING_GAIN_CYCLE[cc.cycle_idx()]);
        }
        let phases = &cc.phase_log[first..];
        // The start phase is never the draining 3/4 one (Linux cycle_rand).
        assert_ne!(phases[0], 1);
        // Phases advance one at a time, in order, wrapping around.
        for pair in phases.windows(2) {
            assert_eq!(pair[1], (pair[0] + 1) % 8, "{phases:?}");
        }
        // Each lasts about one min RTT (20 ms; the 5/4 phase until the
        // queue it builds shows): 60 rounds of 20–25 ms hold 6–8 cycles.
        let secs = (now - entered) as f64 / 1e9;
        let per_phase = secs / (phases.len() - 1) as f64;
        assert!(
            per_phase > 0.020 && per_phase < 0.030,
            "{per_phase} s per phase"
        );
        let gains: Vec<f64> = phases.iter().map(|&i| PACING_GAIN_CYCLE[i]).collect();
        let probe = gains.iter().position(|&g| g == 1.25).unwrap();
        assert_eq!(
            &gains[probe..probe + 8],
            &[1.25, 0.75, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]
        );
    }

    #[test]
    fn probe_rtt_dips_to_four_packets_for_200_ms_every_10_s() {
        let (mut cc, mut w, mut p) = start();
        let mut d = 0;
        let (mut now, _) = run_fluid(&mut cc, &mut w, &mut p, 40, 0, &mut d);
        // The path gets 2 ms longer: no sample reaches the old minimum again.
        p.base_rtt_ns = 22_000_000;
        let before = w.cwnd_pkts;
        let stamp = cc.min_rtt_stamp_ns();
        assert!(stamp <= now);
        let mut dip: Option<(u64, u64)> = None;
        let mut min_cwnd = u32::MAX;
        while now < stamp + 12_000_000_000 {
            let (t, _) = run_fluid(&mut cc, &mut w, &mut p, 1, now, &mut d);
            if cc.mode() == BbrMode::ProbeRtt {
                min_cwnd = min_cwnd.min(w.cwnd_pkts);
                dip = Some(dip.map_or((now, t), |(s, _)| (s, t)));
            }
            now = t;
        }
        let (s, e) = dip.expect("PROBE_RTT happened");
        let after = s - stamp;
        assert!(
            after < 10_100_000_000,
            "entered {} s after the last min-RTT sample",
            after as f64 / 1e9
        );
        assert!(
            after >= 9_950_000_000,
            "not before the 10 s filter expires: {} s",
            after as f64 / 1e9
        );
        assert_eq!(min_cwnd, CWND_MIN_TARGET);
        let len = e - s;
        assert!(
            (200_000_000..=400_000_000).contains(&len),
            "dip lasted {} ms",
            len / 1_000_000
        );
        assert_eq!(cc.mode(), BbrMode::ProbeBw);
        assert_eq!(cc.min_rtt_ns(), 22_000_000, "the new minimum was learnt");
        assert!(
            w.cwnd_pkts + 20 >= before,
            "cwnd restored: {} vs {before}",
            w.cwnd_pkts
        );
    }

    /// `bbr_update_min_rtt` behind another flow's standing queue: the
    /// 20-ms minimum expires after 10 s without a lower sample and the
    /// next sample (1 s) replaces it as PROBE_RTT begins; PROBE_RTT holds
    /// cwnd at 4 for 200 ms *and* until a packet sent after in-flight
    /// reached 4 is ACKed, not just until the 4 packets already in flight
    /// are; on exit the filter is restamped and the saved cwnd restored.
    ///
    /// The round is Linux's: `bbr_update_min_rtt` sets
    /// `bbr->next_rtt_delivered = tp->delivered` when in-flight reaches 4,
    /// and `bbr_update_bw` ends it on the first sample with
    /// `!before(rs->prior_delivered, bbr->next_rtt_delivered)`, where
    /// `rs->prior_delivered` is the `tx.delivered` the sample's packet was
    /// sent with (`tcp_rate_skb_sent`/`tcp_rate_skb_delivered`). So each
    /// ACK below carries the `prior_delivered` of the packet it acknowledges
    /// in this story: the 4 packets in flight at `t0` left before
    /// PROBE_RTT began (delivered count below `d0`); the first packet sent
    /// after `t0` left on the first ACK after it, with `d0 + 1`.
    #[test]
    fn probe_rtt_behind_a_standing_queue_lasts_a_packet_timed_round() {
        let (mut cc, mut w, mut p) = start();
        let mut d = 0;
        let (_, _) = run_fluid(&mut cc, &mut w, &mut p, 40, 0, &mut d);
        assert_eq!(cc.mode(), BbrMode::ProbeBw);
        assert_eq!(cc.min_rtt_ns(), 20_000_000);
        let saved = w.cwnd_pkts;
        let bw = cc.max_bw_pps();
        let rtt = 1_000_000_000;
        let expiry = cc.min_rtt_stamp_ns() + 10_000_000_000;
        let mut in_flight = 60u32;
        // The packets still in flight now were sent with this many (or
        // fewer) delivered.
        let sent_with = d;
        // The last ACK before the expiry changes nothing.
        let mut t = expiry;
        d += 1;
        cc.cong_control(&mut w, &ack_at(t, 1, d, in_flight, rtt, bw), CaState::Open);
        assert_eq!(cc.mode(), BbrMode::ProbeBw);
        assert_eq!(cc.min_rtt_ns(), 20_000_000);
        // The first one after it: the 1-s sample replaces the estimate.
        t += 1_000_000;
        d += 1;
        in_flight -= 1;
        cc.cong_control(&mut w, &ack_at(t, 1, d, in_flight, rtt, bw), CaState::Open);
        assert_eq!(cc.mode(), BbrMode::ProbeRtt);
        assert_eq!(cc.min_rtt_ns(), rtt, "re-measured behind the queue");
        assert_eq!(cc.min_rtt_stamp_ns(), t);
        assert_eq!(w.cwnd_pkts, CWND_MIN_TARGET);
        // The old window drains, one packet per 10 ms.
        while in_flight > CWND_MIN_TARGET {
            t += 10_000_000;
            d += 1;
            in_flight -= 1;
            cc.cong_control(&mut w, &ack_at(t, 1, d, in_flight, rtt, bw), CaState::Open);
            assert_eq!(cc.mode(), BbrMode::ProbeRtt);
            assert_eq!(w.cwnd_pkts, CWND_MIN_TARGET);
        }
        // In-flight reached 4 at `t0`. The 4 packets still in flight come
        // back over the next 400 ms (each ACK lets one new packet out:
        // 3 in flight after it); 200 ms pass, but no packet sent since
        // `t0` has returned, so PROBE_RTT goes on. They were all sent
        // before PROBE_RTT began.
        let t0 = t;
        let d0 = d;
        for _ in 0..4 {
            t += 100_000_000;
            d += 1;
            let mut a = ack_at(t, 1, d, 3, rtt, 4.0);
            a.prior_delivered_pkts = sent_with;
            a.prior_in_flight_pkts = CWND_MIN_TARGET;
            cc.cong_control(&mut w, &a, CaState::Open);
            assert_eq!(
                cc.mode(),
                BbrMode::ProbeRtt,
                "{} ms after in-flight reached 4",
                (t - t0) / 1_000_000
            );
            assert_eq!(w.cwnd_pkts, CWND_MIN_TARGET);
        }
        // The first packet sent after `t0` (at t0 + 100 ms) returns a
        // round trip later: the round is done and so is PROBE_RTT.
        t = t0 + 100_000_000 + rtt;
        d += 1;
        let mut a = ack_at(t, 1, d, 3, rtt, 4.0);
        a.prior_delivered_pkts = d0 + 1;
        a.prior_in_flight_pkts = CWND_MIN_TARGET;
        cc.cong_control(&mut w, &a, CaState::Open);
        assert_eq!(cc.mode(), BbrMode::ProbeBw);
        assert_eq!(cc.min_rtt_stamp_ns(), t, "the filter is restamped on exit");
        assert!(
            w.cwnd_pkts >= saved,
            "cwnd {} restored to {saved}",
            w.cwnd_pkts
        );
    }

    /// `bbr_is_next_cycle_phase`: the 5/4 probing phase ends after a
    /// min-RTT once in-flight (`rs->prior_in_flight`) reaches 5/4 of the
    /// BDP, or on a loss ("We do not persist if packets are lost, since a
    /// path with small buffers may not hold that much": `rs->losses`).
    #[test]
    fn the_probing_phase_ends_on_a_loss_before_in_flight_reaches_its_target() {
        let (mut cc, mut w, mut p) = start();
        let mut d = 0;
        let (mut t, _) = run_fluid(&mut cc, &mut w, &mut p, 40, 0, &mut d);
        while cc.cycle_idx() != 0 {
            (t, _) = run_fluid(&mut cc, &mut w, &mut p, 1, t, &mut d);
        }
        let bw = cc.max_bw_pps();
        let rtt = cc.min_rtt_ns();
        // A min-RTT on, 10 packets in flight (far below 5/4 of 200): the
        // phase goes on.
        t += rtt + 1_000_000;
        d += 1;
        cc.cong_control(&mut w, &ack_at(t, 1, d, 9, rtt, bw), CaState::Open);
        assert_eq!(cc.cycle_idx(), 0);
        assert_eq!(cc.pacing_gain(), 1.25);
        // The next ACK reports a loss: the 3/4 phase begins.
        t += 100_000;
        d += 1;
        let mut a = ack_at(t, 1, d, 9, rtt, bw);
        a.losses_pkts = 1;
        cc.cong_control(&mut w, &a, CaState::Open);
        assert_eq!(cc.cycle_idx(), 1);
        assert_eq!(cc.pacing_gain(), 0.75);
    }

    /// Linux ≥ 5.10 (`rs->rtt_us < bbr->min_rtt_us`): a sample equal to
    /// the estimate does not refresh it, so a flow whose RTT keeps
    /// returning exactly to the minimum still probes 10 s after the
    /// estimate was set (with ≤ it never did).
    #[test]
    fn an_rtt_equal_to_the_minimum_does_not_postpone_probe_rtt() {
        let (mut cc, mut w, mut p) = start();
        let mut d = 0;
        let (mut t, _) = run_fluid(&mut cc, &mut w, &mut p, 40, 0, &mut d);
        assert_eq!(cc.mode(), BbrMode::ProbeBw);
        let stamp = cc.min_rtt_stamp_ns();
        let min_rtt = cc.min_rtt_ns();
        let mut entered = None;
        while t < stamp + 11_000_000_000 && entered.is_none() {
            t += 10_000_000;
            d += 1;
            let a = ack_at(t, 1, d, 199, min_rtt, 10_000.0);
            cc.cong_control(&mut w, &a, CaState::Open);
            if cc.mode() == BbrMode::ProbeRtt {
                entered = Some(t);
            } else {
                assert_eq!(cc.min_rtt_stamp_ns(), stamp, "refreshed by an equal sample");
            }
        }
        let entered = entered.expect("PROBE_RTT within 11 s");
        assert!(entered > stamp + 10_000_000_000 && entered <= stamp + 10_010_000_000);
    }

    /// `bbr_check_drain` sets ssthresh to the in-flight target for gain 1
    /// on entering DRAIN (`bbr_inflight(sk, bbr_max_bw(sk), BBR_UNIT)`).
    #[test]
    fn drain_sets_ssthresh_to_one_bdp_in_flight() {
        let (mut cc, mut w, mut p) = start();
        let mut d = 0;
        let (_, _) = run_fluid(&mut cc, &mut w, &mut p, 40, 0, &mut d);
        assert_eq!(cc.mode(), BbrMode::ProbeBw);
        // BDP 200 + 3 TSO bursts at STARTUP's pacing rate (27 packets).
        assert!(
            (200..=300).contains(&w.ssthresh_pkts),
            "ssthresh {}",
            w.ssthresh_pkts
        );
    }
}
