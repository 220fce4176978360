//! Congestion control: one trait mirroring Linux's `struct tcp_congestion_ops`
//! (`include/net/tcp.h`), one file per algorithm, and a catalogue describing
//! every algorithm and parameter for the app.
//!
//! Algorithms never read a clock: the sender passes `now_ns` in every call.
//! Windows are in packets with Linux's `snd_cwnd_cnt` fractional counter, so
//! the additive-increase helpers below behave exactly like `tcp_cong.c`.

use serde::Serialize;
use std::collections::BTreeMap;
use ts_rs::TS;

pub mod bbr;
pub mod bbr3;
pub mod bic;
pub mod compound;
pub mod cubic;
pub mod dctcp;
pub mod fast;
pub mod highspeed;
pub mod htcp;
pub mod hystart;
pub mod hystart_pp;
pub mod prague;
pub mod reno;
pub mod scalable;
pub mod vegas;

pub use bbr::{Bbr, BbrMode};
pub use cubic::CubicVersion;
pub use highspeed::{highspeed_a_b, highspeed_table, HighSpeedParams, HighSpeedRow, HighSpeedRule};
pub use scalable::ScalableRule;

#[cfg(test)]
pub(crate) mod testing;

/// Linux `enum tcp_ca_state`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, TS)]
#[repr(u8)]
pub enum CaState {
    Open = 0,
    Disorder = 1,
    Cwr = 2,
    Recovery = 3,
    Loss = 4,
}

/// How a flow's receiver echoes Congestion Experienced marks: the feedback
/// the two ends agreed on (RFC 8257 §3: DCTCP needs both ends to support
/// it), asked of the algorithm once per flow.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CeEcho {
    /// The engine's classic ECN receiver (RFC 3168 §6.1.3, per mark): a
    /// CE segment is acknowledged at once with ECE set; every other ACK
    /// has ECE clear. The sender reduces at most once per window, so one
    /// echo per mark is as good as RFC 3168's echo until CWR.
    #[default]
    Classic,
    /// DCTCP's receiver (RFC 8257 §3.2): ECE is set exactly while the last
    /// segment carried CE, and a change of CE state is acknowledged at
    /// once (after an ACK, with the old state, of any segment held back
    /// by delayed ACKs), so the sender sees how many bytes were marked.
    Dctcp,
    /// Accurate ECN (RFC 9768), as far as TCP Prague needs it: the
    /// receiver counts CE-marked data packets (r.cep, starting at 5,
    /// RFC 9768 §3.2.1) and every ACK carries the count's three least
    /// significant bits in the ACE field (§3.2.2) ([`Ack::ace`](crate::net::Ack));
    /// the sender takes the difference from the last value modulo 8
    /// (its s.cep) as the packets newly marked. A CE data packet after a
    /// non-CE one is acknowledged at once (RFC 9768 §3.2.2.5.1's
    /// change-triggered ACK); Linux's `tcp_ecn_received_counters` does so
    /// on every ECN-field edge, as modelled;
    /// otherwise the delayed-ACK rules stand, so an ACK covers at most two
    /// new segments and the 3-bit field cannot wrap between ACKs (the ACK
    /// path is lossless here). The AccECN option's byte counters are not
    /// modelled: Prague counts packets (`tp->delivered_ce`).
    AccEcn,
}

/// Linux `enum tcp_ca_event` (the subset a bulk sender produces).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CaEvent {
    /// First transmission when nothing was in flight (`CA_EVENT_TX_START`),
    /// `idle_ns` after the previous transmission (Linux `now − lsndtime`;
    /// 0 for the connection's first).
    TxStart { idle_ns: u64 },
    /// CWR or Recovery finished (`CA_EVENT_COMPLETE_CWR`).
    CompleteCwr,
    /// Retransmission timeout (`CA_EVENT_LOSS`).
    Loss,
}

/// The window fields of Linux's `struct tcp_sock` that an algorithm may read
/// and change. All in packets (segments of one MSS).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Window {
    pub cwnd_pkts: u32,
    /// Fractional increase counter (`snd_cwnd_cnt`).
    pub cwnd_cnt: u32,
    pub ssthresh_pkts: u32,
    /// Upper bound on cwnd: the receiver's advertised window (`snd_cwnd_clamp`).
    pub cwnd_clamp_pkts: u32,
}

/// Linux's "infinite" ssthresh (`TCP_INFINITE_SSTHRESH`).
pub const INFINITE_SSTHRESH: u32 = 0x7fff_ffff;

impl Window {
    pub fn in_slow_start(&self) -> bool {
        self.cwnd_pkts < self.ssthresh_pkts
    }

    /// `tcp_slow_start`: cwnd grows by one per acked packet up to ssthresh.
    /// Returns the acked packets left over for congestion avoidance.
    pub fn slow_start(&mut self, acked_pkts: u32) -> u32 {
        let cwnd = self
            .cwnd_pkts
            .saturating_add(acked_pkts)
            .min(self.ssthresh_pkts)
            .max(self.cwnd_pkts);
        let left = acked_pkts - (cwnd - self.cwnd_pkts);
        self.cwnd_pkts = cwnd.min(self.cwnd_clamp_pkts);
        left
    }

    /// `tcp_cong_avoid_ai`: cwnd grows by one after `w` acked packets
    /// (so by `1/w` per ACK).
    pub fn cong_avoid_ai(&mut self, w: u32, acked_pkts: u32) {
        let w = w.max(1);
        if self.cwnd_cnt >= w {
            self.cwnd_cnt = 0;
            self.cwnd_pkts += 1;
        }
        self.cwnd_cnt += acked_pkts;
        if self.cwnd_cnt >= w {
            let delta = self.cwnd_cnt / w;
            self.cwnd_cnt -= delta * w;
            self.cwnd_pkts += delta;
        }
        self.cwnd_pkts = self.cwnd_pkts.min(self.cwnd_clamp_pkts);
    }
}

/// What the sender knows when an ACK arrives: everything a real sender sees,
/// nothing more (no queue lengths, no link rates).
#[derive(Clone, Copy, Debug, Default)]
pub struct AckSample {
    pub now_ns: u64,
    /// Packets newly acknowledged by this ACK (cumulatively or by SACK).
    pub acked_pkts: u32,
    /// What this ACK counts for in `tcp_slow_start` and the `snd_cwnd_cnt`
    /// increase: `acked_pkts` when the profile counts per packet, at most
    /// 1 when it counts per ACK (Linux 2.4; 2.6.22 with tcp_abc = 0).
    pub counted_pkts: u32,
    /// RTT measured by this ACK (none for retransmitted data: Karn's rule).
    pub rtt_ns: Option<u64>,
    /// Smallest RTT seen by the connection so far.
    pub min_rtt_ns: u64,
    /// Smoothed RTT (RFC 6298); 0 before the first sample.
    pub srtt_ns: u64,
    /// Packets in flight after this ACK was processed.
    pub in_flight_pkts: u32,
    /// Total packets delivered (acked) by the connection so far.
    pub delivered_pkts: u64,
    /// Delivery-rate sample (Linux `tcp_rate.c`), packets per second; only
    /// for algorithms whose `uses_delivery_rate()` is true. None when the
    /// sample is not valid (`rs->interval_us` ≤ 0: nothing delivered, or
    /// an interval shorter than the minimum RTT).
    pub delivery_rate_pps: Option<f64>,
    /// `rs->prior_delivered`: the connection's delivered count when the
    /// packet the rate sample is about was sent (the most recently sent of
    /// those this ACK delivers); with `delivery_rate_pps` only.
    pub prior_delivered_pkts: u64,
    /// `rs->prior_in_flight`: packets in flight before this ACK.
    pub prior_in_flight_pkts: u32,
    /// `rs->tx_in_flight` (BBRv2/v3's rate sample): packets in flight
    /// when the sample's packet was sent, itself included; with
    /// `delivery_rate_pps` only (0 otherwise).
    pub tx_in_flight_pkts: u32,
    /// `rs->lost` (BBRv2/v3): packets marked lost between the sample's
    /// packet's send and this ACK; with `delivery_rate_pps` only.
    pub tx_lost_pkts: u32,
    /// `rs->delivered_ce` (google/bbr v3's `tcp_rate.c`): packets
    /// delivered by ACKs with ECE set since the sample's packet was sent,
    /// this ACK's included; with `delivery_rate_pps` only, and only for a
    /// receiver that echoes each packet's CE state (DCTCP-style).
    pub tx_delivered_ce_pkts: u32,
    /// `tp->delivered_ce`: all packets delivered by ACKs with ECE set so
    /// far (rate-sampling algorithms only, as above).
    pub delivered_ce_pkts: u64,
    /// `rs->losses`: packets this ACK newly marked lost (Linux's
    /// `tp->lost` difference across `tcp_ack`).
    pub losses_pkts: u32,
    /// The rate sample was limited by the application or the receiver window.
    pub app_limited: bool,
    /// This ACK carried an ECN echo (ECE); for an AccECN flow, it reported
    /// newly CE-marked packets (Linux sets `FLAG_ECE` when the ACE delta is
    /// positive).
    pub ece: bool,
    /// AccECN flows: the packets this ACK reports newly CE-marked (the
    /// ACE field's delta, Linux's `delivered_ce` increase, `rs->ece_delta`);
    /// 0 for other flows.
    pub ce_delta_pkts: u32,
    pub mss_bytes: u32,
    /// The sender's SND.UNA after this ACK (segments): the cumulative
    /// acknowledgement, SACKed data not included.
    pub snd_una_seg: u32,
    /// The sender's SND.NXT when this ACK arrived (segments).
    pub snd_nxt_seg: u32,
}

/// A packet the sender has just marked lost, as BBRv3's per-packet hook
/// sees it (google/bbr v3: `tcp_notify_skb_loss_event` increments
/// `tp->lost` and then calls `ca_ops->skb_marked_lost`; every newly lost
/// packet and every lost retransmission, by SACK marking, NewReno's
/// partial ACK or a timeout).
#[derive(Clone, Copy, Debug, Default)]
pub struct LostPacket {
    pub now_ns: u64,
    /// `tp->delivered` when the packet was marked.
    pub delivered_pkts: u64,
    /// `skb->tx.in_flight`: packets in flight once it was (last) sent,
    /// itself included.
    pub tx_in_flight_pkts: u32,
    /// `tp->lost - skb->tx.lost`: packets marked lost since it was sent,
    /// itself included.
    pub tx_lost_pkts: u32,
    /// `skb->tx.delivered`: the delivered count when it was sent (what
    /// tells whether it left while the sender was application-limited).
    pub delivered_at_send_pkts: u64,
}

/// Round-trip boundaries from delivery counts, the way Linux BBR counts
/// rounds (`next_rtt_delivered`): a round ends once everything that was in
/// flight when it began has been delivered. Vegas, CTCP and FAST use it in
/// place of Linux's `beg_snd_nxt` sequence-number check.
#[derive(Clone, Copy, Debug, Default)]
pub struct RoundCounter {
    next_round_delivered: u64,
    /// Completed rounds.
    pub rounds: u64,
}

impl RoundCounter {
    /// Call on every ACK; true when this ACK starts a new round.
    pub fn on_ack(&mut self, ack: &AckSample) -> bool {
        if ack.delivered_pkts >= self.next_round_delivered {
            self.next_round_delivered = ack.delivered_pkts + ack.in_flight_pkts.max(1) as u64;
            self.rounds += 1;
            true
        } else {
            false
        }
    }

    /// Start a fresh round at this ACK (after a reset or a state change).
    pub fn restart(&mut self, ack: &AckSample) {
        self.next_round_delivered = ack.delivered_pkts + ack.in_flight_pkts.max(1) as u64;
    }
}

/// Fractional window growth for algorithms whose per-ACK increase is not
/// `1/n` for an integer `n` (HighSpeed's a(w), Scalable's a, H-TCP's α):
/// accumulates `packets` and moves whole packets into `cwnd_pkts`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Increase {
    acc: f64,
}

impl Increase {
    /// Add `packets` (may be fractional) to the window, up to the clamp.
    pub fn add(&mut self, w: &mut Window, packets: f64) {
        self.acc += packets.max(0.0);
        // Tolerate rounding: twenty additions of 1/20 make one packet.
        if self.acc >= 1.0 - 1e-9 {
            let whole = (self.acc + 1e-9).floor();
            self.acc = (self.acc - whole).max(0.0);
            let grown = (w.cwnd_pkts as f64 + whole).min(w.cwnd_clamp_pkts as f64);
            w.cwnd_pkts = grown as u32;
        }
    }

    /// Forget the fraction (on a congestion event).
    pub fn reset(&mut self) {
        self.acc = 0.0;
    }
}

/// Linux `struct tcp_congestion_ops`. Every method gets the time passed in.
pub trait CongestionControl {
    /// Called once when the flow starts (`init`).
    fn init(&mut self, _w: &mut Window, _now_ns: u64) {}

    /// Slow-start threshold after a congestion event (`ssthresh`). Called on
    /// entering Recovery, CWR (local congestion, ECN) and Loss (timeout).
    fn ssthresh(&mut self, w: &Window, now_ns: u64) -> u32;

    /// Slow-start threshold after a loss (entering Recovery or Loss), for an
    /// algorithm that reacts to loss unlike it reacts to ECN: DCTCP halves
    /// on loss (RFC 8257 §3.5; Linux `dctcp_react_to_loss`, called from
    /// `dctcp_state` on entering Recovery and on `CA_EVENT_LOSS`), even
    /// when the loss comes during an ECN reduction. `None` (every other
    /// algorithm) means [`ssthresh`](Self::ssthresh), and a loss during a
    /// CWR episode keeps that episode's threshold.
    fn loss_ssthresh(&mut self, _w: &Window, _now_ns: u64) -> Option<u32> {
        None
    }

    /// Window growth in the Open state (`cong_avoid`), slow start included.
    fn cong_avoid(&mut self, w: &mut Window, ack: &AckSample);

    /// Every ACK, before `cong_avoid` and before the sender acts on the
    /// ACK's ECE flag (`pkts_acked`, and Linux's `in_ack_event` where DCTCP
    /// counts marked bytes): RTT samples, counts, ECN accounting.
    fn pkts_acked(&mut self, _w: &Window, _ack: &AckSample) {}

    /// The sender changed state (`set_state`).
    fn set_state(&mut self, _w: &Window, _state: CaState, _now_ns: u64) {}

    /// Sender events (`cwnd_event`).
    fn cwnd_event(&mut self, _w: &Window, _event: CaEvent, _now_ns: u64) {}

    /// The floor of rate halving (`min_cwnd`, Linux 2.4–3.1 `tcp_cwnd_min`):
    /// `tcp_cwnd_down` takes cwnd no lower than this. Linux 2.4 used
    /// ssthresh/2 for every connection (`tcp_cwnd_down`, 2.4.22), and
    /// 2.6.22's Reno, HighSpeed and Scalable set `.min_cwnd =
    /// tcp_reno_min_cwnd` (ssthresh/2); a module without the hook (CUBIC
    /// 2.1, BIC) gets ssthresh (2.6.22 `tcp_input.c` `tcp_cwnd_min`).
    fn min_cwnd(&self, w: &Window) -> u32 {
        w.ssthresh_pkts / 2
    }

    /// Window to restore when a congestion event proves spurious (`undo_cwnd`).
    fn undo_cwnd(&mut self, w: &Window, prior_cwnd_pkts: u32) -> u32 {
        w.cwnd_pkts.max(prior_cwnd_pkts)
    }

    /// Full control of cwnd and pacing (`cong_control`, used by BBR). Return
    /// true to replace the sender's own Open/Recovery window logic.
    fn cong_control(&mut self, _w: &mut Window, _ack: &AckSample, _state: CaState) -> bool {
        false
    }

    /// Pacing rate in bytes per second, if the algorithm paces (BBR).
    fn pacing_rate_bytes_per_s(&self) -> Option<f64> {
        None
    }

    /// Whether [`pacing_rate_bytes_per_s`](Self::pacing_rate_bytes_per_s)
    /// can ever be `Some`. Asked once per flow, so that a sender that never
    /// paces skips the question on every packet.
    fn paces(&self) -> bool {
        false
    }

    /// Whether the algorithm reads [`AckSample::delivery_rate_pps`]. Asked
    /// once per flow: for the others the sender leaves it `None` and saves
    /// a division on every ACK.
    fn uses_delivery_rate(&self) -> bool {
        false
    }

    /// Whether [`skb_marked_lost`](Self::skb_marked_lost) should be
    /// called. Asked once per flow, so that other flows skip building the
    /// report for every lost packet.
    fn wants_lost_packets(&self) -> bool {
        false
    }

    /// A packet was just marked lost (google/bbr v3's `skb_marked_lost`):
    /// called at the marking, on the ACK or timeout that finds it, before
    /// [`cong_control`](Self::cong_control) runs for that ACK.
    fn skb_marked_lost(&mut self, _w: &Window, _lost: &LostPacket) {}

    /// Whether losses should leave cwnd alone (BBR: "none on loss").
    fn ignores_loss(&self) -> bool {
        false
    }

    /// Whether the sender's CWR episodes (ECN echo, local congestion) bring
    /// the window down by Proportional Rate Reduction (RFC 6937; Linux ≥ 3.7
    /// `tcp_cwnd_reduction`, "use PRR to reduce cwin in CWR state") instead
    /// of the engine's rate halving with its in-flight + 1 clamp, which with
    /// delayed ACKs takes one packet per ACK and so halves the window in a
    /// round trip whatever ssthresh says. True for algorithms that exist
    /// only in kernels with PRR in CWR (DCTCP, Linux 3.18); asked once per
    /// flow.
    fn cwr_by_prr(&self) -> bool {
        false
    }

    /// How the flow's receiver echoes CE marks (asked once per flow).
    fn ce_echo(&self) -> CeEcho {
        CeEcho::Classic
    }

    /// Whether the flow sends ECT(1), the L4S identifier (RFC 9331 §4.1;
    /// Linux `TCP_CONG_WANTS_ECT_1`), instead of ECT(0). Asked once per
    /// flow.
    fn sends_ect1(&self) -> bool {
        false
    }

    /// Whether [`cong_control`](Self::cong_control) owns the window in
    /// every state while the sender still enters CWR on an ECN echo and
    /// Recovery on a loss (Linux ≥ 4.9 with a `cong_control` hook: the
    /// stack neither reduces the window itself in CWR or Recovery nor
    /// resets it to ssthresh when they end, `tcp_end_cwnd_reduction`).
    /// TCP Prague. Asked once per flow.
    fn owns_window(&self) -> bool {
        false
    }
}

/// One user-facing parameter of an algorithm.
#[derive(Clone, Debug, Serialize, TS)]
#[ts(export, export_to = "catalogue.ts")]
pub struct ParamInfo {
    pub id: &'static str,
    pub name: &'static str,
    pub default: f64,
    pub min: f64,
    pub max: f64,
    pub step: f64,
    pub unit: &'static str,
    /// Use a logarithmic slider.
    pub log_scale: bool,
    /// One line: what the parameter means.
    pub description: &'static str,
}

/// A citation for an algorithm's rules.
#[derive(Clone, Debug, Serialize, TS)]
#[ts(export, export_to = "catalogue.ts")]
pub struct Citation {
    pub label: &'static str,
    pub reference: &'static str,
}

/// Everything the app needs to describe and configure one algorithm.
#[derive(Clone, Debug, Serialize, TS)]
#[ts(export, export_to = "catalogue.ts")]
pub struct AlgorithmInfo {
    pub id: &'static str,
    pub name: &'static str,
    /// One paragraph for students.
    pub explanation: &'static str,
    /// What the cwnd chart should look like.
    pub expect_on_chart: &'static str,
    pub increase_tex: &'static str,
    pub decrease_tex: &'static str,
    pub params: &'static [ParamInfo],
    pub citations: &'static [Citation],
}

/// The kernel-dependent rules of the algorithms whose rules differ between
/// kernels: each rule's type and meaning live in its algorithm's file, and
/// a testbed profile chooses them (`profile::Mechanisms`, one switch each;
/// `Mechanisms::algorithm_rules`). Adding such an algorithm adds its field
/// here and its row in the profile's switch table (`profile/table.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AlgorithmRules {
    pub highspeed: HighSpeedRule,
    pub scalable: ScalableRule,
    pub cubic: CubicVersion,
}

impl AlgorithmRules {
    /// The rules of the engine before profiles (`sawtooth-1`): the RFCs'
    /// and the papers' own descriptions.
    pub const PLAIN: AlgorithmRules = AlgorithmRules {
        highspeed: HighSpeedRule::Formula,
        scalable: ScalableRule::Kelly,
        cubic: CubicVersion::Rfc9438,
    };
}

/// Resolved parameter values for one flow (defaults filled in), and the
/// kernel-dependent rules the profile chose.
#[derive(Clone, Debug)]
pub struct Params {
    values: BTreeMap<&'static str, f64>,
    /// The parameters the flow set itself (the rest are defaults).
    given: Vec<&'static str>,
    pub rules: AlgorithmRules,
}

impl Params {
    /// Defaults of `info` overridden by `given` (already validated).
    pub fn resolve(info: &AlgorithmInfo, given: &BTreeMap<String, f64>) -> Self {
        let values = info
            .params
            .iter()
            .map(|p| (p.id, given.get(p.id).copied().unwrap_or(p.default)))
            .collect();
        let given = info
            .params
            .iter()
            .filter(|p| given.contains_key(p.id))
            .map(|p| p.id)
            .collect();
        Params {
            values,
            given,
            rules: AlgorithmRules::PLAIN,
        }
    }

    /// These parameters with `defaults` in place of the catalogue's
    /// defaults, for the ones the flow did not set itself (a kernel
    /// version's own defaults, e.g. CUBIC 2.1's β in Linux 2.6.22).
    pub fn with_defaults(&self, defaults: &[(&'static str, f64)]) -> Params {
        let mut out = self.clone();
        for &(id, value) in defaults {
            if let Some(v) = out.values.get_mut(id) {
                if !self.given.contains(&id) {
                    *v = value;
                }
            }
        }
        out
    }

    /// The value of parameter `id`. Panics on an id the algorithm does not
    /// declare: that is a programming error caught by the catalogue tests.
    pub fn get(&self, id: &str) -> f64 {
        *self
            .values
            .get(id)
            .unwrap_or_else(|| panic!("parameter {id} is not in the catalogue entry"))
    }
}

type Builder = fn(&Params) -> Box<dyn CongestionControl>;

/// The registry: adding an algorithm is one new file plus one line here.
const REGISTRY: &[(&AlgorithmInfo, Builder)] = &[
    (&reno::INFO, reno::build),
    (&highspeed::INFO, highspeed::build),
    (&scalable::INFO, scalable::build),
    (&bic::INFO, bic::build),
    (&cubic::INFO, cubic::build),
    (&htcp::INFO, htcp::build),
    (&vegas::INFO, vegas::build),
    (&fast::INFO, fast::build),
    (&fast::INFO_AT, fast::build_at),
    (&compound::INFO, compound::build),
    (&bbr::INFO, bbr::build),
    (&bbr3::INFO, bbr3::build),
    (&dctcp::INFO, dctcp::build),
    (&prague::INFO, prague::build),
];

/// Every algorithm, in the order the app lists them.
pub fn catalogue() -> Vec<&'static AlgorithmInfo> {
    REGISTRY.iter().map(|(info, _)| *info).collect()
}

pub fn algorithm_info(id: &str) -> Option<&'static AlgorithmInfo> {
    REGISTRY
        .iter()
        .find(|(info, _)| info.id == id)
        .map(|(info, _)| *info)
}

/// Build the controller for algorithm `id` with validated parameters and
/// the rules of the engine before profiles (`sawtooth-1`).
pub fn build(id: &str, given: &BTreeMap<String, f64>) -> Option<Box<dyn CongestionControl>> {
    build_with(id, given, &AlgorithmRules::PLAIN)
}

/// Build the controller for algorithm `id` under a profile's rules.
pub fn build_with(
    id: &str,
    given: &BTreeMap<String, f64>,
    rules: &AlgorithmRules,
) -> Option<Box<dyn CongestionControl>> {
    REGISTRY
        .iter()
        .find(|(info, _)| info.id == id)
        .map(|(info, builder)| {
            let mut params = Params::resolve(info, given);
            params.rules = *rules;
            builder(&params)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slow_start_doubles_and_stops_at_ssthresh() {
        let mut w = Window {
            cwnd_pkts: 10,
            cwnd_cnt: 0,
            ssthresh_pkts: 15,
            cwnd_clamp_pkts: 1000,
        };
        assert_eq!(w.slow_start(3), 0);
        assert_eq!(w.cwnd_pkts, 13);
        assert_eq!(w.slow_start(4), 2);
        assert_eq!(w.cwnd_pkts, 15);
    }

    #[test]
    fn cong_avoid_ai_adds_one_per_w_acks() {
        let mut w = Window {
            cwnd_pkts: 10,
            cwnd_cnt: 0,
            ssthresh_pkts: 5,
            cwnd_clamp_pkts: 1000,
        };
        for _ in 0..10 {
            w.cong_avoid_ai(10, 1);
        }
        assert_eq!(w.cwnd_pkts, 11);
        assert_eq!(w.cwnd_cnt, 0);
        w.cong_avoid_ai(11, 25);
        assert_eq!(w.cwnd_pkts, 13);
        assert_eq!(w.cwnd_cnt, 3);
    }

    #[test]
    fn every_algorithm_builds_with_defaults_and_has_sane_params() {
        for info in catalogue() {
            assert!(build(info.id, &BTreeMap::new()).is_some(), "{}", info.id);
            for p in info.params {
                assert!(
                    p.min <= p.default && p.default <= p.max,
                    "{}.{}",
                    info.id,
                    p.id
                );
                assert!(p.step > 0.0, "{}.{}", info.id, p.id);
                assert!(
                    !p.log_scale || p.min > 0.0,
                    "{}.{} log scale needs min > 0",
                    info.id,
                    p.id
                );
            }
            assert!(!info.citations.is_empty(), "{} has no citation", info.id);
        }
        let ids: std::collections::BTreeSet<_> = catalogue().iter().map(|i| i.id).collect();
        assert_eq!(ids.len(), REGISTRY.len(), "algorithm ids must be unique");
    }
}
