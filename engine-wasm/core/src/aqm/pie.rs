//! Proportional Integral controller Enhanced, PIE (Pan, Natarajan, Baker &
//! White, RFC 8033): a drop probability updated every T_UPDATE from the
//! queueing delay, its distance from a target and its trend (§4.2), applied
//! to arriving packets (§4.1), with a burst allowance (§4.4).
//!
//! Where RFC 8033 leaves a choice, this module does what Linux does:
//! `net/sched/sch_pie.c` (torvalds/linux, stored at commit 00ac0dc347dc)
//! and `include/net/pie.h` (commit 105e808c1da2), a 6.10–6.14 kernel by
//! its API (`WRITE_ONCE` in `pie_change`, `MODULE_ALIAS_NET_SCH`;
//! `from_timer` and `del_timer_sync` not yet renamed), in its default mode (`dq_rate_estimator` 0,
//! `bytemode` 0, `ecn` as the scenario says). (An older blob, c9d2ac5e of
//! 2019, decayed by `× 98 / 100` and counted `accu_prob`'s overflows; the
//! rules here are the current file's.)
//! * **Derandomisation** (§5.4, optional in the RFC; always on in
//!   Linux's `pie_drop_early`): see [`Pie::on_arrival`].
//! * **The decay** while both delays are 0 (§4.2 writes `× 0.98` with the
//!   comment "1 − 1/64 is sufficient"): Linux's `prob -= prob / 64`,
//!   [`IDLE_DECAY`].
//! * **The first update** (the RFC says every T_UPDATE, not from when):
//!   `pie_init` arms the timer at `jiffies + HZ / 2`, 500 ms after the
//!   qdisc is created, and `pie_timer` re-arms it every `tupdate`. A
//!   testbed's qdisc is set up (`tc qdisc add`) before its traffic starts,
//!   so when a run's flows start the timer is already firing every
//!   T_UPDATE at some phase; the run takes phase 0, the first update one
//!   T_UPDATE after time zero ([`FIRST_UPDATE_MS`]). Linux's half-second
//!   wait after creation never falls inside a measured run.
//! * **The queueing delay** is measured with timestamps (§4.3 allows them
//!   in place of §5.2's departure-rate estimate; Linux's default): the
//!   sojourn of the packet last dequeued, and 0 once a dequeue leaves the
//!   queue empty (`pie_process_dequeue`).
//! * **Bytes and packets**: the backlog is counted in queue bytes (Linux's
//!   `qstats.backlog`, the frame with its Ethernet header) and MEAN_PKTSIZE
//!   is one full-size frame (Linux's `psched_mtu`, MTU + 14); every packet
//!   is dropped with the same probability whatever its size (`bytemode`
//!   off, Linux's default); the limit counts packets (`sch->limit`).
//! * **No active/inactive switch** (§5.3, optional): Linux has none, PIE
//!   runs from the start.
//! * ECN (§5.1) and the cap on the drop adjustment (§5.5) are implemented,
//!   as in Linux.
//!
//! The periodic update is computed lazily: before each arrival and
//! dequeue, every update due at or before that instant runs in turn, with
//! the state as it was (nothing that feeds an update changes between
//! packets), so the result is that of a timer firing at
//! [`FIRST_UPDATE_MS`] and every T_UPDATE after, each firing before a
//! packet event at the same instant.
//!
//! Where the RFC states a rule and Linux's `sch_pie.c` does otherwise,
//! this module follows the RFC:
//! * the §4.1 safeguard reads `qdelay_old`; `pie_drop_early` reads the
//!   current `qdelay`, and bypasses below 2 MTU (`backlog < 2 * mtu`) where
//!   the RFC says at most 2 MEAN_PKTSIZE;
//! * §4.2 decays while both delays are 0; Linux also skips the decay when
//!   the delay sample is 0 with a backlog (`update_prob = false`);
//! * Linux adds 2 % to an update while the delay exceeds 250 ms, which the
//!   RFC does not;
//! * Linux spends the burst allowance by the time between dequeues, the
//!   RFC (§4.4) by T_UPDATE per update; both restore it on the same
//!   condition. For a queue busy from time zero, random drops can begin
//!   at 150 ms here (the tenth update spends the allowance), in Linux as
//!   soon as an update makes p positive;
//! * Linux computes in fixed point (the probability in units of 2⁻⁵⁶,
//!   alpha and beta in sixteenths, the table of §4.2 as shifts); this
//!   module in `f64`.
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
/// When a run's first update comes: the timer set up with the qdisc,
/// before the traffic (Linux's `pie_init` arms it at `jiffies + HZ / 2`,
/// `sch_pie.c`, then every `tupdate`), fires every T_UPDATE with phase 0
/// at the run's start. RFC 8033 does not say.
pub const FIRST_UPDATE_MS: f64 = T_UPDATE_MS;
/// alpha, per second (RFC 8033 §4.2: 0.125 Hz).
pub const ALPHA: f64 = 0.125;
/// beta, per second (RFC 8033 §4.2: 1.25 Hz).
pub const BETA: f64 = 1.25;
/// MAX_BURST, the burst allowance (RFC 8033 §4.4: 150 ms).
pub const MAX_BURST_MS: f64 = 150.0;
/// mark_ecnth: above this drop probability ECN-capable packets are dropped,
/// not marked (RFC 8033 §5.1: 10 %; Linux `prob <= MAX_PROB / 10`).
pub const MARK_ECNTH: f64 = 0.1;
/// Below half the target delay and this probability, no random drop
/// (RFC 8033 §4.1: 20 %).
pub const SAFE_PROB: f64 = 0.2;
/// The drop probability's decay per update while the queue stays empty:
/// Linux's `vars->prob -= vars->prob / 64` ("Reduce drop probability to
/// 98.4%", `pie_calculate_probability`), the "1 − 1/64" RFC 8033 §4.2
/// names beside its × 0.98.
pub const IDLE_DECAY: f64 = 1.0 - 1.0 / 64.0;
/// Above this probability one update adds at most [`CAP_STEP`] (RFC 8033
/// §5.5: 10 % and 2 %).
pub const CAP_PROB: f64 = 0.1;
pub const CAP_STEP: f64 = 0.02;
/// Derandomisation (RFC 8033 §5.4; Linux `pie_drop_early`): no drop while
/// the accumulated probability is below 0.85 (`(MAX_PROB / 100) * 85`) ...
pub const ACCU_NO_DROP: f64 = 0.85;
/// ... and a drop without a draw once it reaches 8.5
/// (`(MAX_PROB / 2) * 17`).
pub const ACCU_FORCE_DROP: f64 = 8.5;

/// A PI controller's settings, PIE's (RFC 8033 §4.2) and DualPI2's base
/// controller's (RFC 9332 §2.4) alike: the queueing delay it steers to,
/// how often it updates, its two gains.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PiParams {
    pub target_ns: u64,
    pub t_update_ns: u64,
    /// Integral gain, per second.
    pub alpha: f64,
    /// Proportional gain, per second.
    pub beta: f64,
}

/// PIE's settings, resolved from the scenario.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PieParams {
    pub pi: PiParams,
    pub max_burst_ns: u64,
    pub ecn: bool,
    /// MEAN_PKTSIZE of §4.1 (a queue of at most two is never dropped
    /// from), in queue bytes: a full-size data packet.
    pub mean_pkt_bytes: u64,
}

/// The auto-tuning of alpha and beta (RFC 8033 §4.2): the adjustment is
/// divided by 2048, 512, 128, 32, 8 or 2 while the drop probability is
/// below 0.0001 %, 0.001 %, 0.01 %, 0.1 %, 1 % or 10 %, so that a small
/// probability moves in small steps (Linux: `>>= 1` below 10 %, then
/// `>>= 2` per decade down to 0.0001 %, the same table).
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

/// PIE's state (RFC 8033 §4, §5.4).
#[derive(Clone, Debug, PartialEq)]
pub struct Pie {
    pub params: PieParams,
    pub drop_prob: f64,
    /// current_qdelay: the latest queueing delay measured.
    pub qdelay_ns: u64,
    /// qdelay_old: the delay at the last update.
    pub qdelay_old_ns: u64,
    pub burst_allowance_ns: u64,
    /// accu_prob (RFC 8033 §5.4, Linux `vars->accu_prob`): the drop
    /// probabilities summed over the arrivals considered for a random
    /// drop since the last drop.
    pub accu_prob: f64,
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
            accu_prob: 0.0,
            next_update_ns: (FIRST_UPDATE_MS * 1e6) as u64,
        }
    }

    /// One periodic update (RFC 8033 §4.2, with §4.4's burst allowance and
    /// §5.5's cap).
    pub fn update(&mut self) {
        let p = &self.params;
        let s = |ns: u64| ns as f64 / 1e9;
        let (qdelay, old, target) = (s(self.qdelay_ns), s(self.qdelay_old_ns), s(p.pi.target_ns));
        let mut delta = p.pi.alpha * (qdelay - target) + p.pi.beta * (qdelay - old);
        delta /= autotune_divisor(self.drop_prob);
        if self.drop_prob >= CAP_PROB && delta > CAP_STEP {
            delta = CAP_STEP;
        }
        self.drop_prob += delta;
        if self.qdelay_ns == 0 && self.qdelay_old_ns == 0 {
            self.drop_prob *= IDLE_DECAY;
        }
        self.drop_prob = self.drop_prob.clamp(0.0, 1.0);
        self.burst_allowance_ns = self.burst_allowance_ns.saturating_sub(p.pi.t_update_ns);
        // §4.4: once congestion has gone (no drop probability, both delays
        // below half the target) the burst allowance is whole again. Linux
        // does it with `pie_vars_init`, which also clears `accu_prob`.
        if self.drop_prob == 0.0
            && 2 * self.qdelay_ns < p.pi.target_ns
            && 2 * self.qdelay_old_ns < p.pi.target_ns
        {
            self.burst_allowance_ns = p.max_burst_ns;
            self.accu_prob = 0.0;
        }
        self.qdelay_old_ns = self.qdelay_ns;
    }

    /// Nothing left to update: every further update with an empty queue
    /// leaves the state as it is.
    fn at_rest(&self) -> bool {
        self.drop_prob == 0.0
            && self.qdelay_ns == 0
            && self.qdelay_old_ns == 0
            && self.accu_prob == 0.0
            && self.burst_allowance_ns == self.params.max_burst_ns
    }

    /// Run every update due at or before `now_ns`.
    pub fn catch_up(&mut self, now_ns: u64) {
        let t = self.params.pi.t_update_ns;
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

    /// A packet arriving at `now_ns` is dropped because the queue is full
    /// (RFC 8033 §5 `enque`, before the random drop is considered): Linux's
    /// `pie_qdisc_enqueue` clears `accu_prob` on every drop.
    pub fn on_overflow(&mut self, now_ns: u64) {
        self.catch_up(now_ns);
        self.accu_prob = 0.0;
    }

    /// Whether to drop or mark a packet arriving at a queue of
    /// `backlog_bytes` (RFC 8033 §4.1, §5.1, §5.4). `uniform` is drawn
    /// only when needed, from the one generator.
    ///
    /// Linux's `pie_drop_early` and `pie_qdisc_enqueue`, in order: no
    /// random drop during the burst allowance or under the §4.1
    /// safeguards; then the derandomisation of §5.4: `accu_prob` is
    /// cleared while p is 0 and otherwise grows by p, no drop below
    /// [`ACCU_NO_DROP`], a drop without a draw from [`ACCU_FORCE_DROP`],
    /// and in between a drop with probability p, which clears `accu_prob`.
    /// A packet so chosen is marked instead if it is ECN-capable and
    /// p ≤ [`MARK_ECNTH`] (§5.1), else dropped, and every drop clears
    /// `accu_prob` (so a mark chosen at 8.5 or more leaves it standing, as
    /// in Linux).
    pub fn on_arrival(
        &mut self,
        now_ns: u64,
        backlog_bytes: u64,
        ect: bool,
        uniform: impl FnOnce() -> f64,
    ) -> Verdict {
        self.catch_up(now_ns);
        if !self.drop_early(backlog_bytes, uniform) {
            return Verdict::Enqueue;
        }
        if self.params.ecn && ect && self.drop_prob <= MARK_ECNTH {
            return Verdict::Mark;
        }
        self.accu_prob = 0.0;
        Verdict::Drop
    }

    /// RFC 8033 §4.1 with §5.4's derandomisation (Linux `pie_drop_early`).
    fn drop_early(&mut self, backlog_bytes: u64, uniform: impl FnOnce() -> f64) -> bool {
        let p = &self.params;
        if self.burst_allowance_ns > 0 {
            return false;
        }
        if (2 * self.qdelay_old_ns < p.pi.target_ns && self.drop_prob < SAFE_PROB)
            || backlog_bytes <= 2 * p.mean_pkt_bytes
        {
            return false;
        }
        if self.drop_prob == 0.0 {
            self.accu_prob = 0.0;
        } else {
            self.accu_prob += self.drop_prob;
        }
        if self.accu_prob < ACCU_NO_DROP {
            return false;
        }
        if self.accu_prob >= ACCU_FORCE_DROP {
            return true;
        }
        if uniform() < self.drop_prob {
            self.accu_prob = 0.0;
            return true;
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: u64 = 1_000_000;
    /// The run's first update (the qdisc's timer in its steady period).
    const FIRST: u64 = 15 * MS;
    const FIRST_MS: u64 = 15;

    fn params() -> PieParams {
        PieParams {
            pi: PiParams {
                target_ns: 15 * MS,
                t_update_ns: 15 * MS,
                alpha: ALPHA,
                beta: BETA,
            },
            max_burst_ns: 150 * MS,
            ecn: false,
            mean_pkt_bytes: 1514,
        }
    }

    /// A PIE past its burst allowance with no update due, its old delay
    /// above half the target: only the arrival rules act.
    fn congested(drop_prob: f64, ecn: bool) -> Pie {
        let mut pie = Pie::new(PieParams { ecn, ..params() });
        pie.burst_allowance_ns = 0;
        pie.next_update_ns = u64::MAX;
        pie.qdelay_old_ns = 30 * MS;
        pie.drop_prob = drop_prob;
        pie
    }

    #[test]
    fn the_defaults_are_rfc_8033s_and_linuxs() {
        assert_eq!(TARGET_MS, 15.0, "§4.2 QDELAY_REF");
        assert_eq!(T_UPDATE_MS, 15.0, "§4.2 T_UPDATE");
        assert_eq!(ALPHA, 0.125, "§4.2 alpha");
        assert_eq!(BETA, 1.25, "§4.2 beta");
        assert_eq!(MAX_BURST_MS, 150.0, "§4.4 MAX_BURST");
        assert_eq!(MARK_ECNTH, 0.1, "§5.1 mark_ecnth");
        assert_eq!(IDLE_DECAY, 0.984_375, "Linux: prob -= prob / 64");
        assert_eq!(
            FIRST_UPDATE_MS, T_UPDATE_MS,
            "the qdisc's timer runs before the traffic"
        );
        assert_eq!((ACCU_NO_DROP, ACCU_FORCE_DROP), (0.85, 8.5), "§5.4");
        assert_eq!(Pie::new(params()).next_update_ns, FIRST);
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

    /// §4.4: within MAX_BURST nothing is dropped, however high the
    /// probability; the allowance runs out after MAX_BURST / T_UPDATE
    /// updates of congestion, the tenth, at 150 ms (updates from 15 ms).
    /// The arrival at 635 ms adds 0.5 to accu_prob, short of 0.85 (§5.4),
    /// so the first drop is the next arrival's.
    #[test]
    fn the_burst_allowance_lets_a_burst_through_then_runs_out() {
        let mut pie = Pie::new(params());
        pie.qdelay_ns = 100 * MS;
        let mut first_drop = None;
        for k in 0..40 {
            let now = FIRST + k * 15 * MS;
            // A big queue, always above the target.
            pie.on_dequeue(now, 100 * MS, 1_000_000);
            pie.drop_prob = pie.drop_prob.max(0.5);
            if now == FIRST + 9 * 15 * MS {
                assert_eq!(pie.burst_allowance_ns, 0, "spent at the tenth update");
            }
            if pie.on_arrival(now, 1_000_000, true, || 0.0) == Verdict::Drop {
                first_drop.get_or_insert(now);
            }
        }
        assert_eq!(first_drop, Some(FIRST + 10 * 15 * MS));
    }

    #[test]
    fn no_random_drop_when_delay_and_probability_are_low_or_the_queue_is_tiny() {
        let mut pie = congested(0.19, false);
        pie.qdelay_old_ns = 7 * MS;
        pie.accu_prob = 1.0;
        assert_eq!(
            pie.on_arrival(0, 1_000_000, true, || 0.0),
            Verdict::Enqueue,
            "old delay below half the target, p below 20 %"
        );
        assert_eq!(pie.accu_prob, 1.0, "a safeguarded arrival adds nothing");
        pie.qdelay_old_ns = 8 * MS;
        assert_eq!(pie.on_arrival(0, 1_000_000, true, || 0.0), Verdict::Drop);
        pie.accu_prob = 1.0;
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

    /// §5.1: a packet chosen for a drop is marked if ECN-capable while
    /// p ≤ 10 %, dropped above.
    #[test]
    fn ecn_marks_up_to_ten_percent() {
        let mut pie = congested(0.1, true);
        for (p, ect, verdict) in [
            (0.1, true, Verdict::Mark),
            (0.1, false, Verdict::Drop),
            (0.11, true, Verdict::Drop),
        ] {
            pie.drop_prob = p;
            pie.accu_prob = 1.0;
            assert_eq!(pie.on_arrival(0, 1_000_000, ect, || 0.0), verdict);
        }
    }

    /// §5.4 (Linux `pie_drop_early`): at a fixed p = 10 % with a draw that
    /// always says "drop", the first eight arrivals pass (accu_prob 0.1 …
    /// 0.8 < 0.85), the ninth is dropped and clears accu_prob, and so on:
    /// exactly every ninth packet, where a plain Bernoulli draw would drop
    /// every packet.
    #[test]
    fn derandomisation_drops_nothing_below_0_85_accumulated() {
        let mut pie = congested(0.1, false);
        let mut dropped = Vec::new();
        for n in 1..=45u32 {
            if pie.on_arrival(0, 1_000_000, false, || 0.0) == Verdict::Drop {
                dropped.push(n);
                assert_eq!(pie.accu_prob, 0.0, "cleared after the drop");
            }
        }
        assert_eq!(dropped, [9, 18, 27, 36, 45]);
    }

    /// §5.4: at p = 1/8 with a draw that never says "drop", accu_prob
    /// reaches 8.5 at the 68th arrival, which is dropped without a draw;
    /// the draws were those of arrivals 7–67 (accu_prob from 0.875).
    #[test]
    fn derandomisation_forces_a_drop_at_8_5_accumulated() {
        let mut pie = congested(0.125, false);
        let mut draws = Vec::new();
        let mut dropped = Vec::new();
        for n in 1..=136u32 {
            let verdict = pie.on_arrival(0, 1_000_000, false, || {
                draws.push(n);
                0.99
            });
            if verdict == Verdict::Drop {
                dropped.push(n);
            }
        }
        assert_eq!(dropped, [68, 136]);
        let first_cycle: Vec<u32> = (7..=67).collect();
        assert_eq!(&draws[..first_cycle.len()], &first_cycle[..]);
        assert_eq!(draws.len(), 2 * first_cycle.len());
    }

    /// accu_prob is cleared while p = 0, by a drop from a full queue (Linux
    /// `pie_qdisc_enqueue` clears it on every drop) and when §4.4 restores
    /// the burst allowance (`pie_vars_init`).
    #[test]
    fn accu_prob_is_cleared_by_p_zero_a_tail_drop_and_the_burst_reset() {
        let mut pie = congested(0.0, false);
        pie.accu_prob = 5.0;
        assert_eq!(
            pie.on_arrival(0, 1_000_000, false, || 0.0),
            Verdict::Enqueue
        );
        assert_eq!(pie.accu_prob, 0.0, "p = 0");
        pie.accu_prob = 5.0;
        pie.on_overflow(0);
        assert_eq!(pie.accu_prob, 0.0, "tail drop");
        pie.accu_prob = 5.0;
        pie.qdelay_old_ns = 0;
        pie.update();
        assert_eq!(pie.burst_allowance_ns, 150 * MS);
        assert_eq!(pie.accu_prob, 0.0, "burst reset");
    }

    /// Linux marks in place of a drop without touching accu_prob when the
    /// drop was forced at 8.5 (only the random branch and real drops clear
    /// it): every later ECN-capable arrival is marked, until a packet that
    /// is not ECN-capable is dropped.
    #[test]
    fn a_mark_forced_at_8_5_leaves_accu_prob_standing() {
        let mut pie = congested(0.0625, true);
        let mut verdicts = Vec::new();
        for _ in 0..138 {
            verdicts.push(pie.on_arrival(0, 1_000_000, true, || 0.99));
        }
        assert!(verdicts[..135].iter().all(|&v| v == Verdict::Enqueue));
        assert_eq!(verdicts[135..], [Verdict::Mark; 3]);
        assert_eq!(pie.accu_prob, 138.0 * 0.0625);
        assert_eq!(pie.on_arrival(0, 1_000_000, false, || 0.99), Verdict::Drop);
        assert_eq!(pie.accu_prob, 0.0);
        // A mark from the random branch clears it.
        pie.accu_prob = 1.0;
        assert_eq!(pie.on_arrival(0, 1_000_000, true, || 0.0), Verdict::Mark);
        assert_eq!(pie.accu_prob, 0.0);
    }

    /// §4.2: with the queue empty at two updates the probability decays
    /// (× (1 − 1/64) besides the negative adjustment) to zero, and the
    /// burst allowance comes back; the updates run at 15 ms + k·15 ms.
    #[test]
    fn the_probability_decays_when_the_queue_is_idle() {
        let mut pie = Pie::new(params());
        pie.drop_prob = 0.05;
        pie.burst_allowance_ns = 0;
        pie.on_dequeue(0, 3 * MS, 0);
        assert_eq!(pie.qdelay_ns, 0, "an empty queue has no delay");
        pie.catch_up(FIRST - 1);
        assert_eq!(pie.drop_prob, 0.05, "no update before 15 ms");
        let mut previous = pie.drop_prob;
        for k in 0..3 {
            pie.catch_up(FIRST + k * 15 * MS);
            assert!(pie.drop_prob < previous);
            previous = pie.drop_prob;
        }
        pie.catch_up(10_000 * MS);
        assert_eq!(pie.drop_prob, 0.0);
        assert_eq!(pie.burst_allowance_ns, 150 * MS);
        assert_eq!(
            pie.next_update_ns,
            10_005 * MS,
            "updates stay on the grid (k·15 ms)"
        );
    }

    /// A queue held at a 30 ms sojourn from time zero, one dequeue a
    /// millisecond: nothing moves before the first update at 15 ms;
    /// then the probability after each 15 ms update, in closed form (RFC
    /// 8033 §4.2). The first update sees the whole 30 ms as trend
    /// (qdelay_old = 0), `alpha·15 ms + beta·30 ms`, divided by 2048
    /// (p = 0 < 0.0001 %); then only `alpha·15 ms` is left, divided by 128
    /// while p lies in [0.001 %, 0.01 %) (updates 2–7) and by 32 once p
    /// passes 0.01 % (update 8).
    #[test]
    fn a_steady_30_ms_queue_raises_p_from_the_first_update_by_the_tuned_alpha_and_beta() {
        let mut pie = Pie::new(params());
        let mut trajectory = Vec::new();
        for ms in 1..=FIRST_MS + 7 * 15 {
            pie.on_dequeue(ms * MS, 30 * MS, 100_000);
            if ms < FIRST_MS {
                assert_eq!(pie.drop_prob, 0.0, "{ms} ms");
                assert_eq!(pie.burst_allowance_ns, 150 * MS, "{ms} ms");
            } else if (ms - FIRST_MS) % 15 == 0 {
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
    /// `alpha·(0 − QDELAY_REF)` (scaled by the table) and then takes 1/64
    /// off (Linux); from p = 0.5 (no scaling above 10 %) the first updates
    /// are `p ← (p − 0.125·0.015)·63/64`.
    #[test]
    fn an_empty_queue_decays_p_by_a_sixty_fourth_an_update() {
        let mut pie = Pie::new(params());
        pie.drop_prob = 0.5;
        pie.burst_allowance_ns = 0;
        pie.on_dequeue(0, 2 * MS, 0);
        let mut p = 0.5;
        for k in 0..20u64 {
            pie.catch_up(FIRST + k * 15 * MS);
            p = (p - 0.125 * 0.015) * 63.0 / 64.0;
            assert!(
                (pie.drop_prob - p).abs() <= 1e-12,
                "update {k}: {} against {p}",
                pie.drop_prob
            );
        }
        assert!(p > 0.1, "all twenty updates above 10 %: no scaling");
        assert_eq!(pie.burst_allowance_ns, 0, "p > 0: no allowance yet");
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
