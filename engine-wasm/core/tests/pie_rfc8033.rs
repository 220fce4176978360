//! PIE (RFC 8033) end to end with one long flow: 10 Mb/s, 100 ms, a
//! 650-packet buffer, 60 s, the `linux-6` profile.
//!
//! PIE's own rules are pinned in closed form by the unit tests of
//! `aqm/pie.rs` (the §4.2 update with its auto-tuning table, updates every
//! 15 ms from the run's start and decay by 1/64, the §4.4 burst allowance, the §4.1
//! safeguards, §5.1 ECN, §5.4 derandomisation as Linux's `pie_drop_early`,
//! §5.5 cap).
//! This file holds what the whole simulation does with them.

use sawtooth_core::profile::RtoRestartRule;
use sawtooth_core::scenario::{Aqm, Flow};
use sawtooth_core::summary::Summary;
use sawtooth_core::{Scenario, Simulation};

fn one_flow_under_pie(algorithm: &str) -> Scenario {
    let mut s = Scenario::jumbo_gigabit();
    s.profile = "linux-6".into();
    s.mtu_bytes = 1500;
    s.rtt_ms = 100.0;
    s.duration_ms = 60_000.0;
    s.bottleneck.rate_bps = 10e6;
    s.bottleneck.buffer_pkts = 650;
    s.bottleneck.aqm = Aqm::pie_defaults();
    s.hosts[0].flows = vec![Flow::new(algorithm, 16 << 20)];
    s
}

fn run(s: &Scenario) -> Summary {
    let mut sim = Simulation::new(s).unwrap();
    let summary = sim.run_to_end();
    assert!(sim.packet_accounting().is_conserved());
    summary
}

/// Issue 23's run: with PIE a long flow used to resend 35–40 % of its
/// packets with tens of timeouts. Not PIE's fault (its rules match RFC
/// 8033): after slow start's overshoot and a timeout, the sender kept its
/// first ssthresh for every later timeout in Loss, where Linux's
/// `tcp_enter_loss` cuts again once the retransmissions made progress
/// (`ca_state == TCP_CA_Loss && !retransmits`), so the flow grew back to a
/// stale ssthresh after each timeout and PIE held its probability near 0.4.
/// With the rule, the timeouts are those of slow start's overshoot.
///
/// Still short of issue 23's aim (below 2 % and no timeout for every
/// algorithm), and the aim is not a bound here. With PIE as Linux's
/// `sch_pie.c` resolves RFC 8033's choices (derandomisation, decay by
/// 1/64; its timer already running when the flow starts), seed 1 resends
/// 1.8 % (CUBIC) and 4.5 % (Reno) with one or two timeouts, nearly all of it in the first 5 s:
/// slow start's overshoot holds the queue at 240 ms (CUBIC) to 460 ms
/// (Reno), the probability climbs 2 % an update (§5.5), for Reno up to 1,
/// and above 10 %, unscaled by §4.2's table, it falls by only
/// α·(target − qdelay) an update once the queue is short.
/// The bounds guard against the collapse, an order of magnitude away.
#[test]
fn one_flow_under_pie_recovers_from_slow_start_and_keeps_the_link_busy() {
    for algorithm in ["cubic", "reno"] {
        let summary = run(&one_flow_under_pie(algorithm));
        let f = &summary.flows[0];
        assert!(
            f.retransmission_rate < 0.1,
            "{algorithm}: {:.2} % resent",
            100.0 * f.retransmission_rate
        );
        assert!(f.timeouts <= 8, "{algorithm}: {} timeouts", f.timeouts);
        assert!(
            summary.utilisation >= 0.7,
            "{algorithm}: {:.1} % of the link",
            100.0 * summary.utilisation
        );
    }
}

/// Issue 23's PIE + ECN Reno run (seed 1): slow start's overshoot leaves
/// PIE dropping (its probability above the 10 % ECN threshold) while the
/// queue drains, and the head segment (639) is lost four times. RACK finds
/// each lost retransmission once later-sent data is SACKed and resends it;
/// the question is only which timer is running meanwhile. RFC 6298 §5.3
/// restarts it only on an ACK of new data: armed at the last one (1.35 s),
/// it fired at 1.93 s, 105 ms after the head's third transmission, and the
/// fourth, sent with cwnd 1 and nothing after it to be SACKed, was lost
/// too: a second timeout at 2.64 s. Linux restarts the timer whenever it
/// resends the head (`tcp_xmit_retransmit_queue`, the `rto_restart`
/// switch, on in `linux-6`), so each resent head has a full RTO, RACK's
/// next SACK comes first, and the run has no timeout. The run with the
/// switch turned back is the one before the switch existed.
#[test]
fn linux_6_gives_a_resent_head_segment_a_full_rto() {
    let mut s = one_flow_under_pie("reno");
    if let Aqm::Pie { ecn, .. } = &mut s.bottleneck.aqm {
        *ecn = Some(true);
    }
    let linux = run(&s);
    assert_eq!(linux.flows[0].timeouts, 0, "restart on a resent head");

    s.mechanisms.rto_restart = Some(RtoRestartRule::Ack);
    let rfc = run(&s);
    assert_eq!(rfc.flows[0].timeouts, 2, "restart only on an ACK");
}
