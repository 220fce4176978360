//! Round-trip time estimation and the retransmission timeout, by one of two
//! rules (a profile switch, docs/profiles.md):
//!
//! * RFC 6298 §2: srtt ← 7/8·srtt + 1/8·r, rttvar ← 3/4·rttvar + 1/4·|srtt − r|,
//!   RTO = max(srtt + 4·rttvar, 200 ms).
//! * Linux `tcp_rtt_estimator` (2.4 `net/ipv4/tcp_input.c`, unchanged in
//!   2.6.22): the same EWMAs for srtt and mdev, but the variance term
//!   `rttvar` follows the largest mdev seen in the current round trip
//!   (`mdev_max`), which restarts every round at TCP_RTO_MIN, and decays
//!   towards it by 1/4 per round. RTO = srtt + rttvar, so it never falls
//!   below srtt + 200 ms; the first sample r gives r + max(2r, 200 ms).

use super::seq::after;
use crate::profile::RtoRule;

/// Linux's TCP_RTO_MIN (HZ/5 = 200 ms).
pub const RTO_MIN_NS: u64 = 200_000_000;
/// Linux's TCP_RTO_MAX (120 s).
pub const RTO_MAX_NS: u64 = 120_000_000_000;

#[derive(Clone, Copy, Debug)]
pub struct RttEstimator {
    rule: RtoRule,
    pub srtt_ns: u64,
    /// RFC 6298's rttvar, or Linux's `rttvar` (already ×4 mdev, ≥ RTO_MIN).
    rttvar_ns: u64,
    /// Linux: mean deviation (real units, not Linux's ×4 fixed point).
    mdev_ns: u64,
    /// Linux: the largest 4·mdev in the current round trip.
    mdev_max_ns: u64,
    /// Linux `rtt_seq`: the round ends when snd_una passes this (modulo
    /// 2^32, Linux `after()`).
    round_end_seq: u32,
    pub rto_ns: u64,
    pub min_rtt_ns: u64,
}

impl RttEstimator {
    pub fn new(rule: RtoRule, initial_rto_ns: u64) -> Self {
        RttEstimator {
            rule,
            srtt_ns: 0,
            rttvar_ns: 0,
            mdev_ns: 0,
            mdev_max_ns: 0,
            round_end_seq: 0,
            rto_ns: initial_rto_ns,
            min_rtt_ns: u64::MAX,
        }
    }

    /// One RTT sample `r` taken when the cumulative ACK reached `snd_una`
    /// with `snd_nxt` sent (Linux ends a variance round at snd_una > rtt_seq).
    pub fn sample(&mut self, r: u64, snd_una: u32, snd_nxt: u32) {
        self.min_rtt_ns = self.min_rtt_ns.min(r);
        match self.rule {
            RtoRule::Rfc6298 => {
                if self.srtt_ns == 0 {
                    self.srtt_ns = r;
                    self.rttvar_ns = r / 2;
                } else {
                    let err = self.srtt_ns.abs_diff(r);
                    self.rttvar_ns = (3 * self.rttvar_ns + err) / 4;
                    self.srtt_ns = (7 * self.srtt_ns + r) / 8;
                }
                self.rto_ns = (self.srtt_ns + (4 * self.rttvar_ns).max(1_000_000))
                    .clamp(RTO_MIN_NS, RTO_MAX_NS);
            }
            RtoRule::Linux => {
                if self.srtt_ns == 0 {
                    self.srtt_ns = r;
                    self.mdev_ns = r / 2;
                    self.mdev_max_ns = (4 * self.mdev_ns).max(RTO_MIN_NS);
                    self.rttvar_ns = self.mdev_max_ns;
                    self.round_end_seq = snd_nxt;
                } else {
                    let srtt = self.srtt_ns as i64;
                    let err = r as i64 - srtt;
                    self.srtt_ns = (srtt + err / 8) as u64;
                    let mdev = self.mdev_ns as i64;
                    let abs = err.abs();
                    // Linux gives a sample below srtt that would raise the
                    // deviation a finer gain (1/32 instead of 1/4).
                    let d = abs - mdev;
                    let delta = if err < 0 && d > 0 { d / 32 } else { d / 4 };
                    self.mdev_ns = (mdev + delta).max(0) as u64;
                    let four_mdev = 4 * self.mdev_ns;
                    if four_mdev > self.mdev_max_ns {
                        self.mdev_max_ns = four_mdev;
                        if self.mdev_max_ns > self.rttvar_ns {
                            self.rttvar_ns = self.mdev_max_ns;
                        }
                    }
                    if after(snd_una, self.round_end_seq) {
                        if self.mdev_max_ns < self.rttvar_ns {
                            self.rttvar_ns -= (self.rttvar_ns - self.mdev_max_ns) / 4;
                        }
                        self.round_end_seq = snd_nxt;
                        self.mdev_max_ns = RTO_MIN_NS;
                    }
                }
                self.rto_ns = (self.srtt_ns + self.rttvar_ns).min(RTO_MAX_NS);
            }
        }
    }

    pub fn has_sample(&self) -> bool {
        self.srtt_ns != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: u64 = 1_000_000;

    #[test]
    fn rfc6298_first_sample_and_floor() {
        let mut e = RttEstimator::new(RtoRule::Rfc6298, 1000 * MS);
        assert_eq!(
            e.rto_ns,
            1000 * MS,
            "RFC 6298 §2.1 initial RTO as configured"
        );
        e.sample(100 * MS, 1, 10);
        // §2.2: srtt = r, rttvar = r/2, RTO = r + 4·r/2 = 3r.
        assert_eq!(e.rto_ns, 300 * MS);
        // A steady 30 ms path settles at the 200 ms floor.
        let mut e = RttEstimator::new(RtoRule::Rfc6298, 1000 * MS);
        for i in 0..200 {
            e.sample(30 * MS, i, i + 10);
        }
        assert_eq!(e.rto_ns, RTO_MIN_NS);
    }

    #[test]
    fn rfc6298_is_only_a_few_ms_above_srtt_on_a_long_steady_path() {
        let mut e = RttEstimator::new(RtoRule::Rfc6298, 1000 * MS);
        for i in 0..500 {
            e.sample(400 * MS, i, i + 10);
        }
        assert!(e.rto_ns < 402 * MS, "RTO {} ms", e.rto_ns / MS);
    }

    #[test]
    fn linux_first_sample_is_r_plus_max_2r_or_200ms() {
        let mut e = RttEstimator::new(RtoRule::Linux, 3000 * MS);
        assert_eq!(
            e.rto_ns,
            3000 * MS,
            "Linux TCP_TIMEOUT_INIT 3 s (2.4, 2.6.22)"
        );
        e.sample(30 * MS, 1, 10);
        assert_eq!(e.rto_ns, 230 * MS);
        let mut e = RttEstimator::new(RtoRule::Linux, 3000 * MS);
        e.sample(150 * MS, 1, 10);
        assert_eq!(e.rto_ns, 450 * MS);
    }

    #[test]
    fn linux_keeps_200ms_above_srtt_on_a_long_steady_path() {
        let mut e = RttEstimator::new(RtoRule::Linux, 3000 * MS);
        let mut una = 0;
        for _ in 0..500 {
            una += 10;
            e.sample(400 * MS, una, una + 100);
        }
        assert_eq!(e.srtt_ns, 400 * MS);
        assert!(
            e.rto_ns.abs_diff(600 * MS) < MS,
            "srtt + TCP_RTO_MIN: {}",
            e.rto_ns
        );
    }

    #[test]
    fn linux_variance_jumps_within_a_round_and_decays_across_rounds() {
        let mut e = RttEstimator::new(RtoRule::Linux, 3000 * MS);
        let mut una = 0;
        for _ in 0..50 {
            una += 10;
            e.sample(100 * MS, una, una + 100);
        }
        let steady = e.rto_ns;
        // One 500 ms outlier: 4·mdev jumps to ~400 ms, above the floor.
        una += 10;
        e.sample(500 * MS, una, una + 100);
        assert!(
            e.rto_ns > steady + 150 * MS,
            "{} vs {}",
            e.rto_ns / MS,
            steady / MS
        );
        // Steady samples again: decays by 1/4 per round back to the floor.
        let jumped = e.rto_ns;
        for _ in 0..200 {
            una += 200;
            e.sample(100 * MS, una, una + 100);
        }
        assert!(e.rto_ns < jumped);
        assert!(e.rto_ns <= 300 * MS + MS, "{}", e.rto_ns / MS);
    }
}
