//! The sender's scoreboard: one entry per segment in snd_una..snd_nxt with
//! its SACKed, lost and retransmitted marks, the counts Linux keeps of them
//! (`sacked_out`, `lost_out`, `retrans_out`), and loss marking: FACK-style
//! from the SACKs, NewReno's head on duplicate ACKs, everything not SACKed
//! at a timeout. Sequence numbers wrap modulo 2^32 ([`seq`](super::seq)).

use super::seq::{before, seq_max, seq_min};
use super::DUP_THRESH;
use std::collections::VecDeque;

const SACKED: u8 = 1;
const LOST: u8 = 2;
const RETRANS: u8 = 4;

/// Per-segment scoreboard entry, also holding what a delivery-rate sample
/// needs (Linux `tcp_rate.c`).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Segment {
    flags: u8,
    /// snd_nxt when the segment was last retransmitted (Linux keeps it in
    /// the skb's `ack_seq`).
    retransmitted_at_nxt: u32,
    /// Linux `tcp_rate_skb_sent`'s copy of the sender's delivery state
    /// when the segment was last sent: `tx.delivered`,
    /// `tx.delivered_mstamp`, `tx.first_tx_mstamp`; and the send time
    /// itself (the skb's timestamp).
    pub(super) delivered_at_send: u64,
    pub(super) delivered_ns_at_send: u64,
    pub(super) first_tx_ns_at_send: u64,
    pub(super) sent_ns: u64,
    /// BBRv2/v3's additions to the skb's `tx` state (google/bbr v3,
    /// "snapshot packets in flight at transmit time", "count packets lost
    /// over TCP rate sampling interval"): `tx.in_flight`, the packets in
    /// flight once this one left, and `tx.lost`, the sender's lost count
    /// then (its low 32 bits; differences wrap).
    pub(super) in_flight_at_send: u32,
    pub(super) lost_at_send: u32,
    /// `tx.delivered_ce` (google/bbr v3's `tcp_rate.c`): the sender's
    /// `delivered_ce` then (low 32 bits; differences wrap).
    pub(super) delivered_ce_at_send: u32,
}

impl Segment {
    /// A segment sent at `sent_ns` when `delivered` packets had been
    /// delivered, the last at `delivered_ns`, and the sender's
    /// `first_tx_mstamp` was `first_tx_ns`.
    pub(super) fn sent(
        delivered: u64,
        delivered_ns: u64,
        first_tx_ns: u64,
        sent_ns: u64,
    ) -> Segment {
        Segment {
            flags: 0,
            retransmitted_at_nxt: 0,
            delivered_at_send: delivered,
            delivered_ns_at_send: delivered_ns,
            first_tx_ns_at_send: first_tx_ns,
            sent_ns,
            in_flight_at_send: 0,
            lost_at_send: 0,
            delivered_ce_at_send: 0,
        }
    }

    /// Whether `self` was sent after `other` (Linux `tcp_skb_sent_after`:
    /// the later send time, and at the same time the higher sequence,
    /// `self_seq` against `other_seq`).
    pub(super) fn sent_after(&self, self_seq: u32, other: &Segment, other_seq: u32) -> bool {
        self.sent_ns > other.sent_ns
            || (self.sent_ns == other.sent_ns && before(other_seq, self_seq))
    }
}

/// A retransmission waiting to be found lost: (its segment, snd_nxt when
/// it was sent).
type PendingRetransmission = (u32, u32);

/// Bytes of one scoreboard entry: the sender keeps one per packet in
/// flight and, when it looks for lost retransmissions, at most one pending
/// retransmission for it (the resource model counts both).
pub const SCOREBOARD_ENTRY_BYTES: u64 =
    (std::mem::size_of::<Segment>() + std::mem::size_of::<PendingRetransmission>()) as u64;

/// The marks of the segments in flight, and their counts.
pub(super) struct Scoreboard {
    segments: VecDeque<Segment>,
    pub(super) sacked_out: u32,
    pub(super) lost_out: u32,
    pub(super) retrans_out: u32,
    /// Segments ever marked lost, lost retransmissions included (Linux's
    /// `tp->lost`, counted by `tcp_sum_lost`): the difference over one ACK
    /// is what that ACK newly found lost.
    pub(super) lost_total: u64,
    /// Next segment to consider for FACK loss marking (never before
    /// snd_una, like `retransmit_hint`: both are read as at least snd_una,
    /// and kept there so they stay within 2^31 of it however long the run).
    lost_marker: u32,
    highest_sacked: Option<u32>,
    /// Lowest segment that may need retransmitting.
    retransmit_hint: u32,
    /// Retransmissions in the order they were sent (so their snd_nxt
    /// never falls along the queue), kept only when lost retransmissions
    /// are looked for.
    pending_retransmissions: Option<VecDeque<PendingRetransmission>>,
}

impl Scoreboard {
    /// An empty scoreboard for a flow whose first segment is `isn`.
    pub(super) fn new(isn: u32, finds_lost_retransmissions: bool) -> Scoreboard {
        Scoreboard {
            pending_retransmissions: finds_lost_retransmissions.then(VecDeque::new),
            segments: VecDeque::new(),
            sacked_out: 0,
            lost_out: 0,
            retrans_out: 0,
            lost_total: 0,
            lost_marker: isn,
            highest_sacked: None,
            retransmit_hint: isn,
        }
    }

    /// Bytes the scoreboard has allocated (its high-water mark: the
    /// buffer never shrinks).
    pub(super) fn allocated_bytes(&self) -> u64 {
        (self.segments.capacity() * std::mem::size_of::<Segment>()
            + self.pending_retransmissions.as_ref().map_or(0, |q| {
                q.capacity() * std::mem::size_of::<PendingRetransmission>()
            })) as u64
    }

    /// Scoreboard index of `seq`, which lies in snd_una..snd_nxt.
    fn index(seq: u32, snd_una: u32) -> usize {
        seq.wrapping_sub(snd_una) as usize
    }

    /// The lowest segment marked lost and neither resent nor SACKed, if any
    /// (RFC 6675 §5 NextSeg, simplified to "lowest lost, not yet resent").
    pub(super) fn next_lost(&mut self, snd_una: u32, snd_nxt: u32) -> Option<u32> {
        if self.lost_out > self.retrans_out {
            let mut seq = seq_max(self.retransmit_hint, snd_una);
            while before(seq, snd_nxt) {
                let f = self.segments[Self::index(seq, snd_una)].flags;
                if f & LOST != 0 && f & RETRANS == 0 && f & SACKED == 0 {
                    self.retransmit_hint = seq;
                    return Some(seq);
                }
                seq = seq.wrapping_add(1);
            }
            self.retransmit_hint = snd_nxt;
        }
        None
    }

    /// A new segment (at snd_nxt) was sent.
    pub(super) fn push(&mut self, entry: Segment) {
        self.segments.push_back(entry);
    }

    /// Segment `seq` was sent again when snd_nxt was `snd_nxt`; `entry`
    /// holds the delivery state now.
    pub(super) fn retransmitted(&mut self, seq: u32, snd_una: u32, snd_nxt: u32, entry: Segment) {
        let s = &mut self.segments[Self::index(seq, snd_una)];
        s.flags |= RETRANS;
        s.retransmitted_at_nxt = snd_nxt;
        if let Some(q) = &mut self.pending_retransmissions {
            q.push_back((seq, snd_nxt));
        }
        s.delivered_at_send = entry.delivered_at_send;
        s.delivered_ns_at_send = entry.delivered_ns_at_send;
        s.first_tx_ns_at_send = entry.first_tx_ns_at_send;
        s.sent_ns = entry.sent_ns;
        s.in_flight_at_send = entry.in_flight_at_send;
        s.lost_at_send = entry.lost_at_send;
        s.delivered_ce_at_send = entry.delivered_ce_at_send;
        self.retrans_out += 1;
        self.retransmit_hint = seq.wrapping_add(1);
    }

    /// A SACK of segment `s`: the entry as it was before, if this newly
    /// SACKed it.
    pub(super) fn sack(&mut self, s: u32, snd_una: u32, packets_out: u32) -> Option<Segment> {
        // In snd_una..snd_nxt (modulo 2^32).
        if s.wrapping_sub(snd_una) < packets_out {
            let i = Self::index(s, snd_una);
            let seg = self.segments[i];
            if seg.flags & SACKED == 0 {
                self.segments[i].flags = SACKED;
                if seg.flags & LOST != 0 {
                    self.lost_out -= 1;
                }
                if seg.flags & RETRANS != 0 {
                    self.retrans_out -= 1;
                }
                self.sacked_out += 1;
                self.highest_sacked = Some(self.highest_sacked.map_or(s, |h| seq_max(h, s)));
                return Some(seg);
            }
        }
        None
    }

    /// The cumulative ACK covered the first `n` segments (from `snd_una`):
    /// how many of them were not SACKed before, and of those the one sent
    /// last, with its sequence number (Linux `tcp_rate_skb_delivered`
    /// skips a segment SACKed before: its sample was taken then).
    pub(super) fn remove_acked(&mut self, n: u32, snd_una: u32) -> (u32, Option<(u32, Segment)>) {
        let mut newly_acked = 0;
        let mut last: Option<(u32, Segment)> = None;
        for k in 0..n {
            let seg = self
                .segments
                .pop_front()
                .expect("scoreboard covers snd_una..snd_nxt");
            let seq = snd_una.wrapping_add(k);
            if seg.flags & SACKED != 0 {
                self.sacked_out -= 1;
            } else {
                newly_acked += 1;
                if last.is_none_or(|(s, l)| seg.sent_after(seq, &l, s)) {
                    last = Some((seq, seg));
                }
            }
            if seg.flags & LOST != 0 {
                self.lost_out -= 1;
            }
            if seg.flags & RETRANS != 0 {
                self.retrans_out -= 1;
            }
        }
        // Retransmissions the cumulative ACK now covers can never be found
        // lost: drop their entries from the front (the queue is in sending
        // order, so what stays behind was sent later), or a flow that
        // never sees a SACK block, which is what pops them, would keep one
        // per retransmission for the whole run.
        let una = snd_una.wrapping_add(n);
        if let Some(q) = &mut self.pending_retransmissions {
            while q.front().is_some_and(|&(seq, _)| before(seq, una)) {
                q.pop_front();
            }
        }
        (newly_acked, last)
    }

    /// Markers the cumulative ACK passed read as snd_una wherever they are
    /// used; move them there so that they never fall 2^31 behind it, where
    /// modulo comparison would turn.
    pub(super) fn follow_una(&mut self, snd_una: u32) {
        self.retransmit_hint = seq_max(self.retransmit_hint, snd_una);
        self.lost_marker = seq_max(self.lost_marker, snd_una);
    }

    /// NewReno: duplicate ACKs counted as pseudo-SACKs are now covered by
    /// `n` cumulatively acknowledged segments (Linux `tcp_remove_reno_sacks`).
    pub(super) fn remove_reno_sacks(&mut self, n: u32) {
        self.sacked_out = self.sacked_out.saturating_sub(n);
    }

    /// NewReno duplicate ACK (Linux `tcp_add_reno_sack`).
    pub(super) fn add_reno_sack(&mut self, packets_out: u32) {
        if self.sacked_out + self.lost_out < packets_out {
            self.sacked_out += 1;
        }
    }

    /// FACK loss marking (Linux 2.6 default): a hole is lost once a segment
    /// DUP_THRESH above it has been SACKed. `on_lost` sees each segment
    /// newly marked, with the lost count that includes it (as every marking
    /// function here: Linux v3's `tcp_notify_skb_loss_event`).
    pub(super) fn mark_lost(&mut self, snd_una: u32, mut on_lost: impl FnMut(&Segment, u64)) {
        let Some(high) = self.highest_sacked else {
            return;
        };
        if before(high, snd_una) {
            self.highest_sacked = None;
            return;
        }
        // Below snd_una (nothing to mark) when high is within 2 of it.
        let limit = high.wrapping_sub(DUP_THRESH - 1);
        let mut seq = seq_max(self.lost_marker, snd_una);
        while before(seq, limit) {
            let i = Self::index(seq, snd_una);
            let seg = &mut self.segments[i];
            if seg.flags & (SACKED | LOST) == 0 {
                seg.flags |= LOST;
                self.lost_out += 1;
                self.lost_total += 1;
                self.retransmit_hint = seq_min(self.retransmit_hint, seq);
                on_lost(seg, self.lost_total);
            }
            seq = seq.wrapping_add(1);
        }
        self.lost_marker = seq_max(self.lost_marker, limit);
    }

    /// Lost retransmissions (Linux 2.4 `tcp_sacktag_write_queue`, event
    /// "C"; RFC 8985 RACK with no reordering window): a retransmission is
    /// lost once a segment at or above the snd_nxt it was sent at has been
    /// SACKed, since that segment left after it. It is marked lost again
    /// and not in flight, so it is sent once more. Returns how many.
    pub(super) fn mark_lost_retransmits(
        &mut self,
        snd_una: u32,
        mut on_lost: impl FnMut(&Segment, u64),
    ) -> u64 {
        let (Some(high), Some(q)) = (self.highest_sacked, &mut self.pending_retransmissions) else {
            return 0;
        };
        let mut found = 0;
        while let Some(&(seq, at_nxt)) = q.front() {
            if before(high, at_nxt) {
                // Later entries were sent later still: none is due.
                break;
            }
            q.pop_front();
            if before(seq, snd_una) {
                continue;
            }
            let s = &mut self.segments[Self::index(seq, snd_una)];
            // A newer retransmission of the same segment has its own entry.
            if s.flags & RETRANS == 0 || s.flags & SACKED != 0 || s.retransmitted_at_nxt != at_nxt {
                continue;
            }
            s.flags &= !RETRANS;
            self.retrans_out -= 1;
            if s.flags & LOST == 0 {
                s.flags |= LOST;
                self.lost_out += 1;
            }
            self.lost_total += 1;
            self.retransmit_hint = seq_min(self.retransmit_hint, seq);
            found += 1;
            on_lost(s, self.lost_total);
        }
        found
    }

    /// Linux `tcp_limit_reno_sacked`: without SACK, duplicate ACKs can't
    /// stand for more segments than are outstanding and not already lost.
    pub(super) fn limit_reno_sacked(&mut self, packets_out: u32) {
        self.sacked_out = self
            .sacked_out
            .min(packets_out.saturating_sub(self.lost_out));
    }

    /// NewReno: the first unacknowledged segment (`snd_una`, which is
    /// outstanding) is lost.
    pub(super) fn mark_head_lost(&mut self, snd_una: u32, mut on_lost: impl FnMut(&Segment, u64)) {
        let seg = &mut self.segments[Self::index(snd_una, snd_una)];
        if seg.flags & LOST == 0 {
            seg.flags |= LOST;
            seg.flags &= !RETRANS;
            self.lost_out += 1;
            self.lost_total += 1;
            on_lost(seg, self.lost_total);
        } else if seg.flags & RETRANS != 0 {
            seg.flags &= !RETRANS;
            self.retrans_out -= 1;
            self.lost_total += 1;
            on_lost(seg, self.lost_total);
        }
        self.retransmit_hint = snd_una;
    }

    /// A retransmission timeout: every segment not SACKed is lost and none
    /// is being resent (Linux `tcp_enter_loss`); without SACK the
    /// pseudo-SACKs are forgotten too.
    pub(super) fn mark_all_lost(
        &mut self,
        snd_una: u32,
        snd_nxt: u32,
        sack: bool,
        mut on_lost: impl FnMut(&Segment, u64),
    ) {
        for seg in self.segments.iter_mut() {
            if seg.flags & SACKED == 0 {
                let newly = seg.flags & LOST == 0 || seg.flags & RETRANS != 0;
                seg.flags = LOST;
                if newly {
                    self.lost_total += 1;
                    on_lost(seg, self.lost_total);
                }
            } else {
                seg.flags = SACKED;
            }
        }
        let packets_out = snd_nxt.wrapping_sub(snd_una);
        self.lost_out = packets_out - self.sacked_out;
        self.retrans_out = 0;
        self.retransmit_hint = snd_una;
        self.lost_marker = snd_nxt;
        if let Some(q) = &mut self.pending_retransmissions {
            q.clear();
        }
        if !sack {
            self.sacked_out = 0;
            self.lost_out = packets_out;
        }
    }
}
