//! Each discipline's scenario fields, read in one place: every field is
//! checked against its range and, when omitted, takes its default, both
//! from the field's constant in the catalogue (`catalogue.rs`, what the
//! app's controls show); RED's thresholds and DCTCP's K are bounded by the
//! buffer as well. Validation (`Scenario::validate`) keeps the problems and
//! construction (`Bottleneck::new`) the settings, so the two cannot read a
//! field differently.

use super::catalogue::{
    CODEL_INTERVAL, CODEL_TARGET, DUALPI2_ALPHA, DUALPI2_BETA, DUALPI2_COUPLING,
    DUALPI2_C_PROTECTION, DUALPI2_DROP_OVERLOAD, DUALPI2_STEP_THRESH, DUALPI2_TARGET,
    DUALPI2_T_UPDATE, ECN, FQ_FLOWS, FQ_QUANTUM, PIE_ALPHA, PIE_BETA, PIE_MAX_BURST, PIE_TARGET,
    PIE_T_UPDATE, RED_MAX_P, RED_MAX_TH, RED_MIN_TH, RED_WEIGHT, STEP_THRESHOLD,
};
use super::codel::CodelParams;
use super::dualpi2::DualPi2Params;
use super::pie::{PiParams, PieParams};
use super::red::Red;
use super::step::StepMark;
use crate::cc::ParamInfo;
use crate::scenario::{range_message, Aqm, ValidationError};

/// A discipline's settings with every default filled in.
#[derive(Clone, Debug)]
pub enum Settings {
    DropTail,
    Red(Red),
    Codel(CodelParams),
    FqCodel {
        codel: CodelParams,
        quantum_bytes: u32,
        flows: u32,
    },
    Pie(PieParams),
    StepMark(StepMark),
    DualPi2(DualPi2Params),
}

/// The PI controllers' fields, as [`Reader::pi`] takes them: the target,
/// the update interval, alpha and beta.
const PIE_PI: [&ParamInfo; 4] = [&PIE_TARGET, &PIE_T_UPDATE, &PIE_ALPHA, &PIE_BETA];
const DUALPI2_PI: [&ParamInfo; 4] = [
    &DUALPI2_TARGET,
    &DUALPI2_T_UPDATE,
    &DUALPI2_ALPHA,
    &DUALPI2_BETA,
];

/// A millisecond setting in integer nanoseconds.
fn ns(ms: f64) -> u64 {
    crate::units::ms_to_ns(ms)
}

/// Reads fields, collecting those out of range.
#[derive(Default)]
struct Reader {
    problems: Vec<ValidationError>,
}

impl Reader {
    /// `given`, or `p`'s default, checked against `range` (an omitted
    /// field's default too, shown as such: the buffer may be below it).
    fn number(&mut self, p: &ParamInfo, given: Option<f64>, range: (f64, f64), unit: &str) -> f64 {
        let value = given.unwrap_or(p.default);
        if !(value >= range.0 && value <= range.1) {
            self.problems.push(ValidationError {
                field: format!("bottleneck.aqm.{}", p.id),
                value: given.map_or_else(|| format!("(default {})", p.default), |x| x.to_string()),
                message: range_message(range, unit),
            });
        }
        value
    }

    /// A real-valued field in its catalogue range.
    fn real(&mut self, p: &ParamInfo, given: Option<f64>) -> f64 {
        self.number(p, given, (p.min, p.max), p.unit)
    }

    /// A whole-number field in its catalogue range.
    fn whole(&mut self, p: &ParamInfo, given: Option<u32>) -> u32 {
        self.number(p, given.map(f64::from), (p.min, p.max), p.unit) as u32
    }

    /// A millisecond field in its catalogue range, in nanoseconds.
    fn duration_ns(&mut self, p: &ParamInfo, given: Option<f64>) -> u64 {
        ns(self.real(p, given))
    }

    fn flag(p: &ParamInfo, given: Option<bool>) -> bool {
        given.unwrap_or(p.default != 0.0)
    }

    /// A PI controller's settings (PIE's, DualPI2's): `info` and `given`
    /// hold its target, update interval, alpha and beta, in that order
    /// (as [`PIE_PI`] and [`DUALPI2_PI`] list them).
    fn pi(&mut self, info: [&ParamInfo; 4], given: [Option<f64>; 4]) -> PiParams {
        PiParams {
            target_ns: self.duration_ns(info[0], given[0]),
            t_update_ns: self.duration_ns(info[1], given[1]).max(1),
            alpha: self.real(info[2], given[2]),
            beta: self.real(info[3], given[3]),
        }
    }

    /// CoDel's settings (also each FQ-CoDel queue's).
    fn codel(
        &mut self,
        target_ms: Option<f64>,
        interval_ms: Option<f64>,
        ecn: Option<bool>,
        queue_mtu_bytes: u64,
    ) -> CodelParams {
        CodelParams {
            target_ns: self.duration_ns(&CODEL_TARGET, target_ms),
            interval_ns: self.duration_ns(&CODEL_INTERVAL, interval_ms).max(1),
            maxpacket_bytes: queue_mtu_bytes,
            ecn: Self::flag(&ECN, ecn),
        }
    }
}

/// `aqm`'s settings at a bottleneck of `buffer_pkts`, and the problems
/// with its fields (empty for a valid scenario). `queue_mtu_bytes` is a
/// full-size data packet as the queue counts it (CoDel's MAXPACKET, PIE's
/// MEAN_PKTSIZE).
pub fn read(aqm: &Aqm, buffer_pkts: u32, queue_mtu_bytes: u64) -> (Settings, Vec<ValidationError>) {
    let mut r = Reader::default();
    let settings = match *aqm {
        Aqm::DropTail {} => Settings::DropTail,
        Aqm::Red {
            min_th_pkts,
            max_th_pkts,
            max_p,
            weight,
            ecn,
        } => {
            // RED's fields have no defaults. Its thresholds lie within the
            // buffer, and a fraction's range needs no unit.
            // Each threshold is first checked against the buffer alone, and
            // the maximum against the minimum only when both are in it: an
            // out-of-range minimum must not give the maximum an impossible
            // range ("between 50 and 40"), nor one field two errors.
            let buffer = buffer_pkts as f64;
            let problems_before = r.problems.len();
            let min_th = r.number(
                &RED_MIN_TH,
                Some(min_th_pkts),
                (RED_MIN_TH.min, buffer),
                RED_MIN_TH.unit,
            );
            let min_ok = r.problems.len() == problems_before;
            let max_th = r.number(
                &RED_MAX_TH,
                Some(max_th_pkts),
                (RED_MAX_TH.min, buffer),
                RED_MAX_TH.unit,
            );
            let both_ok = min_ok && r.problems.len() == problems_before;
            if both_ok && max_th <= min_th {
                r.problems.push(ValidationError {
                    field: format!("bottleneck.aqm.{}", RED_MAX_TH.id),
                    value: max_th.to_string(),
                    message: format!(
                        "must be greater than {} ({min_th} packets) and at most the buffer ({buffer} packets)",
                        RED_MIN_TH.id
                    ),
                });
            }
            let max_p = r.number(&RED_MAX_P, Some(max_p), (RED_MAX_P.min, RED_MAX_P.max), "");
            let weight = r.number(
                &RED_WEIGHT,
                Some(weight),
                (RED_WEIGHT.min, RED_WEIGHT.max),
                "",
            );
            Settings::Red(Red::new(min_th, max_th, max_p, weight, ecn))
        }
        Aqm::Codel {
            target_ms,
            interval_ms,
            ecn,
        } => Settings::Codel(r.codel(target_ms, interval_ms, ecn, queue_mtu_bytes)),
        Aqm::FqCodel {
            target_ms,
            interval_ms,
            quantum_bytes,
            flows,
            ecn,
        } => Settings::FqCodel {
            codel: r.codel(target_ms, interval_ms, ecn, queue_mtu_bytes),
            quantum_bytes: r.whole(&FQ_QUANTUM, quantum_bytes),
            flows: r.whole(&FQ_FLOWS, flows),
        },
        Aqm::Pie {
            target_ms,
            t_update_ms,
            alpha,
            beta,
            max_burst_ms,
            ecn,
        } => Settings::Pie(PieParams {
            pi: r.pi(PIE_PI, [target_ms, t_update_ms, alpha, beta]),
            max_burst_ns: r.duration_ns(&PIE_MAX_BURST, max_burst_ms),
            ecn: Reader::flag(&ECN, ecn),
            mean_pkt_bytes: queue_mtu_bytes,
        }),
        Aqm::StepMark { threshold_pkts } => {
            let range = (STEP_THRESHOLD.min, buffer_pkts.max(1) as f64);
            let given = threshold_pkts.map(f64::from);
            let k = r.number(
                &STEP_THRESHOLD,
                given,
                range,
                "packets (at most buffer_pkts)",
            );
            Settings::StepMark(StepMark {
                threshold_pkts: k as u32,
            })
        }
        Aqm::DualPi2 {
            target_ms,
            t_update_ms,
            alpha,
            beta,
            step_thresh_ms,
            coupling,
            c_protection_pct,
            drop_overload,
        } => Settings::DualPi2(DualPi2Params {
            pi: r.pi(DUALPI2_PI, [target_ms, t_update_ms, alpha, beta]),
            step_thresh_ns: r.duration_ns(&DUALPI2_STEP_THRESH, step_thresh_ms),
            coupling: r.whole(&DUALPI2_COUPLING, coupling).max(1),
            c_protection_pct: r.whole(&DUALPI2_C_PROTECTION, c_protection_pct).min(100),
            drop_overload: Reader::flag(&DUALPI2_DROP_OVERLOAD, drop_overload),
            mtu_bytes: queue_mtu_bytes,
        }),
    };
    (settings, r.problems)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Omitted fields take the catalogue's defaults, the RFCs' values.
    #[test]
    fn omitted_fields_take_the_defaults() {
        let aqm = Aqm::FqCodel {
            target_ms: None,
            interval_ms: Some(50.0),
            quantum_bytes: None,
            flows: None,
            ecn: None,
        };
        let (settings, problems) = read(&aqm, 1000, 1514);
        assert!(problems.is_empty());
        let Settings::FqCodel {
            codel,
            quantum_bytes,
            flows,
        } = settings
        else {
            panic!("{settings:?}");
        };
        assert_eq!(codel.target_ns, 5_000_000);
        assert_eq!(codel.interval_ns, 50_000_000);
        assert_eq!(codel.maxpacket_bytes, 1514);
        assert!(!codel.ecn);
        assert_eq!((quantum_bytes, flows), (1514, 1024));
    }

    /// RED's thresholds: each in the buffer, the maximum above the
    /// minimum; a bad minimum never gives the maximum an impossible range,
    /// and no field gets two errors.
    #[test]
    fn red_thresholds_get_one_possible_range_each() {
        let red = |min_th_pkts: f64, max_th_pkts: f64| Aqm::Red {
            min_th_pkts,
            max_th_pkts,
            max_p: 0.1,
            weight: 0.002,
            ecn: false,
        };
        let problems = |min: f64, max: f64| {
            read(&red(min, max), 40, 1514)
                .1
                .into_iter()
                .map(|p| format!("{} = {}: {}", p.field, p.value, p.message))
                .collect::<Vec<_>>()
        };
        assert!(problems(5.0, 15.0).is_empty());
        // The minimum above the buffer: only the minimum is wrong.
        assert_eq!(
            problems(50.0, 15.0),
            ["bottleneck.aqm.min_th_pkts = 50: must be between 1 and 40 packets"]
        );
        // The maximum below the minimum: one error, saying both bounds.
        assert_eq!(
            problems(20.0, 5.0),
            ["bottleneck.aqm.max_th_pkts = 5: must be greater than min_th_pkts (20 packets) and at most the buffer (40 packets)"]
        );
        // The maximum above the buffer: its range is the buffer's.
        assert_eq!(
            problems(20.0, 60.0),
            ["bottleneck.aqm.max_th_pkts = 60: must be between 1 and 40 packets"]
        );
    }

    /// PIE's omitted fields take RFC 8033's defaults (§4.2, §4.4), each
    /// in its place.
    #[test]
    fn pie_reads_rfc_8033s_defaults() {
        let (settings, problems) = read(&Aqm::pie_defaults(), 1000, 1514);
        assert!(problems.is_empty(), "{problems:?}");
        let Settings::Pie(p) = settings else {
            panic!("{settings:?}");
        };
        assert_eq!(
            (p.pi.target_ns, p.pi.t_update_ns, p.max_burst_ns),
            (15_000_000, 15_000_000, 150_000_000)
        );
        assert_eq!((p.pi.alpha, p.pi.beta), (0.125, 1.25));
        assert_eq!((p.ecn, p.mean_pkt_bytes), (false, 1514));
    }

    /// DualPI2's omitted fields take Linux's defaults; a field out of range
    /// is named with its range.
    #[test]
    fn dualpi2_reads_linuxs_defaults_and_names_bad_fields() {
        let aqm = Aqm::dualpi2_defaults();
        let (settings, problems) = read(&aqm, 1000, 1514);
        assert!(problems.is_empty(), "{problems:?}");
        let Settings::DualPi2(p) = settings else {
            panic!("{settings:?}");
        };
        assert_eq!(
            (p.pi.target_ns, p.pi.t_update_ns, p.step_thresh_ns),
            (15_000_000, 16_000_000, 1_000_000)
        );
        assert_eq!((p.pi.alpha, p.pi.beta), (41.0 / 256.0, 819.0 / 256.0));
        assert_eq!(
            (p.coupling, p.c_protection_pct, p.drop_overload),
            (2, 10, true)
        );
        assert_eq!(p.mtu_bytes, 1514);
        let bad = Aqm::DualPi2 {
            target_ms: None,
            t_update_ms: None,
            alpha: Some(0.0),
            beta: None,
            step_thresh_ms: None,
            coupling: Some(0),
            c_protection_pct: Some(101),
            drop_overload: None,
        };
        let (_, problems) = read(&bad, 1000, 1514);
        let fields: Vec<&str> = problems.iter().map(|p| p.field.as_str()).collect();
        assert_eq!(
            fields,
            [
                "bottleneck.aqm.alpha",
                "bottleneck.aqm.coupling",
                "bottleneck.aqm.c_protection_pct"
            ]
        );
        assert_eq!(problems[1].message, "must be between 1 and 255");
    }

    /// DCTCP's default K (20) is checked against a smaller buffer, and
    /// said to be the default.
    #[test]
    fn a_default_over_the_buffer_is_reported_as_the_default() {
        let aqm = Aqm::StepMark {
            threshold_pkts: None,
        };
        let (_, problems) = read(&aqm, 10, 1514);
        assert_eq!(problems.len(), 1);
        assert_eq!(problems[0].field, "bottleneck.aqm.threshold_pkts");
        assert_eq!(problems[0].value, "(default 20)");
        assert_eq!(
            problems[0].message,
            "must be between 1 and 10 packets (at most buffer_pkts)"
        );
    }
}
