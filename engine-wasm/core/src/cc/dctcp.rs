//! DCTCP (Alizadeh et al., SIGCOMM 2010; RFC 8257): the sender estimates
//! the fraction α of its bytes that met a marking queue and cuts the window
//! in proportion, cwnd·(1 − α/2), instead of halving on every ECN echo.
//!
//! * α (RFC 8257 §3.3): per observation window, `bytes_acked` and
//!   `bytes_marked` (acked by ACKs carrying ECE; SACK ignored, steps 1–3);
//!   the window ends when the cumulative ACK passes the SND.NXT recorded
//!   at its start (step 4, initially SND.UNA); then M = marked/acked and
//!   α ← (1 − g)·α + g·M (steps 5–6), the next window ends at SND.NXT and
//!   the counters restart (steps 7–8). α starts at 1 (§3.3; Linux
//!   `dctcp_alpha_on_init` = `DCTCP_MAX_ALPHA` = 1024/1024); g = 1/16
//!   (Linux `dctcp_shift_g` = 4; §4.2 of the paper).
//! * Reduction (§3.3 step 9): on an ECN echo the sender's usual CWR episode
//!   (at most once per window of data, RFC 3168 §6.1.2, as §3.3 requires)
//!   with ssthresh = cwnd·(1 − α/2), rounded as Linux `dctcp_ssthresh`
//!   does: cwnd − ⌊cwnd·α/2⌋, at least 2.
//! * Loss (§3.5): as conventional TCP, halving (Linux `dctcp_react_to_loss`:
//!   max(cwnd/2, 2)), also when the loss comes during an ECN reduction.
//! * Growth (§3.4): Reno's slow start and congestion avoidance (Linux
//!   `tcp_reno_cong_avoid`).
//! * The receiver echoes CE with DCTCP's two-state machine (§3.2, see
//!   [`CeEcho::Dctcp`]); both ends run DCTCP (§3: there is no negotiation,
//!   both must be configured for it).
//!
//! Not modelled: the undo of a reduction (`dctcp_cwnd_undo`; the engine has
//! no reordering), PLB, and α in Linux's fixed point (here real, as in the
//! RFC's equations).

use super::reno::Reno;
use super::{
    AckSample, AlgorithmInfo, CeEcho, Citation, CongestionControl, ParamInfo, Params, Window,
};
use crate::tcp::seq::{after, seq_max};

/// RFC 8257 §4.2 and the paper's §3.4 suggest g = 1/16; Linux
/// `dctcp_shift_g` = 4.
pub const DEFAULT_G: f64 = 1.0 / 16.0;
/// RFC 8257 §3.3: α is initialised to 1; Linux `dctcp_alpha_on_init` =
/// `DCTCP_MAX_ALPHA` (1024 of 1024).
pub const DEFAULT_ALPHA_INIT: f64 = 1.0;

pub static INFO: AlgorithmInfo = AlgorithmInfo {
    id: "dctcp",
    name: "DCTCP",
    explanation: "DCTCP (Data Center TCP) listens to ECN marks rather than to losses, and counts them. A switch marks every packet that finds its queue longer than a threshold K; the receiver echoes each mark exactly, and once per round trip the sender works out the fraction of its bytes that were marked and keeps a running average of it, α (each round trip moves α 1/16 of the way to the latest fraction). When marks arrive, it cuts its window by α/2: by half if every packet was marked, by 5% if one in ten was. The window therefore moves in small steps that keep the queue just above K: short queues, yet full throughput with a threshold as small as one seventh of the bandwidth-delay product. Between marks it grows like Standard TCP, and on a real loss it halves like Standard TCP. It needs ECN-marking switches and DCTCP at both ends, which is why it lives in data centres.",
    expect_on_chart: "With a marking queue: a fine, rapid sawtooth a few per cent deep around the point where the queue reaches K, with no losses; the first cut after slow start halves the window (α starts at 1). Without marks it is Standard TCP's sawtooth.",
    increase_tex: r"w \leftarrow w + \frac{1}{w} \text{ per ACK};\quad \alpha \leftarrow (1 - g)\,\alpha + g\,M \text{ per window}",
    decrease_tex: r"w \leftarrow w\,(1 - \alpha/2) \text{ on ECE, once per window};\quad w \leftarrow w/2 \text{ on loss}",
    params: &[
        ParamInfo { id: "g", name: "Estimation gain g", default: DEFAULT_G, min: 1.0 / 1024.0, max: 1.0, step: 1.0 / 1024.0, unit: "fraction", log_scale: true, description: "Weight of the latest window's marked fraction in α (RFC 8257 §3.3; Linux 1/2^dctcp_shift_g, 1/16)." },
        ParamInfo { id: "alpha_init", name: "Initial α", default: DEFAULT_ALPHA_INIT, min: 0.0, max: 1.0, step: 0.01, unit: "fraction", log_scale: false, description: "α before the first window: 1 makes the first reduction a halving (RFC 8257 §3.3; Linux dctcp_alpha_on_init)." },
    ],
    citations: &[
        Citation { label: "Alizadeh et al. 2010", reference: "M. Alizadeh, A. Greenberg, D. A. Maltz, J. Padhye, P. Patel, B. Prabhakar, S. Sengupta, M. Sridharan. Data Center TCP (DCTCP). ACM SIGCOMM 2010, §3 (algorithm, analysis, guidelines K > C·RTT/7 and g)." },
        Citation { label: "RFC 8257", reference: "S. Bensley, D. Thaler, P. Balasubramanian, L. Eggert, G. Judd. Data Center TCP (DCTCP): TCP Congestion Control for Data Centers. RFC 8257, 2017, §3.2–3.5." },
        Citation { label: "Linux tcp_dctcp.c", reference: "Linux net/ipv4/tcp_dctcp.c and tcp_dctcp.h (dctcp_shift_g 4, dctcp_alpha_on_init 1024, dctcp_ssthresh, dctcp_react_to_loss, dctcp_ece_ack_update)." },
    ],
};

pub fn build(p: &Params) -> Box<dyn CongestionControl> {
    Box::new(Dctcp::new(p.get("g"), p.get("alpha_init")))
}

/// The DCTCP sender's state (RFC 8257 §3.3).
pub struct Dctcp {
    /// Estimation gain g.
    pub g: f64,
    /// DCTCP.Alpha: the running estimate of the marked fraction.
    pub alpha: f64,
    /// DCTCP.BytesAcked in the current observation window.
    pub bytes_acked: u64,
    /// DCTCP.BytesMarked: bytes acked by ACKs with ECE in the window.
    pub bytes_marked: u64,
    /// DCTCP.WindowEnd (segments).
    pub window_end_seg: u32,
    /// SND.UNA at the previous ACK (segments).
    snd_una_seg: u32,
    /// Completed observation windows (α updates).
    pub windows: u64,
    reno: Reno,
}

impl Dctcp {
    pub fn new(g: f64, alpha_init: f64) -> Self {
        Dctcp {
            g,
            alpha: alpha_init.clamp(0.0, 1.0),
            bytes_acked: 0,
            bytes_marked: 0,
            // RFC 8257 §3.3: WindowEnd starts at SND.UNA (0 for a new flow).
            window_end_seg: 0,
            snd_una_seg: 0,
            windows: 0,
            reno: Reno::standard(),
        }
    }

    /// RFC 8257's values: g = 1/16, α = 1.
    pub fn rfc() -> Self {
        Dctcp::new(DEFAULT_G, DEFAULT_ALPHA_INIT)
    }
}

impl CongestionControl for Dctcp {
    /// RFC 8257 §3.3 step 9, rounded as Linux `dctcp_ssthresh`:
    /// cwnd − ⌊cwnd·α/2⌋, at least 2. Used for ECN echoes (and local
    /// congestion, which enters the same CWR state).
    fn ssthresh(&mut self, w: &Window, _now_ns: u64) -> u32 {
        let cut = (w.cwnd_pkts as f64 * self.alpha / 2.0).floor() as u32;
        (w.cwnd_pkts - cut.min(w.cwnd_pkts)).max(2)
    }

    /// RFC 8257 §3.5: a loss halves, as for conventional TCP (Linux
    /// `dctcp_react_to_loss`: max(cwnd/2, 2)).
    fn loss_ssthresh(&mut self, w: &Window, _now_ns: u64) -> Option<u32> {
        Some((w.cwnd_pkts / 2).max(2))
    }

    /// RFC 8257 §3.4: growth as Reno.
    fn cong_avoid(&mut self, w: &mut Window, ack: &AckSample) {
        self.reno.cong_avoid(w, ack);
    }

    /// RFC 8257 §3.3 steps 1–8, on every ACK before the sender reacts to
    /// its ECE flag.
    fn pkts_acked(&mut self, _w: &Window, ack: &AckSample) {
        // Steps 1–3: bytes newly acknowledged cumulatively (SACK ignored).
        // Segment numbers compare modulo 2^32 (Linux `after()`), so a flow
        // that passes 2^32 segments keeps counting.
        let acked_seg = if after(ack.snd_una_seg, self.snd_una_seg) {
            ack.snd_una_seg.wrapping_sub(self.snd_una_seg)
        } else {
            0
        };
        self.snd_una_seg = seq_max(self.snd_una_seg, ack.snd_una_seg);
        let acked_bytes = acked_seg as u64 * ack.mss_bytes as u64;
        self.bytes_acked += acked_bytes;
        if ack.ece {
            self.bytes_marked += acked_bytes;
        }
        // Step 4: the window ends when the ACK passes WindowEnd.
        if !after(ack.snd_una_seg, self.window_end_seg) {
            return;
        }
        // Steps 5–6.
        if self.bytes_acked > 0 {
            let m = self.bytes_marked as f64 / self.bytes_acked as f64;
            self.alpha = ((1.0 - self.g) * self.alpha + self.g * m).clamp(0.0, 1.0);
        }
        self.windows += 1;
        // Steps 7–8.
        self.window_end_seg = ack.snd_nxt_seg;
        self.bytes_acked = 0;
        self.bytes_marked = 0;
    }

    /// DCTCP's small cuts need CWR by PRR (Linux ≥ 3.7; DCTCP came in
    /// 3.18): the engine's rate halving would halve every time.
    fn cwr_by_prr(&self) -> bool {
        true
    }

    /// RFC 8257 §3.2: the receiver runs DCTCP's CE state machine.
    fn ce_echo(&self) -> CeEcho {
        CeEcho::Dctcp
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cc::testing::{grow_for_rtts, loss_event};
    use crate::cc::{build, CaState};
    use crate::net::Packet;
    use crate::tcp::{Receiver, Sender, SenderConfig};
    use std::collections::BTreeMap;

    const MSS: u32 = 1448;

    fn window(cwnd: u32) -> Window {
        crate::cc::testing::window(cwnd, 1)
    }

    /// An ACK that moves SND.UNA to `una` (SND.NXT `nxt`), with or
    /// without ECE.
    fn ack(una: u32, nxt: u32, ece: bool) -> AckSample {
        AckSample {
            acked_pkts: 1,
            counted_pkts: 1,
            ece,
            mss_bytes: MSS,
            snd_una_seg: una,
            snd_nxt_seg: nxt,
            ..AckSample::default()
        }
    }

    /// Segments per observation window in these tests.
    const N: u32 = 10;

    /// Acknowledge one observation window of `N` segments one ACK each,
    /// the first `marked` with ECE. The window's last ACK passes WindowEnd
    /// (= `una` + N − 1, step 4) and sets the next WindowEnd to SND.NXT
    /// = `una` + 2N − 1, so the windows tile. Returns the next SND.UNA.
    fn one_window(cc: &mut Dctcp, una: u32, marked: u32) -> u32 {
        let w = window(N);
        for i in 1..=N {
            cc.pkts_acked(&w, &ack(una + i, una + 2 * N - 1, i <= marked));
        }
        una + N
    }

    /// The estimator past its first window (which ends at the first ACK:
    /// WindowEnd starts at SND.UNA = 0), with α set to `alpha`.
    fn primed(g: f64, alpha: f64) -> (Dctcp, u32) {
        let mut cc = Dctcp::new(g, alpha);
        cc.pkts_acked(&window(1), &ack(1, N, false));
        assert_eq!((cc.windows, cc.window_end_seg), (1, N));
        cc.alpha = alpha;
        (cc, 1)
    }

    /// Past 2^32 segments the estimator goes on as before: the same
    /// windows, acknowledged across the wrap, give the same α.
    #[test]
    fn alpha_is_the_same_across_the_sequence_wrap() {
        let run = |start: u32| {
            let mut cc = Dctcp::new(DEFAULT_G, 1.0);
            cc.snd_una_seg = start;
            cc.window_end_seg = start;
            let w = window(N);
            let mut una = start;
            for k in 0..6u32 {
                for i in 1..=N {
                    let a = ack(una.wrapping_add(i), una.wrapping_add(2 * N - 1), i <= k);
                    cc.pkts_acked(&w, &a);
                }
                una = una.wrapping_add(N);
            }
            (cc.alpha, cc.windows)
        };
        assert_eq!(run(0), run(u32::MAX - 25));
        assert!(run(0).1 >= 5);
    }

    #[test]
    fn defaults_are_rfc_8257s() {
        assert_eq!(DEFAULT_G, 0.0625, "g = 1/16 (RFC 8257 §4.2, Linux shift 4)");
        assert_eq!(DEFAULT_ALPHA_INIT, 1.0, "α starts at 1 (RFC 8257 §3.3)");
        let p = |id| INFO.params.iter().find(|p| p.id == id).unwrap().default;
        assert_eq!(p("g"), 1.0 / 16.0);
        assert_eq!(p("alpha_init"), 1.0);
        let cc = Dctcp::rfc();
        assert_eq!((cc.g, cc.alpha), (1.0 / 16.0, 1.0));
    }

    /// α ← (1 − g)·α + g·M per window (RFC 8257 §3.3 step 6): from α = 1,
    /// n unmarked windows leave (15/16)^n; from α = 0, n fully marked
    /// windows give 1 − (15/16)^n. A wrong g (1/8, or 1/16 applied per ACK
    /// instead of per window) fails both.
    #[test]
    fn alpha_is_an_ewma_with_gain_one_sixteenth_per_window() {
        let (mut cc, mut una) = primed(DEFAULT_G, 1.0);
        for n in 1..=20 {
            una = one_window(&mut cc, una, 0);
            let expected = (15.0f64 / 16.0).powi(n);
            assert!(
                (cc.alpha - expected).abs() < 1e-12,
                "after {n} unmarked windows α = {}, want {expected}",
                cc.alpha
            );
        }
        let (mut cc, mut una) = primed(DEFAULT_G, 0.0);
        for n in 1..=20 {
            una = one_window(&mut cc, una, 10);
            let expected = 1.0 - (15.0f64 / 16.0).powi(n);
            assert!((cc.alpha - expected).abs() < 1e-12, "n = {n}");
        }
        // The same windows with g = 1/8 miss the closed form.
        let (mut cc, mut una) = primed(1.0 / 8.0, 1.0);
        for _ in 0..5 {
            una = one_window(&mut cc, una, 0);
        }
        assert!((cc.alpha - (15.0f64 / 16.0).powi(5)).abs() > 0.05);
    }

    /// M is the fraction of bytes, and α moves once per window whatever
    /// the number of ACKs in it: 3 of 10 segments marked gives
    /// α = (15/16)·α + (1/16)·0.3.
    #[test]
    fn one_window_moves_alpha_once_by_the_marked_fraction() {
        let (mut cc, una) = primed(DEFAULT_G, 0.5);
        let windows = cc.windows;
        one_window(&mut cc, una, 3);
        assert_eq!(cc.windows, windows + 1, "one update per window");
        let expected = 15.0 / 16.0 * 0.5 + 0.3 / 16.0;
        assert!((cc.alpha - expected).abs() < 1e-12, "α {}", cc.alpha);
        // Mid-window nothing changes (step 4 stops processing).
        let w = window(10);
        let before = cc.alpha;
        cc.pkts_acked(&w, &ack(una + 10 + 1, una + 30, true));
        assert_eq!(cc.alpha, before);
        assert_eq!(cc.bytes_marked, MSS as u64);
    }

    /// The window ends only when the cumulative ACK passes WindowEnd
    /// (step 4): a delayed ACK covering two segments counts both, and SACK
    /// blocks (no cumulative advance) count nothing.
    #[test]
    fn bytes_are_counted_from_the_cumulative_ack() {
        let (mut cc, una) = primed(DEFAULT_G, 1.0);
        let w = window(10);
        let end = cc.window_end_seg;
        let mut sack_only = ack(una, una + 20, true);
        sack_only.acked_pkts = 1;
        cc.pkts_acked(&w, &sack_only);
        assert_eq!(cc.bytes_acked, 0, "SACK is ignored (§3.3 step 1)");
        cc.pkts_acked(&w, &ack(una + 2, una + 20, true));
        assert_eq!(cc.bytes_acked, 2 * MSS as u64);
        assert_eq!(cc.bytes_marked, 2 * MSS as u64);
        assert_eq!(cc.window_end_seg, end, "window still open");
    }

    /// α = 1 (every byte marked): the ECN reduction halves (§3.3 step 9).
    #[test]
    fn a_fully_marked_window_halves_cwnd() {
        let (mut cc, una) = primed(DEFAULT_G, 1.0);
        one_window(&mut cc, una, 10);
        assert_eq!(cc.alpha, 1.0);
        assert_eq!(cc.ssthresh(&window(100), 0), 50);
        assert_eq!(
            cc.ssthresh(&window(101), 0),
            51,
            "Linux rounds the cut down"
        );
        assert_eq!(cc.ssthresh(&window(3), 0), 2, "never below 2");
    }

    /// With one packet in ten marked, α converges to 0.1 and each
    /// reduction takes 5 % (the paper's §3.1: the cut is α/2).
    #[test]
    fn ten_percent_marks_converge_to_a_five_percent_cut() {
        let (mut cc, mut una) = primed(DEFAULT_G, 1.0);
        for _ in 0..400 {
            una = one_window(&mut cc, una, 1);
        }
        assert!((cc.alpha - 0.1).abs() < 1e-9, "α {}", cc.alpha);
        assert_eq!(cc.ssthresh(&window(1000), 0), 950);
        assert_eq!(cc.ssthresh(&window(100), 0), 95);
        // No marks at all: no reduction.
        cc.alpha = 0.0;
        assert_eq!(cc.ssthresh(&window(100), 0), 100);
    }

    /// RFC 8257 §3.5: a loss halves, whatever α.
    #[test]
    fn loss_halves_the_window() {
        let (mut cc, _) = primed(DEFAULT_G, 0.1);
        assert_eq!(cc.ssthresh(&window(100), 0), 95, "an ECN cut: 5 %");
        assert_eq!(cc.loss_ssthresh(&window(100), 0), Some(50));
        assert_eq!(cc.loss_ssthresh(&window(3), 0), Some(2));
        // Through the sender, with α = 0.1 from the start: a fast
        // retransmit takes ssthresh to cwnd/2, not to cwnd·(1 − α/2).
        let mut s = dctcp_sender(0.1);
        s.window.cwnd_pkts = 100;
        send_all(&mut s, 0);
        for i in 0..4 {
            s.on_ack(&sack(0, 1 + i), 1_000_000);
        }
        assert_eq!(s.state, CaState::Recovery);
        assert_eq!(s.window.ssthresh_pkts, 50);
    }

    /// A loss during an ECN reduction still halves (RFC 8257 §3.5; Linux
    /// `dctcp_state` on entering Recovery), where a classic flow keeps the
    /// CWR episode's threshold.
    #[test]
    fn a_loss_during_an_ecn_reduction_still_halves() {
        let mut s = dctcp_sender(0.1);
        s.window.cwnd_pkts = 100;
        send_all(&mut s, 0);
        s.on_ack(&cum(1, true), 1_000_000);
        assert_eq!(s.state, CaState::Cwr);
        // α after the first window (M = 1): 0.1·15/16 + 1/16 ≈ 0.156.
        assert_eq!(s.window.ssthresh_pkts, 93, "cwnd·(1 − α/2)");
        let mut cwnd = s.window.cwnd_pkts;
        for i in 0..4 {
            if s.state == CaState::Cwr {
                cwnd = s.window.cwnd_pkts;
            }
            s.on_ack(&sack(1, 2 + i), 2_000_000);
        }
        assert_eq!(s.state, CaState::Recovery);
        // Half the window at the loss (rate halving had taken it a little
        // below 100), not the 93 of the ECN reduction.
        assert!((95..=100).contains(&cwnd), "cwnd {cwnd}");
        assert_eq!(s.window.ssthresh_pkts, cwnd / 2);
    }

    /// RFC 8257 §3.4: between reductions the window grows as Reno's.
    #[test]
    fn growth_is_renos() {
        let mut cc = Dctcp::rfc();
        let mut reno = Reno::standard();
        let (mut a, mut b) = (window(100), window(100));
        a.ssthresh_pkts = 50;
        b.ssthresh_pkts = 50;
        grow_for_rtts(&mut cc, &mut a, 10, 1_000_000);
        grow_for_rtts(&mut reno, &mut b, 10, 1_000_000);
        assert_eq!(a.cwnd_pkts, 110);
        assert_eq!(a, b);
        loss_event(&mut cc, &mut a, 0);
        assert!(a.cwnd_pkts < 110);
    }

    fn dctcp_sender(alpha_init: f64) -> Sender {
        let params = BTreeMap::from([("alpha_init".to_string(), alpha_init)]);
        let cc = build("dctcp", &params).unwrap();
        let mut s = Sender::new(SenderConfig::rfc(MSS, 1 << 30), cc, 0);
        s.window.ssthresh_pkts = 1000;
        s
    }

    fn send_all(s: &mut Sender, now: u64) {
        while let Some(tx) = s.next_transmission() {
            s.on_transmitted(tx, now);
        }
    }

    fn sack(cum: u32, sacked: u32) -> crate::net::Ack {
        crate::net::Ack {
            cum_seq: cum,
            sacked_seq: Some(sacked),
            ece: false,
            echo_sent_ns: 0,
            echo_retransmission: false,
            ace: 0,
        }
    }

    fn cum(cum_seq: u32, ece: bool) -> crate::net::Ack {
        crate::net::Ack {
            cum_seq,
            sacked_seq: None,
            ece,
            echo_sent_ns: 0,
            echo_retransmission: false,
            ace: 0,
        }
    }

    /// RFC 8257 §3.3 (as RFC 3168 §6.1.2): at most one reduction per window
    /// of data, however many ACKs carry ECE; the next window may reduce
    /// again.
    #[test]
    fn at_most_one_reduction_per_window() {
        let mut s = dctcp_sender(1.0);
        s.window.cwnd_pkts = 100;
        send_all(&mut s, 0);
        let first_window_end = s.snd_nxt;
        // Every ACK of the first window carries ECE.
        let mut now = 1_000_000;
        for seq in 1..=first_window_end {
            s.on_ack(&cum(seq, true), now);
            if seq == 1 {
                // α = 1 at the first echo: a halving.
                assert_eq!(s.window.ssthresh_pkts, 50);
            }
            send_all(&mut s, now);
            now += 10_000;
            if seq < first_window_end {
                assert_eq!(s.stats.ecn_reductions, 1, "ACK {seq}");
            }
        }
        // The first ECE after the episode starts the second reduction.
        assert_eq!(s.stats.ecn_reductions, 2);
        assert_eq!(s.state, CaState::Cwr);
    }

    /// The receiver's echo, with delayed ACKs, for hand-built segments
    /// whose CE bits alternate in pairs and singles (RFC 8257 §3.2 Fig. 1).
    #[test]
    fn dctcp_receiver_echoes_exactly_the_ce_state() {
        let mut r = Receiver::new(true, CeEcho::Dctcp);
        let pkt = |seq: u32, ce: bool| Packet {
            flow: 0,
            seq,
            sent_ns: seq as u64 * 1000,
            retransmission: false,
            ce,
            ect1: false,
        };
        // (cum_seq, ece) of every ACK sent, in order.
        let mut sent = Vec::new();
        let mut push = |acks: crate::tcp::DataAcks| {
            for a in [acks.held, acks.ack].into_iter().flatten() {
                sent.push((a.cum_seq, a.ece));
            }
        };
        let pattern = [
            false, false, false, true, true, true, false, true, false, false,
        ];
        for (i, &ce) in pattern.iter().enumerate() {
            push(r.on_data(&pkt(i as u32, ce), i as u64 * 1000));
        }
        assert_eq!(
            sent,
            [
                (2, false), // 0, 1: a delayed ACK, no CE
                // 2 held; 3 flips to CE: ACK 2 with the old state, then 3 at once
                (3, false),
                (4, true),
                (6, true),  // 4, 5: a delayed ACK, CE
                (7, false), // 6 flips back: nothing held, ACK at once
                (8, true),  // 7 flips: at once
                (9, false), // 8 flips: at once
                            // 9 is held by delayed ACKs
            ]
        );
        // The timer ACK of the held segment echoes the current state.
        let a = r.on_delack_timer().expect("a held ACK");
        assert_eq!((a.cum_seq, a.ece), (10, false));
        // The sender counts marked bytes exactly: segments 3, 4, 5, 7.
        let marked: u32 = {
            let mut last = 0;
            let mut m = 0;
            for &(c, e) in sent.iter().chain([(10, false)].iter()) {
                if e {
                    m += c - last;
                }
                last = c;
            }
            m
        };
        assert_eq!(marked, 4);
    }

    /// The classic echo is what the engine always did: CE acknowledged at
    /// once with ECE, every other ACK clear, no extra ACK for held data.
    #[test]
    fn classic_receiver_echoes_each_mark_at_once() {
        let mut r = Receiver::new(true, CeEcho::Classic);
        let pkt = |seq: u32, ce: bool| Packet {
            flow: 0,
            seq,
            sent_ns: 0,
            retransmission: false,
            ce,
            ect1: false,
        };
        let mut sent = Vec::new();
        for (i, ce) in [false, true, true, false, false].into_iter().enumerate() {
            let acks = r.on_data(&pkt(i as u32, ce), 0);
            assert!(acks.held.is_none());
            if let Some(a) = acks.ack {
                sent.push((a.cum_seq, a.ece));
            }
        }
        assert_eq!(sent, [(2, true), (3, true), (5, false)]);
    }
}
