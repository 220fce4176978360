//! The sender and the receiver across the wrap of the 32-bit sequence
//! space (issue 28, item 1): each exchange is played from ISN 0 and from
//! ISNs just below 2^32, in sequence numbers relative to the ISN, and must
//! go the same way step by step.

use super::*;
use crate::cc::{self, CaState, CeEcho};
use crate::net::{Ack, Packet};
use crate::profile::RtoRule;
use std::collections::BTreeMap;

const MS: u64 = 1_000_000;
const MSS: u32 = 1448;

/// ISNs that put the wrap inside every exchange below, and 0 for reference.
const NEAR_WRAP: [u32; 6] = [
    u32::MAX,
    u32::MAX - 1,
    u32::MAX - 2,
    u32::MAX - 4,
    u32::MAX - 9,
    (1 << 31) - 3,
];

fn sender(isn: u32) -> Sender {
    let reno = cc::build("reno", &BTreeMap::new()).unwrap();
    let mut s = Sender::new(
        SenderConfig {
            initial_seq: isn,
            rto: RtoRule::Linux,
            ..SenderConfig::rfc(MSS, 1 << 30)
        },
        reno,
        0,
    );
    s.window.cwnd_pkts = 20;
    s.window.ssthresh_pkts = 1000;
    s
}

/// What one step leaves, in sequence numbers relative to the ISN.
#[derive(Debug, PartialEq)]
struct Snapshot {
    state: CaState,
    cwnd: u32,
    ssthresh: u32,
    snd_una: u32,
    snd_nxt: u32,
    packets_out: u32,
    in_flight: u32,
    rto_ns: u64,
    /// What the window let out at this step: (relative seq, retransmission).
    sent: Vec<(u32, bool)>,
}

struct Exchange {
    s: Sender,
    isn: u32,
    trace: Vec<Snapshot>,
}

impl Exchange {
    fn new(isn: u32) -> Exchange {
        Exchange {
            s: sender(isn),
            isn,
            trace: Vec::new(),
        }
    }

    fn seq(&self, k: u32) -> u32 {
        self.isn.wrapping_add(k)
    }

    fn send(&mut self, now: u64) {
        let mut sent = Vec::new();
        while let Some(tx) = self.s.next_transmission() {
            self.s.on_transmitted(tx, now);
            sent.push((tx.seq.wrapping_sub(self.isn), tx.retransmission));
        }
        let s = &self.s;
        self.trace.push(Snapshot {
            state: s.state,
            cwnd: s.window.cwnd_pkts,
            ssthresh: s.window.ssthresh_pkts,
            snd_una: s.snd_una.wrapping_sub(self.isn),
            snd_nxt: s.snd_nxt.wrapping_sub(self.isn),
            packets_out: s.packets_out(),
            in_flight: s.in_flight(),
            rto_ns: s.backed_off_rto_ns(),
            sent,
        });
    }

    /// An ACK for relative `cum`, SACKing relative `sacked`, echoing a
    /// segment sent at `sent_ns`; then whatever the window lets out.
    fn ack(&mut self, cum: u32, sacked: Option<u32>, sent_ns: u64, now: u64) {
        let ack = Ack {
            cum_seq: self.seq(cum),
            sacked_seq: sacked.map(|k| self.seq(k)),
            ece: false,
            echo_sent_ns: sent_ns,
            echo_retransmission: false,
            ace: 0,
        };
        self.s.on_ack(&ack, now);
        self.send(now);
    }

    fn last(&self) -> &Snapshot {
        self.trace.last().expect("a step was taken")
    }
}

/// Play `script` from ISN 0 and from each ISN near the wrap: the same
/// trace each time. Returns the reference exchange for further checks.
fn same_from_every_isn(script: impl Fn(&mut Exchange)) -> Exchange {
    let mut reference = Exchange::new(0);
    script(&mut reference);
    for isn in NEAR_WRAP {
        let mut e = Exchange::new(isn);
        script(&mut e);
        assert_eq!(reference.trace, e.trace, "ISN {isn}");
        assert_eq!(
            (
                reference.s.stats.retransmissions,
                reference.s.stats.timeouts
            ),
            (e.s.stats.retransmissions, e.s.stats.timeouts),
            "ISN {isn}"
        );
    }
    reference
}

/// Segment 2 (just before the wrap for the ISNs above) is lost; SACKs for
/// the segments after it, which straddle the wrap, mark it lost (FACK),
/// the sender retransmits it in Recovery and Recovery ends when the
/// cumulative ACK passes the recovery point, on the other side of 0.
#[test]
fn a_loss_just_before_the_wrap_is_recovered_after_it() {
    let e = same_from_every_isn(|e| {
        e.send(0);
        e.ack(1, None, 0, 10 * MS);
        e.ack(2, None, 0, 10 * MS);
        for k in 3..20 {
            e.ack(2, Some(k), 0, 10 * MS);
            if k == 5 {
                let l = e.last();
                assert_eq!(
                    l.state,
                    CaState::Recovery,
                    "ISN {}: 3 SACKs above the hole",
                    e.isn
                );
                assert!(l.sent.contains(&(2, true)), "ISN {}: {:?}", e.isn, l.sent);
            }
        }
        // The retransmission and what went out after it are acknowledged.
        let high = e.last().snd_nxt;
        e.ack(high, None, 10 * MS, 20 * MS);
        let l = e.last();
        assert_eq!((l.state, l.snd_una), (CaState::Open, high), "ISN {}", e.isn);
    });
    assert_eq!(e.s.stats.fast_retransmits, 1);
    assert_eq!(e.s.stats.retransmissions, 1);
}

/// Two holes on either side of 0 with SACKed segments between and after:
/// each hole is marked lost once a segment three above it is SACKed, and
/// the retransmissions go out lowest first.
#[test]
fn sack_blocks_on_both_sides_of_the_wrap() {
    same_from_every_isn(|e| {
        e.send(0);
        // Segments 0 and 3 are lost (for ISN 2^32 − 2: 4294967294 and 1).
        for k in [1, 2] {
            e.ack(0, Some(k), 0, 10 * MS);
        }
        assert_eq!(e.last().state, CaState::Disorder, "ISN {}", e.isn);
        for k in [4, 5] {
            e.ack(0, Some(k), 0, 10 * MS);
        }
        assert_eq!(e.last().state, CaState::Recovery, "ISN {}", e.isn);
        e.ack(0, Some(6), 0, 10 * MS);
        let retransmitted: Vec<_> = e
            .trace
            .iter()
            .flat_map(|s| s.sent.iter())
            .filter(|(_, r)| *r)
            .collect();
        assert_eq!(retransmitted, [&(0, true), &(3, true)], "ISN {}", e.isn);
        // Hole 0 filled: the cumulative ACK jumps to the second hole.
        e.ack(3, Some(7), 10 * MS, 20 * MS);
        assert_eq!(e.last().snd_una, 3, "ISN {}", e.isn);
        let high = e.last().snd_nxt;
        e.ack(high, None, 10 * MS, 20 * MS);
        assert_eq!(e.last().state, CaState::Open, "ISN {}", e.isn);
    });
}

/// A retransmission timeout with the window straddling the wrap: Loss,
/// cwnd 1, go-back-N from snd_una, back to Open past the recovery point.
#[test]
fn a_timeout_across_the_wrap() {
    let e = same_from_every_isn(|e| {
        e.send(0);
        e.ack(1, None, 0, 10 * MS);
        e.s.on_timeout(300 * MS);
        e.send(300 * MS);
        assert_eq!(e.last().state, CaState::Loss, "ISN {}", e.isn);
        assert_eq!(e.last().sent, [(1, true)], "ISN {}", e.isn);
        let mut now = 300 * MS;
        let high = e.last().snd_nxt;
        let mut cum = 1;
        while cum < high {
            now += 10 * MS;
            cum += 1;
            e.ack(cum, None, now - 10 * MS, now);
        }
        assert_eq!(e.last().state, CaState::Open, "ISN {}", e.isn);
        // New data flows again past the old snd_nxt.
        assert!(e.last().snd_nxt > high, "ISN {}", e.isn);
    });
    assert_eq!(e.s.stats.timeouts, 1);
}

/// ACKs from before snd_una (late duplicates) and a stale SACK never move
/// the sender backwards, on either side of the wrap.
#[test]
fn old_acks_and_sacks_are_ignored_across_the_wrap() {
    same_from_every_isn(|e| {
        e.send(0);
        e.ack(10, None, 0, 10 * MS);
        let before = e.last().snd_una;
        // Cumulative ACK 5 and a SACK of segment 8: both below snd_una.
        e.ack(5, Some(8), 0, 11 * MS);
        assert_eq!(e.last().snd_una, before, "ISN {}", e.isn);
        assert_eq!(e.last().state, CaState::Open, "ISN {}", e.isn);
    });
}

fn packet(seq: u32, sent_ns: u64) -> Packet {
    Packet {
        flow: 0,
        seq,
        sent_ns,
        retransmission: false,
        ce: false,
        ect1: false,
    }
}

/// The ACKs a receiver sends for arrivals `order` (relative to `isn`),
/// relative to the ISN, with its delivered count at the end.
fn receive(isn: u32, delayed_ack: bool, order: &[u32]) -> (Vec<(u32, Option<u32>)>, u64, u32) {
    let mut r = Receiver::new(delayed_ack, CeEcho::Classic).starting_at(isn);
    let mut acks = Vec::new();
    for (i, &k) in order.iter().enumerate() {
        let out = r.on_data(&packet(isn.wrapping_add(k), i as u64), i as u64 * MS);
        for a in out.held.into_iter().chain(out.ack) {
            acks.push((
                a.cum_seq.wrapping_sub(isn),
                a.sacked_seq.map(|s| s.wrapping_sub(isn)),
            ));
        }
    }
    if let Some(a) = r.on_delack_timer() {
        acks.push((a.cum_seq.wrapping_sub(isn), None));
    }
    (acks, r.delivered_segments, r.rcv_nxt.wrapping_sub(isn))
}

/// Out-of-order arrivals on both sides of 0 are held, SACKed and
/// delivered in order once the holes fill, duplicates acknowledged.
#[test]
fn the_receiver_reassembles_across_the_wrap() {
    let order = [0, 3, 5, 2, 1, 4, 0, 6, 7, 9, 8];
    for delayed_ack in [false, true] {
        let reference = receive(0, delayed_ack, &order);
        if !delayed_ack {
            assert_eq!(
                reference.0,
                [
                    (1, None),
                    (1, Some(3)),
                    (1, Some(5)),
                    (1, Some(2)),
                    (4, None),
                    (6, None),
                    (6, None),
                    (7, None),
                    (8, None),
                    (8, Some(9)),
                    (10, None),
                ]
            );
        }
        assert_eq!((reference.1, reference.2), (10, 10));
        for isn in NEAR_WRAP {
            assert_eq!(
                receive(isn, delayed_ack, &order),
                reference,
                "ISN {isn}, delayed ACKs {delayed_ack}"
            );
        }
    }
}
