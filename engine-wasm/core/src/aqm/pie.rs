//! Proportional Integral controller Enhanced, PIE (Pan, Natarajan, Baker &
//! White, RFC 8033): a drop probability updated every T_UPDATE from the
//! queueing delay, its distance from a target and its trend (§4.2), applied
//! to arriving packets (§4.1), with a burst allowance (§4.4).
//!
//! Choices the RFC leaves open:
//! * The queueing delay is measured with timestamps (§4.3 allows them in
//!   place of the departure-rate estimate of §5.2): the sojourn time of the
//!   packet last dequeued, and 0 once a dequeue leaves the queue empty (as
//!   Little's law gives for an empty queue, and as Linux's `sch_pie.c` does
//!   with timestamps).
//! * The periodic update is computed lazily: before each arrival and
//!   dequeue, every update due at or before that instant runs in turn, with
//!   the state as it was (nothing that feeds an update changes between
//!   packets), so the result is that of a timer firing every T_UPDATE from
//!   time zero, each firing before a packet event at the same instant.
//! * ECN (§5.1) and the cap on the drop adjustment (§5.5) are implemented;
//!   derandomisation (§5.4) and the active/inactive switch (§5.3), both
//!   optional, are not: PIE runs from time zero and drops with a plain
//!   Bernoulli draw.
//!
//! Where Linux's `net/sched/sch_pie.c` (timestamp mode, its default)
//! differs, this module follows the RFC:
//! * the §4.1 safeguard reads `qdelay_old`; `pie_drop_early` reads the
//!   current `qdelay`, and bypasses below 2 MTU (`backlog < 2 * mtu`) where
//!   the RFC says at most 2 MEAN_PKTSIZE;
//! * the §4.2 decay is × 0.98 (Appendix A's code); Linux takes 1/64 off
//!   (98.4 %, which the RFC allows), and skips it when the delay sample is
//!   0 with a backlog;
//! * Linux adds 2 % to an update while the delay exceeds 250 ms, which the
//!   RFC does not;
//! * Linux spends the burst allowance by the time between dequeues, the
//!   RFC (§4.4) by T_UPDATE per update; both restore it on the same
//!   condition;
//! * Linux always derandomises (§5.4) and fires its first update after
//!   500 ms.
//!
//! The decay condition is read two ways: DPDK's `rte_pie.h` decays while
//! both delays are below QDELAY_REF/2, Linux and ns-3 (citing §4.2) only
//! while both are 0, as here.

use super::Verdict;

/// QDELAY_REF, the target queueing delay (RFC 8033 §4.2: 15 ms).
pub const TARGET_MS: f64 = 15.0;
/// T_UPDATE, the period of the drop-probability update (RFC 8033 §4.2:
/// 15 ms).
pub const T_UPDATE_MS: f64 = 15.0;
/// alpha, per second (RFC 8033 §4.2: 0.125 Hz).
pub const ALPHA: f64 = 0.125;
/// beta, per second (RFC 8033 §4.2: 1.25 Hz).
pub const BETA: f64 = 1.25;
/// MAX_BURST, the burst allowance (RFC 8033 §4.4: 150 ms).
pub const MAX_BURST_MS: f64 = 150.0;
/// mark_ecnth: above this drop probability ECN-capable packets are dropped,
/// not marked (RFC 8033 §5.1: 10 %).
pub const MARK_ECNTH: f64 = 0.1;
/// Below half the target delay and this probability, no random drop
/// (RFC 8033 §4.1: 20 %).
pub const SAFE_PROB: f64 = 0.2;
/// The drop probability's decay per update while the queue stays empty
/// (RFC 8033 §4.2: × 0.98).
pub const IDLE_DECAY: f64 = 0.98;
/// Above this probability one update adds at most [`CAP_STEP`] (RFC 8033
/// §5.5: 10 % and 2 %).
pub const CAP_PROB: f64 = 0.1;
pub const CAP_STEP: f64 = 0.02;

/// PIE's settings, resolved from the scenario.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PieParams {
    pub target_ns: u64,
    pub t_update_ns: u64,
    pub alpha: f64,
    pub beta: f64,
    pub max_burst_ns: u64,
    pub ecn: bool,
    /// MEAN_PKTSIZE of §4.1 (a queue of at most two is never dropped
    /// from), in queue bytes: a full-size data packet.
    pub mean_pkt_bytes: u64,
}

/// The auto-tuning of alpha and beta (RFC 8033 §4.2): the adjustment is
/// divided by 2048, 512, 128, 32, 8 or 2 while the drop probability is
/// below 0.0001 %, 0.001 %, 0.01 %, 0.1 %, 1 % or 10 %, so that a small
/// probability moves in small steps.
pub fn autotune_divisor(drop_prob: f64) -> f64 {
    const TABLE: [(f64, f64); 6] = [
        (0.000_001, 2048.0),
        (0.000_01, 512.0),
        (0.000_1, 128.0),
        (0.001, 32.0),
        (0.01, 8.0),
        (0.1, 2.0),
    ];
    TABLE
        .iter()
        .find(|&&(below, _)| drop_prob < below)
        .map_or(1.0, |&(_, d)| d)
}

/// PIE's state (RFC 8033 §4).
#[derive(Clone, Debug, PartialEq)]
pub struct Pie {
    pub params: PieParams,
    pub drop_prob: f64,
    /// current_qdelay: the latest queueing delay measured.
    pub qdelay_ns: u64,
    /// qdelay_old: the delay at the last update.
    pub qdelay_old_ns: u64,
    pub burst_allowance_ns: u64,
    /// When the next periodic update is due.
    pub next_update_ns: u64,
}

impl Pie {
    pub fn new(params: PieParams) -> Pie {
        Pie {
            params,
            drop_prob: 0.0,
            qdelay_ns: 0,
            qdelay_old_ns: 0,
            burst_allowance_ns: params.max_burst_ns,
            next_update_ns: params.t_update_ns,
        }
    }

    /// One periodic update (RFC 8033 §4.2, with §4.4's burst allowance and
    /// §5.5's cap).
    pub fn update(&mut self) {
        let p = &self.params;
        let s = |ns: u64| ns as f64 / 1e9;
        let (qdelay, old, target) = (s(self.qdelay_ns), s(self.qdelay_old_ns), s(p.target_ns));
        let mut delta = p.alpha * (qdelay - target) + p.beta * (qdelay - old);
        delta /= autotune_divisor(self.drop_prob);
        if self.drop_prob >= CAP_PROB && delta > CAP_STEP {
            delta = CAP_STEP;
        }
        self.drop_prob += delta;
        if self.qdelay_ns == 0 && self.qdelay_old_ns == 0 {
            self.drop_prob *= IDLE_DECAY;
        }
        self.drop_prob = self.drop_prob.clamp(0.0, 1.0);
        self.burst_allowance_ns = self.burst_allowance_ns.saturating_sub(p.t_update_ns);
        // §4.4: once congestion has gone (no drop probability, both delays
        // below half the target) the burst allowance is whole again.
        if self.drop_prob == 0.0
            && 2 * self.qdelay_ns < p.target_ns
            && 2 * self.qdelay_old_ns < p.target_ns
        {
            self.burst_allowance_ns = p.max_burst_ns;
        }
        self.qdelay_old_ns = self.qdelay_ns;
    }

    /// Nothing left to update: every further update with an empty queue
    /// leaves the state as it is.
    fn at_rest(&self) -> bool {
        self.drop_prob == 0.0
            && self.qdelay_ns == 0
            && self.qdelay_old_ns == 0
            && self.burst_allowance_ns == self.params.max_burst_ns
    }

    /// Run every update due at or before `now_ns`.
    pub fn catch_up(&mut self, now_ns: u64) {
        let t = self.params.t_update_ns;
        while self.next_update_ns <= now_ns {
            if self.at_rest() {
                let skipped = (now_ns - self.next_update_ns) / t + 1;
                self.next_update_ns += skipped * t;
                break;
            }
            self.update();
            self.next_update_ns += t;
        }
    }

    /// A packet left the queue after `sojourn_ns`, leaving `backlog_bytes`.
    pub fn on_dequeue(&mut self, now_ns: u64, sojourn_ns: u64, backlog_bytes: u64) {
        self.catch_up(now_ns);
        self.qdelay_ns = if backlog_bytes == 0 { 0 } else { sojourn_ns };
    }

    /// Whether to drop or mark a packet arriving at a queue of
    /// `backlog_bytes` (RFC 8033 §4.1, §5.1). `uniform` is drawn only when
    /// needed, from the one generator.
    pub fn on_arrival(
        &mut self,
        now_ns: u64,
        backlog_bytes: u64,
        ect: bool,
        uniform: impl FnOnce() -> f64,
    ) -> Verdict {
        self.catch_up(now_ns);
        let p = &self.params;
        if self.burst_allowance_ns > 0 {
            return Verdict::Enqueue;
        }
        if (2 * self.qdelay_old_ns < p.target_ns && self.drop_prob < SAFE_PROB)
            || backlog_bytes <= 2 * p.mean_pkt_bytes
        {
            return Verdict::Enqueue;
        }
        if uniform() >= self.drop_prob {
            return Verdict::Enqueue;
        }
        if p.ecn && ect && self.drop_prob <= MARK_ECNTH {
            Verdict::Mark
        } else {
            Verdict::Drop
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: u64 = 1_000_000;

    fn params() -> PieParams {
        PieParams {
            target_ns: 15 * MS,
            t_update_ns: 15 * MS,
            alpha: ALPHA,
            beta: BETA,
            max_burst_ns: 150 * MS,
            ecn: false,
            mean_pkt_bytes: 1514,
        }
    }

    #[test]
    fn the_defaults_are_rfc_8033s() {
        assert_eq!(TARGET_MS, 15.0, "§4.2 QDELAY_REF");
        assert_eq!(T_UPDATE_MS, 15.0, "§4.2 T_UPDATE");
        assert_eq!(ALPHA, 0.125, "§4.2 alpha");
        assert_eq!(BETA, 1.25, "§4.2 beta");
        assert_eq!(MAX_BURST_MS, 150.0, "§4.4 MAX_BURST");
        assert_eq!(MARK_ECNTH, 0.1, "§5.1 mark_ecnth");
        assert_eq!(IDLE_DECAY, 0.98, "§4.2 decay");
    }

    /// RFC 8033 §4.2's table, at each boundary.
    #[test]
    fn alpha_and_beta_are_scaled_by_the_probability_table() {
        let cases = [
            (0.0, 2048.0),
            (0.000_000_9, 2048.0),
            (0.000_001, 512.0),
            (0.000_009, 512.0),
            (0.000_01, 128.0),
            (0.000_1, 32.0),
            (0.001, 8.0),
            (0.009, 8.0),
            (0.01, 2.0),
            (0.099, 2.0),
            (0.1, 1.0),
            (0.9, 1.0),
        ];
        for (p, d) in cases {
            assert_eq!(autotune_divisor(p), d, "p = {p}");
        }
        // One update at p = 0 with 5 ms above target moves p by
        // alpha × 5 ms / 2048 (no trend).
        let mut pie = Pie::new(params());
        pie.qdelay_ns = 20 * MS;
        pie.qdelay_old_ns = 20 * MS;
        pie.update();
        let expected = 0.125 * 0.005 / 2048.0;
        assert!(
            (pie.drop_prob - expected).abs() < 1e-15,
            "{}",
            pie.drop_prob
        );
    }

    /// §5.5: above 10 % one update adds at most 2 %.
    #[test]
    fn a_large_probability_grows_at_most_two_percent_an_update() {
        let mut pie = Pie::new(params());
        pie.drop_prob = 0.3;
        pie.qdelay_ns = 500 * MS;
        pie.update();
        assert!((pie.drop_prob - 0.32).abs() < 1e-12);
    }

    /// §4.4: within MAX_BURST of a quiet queue nothing is dropped, however
    /// high the probability; it runs out after MAX_BURST / T_UPDATE
    /// updates of congestion.
    #[test]
    fn the_burst_allowance_lets_a_burst_through_then_runs_out() {
        let mut pie = Pie::new(params());
        pie.qdelay_ns = 100 * MS;
        let mut now = 0;
        let mut first_drop = None;
        for _ in 0..40 {
            now += 15 * MS;
            // A big queue, always above the target.
            pie.on_dequeue(now, 100 * MS, 1_000_000);
            pie.drop_prob = pie.drop_prob.max(0.5);
            if pie.on_arrival(now, 1_000_000, true, || 0.0) == Verdict::Drop {
                first_drop.get_or_insert(now);
            }
        }
        assert_eq!(
            first_drop,
            Some(150 * MS),
            "the allowance lasts 150 ms of updates"
        );
    }

    #[test]
    fn no_random_drop_when_delay_and_probability_are_low_or_the_queue_is_tiny() {
        let mut pie = Pie::new(params());
        pie.burst_allowance_ns = 0;
        pie.next_update_ns = u64::MAX;
        pie.drop_prob = 0.19;
        pie.qdelay_old_ns = 7 * MS;
        assert_eq!(
            pie.on_arrival(0, 1_000_000, true, || 0.0),
            Verdict::Enqueue,
            "old delay below half the target, p below 20 %"
        );
        pie.qdelay_old_ns = 8 * MS;
        assert_eq!(pie.on_arrival(0, 1_000_000, true, || 0.0), Verdict::Drop);
        assert_eq!(
            pie.on_arrival(0, 2 * 1514, true, || 0.0),
            Verdict::Enqueue,
            "at most two packets queued"
        );
        assert_eq!(
            pie.on_arrival(0, 1_000_000, true, || 0.19),
            Verdict::Enqueue,
            "the draw decides"
        );
    }

    /// §5.1: ECN-capable packets are marked while p ≤ 10 %, dropped above.
    #[test]
    fn ecn_marks_up_to_ten_percent() {
        let mut pie = Pie::new(PieParams {
            ecn: true,
            ..params()
        });
        pie.burst_allowance_ns = 0;
        pie.next_update_ns = u64::MAX;
        pie.qdelay_old_ns = 30 * MS;
        pie.drop_prob = 0.1;
        assert_eq!(pie.on_arrival(0, 1_000_000, true, || 0.0), Verdict::Mark);
        assert_eq!(pie.on_arrival(0, 1_000_000, false, || 0.0), Verdict::Drop);
        pie.drop_prob = 0.11;
        assert_eq!(pie.on_arrival(0, 1_000_000, true, || 0.0), Verdict::Drop);
    }

    /// §4.2: with the queue empty at two updates the probability decays
    /// (× 0.98 besides the negative adjustment) to zero, and the burst
    /// allowance comes back.
    #[test]
    fn the_probability_decays_when_the_queue_is_idle() {
        let mut pie = Pie::new(params());
        pie.drop_prob = 0.05;
        pie.burst_allowance_ns = 0;
        pie.on_dequeue(0, 3 * MS, 0);
        assert_eq!(pie.qdelay_ns, 0, "an empty queue has no delay");
        let mut previous = pie.drop_prob;
        for k in 1..=3 {
            pie.catch_up(k * 15 * MS);
            assert!(pie.drop_prob < previous);
            previous = pie.drop_prob;
        }
        // An expected decay: p' = (p − alpha·target/2)·0.98 per update.
        pie.catch_up(10_000 * MS);
        assert_eq!(pie.drop_prob, 0.0);
        assert_eq!(pie.burst_allowance_ns, 150 * MS);
        assert_eq!(pie.next_update_ns, 10_005 * MS, "updates stay on the grid");
    }

    /// A queue held at a 30 ms sojourn from time zero, one dequeue a
    /// millisecond: the probability after each 15 ms update, in closed
    /// form (RFC 8033 §4.2). The first update sees the whole 30 ms as
    /// trend (qdelay_old = 0), `alpha·15 ms + beta·30 ms`, divided by 2048
    /// (p = 0 < 0.0001 %); then only `alpha·15 ms` is left, divided by 128
    /// while p lies in [0.001 %, 0.01 %) (updates 2–7) and by 32 once p
    /// passes 0.01 % (update 8).
    #[test]
    fn a_steady_30_ms_queue_raises_p_by_the_tuned_alpha_and_beta() {
        let mut pie = Pie::new(params());
        let mut trajectory = Vec::new();
        for ms in 1..=8 * 15 {
            pie.on_dequeue(ms * MS, 30 * MS, 100_000);
            if ms % 15 == 0 {
                trajectory.push(pie.drop_prob);
            }
        }
        let first = (0.125 * 0.015 + 1.25 * 0.030) / 2048.0;
        let step = 0.125 * 0.015;
        let mut expected = vec![first];
        for k in 1..7 {
            expected.push(first + k as f64 * step / 128.0);
        }
        expected.push(expected[6] + step / 32.0);
        assert!(expected[5] < 0.000_1 && expected[6] >= 0.000_1);
        for (k, (got, want)) in trajectory.iter().zip(&expected).enumerate() {
            assert!(
                (got - want).abs() <= 1e-12 * want,
                "update {}: p = {got}, RFC 8033 §4.2 gives {want}",
                k + 1
            );
        }
        assert_eq!(trajectory.len(), 8);
    }

    /// An empty queue at every update (RFC 8033 §4.2): each update adds
    /// `alpha·(0 − QDELAY_REF)` (scaled by the table) and then multiplies
    /// by 0.98; from p = 0.5 (no scaling above 10 %) the first updates are
    /// `p ← (p − 0.125·0.015)·0.98`.
    #[test]
    fn an_empty_queue_decays_p_by_two_percent_an_update() {
        let mut pie = Pie::new(params());
        pie.drop_prob = 0.5;
        pie.burst_allowance_ns = 0;
        pie.on_dequeue(0, 2 * MS, 0);
        let mut p = 0.5;
        for k in 1..=20u64 {
            pie.catch_up(k * 15 * MS);
            p = (p - 0.125 * 0.015) * 0.98;
            assert!(
                (pie.drop_prob - p).abs() <= 1e-12,
                "update {k}: {} against {p}",
                pie.drop_prob
            );
        }
        assert!(p > 0.1, "all twenty updates above 10 %: no scaling");
        assert_eq!(pie.burst_allowance_ns, 0, "p > 0: no allowance yet");
    }

    /// RFC 8033 §4.4: from a quiet start, a queue that jumps to 100 ms
    /// makes p positive from the first update and qdelay_old passes
    /// QDELAY_REF/2 from the second, yet nothing is dropped until the
    /// tenth update (150 ms) has used up MAX_BURST; from then on the draw
    /// decides.
    #[test]
    fn the_burst_allowance_lets_the_first_150_ms_through() {
        let mut pie = Pie::new(params());
        let mut first_drop = None;
        for ms in 0..=300u64 {
            let now = ms * MS;
            pie.on_dequeue(now, 100 * MS, 1_000_000);
            if now == 15 * MS {
                assert!(pie.drop_prob > 0.0);
            }
            if pie.on_arrival(now, 1_000_000, false, || 0.0) == Verdict::Drop {
                first_drop.get_or_insert(now);
            }
        }
        assert_eq!(first_drop, Some(150 * MS));
    }

    /// The lazy update equals a timer: catching up in one go or update by
    /// update gives the same state.
    #[test]
    fn catching_up_at_once_equals_updating_every_period() {
        let mut a = Pie::new(params());
        let mut b = a.clone();
        a.on_dequeue(1, 40 * MS, 10_000);
        b.on_dequeue(1, 40 * MS, 10_000);
        a.catch_up(3_000 * MS);
        for k in 1..=200 {
            b.catch_up(k * 15 * MS);
        }
        assert_eq!(a, b);
        assert!(a.drop_prob > 0.0);
    }
}
