//! The engine's floating-point CUBIC, as it modelled RFC 9438 before the
//! `linux-6` profile followed `tcp_cubic.c` rule for rule (`linux6.rs`):
//! the `cubic` switch's `Rfc9438` (profiles `sawtooth-1`, `ns-2`, `nist`)
//! and, with `linux_2622`, the CUBIC 2.1 of Linux 2.6.22. Unchanged so that
//! scenarios and links of those profiles keep their results. Bateman et al. 2008
//! Appendix A.
//!
//! * W_cubic(t) = C·(t − K)³ + W_max, K = ∛((W_max − cwnd_epoch)/C)
//!   (RFC 9438 §4.2, eq. 1–2; K = ∛(W_max·(1 − β)/C) right after a loss).
//! * Target W_cubic(t + RTT) (Linux adds `delay_min`), cwnd grows by
//!   (target − cwnd)/cwnd per ACKed packet, at most 1.5× per RTT.
//! * Reno-friendly region (§4.3): W_est grows by α = 3(1 − β)/(1 + β) per
//!   RTT; if W_est > W_cubic cwnd follows W_est.
//! * Fast convergence (§4.7): W_max ← cwnd·(1 + β)/2 if cwnd < W_max.
//! * HyStart (Ha & Rhee 2011) with older kernels' rules: leave slow start
//!   early when the ACK train of a round lasts half the minimum RTT (no
//!   TSO cushion, added to Linux in 2020), or when the smallest RTT of a
//!   round's first eight samples (later samples ignored, as before Linux's
//!   2020 fix) exceeds the minimum by clamp(min/8, 4 ms, 16 ms); rounds
//!   counted by delivered packets in `cong_avoid` (Linux now counts them
//!   by SND.NXT on every slow-start ACK: `cc/hystart.rs`).
//! * HyStart++ (RFC 9406, `cc/hystart_pp.rs`) when the `hystart`
//!   parameter is 2.
//!
//! Where this model differs from the current kernel, see `linux6.rs`.

use super::cubic_window;
use crate::cc::hystart::SlowStartMode;
use crate::cc::hystart_pp::HyStartPlusPlus;
use crate::cc::{AckSample, CaEvent, CaState, CongestionControl, RoundCounter, Window};

/// HyStart: only at or above this window (`hystart_low_window`).
const HYSTART_LOW_WINDOW: u32 = 16;
/// RTT samples per round for the delay detector (`HYSTART_MIN_SAMPLES`).
const HYSTART_MIN_SAMPLES: u32 = 8;
/// ACKs closer than this belong to one train (`hystart_ack_delta_us`).
const HYSTART_ACK_DELTA_NS: u64 = 2_000_000;
const HYSTART_DELAY_MIN_NS: u64 = 4_000_000;
const HYSTART_DELAY_MAX_NS: u64 = 16_000_000;

#[derive(Clone, Copy, Debug, Default)]
struct HyStart {
    found: bool,
    round: RoundCounter,
    round_start_ns: u64,
    last_ack_ns: u64,
    curr_rtt_ns: u64,
    sample_cnt: u32,
}

pub struct Cubic {
    c: f64,
    beta: f64,
    fast_convergence: bool,
    tcp_friendliness: bool,
    /// Slow start (the `hystart` parameter); HyStart here is this model's
    /// own, with the rules of older kernels.
    slow_start: SlowStartMode,
    /// W_max (`last_max_cwnd`).
    last_max_cwnd: f64,
    /// Start of the current congestion-avoidance epoch.
    epoch_start_ns: Option<u64>,
    k_s: f64,
    origin_point: f64,
    /// Packets ACKed in this epoch not yet counted into `tcp_cwnd`.
    ack_cnt: f64,
    /// Reno-friendly estimate W_est (`tcp_cwnd`).
    tcp_cwnd: f64,
    /// Minimum RTT (`delay_min`), 0 before the first sample.
    pub(super) delay_min_ns: u64,
    cnt: u32,
    hystart: HyStart,
    hystart_pp: HyStartPlusPlus,
    /// Linux 2.6.22's CUBIC 2.1 rules (profile switch `cubic`).
    pub linux_2622: bool,
}

/// CUBIC 2.1's `max_increment` (Linux 2.6.22 `tcp_cubic.c`): at most 16
/// packets per 100 ms of minimum RTT, i.e. 160 packets per second.
const LINUX_2622_MAX_INCREMENT_PER_S: f64 = 160.0;
/// CUBIC 2.1's `cnt` before the first loss (`loss_cwnd == 0`).
const LINUX_2622_CNT_BEFORE_LOSS: f64 = 50.0;

impl Cubic {
    pub fn new(
        c: f64,
        beta: f64,
        fast_convergence: bool,
        tcp_friendliness: bool,
        slow_start: SlowStartMode,
    ) -> Self {
        Cubic {
            c,
            beta,
            fast_convergence,
            tcp_friendliness,
            slow_start,
            last_max_cwnd: 0.0,
            epoch_start_ns: None,
            k_s: 0.0,
            origin_point: 0.0,
            ack_cnt: 0.0,
            tcp_cwnd: 0.0,
            delay_min_ns: 0,
            cnt: 0,
            hystart: HyStart::default(),
            hystart_pp: HyStartPlusPlus::new(),
            linux_2622: false,
        }
    }

    /// RFC 9438 defaults (HyStart off, for clean unit tests).
    pub fn rfc9438() -> Self {
        Cubic::new(0.4, 0.7, true, true, SlowStartMode::Standard)
    }

    fn hystart_on(&self) -> bool {
        self.slow_start == SlowStartMode::HyStart
    }

    pub fn w_max(&self) -> f64 {
        self.last_max_cwnd
    }

    pub fn k_s(&self) -> f64 {
        self.k_s
    }

    /// The Reno-friendly estimate W_est.
    pub fn w_est(&self) -> f64 {
        self.tcp_cwnd
    }

    fn reset(&mut self) {
        let (c, beta, fc, tf, hs) = (
            self.c,
            self.beta,
            self.fast_convergence,
            self.tcp_friendliness,
            self.slow_start,
        );
        let linux_2622 = self.linux_2622;
        let hystart_pp = self.hystart_pp;
        *self = Cubic::new(c, beta, fc, tf, hs);
        self.linux_2622 = linux_2622;
        // HyStart++ runs in the initial slow start only (RFC 9406 §4.3):
        // a timeout does not re-arm it.
        self.hystart_pp = hystart_pp;
    }

    #[cfg(test)]
    pub(super) fn test_update(&mut self, cwnd: u32, acked: u32, now_ns: u64) {
        self.update(cwnd, acked, now_ns);
    }

    /// `bictcp_update`: ACKs per one-packet increase.
    fn update(&mut self, cwnd: u32, acked: u32, now_ns: u64) {
        let cwnd_f = cwnd as f64;
        self.ack_cnt += acked as f64;
        let epoch = match self.epoch_start_ns {
            Some(e) => e,
            None => {
                self.epoch_start_ns = Some(now_ns);
                self.ack_cnt = acked as f64;
                self.tcp_cwnd = cwnd_f;
                if self.last_max_cwnd <= cwnd_f {
                    self.k_s = 0.0;
                    self.origin_point = cwnd_f;
                } else {
                    self.k_s = ((self.last_max_cwnd - cwnd_f) / self.c).cbrt();
                    self.origin_point = self.last_max_cwnd;
                }
                now_ns
            }
        };
        // Where the curve will be one (minimum) RTT from now.
        let t = (now_ns + self.delay_min_ns - epoch) as f64 / 1e9;
        let target = cubic_window(t, self.k_s, self.origin_point, self.c);
        let mut cnt = if target > cwnd_f {
            cwnd_f / (target - cwnd_f)
        } else {
            100.0 * cwnd_f
        };
        if self.linux_2622 {
            // CUBIC 2.1: growth capped at max_increment, and a slow,
            // fixed pace before the first loss.
            if self.delay_min_ns > 0 {
                let min_cnt =
                    cwnd_f / (LINUX_2622_MAX_INCREMENT_PER_S * self.delay_min_ns as f64 / 1e9);
                cnt = cnt.max(min_cnt);
            }
            if self.last_max_cwnd == 0.0 {
                cnt = LINUX_2622_CNT_BEFORE_LOSS;
            }
        } else if self.last_max_cwnd == 0.0 && cnt > 20.0 {
            // No loss yet: at most 5% per RTT (Linux ≥ 2.6.25).
            cnt = 20.0;
        }
        if self.tcp_friendliness {
            // W_est += α per cwnd ACKed packets, α = 3(1 − β)/(1 + β).
            let alpha = 3.0 * (1.0 - self.beta) / (1.0 + self.beta);
            let per = cwnd_f / alpha;
            if self.ack_cnt > per {
                let n = (self.ack_cnt / per).floor();
                self.ack_cnt -= n * per;
                self.tcp_cwnd += n;
            }
            if self.tcp_cwnd > cwnd_f {
                let max_cnt = cwnd_f / (self.tcp_cwnd - cwnd_f);
                cnt = cnt.min(max_cnt);
            }
        }
        // At most 1.5× per RTT (RFC 9438 §4.2 target clamp; Linux cnt ≥ 2);
        // 2.6.22 had no such floor.
        let floor = if self.linux_2622 { 1.0 } else { 2.0 };
        self.cnt = (cnt.max(floor)) as u32;
    }

    fn hystart_reset(&mut self, ack: &AckSample) {
        let h = &mut self.hystart;
        h.round.restart(ack);
        h.round_start_ns = ack.now_ns;
        h.last_ack_ns = ack.now_ns;
        h.curr_rtt_ns = u64::MAX;
        h.sample_cnt = 0;
    }

    /// `hystart_update`: returns true when slow start should end now.
    fn hystart_update(&mut self, delay_ns: u64, now_ns: u64) -> bool {
        let delay_min = self.delay_min_ns;
        let h = &mut self.hystart;
        if h.found || delay_min == 0 {
            return false;
        }
        // ACK train: closely spaced ACKs lasting half the minimum RTT.
        if now_ns - h.last_ack_ns <= HYSTART_ACK_DELTA_NS {
            h.last_ack_ns = now_ns;
            if now_ns - h.round_start_ns > delay_min / 2 {
                h.found = true;
            }
        }
        // Delay increase over the first samples of the round.
        if h.sample_cnt < HYSTART_MIN_SAMPLES {
            h.curr_rtt_ns = h.curr_rtt_ns.min(delay_ns);
            h.sample_cnt += 1;
        } else if h.curr_rtt_ns
            > delay_min + (delay_min / 8).clamp(HYSTART_DELAY_MIN_NS, HYSTART_DELAY_MAX_NS)
        {
            h.found = true;
        }
        h.found
    }
}

impl CongestionControl for Cubic {
    /// CUBIC 2.1 (2.6.22) and later sets no `.min_cwnd`, so rate halving stops at
    /// ssthresh (2.6.22 `tcp_cwnd_min`; only CUBIC 2.0 had a hook, which
    /// also returned ssthresh).
    fn min_cwnd(&self, w: &Window) -> u32 {
        w.ssthresh_pkts
    }

    fn init(&mut self, _w: &mut Window, _now_ns: u64) {
        self.reset();
        self.hystart_pp = HyStartPlusPlus::new();
    }

    /// `bictcp_recalc_ssthresh`: end the epoch, remember W_max (fast
    /// convergence), ssthresh = β·cwnd.
    fn ssthresh(&mut self, w: &Window, _now_ns: u64) -> u32 {
        let cwnd = w.cwnd_pkts as f64;
        self.hystart_pp.on_congestion();
        self.epoch_start_ns = None;
        self.last_max_cwnd = if cwnd < self.last_max_cwnd && self.fast_convergence {
            cwnd * (1.0 + self.beta) / 2.0
        } else {
            cwnd
        };
        ((cwnd * self.beta) as u32).max(2)
    }

    fn pkts_acked(&mut self, w: &Window, ack: &AckSample) {
        if self.slow_start == SlowStartMode::HyStartPlusPlus {
            self.hystart_pp.on_ack(w, ack);
        }
        let Some(rtt) = ack.rtt_ns else { return };
        // Discard delay samples right after a reduction (Linux: 1 s).
        if let Some(e) = self.epoch_start_ns {
            if ack.now_ns.saturating_sub(e) < 1_000_000_000 {
                return;
            }
        }
        let delay = rtt.max(1);
        if self.delay_min_ns == 0 || delay < self.delay_min_ns {
            self.delay_min_ns = delay;
        }
        if self.hystart_on() && w.in_slow_start() && w.cwnd_pkts >= HYSTART_LOW_WINDOW {
            // Linux sets ssthresh = cwnd here; the Window is read-only in
            // this hook, so cong_avoid applies it on this same ACK.
            self.hystart_update(delay, ack.now_ns);
        }
    }

    fn cong_avoid(&mut self, w: &mut Window, ack: &AckSample) {
        let mut acked = ack.acked_pkts;
        if w.in_slow_start() && self.slow_start == SlowStartMode::HyStartPlusPlus {
            let left = self.hystart_pp.grow(w, ack.counted_pkts);
            if left == 0 {
                return;
            }
            acked = acked.min(left);
        } else if w.in_slow_start() {
            if self.hystart_on() {
                if self.hystart.found {
                    // HyStart found the exit point: slow start ends here.
                    w.ssthresh_pkts = w.cwnd_pkts;
                } else if self.hystart.round.on_ack(ack) {
                    self.hystart_reset(ack);
                }
            }
            if w.in_slow_start() {
                // Slow start counts what the profile counts; congestion
                // avoidance counts packets (2.6.22 scales its step by the
                // measured packets per ACK, `delayed_ack`).
                let left = w.slow_start(ack.counted_pkts);
                if left == 0 {
                    return;
                }
                acked = acked.min(left);
            }
        }
        self.update(w.cwnd_pkts, acked, ack.now_ns);
        w.cong_avoid_ai(self.cnt, acked);
    }

    /// A timeout starts over (`bictcp_state`); HyStart may run again.
    fn set_state(&mut self, _w: &Window, state: CaState, _now_ns: u64) {
        if state == CaState::Loss {
            let delay_min = self.delay_min_ns;
            self.reset();
            self.delay_min_ns = delay_min;
        }
    }

    fn cwnd_event(&mut self, _w: &Window, event: CaEvent, _now_ns: u64) {
        if matches!(event, CaEvent::TxStart { .. }) {
            // Idle restart: do not count the idle time into the curve
            // (Linux shifts epoch_start; restarting the epoch is the
            // conservative equivalent when the idle time is unknown).
            self.epoch_start_ns = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cc::cubic::cubic_k;
    use crate::cc::testing::{grow_for_rtts, grow_from, loss_event, run_fluid, FluidPath};

    use crate::cc::testing::avoidance_window as window;

    #[test]
    fn k_is_the_cube_root_of_wmax_times_one_minus_beta_over_c() {
        let mut cc = Cubic::rfc9438();
        let mut w = window(1000);
        loss_event(&mut cc, &mut w, 0);
        assert_eq!(w.cwnd_pkts, 700);
        grow_from(&mut cc, &mut w, 1, 100_000_000, 0);
        let k = cubic_k(1000.0, 0.7, 0.4);
        assert!((cc.k_s() - k).abs() < 0.02, "K {} vs {k}", cc.k_s());
        assert!((k - 750f64.cbrt()).abs() < 1e-9);
    }

    #[test]
    fn window_follows_the_closed_form_after_a_loss() {
        // Long RTT (100 ms) so the cubic part dominates the Reno estimate.
        let rtt = 100_000_000u64;
        let mut cc = Cubic::rfc9438();
        cc.delay_min_ns = rtt;
        let mut w = window(2000);
        loss_event(&mut cc, &mut w, 0);
        let k = cubic_k(2000.0, 0.7, 0.4);
        let mut now = 0;
        let mut worst: f64 = 0.0;
        for round in 1..=200 {
            now = grow_from(&mut cc, &mut w, 1, rtt, now);
            let t = round as f64 * rtt as f64 / 1e9;
            let ideal = cubic_window(t, k, 2000.0, 0.4);
            // Linux aims one RTT ahead and may move 1.5× per RTT at most:
            // compare with the closed form at t, allowing the curve's
            // one-RTT lead plus integer rounding.
            let lead = cubic_window(t + 0.1, k, 2000.0, 0.4) - ideal;
            let err = w.cwnd_pkts as f64 - ideal;
            assert!(
                err > -3.0 && err < lead.abs() + 3.0,
                "t = {t:.1}: {} vs {ideal:.1}",
                w.cwnd_pkts
            );
            worst = worst.max(err.abs());
        }
        assert!(worst < 20.0, "worst deviation {worst}");
        // The plateau sits at W_max around t = K.
        assert!(k > 11.0 && k < 12.0);
    }

    /// Linux 2.6.22's CUBIC 2.1: growth at most 16 packets per 100 ms of
    /// minimum RTT, whatever the cubic curve asks for.
    #[test]
    fn linux_2622_caps_growth_at_max_increment() {
        let mut cc = Cubic::new(0.4, 0.8, true, false, SlowStartMode::Standard);
        cc.linux_2622 = true;
        let mut w = window(1000);
        w.ssthresh_pkts = 10;
        cc.last_max_cwnd = 5000.0;
        grow_for_rtts(&mut cc, &mut w, 10, 100_000_000);
        let grown = w.cwnd_pkts - 1000;
        assert!((150..=161).contains(&grown), "10 RTTs of 100 ms: {grown}");
    }

    #[test]
    fn tcp_friendly_region_engages_on_short_rtts() {
        // 1 ms RTT: the cubic curve barely moves in one second, a Reno flow
        // with β = 0.7 adds α = 3·0.3/1.7 ≈ 0.53 packets per RTT.
        let rtt = 1_000_000u64;
        let run = |friendly: bool| {
            let mut cc = Cubic::new(0.4, 0.7, true, friendly, SlowStartMode::Standard);
            cc.delay_min_ns = rtt;
            let mut w = window(100);
            loss_event(&mut cc, &mut w, 0);
            grow_from(&mut cc, &mut w, 1000, rtt, 0);
            (w.cwnd_pkts, cc.w_est())
        };
        let (friendly, w_est) = run(true);
        let (pure, _) = run(false);
        // W_est = 70 + 0.53 per RTT over ~1000 RTTs (the window grows, so
        // fewer RTTs fit in a second of ACKs: about 70 + 0.53·1000).
        assert!(friendly > 400, "friendly {friendly}");
        assert!((friendly as f64 - w_est).abs() <= 2.0, "cwnd follows W_est");
        let cubic_1s = cubic_window(1.0, cubic_k(100.0, 0.7, 0.4), 100.0, 0.4);
        assert!(
            (pure as f64 - cubic_1s).abs() < 5.0,
            "pure cubic {pure} vs {cubic_1s}"
        );
    }

    #[test]
    fn fast_convergence_lowers_wmax() {
        let mut cc = Cubic::rfc9438();
        let mut w = window(1000);
        loss_event(&mut cc, &mut w, 0);
        assert_eq!(cc.w_max(), 1000.0);
        let mut w = window(900);
        loss_event(&mut cc, &mut w, 0);
        assert!((cc.w_max() - 900.0 * 0.85).abs() < 1e-9);
        assert_eq!(w.cwnd_pkts, 630);
    }

    #[test]
    fn hystart_leaves_slow_start_when_the_rtt_rises() {
        // 10 000 pkt/s, 50 ms: BDP 500 packets, unbounded buffer.
        let run = |hystart: bool| {
            let mode = if hystart {
                SlowStartMode::HyStart
            } else {
                SlowStartMode::Standard
            };
            let mut cc = Cubic::new(0.4, 0.7, true, true, mode);
            let mut w = crate::cc::testing::slow_start_window(10);
            let mut path = FluidPath::new(50_000_000, 10_000.0);
            let mut delivered = 0;
            run_fluid(&mut cc, &mut w, &mut path, 12, 0, &mut delivered);
            w
        };
        let with = run(true);
        let without = run(false);
        assert!(
            with.ssthresh_pkts < crate::cc::INFINITE_SSTHRESH,
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
    }
}
