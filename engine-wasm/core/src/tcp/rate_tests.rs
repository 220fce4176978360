//! The sender's delivery-rate sample against Linux `tcp_rate.c` (the rate
//! sample of draft-cheng-iccrg-delivery-rate-estimation), over hand-built
//! send and ACK patterns whose rates are known in closed form.

use super::*;
use crate::cc::{AckSample, CaState, CongestionControl, LostPacket, Window};
use crate::net::Ack;
use std::cell::RefCell;
use std::rc::Rc;

const MS: u64 = 1_000_000;

/// An algorithm that reads delivery-rate samples and records every one
/// `cong_control` is given (then leaves the window to the sender).
struct Recorder(Rc<RefCell<Vec<AckSample>>>);

impl CongestionControl for Recorder {
    fn ssthresh(&mut self, w: &Window, _now_ns: u64) -> u32 {
        (w.cwnd_pkts / 2).max(2)
    }
    fn cong_avoid(&mut self, _w: &mut Window, _ack: &AckSample) {}
    fn cong_control(&mut self, _w: &mut Window, ack: &AckSample, _state: CaState) -> bool {
        self.0.borrow_mut().push(*ack);
        false
    }
    fn uses_delivery_rate(&self) -> bool {
        true
    }
}

fn recording_sender() -> (Sender, Rc<RefCell<Vec<AckSample>>>) {
    let log = Rc::new(RefCell::new(Vec::new()));
    let mut s = Sender::new(
        SenderConfig::rfc(1448, 1 << 30),
        Box::new(Recorder(log.clone())),
        0,
    );
    s.window.cwnd_pkts = 100;
    (s, log)
}

/// Send `n` new segments at `now`.
fn send(s: &mut Sender, n: u32, now: u64) {
    for _ in 0..n {
        let tx = s.next_transmission().expect("the window allows it");
        assert!(!tx.retransmission);
        s.on_transmitted(tx, now);
    }
}

fn ack(s: &mut Sender, cum_seq: u32, sacked_seq: Option<u32>, echo_sent_ns: u64, now: u64) {
    let a = Ack {
        cum_seq,
        sacked_seq,
        ece: false,
        echo_sent_ns,
        echo_retransmission: false,
        ace: 0,
    };
    s.on_ack(&a, now);
}

fn last(log: &Rc<RefCell<Vec<AckSample>>>) -> AckSample {
    *log.borrow().last().expect("a sample")
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * b.abs().max(1.0)
}

/// `tcp_rate_gen` with a longer ACK phase: the packets delivered since the
/// sample's packet was sent (`tp->delivered - rs->prior_delivered`) over
/// the time since the ACK that preceded its sending
/// (`tp->tcp_mstamp - rs->prior_mstamp`).
#[test]
fn the_ack_phase_sets_the_interval_when_it_is_the_longer() {
    let (mut s, log) = recording_sender();
    send(&mut s, 2, 0);
    // Seg 0 back after 100 ms: 1 packet over 100 ms (its ACK phase from
    // the first send, when `delivered_mstamp` was stamped).
    ack(&mut s, 1, None, 0, 100 * MS);
    let a = last(&log);
    assert_eq!(a.prior_delivered_pkts, 0);
    assert_eq!(a.prior_in_flight_pkts, 2);
    assert!(close(a.delivery_rate_pps.unwrap(), 1.0 / 0.100));
    // Two more leave at 100 ms, with 1 delivered then.
    send(&mut s, 2, 100 * MS);
    // Seg 1 (sent at 0) at 150 ms: 2 delivered over 150 ms.
    ack(&mut s, 2, None, 0, 150 * MS);
    assert!(close(last(&log).delivery_rate_pps.unwrap(), 2.0 / 0.150));
    // Segs 2 and 3 at 230 ms, one ACK: the sample is about seg 3, sent
    // with 1 delivered at 100 ms (ACK phase 130 ms; send phase 100 ms,
    // from seg 0's send time, the `first_tx_mstamp` it left with).
    ack(&mut s, 4, None, 100 * MS, 230 * MS);
    let a = last(&log);
    assert_eq!(a.prior_delivered_pkts, 1);
    assert_eq!(a.prior_in_flight_pkts, 2);
    assert_eq!(a.delivered_pkts, 4);
    assert!(close(a.delivery_rate_pps.unwrap(), 3.0 / 0.130));
}

/// `tcp_rate_gen`: "with ACK compression the send phase can be longer.
/// To be safe we use the longer phase" — the send phase runs from the
/// `first_tx_mstamp` the packet left with (the send time of the packet of
/// the latest sample, `tcp_rate_skb_delivered`) to its own send time.
#[test]
fn the_send_phase_sets_the_interval_when_acks_come_compressed() {
    let (mut s, log) = recording_sender();
    send(&mut s, 10, 0);
    // Seg 0 at 50 ms; seg 10 leaves then, with 1 delivered, the ACK
    // stamp 50 ms, and `first_tx_mstamp` seg 0's send time, 0.
    ack(&mut s, 1, None, 0, 50 * MS);
    send(&mut s, 1, 50 * MS);
    // Segs 1–9 in one ACK at 60 ms.
    ack(&mut s, 10, None, 0, 60 * MS);
    // Seg 10 at 70 ms (RTT 20 ms, the minimum): 10 packets delivered
    // since it left; ACK phase 70 − 50 = 20 ms, send phase 50 − 0 =
    // 50 ms: 200 pkt/s, not the 500 pkt/s the ACK phase alone gives.
    ack(&mut s, 11, None, 50 * MS, 70 * MS);
    let a = last(&log);
    assert_eq!(a.prior_delivered_pkts, 1);
    assert_eq!(a.delivered_pkts, 11);
    assert!(
        close(a.delivery_rate_pps.unwrap(), 10.0 / 0.050),
        "{:?}",
        a.delivery_rate_pps
    );
}

/// `tcp_rate_gen`: "if (unlikely(rs->interval_us < tcp_min_rtt(tp)))" the
/// sample is invalid (`rs->interval_us = -1`; "rate may still be
/// over-estimated when a spuriously retransmitted skb was first (s)acked").
/// Two spurious retransmissions, each answered by the ACK of its original:
/// the first sample's send phase runs from the first send (valid); the
/// second's from the first retransmission, 15 ms, below the 100 ms minimum.
#[test]
fn a_sample_shorter_than_the_minimum_rtt_is_none() {
    let (mut s, log) = recording_sender();
    send(&mut s, 4, 0);
    ack(&mut s, 1, None, 0, 100 * MS);
    assert!(close(last(&log).delivery_rate_pps.unwrap(), 1.0 / 0.100));
    let resend = |s: &mut Sender, seq: u32, now: u64| {
        s.on_transmitted(
            Transmission {
                seq,
                retransmission: true,
            },
            now,
        )
    };
    // Seg 1 resent at 150 ms; the original's ACK at 160 ms: send phase
    // 150 ms (from seg 0's send), ACK phase 60 ms.
    resend(&mut s, 1, 150 * MS);
    ack(&mut s, 2, None, 0, 160 * MS);
    assert!(close(last(&log).delivery_rate_pps.unwrap(), 1.0 / 0.150));
    // Seg 2 resent at 165 ms; the original's ACK at 170 ms: send phase
    // 165 − 150 = 15 ms, ACK phase 170 − 160 = 10 ms.
    resend(&mut s, 2, 165 * MS);
    ack(&mut s, 3, None, 0, 170 * MS);
    let a = last(&log);
    assert_eq!(a.acked_pkts, 1);
    assert_eq!(a.delivery_rate_pps, None, "15 ms < the 100 ms minimum");
    assert_eq!(a.prior_delivered_pkts, 2, "the sample's packet is known");
}

/// `tcp_rate_skb_delivered`: the sample is about the most recently sent
/// of the packets an ACK delivers (`tcp_skb_sent_after`), SACKed or
/// cumulatively ACKed; a packet SACKed before is skipped when the
/// cumulative ACK passes it ("Mark off the skb delivered once it's
/// sacked") and is not counted as delivered twice.
#[test]
fn the_sample_is_about_the_last_sent_packet_and_sacked_ones_count_once() {
    let (mut s, log) = recording_sender();
    send(&mut s, 2, 0);
    ack(&mut s, 1, None, 0, 100 * MS);
    // Segs 2 and 3 leave at 100 ms with 1 delivered.
    send(&mut s, 2, 100 * MS);
    // Seg 3 SACKed at 200 ms: 1 packet since it left (delivered 2),
    // over 100 ms.
    ack(&mut s, 1, Some(3), 100 * MS, 200 * MS);
    let a = last(&log);
    assert_eq!(a.prior_delivered_pkts, 1);
    assert_eq!(a.prior_in_flight_pkts, 3);
    assert_eq!(a.delivered_pkts, 2);
    assert!(close(a.delivery_rate_pps.unwrap(), 1.0 / 0.100));
    // The cumulative ACK of 1–3 at 210 ms delivers segs 1 (sent at 0,
    // with 0 delivered) and 2 (sent at 100 ms, with 1): the sample is
    // about seg 2, 3 packets since it left over 110 ms.
    ack(&mut s, 4, None, 0, 210 * MS);
    let a = last(&log);
    assert_eq!(a.acked_pkts, 2);
    assert_eq!(a.delivered_pkts, 4, "seg 3 counted once");
    assert_eq!(a.prior_delivered_pkts, 1);
    assert_eq!(a.prior_in_flight_pkts, 2);
    assert!(close(a.delivery_rate_pps.unwrap(), 3.0 / 0.110));
}

/// `tcp_ack`: `rs.losses` is `tp->lost` after `tcp_fastretrans_alert`
/// less before (`lost = tp->lost - lost`), the packets this ACK newly
/// marked lost; here by the SACK rule (a segment 3 below the highest
/// SACKed one is lost).
#[test]
fn losses_are_the_packets_this_ack_marks_lost() {
    let (mut s, log) = recording_sender();
    send(&mut s, 6, 0);
    ack(&mut s, 1, Some(2), 0, 100 * MS);
    ack(&mut s, 1, Some(3), 0, 101 * MS);
    assert_eq!(last(&log).losses_pkts, 0);
    ack(&mut s, 1, Some(4), 0, 102 * MS);
    let a = last(&log);
    assert_eq!(a.losses_pkts, 1, "seg 1 marked lost");
    assert_eq!(s.state, CaState::Recovery);
    ack(&mut s, 1, Some(5), 0, 103 * MS);
    assert_eq!(last(&log).losses_pkts, 0, "nothing left to mark");
}

/// An algorithm that records every packet reported lost to it.
struct LossRecorder(Rc<RefCell<Vec<LostPacket>>>);

impl CongestionControl for LossRecorder {
    fn ssthresh(&mut self, w: &Window, _now_ns: u64) -> u32 {
        (w.cwnd_pkts / 2).max(2)
    }
    fn cong_avoid(&mut self, _w: &mut Window, _ack: &AckSample) {}
    fn uses_delivery_rate(&self) -> bool {
        true
    }
    fn wants_lost_packets(&self) -> bool {
        true
    }
    fn skb_marked_lost(&mut self, _w: &Window, lost: &LostPacket) {
        self.0.borrow_mut().push(*lost);
    }
}

/// google/bbr v3's `tcp_notify_skb_loss_event`: each packet is reported
/// as it is marked lost, after `tp->lost` counts it, with the skb's own
/// `tx.in_flight` and `tx.lost` (`bbr_skb_marked_lost` builds
/// `rs.tx_in_flight = scb->tx.in_flight`, `rs.lost = tp->lost -
/// scb->tx.lost`) — not the in-flight of the packet the ACK delivers; a
/// timeout reports every packet it newly marks, none twice.
#[test]
fn each_packet_marked_lost_is_reported_with_its_own_flight() {
    let log = Rc::new(RefCell::new(Vec::new()));
    let mut s = Sender::new(
        SenderConfig::rfc(1448, 1 << 30),
        Box::new(LossRecorder(log.clone())),
        0,
    );
    s.window.cwnd_pkts = 100;
    send(&mut s, 6, 0);
    ack(&mut s, 1, Some(2), 0, 100 * MS);
    ack(&mut s, 1, Some(3), 0, 101 * MS);
    assert!(log.borrow().is_empty());
    ack(&mut s, 1, Some(4), 0, 102 * MS);
    {
        let lost = log.borrow();
        assert_eq!(lost.len(), 1, "seg 1 marked lost");
        let l = lost[0];
        assert_eq!(l.tx_in_flight_pkts, 2, "the second packet sent");
        assert_eq!(l.tx_lost_pkts, 1, "itself");
        assert_eq!(l.delivered_pkts, 4, "seg 0 and the SACKed 2, 3, 4");
        assert_eq!(l.delivered_at_send_pkts, 0);
        assert_eq!(l.now_ns, 102 * MS);
    }
    s.on_timeout(1_500 * MS);
    let lost = log.borrow();
    assert_eq!(lost.len(), 2, "the RTO marks seg 5 only: seg 1 already is");
    assert_eq!(lost[1].tx_in_flight_pkts, 6);
    assert_eq!(lost[1].tx_lost_pkts, 2);
}

/// `tcp_count_delivered`: an ACK with ECE set adds what it delivers to
/// `tp->delivered_ce`; the rate sample's `delivered_ce` is the increase
/// since its packet was sent (google/bbr v3's `tcp_rate.c`).
#[test]
fn delivered_ce_counts_packets_acknowledged_with_ece() {
    let (mut s, log) = recording_sender();
    send(&mut s, 4, 0);
    let marked = Ack {
        cum_seq: 2,
        sacked_seq: None,
        ece: true,
        echo_sent_ns: 0,
        echo_retransmission: false,
        ace: 0,
    };
    s.on_ack(&marked, 100 * MS);
    let a = last(&log);
    assert_eq!(a.delivered_ce_pkts, 2);
    assert_eq!(a.tx_delivered_ce_pkts, 2, "seg 1 left before any mark");
    send(&mut s, 1, 100 * MS);
    ack(&mut s, 5, None, 100 * MS, 200 * MS);
    let a = last(&log);
    assert_eq!(a.delivered_ce_pkts, 2, "an ACK without ECE adds nothing");
    assert_eq!(
        a.tx_delivered_ce_pkts, 0,
        "seg 4 left after the marks were counted"
    );
}
