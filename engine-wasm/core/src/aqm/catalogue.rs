//! The queue disciplines as the app offers them: each kind's name, a
//! paragraph for students, its source, and its parameters with their
//! defaults and allowed ranges. Each parameter is one constant below, and
//! the engine reads its scenario field through the same constant
//! (`settings.rs`: the default it takes, the range it validates), so the
//! controls, validation and construction share one home.

use super::{codel, dualpi2, fq_codel, pie, step};
use crate::cc::{Citation, ParamInfo};
use crate::scenario::limits;
use serde::Serialize;
use ts_rs::TS;

/// One queue discipline (`bottleneck.aqm.kind`).
#[derive(Clone, Debug, Serialize, TS)]
#[ts(export, export_to = "catalogue.ts")]
pub struct AqmInfo {
    /// The scenario's `kind`.
    pub kind: &'static str,
    pub name: &'static str,
    /// One paragraph for students: what it does and what to look for.
    pub explanation: &'static str,
    pub citations: Vec<Citation>,
    /// Parameters in the scenario's field names. A parameter whose unit is
    /// "on/off" is a boolean (0 or 1 here).
    pub params: Vec<ParamInfo>,
}

/// Every discipline's `ecn`: off unless set (RED's scenario field has no
/// default; the others' omitted field takes this one).
pub const ECN: ParamInfo = ParamInfo {
    id: "ecn",
    name: "ECN marking",
    default: 0.0,
    min: 0.0,
    max: 1.0,
    step: 1.0,
    unit: "on/off",
    log_scale: false,
    description:
        "Mark ECN-capable packets Congestion Experienced instead of dropping them (RFC 3168 §5).",
};

/// CoDel's INTERVAL (in each flow queue, for FQ-CoDel).
pub const CODEL_INTERVAL: ParamInfo = ParamInfo {
    id: "interval_ms",
    name: "Interval",
    default: codel::INTERVAL_MS,
    min: limits::CODEL_INTERVAL_MS.0,
    max: limits::CODEL_INTERVAL_MS.1,
    step: 1.0,
    unit: "ms",
    log_scale: true,
    description: "How long the delay must stay above the target before dropping starts (in each flow queue, for FQ-CoDel): about a worst-case RTT.",
};

/// The delay target of CoDel (TARGET) and PIE (QDELAY_REF).
const fn target(default: f64, range: (f64, f64)) -> ParamInfo {
    ParamInfo {
        id: "target_ms",
        name: "Target delay",
        default,
        min: range.0,
        max: range.1,
        step: 0.5,
        unit: "ms",
        log_scale: true,
        description: "The queueing delay the discipline aims to keep packets under.",
    }
}

/// CoDel's TARGET (in each flow queue, for FQ-CoDel).
pub const CODEL_TARGET: ParamInfo = target(codel::TARGET_MS, limits::CODEL_TARGET_MS);

// RED's parameters. Validation bounds the thresholds by the buffer too
// (`settings.rs`).
#[rustfmt::skip]
pub const RED_MIN_TH: ParamInfo = ParamInfo { id: "min_th_pkts", name: "Minimum threshold", default: 5.0, min: 1.0, max: limits::BUFFER_PKTS.1 as f64, step: 1.0, unit: "packets", log_scale: true, description: "Below this average queue nothing is dropped." };
#[rustfmt::skip]
pub const RED_MAX_TH: ParamInfo = ParamInfo { id: "max_th_pkts", name: "Maximum threshold", default: 15.0, min: 1.0, max: limits::BUFFER_PKTS.1 as f64, step: 1.0, unit: "packets", log_scale: true, description: "Above this average queue every packet is dropped (or marked); at most the buffer." };
#[rustfmt::skip]
pub const RED_MAX_P: ParamInfo = ParamInfo { id: "max_p", name: "Maximum probability", default: 0.1, min: 0.0, max: 1.0, step: 0.01, unit: "fraction", log_scale: false, description: "The drop probability reached at the maximum threshold (ns-2's 1/linterm_)." };
#[rustfmt::skip]
pub const RED_WEIGHT: ParamInfo = ParamInfo { id: "weight", name: "Averaging weight", default: 0.002, min: 1e-6, max: 1.0, step: 0.0001, unit: "fraction", log_scale: true, description: "How fast the average queue follows the instantaneous queue (w_q)." };

// FQ-CoDel's own (its target and interval are CoDel's).
#[rustfmt::skip]
pub const FQ_QUANTUM: ParamInfo = ParamInfo { id: "quantum_bytes", name: "Quantum", default: fq_codel::QUANTUM_BYTES as f64, min: limits::FQ_QUANTUM_BYTES.0 as f64, max: limits::FQ_QUANTUM_BYTES.1 as f64, step: 1.0, unit: "bytes", log_scale: true, description: "Bytes a queue may send per round of the deficit round robin." };
#[rustfmt::skip]
pub const FQ_FLOWS: ParamInfo = ParamInfo { id: "flows", name: "Flow queues", default: fq_codel::FLOWS as f64, min: limits::FQ_FLOWS.0 as f64, max: limits::FQ_FLOWS.1 as f64, step: 1.0, unit: "queues", log_scale: true, description: "Queues the flows are hashed into; with fewer queues than flows, some flows share one." };

// PIE's (RFC 8033 §4.2, §4.4).
pub const PIE_TARGET: ParamInfo = target(pie::TARGET_MS, limits::PIE_TARGET_MS);
#[rustfmt::skip]
pub const PIE_T_UPDATE: ParamInfo = ParamInfo { id: "t_update_ms", name: "Update interval", default: pie::T_UPDATE_MS, min: limits::PIE_T_UPDATE_MS.0, max: limits::PIE_T_UPDATE_MS.1, step: 1.0, unit: "ms", log_scale: true, description: "How often the drop probability is recomputed." };
#[rustfmt::skip]
pub const PIE_ALPHA: ParamInfo = ParamInfo { id: "alpha", name: "α", default: pie::ALPHA, min: limits::PIE_ALPHA_BETA.0, max: limits::PIE_ALPHA_BETA.1, step: 0.005, unit: "per second", log_scale: false, description: "Weight of the delay's distance from the target." };
#[rustfmt::skip]
pub const PIE_BETA: ParamInfo = ParamInfo { id: "beta", name: "β", default: pie::BETA, min: limits::PIE_ALPHA_BETA.0, max: limits::PIE_ALPHA_BETA.1, step: 0.05, unit: "per second", log_scale: false, description: "Weight of the delay's change since the last update." };
#[rustfmt::skip]
pub const PIE_MAX_BURST: ParamInfo = ParamInfo { id: "max_burst_ms", name: "Burst allowance", default: pie::MAX_BURST_MS, min: limits::PIE_MAX_BURST_MS.0, max: limits::PIE_MAX_BURST_MS.1, step: 5.0, unit: "ms", log_scale: false, description: "A burst arriving at an idle queue passes undropped for this long." };

/// DCTCP's K: validation bounds it by the buffer too (`settings.rs`).
#[rustfmt::skip]
pub const STEP_THRESHOLD: ParamInfo = ParamInfo { id: "threshold_pkts", name: "Marking threshold K", default: step::THRESHOLD_PKTS as f64, min: 1.0, max: limits::BUFFER_PKTS.1 as f64, step: 1.0, unit: "packets", log_scale: true, description: "Packets waiting at arrival from which a packet is marked; at most the buffer." };

// DualPI2's (Linux `sch_dualpi2.c` `dualpi2_reset_default`; RFC 9332).
pub const DUALPI2_TARGET: ParamInfo = target(dualpi2::TARGET_MS, limits::DUALPI2_TARGET_MS);
#[rustfmt::skip]
pub const DUALPI2_T_UPDATE: ParamInfo = ParamInfo { id: "t_update_ms", name: "Update interval", default: dualpi2::T_UPDATE_MS, min: limits::DUALPI2_T_UPDATE_MS.0, max: limits::DUALPI2_T_UPDATE_MS.1, step: 1.0, unit: "ms", log_scale: true, description: "How often the base probability p' is recomputed (Linux tupdate, 16 ms)." };
#[rustfmt::skip]
pub const DUALPI2_ALPHA: ParamInfo = ParamInfo { id: "alpha", name: "α", default: dualpi2::ALPHA, min: limits::DUALPI2_ALPHA_BETA.0, max: limits::DUALPI2_ALPHA_BETA.1, step: 1.0 / 256.0, unit: "per second", log_scale: true, description: "Integral gain: weight of the delay's distance from the target (Linux 41/256 Hz)." };
#[rustfmt::skip]
pub const DUALPI2_BETA: ParamInfo = ParamInfo { id: "beta", name: "β", default: dualpi2::BETA, min: limits::DUALPI2_ALPHA_BETA.0, max: limits::DUALPI2_ALPHA_BETA.1, step: 1.0 / 256.0, unit: "per second", log_scale: true, description: "Proportional gain: weight of the delay's change since the last update (Linux 819/256 Hz)." };
#[rustfmt::skip]
pub const DUALPI2_STEP_THRESH: ParamInfo = ParamInfo { id: "step_thresh_ms", name: "L4S step threshold", default: dualpi2::STEP_THRESH_MS, min: limits::DUALPI2_STEP_THRESH_MS.0, max: limits::DUALPI2_STEP_THRESH_MS.1, step: 0.1, unit: "ms", log_scale: false, description: "An L4S packet that waited longer than this is marked as it leaves (Linux step_thresh, 1 ms)." };
#[rustfmt::skip]
pub const DUALPI2_COUPLING: ParamInfo = ParamInfo { id: "coupling", name: "Coupling factor k", default: dualpi2::COUPLING as f64, min: limits::DUALPI2_COUPLING.0 as f64, max: limits::DUALPI2_COUPLING.1 as f64, step: 1.0, unit: "", log_scale: false, description: "L4S packets are marked with k·p' while classic ones see (p')²: k = 2 balances flows of equal base RTT (RFC 9332 App. C.2; recommended in §2.5.1)." };
#[rustfmt::skip]
pub const DUALPI2_C_PROTECTION: ParamInfo = ParamInfo { id: "c_protection_pct", name: "Classic queue weight", default: dualpi2::C_PROTECTION_PCT as f64, min: limits::DUALPI2_C_PROTECTION_PCT.0 as f64, max: limits::DUALPI2_C_PROTECTION_PCT.1 as f64, step: 1.0, unit: "%", log_scale: false, description: "The classic queue's share of the round robin while both queues wait (Linux c_protection, 10 %)." };
#[rustfmt::skip]
pub const DUALPI2_DROP_OVERLOAD: ParamInfo = ParamInfo { id: "drop_overload", name: "Drop on overload", default: 1.0, min: 0.0, max: 1.0, step: 1.0, unit: "on/off", log_scale: false, description: "Once k·p' exceeds 1, drop with (p')² rather than keep marking L4S packets (Linux drop_overload, on)." };

/// Every discipline, drop-tail first.
pub fn aqm_catalogue() -> Vec<AqmInfo> {
    vec![
        AqmInfo {
            kind: "drop_tail",
            name: "Drop-tail (FIFO)",
            explanation: "One first-in, first-out queue: a packet that finds the buffer full is dropped. A deep buffer keeps the link busy but fills up, and every packet then waits the whole buffer: bufferbloat.",
            citations: vec![Citation { label: "Gettys & Nichols (2011)", reference: "J. Gettys, K. Nichols, Bufferbloat: Dark Buffers in the Internet, ACM Queue 9(11), 2011" }],
            params: vec![],
        },
        AqmInfo {
            kind: "red",
            name: "RED",
            explanation: "Random Early Detection drops (or marks) arriving packets with a probability that rises with the average queue between two thresholds, so flows back off before the buffer is full. Its thresholds are in packets and must be tuned to the link.",
            citations: vec![Citation { label: "Floyd & Jacobson (1993)", reference: "S. Floyd, V. Jacobson, Random Early Detection Gateways for Congestion Avoidance, IEEE/ACM ToN 1(4), 1993; defaults of ns-2.35 tcl/lib/ns-default.tcl (thresh_ 5, maxthresh_ 15, queueWeight_ 0.002, linterm_ 10)" }],
            params: vec![RED_MIN_TH, RED_MAX_TH, RED_MAX_P, RED_WEIGHT, ECN],
        },
        AqmInfo {
            kind: "codel",
            name: "CoDel",
            explanation: "Controlled Delay watches how long each packet waited (its sojourn time). Once the wait has stayed above the target for a whole interval, it drops at dequeue, more often the longer it lasts (interval/√count), until the wait falls below the target: a short standing queue whatever the buffer size.",
            citations: vec![Citation { label: "RFC 8289", reference: "K. Nichols, V. Jacobson, A. McGregor, J. Iyengar, Controlled Delay Active Queue Management, RFC 8289, 2018" }],
            params: vec![CODEL_TARGET, CODEL_INTERVAL, ECN],
        },
        AqmInfo {
            kind: "fq_codel",
            name: "FQ-CoDel",
            explanation: "FlowQueue-CoDel gives each flow its own queue, serves them in deficit round robin with new (sparse) flows first, and runs CoDel in each. A ping or a short flow skips the bulk flows' queues, and the bulk flows share the link fairly.",
            citations: vec![Citation { label: "RFC 8290", reference: "T. Høiland-Jørgensen, P. McKenney, D. Taht, J. Gettys, E. Dumazet, The Flow Queue CoDel Packet Scheduler and Active Queue Management Algorithm, RFC 8290, 2018" }],
            params: vec![CODEL_TARGET, CODEL_INTERVAL, FQ_QUANTUM, FQ_FLOWS, ECN],
        },
        AqmInfo {
            kind: "pie",
            name: "PIE",
            explanation: "Proportional Integral controller Enhanced estimates the queueing delay and, every update interval, moves a drop probability up or down by how far the delay is from the target and how fast it is changing; arriving packets are dropped with that probability. It lets short bursts through.",
            citations: vec![Citation { label: "RFC 8033", reference: "R. Pan, P. Natarajan, F. Baker, G. White, Proportional Integral Controller Enhanced (PIE), RFC 8033, 2017" }],
            params: vec![
                PIE_TARGET,
                PIE_T_UPDATE,
                PIE_ALPHA,
                PIE_BETA,
                PIE_MAX_BURST,
                ECN,
            ],
        },
        AqmInfo {
            kind: "step_mark",
            name: "Step marking (DCTCP)",
            explanation: "The data-centre switch DCTCP expects: every packet that arrives to find at least K packets waiting is marked Congestion Experienced (always ECN); packets are dropped only when the buffer is full. DCTCP senders cut their window by the fraction of marks, so the queue hovers near K.",
            citations: vec![
                Citation { label: "RFC 8257", reference: "S. Bensley et al., Data Center TCP (DCTCP): TCP Congestion Control for Data Centers, RFC 8257, 2017, §3.1" },
                Citation { label: "Alizadeh et al. (2010)", reference: "M. Alizadeh et al., Data Center TCP (DCTCP), SIGCOMM 2010: K = 20 packets at 1 Gb/s" },
            ],
            params: vec![STEP_THRESHOLD],
        },
        AqmInfo {
            kind: "dualpi2",
            name: "DualPI2 (L4S)",
            explanation: "The L4S dual queue. Packets marked ECT(1) (TCP Prague) wait in a low-latency queue, the rest (classic TCP, pings) in a classic queue. A PI controller watches the queueing delay and moves a base probability p' so that the classic queue stays near its 15 ms target; classic packets are dropped or marked with probability p'², L4S packets marked with probability 2·p', and also whenever they waited more than 1 ms. Squaring suits classic TCP's 1/√p response and the linear mark suits scalable 1/p senders, so the two kinds share the link about equally while L4S packets see about a millisecond of queue. A weighted round robin gives the low-latency queue priority but always leaves the classic queue 10 %.",
            citations: vec![
                Citation { label: "RFC 9332", reference: "K. De Schepper, B. Briscoe, G. White, Dual-Queue Coupled Active Queue Management (AQM) for Low Latency, Low Loss, and Scalable Throughput (L4S), RFC 9332, 2023" },
                Citation { label: "De Schepper et al. (2016)", reference: "K. De Schepper, O. Bondarenko, I.-J. Tsang, B. Briscoe, PI²: A Linearized AQM for both Classic and Scalable TCP, ACM CoNEXT 2016" },
                Citation { label: "Linux sch_dualpi2.c", reference: "Linux net/sched/sch_dualpi2.c (merged in 6.17; read at 6.18): dualpi2_reset_default (target 15 ms, tupdate 16 ms, alpha 41/256 Hz, beta 819/256 Hz, step 1 ms, coupling 2, c_protection 10 %, drop_overload), calculate_probability, must_drop, dequeue_packet, do_step_aqm" },
            ],
            params: vec![
                DUALPI2_TARGET,
                DUALPI2_T_UPDATE,
                DUALPI2_ALPHA,
                DUALPI2_BETA,
                DUALPI2_STEP_THRESH,
                DUALPI2_COUPLING,
                DUALPI2_C_PROTECTION,
                DUALPI2_DROP_OVERLOAD,
            ],
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{Aqm, Scenario};

    /// Each kind's defaults, set explicitly, make a valid scenario; and the
    /// catalogue's kinds are exactly the scenario's.
    #[test]
    fn every_kind_with_its_catalogue_defaults_is_valid() {
        let kinds: Vec<&str> = aqm_catalogue().iter().map(|a| a.kind).collect();
        assert_eq!(
            kinds,
            [
                "drop_tail",
                "red",
                "codel",
                "fq_codel",
                "pie",
                "step_mark",
                "dualpi2"
            ]
        );
        for info in aqm_catalogue() {
            let mut aqm = serde_json::Map::new();
            aqm.insert("kind".into(), info.kind.into());
            for p in &info.params {
                assert!(
                    p.min <= p.default && p.default <= p.max,
                    "{} {}",
                    info.kind,
                    p.id
                );
                let v = if p.unit == "on/off" {
                    serde_json::Value::Bool(p.default != 0.0)
                } else if p.step.fract() == 0.0 && p.default.fract() == 0.0 {
                    // Whole-number parameters are integers in the scenario (as JavaScript writes them).
                    serde_json::json!(p.default as i64)
                } else {
                    serde_json::json!(p.default)
                };
                aqm.insert(p.id.into(), v);
            }
            let aqm: Aqm = serde_json::from_value(serde_json::Value::Object(aqm)).expect(info.kind);
            let mut s = Scenario::jumbo_gigabit();
            s.bottleneck.aqm = aqm;
            assert_eq!(s.validate(), vec![], "{}", info.kind);
        }
    }

    /// The controls show the RFCs' defaults (a wrong constant fails here).
    #[test]
    fn defaults_are_the_rfcs() {
        let cat = aqm_catalogue();
        let get = |kind: &str, id: &str| {
            cat.iter()
                .find(|a| a.kind == kind)
                .unwrap()
                .params
                .iter()
                .find(|p| p.id == id)
                .unwrap()
                .default
        };
        assert_eq!(get("codel", "target_ms"), 5.0); // RFC 8289 §4.3
        assert_eq!(get("codel", "interval_ms"), 100.0); // RFC 8289 §4.2
        assert_eq!(get("fq_codel", "quantum_bytes"), 1514.0); // RFC 8290 §5.1
        assert_eq!(get("fq_codel", "flows"), 1024.0); // RFC 8290 §5.1
        assert_eq!(get("pie", "target_ms"), 15.0); // RFC 8033 §4.2 QDELAY_REF
        assert_eq!(get("pie", "t_update_ms"), 15.0); // RFC 8033 §4.2 T_UPDATE
        assert_eq!(get("pie", "alpha"), 0.125);
        assert_eq!(get("pie", "beta"), 1.25);
        assert_eq!(get("pie", "max_burst_ms"), 150.0); // RFC 8033 §4.4 MAX_BURST
        assert_eq!(get("step_mark", "threshold_pkts"), 20.0); // DCTCP paper, 1 Gb/s
                                                              // Linux sch_dualpi2.c dualpi2_reset_default.
        assert_eq!(get("dualpi2", "target_ms"), 15.0);
        assert_eq!(get("dualpi2", "t_update_ms"), 16.0);
        assert_eq!(get("dualpi2", "alpha"), 41.0 / 256.0);
        assert_eq!(get("dualpi2", "beta"), 819.0 / 256.0);
        assert_eq!(get("dualpi2", "step_thresh_ms"), 1.0);
        assert_eq!(get("dualpi2", "coupling"), 2.0);
        assert_eq!(get("dualpi2", "c_protection_pct"), 10.0);
        assert_eq!(get("dualpi2", "drop_overload"), 1.0);
    }
}
