//! The receiving host (RFC 1122 §4.2.3.2, RFC 2018).

use super::DELACK_NS;
use crate::net::{Ack, Packet};
use std::collections::BTreeSet;

/// The receiving host: in-order delivery to the application, cumulative
/// ACKs with one-segment SACK blocks, delayed ACKs (RFC 1122 §4.2.3.2).
pub struct Receiver {
    pub rcv_nxt: u32,
    out_of_order: BTreeSet<u32>,
    delayed_ack: bool,
    /// In-order segments received since the last ACK.
    unacked_segments: u32,
    last_sent_ns: u64,
    last_retransmission: bool,
    pub delack_deadline_ns: Option<u64>,
    /// Segments delivered to the application.
    pub delivered_segments: u64,
    /// Data segments that arrived, duplicates included.
    pub arrivals: u64,
}

impl Receiver {
    pub fn new(delayed_ack: bool) -> Receiver {
        Receiver {
            rcv_nxt: 0,
            out_of_order: BTreeSet::new(),
            delayed_ack,
            unacked_segments: 0,
            last_sent_ns: 0,
            last_retransmission: false,
            delack_deadline_ns: None,
            delivered_segments: 0,
            arrivals: 0,
        }
    }

    fn ack(&mut self, sacked_seq: Option<u32>, ece: bool, p: &Packet) -> Ack {
        self.unacked_segments = 0;
        self.delack_deadline_ns = None;
        Ack {
            cum_seq: self.rcv_nxt,
            sacked_seq,
            ece,
            echo_sent_ns: p.sent_ns,
            echo_retransmission: p.retransmission,
        }
    }

    /// A data segment arrived. Returns the ACK to send now, if any; a held
    /// ACK sets `delack_deadline_ns`.
    pub fn on_data(&mut self, p: &Packet, now_ns: u64) -> Option<Ack> {
        self.arrivals += 1;
        self.last_sent_ns = p.sent_ns;
        self.last_retransmission = p.retransmission;
        if p.seq == self.rcv_nxt {
            let filled_hole = !self.out_of_order.is_empty();
            self.rcv_nxt += 1;
            while self.out_of_order.first() == Some(&self.rcv_nxt) {
                self.out_of_order.pop_first();
                self.rcv_nxt += 1;
            }
            self.delivered_segments = self.rcv_nxt as u64;
            self.unacked_segments += 1;
            if filled_hole || p.ce || !self.delayed_ack || self.unacked_segments >= 2 {
                return Some(self.ack(None, p.ce, p));
            }
            if self.delack_deadline_ns.is_none() {
                self.delack_deadline_ns = Some(now_ns + DELACK_NS);
            }
            None
        } else if p.seq > self.rcv_nxt {
            self.out_of_order.insert(p.seq);
            Some(self.ack(Some(p.seq), p.ce, p))
        } else {
            // A duplicate: acknowledge at once (RFC 5681 §4.2).
            Some(self.ack(None, p.ce, p))
        }
    }

    /// The delayed-ACK timer fired.
    pub fn on_delack_timer(&mut self) -> Option<Ack> {
        if self.unacked_segments == 0 {
            self.delack_deadline_ns = None;
            return None;
        }
        let p = Packet {
            flow: 0,
            seq: self.rcv_nxt.saturating_sub(1),
            sent_ns: self.last_sent_ns,
            retransmission: self.last_retransmission,
            ce: false,
        };
        Some(self.ack(None, false, &p))
    }
}
