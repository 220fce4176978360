//! Runs that went wrong (issue 23): a run whose retransmissions, timeouts
//! or idle link are extreme for its scenario is flagged with a plain
//! sentence saying what happened and which setting is the likely cause,
//! so the page never shows it as an ordinary result.
//!
//! The thresholds are the project's, not a paper's, chosen to separate a
//! working transfer from a broken one by a wide margin:
//! * retransmissions: more than 5 % of a flow's segments (and at least
//!   [`MIN_RETRANSMITS`]), or three times its random loss if that is
//!   higher — a loss-based flow in its sawtooth retransmits about one
//!   segment per cycle, far below 1 % at these windows (Mathis et al.,
//!   CCR 1997: p ≈ 1.5 / W²);
//! * timeouts: at least [`MIN_TIMEOUTS`] and one per 5 s of the flow's
//!   life — SACK recovery (RFC 6675) repairs ordinary losses without one;
//! * an idle link: nothing delivered for at least 1 s and 20 round trips
//!   while a flow was active, after the first second of its life.

use crate::record::{col, Recorder};
use crate::scenario::{Aqm, Scenario};
use crate::summary::{FlagKind, RunFlag, Summary};

/// A flow retransmitting more than this share of its segments is flagged.
pub const RETRANSMISSION_SHARE: f64 = 0.05;
/// … and at least this many segments (a handful in a short run is noise).
pub const MIN_RETRANSMITS: u64 = 20;
/// A flow with at least this many timeouts, and one per
/// [`SECONDS_PER_TIMEOUT`] of its life, is flagged.
pub const MIN_TIMEOUTS: u64 = 3;
pub const SECONDS_PER_TIMEOUT: f64 = 5.0;
/// The link idle this long (and [`IDLE_ROUND_TRIPS`] round trips) while a
/// flow is active is flagged.
pub const IDLE_S: f64 = 1.0;
pub const IDLE_ROUND_TRIPS: f64 = 20.0;

/// The flags of a finished (or stopped) run.
pub fn flag_run(s: &Scenario, summary: &Summary, rec: &Recorder) -> Vec<RunFlag> {
    let mut flags = Vec::new();
    let cause = likely_cause(s);
    let flows: Vec<_> = s.hosts.iter().flat_map(|h| &h.flows).collect();
    for (f, fs) in summary.flows.iter().enumerate() {
        let threshold = RETRANSMISSION_SHARE.max(3.0 * s.loss_rate);
        if fs.retransmits >= MIN_RETRANSMITS && fs.retransmission_rate > threshold {
            flags.push(RunFlag {
                kind: FlagKind::Retransmissions,
                flow: Some(fs.flow),
                text: format!(
                    // Counted from 1 here, from 0 in `flow` and on the page: the
                    // stored digests hash the summary with these sentences, and
                    // the shipped faithful results are stamped with them, so
                    // renumbering would stale every results file.
                    "Flow {} retransmitted {:.1} % of its segments ({} of them){}.",
                    fs.flow + 1,
                    fs.retransmission_rate * 100.0,
                    fs.retransmits,
                    cause.as_deref().map_or(String::new(), |c| format!("; {c}"))
                ),
            });
        }
        let spec = flows.get(f);
        let start_s = spec.map_or(0.0, |x| x.start_ms / 1e3);
        let stop_s = spec
            .and_then(|x| x.stop_ms)
            .map_or(summary.duration_s, |ms| ms / 1e3)
            .min(summary.duration_s);
        let life_s = (stop_s - start_s).max(0.0);
        if fs.timeouts >= MIN_TIMEOUTS && fs.timeouts as f64 * SECONDS_PER_TIMEOUT >= life_s {
            flags.push(RunFlag {
                kind: FlagKind::Timeouts,
                flow: Some(fs.flow),
                text: format!(
                    "Flow {} waited for {} retransmission timeouts in {:.1} s{}.",
                    fs.flow + 1,
                    fs.timeouts,
                    life_s,
                    cause.as_deref().map_or(String::new(), |c| format!("; {c}"))
                ),
            });
        }
    }
    if let Some((from_s, to_s)) = longest_idle_stretch(s, rec) {
        let waited = summary.flows.iter().any(|f| f.timeouts > 0);
        flags.push(RunFlag {
            kind: FlagKind::IdleLink,
            flow: None,
            text: format!(
                "The link carried nothing from {:.1} s to {:.1} s while a flow was active{}.",
                from_s,
                to_s,
                match (cause.as_deref(), waited) {
                    (Some(c), _) => format!("; {c}"),
                    (None, true) =>
                        " (its senders were waiting for retransmission timeouts)".into(),
                    (None, false) => String::new(),
                }
            ),
        });
    }
    flags
}

/// The setting most likely behind losses and timeouts, in words.
fn likely_cause(s: &Scenario) -> Option<String> {
    if s.loss_rate > 0.0 {
        return Some(format!(
            "loss_rate drops {} % of packets at random",
            crate::resources::group_thousands(s.loss_rate * 100.0)
        ));
    }
    if !matches!(s.bottleneck.aqm, Aqm::DropTail {}) {
        return Some(format!(
            "the bottleneck's queue discipline ({}) drops or marks early; try its defaults or drop-tail",
            s.bottleneck.aqm.kind()
        ));
    }
    let bdp = s.bdp_pkts();
    let buffer = s.bottleneck.buffer_pkts as f64;
    if buffer < 0.1 * bdp {
        return Some(format!(
            "bottleneck.buffer_pkts ({}) is under a tenth of the bandwidth-delay product ({} packets)",
            s.bottleneck.buffer_pkts,
            crate::resources::group_thousands(bdp.round())
        ));
    }
    None
}

/// The longest stretch of samples in which no flow delivered anything
/// while one was active (after its first second), if it lasts at least
/// [`IDLE_S`] and [`IDLE_ROUND_TRIPS`] round trips: (from, to) in seconds.
fn longest_idle_stretch(s: &Scenario, rec: &Recorder) -> Option<(f64, f64)> {
    let t = rec.column("t_s")?;
    let flows: Vec<_> = s.hosts.iter().flat_map(|h| &h.flows).collect();
    let min_s = IDLE_S.max(IDLE_ROUND_TRIPS * s.rtt_ms / 1e3);
    let interval_s = s.sample_interval_ms / 1e3;
    let mut best: Option<(f64, f64)> = None;
    let mut from: Option<f64> = None;
    for (r, &now) in t.iter().enumerate() {
        let active = flows.iter().any(|f| {
            let start = f.start_ms / 1e3 + 1.0;
            let stop = f.stop_ms.map_or(f64::INFINITY, |ms| ms / 1e3);
            now > start && now <= stop
        });
        let delivering = (0..flows.len()).any(|f| {
            rec.flow_column(f, col::THROUGHPUT_BPS)
                .get(r)
                .is_some_and(|&b| b > 0.0)
        });
        if active && !delivering {
            // The sample covers the interval before it.
            from.get_or_insert(now - interval_s);
        } else if let Some(start) = from.take() {
            best = longer(best, (start, now - interval_s));
        }
    }
    if let (Some(start), Some(&end)) = (from, t.last()) {
        best = longer(best, (start, end));
    }
    best.filter(|(a, b)| b - a >= min_s - 1e-9)
}

fn longer(best: Option<(f64, f64)>, next: (f64, f64)) -> Option<(f64, f64)> {
    match best {
        Some(b) if b.1 - b.0 >= next.1 - next.0 => Some(b),
        _ => Some(next),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::Simulation;

    fn run(s: &Scenario) -> Summary {
        let mut sim = Simulation::new(s).expect("valid");
        sim.run_to_end()
    }

    #[test]
    fn an_ordinary_run_has_no_flags() {
        let mut s = Scenario::jumbo_gigabit();
        s.duration_ms = 5_000.0;
        assert_eq!(run(&s).flags, None);
    }

    /// 20 % random loss: retransmitting about 20 % is what the loss asks
    /// for, not flagged; the timeouts are, naming the loss as the cause.
    #[test]
    fn heavy_random_loss_is_flagged_and_named_as_the_cause() {
        let mut s = Scenario::jumbo_gigabit();
        s.duration_ms = 30_000.0;
        s.loss_rate = 0.2;
        let flags = run(&s).flags.expect("flagged");
        let kinds: Vec<FlagKind> = flags.iter().map(|f| f.kind).collect();
        assert!(!kinds.contains(&FlagKind::Retransmissions), "{flags:?}");
        let timeouts = flags
            .iter()
            .find(|f| f.kind == FlagKind::Timeouts)
            .unwrap_or_else(|| panic!("{flags:?}"));
        assert_eq!(timeouts.flow, Some(0));
        assert!(
            timeouts.text.starts_with("Flow 1 waited for "),
            "{}",
            timeouts.text
        );
        assert!(
            timeouts.text.contains("loss_rate drops 20 %"),
            "{}",
            timeouts.text
        );
    }

    /// Sixty-four flows through a 10 Mb/s link with a 2-packet buffer:
    /// each flow's share is under one packet per round trip, so much of
    /// what each sends is lost and sent again, and the buffer is named.
    #[test]
    fn retransmitting_much_of_a_flow_is_flagged() {
        let mut s = Scenario::jumbo_gigabit();
        // The plain model: with Linux 2.4's 3-s initial RTO and HZ ticks,
        // flows that lose their first flight time out in step and most
        // never deliver (flagged for timeouts instead).
        s.profile = "sawtooth-1".into();
        s.duration_ms = 20_000.0;
        s.mtu_bytes = 1500;
        s.bottleneck.rate_bps = 10e6;
        s.bottleneck.buffer_pkts = 2;
        let flow = s.hosts[0].flows[0].clone();
        s.hosts[0].flows = vec![flow; 64];
        let summary = run(&s);
        let flags = summary.flags.clone().unwrap_or_default();
        let retransmissions: Vec<_> = flags
            .iter()
            .filter(|f| f.kind == FlagKind::Retransmissions)
            .collect();
        assert!(!retransmissions.is_empty(), "{flags:?} {:?}", summary.flows);
        for f in &retransmissions {
            let fs = &summary.flows[f.flow.unwrap() as usize];
            assert!(fs.retransmission_rate > RETRANSMISSION_SHARE);
            assert!(f.text.contains("bottleneck.buffer_pkts (2)"), "{}", f.text);
        }
    }

    /// Half the packets lost on a 1-s path: the sender spends most of the
    /// run waiting for backed-off timeouts with nothing on the link.
    #[test]
    fn a_link_left_idle_by_timeouts_is_flagged() {
        let mut s = Scenario::jumbo_gigabit();
        s.duration_ms = 60_000.0;
        s.rtt_ms = 200.0;
        s.loss_rate = 0.5;
        let flags = run(&s).flags.expect("flagged");
        let idle = flags
            .iter()
            .find(|f| f.kind == FlagKind::IdleLink)
            .unwrap_or_else(|| panic!("{flags:?}"));
        assert_eq!(idle.flow, None);
        assert!(
            idle.text.starts_with("The link carried nothing from "),
            "{}",
            idle.text
        );
    }

    #[test]
    fn the_likely_cause_names_the_setting() {
        let mut s = Scenario::jumbo_gigabit();
        assert_eq!(likely_cause(&s), None);
        s.bottleneck.buffer_pkts = 10;
        let c = likely_cause(&s).unwrap();
        assert!(
            c.starts_with("bottleneck.buffer_pkts (10) is under a tenth"),
            "{c}"
        );
        s.bottleneck.aqm = Aqm::pie_defaults();
        assert!(likely_cause(&s).unwrap().contains("(pie)"));
    }
}
