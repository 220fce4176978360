//! HyStart++ (RFC 9406, Balasubramanian, Huang, Olson, 2023): slow start
//! that watches each round's minimum RTT and, when it rises, continues in
//! Conservative Slow Start (CSS) for a few rounds before congestion
//! avoidance, going back to slow start if the rise proves spurious.
//!
//! Rules (RFC 9406 §4.2; constants §4.3):
//! * Rounds are counted by sequence number: `windowEnd` = SND.NXT when a
//!   round starts; the round ends when `windowEnd` is acknowledged
//!   (SND.UNA > windowEnd, the segment sent first in the round is
//!   acknowledged, as Linux's `after(snd_una, end_seq)` counts HyStart's
//!   rounds), and the ACK that ends a round opens the next one, its RTT
//!   sample counted in the new round. At each round start:
//!   `lastRoundMinRTT = currentRoundMinRTT`, `currentRoundMinRTT = ∞`,
//!   `rttSampleCount = 0`.
//! * Slow start: cwnd += min(N, L) per ACK (N packets newly acknowledged,
//!   L = 8 for a sender that does not pace). After N_RTT_SAMPLE samples in
//!   a round, with both rounds' minima known: RttThresh =
//!   max(MIN_RTT_THRESH, min(lastRoundMinRTT / MIN_RTT_DIVISOR,
//!   MAX_RTT_THRESH)); if currentRoundMinRTT ≥ lastRoundMinRTT + RttThresh,
//!   `cssBaselineMinRtt = currentRoundMinRTT` and CSS begins.
//! * CSS: cwnd += min(N, L) / CSS_GROWTH_DIVISOR per ACK. After
//!   N_RTT_SAMPLE samples in a round, if currentRoundMinRTT <
//!   cssBaselineMinRtt the exit was spurious: `cssBaselineMinRtt = ∞` and
//!   slow start resumes. After CSS_ROUNDS rounds in CSS (the partial round
//!   CSS began in counts) congestion avoidance starts: ssthresh = cwnd.
//! * A loss or an ECN echo in slow start or CSS is a congestion event like
//!   any other: ssthresh comes from the algorithm's own decrease.
//! * HyStart++ runs only in the initial slow start, while ssthresh still
//!   has its initial, arbitrarily high value (§4.3: "An implementation
//!   SHOULD use HyStart++ only for the initial slow start ... and fall back
//!   to using standard slow start for the remainder of the connection
//!   lifetime"); a scenario's finite initial ssthresh means standard slow
//!   start.
//!
//! The engine's senders do not pace CUBIC or Reno, so L = 8.

use super::{AckSample, Window, INFINITE_SSTHRESH};

/// MIN_RTT_THRESH (RFC 9406 §4.3): 4 ms.
pub const MIN_RTT_THRESH_NS: u64 = 4_000_000;
/// MAX_RTT_THRESH (RFC 9406 §4.3): 16 ms.
pub const MAX_RTT_THRESH_NS: u64 = 16_000_000;
/// MIN_RTT_DIVISOR (RFC 9406 §4.3).
pub const MIN_RTT_DIVISOR: u64 = 8;
/// N_RTT_SAMPLE (RFC 9406 §4.3): RTT samples a round needs before a check.
pub const N_RTT_SAMPLE: u32 = 8;
/// CSS_GROWTH_DIVISOR (RFC 9406 §4.3): CSS grows a quarter as fast.
pub const CSS_GROWTH_DIVISOR: u32 = 4;
/// CSS_ROUNDS (RFC 9406 §4.3): rounds in CSS before congestion avoidance.
pub const CSS_ROUNDS: u32 = 5;
/// L for a sender that does not pace (RFC 9406 §4.3: "L = 8" non-paced,
/// infinity when paced), in packets of one SMSS.
pub const L_NON_PACED_PKTS: u32 = 8;

/// An RTT not measured yet ("infinity" in RFC 9406's pseudocode).
const INFINITY_NS: u64 = u64::MAX;

/// Where HyStart++ is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Standard slow start with the delay-increase check.
    SlowStart,
    /// Conservative Slow Start.
    Css,
    /// Finished: CSS ended, or a congestion event happened, or the flow
    /// began with a finite ssthresh. Slow start (after a timeout) is the
    /// standard one.
    Done,
}

/// `a` is after `b` in sequence space (Linux `after()`).
pub(crate) fn seq_after(a: u32, b: u32) -> bool {
    (a.wrapping_sub(b) as i32) > 0
}

/// RttThresh = max(MIN_RTT_THRESH, min(lastRoundMinRTT / MIN_RTT_DIVISOR,
/// MAX_RTT_THRESH)) (RFC 9406 §4.2).
pub fn rtt_thresh_ns(last_round_min_rtt_ns: u64) -> u64 {
    (last_round_min_rtt_ns / MIN_RTT_DIVISOR).clamp(MIN_RTT_THRESH_NS, MAX_RTT_THRESH_NS)
}

/// The state of RFC 9406 §4.2 for one flow.
#[derive(Clone, Copy, Debug)]
pub struct HyStartPlusPlus {
    last_round_min_rtt_ns: u64,
    current_round_min_rtt_ns: u64,
    css_baseline_min_rtt_ns: u64,
    rtt_sample_count: u32,
    /// `windowEnd` in segments; None before the first ACK.
    window_end_seg: Option<u32>,
    /// Round ends seen in CSS (the partial first round included).
    css_rounds: u32,
    /// CSS growth not yet a whole packet, in 1/CSS_GROWTH_DIVISOR packets.
    css_quarters: u32,
    /// CSS_ROUNDS are complete: ssthresh = cwnd at the next window update
    /// (the hook that sees the ACK may not change the window).
    exit_pending: bool,
    done: bool,
    /// L in packets.
    limit_pkts: u32,
}

impl Default for HyStartPlusPlus {
    fn default() -> Self {
        Self::new()
    }
}

impl HyStartPlusPlus {
    /// RFC 9406 §4.2: lastRoundMinRTT and currentRoundMinRTT start at
    /// infinity; windowEnd unset.
    pub fn new() -> Self {
        HyStartPlusPlus {
            last_round_min_rtt_ns: INFINITY_NS,
            current_round_min_rtt_ns: INFINITY_NS,
            css_baseline_min_rtt_ns: INFINITY_NS,
            rtt_sample_count: 0,
            window_end_seg: None,
            css_rounds: 0,
            css_quarters: 0,
            exit_pending: false,
            done: false,
            limit_pkts: L_NON_PACED_PKTS,
        }
    }

    pub fn phase(&self) -> Phase {
        if self.done {
            Phase::Done
        } else if self.css_baseline_min_rtt_ns != INFINITY_NS {
            Phase::Css
        } else {
            Phase::SlowStart
        }
    }

    /// HyStart++ governs this flow's slow start now: the initial one,
    /// ssthresh still at its initial, arbitrarily high value.
    pub fn active(&self, w: &Window) -> bool {
        !self.done && w.ssthresh_pkts >= INFINITE_SSTHRESH && w.in_slow_start()
    }

    pub fn css_baseline_min_rtt_ns(&self) -> Option<u64> {
        (self.css_baseline_min_rtt_ns != INFINITY_NS).then_some(self.css_baseline_min_rtt_ns)
    }

    pub fn css_rounds(&self) -> u32 {
        self.css_rounds
    }

    /// Every ACK (the algorithm's `pkts_acked`): rounds by sequence number,
    /// the round's minimum RTT, and the checks that enter CSS, leave it for
    /// slow start, or end it.
    pub fn on_ack(&mut self, w: &Window, ack: &AckSample) {
        if !self.active(w) {
            return;
        }
        let round_ended = match self.window_end_seg {
            None => true,
            Some(end) => seq_after(ack.snd_una_seg, end),
        };
        if round_ended {
            if self.window_end_seg.is_some() && self.phase() == Phase::Css {
                self.css_rounds += 1;
                if self.css_rounds >= CSS_ROUNDS {
                    // "If CSS_ROUNDS rounds are complete, enter congestion
                    // avoidance by setting the ssthresh to the current cwnd."
                    self.exit_pending = true;
                    self.done = true;
                    return;
                }
            }
            self.window_end_seg = Some(ack.snd_nxt_seg);
            self.last_round_min_rtt_ns = self.current_round_min_rtt_ns;
            self.current_round_min_rtt_ns = INFINITY_NS;
            self.rtt_sample_count = 0;
        }
        let Some(rtt_ns) = ack.rtt_ns else { return };
        self.current_round_min_rtt_ns = self.current_round_min_rtt_ns.min(rtt_ns);
        self.rtt_sample_count += 1;
        if self.rtt_sample_count < N_RTT_SAMPLE {
            return;
        }
        match self.phase() {
            Phase::SlowStart => {
                if self.current_round_min_rtt_ns != INFINITY_NS
                    && self.last_round_min_rtt_ns != INFINITY_NS
                {
                    let thresh = rtt_thresh_ns(self.last_round_min_rtt_ns);
                    if self.current_round_min_rtt_ns
                        >= self.last_round_min_rtt_ns.saturating_add(thresh)
                    {
                        self.css_baseline_min_rtt_ns = self.current_round_min_rtt_ns;
                        self.css_rounds = 0;
                        self.css_quarters = 0;
                    }
                }
            }
            Phase::Css => {
                if self.current_round_min_rtt_ns < self.css_baseline_min_rtt_ns {
                    // The slow-start exit was spurious: resume slow start
                    // (with HyStart++).
                    self.css_baseline_min_rtt_ns = INFINITY_NS;
                    self.css_rounds = 0;
                }
            }
            Phase::Done => {}
        }
    }

    /// Slow-start growth for `acked` packets newly acknowledged (the
    /// algorithm's `cong_avoid` while cwnd < ssthresh). Returns the packets
    /// left for congestion avoidance: all of them on the ACK that ends CSS
    /// (ssthresh = cwnd), else what standard slow start leaves.
    pub fn grow(&mut self, w: &mut Window, acked: u32) -> u32 {
        if self.exit_pending {
            self.exit_pending = false;
            w.ssthresh_pkts = w.cwnd_pkts;
            return acked;
        }
        if !self.active(w) {
            return w.slow_start(acked);
        }
        let n = acked.min(self.limit_pkts);
        match self.phase() {
            Phase::Css => {
                self.css_quarters += n;
                let whole = self.css_quarters / CSS_GROWTH_DIVISOR;
                self.css_quarters -= whole * CSS_GROWTH_DIVISOR;
                w.slow_start(whole)
            }
            _ => w.slow_start(n),
        }
    }

    /// A congestion event (the algorithm's `ssthresh`): HyStart++ is over
    /// for this flow.
    pub fn on_congestion(&mut self) {
        self.done = true;
        self.exit_pending = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: u64 = 1_000_000;

    /// A sender driven by hand: each round sends `window` segments, then
    /// acknowledges them one per ACK with the RTT samples given.
    struct Driver {
        w: Window,
        hs: HyStartPlusPlus,
        snd_una: u32,
        snd_nxt: u32,
        now_ns: u64,
    }

    impl Driver {
        fn new(cwnd: u32) -> Self {
            Driver {
                w: Window {
                    cwnd_pkts: cwnd,
                    cwnd_cnt: 0,
                    ssthresh_pkts: INFINITE_SSTHRESH,
                    cwnd_clamp_pkts: 1_000_000,
                },
                hs: HyStartPlusPlus::new(),
                snd_una: 0,
                snd_nxt: cwnd,
                now_ns: 0,
            }
        }

        /// One ACK of one segment with this RTT; the window the sender
        /// then has is sent at once (SND.NXT follows cwnd).
        fn ack(&mut self, rtt_ns: u64) {
            self.now_ns += 100_000;
            self.snd_una += 1;
            let ack = AckSample {
                now_ns: self.now_ns,
                acked_pkts: 1,
                counted_pkts: 1,
                rtt_ns: Some(rtt_ns),
                snd_una_seg: self.snd_una,
                snd_nxt_seg: self.snd_nxt,
                ..AckSample::default()
            };
            self.hs.on_ack(&self.w, &ack);
            if self.w.in_slow_start() {
                let left = self.hs.grow(&mut self.w, 1);
                if left > 0 {
                    self.w.cong_avoid_ai(self.w.cwnd_pkts, left);
                }
            }
            self.snd_nxt = self.snd_una + self.w.cwnd_pkts;
        }

        /// Acknowledge everything outstanding (one round), every sample
        /// `rtt_ns`. Returns the window at the end of the round.
        fn round(&mut self, rtt_ns: u64) -> u32 {
            let end = self.snd_nxt;
            while self.snd_una != end {
                self.ack(rtt_ns);
            }
            self.w.cwnd_pkts
        }
    }

    /// RFC 9406 §4.2: "RttThresh = max(MIN_RTT_THRESH, min(lastRoundMinRTT
    /// / MIN_RTT_DIVISOR, MAX_RTT_THRESH))".
    #[test]
    fn rtt_thresh_is_an_eighth_of_the_last_round_clamped_to_4_and_16_ms() {
        assert_eq!(rtt_thresh_ns(10 * MS), 4 * MS);
        assert_eq!(rtt_thresh_ns(80 * MS), 10 * MS);
        assert_eq!(rtt_thresh_ns(200 * MS), 16 * MS);
    }

    /// Slow start doubles per round, at most L = 8 packets per ACK.
    #[test]
    fn slow_start_adds_at_most_l_packets_per_ack() {
        let mut d = Driver::new(10);
        assert_eq!(d.round(50 * MS), 20);
        assert_eq!(d.hs.phase(), Phase::SlowStart);
        let mut w = d.w;
        assert_eq!(d.hs.grow(&mut w, 20), 0);
        assert_eq!(w.cwnd_pkts, d.w.cwnd_pkts + L_NON_PACED_PKTS);
    }

    /// RFC 9406 §4.2: "if (currentRoundMinRTT >= (lastRoundMinRTT +
    /// RttThresh)) cssBaselineMinRtt = currentRoundMinRTT; exit slow start
    /// and enter CSS". With lastRoundMinRTT = 80 ms the threshold is
    /// 10 ms: 89.9 ms stays in slow start, 90 ms enters CSS, and only
    /// after N_RTT_SAMPLE samples.
    #[test]
    fn css_begins_at_the_rfc_threshold() {
        let mut below = Driver::new(16);
        below.round(80 * MS);
        below.round(90 * MS - 100_000);
        assert_eq!(below.hs.phase(), Phase::SlowStart, "89.9 ms < 80 + 10 ms");

        let mut at = Driver::new(16);
        at.round(80 * MS);
        for i in 1..=N_RTT_SAMPLE {
            at.ack(90 * MS);
            let expect = if i < N_RTT_SAMPLE {
                Phase::SlowStart
            } else {
                Phase::Css
            };
            assert_eq!(at.hs.phase(), expect, "after {i} samples");
        }
        assert_eq!(at.hs.css_baseline_min_rtt_ns(), Some(90 * MS));

        // 4 ms floor: lastRoundMinRTT 10 ms, a 3.9 ms rise is not enough.
        let mut short = Driver::new(16);
        short.round(10 * MS);
        short.round(13_900_000);
        assert_eq!(short.hs.phase(), Phase::SlowStart);
        short.round(13_900_000 + 4 * MS);
        assert_eq!(short.hs.phase(), Phase::Css, "13.9 + 4 ms ≥ 13.9 + 4 ms");
    }

    /// RFC 9406 §4.2: in CSS "cwnd = cwnd + (min(N, L*SMSS) /
    /// CSS_GROWTH_DIVISOR)": a round of W ACKs adds W/4, not W.
    #[test]
    fn css_grows_a_quarter_as_fast() {
        let mut d = Driver::new(16);
        d.round(40 * MS);
        d.round(60 * MS); // enters CSS on its 8th sample
        assert_eq!(d.hs.phase(), Phase::Css);
        let before = d.w.cwnd_pkts;
        let acks = d.snd_nxt - d.snd_una;
        let after = d.round(60 * MS);
        assert_eq!(d.hs.phase(), Phase::Css);
        assert_eq!(after - before, acks / CSS_GROWTH_DIVISOR, "{acks} ACKs");
    }

    /// RFC 9406 §4.2: "if (currentRoundMinRTT < cssBaselineMinRtt)
    /// cssBaselineMinRtt = infinity; resume slow start including
    /// HyStart++".
    #[test]
    fn css_returns_to_slow_start_when_the_rtt_falls_below_the_baseline() {
        let mut d = Driver::new(16);
        d.round(40 * MS);
        d.round(60 * MS);
        assert_eq!(d.hs.css_baseline_min_rtt_ns(), Some(60 * MS));
        // Seven samples below the baseline are not yet enough.
        for _ in 0..N_RTT_SAMPLE - 1 {
            d.ack(59 * MS);
        }
        assert_eq!(d.hs.phase(), Phase::Css);
        d.round(59 * MS);
        assert_eq!(d.hs.phase(), Phase::SlowStart);
        assert_eq!(d.hs.css_baseline_min_rtt_ns(), None);
        // Slow start again: the next round doubles.
        let w = d.w.cwnd_pkts;
        let acks = d.snd_nxt - d.snd_una;
        assert_eq!(d.round(59 * MS), w + acks);
    }

    /// A baseline equal to the new minimum is not "below": CSS stays.
    #[test]
    fn css_stays_while_the_rtt_holds_at_the_baseline() {
        let mut d = Driver::new(16);
        d.round(40 * MS);
        d.round(60 * MS);
        d.round(60 * MS);
        assert_eq!(d.hs.phase(), Phase::Css);
    }

    /// RFC 9406 §4.2: "CSS lasts at most CSS_ROUNDS rounds. If the
    /// transition into CSS happens in the middle of a round, that partial
    /// round counts towards the limit. If CSS_ROUNDS rounds are complete,
    /// enter congestion avoidance by setting the ssthresh to the current
    /// cwnd."
    #[test]
    fn css_ends_in_congestion_avoidance_after_five_rounds() {
        let mut d = Driver::new(16);
        d.round(40 * MS);
        d.round(60 * MS); // CSS from the 8th ACK: partial round 1
        for r in 2..=CSS_ROUNDS {
            assert_eq!(d.hs.phase(), Phase::Css, "round {r}");
            assert_eq!(d.w.ssthresh_pkts, INFINITE_SSTHRESH);
            d.round(60 * MS);
        }
        // The first ACK after the fifth round ends CSS.
        let cwnd = d.w.cwnd_pkts;
        d.ack(60 * MS);
        assert_eq!(d.hs.phase(), Phase::Done);
        assert_eq!(d.w.ssthresh_pkts, cwnd, "ssthresh = cwnd");
        assert!(!d.w.in_slow_start());
    }

    /// A loss in CSS: the algorithm's decrease sets ssthresh; HyStart++
    /// does not run again (RFC 9406 §4.3: the initial slow start only).
    #[test]
    fn a_congestion_event_ends_hystart_plus_plus() {
        let mut d = Driver::new(16);
        d.round(40 * MS);
        d.round(60 * MS);
        assert_eq!(d.hs.phase(), Phase::Css);
        d.hs.on_congestion();
        d.w.ssthresh_pkts = d.w.cwnd_pkts * 7 / 10;
        d.w.cwnd_pkts = 1;
        assert_eq!(d.hs.phase(), Phase::Done);
        assert!(!d.hs.active(&d.w));
        // Standard slow start now: every ACKed packet counts, no L, no /4.
        let mut w = d.w;
        d.hs.grow(&mut w, 3);
        assert_eq!(w.cwnd_pkts, 4);
    }

    /// A flow that starts with a finite ssthresh runs standard slow start.
    #[test]
    fn a_finite_initial_ssthresh_means_standard_slow_start() {
        let mut d = Driver::new(16);
        d.w.ssthresh_pkts = 1000;
        d.round(40 * MS);
        d.round(60 * MS);
        assert_eq!(d.hs.phase(), Phase::SlowStart);
        assert_eq!(d.hs.css_baseline_min_rtt_ns(), None);
    }
}
