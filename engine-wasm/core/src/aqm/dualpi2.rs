//! DualPI2, the Dual-Queue Coupled AQM of L4S (RFC 9332; De Schepper et
//! al., "PI²: A Linearized AQM for both Classic and Scalable TCP", ACM
//! CoNEXT 2016), as Linux's `net/sched/sch_dualpi2.c` runs it (merged in
//! Linux 6.17; read at the 6.18 stable tree). Where RFC 9332 leaves a
//! choice (its Appendix A is an example), Linux's is taken:
//!
//! * Classifier (RFC 9332 §2.3; `dualpi2_skb_classify` with the default
//!   `ecn_mask` = ECT(1)): a packet whose ECN field has the ECT(1) bit set
//!   (ECT(1) or CE) joins the L queue, every other (ECT(0), Not-ECT: the
//!   latency probe) the C queue.
//! * Base PI controller on the queueing delay (RFC 9332 §2.4, App. A.1
//!   `dualpi2_update`, parameters §2.5.2.1; Linux `calculate_probability`): every `t_update` (Linux default 16 ms)
//!   p' += α·(qdelay − target) + β·(qdelay − qdelay_old), bounded to
//!   [0, 1], where qdelay is the larger of the two queues' head sojourn
//!   times now (`get_queue_delays`: now minus the head's enqueue time; 0
//!   for an empty queue). Defaults: target 15 ms, α = 41/256 Hz, β =
//!   819/256 Hz (`dualpi2_reset_default`: "~0.16 Hz", "~3.20 Hz"; "a 10dB
//!   stability margin with max_rtt=100ms"). p' is kept as Linux keeps it:
//!   a `u32` fraction of 2³² − 1 (`MAX_PROB`), α and β scaled by
//!   `dualpi2_scale_alpha_beta` and the step by `__scale_delta` (÷64), so
//!   the integer arithmetic is Linux's.
//! * Coupling (RFC 9332 §2.1, §2.4): classic packets are marked or dropped
//!   with p_C = (p')² (two independent draws, `dualpi2_classic_marking`);
//!   L4S packets are marked with p_CL = k·p', k = 2 (`coupling_factor`).
//!   The L queue's native AQM is a step at 1 ms of sojourn
//!   (`step_thresh` 1 ms, `do_step_aqm`: marked when the packet's sojourn
//!   exceeds it), so an L4S packet is marked with p_L = max(p_CL,
//!   p_native): either rule marks it.
//! * Overload (RFC 9332 §2.5.1.1: classic drop is introduced to both
//!   kinds of ECN-capable traffic on overload; §4.2.3; `drop_overload` = 1): once k·p' exceeds 1,
//!   classic packets are dropped with (p')² even if ECN-capable, and L4S
//!   packets are dropped with (p')² and otherwise marked.
//! * No mark or drop while the qdisc holds less than two MTUs
//!   (`must_drop`: backlog < 2 × `psched_mtu`, the MTU plus the Ethernet
//!   header, as the queue counts bytes).
//! * Marks and drops by p' are decided at dequeue (`drop_early` = 0,
//!   Linux's default), after the scheduler has picked the packet; a
//!   dropped packet does not count for the scheduler's credit.
//! * Scheduler between the queues (RFC 9332 §2.4 and §4.2.2 leave it open:
//!   a time-shifted FIFO or a weighted round robin): Linux's weighted round
//!   robin in bytes with C-queue protection `c_protection` = 10 %
//!   (`dequeue_packet`, `dualpi2_calculate_c_protection`). The credit starts
//!   at MTU·(w_C − w_L) = −80 MTUs; the L queue is served while the C queue
//!   is empty or the credit is ≤ 0, and each packet so served adds w_C × its
//!   length while C waits; a C packet subtracts w_L × its length while L
//!   waits. Empty queues reset the credit. (Linux has no time-shifted FIFO,
//!   so neither has this model.)
//! * The queue limit is the bottleneck's `buffer_pkts` for both queues
//!   together (Linux's `limit`, default 10 000); arrivals beyond it are
//!   dropped. Linux's memory limit on skb truesize is not modelled.
//!
//! The PI update runs on its timer's grid from time zero (Linux arms the
//! hrtimer at `dualpi2_init`, before a testbed's traffic starts), lazily,
//! before any packet event at or after each grid point: the queues do not
//! change between packet events, so the head sojourn times at each grid
//! point are exact.

use super::pie::PiParams;
use super::Signals;
use crate::net::Frame;
use crate::rng::Rng;
use std::collections::VecDeque;

/// Linux `dualpi2_reset_default`: `pi2_target` 15 ms (RFC 9332 §A.1:
/// "target = 15 ms").
pub const TARGET_MS: f64 = 15.0;
/// Linux `pi2_tupdate` 16 ms.
pub const T_UPDATE_MS: f64 = 16.0;
/// Linux `dualpi2_scale_alpha_beta(41)`: 41/256 Hz ("~0.16 Hz").
pub const ALPHA: f64 = 41.0 / 256.0;
/// Linux `dualpi2_scale_alpha_beta(819)`: 819/256 Hz ("~3.20 Hz").
pub const BETA: f64 = 819.0 / 256.0;
/// Linux `step_thresh` 1 ms, in time (`step_in_packets` false).
pub const STEP_THRESH_MS: f64 = 1.0;
/// Linux `coupling_factor` 2 ("window fairness for equal RTTs"; RFC 9332
/// §2.5.1 recommends k = 2, derived in App. C.2 for equal base RTTs).
pub const COUPLING: u32 = 2;
/// Linux `dualpi2_calculate_c_protection(sch, q, 10)`: w_C = 10 %.
pub const C_PROTECTION_PCT: u32 = 10;

/// Linux `MAX_PROB` (U32_MAX): probability 1.
const MAX_PROB: u32 = u32::MAX;
/// Linux `ALPHA_BETA_SHIFT` − `ALPHA_BETA_GRANULARITY` = 8 − 6.
const ALPHA_BETA_SCALING: u32 = 2;
/// Linux `ALPHA_BETA_GRANULARITY`: `__scale_delta` divides by 2⁶.
const ALPHA_BETA_GRANULARITY: u32 = 6;
/// Linux `MAX_WC`: the weights are percentages.
const MAX_WC: i64 = 100;

/// A gain in Hz as Linux stores it: netlink's unit is 1/256 Hz (tc rounds
/// the given value to it), then `dualpi2_scale_alpha_beta`.
fn scale_alpha_beta(hz: f64) -> u64 {
    let netlink = (hz * 256.0).round().max(0.0) as u64;
    ((netlink * MAX_PROB as u64) >> ALPHA_BETA_SCALING) / 1_000_000_000
}

/// DualPI2's settings, every default filled in.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DualPi2Params {
    /// The PI controller of p'.
    pub pi: PiParams,
    pub step_thresh_ns: u64,
    /// k: p_CL = k·p'.
    pub coupling: u32,
    /// w_C in per cent (Linux `c_protection`); w_L = 100 − w_C.
    pub c_protection_pct: u32,
    /// On overload, drop (true, Linux's default) or keep marking L4S
    /// packets and let the queue overflow (Linux's `overflow`).
    pub drop_overload: bool,
    /// A full-size data packet as the queue counts it (Linux
    /// `psched_mtu`: the MTU plus the Ethernet header).
    pub mtu_bytes: u64,
}

/// Where a packet waits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// The classic queue (ECT(0), Not-ECT).
    Classic,
    /// The low-latency queue (ECT(1), CE).
    L4s,
}

/// RFC 9332 §2.3 / Linux `dualpi2_skb_classify`: the ECT(1) bit of the ECN
/// field (set in ECT(1) and CE) selects the L queue.
pub fn classify(f: &Frame) -> Class {
    if f.packet.ect1 || f.packet.ce {
        Class::L4s
    } else {
        Class::Classic
    }
}

/// Per-queue totals, for tests and reports: packets that left each queue
/// (sent, not dropped) and the sum of their sojourn times.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DualPi2Stats {
    pub l_sent_pkts: u64,
    pub l_sojourn_ns: u128,
    pub c_sent_pkts: u64,
    pub c_sojourn_ns: u128,
    /// Marks by the L queue's step (Linux `step_marks`).
    pub step_marks: u64,
    /// Marks by p' (either queue; Linux counts `ecn_mark` for both).
    pub prob_marks: u64,
    /// Drops by p' (not the limit's).
    pub prob_drops: u64,
}

/// The discipline: two FIFOs, the PI controller, the scheduler's credit.
pub struct DualPi2 {
    p: DualPi2Params,
    alpha_scaled: u64,
    beta_scaled: u64,
    l: VecDeque<Frame>,
    c: VecDeque<Frame>,
    bytes: u64,
    /// p' as a fraction of `MAX_PROB` (Linux `pi2_prob`).
    pub prob: u32,
    last_qdelay_ns: u64,
    /// The next grid point of the PI timer.
    next_update_ns: u64,
    credit: i64,
    credit_init: i64,
    pub stats: DualPi2Stats,
}

impl DualPi2 {
    pub fn new(p: DualPi2Params) -> DualPi2 {
        let wc = p.c_protection_pct.min(100) as i64;
        let credit_init = p.mtu_bytes as i64 * (wc - (MAX_WC - wc));
        DualPi2 {
            alpha_scaled: scale_alpha_beta(p.pi.alpha),
            beta_scaled: scale_alpha_beta(p.pi.beta),
            p,
            l: VecDeque::new(),
            c: VecDeque::new(),
            bytes: 0,
            prob: 0,
            last_qdelay_ns: 0,
            next_update_ns: p.pi.t_update_ns.max(1),
            credit: credit_init,
            credit_init,
            stats: DualPi2Stats::default(),
        }
    }

    pub fn params(&self) -> &DualPi2Params {
        &self.p
    }

    /// Frames waiting in both queues.
    pub fn len(&self) -> usize {
        self.l.len() + self.c.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Frames waiting in the L queue and in the C queue.
    pub fn lens(&self) -> (usize, usize) {
        (self.l.len(), self.c.len())
    }

    /// Queue bytes waiting (Linux's backlog).
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    pub fn allocated_bytes(&self) -> u64 {
        ((self.l.capacity() + self.c.capacity()) * std::mem::size_of::<Frame>()) as u64
    }

    /// p' as a real number.
    pub fn base_probability(&self) -> f64 {
        self.prob as f64 / MAX_PROB as f64
    }

    /// Run the PI updates due at or before `now_ns` (the timer's grid).
    pub fn update_to(&mut self, now_ns: u64) {
        while self.next_update_ns <= now_ns {
            let t = self.next_update_ns;
            if self.prob == 0 && self.last_qdelay_ns == 0 && self.is_empty() {
                // Idle with p' = 0: every update until the next packet
                // event leaves p' at 0 and qdelay_old at 0.
                let step = self.p.pi.t_update_ns.max(1);
                let skipped = (now_ns - t) / step;
                self.next_update_ns = t + (skipped + 1) * step;
                break;
            }
            self.prob = self.calculate_probability(t);
            self.next_update_ns = t + self.p.pi.t_update_ns.max(1);
        }
    }

    /// Linux `calculate_probability` at time `now_ns`.
    fn calculate_probability(&mut self, now_ns: u64) -> u32 {
        let head = |q: &VecDeque<Frame>| q.front().map_or(0, |f| now_ns - f.enqueued_ns);
        let qdelay = head(&self.l).max(head(&self.c));
        let target = self.p.pi.target_ns as i128;
        let delta = (qdelay as i128 - target) * self.alpha_scaled as i128
            + (qdelay as i128 - self.last_qdelay_ns as i128) * self.beta_scaled as i128;
        self.last_qdelay_ns = qdelay;
        let step = (delta.unsigned_abs() >> ALPHA_BETA_GRANULARITY).min(u64::MAX as u128) as u64;
        let new_prob = if delta > 0 {
            (self.prob as u64 + step).min(MAX_PROB as u64) as u32
        } else {
            (self.prob as u64).saturating_sub(step) as u32
        };
        if !self.p.drop_overload {
            // Linux: cap so that k·p' ≤ 1 ("keep window fairness when
            // overflowing").
            return new_prob.min(MAX_PROB / self.p.coupling.max(1));
        }
        new_prob
    }

    /// `f` arrives (the caller has checked the limit): it joins its queue.
    pub fn enqueue(&mut self, mut f: Frame, now_ns: u64) {
        self.update_to(now_ns);
        f.enqueued_ns = now_ns;
        self.bytes += f.len_bytes as u64;
        match classify(&f) {
            Class::L4s => self.l.push_back(f),
            Class::Classic => self.c.push_back(f),
        }
    }

    /// Linux `dequeue_packet`: the scheduler's pick and the credit change
    /// it would make.
    fn pick(&mut self) -> Option<(Frame, Class, i64)> {
        let c_len = self.c.len();
        let l_len = self.l.len();
        let wc = self.p.c_protection_pct.min(100) as i64;
        let wl = MAX_WC - wc;
        let (f, class, weight) = if l_len > 0 && (c_len == 0 || self.credit <= 0) {
            let f = self.l.pop_front()?;
            (f, Class::L4s, if c_len > 0 { wc } else { 0 })
        } else if c_len > 0 {
            let f = self.c.pop_front()?;
            (f, Class::Classic, if l_len > 0 { -wl } else { 0 })
        } else {
            self.credit = self.credit_init;
            return None;
        };
        self.bytes -= f.len_bytes as u64;
        Some((f, class, weight * f.len_bytes as i64))
    }

    /// A draw against a probability in Linux's units (`dualpi2_roll`:
    /// `get_random_u32() <= prob`).
    fn roll(rng: &mut Rng, prob: u64) -> bool {
        ((rng.uniform() * 4_294_967_296.0) as u64) <= prob
    }

    /// Linux `must_drop`: whether the PI's probability drops this packet;
    /// it may mark it instead (`*marked`).
    fn must_drop(
        &mut self,
        f: &mut Frame,
        class: Class,
        rng: &mut Rng,
        signals: &mut Signals,
    ) -> bool {
        if self.bytes < 2 * self.p.mtu_bytes {
            return false;
        }
        let prob = self.prob as u64;
        let local_l_prob = prob * self.p.coupling as u64;
        let overload = local_l_prob > MAX_PROB as u64;
        let ect = f.packet.is_ect();
        let mark = |f: &mut Frame, stats: &mut DualPi2Stats, signals: &mut Signals| {
            stats.prob_marks += 1;
            signals.mark(&mut f.packet);
        };
        match class {
            Class::Classic => {
                if Self::roll(rng, prob) && Self::roll(rng, prob) {
                    if overload || !ect {
                        return true;
                    }
                    mark(f, &mut self.stats, signals);
                }
                false
            }
            Class::L4s => {
                if overload {
                    if self.p.drop_overload && Self::roll(rng, prob) && Self::roll(rng, prob) {
                        return true;
                    }
                    mark(f, &mut self.stats, signals);
                    return false;
                }
                if Self::roll(rng, local_l_prob) {
                    if !ect {
                        return true;
                    }
                    mark(f, &mut self.stats, signals);
                }
                false
            }
        }
    }

    /// The next frame to send at `now_ns` (Linux `__dualpi2_qdisc_dequeue`):
    /// the scheduler picks, p' may drop or mark, the L queue's step may
    /// mark; dropped frames go to `signals` and the next is tried.
    pub fn dequeue(&mut self, now_ns: u64, rng: &mut Rng, signals: &mut Signals) -> Option<Frame> {
        self.update_to(now_ns);
        while let Some((mut f, class, credit_change)) = self.pick() {
            if self.must_drop(&mut f, class, rng, signals) {
                self.stats.prob_drops += 1;
                signals.drop(&f.packet);
                continue;
            }
            let sojourn_ns = now_ns - f.enqueued_ns;
            if class == Class::L4s && sojourn_ns > self.p.step_thresh_ns {
                if !f.packet.is_ect() {
                    signals.drop(&f.packet);
                    continue;
                }
                self.stats.step_marks += 1;
                signals.mark(&mut f.packet);
            }
            self.credit += credit_change;
            match class {
                Class::L4s => {
                    self.stats.l_sent_pkts += 1;
                    self.stats.l_sojourn_ns += sojourn_ns as u128;
                }
                Class::Classic => {
                    self.stats.c_sent_pkts += 1;
                    self.stats.c_sojourn_ns += sojourn_ns as u128;
                }
            }
            return Some(f);
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aqm::{testing, SignalKind};
    use crate::net::PROBE_FLOW;

    const MS: u64 = 1_000_000;

    fn params() -> DualPi2Params {
        DualPi2Params {
            pi: PiParams {
                target_ns: 15 * MS,
                t_update_ns: 16 * MS,
                alpha: ALPHA,
                beta: BETA,
            },
            step_thresh_ns: MS,
            coupling: COUPLING,
            c_protection_pct: C_PROTECTION_PCT,
            drop_overload: true,
            mtu_bytes: 1514,
        }
    }

    fn frame(flow: u32, seq: u32, ect1: bool) -> Frame {
        let mut f = testing::frame(flow, seq, 1500, 0);
        f.packet.ect1 = ect1;
        f
    }

    /// Linux's defaults (`dualpi2_reset_default`), a wrong one fails.
    #[test]
    fn defaults_are_linuxs() {
        assert_eq!((TARGET_MS, T_UPDATE_MS, STEP_THRESH_MS), (15.0, 16.0, 1.0));
        assert_eq!(ALPHA * 256.0, 41.0);
        assert_eq!(BETA * 256.0, 819.0);
        assert_eq!((COUPLING, C_PROTECTION_PCT), (2, 10));
        // Linux's scaled gains: 41·(2³²−1)/4/10⁹ and 819·(2³²−1)/4/10⁹.
        assert_eq!(scale_alpha_beta(ALPHA), 44);
        assert_eq!(scale_alpha_beta(BETA), 879);
    }

    /// RFC 9332 §2.3: ECT(1) and CE go to the L queue; ECT(0) and Not-ECT
    /// (the probe) to the C queue.
    #[test]
    fn the_classifier_reads_the_ect1_bit() {
        assert_eq!(classify(&frame(0, 0, true)), Class::L4s);
        assert_eq!(classify(&frame(0, 0, false)), Class::Classic);
        let mut ce = frame(0, 0, false);
        ce.packet.ce = true;
        assert_eq!(classify(&ce), Class::L4s, "CE (0b11) has the ECT(1) bit");
        assert_eq!(classify(&frame(PROBE_FLOW, 0, false)), Class::Classic);
        let mut q = DualPi2::new(params());
        q.enqueue(frame(0, 0, true), 0);
        q.enqueue(frame(1, 0, false), 0);
        q.enqueue(frame(PROBE_FLOW, 0, false), 0);
        assert_eq!(q.lens(), (1, 2));
    }

    /// One PI update by hand: from p' = 0 with the C head 25 ms old at the
    /// first grid point (16 ms) and qdelay_old = 0, Δp' = α·(25 − 15) ms +
    /// β·25 ms in Linux's integers: (10⁷·44 + 25·10⁶·879) / 64.
    #[test]
    fn one_pi_update_is_linuxs_integer_formula() {
        let mut q = DualPi2::new(params());
        let mut f = frame(1, 0, false);
        // Enqueued at −9 ms relative to the first update at 16 ms: put it
        // in at time 0 and look at 25 ms instead of 16 by moving the grid.
        q.next_update_ns = 25 * MS;
        f.enqueued_ns = 0;
        q.c.push_back(f);
        q.bytes = f.len_bytes as u64;
        q.update_to(25 * MS);
        let expected = (10_000_000u64 * 44 + 25_000_000 * 879) / 64;
        assert_eq!(q.prob as u64, expected);
        // ≈ α·0.01 s + β·0.025 s = 0.0016 + 0.08 = 0.0816 of 1.
        assert!((q.base_probability() - (ALPHA * 0.010 + BETA * 0.025)).abs() < 1e-4);
        // At target with no change, p' stays.
        let before = q.prob;
        q.last_qdelay_ns = 15 * MS;
        q.c[0].enqueued_ns = 25 * MS + 16 * MS - 15 * MS;
        q.update_to(41 * MS);
        assert_eq!(q.prob, before);
    }

    /// The coupling: at p' the C queue marks (p')² of its packets and the
    /// L queue k·p' (RFC 9332 §2.1: p_C = (p_CL/k)²). Counted over many
    /// draws with the queue held above 2 MTUs and sojourns below the step.
    #[test]
    fn classic_marks_p_squared_and_l4s_marks_k_p() {
        let n = 200_000;
        let mut rng = Rng::new(7);
        for (pp, class, want) in [
            (0.2, false, 0.04),
            (0.2, true, 0.4),
            (0.05, false, 0.0025),
            (0.05, true, 0.1),
        ] {
            let mut q = DualPi2::new(params());
            q.prob = (pp * MAX_PROB as f64) as u32;
            let mut signals = Signals::default();
            let mut marked = 0;
            for i in 0..n {
                let mut f = frame(0, i, class);
                f.enqueued_ns = 0;
                let cls = classify(&f);
                q.bytes = 10 * 1514;
                let before = signals.marks;
                assert!(!q.must_drop(&mut f, cls, &mut rng, &mut signals));
                if signals.marks > before {
                    assert!(f.packet.ce);
                    marked += 1;
                }
            }
            let frac = marked as f64 / n as f64;
            let sd = (want * (1.0 - want) / n as f64).sqrt();
            assert!(
                (frac - want).abs() < 5.0 * sd,
                "p' {pp} L4S {class}: {frac} vs {want}"
            );
        }
    }

    /// Not-ECT classic packets (the probe) are dropped where ECT(0) ones
    /// are marked; above k·p' > 1 (overload) classic ECT(0) packets are
    /// dropped too, and L4S ones marked unless dropped with (p')².
    #[test]
    fn not_ect_and_overload_drop() {
        let mut rng = Rng::new(3);
        let mut q = DualPi2::new(params());
        q.prob = MAX_PROB; // p' = 1: every classic draw succeeds.
        q.bytes = 10 * 1514;
        let mut s = Signals::default();
        let mut probe = frame(PROBE_FLOW, 0, false);
        assert!(q.must_drop(&mut probe, Class::Classic, &mut rng, &mut s));
        let mut classic = frame(0, 0, false);
        assert!(
            q.must_drop(&mut classic, Class::Classic, &mut rng, &mut s),
            "overload"
        );
        let mut l = frame(0, 0, true);
        assert!(
            q.must_drop(&mut l, Class::L4s, &mut rng, &mut s),
            "(p')² = 1 drops"
        );
        // Half of MAX_PROB + 1 is overload for k = 2: L4S packets are
        // marked or dropped, never passed unmarked.
        q.prob = MAX_PROB / 2 + 1;
        let (mut drops, mut marks) = (0, 0);
        for i in 0..10_000 {
            let mut f = frame(0, i, true);
            if q.must_drop(&mut f, Class::L4s, &mut rng, &mut s) {
                drops += 1;
            } else {
                assert!(f.packet.ce);
                marks += 1;
            }
        }
        assert!((2_000..3_000).contains(&drops), "≈ 25 % dropped: {drops}");
        assert_eq!(drops + marks, 10_000);
        // Below two MTUs nothing happens, whatever p'.
        q.bytes = 2 * 1514 - 1;
        assert!(!q.must_drop(
            &mut frame(PROBE_FLOW, 0, false),
            Class::Classic,
            &mut rng,
            &mut s
        ));
    }

    /// The step: an L4S packet that waited more than 1 ms is marked at
    /// dequeue (p' = 0); one that waited exactly 1 ms is not (Linux
    /// `qdelay > step_thresh`). Classic packets never see the step.
    #[test]
    fn the_l_queue_marks_above_one_millisecond() {
        let mut q = DualPi2::new(params());
        let mut rng = Rng::new(1);
        let mut s = Signals::default();
        q.enqueue(frame(0, 0, true), 0);
        q.enqueue(frame(0, 1, true), 0);
        q.enqueue(frame(1, 0, false), 0);
        let f = q.dequeue(MS, &mut rng, &mut s).unwrap();
        assert!(!f.packet.ce, "exactly 1 ms is not above the step");
        let f = q.dequeue(MS + 1, &mut rng, &mut s).unwrap();
        assert!(f.packet.ce);
        assert_eq!(s.list.last().unwrap().kind, SignalKind::Mark);
        let f = q.dequeue(10 * MS, &mut rng, &mut s).unwrap();
        assert!(!f.packet.ce, "classic: no step");
        assert_eq!(q.stats.step_marks, 1);
    }

    /// The weighted round robin (Linux `dequeue_packet`): with both queues
    /// backlogged by equal packets, the credit starts at −80 MTUs and the L
    /// queue is served while it is ≤ 0, each L packet adding w_C = 10 MTUs:
    /// 9 L packets, then one C packet (−w_L = −90 MTUs, back to −80), and
    /// so on: the C queue gets its 10 %.
    #[test]
    fn the_scheduler_gives_the_classic_queue_ten_percent() {
        let mut q = DualPi2::new(params());
        let mut rng = Rng::new(1);
        let mut s = Signals::default();
        for i in 0..500 {
            q.enqueue(frame(0, i, true), 0);
            q.enqueue(frame(1, i, false), 0);
        }
        let mut order = Vec::new();
        for _ in 0..208 {
            // Sojourns below the step and p' = 0: nothing is marked.
            let f = q.dequeue(0, &mut rng, &mut s).unwrap();
            order.push(f.packet.ect1);
        }
        let first_c = order.iter().position(|&l| !l).unwrap();
        assert_eq!(first_c, 9, "credit −80·MTU, +10·MTU per L packet");
        let c = order[first_c..].iter().filter(|&&l| !l).count();
        assert_eq!(c, 20, "one C in ten after the start: {order:?}");
        // An empty queue resets the credit.
        while q.dequeue(0, &mut rng, &mut s).is_some() {}
        assert_eq!(q.credit, q.credit_init);
        assert_eq!(q.credit_init, -80 * 1514);
    }

    /// The timer's grid: updates happen at 16, 32, 48 ms…, not at the
    /// packet events; an idle queue at p' = 0 skips them.
    #[test]
    fn updates_follow_the_grid() {
        let mut q = DualPi2::new(params());
        q.update_to(15 * MS);
        assert_eq!(q.next_update_ns, 16 * MS);
        q.update_to(100 * MS);
        assert_eq!(q.next_update_ns, 112 * MS);
        assert_eq!(q.prob, 0);
    }
}
