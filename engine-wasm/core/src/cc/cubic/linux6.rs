//! CUBIC as the current Linux kernel runs it: `net/ipv4/tcp_cubic.c`
//! v2.3 (read in torvalds/linux and in two later 6.x trees carrying the
//! January 2025 HyStart round fix), rule for rule and in its integer
//! arithmetic. The `cubic`
//! switch's `Linux6`, set by the `linux-6` profile.
//!
//! Audit against RFC 9438 (Xu et al. 2023). Where the two differ this model
//! follows Linux; each rule says which source it takes:
//!
//! * **W_cubic(t) = C·(t − K)³ + W_max, K = ∛((W_max − cwnd_epoch)/C)**
//!   (RFC 9438 §4.2, Figures 1–2) — as Linux `bictcp_update`: time in
//!   1/1024 s (`BICTCP_HZ` 10), K = ∛(`cube_factor`·(W_max − cwnd)) with
//!   `cube_factor` = 2⁴⁰/(`bic_scale`·10), the target
//!   `bic_origin_point` ± (`bic_scale`·10·|t − K|³ ≫ 40), all integers.
//!   `bic_scale` 41 makes C = 410/1024 = 0.4004 (RFC: 0.4). Linux takes the
//!   cube root from a table and one Newton step (`cubic_root`, 0.2 % mean
//!   error); this model takes the exact integer cube root.
//! * **t** — Linux aims one minimum RTT ahead (t + `delay_min`), the RFC
//!   one smoothed RTT ahead (W_cubic(t + RTT)). Linux's clock is the jiffy
//!   (`tcp_jiffies32`, HZ 100–1000); `linux-6` has exact timers (its timer
//!   switch is 0), so this clock is exact too.
//! * **The target between cwnd and 1.5·cwnd** (RFC §4.2) — Linux:
//!   `cnt` = cwnd/(target − cwnd) ACKs per packet, at least 2 (at most
//!   1.5× per RTT, the same bound); a target at or below cwnd gives
//!   `cnt` = 100·cwnd (a hundredth of a packet per RTT) where the RFC adds
//!   nothing. Before the first loss (W_max = 0) at most 5 % per RTT
//!   (`cnt` ≤ 20), Linux only.
//! * **`cnt` refreshed** at most once per 1/32 s while cwnd is unchanged,
//!   and at most once per clock tick (Linux: `HZ / 32` jiffies, one
//!   jiffy), Linux only; the Reno-friendly count still runs per ACK.
//! * **Reno-friendly region** (RFC §4.3, Figure 4: W_est += α·acked/cwnd,
//!   α = 3(1 − β)/(1 + β)) — Linux: W_est (`tcp_cwnd`) + 1 per
//!   (cwnd·`beta_scale`)≫3 ACKed packets, `beta_scale` = 8(1024 + β)/3/
//!   (1024 − β) = 15, so α = 8/15 = 0.533 (RFC 0.529); cwnd is not set to
//!   W_est but grows towards it, `cnt` ≤ cwnd/(W_est − cwnd). The RFC's
//!   switch to α = 1 once W_est ≥ cwnd_prior (a SHOULD) is not in Linux
//!   (proposed on netdev in August 2024, "tcp_cubic: fix to match Reno
//!   additive increment", not merged in the trees read), so not here.
//! * **Multiplicative decrease** (RFC §4.6: ssthresh = flight_size·β) —
//!   Linux: max(cwnd·β/1024, 2) with β = 717 (0.7002), cwnd in place of
//!   flight size (the RFC allows it when cwnd cannot grow while not fully
//!   used: the sender grows the window only when it was the limit).
//! * **Fast convergence** (RFC §4.7: W_max = cwnd·(1 + β)/2 if cwnd <
//!   W_max) — Linux: cwnd·(1024 + β)/2048, integer.
//! * **Timeout** (RFC §4.8: K = 0, W_max = cwnd at the start of congestion
//!   avoidance) — Linux resets all state on `TCP_CA_Loss`
//!   (`bictcp_reset`: W_max, the epoch, W_est and `delay_min` too), which
//!   gives the RFC's curve; HyStart starts over.
//! * **Spurious congestion** (RFC §4.9, MAY restore W_max, K, t_epoch,
//!   W_est) — Linux restores only cwnd and ssthresh (`tcp_reno_undo_cwnd`);
//!   the engine detects no spurious loss, so nothing is undone.
//! * **After idle** (RFC §5.8: t must not include application-limited
//!   periods) — Linux (`cubictcp_cwnd_event`, `CA_EVENT_TX_START`) shifts
//!   the epoch start by the time since the last transmission, never past
//!   now, so the curve resumes where it stopped.
//! * **Slow start** (RFC §4.10: HyStart++ SHOULD, HyStart an experimental
//!   alternative) — Linux runs HyStart (`cc/hystart.rs`), the default here;
//!   the `hystart` parameter selects standard slow start or HyStart++.
//! * Delay samples within 1 s of an epoch's start are ignored for
//!   `delay_min` ("discard delay samples right after fast recovery").

use crate::cc::hystart::{SlowStart, SlowStartMode};
use crate::cc::{AckSample, CaEvent, CaState, CongestionControl, Window};

/// `BICTCP_BETA_SCALE`.
const BETA_SCALE: u32 = 1024;
/// `BICTCP_HZ`: time in units of 2⁻¹⁰ s.
const BICTCP_HZ: u32 = 10;
/// `cnt` is refreshed at most this often while cwnd is unchanged
/// (`HZ / 32` jiffies).
const CNT_REFRESH_NS: u64 = 1_000_000_000 / 32;
/// Delay samples this soon after an epoch's start are ignored (`HZ`).
const DISCARD_AFTER_EPOCH_NS: u64 = 1_000_000_000;

/// Floor of the cube root of `a`.
fn icbrt(a: u64) -> u64 {
    let mut x = (a as f64).cbrt() as u64;
    while x > 0 && x.saturating_mul(x).saturating_mul(x) > a {
        x -= 1;
    }
    while (x + 1).saturating_mul(x + 1).saturating_mul(x + 1) <= a {
        x += 1;
    }
    x
}

pub struct CubicLinux {
    /// `beta`, scaled by 1024 (717 ≈ 0.7).
    beta: u32,
    /// `bic_scale`: C·1024/10 (41 ≈ 0.4).
    bic_scale: u32,
    fast_convergence: bool,
    tcp_friendliness: bool,
    /// 8·(1024 + β)/3/(1024 − β) (`beta_scale`).
    beta_scale: u32,
    /// `bic_scale`·10 (`cube_rtt_scale`).
    cube_rtt_scale: u64,
    /// 2⁴⁰/(`bic_scale`·10) (`cube_factor`).
    cube_factor: u64,
    // struct bictcp
    cnt: u32,
    last_max_cwnd: u32,
    last_cwnd: u32,
    last_time_ns: u64,
    bic_origin_point: u32,
    /// K in 1/1024 s.
    bic_k: u32,
    /// Minimum RTT in µs, 0 before the first sample.
    pub(super) delay_min_us: u32,
    epoch_start_ns: Option<u64>,
    ack_cnt: u32,
    /// W_est.
    tcp_cwnd: u32,
    slow_start: SlowStart,
}

impl CubicLinux {
    /// The module's parameters from the catalogue's: β·1024 and
    /// C·1024/10, rounded (0.7 → 717 and 0.4 → 41, Linux's defaults).
    pub fn new(
        c: f64,
        beta: f64,
        fast_convergence: bool,
        tcp_friendliness: bool,
        slow_start: SlowStartMode,
    ) -> Self {
        let beta = ((beta * BETA_SCALE as f64).round() as u32).clamp(1, BETA_SCALE - 1);
        let bic_scale = ((c * BETA_SCALE as f64 / 10.0).round() as u32).max(1);
        let cube_rtt_scale = bic_scale as u64 * 10;
        CubicLinux {
            beta,
            bic_scale,
            fast_convergence,
            tcp_friendliness,
            beta_scale: 8 * (BETA_SCALE + beta) / 3 / (BETA_SCALE - beta),
            cube_rtt_scale,
            cube_factor: (1u64 << (10 + 3 * BICTCP_HZ)) / cube_rtt_scale,
            cnt: 0,
            last_max_cwnd: 0,
            last_cwnd: 0,
            last_time_ns: 0,
            bic_origin_point: 0,
            bic_k: 0,
            delay_min_us: 0,
            epoch_start_ns: None,
            ack_cnt: 0,
            tcp_cwnd: 0,
            slow_start: SlowStart::new(slow_start),
        }
    }

    /// Linux's defaults with standard slow start, for unit tests.
    pub fn linux_defaults() -> Self {
        CubicLinux::new(0.4, 0.7, true, true, SlowStartMode::Standard)
    }

    /// β·1024 and `bic_scale`.
    pub fn scaled_params(&self) -> (u32, u32) {
        (self.beta, self.bic_scale)
    }

    pub fn w_max(&self) -> u32 {
        self.last_max_cwnd
    }

    /// K in seconds.
    pub fn k_s(&self) -> f64 {
        self.bic_k as f64 / 1024.0
    }

    /// The Reno-friendly estimate W_est.
    pub fn w_est(&self) -> u32 {
        self.tcp_cwnd
    }

    /// `cnt`: ACKed packets per one-packet increase.
    pub fn cnt(&self) -> u32 {
        self.cnt
    }

    /// `bictcp_reset`: every variable of `struct bictcp` to zero.
    fn reset(&mut self) {
        self.cnt = 0;
        self.last_max_cwnd = 0;
        self.last_cwnd = 0;
        self.last_time_ns = 0;
        self.bic_origin_point = 0;
        self.bic_k = 0;
        self.delay_min_us = 0;
        self.epoch_start_ns = None;
        self.ack_cnt = 0;
        self.tcp_cwnd = 0;
    }

    /// W_cubic in packets at `t` (1/1024 s since the epoch began), as
    /// `bictcp_update` computes `bic_target`.
    fn bic_target(&self, t: u64) -> u32 {
        let k = self.bic_k as u64;
        let offs = t.abs_diff(k);
        let delta = (self
            .cube_rtt_scale
            .wrapping_mul(offs)
            .wrapping_mul(offs)
            .wrapping_mul(offs)
            >> (10 + 3 * BICTCP_HZ)) as u32;
        if t < k {
            self.bic_origin_point.wrapping_sub(delta)
        } else {
            self.bic_origin_point.wrapping_add(delta)
        }
    }

    #[cfg(test)]
    pub(super) fn test_update(&mut self, cwnd: u32, acked: u32, now_ns: u64) {
        self.update(cwnd, acked, now_ns);
    }

    /// `bictcp_update`: `cnt`, the ACKed packets per one-packet increase.
    fn update(&mut self, cwnd: u32, acked: u32, now_ns: u64) {
        self.ack_cnt = self.ack_cnt.wrapping_add(acked);
        if self.last_cwnd == cwnd && now_ns.saturating_sub(self.last_time_ns) <= CNT_REFRESH_NS {
            return;
        }
        // At most once per tick: with an exact clock, once per instant.
        let same_tick = self.epoch_start_ns.is_some() && now_ns == self.last_time_ns;
        if !same_tick {
            self.last_cwnd = cwnd;
            self.last_time_ns = now_ns;
            let epoch = match self.epoch_start_ns {
                Some(e) => e,
                None => {
                    self.epoch_start_ns = Some(now_ns);
                    self.ack_cnt = acked;
                    self.tcp_cwnd = cwnd;
                    if self.last_max_cwnd <= cwnd {
                        self.bic_k = 0;
                        self.bic_origin_point = cwnd;
                    } else {
                        let a = self
                            .cube_factor
                            .wrapping_mul((self.last_max_cwnd - cwnd) as u64);
                        self.bic_k = icbrt(a) as u32;
                        self.bic_origin_point = self.last_max_cwnd;
                    }
                    now_ns
                }
            };
            // t + delay_min, in 1/1024 s.
            let elapsed_ns = now_ns.saturating_sub(epoch) + self.delay_min_us as u64 * 1000;
            let t = ((elapsed_ns as u128) << BICTCP_HZ) / 1_000_000_000;
            let target = self.bic_target(t as u64);
            self.cnt = if target > cwnd {
                cwnd / (target - cwnd)
            } else {
                cwnd.wrapping_mul(100)
            };
            // "The initial growth of cubic function may be too
            // conservative when the available bandwidth is still unknown":
            // 5 % per RTT before the first loss.
            if self.last_max_cwnd == 0 && self.cnt > 20 {
                self.cnt = 20;
            }
        }
        if self.tcp_friendliness {
            let delta = cwnd.wrapping_mul(self.beta_scale) >> 3;
            if delta > 0 && self.ack_cnt > delta {
                let n = (self.ack_cnt - 1) / delta;
                self.ack_cnt -= n * delta;
                self.tcp_cwnd += n;
            }
            if self.tcp_cwnd > cwnd {
                let max_cnt = cwnd / (self.tcp_cwnd - cwnd);
                self.cnt = self.cnt.min(max_cnt);
            }
        }
        // At most one packet per two ACKed: 1.5× per RTT.
        self.cnt = self.cnt.max(2);
    }
}

impl CongestionControl for CubicLinux {
    /// Linux ≥ 3.x has no `min_cwnd`; rate halving (not used on `linux-6`,
    /// which has PRR) would stop at ssthresh, as for the older CUBICs.
    fn min_cwnd(&self, w: &Window) -> u32 {
        w.ssthresh_pkts
    }

    /// `cubictcp_init`: `bictcp_reset`, HyStart's round (`initial_ssthresh`
    /// is 0 by default: ssthresh stays as the connection set it).
    fn init(&mut self, _w: &mut Window, _now_ns: u64) {
        self.reset();
        self.slow_start.on_init();
    }

    /// `cubictcp_recalc_ssthresh`: end the epoch, remember W_max (fast
    /// convergence), ssthresh = max(cwnd·β/1024, 2).
    fn ssthresh(&mut self, w: &Window, _now_ns: u64) -> u32 {
        let cwnd = w.cwnd_pkts;
        self.slow_start.on_congestion();
        self.epoch_start_ns = None;
        self.last_max_cwnd = if cwnd < self.last_max_cwnd && self.fast_convergence {
            ((cwnd as u64 * (BETA_SCALE + self.beta) as u64) / (2 * BETA_SCALE) as u64) as u32
        } else {
            cwnd
        };
        ((cwnd as u64 * self.beta as u64 / BETA_SCALE as u64) as u32).max(2)
    }

    /// `cubictcp_acked`: `delay_min` and HyStart (HyStart++ sees every
    /// ACK first).
    fn pkts_acked(&mut self, w: &Window, ack: &AckSample) {
        self.slow_start.on_ack(w, ack);
        let Some(rtt_ns) = ack.rtt_ns else { return };
        if let Some(e) = self.epoch_start_ns {
            if ack.now_ns.saturating_sub(e) < DISCARD_AFTER_EPOCH_NS {
                return;
            }
        }
        let delay_us = ((rtt_ns / 1000).min(u32::MAX as u64) as u32).max(1);
        if self.delay_min_us == 0 || self.delay_min_us > delay_us {
            self.delay_min_us = delay_us;
        }
        self.slow_start
            .on_delay(w, ack, delay_us, self.delay_min_us);
    }

    /// `cubictcp_cong_avoid`: slow start (the flow's kind), then
    /// `bictcp_update` and `tcp_cong_avoid_ai`.
    fn cong_avoid(&mut self, w: &mut Window, ack: &AckSample) {
        let mut acked = ack.counted_pkts;
        if w.in_slow_start() {
            acked = self.slow_start.grow(w, acked);
            if acked == 0 {
                return;
            }
        }
        self.update(w.cwnd_pkts, acked, ack.now_ns);
        w.cong_avoid_ai(self.cnt, acked);
    }

    /// `cubictcp_state`: a timeout starts everything over.
    fn set_state(&mut self, _w: &Window, state: CaState, now_ns: u64) {
        if state == CaState::Loss {
            self.reset();
            self.slow_start.on_timeout(now_ns);
        }
    }

    /// `cubictcp_cwnd_event(CA_EVENT_TX_START)`: "We were application
    /// limited (idle) for a while. Shift epoch_start to keep cwnd growth to
    /// cubic curve." — by the time since the last transmission, never past
    /// now.
    fn cwnd_event(&mut self, _w: &Window, event: CaEvent, now_ns: u64) {
        if let CaEvent::TxStart { idle_ns } = event {
            if let Some(e) = self.epoch_start_ns {
                if idle_ns > 0 {
                    self.epoch_start_ns = Some(e.saturating_add(idle_ns).min(now_ns));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cc::testing::{grow_from, loss_event, run_fluid, FluidPath};
    use crate::cc::INFINITE_SSTHRESH;

    use crate::cc::testing::avoidance_window as window;

    #[test]
    fn parameters_are_linuxs_integers() {
        let cc = CubicLinux::linux_defaults();
        assert_eq!(cc.scaled_params(), (717, 41));
        assert_eq!(cc.beta_scale, 15);
        assert_eq!(cc.cube_rtt_scale, 410);
        assert_eq!(cc.cube_factor, (1u64 << 40) / 410);
        let old = CubicLinux::new(0.4, 0.8, true, true, SlowStartMode::Standard);
        assert_eq!(old.scaled_params().0, 819, "2.6.22's beta");
    }

    #[test]
    fn integer_cube_root() {
        for a in [
            0u64,
            1,
            7,
            8,
            26,
            27,
            1 << 40,
            804_520_703_100,
            u64::MAX / 1000,
        ] {
            let x = icbrt(a);
            assert!(x * x * x <= a && (x + 1) * (x + 1) * (x + 1) > a, "{a}");
        }
    }

    /// `bic_target` at t = K is the origin, W_max (RFC 9438 Figure 1).
    #[test]
    fn the_target_at_k_is_wmax() {
        let mut cc = CubicLinux::linux_defaults();
        let mut w = window(2000);
        loss_event(&mut cc, &mut w, 0);
        cc.update(w.cwnd_pkts, 1, 0);
        assert_eq!(cc.bic_target(cc.bic_k as u64), 2000);
        assert!(cc.bic_target(0) <= 1401, "t = 0: cwnd_epoch");
    }

    /// Linux, not the RFC: a target at or below cwnd still grows the
    /// window by a hundredth of a packet per RTT (`cnt` = 100·cwnd).
    #[test]
    fn a_target_below_cwnd_grows_a_hundredth_per_rtt() {
        let mut cc = CubicLinux::new(0.4, 0.7, true, false, SlowStartMode::Standard);
        let mut w = window(1000);
        loss_event(&mut cc, &mut w, 0);
        // cwnd back above W_max: the epoch starts with K = 0 at cwnd.
        cc.update(1000, 1, 0);
        assert_eq!(cc.cnt(), 100 * 1000);
    }

    /// Linux, not RFC 9438 §4.3's SHOULD ("Once W_est has grown to reach
    /// the cwnd at the time of most recently setting ssthresh — that is,
    /// W_est >= cwnd_prior — the sender SHOULD set α_cubic to 1"): after a
    /// loss at 1000 packets, an epoch that starts at cwnd = cwnd_prior =
    /// 1000 still grows W_est by 8/15 per window of ACKs: +5 in ten
    /// windows, where the RFC's α = 1 would give +10.
    #[test]
    fn reno_friendly_alpha_does_not_switch_to_one() {
        let mut cc = CubicLinux::linux_defaults();
        let mut w = window(1000);
        loss_event(&mut cc, &mut w, 0);
        // 40 ms apart: past the 1/32 s refresh, every ACK counts at once.
        for i in 0..10 * 1000u64 {
            cc.update(1000, 1, i * 40_000_000);
        }
        assert_eq!(cc.w_est(), 1000 + 5);
    }

    /// `cubictcp_cwnd_event`: after an idle period the epoch moves by the
    /// idle time, so the target resumes where it stopped.
    #[test]
    fn idle_time_is_not_counted_in_t() {
        let rtt = 100_000_000u64;
        let mut cc = CubicLinux::linux_defaults();
        cc.delay_min_us = (rtt / 1000) as u32;
        let mut w = window(1000);
        loss_event(&mut cc, &mut w, 0);
        let now = grow_from(&mut cc, &mut w, 20, rtt, 0);
        let epoch = cc.epoch_start_ns.unwrap();
        // 10 s without sending.
        let resume = now + 10_000_000_000;
        cc.cwnd_event(
            &w,
            CaEvent::TxStart {
                idle_ns: 10_000_000_000,
            },
            resume,
        );
        assert_eq!(cc.epoch_start_ns, Some(epoch + 10_000_000_000));
        // Never past now.
        cc.cwnd_event(
            &w,
            CaEvent::TxStart {
                idle_ns: 100_000_000_000,
            },
            resume,
        );
        assert_eq!(cc.epoch_start_ns, Some(resume));
    }

    /// A timeout resets every variable, `delay_min` included
    /// (`bictcp_reset` zeroes `struct bictcp` up to `unused`).
    #[test]
    fn a_timeout_forgets_wmax_and_delay_min() {
        let mut cc = CubicLinux::linux_defaults();
        let mut w = window(1000);
        grow_from(&mut cc, &mut w, 1, 50_000_000, 0);
        let before = w.cwnd_pkts;
        loss_event(&mut cc, &mut w, 0);
        assert_eq!(cc.w_max(), before);
        assert_ne!(cc.delay_min_us, 0);
        cc.set_state(&w, CaState::Loss, 1);
        assert_eq!(cc.w_max(), 0);
        assert_eq!(cc.delay_min_us, 0);
        assert_eq!(cc.epoch_start_ns, None);
    }

    /// RFC 9406 with CUBIC: a loss in Conservative Slow Start is answered
    /// by CUBIC's decrease (ssthresh = cwnd·717/1024), and HyStart++ does
    /// not come back.
    #[test]
    fn a_loss_in_css_takes_cubics_decrease() {
        use crate::cc::hystart_pp::Phase;
        let mut cc = CubicLinux::new(0.4, 0.7, true, true, SlowStartMode::HyStartPlusPlus);
        let mut w = crate::cc::testing::slow_start_window(10);
        cc.init(&mut w, 0);
        let mut path = FluidPath::new(50_000_000, 10_000.0);
        let mut delivered = 0;
        let mut now = 0;
        while cc.slow_start.hystart_pp.phase() != Phase::Css {
            now = run_fluid(&mut cc, &mut w, &mut path, 1, now, &mut delivered).0;
            assert!(now < 2_000_000_000, "no CSS after 2 s");
        }
        assert_eq!(
            w.ssthresh_pkts, INFINITE_SSTHRESH,
            "CSS is still slow start"
        );
        let cwnd = w.cwnd_pkts;
        let ss = cc.ssthresh(&w, now);
        assert_eq!(ss, cwnd * 717 / 1024);
        assert_eq!(cc.slow_start.hystart_pp.phase(), Phase::Done);
        assert_eq!(cc.w_max(), cwnd);
    }

    /// HyStart with Linux's rules leaves slow start near the pipe's size
    /// on a fluid path with an unbounded buffer.
    #[test]
    fn hystart_leaves_slow_start_when_the_rtt_rises() {
        let run = |mode: SlowStartMode| {
            let mut cc = CubicLinux::new(0.4, 0.7, true, true, mode);
            let mut w = crate::cc::testing::slow_start_window(10);
            cc.init(&mut w, 0);
            let mut path = FluidPath::new(50_000_000, 10_000.0);
            let mut delivered = 0;
            run_fluid(&mut cc, &mut w, &mut path, 12, 0, &mut delivered);
            w
        };
        let with = run(SlowStartMode::HyStart);
        let plus = run(SlowStartMode::HyStartPlusPlus);
        let without = run(SlowStartMode::Standard);
        assert!(
            with.ssthresh_pkts < INFINITE_SSTHRESH,
            "HyStart set ssthresh"
        );
        assert!(
            with.ssthresh_pkts <= 2 * 500 + 100,
            "exit near the BDP, got {}",
            with.ssthresh_pkts
        );
        assert!(
            without.cwnd_pkts > 4 * with.cwnd_pkts,
            "plain slow start keeps doubling: {} vs {}",
            without.cwnd_pkts,
            with.cwnd_pkts
        );
        assert!(
            plus.cwnd_pkts < without.cwnd_pkts / 4,
            "HyStart++ slows down too: {} vs {}",
            plus.cwnd_pkts,
            without.cwnd_pkts
        );
    }
}
