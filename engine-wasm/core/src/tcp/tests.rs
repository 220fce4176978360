//! The sender driven by hand-built ACKs: each rule a profile switches,
//! checked against what the kernels (or RFCs) do, step by step.

use super::*;
use crate::cc::{self, CaState};
use crate::net::Ack;
use crate::profile::{
    CwndCounting, CwndLimitedRule, CwrRule, LostRetransmitRule, RecoveryRule, RtoRule,
};
use std::collections::BTreeMap;

const MS: u64 = 1_000_000;
const MSS: u32 = 8948;

fn sender(config: SenderConfig) -> Sender {
    let reno = cc::build("reno", &BTreeMap::new()).unwrap();
    Sender::new(config, reno, 0)
}

fn config() -> SenderConfig {
    SenderConfig::rfc(MSS, 1 << 30)
}

/// Send everything the window allows at `now`; returns how many.
fn send_all(s: &mut Sender, now: u64) -> u32 {
    let mut n = 0;
    while let Some(tx) = s.next_transmission() {
        s.on_transmitted(tx, now);
        n += 1;
    }
    n
}

fn ack(cum_seq: u32, sent_ns: u64) -> Ack {
    Ack {
        cum_seq,
        sacked_seq: None,
        ece: false,
        echo_sent_ns: sent_ns,
        echo_retransmission: false,
        ace: 0,
    }
}

#[test]
fn slow_start_counts_per_packet_or_per_ack() {
    for (counting, expected) in [(CwndCounting::PerPacket, 4), (CwndCounting::PerAck, 3)] {
        let mut s = sender(SenderConfig {
            counting,
            ..config()
        });
        assert_eq!(send_all(&mut s, 0), 2);
        // One delayed ACK covering both segments.
        s.on_ack(&ack(2, 0), 30 * MS);
        assert_eq!(s.window.cwnd_pkts, expected, "{counting:?}");
    }
}

#[test]
fn congestion_avoidance_per_ack_grows_half_as_fast_with_delayed_acks() {
    let mut grown = Vec::new();
    for counting in [CwndCounting::PerPacket, CwndCounting::PerAck] {
        let mut s = sender(SenderConfig {
            counting,
            ..config()
        });
        s.window.cwnd_pkts = 100;
        s.window.ssthresh_pkts = 50;
        let mut now = 0;
        send_all(&mut s, now);
        for _ in 0..10 {
            // One round: delayed ACKs (one per two segments) for what was
            // outstanding, refilling the window after each.
            let (first, last) = (s.snd_una, s.snd_nxt);
            now += 30 * MS;
            let mut seq = first;
            while seq < last {
                seq = (seq + 2).min(last);
                s.on_ack(&ack(seq, now - 30 * MS), now);
                send_all(&mut s, now);
            }
        }
        grown.push(s.window.cwnd_pkts - 100);
    }
    assert_eq!(grown[0], 10, "one packet per RTT per packet counted");
    assert_eq!(grown[1], 5, "half that when each ACK counts once");
}

/// Linux `tcp_enter_cwr` then `tcp_cwnd_down`: cwnd clamped to in-flight
/// + 1, then one packet less every second ACK.
#[test]
fn cwr_takes_one_packet_every_second_ack() {
    let mut s = sender(config());
    s.window.cwnd_pkts = 100;
    s.window.ssthresh_pkts = 1000;
    send_all(&mut s, 0);
    assert!(s.on_local_congestion(0));
    assert_eq!(s.state, CaState::Cwr);
    assert_eq!(s.window.ssthresh_pkts, 50, "Reno's own ssthresh");
    let mut cwnds = Vec::new();
    for i in 1..=6 {
        s.on_ack(&ack(i, 0), 30 * MS);
        cwnds.push(s.window.cwnd_pkts);
    }
    // In flight falls by one per ACK and nothing is sent, so the clamp to
    // in-flight + 1 would also bite; cwnd_down's own schedule shows when
    // the window is refilled between ACKs.
    assert!(cwnds.windows(2).all(|w| w[1] <= w[0]), "{cwnds:?}");
    let mut s = sender(config());
    s.window.cwnd_pkts = 100;
    s.window.ssthresh_pkts = 1000;
    send_all(&mut s, 0);
    s.on_local_congestion(0);
    let mut cwnds = Vec::new();
    for i in 1..=6 {
        s.on_ack(&ack(i, 0), 30 * MS);
        send_all(&mut s, 30 * MS);
        cwnds.push(s.window.cwnd_pkts);
    }
    assert_eq!(cwnds, [100, 99, 99, 98, 98, 97]);
}

/// Linux 2.4's rate halving goes below ssthresh (down to ssthresh/2)
/// during CWR; the episode ends at min(cwnd, ssthresh).
#[test]
fn linux_rate_halving_floor_is_half_ssthresh() {
    let mut s = sender(SenderConfig {
        recovery: RecoveryRule::RateHalving,
        ..config()
    });
    s.window.cwnd_pkts = 40;
    s.window.ssthresh_pkts = 1000;
    send_all(&mut s, 0);
    s.on_local_congestion(0);
    assert_eq!(s.window.ssthresh_pkts, 20);
    // ACK one at a time, refilling: cwnd falls one per two ACKs past 20.
    for i in 1..=36 {
        s.on_ack(&ack(i, 0), 30 * MS);
        send_all(&mut s, 30 * MS);
    }
    assert_eq!(s.window.cwnd_pkts, 22, "40 − 36/2");
}

/// Linux 2.6.22's `tcp_cwnd_min`: a module without a `.min_cwnd` hook
/// (BIC; CUBIC 2.1, whose 2.0 hook also returned ssthresh) stops rate
/// halving at ssthresh itself, not at Reno's ssthresh/2.
#[test]
fn rate_halving_stops_at_ssthresh_for_bic_and_cubic() {
    for id in ["bic", "cubic"] {
        let cc = cc::build(id, &BTreeMap::new()).unwrap();
        let mut s = Sender::new(
            SenderConfig {
                recovery: RecoveryRule::RateHalving,
                ..config()
            },
            cc,
            0,
        );
        s.window.cwnd_pkts = 40;
        s.window.ssthresh_pkts = 1000;
        send_all(&mut s, 0);
        s.on_local_congestion(0);
        let ssthresh = s.window.ssthresh_pkts;
        assert!(ssthresh > 20 && ssthresh < 40, "{id}: ssthresh {ssthresh}");
        for i in 1..=36 {
            s.on_ack(&ack(i, 0), 30 * MS);
            send_all(&mut s, 30 * MS);
        }
        assert_eq!(s.window.cwnd_pkts, ssthresh, "{id}: the floor is ssthresh");
    }
}

/// Without SACK, duplicate ACKs stand for delivered packets: PRR must
/// bring the window down during the first RTT of Recovery (a bug made
/// dupacks count for nothing, so the window stayed at its old size and
/// each dupack released a new segment).
#[test]
fn non_sack_recovery_reduces_the_window_within_its_first_rtt() {
    let mut s = sender(SenderConfig {
        sack: false,
        ..config()
    });
    s.window.cwnd_pkts = 20;
    s.window.ssthresh_pkts = 1000;
    send_all(&mut s, 0);
    // Segment 0 is lost: every later arrival gives a duplicate ACK.
    let mut new_segments = 0;
    for _ in 0..19 {
        s.on_ack(&ack(0, 0), 30 * MS);
        let before = s.snd_nxt;
        send_all(&mut s, 30 * MS);
        new_segments += s.snd_nxt - before;
    }
    assert_eq!(s.state, CaState::Recovery);
    assert_eq!(s.window.ssthresh_pkts, 10);
    // 16 dupacks after entering Recovery: PRR sends ~ssthresh/RecoverFS of
    // the deliveries, about 8, not 16.
    assert!((6..=10).contains(&new_segments), "sent {new_segments}");
    assert!(s.window.cwnd_pkts <= 12, "cwnd {}", s.window.cwnd_pkts);
}

#[test]
fn rto_rules_and_initial_values() {
    let mut s = sender(SenderConfig {
        rto: RtoRule::Linux,
        initial_rto_ns: 3000 * MS,
        ..config()
    });
    assert_eq!(s.backed_off_rto_ns(), 3000 * MS);
    send_all(&mut s, 0);
    s.on_ack(&ack(1, 0), 30 * MS);
    assert_eq!(s.backed_off_rto_ns(), 230 * MS, "srtt + max(2·r, 200 ms)");
    let mut s = sender(config());
    assert_eq!(s.backed_off_rto_ns(), 1000 * MS);
    send_all(&mut s, 0);
    s.on_ack(&ack(1, 0), 30 * MS);
    assert_eq!(s.backed_off_rto_ns(), 200 * MS, "max(3r, 200 ms)");
}

#[test]
fn the_receive_window_caps_what_is_outstanding() {
    let mut s = sender(SenderConfig {
        rwnd_bytes: 10 * MSS as u64,
        ..config()
    });
    s.window.cwnd_pkts = 100;
    assert_eq!(send_all(&mut s, 0), 10);
}

/// A full interface queue backs the sender off (CWR). Linux 2.4's
/// `__tcp_enter_cwr` takes ssthresh from `tcp_recalc_ssthresh`, half the
/// window whatever the algorithm; Linux ≥ 2.6.13's `tcp_enter_cwr` asks the
/// algorithm (Scalable: cwnd − cwnd/8, 2.6.22 tcp_scalable.c).
#[test]
fn a_local_back_off_halves_on_linux_2_4_and_follows_the_algorithm_later() {
    for (rule, algorithm, expected) in [
        (CwrRule::Algorithm, "scalable", 800 - 800 / 8),
        (CwrRule::Halve, "scalable", 400),
        (CwrRule::Halve, "highspeed", 400),
        (CwrRule::Algorithm, "reno", 400),
        (CwrRule::Halve, "reno", 400),
    ] {
        let cc = cc::build(algorithm, &BTreeMap::new()).unwrap();
        let mut s = Sender::new(
            SenderConfig {
                cwr: rule,
                ..config()
            },
            cc,
            0,
        );
        s.window.cwnd_pkts = 800;
        s.window.ssthresh_pkts = 100;
        assert!(s.on_local_congestion(MS));
        assert_eq!(s.state, CaState::Cwr);
        assert_eq!(
            s.window.ssthresh_pkts, expected,
            "{algorithm} with {rule:?}"
        );
    }
    // HighSpeed's own decrease at 800 packets is far less than half
    // (RFC 3649 Appendix B: b(w) below 0.4 there).
    let cc = cc::build("highspeed", &BTreeMap::new()).unwrap();
    let mut s = Sender::new(config(), cc, 0);
    s.window.cwnd_pkts = 800;
    assert!(s.on_local_congestion(MS));
    assert!(s.window.ssthresh_pkts > 480, "{}", s.window.ssthresh_pkts);
}

fn sack(cum_seq: u32, sacked: u32, sent_ns: u64) -> Ack {
    Ack {
        sacked_seq: Some(sacked),
        ..ack(cum_seq, sent_ns)
    }
}

/// Linux 2.4 `tcp_sacktag_write_queue` event "C" (and RACK, RFC 8985,
/// with no reordering): in Recovery, once a segment sent after a
/// retransmission is SACKed, the retransmission is lost and is sent again
/// at once; with no rule for it only the timer would resend it.
#[test]
fn a_lost_retransmission_is_resent_once_later_data_is_sacked() {
    for rule in [
        LostRetransmitRule::Timeout,
        LostRetransmitRule::Recovery,
        LostRetransmitRule::Rack,
    ] {
        let mut s = sender(SenderConfig {
            lost_retransmit: rule,
            ..config()
        });
        s.window.cwnd_pkts = 20;
        s.window.ssthresh_pkts = 1000;
        let una = s.snd_una;
        assert_eq!(send_all(&mut s, 0), 20);
        // Segment `una` is lost; 1..=3 above it are SACKed: FACK marks it
        // lost and fast retransmit sends it (with snd_nxt at una + 20).
        let mut now = 30 * MS;
        for k in 1..=3 {
            s.on_ack(&sack(una, una + k, 0), now);
        }
        assert_eq!(s.state, CaState::Recovery);
        let first = s.next_transmission().expect("fast retransmit");
        assert!(first.retransmission && first.seq == una);
        s.on_transmitted(first, now);
        send_all(&mut s, now);
        let nxt_at_retransmission = una + 20;
        assert!(s.snd_nxt >= nxt_at_retransmission);
        // The retransmission is lost too; the rest of the first flight
        // and then the data sent after the retransmission are SACKed.
        let mut resent_at = None;
        let mut k = 4;
        while k < s.snd_nxt - una && k < 60 {
            now += MS / 10;
            s.on_ack(&sack(una, una + k, 0), now);
            while let Some(tx) = s.next_transmission() {
                if tx.retransmission && tx.seq == una {
                    resent_at = Some(una + k);
                    break;
                }
                s.on_transmitted(tx, now);
            }
            if resent_at.is_some() {
                break;
            }
            k += 1;
        }
        match rule {
            LostRetransmitRule::Timeout => assert_eq!(resent_at, None, "{rule:?}"),
            _ => {
                assert_eq!(resent_at, Some(nxt_at_retransmission), "{rule:?}");
                assert_eq!(s.stats.lost_retransmissions, 1);
                assert_eq!(s.state, CaState::Recovery, "no timeout needed");
            }
        }
    }
}

/// A sender that watches its retransmissions for loss (Linux's event C,
/// RACK) keeps an entry per retransmission until a SACK block shows it
/// lost or the cumulative ACK covers it. Without SACK no block ever comes:
/// found by `sawtooth fuzz --seed 20261129`, such a flow kept one entry per
/// retransmission for the whole run. Hundreds of fast retransmits later
/// its scoreboard holds no more than after the first few.
#[test]
fn retransmissions_watched_for_loss_leave_with_the_cumulative_ack() {
    let mut s = sender(SenderConfig {
        sack: false,
        lost_retransmit: LostRetransmitRule::Rack,
        ..config()
    });
    s.window.cwnd_pkts = 20;
    s.window.ssthresh_pkts = 1000;
    let mut now = 0;
    let mut after_a_few = 0;
    for cycle in 0..300 {
        send_all(&mut s, now);
        now += 30 * MS;
        // The first segment of the flight is lost: three duplicate ACKs
        // bring the fast retransmit, then everything sent is acknowledged.
        let una = s.snd_una;
        for _ in 0..3 {
            s.on_ack(&ack(una, 0), now);
        }
        send_all(&mut s, now);
        s.on_ack(&ack(s.snd_nxt, now), now);
        if cycle == 10 {
            after_a_few = s.scoreboard_allocated_bytes();
        }
    }
    assert!(s.stats.fast_retransmits >= 300, "{:?}", s.stats);
    assert_eq!(s.scoreboard_allocated_bytes(), after_a_few);
}

/// RFC 5681 §3.1 grows cwnd "for each ACK received that cumulatively
/// acknowledges new data", and Linux's `tcp_may_raise_cwnd` (`tcp_input.c`,
/// 6.x; `flag & FLAG_DATA_ACKED` while `reordering` is at its sysctl
/// default) likewise: an ACK that only SACKs leaves the window alone. After
/// a timeout (Loss, cwnd 1) the segments still queued come back SACKed above
/// the lost head; they must not open the window (a sender that let them
/// would climb back to ssthresh before the head is repaired, and flood the
/// queue that caused the loss). The cumulative ACK for the head then grows
/// cwnd by what it newly delivers, one segment.
#[test]
fn only_an_ack_of_new_data_at_snd_una_grows_the_window() {
    let mut s = sender(config());
    s.window.cwnd_pkts = 20;
    s.window.ssthresh_pkts = 1000;
    let una = s.snd_una;
    assert_eq!(send_all(&mut s, 0), 20);
    s.on_timeout(300 * MS);
    assert_eq!(s.state, CaState::Loss);
    assert_eq!(s.window.ssthresh_pkts, 10);
    assert_eq!(s.window.cwnd_pkts, 1);
    let head = s.next_transmission().expect("the head is resent");
    assert!(head.retransmission && head.seq == una);
    s.on_transmitted(head, 300 * MS);
    // Segments 1..=15 arrive, each SACKed above the hole at `una`.
    let mut now = 300 * MS;
    for k in 1..=15 {
        now += MS;
        s.on_ack(&sack(una, una + k, 0), now);
        send_all(&mut s, now);
        assert_eq!(s.window.cwnd_pkts, 1, "SACK of segment {k}: no growth");
    }
    // The resent head arrives: snd_una jumps past the SACKed 15; the ACK
    // newly delivers one segment, and slow start adds one.
    now += MS;
    s.on_ack(&ack(una + 16, 300 * MS), now);
    assert_eq!(s.snd_una, una + 16);
    assert_eq!(s.window.cwnd_pkts, 2);
}

/// PRR below ssthresh (RFC 6937 §3 and Linux `tcp_cwnd_reduction`): with
/// thirty of forty segments lost, every ACK only SACKs (snd_una stays at the
/// first hole) and most find new losses. RFC 6937's slow-start bound lets
/// each such ACK send one more than it delivered; Linux 6 adds that
/// one only on an ACK that advances snd_una and finds no new loss, so
/// here it sends exactly what is delivered (packet conservation).
#[test]
fn linux_prr_slow_starts_only_on_an_ack_that_advances_without_new_loss() {
    let mut sent_by_rule = Vec::new();
    for rule in [RecoveryRule::Prr, RecoveryRule::PrrSafeAck] {
        let mut s = sender(SenderConfig {
            recovery: rule,
            ..config()
        });
        s.window.cwnd_pkts = 40;
        s.window.ssthresh_pkts = 1000;
        let una = s.snd_una;
        assert_eq!(send_all(&mut s, 0), 40);
        // Segments una .. una+29 are lost; una+30 .. una+39 arrive.
        let mut now = 30 * MS;
        let mut sent = Vec::new();
        for k in 30..40 {
            now += MS;
            s.on_ack(&sack(una, una + k, 0), now);
            assert_eq!(s.state, CaState::Recovery);
            assert_eq!(s.snd_una, una);
            sent.push(send_all(&mut s, now));
        }
        assert_eq!(s.window.ssthresh_pkts, 20);
        sent_by_rule.push(sent);
    }
    let (rfc, linux) = (&sent_by_rule[0], &sent_by_rule[1]);
    assert_eq!(
        linux.iter().sum::<u32>(),
        10,
        "one per delivered: {linux:?}"
    );
    assert!(rfc.iter().sum::<u32>() > 10, "RFC 6937 SSRB: {rfc:?}");
    assert!(linux.iter().all(|&n| n <= 1), "{linux:?}");
}

/// Linux 6 `tcp_is_cwnd_limited`: in slow start an ACK grows the window
/// while cwnd is below twice the most packets the sender had out, even if
/// something below TCP (TCP Small Queues) held it back; the older rule
/// grows only when the flight before the ACK filled the window.
#[test]
fn linux_6_slow_start_grows_to_twice_the_flight_even_when_held_back() {
    for (rule, out, grows) in [
        (CwndLimitedRule::InFlight, 6, false),
        (CwndLimitedRule::Linux6, 6, true),
        (CwndLimitedRule::Linux6, 5, false),
        (CwndLimitedRule::InFlight, 9, true),
    ] {
        let mut s = sender(SenderConfig {
            cwnd_limited: rule,
            initial_cwnd_pkts: 10,
            ..config()
        });
        for _ in 0..out {
            let tx = s.next_transmission().unwrap();
            s.on_transmitted(tx, 0);
        }
        s.after_sending(out);
        s.on_ack(&ack(2, 0), 30 * MS);
        assert_eq!(s.window.cwnd_pkts > 10, grows, "{rule:?} with {out} out");
    }
}
