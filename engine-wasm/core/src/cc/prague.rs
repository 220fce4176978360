//! TCP Prague (draft-briscoe-iccrg-prague-congestion-control; the L4S
//! team's Linux module `net/ipv4/tcp_prague.c`, MODULE_VERSION 0.7, read
//! at github.com/L4STeam/linux commit 893e1479). A scalable congestion
//! control for L4S: DCTCP's proportional response to ECN marks, sent
//! ECT(1) so that a DualPI2 bottleneck (RFC 9332) queues it apart, with
//! accurate ECN feedback and a window growth that does not depend on the
//! RTT below 25 ms. The module's fixed-point arithmetic is kept, so the
//! integers are Linux's:
//!
//! * ECT(1) on every segment (`TCP_CONG_WANTS_ECT_1`), AccECN feedback
//!   (`TCP_CONG_NEEDS_ACCECN`; the receiver is [`CeEcho::AccEcn`]: the
//!   sender learns per ACK how many packets were newly CE-marked,
//!   `rs->ece_delta`, and counts them into `delivered_ce`).
//! * The window is a fraction, `frac_cwnd` in 2⁻²⁰ packets (`CWND_UNIT`);
//!   `snd_cwnd` follows it one packet per ACK (`prague_update_cwnd`'s
//!   adjust step: down by one, with ssthresh = cwnd, while above ⌈frac⌉;
//!   up by one while below), at least 2 (`MIN_CWND_RTT`).
//! * α (`prague_update_alpha`): once per round trip (the cumulative ACK
//!   passing the SND.NXT recorded at the round's start, `next_seq`), and
//!   once RTT-independent also at least 25 ms after the last update,
//!   α ← α − α·g + g·F with g = 1/16 (`PRAGUE_SHIFT_G` 4), F the fraction
//!   of the round's delivered packets that were CE-marked, kept upscaled
//!   by 1/g in 24-bit fixed point (`PRAGUE_ALPHA_BITS`). α starts at 0 and
//!   is not updated before the first mark (`saw_ce`); the first mark
//!   halves the window instead (`prague_alpha_mode` 0: "Half cwnd at 1st
//!   mark").
//! * Reduction (`prague_enter_cwr`): on entering CWR (the stack's at most
//!   once per window of data, RFC 3168 §6.1.2), frac_cwnd −= ⌊(α·frac +
//!   2²³)/2²⁴⁺¹⌋, the cut α/2 rounded to nearest; once RTT-independent, not
//!   again within 25 ms of the last (`cwr_stamp`).
//! * Growth (`prague_update_cwnd`): per ACK, over the packets acked and not
//!   marked, slow start as Linux's `tcp_slow_start` (frac_cwnd following
//!   snd_cwnd), else frac_cwnd += acked·ai/frac (rounded, at least one
//!   unit), scaled by 1500/MTU (`MTU_SYS`), not while recovering a loss.
//!   ai is one packet per round (`ONE_CWND`) until the flow has been out of
//!   slow start for 4 rounds (`DEFAULT_RTT_TRANSITION`); then, with an
//!   smoothed RTT R below the 25 ms reference (`RTT_TARGET`), ai =
//!   ONE_CWND·R²/T² (`prague_rate_scaled_ai_ack_increase`: "grow by
//!   1MSS/target RTT"), so the rate grows as a 25 ms flow's does; not
//!   above 100 ms (`MAX_SCALED_RTT`).
//! * Loss (`prague_enter_loss`, on entering Recovery and on a timeout's
//!   `CA_EVENT_LOSS`): frac_cwnd halves, no growth until the state is Open
//!   again; Prague's `ssthresh` leaves ssthresh as it is (the stack's
//!   timeout still sets cwnd to 1).
//! * Pacing (`prague_update_pacing_rate`): MTU·max(⌊frac⌋, in flight)/SRTT
//!   bytes per second, doubled while cwnd < ssthresh/2, at least 12 500 B/s
//!   (`MINIMUM_RATE`). Linux's pacer spaces a packet by its length; the
//!   engine's by its bytes on the wire, so the rate is given in wire bytes
//!   at the same packet rate.
//!
//! Not modelled: the rate-based mode the module switches to for windows of
//! at most 4 × 1500 bytes (`prague_cwnd_mode` 2, `prague_cwnd_transit` 4)
//! with its ±3 % pacing swing, and the MTU reduction that goes with it
//! (`prague_valid_mtu`): this model stays in the fractional-window mode;
//! TSO burst sizing (`max_tso_burst`; the engine sends single segments);
//! the undo of a reduction (the engine has no reordering); classic-ECN
//! fallback (off by default in 0.7). Whether the flow is cwnd-limited
//! (`tcp_is_cwnd_limited`) is taken as "not limited by the receiver's
//! window", true of the engine's bulk senders.

use super::{
    AckSample, AlgorithmInfo, CaEvent, CaState, CeEcho, Citation, CongestionControl, ParamInfo,
    Params, Window,
};
use crate::net::TCP_IP_HEADER_BYTES;
use crate::tcp::seq::before;

/// `CWND_UNIT`: frac_cwnd counts 2⁻²⁰ packets.
pub const CWND_UNIT: u32 = 20;
/// `ONE_CWND`.
pub const ONE_CWND: u64 = 1 << CWND_UNIT;
/// `PRAGUE_ALPHA_BITS`: α in 24-bit fixed point.
pub const ALPHA_BITS: u32 = 24;
/// `PRAGUE_MAX_ALPHA`: α = 1.
pub const MAX_ALPHA: u64 = 1 << ALPHA_BITS;
/// `PRAGUE_SHIFT_G`: g = 1/2⁴ = 1/16.
pub const SHIFT_G: u32 = 4;
/// `MIN_CWND_RTT`.
pub const MIN_CWND_PKTS: u32 = 2;
/// `RTT_TARGET` (`prague_rtt_target`): 25 ms.
pub const RTT_TARGET_MS: f64 = 25.0;
/// `DEFAULT_RTT_TRANSITION` (`prague_rtt_transition`): rounds after slow
/// start before the flow becomes RTT-independent.
pub const RTT_TRANSITION_ROUNDS: f64 = 4.0;
/// `MAX_SCALED_RTT`: 100 ms.
const MAX_SCALED_RTT_US: u64 = 100_000;
/// `MTU_SYS`: the increase is per 1500-byte packet.
const MTU_SYS: u64 = 1500;
/// `MINIMUM_RATE`: 100 kb/s.
const MINIMUM_RATE_BYTES_PER_S: f64 = 12_500.0;

pub static INFO: AlgorithmInfo = AlgorithmInfo {
    id: "prague",
    name: "TCP Prague (L4S)",
    explanation: "TCP Prague is the L4S team's scalable congestion control. Like DCTCP it reacts to the fraction of its packets that were ECN-marked, not to losses: once a round trip it updates α, a running average of that fraction (each round moves α 1/16 of the way), and when marks arrive it cuts its window by α/2, at most once a round trip. It sends its packets ECT(1), the L4S identifier, so a DualPI2 queue keeps them in a separate low-latency queue that marks as soon as a packet waits more than a millisecond; its receiver reports exactly how many packets were marked (Accurate ECN). Because the cuts are small and frequent, the queue stays around a millisecond while the link stays full. Prague paces its packets over the round trip, and below a 25 ms RTT it grows its window more slowly, so that flows with short and long RTTs get similar rates. On a real loss it halves, like classic TCP.",
    expect_on_chart: "Through DualPI2: a slow-start ramp, a halving at the first mark, then a very fine sawtooth a few packets deep with no losses, and an L-queue delay around 1 ms. With no marking queue on the path it grows like Reno and halves at each loss.",
    increase_tex: r"w \leftarrow w + \frac{1}{w}\,\min\!\left(1, \frac{R^2}{R_0^2}\right) \text{ per unmarked ACK};\quad \alpha \leftarrow (1 - g)\,\alpha + g\,F \text{ per round}",
    decrease_tex: r"w \leftarrow w\,(1 - \alpha/2) \text{ on marks, once per round};\quad w \leftarrow w/2 \text{ on loss}",
    params: &[
        ParamInfo { id: "rtt_target_ms", name: "Reference RTT R₀", default: RTT_TARGET_MS, min: 1.0, max: 100.0, step: 1.0, unit: "ms", log_scale: true, description: "Below this RTT the additive increase is scaled by (R/R₀)² so the rate grows as a flow at R₀ would (tcp_prague.c prague_rtt_target, 25 ms)." },
        ParamInfo { id: "rtt_transition", name: "Transition rounds", default: RTT_TRANSITION_ROUNDS, min: 0.0, max: 1000.0, step: 1.0, unit: "rounds", log_scale: false, description: "Round trips after slow start before the RTT-independent increase applies (tcp_prague.c prague_rtt_transition, 4)." },
    ],
    citations: &[
        Citation { label: "Briscoe et al., Prague draft", reference: "B. Briscoe, K. De Schepper, O. Tilmans, M. Kühlewind, J. Misund, O. Albisser, A. S. Ahmed. Prague Congestion Control. draft-briscoe-iccrg-prague-congestion-control (IRTF ICCRG)." },
        Citation { label: "Linux tcp_prague.c", reference: "L4STeam/linux net/ipv4/tcp_prague.c, MODULE_VERSION 0.7 (commit 893e1479): PRAGUE_SHIFT_G 4, PRAGUE_ALPHA_BITS 24, CWND_UNIT 20, RTT_TARGET 25 ms, DEFAULT_RTT_TRANSITION 4, prague_alpha_mode 0, prague_update_cwnd, prague_update_alpha, prague_enter_cwr, prague_enter_loss, prague_update_pacing_rate." },
        Citation { label: "RFC 9331", reference: "B. Briscoe, K. De Schepper, The Explicit Congestion Notification (ECN) Protocol for Low Latency, Low Loss, and Scalable Throughput (L4S), RFC 9331, 2023 (ECT(1) as the L4S identifier, §4.1; the Prague requirements, §4; congestion response, §4.3)." },
        Citation { label: "RFC 9768", reference: "B. Briscoe, M. Kühlewind, R. Scheffenegger. More Accurate Explicit Congestion Notification (AccECN) Feedback in TCP. RFC 9768, 2025 (the CE packet counters, §3.2, starting values §3.2.1, the ACE field §3.2.2)." },
    ],
};

pub fn build(p: &Params) -> Box<dyn CongestionControl> {
    Box::new(Prague::new(
        crate::units::ms_to_ns(p.get("rtt_target_ms")),
        p.get("rtt_transition") as u32,
    ))
}

/// Linux's `srtt_us`: the smoothed RTT in eighths of a microsecond.
fn srtt_us8(srtt_ns: u64) -> u64 {
    srtt_ns * 8 / 1000
}

/// Prague's state (`struct prague`, the fields the model uses).
pub struct Prague {
    /// RTT target in Linux's units (µs·8: `prague_target_rtt`).
    target_us8: u64,
    rtt_transition: u32,
    /// α·16 in 2⁻²⁴ (`upscaled_alpha`).
    pub upscaled_alpha: u64,
    /// Per acked packet, in 2⁻²⁰ packets, before the division by the window
    /// (`ai_ack_increase`).
    pub ai_ack_increase: u64,
    /// The window in 2⁻²⁰ packets (`frac_cwnd`).
    pub frac_cwnd: u64,
    loss_cwnd: u32,
    /// Rounds since slow start ended (`round`).
    pub round: u32,
    /// SND.NXT (relative) at the round's start (`next_seq`).
    next_seq: u32,
    old_delivered: u64,
    old_delivered_ce: u64,
    /// Packets delivered CE-marked (`tp->delivered_ce`).
    pub delivered_ce: u64,
    /// When α was last updated and the last CWR reduction (ns).
    alpha_stamp_ns: u64,
    cwr_stamp_ns: u64,
    pub saw_ce: bool,
    pub in_loss: bool,
    /// α updates made (for tests).
    pub alpha_updates: u64,
    pacing_bytes_per_s: Option<f64>,
    initialised: bool,
}

impl Prague {
    pub fn new(rtt_target_ns: u64, rtt_transition: u32) -> Prague {
        Prague {
            target_us8: srtt_us8(rtt_target_ns),
            rtt_transition,
            upscaled_alpha: 0,
            ai_ack_increase: ONE_CWND,
            frac_cwnd: 0,
            loss_cwnd: 0,
            round: 0,
            next_seq: 0,
            old_delivered: 0,
            old_delivered_ce: 0,
            delivered_ce: 0,
            alpha_stamp_ns: 0,
            cwr_stamp_ns: 0,
            saw_ce: false,
            in_loss: false,
            alpha_updates: 0,
            pacing_bytes_per_s: None,
            initialised: false,
        }
    }

    /// The module's defaults: 25 ms, 4 rounds.
    pub fn linux() -> Prague {
        Prague::new(
            crate::units::ms_to_ns(RTT_TARGET_MS),
            RTT_TRANSITION_ROUNDS as u32,
        )
    }

    /// α as a real number.
    pub fn alpha(&self) -> f64 {
        (self.upscaled_alpha >> SHIFT_G) as f64 / MAX_ALPHA as f64
    }

    /// `prague_is_rtt_indep`.
    fn is_rtt_indep(&self, w: &Window) -> bool {
        !w.in_slow_start() && self.round >= self.rtt_transition
    }

    /// `prague_frac_cwnd_to_snd_cwnd`.
    fn frac_to_cwnd(&self, w: &Window) -> u32 {
        let pkts = ((self.frac_cwnd + (ONE_CWND - 1)) >> CWND_UNIT).min(u32::MAX as u64) as u32;
        pkts.max(MIN_CWND_PKTS).min(w.cwnd_clamp_pkts)
    }

    /// `prague_ai_ack_increase` with `prague_rate_scaled_ai_ack_increase`.
    fn update_ai_ack_increase(&mut self, srtt_ns: u64) {
        let rtt = srtt_us8(srtt_ns);
        self.ai_ack_increase = if self.round < self.rtt_transition
            || rtt == 0
            || rtt > MAX_SCALED_RTT_US << 3
            || rtt >= self.target_us8
        {
            ONE_CWND
        } else {
            let num = ((rtt as u128) << CWND_UNIT) * rtt as u128;
            let div = self.target_us8 as u128 * self.target_us8 as u128;
            ((num + div / 2) / div) as u64
        };
    }

    /// `prague_new_round`.
    fn new_round(&mut self, w: &Window, ack: &AckSample) {
        self.next_seq = ack.snd_nxt_seg;
        self.old_delivered_ce = self.delivered_ce;
        self.old_delivered = ack.delivered_pkts;
        if !w.in_slow_start() {
            self.round = self.round.wrapping_add(1);
            if self.round == 0 {
                self.round = self.rtt_transition;
            }
        }
        self.update_ai_ack_increase(ack.srtt_ns);
    }

    /// `prague_update_alpha`.
    fn update_alpha(&mut self, w: &Window, ack: &AckSample) {
        if self.saw_ce {
            let mut ecn_segs = self.delivered_ce - self.old_delivered_ce;
            if ecn_segs > 0 {
                let acked = (ack.delivered_pkts - self.old_delivered).max(1);
                ecn_segs = (ecn_segs << ALPHA_BITS) / acked;
            }
            let alpha = self.upscaled_alpha - (self.upscaled_alpha >> SHIFT_G) + ecn_segs;
            self.alpha_stamp_ns = ack.now_ns;
            self.upscaled_alpha = alpha.min(MAX_ALPHA << SHIFT_G);
            self.alpha_updates += 1;
        }
        self.new_round(w, ack);
    }

    /// `prague_should_update_ewma`.
    fn should_update_ewma(&self, w: &Window, ack: &AckSample) -> bool {
        let e2e = !before(ack.snd_una_seg, self.next_seq);
        let target_elapsed =
            ack.now_ns.saturating_sub(self.alpha_stamp_ns) >= self.target_us8 * 1000 / 8;
        e2e && (!self.is_rtt_indep(w) || target_elapsed)
    }

    /// `prague_update_cwnd` (fractional-window mode).
    fn update_cwnd(&mut self, w: &mut Window, ack: &AckSample) {
        let mut acked = ack.acked_pkts as i64;
        if ack.ce_delta_pkts > 0 {
            if !self.saw_ce {
                // prague_alpha_mode 0: "Half cwnd at 1st mark".
                self.frac_cwnd = (self.frac_cwnd + 1) >> 1;
            }
            self.saw_ce = true;
            acked -= ack.ce_delta_pkts as i64;
        }
        let cwnd_limited = !ack.app_limited;
        if acked > 0 && !self.in_loss && cwnd_limited {
            let mut acked = acked as u32;
            if w.in_slow_start() {
                acked = w.slow_start(acked);
                self.frac_cwnd = (w.cwnd_pkts as u64) << CWND_UNIT;
                if acked == 0 {
                    self.update_ai_ack_increase(ack.srtt_ns);
                    return;
                }
            }
            let mut increase = acked as u64 * self.ai_ack_increase;
            if self.frac_cwnd > 0 {
                let num = (increase as u128) << CWND_UNIT;
                let f = self.frac_cwnd as u128;
                increase = ((num + f / 2) / f) as u64;
            }
            let mtu = (ack.mss_bytes + TCP_IP_HEADER_BYTES) as u64;
            increase = increase * MTU_SYS / mtu;
            self.frac_cwnd += increase.max(acked as u64);
        }
        // The adjust step.
        let target = self.frac_to_cwnd(w);
        if w.cwnd_pkts > target {
            w.cwnd_pkts -= 1;
            w.ssthresh_pkts = w.cwnd_pkts;
            self.update_ai_ack_increase(ack.srtt_ns);
        } else if w.cwnd_pkts < target {
            w.cwnd_pkts += 1;
            self.update_ai_ack_increase(ack.srtt_ns);
        }
    }

    /// `prague_update_pacing_rate` (fractional-window mode).
    fn update_pacing_rate(&mut self, w: &Window, ack: &AckSample) {
        let mtu = (ack.mss_bytes + TCP_IP_HEADER_BYTES) as f64;
        let max_inflight = ((self.frac_cwnd >> CWND_UNIT) as u32).max(ack.in_flight_pkts) as f64;
        if ack.srtt_ns == 0 {
            // Linux divides by SRTT only once it has one: the rate is then
            // 8·10⁶·MTU per packet, no constraint at all.
            self.pacing_bytes_per_s = None;
            return;
        }
        let mut rate =
            (mtu * max_inflight * 1e9 / ack.srtt_ns as f64).max(MINIMUM_RATE_BYTES_PER_S);
        if w.cwnd_pkts < w.ssthresh_pkts / 2 {
            rate *= 2.0;
        }
        // The same packet rate in the engine's wire bytes.
        let wire =
            (ack.mss_bytes + TCP_IP_HEADER_BYTES + crate::net::ETHERNET_OVERHEAD_BYTES) as f64;
        self.pacing_bytes_per_s = Some(rate * wire / mtu);
    }

    /// `prague_enter_loss`.
    fn enter_loss(&mut self, w: &Window) {
        self.loss_cwnd = w.cwnd_pkts;
        self.frac_cwnd -= self.frac_cwnd >> 1;
        self.in_loss = true;
    }

    /// `prague_enter_cwr`.
    fn enter_cwr(&mut self, w: &Window, now_ns: u64) {
        if self.is_rtt_indep(w)
            && self.target_us8 * 1000 / 8 > now_ns.saturating_sub(self.cwr_stamp_ns)
        {
            return;
        }
        self.cwr_stamp_ns = now_ns;
        let alpha = self.upscaled_alpha >> SHIFT_G;
        let reduction = ((alpha as u128 * self.frac_cwnd as u128 + MAX_ALPHA as u128)
            >> (ALPHA_BITS + 1)) as u64;
        self.frac_cwnd -= reduction.min(self.frac_cwnd);
    }
}

impl CongestionControl for Prague {
    /// `prague_init`: frac_cwnd = snd_cwnd, α = 0 (alpha mode 0), round 0.
    fn init(&mut self, w: &mut Window, now_ns: u64) {
        self.frac_cwnd = (w.cwnd_pkts as u64) << CWND_UNIT;
        self.alpha_stamp_ns = now_ns;
        self.initialised = true;
    }

    /// `prague_ssthresh`: ssthresh stays as it is (the window's own
    /// reductions set it).
    fn ssthresh(&mut self, w: &Window, _now_ns: u64) -> u32 {
        w.ssthresh_pkts
    }

    /// Unused: [`cong_control`](Self::cong_control) owns the window.
    fn cong_avoid(&mut self, _w: &mut Window, _ack: &AckSample) {}

    /// `tp->delivered_ce` grows by the ACK's AccECN delta (before the
    /// stack reacts to it, as `tcp_accecn_process` runs in `tcp_ack`).
    fn pkts_acked(&mut self, _w: &Window, ack: &AckSample) {
        self.delivered_ce += ack.ce_delta_pkts as u64;
    }

    /// `prague_state`.
    fn set_state(&mut self, w: &Window, state: CaState, now_ns: u64) {
        match state {
            CaState::Recovery => self.enter_loss(w),
            CaState::Cwr => self.enter_cwr(w, now_ns),
            CaState::Open => self.in_loss = false,
            _ => {}
        }
    }

    /// `prague_cwnd_event`: a timeout's loss.
    fn cwnd_event(&mut self, w: &Window, event: CaEvent, _now_ns: u64) {
        if event == CaEvent::Loss {
            self.enter_loss(w);
        }
    }

    /// `prague_cwnd_undo`.
    fn undo_cwnd(&mut self, w: &Window, _prior_cwnd_pkts: u32) -> u32 {
        self.in_loss = false;
        self.loss_cwnd.max(w.cwnd_pkts)
    }

    /// `prague_cong_control`: the window, then α once per round, then the
    /// pacing rate.
    fn cong_control(&mut self, w: &mut Window, ack: &AckSample, _state: CaState) -> bool {
        if !self.initialised {
            self.init(w, ack.now_ns);
        }
        self.update_cwnd(w, ack);
        if self.should_update_ewma(w, ack) {
            self.update_alpha(w, ack);
        }
        self.update_pacing_rate(w, ack);
        true
    }

    fn pacing_rate_bytes_per_s(&self) -> Option<f64> {
        self.pacing_bytes_per_s
    }

    fn paces(&self) -> bool {
        true
    }

    fn ce_echo(&self) -> CeEcho {
        CeEcho::AccEcn
    }

    fn sends_ect1(&self) -> bool {
        true
    }

    fn owns_window(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cc::{build, INFINITE_SSTHRESH};
    use crate::net::{Ack, Packet};
    use crate::tcp::{Receiver, Sender, SenderConfig};
    use std::collections::BTreeMap;

    const MSS: u32 = 1448;
    const MS: u64 = 1_000_000;

    use crate::cc::testing::window;

    /// A hand-built ACK: SND.UNA `una` (one new packet), SND.NXT `nxt`,
    /// `marked` packets newly CE in it.
    fn ack(now_ns: u64, una: u32, nxt: u32, marked: u32, srtt_ns: u64) -> AckSample {
        AckSample {
            now_ns,
            acked_pkts: 1,
            counted_pkts: 1,
            srtt_ns,
            in_flight_pkts: nxt - una,
            delivered_pkts: una as u64,
            ece: marked > 0,
            ce_delta_pkts: marked,
            mss_bytes: MSS,
            snd_una_seg: una,
            snd_nxt_seg: nxt,
            ..AckSample::default()
        }
    }

    fn feed(cc: &mut Prague, w: &mut Window, a: &AckSample) {
        cc.pkts_acked(w, a);
        cc.cong_control(w, a, CaState::Open);
    }

    #[test]
    fn constants_are_the_modules() {
        assert_eq!(SHIFT_G, 4, "g = 1/16");
        assert_eq!(ALPHA_BITS, 24);
        assert_eq!(CWND_UNIT, 20);
        assert_eq!(RTT_TARGET_MS, 25.0);
        assert_eq!(RTT_TRANSITION_ROUNDS, 4.0);
        assert_eq!(MIN_CWND_PKTS, 2);
        let p = |id| INFO.params.iter().find(|p| p.id == id).unwrap().default;
        assert_eq!((p("rtt_target_ms"), p("rtt_transition")), (25.0, 4.0));
        let cc = Prague::linux();
        assert_eq!(cc.target_us8, 200_000, "25 ms in Linux's srtt_us units");
        assert_eq!(cc.upscaled_alpha, 0, "prague_alpha_mode 0: α starts at 0");
        assert!(cc.sends_ect1() && cc.owns_window() && cc.paces());
        assert_eq!(cc.ce_echo(), CeEcho::AccEcn);
    }

    /// α ← (1 − g)·α + g·F once per round trip, g = 1/16: with every
    /// packet of every round marked, α after n rounds is 1 − (15/16)^n;
    /// with 3 of 10 marked it tends to 0.3; with none, it decays by 15/16
    /// a round. One update per round however many ACKs.
    #[test]
    fn alpha_is_an_ewma_with_gain_one_sixteenth_per_round() {
        const N: u32 = 10;
        // Rounds of N ACKs, 3 ms apart (30 ms a round: above the 25 ms
        // minimum between updates once RTT-independent).
        let run = |marked_per_round: u32, rounds: u32, start_alpha: Option<u64>| {
            let mut cc = Prague::linux();
            let mut w = window(50, 20);
            cc.init(&mut w, 0);
            let mut now = 0;
            // The first ACK opens the first round (no marks seen yet).
            feed(&mut cc, &mut w, &ack(now, 1, 1 + N, 0, 20 * MS));
            cc.saw_ce = true;
            if let Some(a) = start_alpha {
                cc.upscaled_alpha = a;
            }
            let mut alphas = Vec::new();
            for r in 0..rounds {
                let updates = cc.alpha_updates;
                for i in 1..=N {
                    now += 3 * MS;
                    let una = 1 + r * N + i;
                    feed(
                        &mut cc,
                        &mut w,
                        &ack(now, una, una + N, (i <= marked_per_round) as u32, 20 * MS),
                    );
                }
                assert_eq!(cc.alpha_updates, updates + 1, "one update per round");
                alphas.push(cc.alpha());
            }
            alphas
        };
        let all = run(N, 30, None);
        for (n, a) in all.iter().enumerate() {
            let want = 1.0 - (15.0f64 / 16.0).powi(n as i32 + 1);
            assert!(
                (a - want).abs() < 1e-5,
                "round {}: α {a}, want {want}",
                n + 1
            );
        }
        let some = run(3, 300, None);
        assert!(
            (some.last().unwrap() - 0.3).abs() < 1e-4,
            "{:?}",
            some.last()
        );
        let none = run(0, 10, Some(MAX_ALPHA << SHIFT_G));
        for (n, a) in none.iter().enumerate() {
            let want = (15.0f64 / 16.0).powi(n as i32 + 1);
            assert!(
                (a - want).abs() < 1e-5,
                "round {}: α {a}, want {want}",
                n + 1
            );
        }
    }

    /// The reduction on entering CWR is α/2 of the fractional window
    /// (`prague_enter_cwr`), rounded to nearest; the window then steps down
    /// one packet per ACK to it, with ssthresh following.
    #[test]
    fn cwr_cuts_the_window_by_half_alpha() {
        let mut cc = Prague::linux();
        let mut w = window(100, 50);
        cc.init(&mut w, 0);
        cc.saw_ce = true;
        cc.upscaled_alpha = (MAX_ALPHA / 2) << SHIFT_G; // α = 0.5
        cc.set_state(&w, CaState::Cwr, 0);
        assert_eq!(cc.frac_cwnd, 75 << CWND_UNIT, "100·(1 − 0.5/2)");
        cc.upscaled_alpha = (MAX_ALPHA / 10) << SHIFT_G; // α ≈ 0.1
        cc.frac_cwnd = 100 << CWND_UNIT;
        cc.set_state(&w, CaState::Cwr, 1);
        assert_eq!(cc.frac_cwnd >> CWND_UNIT, 95, "a 5 % cut");
        // The window follows one packet per ACK, ssthresh with it.
        cc.frac_cwnd = 97 << CWND_UNIT;
        cc.in_loss = true; // no growth meanwhile
        for i in 0..3 {
            feed(&mut cc, &mut w, &ack(i, 10 + i as u32, 200, 0, 20 * MS));
            assert_eq!(w.cwnd_pkts, 99 - i as u32);
            assert_eq!(w.ssthresh_pkts, w.cwnd_pkts);
        }
        feed(&mut cc, &mut w, &ack(9, 20, 200, 0, 20 * MS));
        assert_eq!(w.cwnd_pkts, 97);
    }

    /// Once RTT-independent, a second reduction within 25 ms of the last
    /// is skipped (`cwr_stamp`); before, every CWR entry reduces.
    #[test]
    fn rtt_independent_reductions_are_25_ms_apart() {
        let mut cc = Prague::linux();
        let mut w = window(100, 50);
        cc.init(&mut w, 0);
        cc.upscaled_alpha = (MAX_ALPHA / 2) << SHIFT_G;
        cc.round = 4;
        cc.set_state(&w, CaState::Cwr, 100 * MS);
        let after_first = cc.frac_cwnd;
        assert_eq!(after_first, 75 << CWND_UNIT);
        cc.set_state(&w, CaState::Cwr, 120 * MS);
        assert_eq!(cc.frac_cwnd, after_first, "20 ms later: skipped");
        cc.set_state(&w, CaState::Cwr, 125 * MS);
        assert!(cc.frac_cwnd < after_first, "25 ms later: reduced");
        // In the first rounds after slow start the rule does not apply.
        cc.round = 3;
        let before = cc.frac_cwnd;
        cc.set_state(&w, CaState::Cwr, 126 * MS);
        assert!(cc.frac_cwnd < before);
        let _ = &mut w;
    }

    /// The RTT-independence rule: after 4 rounds out of slow start, a flow
    /// with an RTT R below 25 ms adds (R/25 ms)² of a packet per round
    /// (`prague_rate_scaled_ai_ack_increase`); before, and at or above
    /// 25 ms, one packet.
    #[test]
    fn additive_increase_is_scaled_to_a_25_ms_reference() {
        let mut cc = Prague::linux();
        cc.round = 3;
        cc.update_ai_ack_increase(5 * MS);
        assert_eq!(cc.ai_ack_increase, ONE_CWND, "round 3: not yet");
        cc.round = 4;
        cc.update_ai_ack_increase(5 * MS);
        assert_eq!(
            cc.ai_ack_increase,
            (ONE_CWND as f64 / 25.0).round() as u64,
            "(5/25)²"
        );
        cc.update_ai_ack_increase(12_500_000);
        assert_eq!(cc.ai_ack_increase, ONE_CWND / 4, "(12.5/25)²");
        cc.update_ai_ack_increase(25 * MS);
        assert_eq!(cc.ai_ack_increase, ONE_CWND);
        cc.update_ai_ack_increase(80 * MS);
        assert_eq!(cc.ai_ack_increase, ONE_CWND);
        // One round of W unmarked ACKs then adds ai/ONE_CWND packets.
        let mut w = window(40, 20);
        cc.init(&mut w, 0);
        cc.update_ai_ack_increase(5 * MS);
        let start = cc.frac_cwnd;
        for i in 0..40u32 {
            cc.update_cwnd(&mut w, &ack(0, 1 + i, 100, 0, 5 * MS));
        }
        let grown = (cc.frac_cwnd - start) as f64 / ONE_CWND as f64;
        assert!((grown - 1.0 / 25.0).abs() < 1e-3, "grew {grown} packets");
    }

    /// The first mark halves the window (alpha mode 0), a loss halves it
    /// and stops growth until the state is Open again, and marked packets
    /// do not count for growth.
    #[test]
    fn first_mark_and_loss_halve() {
        let mut cc = Prague::linux();
        let mut w = window(40, 20);
        cc.init(&mut w, 0);
        let a = ack(0, 1, 50, 1, 20 * MS);
        feed(&mut cc, &mut w, &a);
        assert_eq!(cc.frac_cwnd >> CWND_UNIT, 20, "halved at the first mark");
        assert!(cc.saw_ce);
        let before = cc.frac_cwnd;
        cc.set_state(&w, CaState::Recovery, 0);
        assert_eq!(cc.frac_cwnd, before - (before >> 1));
        let f = cc.frac_cwnd;
        feed(&mut cc, &mut w, &ack(1, 2, 50, 0, 20 * MS));
        assert_eq!(cc.frac_cwnd, f, "no growth in loss recovery");
        cc.set_state(&w, CaState::Open, 0);
        feed(&mut cc, &mut w, &ack(2, 3, 50, 0, 20 * MS));
        assert!(cc.frac_cwnd > f);
        let f = cc.frac_cwnd;
        let mut all_marked = ack(3, 4, 50, 1, 20 * MS);
        all_marked.acked_pkts = 1;
        feed(&mut cc, &mut w, &all_marked);
        assert_eq!(cc.frac_cwnd, f, "a marked packet adds nothing");
    }

    /// Pacing: MTU·max(window, in flight)/SRTT, doubled in slow start,
    /// expressed in wire bytes at the same packet rate.
    #[test]
    fn pacing_is_the_window_over_the_rtt() {
        let mut cc = Prague::linux();
        let mut w = window(100, 50);
        cc.init(&mut w, 0);
        let a = ack(0, 1, 50, 0, 20 * MS);
        cc.update_pacing_rate(&w, &a);
        let pps = cc.pacing_rate_bytes_per_s().unwrap() / 1538.0;
        assert!((pps - 100.0 / 0.020).abs() < 1e-6, "{pps}");
        let ss = window(10, INFINITE_SSTHRESH);
        cc.frac_cwnd = 10 << CWND_UNIT;
        cc.update_pacing_rate(&ss, &a);
        let pps = cc.pacing_rate_bytes_per_s().unwrap() / 1538.0;
        assert!(
            (pps - 2.0 * 49.0 / 0.020).abs() < 1e-6,
            "in flight 49, doubled: {pps}"
        );
    }

    /// Through the sender and an AccECN receiver: CE marks come back as
    /// the ACE field's increments, and the sender enters CWR (one α/2
    /// reduction) at most once per window of data.
    #[test]
    fn accecn_feedback_and_one_reduction_per_window() {
        let cc = build("prague", &BTreeMap::new()).unwrap();
        let mut s = Sender::new(SenderConfig::rfc(MSS, 1 << 30), cc, 0);
        assert!(s.ect1);
        // Ten segments in flight (Prague's own window follows later).
        s.window.cwnd_pkts = 10;
        let mut r = Receiver::new(true, CeEcho::AccEcn);
        let mut now = 0;
        let mut sent = Vec::new();
        while let Some(tx) = s.next_transmission() {
            s.on_transmitted(tx, now);
            sent.push(tx.seq);
        }
        assert_eq!(sent.len(), 10);
        let mut acks: Vec<Ack> = Vec::new();
        for (i, seq) in sent.iter().enumerate() {
            now += MS;
            let p = Packet {
                flow: 0,
                seq: *seq,
                sent_ns: 0,
                retransmission: false,
                ce: i % 3 == 1,
                ect1: true,
            };
            let out = r.on_data(&p, now);
            acks.extend(out.held);
            acks.extend(out.ack);
        }
        if let Some(a) = r.on_delack_timer() {
            acks.push(a);
        }
        // 3 CE packets (1, 4, 7): r.cep = 5 + 3 = 8, ACE 0 at the end.
        assert_eq!(acks.last().unwrap().ace, 0);
        assert!(acks.iter().all(|a| !a.ece), "AccECN does not use ECE alone");
        let mut reductions = Vec::new();
        for a in &acks {
            s.on_ack(a, now + 20 * MS);
            reductions.push(s.stats.ecn_reductions);
        }
        assert_eq!(
            s.stats.ecn_reductions, 1,
            "one CWR in the window: {reductions:?}"
        );
    }
}
