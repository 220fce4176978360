//! Long-term ("LT") bandwidth sampling: BBR v1's token-bucket policer
//! detector, Linux `tcp_bbr.c` `bbr_lt_bw_sampling` and its helpers
//! (still in mainline 6.x). Two consecutive sampling intervals of 4–16
//! rounds, each begun and ended by a loss, with a loss rate of at least
//! 50/256 (about 20 %) and delivery rates within 1/8 (or 4 kbit/s) of
//! each other: the flow is taken to be policed, paces at gain 1 and uses
//! their average rate (`lt_bw`) as its bandwidth for 48 rounds.

use super::{Bbr, BbrMode};
use crate::cc::AckSample;

/// `bbr_lt_intvl_min_rtts`.
const LT_INTVL_MIN_RTTS: u32 = 4;
/// `bbr_lt_loss_thresh` (lost/delivered, in 1/256).
const LT_LOSS_THRESH: u64 = 50;
/// `bbr_lt_bw_ratio` (`BBR_UNIT / 8`, in 1/256).
const LT_BW_RATIO: f64 = 32.0 / 256.0;
/// `bbr_lt_bw_diff`: 4 kbit/s, in bytes per second.
const LT_BW_DIFF_BYTES: f64 = 4000.0 / 8.0;
/// `bbr_lt_bw_max_rtts`.
const LT_BW_MAX_RTTS: u32 = 48;

impl Bbr {
    /// `bbr_bw`: the long-term rate while policed, else the max filter.
    pub(super) fn bw_est(&self) -> f64 {
        if self.lt_use_bw {
            self.lt_bw
        } else {
            self.bw.get()
        }
    }

    /// `bbr_reset_lt_bw_sampling_interval` (`lt_last_stamp` in ms, as
    /// Linux keeps it).
    pub(super) fn reset_lt_bw_sampling_interval(&mut self) {
        self.lt_last_stamp_ms = self.delivered_mstamp_ns / 1_000_000;
        self.lt_last_delivered = self.delivered;
        self.lt_last_lost = self.lost;
        self.lt_rtt_cnt = 0;
    }

    /// `bbr_reset_lt_bw_sampling`.
    pub(super) fn reset_lt_bw_sampling(&mut self) {
        self.lt_bw = 0.0;
        self.lt_use_bw = false;
        self.lt_is_sampling = false;
        self.reset_lt_bw_sampling_interval();
    }

    /// `bbr_lt_bw_interval_done`: `bw` in packets per second.
    fn lt_bw_interval_done(&mut self, bw: f64) {
        if self.lt_bw > 0.0 {
            let diff = (bw - self.lt_bw).abs();
            // `bbr_rate_bytes_per_sec(sk, diff, BBR_UNIT)` (with the 1 %
            // pacing margin, as Linux has it).
            let diff_bytes = diff * self.mss * (1.0 - super::PACING_MARGIN);
            if diff <= LT_BW_RATIO * self.lt_bw || diff_bytes <= LT_BW_DIFF_BYTES {
                // All criteria are met; estimate we're policed.
                self.lt_bw = (bw + self.lt_bw) / 2.0;
                self.lt_use_bw = true;
                self.pacing_gain = 1.0;
                self.lt_rtt_cnt = 0;
                return;
            }
        }
        self.lt_bw = bw;
        self.reset_lt_bw_sampling_interval();
    }

    /// `bbr_lt_bw_sampling`, on a valid rate sample (`bbr_update_bw`,
    /// after the round check) or on entering Loss (`bbr_set_state`, with
    /// `rs.losses = 1`).
    pub(super) fn lt_bw_sampling(&mut self, losses: u32, app_limited: bool) {
        if self.lt_use_bw {
            // Already using the long-term rate.
            if self.mode == BbrMode::ProbeBw && self.round_start {
                self.lt_rtt_cnt += 1;
                if self.lt_rtt_cnt >= LT_BW_MAX_RTTS {
                    self.reset_lt_bw_sampling();
                    self.reset_probe_bw_mode(self.delivered_mstamp_ns);
                }
            }
            return;
        }
        // Wait for the first loss before sampling.
        if !self.lt_is_sampling {
            if losses == 0 {
                return;
            }
            self.reset_lt_bw_sampling_interval();
            self.lt_is_sampling = true;
        }
        // To avoid underestimates, reset sampling if we run out of data.
        if app_limited {
            self.reset_lt_bw_sampling();
            return;
        }
        if self.round_start {
            self.lt_rtt_cnt += 1;
        }
        if self.lt_rtt_cnt < LT_INTVL_MIN_RTTS {
            return;
        }
        if self.lt_rtt_cnt > 4 * LT_INTVL_MIN_RTTS {
            self.reset_lt_bw_sampling();
            return;
        }
        // End the interval on a loss (the policer's tokens are exhausted).
        if losses == 0 {
            return;
        }
        let lost = self.lost - self.lt_last_lost;
        let delivered = self.delivered - self.lt_last_delivered;
        // Loss rate at least lt_loss_thresh / 256? If not, wait.
        if delivered == 0 || (lost << 8) < LT_LOSS_THRESH * delivered {
            return;
        }
        let t_ms = (self.delivered_mstamp_ns / 1_000_000) as i64 - self.lt_last_stamp_ms as i64;
        if t_ms < 1 {
            return;
        }
        let bw = delivered as f64 * 1e3 / t_ms as f64;
        self.lt_bw_interval_done(bw);
    }

    /// Losses and deliveries the connection has counted (`tp->lost`,
    /// `tp->delivered`), from each ACK.
    pub(super) fn count_lost_delivered(&mut self, ack: &AckSample) {
        self.lost += ack.losses_pkts as u64;
        self.delivered = ack.delivered_pkts;
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{ack_at, start};
    use super::super::*;
    use crate::cc::testing::run_fluid;

    /// Linux `bbr_lt_bw_sampling`/`bbr_lt_bw_interval_done`: "We estimate
    /// that we're policed if we see 2 consecutive sampling intervals with
    /// consistent throughput and high packet loss" (lost/delivered ≥
    /// `bbr_lt_loss_thresh` = 50/256; each interval ≥ `bbr_lt_intvl_min_rtts`
    /// = 4 rounds, ended by a loss); then `bbr_bw` is `lt_bw`, the pacing
    /// gain 1 (`bbr_update_gains`: "bbr->lt_use_bw ? BBR_UNIT : ..."), for
    /// `bbr_lt_bw_max_rtts` = 48 rounds, after which gain cycling restarts.
    /// A policer passing 5 000 pkt/s of a 10 000 pkt/s path: every round
    /// of 20 ms delivers 100 packets and loses 40.
    #[test]
    fn two_lossy_intervals_at_one_rate_switch_to_the_policed_rate() {
        let (mut cc, mut w, mut p) = start();
        let mut d = 0;
        let (mut t, _) = run_fluid(&mut cc, &mut w, &mut p, 40, 0, &mut d);
        assert_eq!(cc.mode(), BbrMode::ProbeBw);
        assert!(!cc.lt_use_bw);
        let rtt = cc.min_rtt_ns();
        let max_bw = cc.max_bw_pps();
        let round = |cc: &mut Bbr, w: &mut Window, t: &mut u64, d: &mut u64| {
            // One round: 10 ACKs of 10 packets, 4 losses on each; the
            // first ACK ends the previous round.
            for i in 0..10 {
                *t += 2_000_000;
                let prior = *d;
                *d += 10;
                let mut a = ack_at(*t, 10, *d, 100, rtt, 5_000.0);
                a.losses_pkts = 4;
                a.prior_delivered_pkts = if i == 0 { prior } else { prior - 100 };
                cc.cong_control(w, &a, CaState::Recovery);
            }
        };
        // A lossy round starts sampling; 4 more end the first interval.
        let mut rounds = 0;
        while !cc.lt_use_bw && rounds < 20 {
            round(&mut cc, &mut w, &mut t, &mut d);
            rounds += 1;
        }
        assert!(cc.lt_use_bw, "policing found");
        assert!((7..=12).contains(&rounds), "after {rounds} rounds");
        assert!(
            (cc.lt_bw / 5_000.0 - 1.0).abs() < 0.05,
            "lt_bw {}",
            cc.lt_bw
        );
        // The flow paces at the policed rate, gain 1.
        assert!(cc.lt_bw < 0.6 * max_bw);
        assert_eq!(cc.bw_est(), cc.lt_bw);
        assert_eq!(cc.pacing_gain(), 1.0);
        let pps = cc.pacing_rate_bytes_per_s().unwrap() / 1448.0;
        assert!(
            (pps / (0.99 * cc.lt_bw) - 1.0).abs() < 0.01,
            "pacing {pps} pkt/s"
        );
        // 48 rounds on, gain cycling resumes on the max filter.
        for _ in 0..50 {
            round(&mut cc, &mut w, &mut t, &mut d);
            if !cc.lt_use_bw {
                break;
            }
        }
        assert!(!cc.lt_use_bw, "lt_bw dropped after bbr_lt_bw_max_rtts");
    }

    /// Below `bbr_lt_loss_thresh` (here 10 lost per 100 delivered, 10 %)
    /// no interval completes and the estimate stays the max filter's.
    #[test]
    fn a_loss_rate_below_the_threshold_is_not_policing() {
        let (mut cc, mut w, mut p) = start();
        let mut d = 0;
        let (mut t, _) = run_fluid(&mut cc, &mut w, &mut p, 40, 0, &mut d);
        let rtt = cc.min_rtt_ns();
        for r in 0..40 {
            for i in 0..10 {
                t += 2_000_000;
                let prior = d;
                d += 10;
                let mut a = ack_at(t, 10, d, 100, rtt, 5_000.0);
                a.losses_pkts = 1;
                a.prior_delivered_pkts = if i == 0 { prior } else { prior - 100 };
                cc.cong_control(&mut w, &a, CaState::Recovery);
            }
            assert!(!cc.lt_use_bw, "round {r}");
        }
        assert_eq!(cc.lt_bw, 0.0);
    }
}
