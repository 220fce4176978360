//! The receiving host (RFC 1122 §4.2.3.2, RFC 2018), with the classic or
//! the DCTCP echo of CE marks (RFC 8257 §3.2).

use super::seq::after;
use super::DELACK_NS;
use crate::cc::CeEcho;
use crate::net::{Ack, Packet};
use std::collections::BTreeSet;

/// What one arriving segment makes the receiver send, in this order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DataAcks {
    /// A DCTCP receiver whose CE state changed while it held back an ACK:
    /// the ACK of the segments received before this one, with the old ECE
    /// state (RFC 8257 §3.2). Always `None` for the classic echo.
    pub held: Option<Ack>,
    /// The ACK for this arrival, unless delayed.
    pub ack: Option<Ack>,
}

/// The receiving host: in-order delivery to the application, cumulative
/// ACKs with one-segment SACK blocks, delayed ACKs (RFC 1122 §4.2.3.2).
/// Sequence numbers wrap modulo 2^32 ([`seq`](super::seq)).
pub struct Receiver {
    pub rcv_nxt: u32,
    /// Segments held above rcv_nxt, by their offset from the first
    /// segment (`delivered_segments` counts the same way), which never
    /// wraps: the set's order is the stream's.
    out_of_order: BTreeSet<u64>,
    /// The most segments `out_of_order` has held at once.
    out_of_order_peak: usize,
    delayed_ack: bool,
    echo: CeEcho,
    /// DCTCP.CE (RFC 8257 §3.2): the last segment carried CE. The AccECN
    /// receiver keeps the same bit: the previous packet's CE state, for
    /// its change-triggered ACKs.
    ce_state: bool,
    /// AccECN's r.cep (RFC 9768 §3.2): CE-marked packets received,
    /// starting at 5 (§3.2.1); ACKs carry it modulo 8 in ACE (§3.2.2).
    r_cep: u32,
    /// In-order segments received since the last ACK.
    unacked_segments: u32,
    last_sent_ns: u64,
    last_retransmission: bool,
    pub delack_deadline_ns: Option<u64>,
    /// Segments delivered to the application (rcv_nxt's offset from the
    /// ISN, not wrapped).
    pub delivered_segments: u64,
    /// Data segments that arrived, duplicates included.
    pub arrivals: u64,
}

/// Heap bytes per segment held out of order: a `BTreeSet<u64>` leaf holds
/// at most 11 keys in about 104 bytes and appends at its right end leave
/// leaves about half full, so about 19 bytes a key, plus the internal
/// nodes; 24 is a round upper figure (std's `alloc::collections::btree`
/// node layout, CAPACITY = 11).
pub const OUT_OF_ORDER_ENTRY_BYTES: u64 = 24;

/// AccECN's initial r.cep (RFC 9768 §3.2.1: the counter starts at 5, so an
/// ACE field zeroed on the path is noticed, §3.2.2.4); the sender's counter starts at
/// the same value.
pub const ACCECN_CEP_INIT: u32 = 5;

impl Receiver {
    /// Heap bytes the out-of-order set needed at its largest.
    pub fn out_of_order_peak_bytes(&self) -> u64 {
        self.out_of_order_peak as u64 * OUT_OF_ORDER_ENTRY_BYTES
    }

    pub fn new(delayed_ack: bool, echo: CeEcho) -> Receiver {
        Receiver {
            rcv_nxt: 0,
            out_of_order: BTreeSet::new(),
            out_of_order_peak: 0,
            delayed_ack,
            echo,
            ce_state: false,
            r_cep: ACCECN_CEP_INIT,
            unacked_segments: 0,
            last_sent_ns: 0,
            last_retransmission: false,
            delack_deadline_ns: None,
            delivered_segments: 0,
            arrivals: 0,
        }
    }

    /// The same receiver expecting `isn` as the first segment's sequence
    /// number (see [`seq`](super::seq)).
    pub fn starting_at(mut self, isn: u32) -> Receiver {
        self.rcv_nxt = isn;
        self
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
            ace: match self.echo {
                CeEcho::AccEcn => (self.r_cep & 7) as u8,
                _ => 0,
            },
        }
    }

    /// The ACK held back by delayed ACKs, sent now: it covers the in-order
    /// segments so far and echoes the last of them.
    fn held_ack(&mut self, ece: bool) -> Ack {
        let p = Packet {
            flow: 0,
            seq: self.rcv_nxt.wrapping_sub(1),
            sent_ns: self.last_sent_ns,
            retransmission: self.last_retransmission,
            ce: false,
            ect1: false,
        };
        self.ack(None, ece, &p)
    }

    /// Distinct data segments taken in so far: delivered in order or held
    /// out of order (duplicates not counted). Each crossed the bottleneck
    /// once, so over any interval this is bounded by the link's capacity,
    /// unlike in-order delivery, which releases a hole's backlog at once.
    pub fn distinct_segments(&self) -> u64 {
        self.delivered_segments + self.out_of_order.len() as u64
    }

    /// A data segment arrived. Returns the ACKs to send now; a held ACK
    /// sets `delack_deadline_ns`.
    ///
    /// Classic echo: a CE segment is acknowledged at once with ECE.
    /// DCTCP echo (RFC 8257 §3.2, Linux `dctcp_ece_ack_update`): when the
    /// segment's CE differs from DCTCP.CE, an ACK held back by delayed ACKs
    /// goes first with the old ECE state, DCTCP.CE takes the new value and
    /// this segment is acknowledged at once; otherwise the usual delayed-ACK
    /// rules apply. Every ACK carries ECE = DCTCP.CE, which after this
    /// update is the segment's own CE bit.
    pub fn on_data(&mut self, p: &Packet, now_ns: u64) -> DataAcks {
        let mut acks = DataAcks::default();
        let ce_now = match self.echo {
            CeEcho::Classic => p.ce,
            CeEcho::Dctcp => {
                let changed = p.ce != self.ce_state;
                if changed {
                    if self.unacked_segments > 0 {
                        acks.held = Some(self.held_ack(self.ce_state));
                    }
                    self.ce_state = p.ce;
                }
                changed
            }
            // RFC 9768: the count carries the marks; ECE is part of ACE,
            // not a flag of its own. An ECN-field edge is acknowledged at
            // once (§3.2.2.5.1; Linux `tcp_ecn_received_counters`).
            CeEcho::AccEcn => {
                if p.ce {
                    self.r_cep = self.r_cep.wrapping_add(1);
                }
                let changed = p.ce != self.ce_state;
                self.ce_state = p.ce;
                changed
            }
        };
        let ece = match self.echo {
            CeEcho::AccEcn => false,
            _ => p.ce,
        };
        self.arrivals += 1;
        self.last_sent_ns = p.sent_ns;
        self.last_retransmission = p.retransmission;
        if p.seq == self.rcv_nxt {
            let filled_hole = !self.out_of_order.is_empty();
            self.rcv_nxt = self.rcv_nxt.wrapping_add(1);
            self.delivered_segments += 1;
            while self.out_of_order.first() == Some(&self.delivered_segments) {
                self.out_of_order.pop_first();
                self.rcv_nxt = self.rcv_nxt.wrapping_add(1);
                self.delivered_segments += 1;
            }
            self.unacked_segments += 1;
            if filled_hole || ce_now || !self.delayed_ack || self.unacked_segments >= 2 {
                acks.ack = Some(self.ack(None, ece, p));
                return acks;
            }
            if self.delack_deadline_ns.is_none() {
                self.delack_deadline_ns = Some(now_ns + DELACK_NS);
            }
        } else if after(p.seq, self.rcv_nxt) {
            let offset = self.delivered_segments + p.seq.wrapping_sub(self.rcv_nxt) as u64;
            self.out_of_order.insert(offset);
            self.out_of_order_peak = self.out_of_order_peak.max(self.out_of_order.len());
            acks.ack = Some(self.ack(Some(p.seq), ece, p));
        } else {
            // A duplicate: acknowledge at once (RFC 5681 §4.2).
            acks.ack = Some(self.ack(None, ece, p));
        }
        acks
    }

    /// The delayed-ACK timer fired. The classic echo never holds a CE
    /// segment back, so its ACK has ECE clear; DCTCP's echoes DCTCP.CE.
    pub fn on_delack_timer(&mut self) -> Option<Ack> {
        if self.unacked_segments == 0 {
            self.delack_deadline_ns = None;
            return None;
        }
        let ece = match self.echo {
            CeEcho::Classic | CeEcho::AccEcn => false,
            CeEcho::Dctcp => self.ce_state,
        };
        Some(self.held_ack(ece))
    }
}
