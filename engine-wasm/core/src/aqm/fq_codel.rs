//! FlowQueue-CoDel (Hoeiland-Joergensen, McKenney, Taht, Gettys & Dumazet,
//! RFC 8290): packets are classified into flow queues, served by deficit
//! round robin in bytes with priority for new (sparse) flows, and each
//! queue is managed by its own CoDel (RFC 8289).
//!
//! * Classification (RFC 8290 §4.1.1 hashes the 5-tuple): a fixed hash,
//!   the flow's index modulo `flows`, the probe counting as flow number
//!   `tcp_flows` (its own queue). So while `flows` exceeds the number of
//!   TCP flows no two flows share a queue; with fewer queues, flows `i` and
//!   `j` share one exactly when i ≡ j (mod flows). Linux hashes with a
//!   random perturbation, so collisions there are a matter of chance.
//! * Enqueue (§4.1): the packet is timestamped and added to its queue; a
//!   queue not on either list joins the tail of the new list with a
//!   deficit of one quantum. When the whole qdisc holds more than its
//!   limit (`bottleneck.buffer_pkts`), one packet is dropped from the head
//!   of the queue with the most bytes (§4.1.1). Linux drops up to half of
//!   that queue's bytes at once (at most 64 packets) and raises its CoDel
//!   count: batching for CPU time, not modelled.
//! * Dequeue (§4.2): the head of the new list, else of the old list; a
//!   queue whose deficit is spent gets another quantum and moves to the
//!   tail of the old list; otherwise CoDel dequeues from it. A queue CoDel
//!   leaves empty moves from the new list to the old list (so that a flow
//!   cannot stay new by sending a packet at a time), or, on the old list,
//!   is removed. The sent packet's bytes are charged to the deficit.
//! * CoDel compares the bytes left with MAXPACKET over the whole qdisc, as
//!   Linux's `fq_codel_dequeue` passes its total backlog to CoDel.

use super::codel::{Codel, CodelParams, CodelQueue};
use super::Signals;
use crate::net::Frame;
use std::collections::VecDeque;

/// Quantum: bytes a queue may send per round (RFC 8290 §5.1 / Linux's
/// default, the interface MTU plus the Ethernet header: 1514).
pub const QUANTUM_BYTES: u32 = 1514;
/// Flow queues (RFC 8290 §5.1 / Linux's default `flows`: 1024).
pub const FLOWS: u32 = 1024;
/// The quantum's range (Linux's `fq_codel_change`), from the scenario's limits.
pub const QUANTUM_RANGE: (u32, u32) = crate::scenario::limits::FQ_QUANTUM_BYTES;
/// The flow queues' range (Linux refuses more than 65 536).
pub const FLOWS_RANGE: (u32, u32) = crate::scenario::limits::FQ_FLOWS;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum List {
    None,
    New,
    Old,
}

#[derive(Clone, Debug)]
struct FlowQueue {
    frames: VecDeque<Frame>,
    bytes: u64,
    deficit: i64,
    codel: Codel,
    list: List,
}

/// The qdisc.
#[derive(Clone, Debug)]
pub struct FqCodel {
    params: CodelParams,
    quantum: i64,
    flows: u32,
    probe_queue: usize,
    queues: Vec<FlowQueue>,
    new_flows: VecDeque<usize>,
    old_flows: VecDeque<usize>,
    pkts: usize,
    bytes: u64,
}

/// One flow queue seen by its CoDel: popping updates the qdisc's totals,
/// and the bytes left are the whole qdisc's.
struct View<'a> {
    frames: &'a mut VecDeque<Frame>,
    bytes: &'a mut u64,
    total_pkts: &'a mut usize,
    total_bytes: &'a mut u64,
}

impl CodelQueue for View<'_> {
    fn pop(&mut self) -> Option<(Frame, u64)> {
        let f = self.frames.pop_front()?;
        *self.bytes -= f.len_bytes as u64;
        *self.total_pkts -= 1;
        *self.total_bytes -= f.len_bytes as u64;
        Some((f, *self.total_bytes))
    }
}

impl FqCodel {
    /// Bytes the flow queues have allocated for frames.
    pub fn allocated_bytes(&self) -> u64 {
        let frames: usize = self.queues.iter().map(|q| q.frames.capacity()).sum();
        (frames * std::mem::size_of::<Frame>()) as u64
    }

    /// `tcp_flows` TCP flows (indices 0..tcp_flows) and the probe.
    pub fn new(params: CodelParams, quantum_bytes: u32, flows: u32, tcp_flows: usize) -> FqCodel {
        let flows = flows.max(1);
        // Only the queues some flow hashes to are ever used.
        let used = (tcp_flows + 1).min(flows as usize);
        FqCodel {
            params,
            quantum: quantum_bytes as i64,
            flows,
            probe_queue: tcp_flows % flows as usize,
            queues: vec![
                FlowQueue {
                    frames: VecDeque::new(),
                    bytes: 0,
                    deficit: 0,
                    codel: Codel::default(),
                    list: List::None,
                };
                used
            ],
            new_flows: VecDeque::new(),
            old_flows: VecDeque::new(),
            pkts: 0,
            bytes: 0,
        }
    }

    /// The queue a packet of `flow` joins.
    pub fn queue_of(&self, flow: u32) -> usize {
        if flow == crate::net::PROBE_FLOW {
            self.probe_queue
        } else {
            (flow % self.flows) as usize
        }
    }

    /// Packets waiting in all queues.
    pub fn len(&self) -> usize {
        self.pkts
    }

    pub fn is_empty(&self) -> bool {
        self.pkts == 0
    }

    /// Bytes waiting in all queues.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// Add `f` (timestamped by the caller) to its flow's queue.
    pub fn enqueue(&mut self, f: Frame) {
        let i = self.queue_of(f.packet.flow);
        let q = &mut self.queues[i];
        q.frames.push_back(f);
        q.bytes += f.len_bytes as u64;
        self.pkts += 1;
        self.bytes += f.len_bytes as u64;
        if q.list == List::None {
            q.list = List::New;
            q.deficit = self.quantum;
            self.new_flows.push_back(i);
        }
    }

    /// Over the limit: drop the head of the queue holding the most bytes
    /// (the first such queue on a tie). None if all are empty.
    pub fn drop_from_fattest(&mut self) -> Option<Frame> {
        let (i, _) = self
            .queues
            .iter()
            .enumerate()
            .filter(|(_, q)| q.bytes > 0)
            .fold(None, |best: Option<(usize, u64)>, (i, q)| match best {
                Some((_, b)) if b >= q.bytes => best,
                _ => Some((i, q.bytes)),
            })?;
        let q = &mut self.queues[i];
        let f = q.frames.pop_front()?;
        q.bytes -= f.len_bytes as u64;
        self.pkts -= 1;
        self.bytes -= f.len_bytes as u64;
        Some(f)
    }

    /// The next frame to send at `now_ns` (RFC 8290 §4.2); CoDel's drops
    /// and marks go to `signals`.
    pub fn dequeue(&mut self, now_ns: u64, signals: &mut Signals) -> Option<Frame> {
        loop {
            let (i, from_new) = match (self.new_flows.front(), self.old_flows.front()) {
                (Some(&i), _) => (i, true),
                (None, Some(&i)) => (i, false),
                (None, None) => return None,
            };
            let q = &mut self.queues[i];
            if q.deficit <= 0 {
                q.deficit += self.quantum;
                if from_new {
                    self.new_flows.pop_front();
                } else {
                    self.old_flows.pop_front();
                }
                q.list = List::Old;
                self.old_flows.push_back(i);
                continue;
            }
            let FlowQueue {
                frames,
                bytes,
                codel,
                ..
            } = q;
            let mut view = View {
                frames,
                bytes,
                total_pkts: &mut self.pkts,
                total_bytes: &mut self.bytes,
            };
            match codel.dequeue(&self.params, now_ns, &mut view, signals) {
                Some(f) => {
                    q.deficit -= f.len_bytes as i64;
                    return Some(f);
                }
                None if from_new => {
                    self.new_flows.pop_front();
                    q.list = List::Old;
                    self.old_flows.push_back(i);
                }
                None => {
                    self.old_flows.pop_front();
                    q.list = List::None;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aqm::testing;
    use crate::net::PROBE_FLOW;

    const MS: u64 = 1_000_000;

    fn frame(flow: u32, seq: u32, ip_bytes: u32, now: u64) -> Frame {
        let mut f = testing::frame(flow, seq, ip_bytes, now);
        f.packet.sent_ns = now;
        f
    }

    fn params() -> CodelParams {
        CodelParams {
            target_ns: 5 * MS,
            interval_ns: 100 * MS,
            maxpacket_bytes: 1514,
            ecn: false,
        }
    }

    #[test]
    fn the_defaults_are_rfc_8290s() {
        assert_eq!(QUANTUM_BYTES, 1514);
        assert_eq!(FLOWS, 1024);
    }

    #[test]
    fn flows_and_the_probe_get_their_own_queues_while_there_are_enough() {
        let fq = FqCodel::new(params(), 1514, 1024, 10);
        let queues: Vec<_> = (0..10).map(|f| fq.queue_of(f)).collect();
        assert_eq!(queues, (0..10).collect::<Vec<_>>());
        assert_eq!(fq.queue_of(PROBE_FLOW), 10);
        let small = FqCodel::new(params(), 1514, 4, 10);
        assert_eq!(small.queue_of(1), small.queue_of(5), "1 ≡ 5 mod 4");
        assert_eq!(small.queue_of(PROBE_FLOW), 2, "the probe is flow 10");
    }

    /// A sparse flow's packet (here the probe) leaves before a bulk flow's
    /// backlog: it arrives on the new list, which is served first.
    #[test]
    fn a_sparse_flows_packet_leaves_before_a_bulk_backlog() {
        let mut fq = FqCodel::new(params(), 1514, 1024, 2);
        let mut signals = Signals::default();
        for s in 0..100 {
            fq.enqueue(frame(0, s, 1500, 0));
        }
        // The bulk flow has been served a while: it is on the old list.
        for _ in 0..5 {
            fq.dequeue(MS, &mut signals).unwrap();
        }
        fq.enqueue(frame(PROBE_FLOW, 0, 84, MS));
        let next = fq.dequeue(MS, &mut signals).unwrap();
        assert!(next.packet.is_probe(), "{next:?}");
    }

    /// DRR shares bytes, not packets: a flow of 500-byte packets sends
    /// three for each 1500-byte packet of the other.
    #[test]
    fn deficit_round_robin_shares_bytes_fairly() {
        let mut fq = FqCodel::new(params(), 1514, 1024, 2);
        let mut signals = Signals::default();
        for s in 0..3000 {
            fq.enqueue(frame(0, s, 1500, 0));
            fq.enqueue(frame(1, s, 500, 0));
        }
        let mut sent = [0u64; 2];
        for _ in 0..2000 {
            // Dequeued at once: no sojourn, no CoDel drop.
            let f = fq.dequeue(0, &mut signals).unwrap();
            sent[f.packet.flow as usize] += f.len_bytes as u64;
        }
        let ratio = sent[0] as f64 / sent[1] as f64;
        assert!((ratio - 1.0).abs() < 0.01, "bytes {sent:?}");
        assert_eq!(signals.drops, 0);
    }

    #[test]
    fn a_new_queue_goes_to_the_old_list_after_its_quantum_and_an_empty_old_queue_leaves() {
        let mut fq = FqCodel::new(params(), 1514, 1024, 2);
        let mut signals = Signals::default();
        fq.enqueue(frame(0, 0, 1500, 0));
        fq.enqueue(frame(0, 1, 1500, 0));
        assert_eq!(fq.new_flows, [0]);
        fq.dequeue(0, &mut signals).unwrap();
        // 1514 − 1514 = 0: the quantum is spent; the next dequeue moves it.
        fq.dequeue(0, &mut signals).unwrap();
        assert_eq!(fq.new_flows.len(), 0);
        assert_eq!(fq.old_flows, [0]);
        assert!(fq.dequeue(0, &mut signals).is_none());
        assert_eq!(fq.old_flows.len(), 0, "empty old queue removed");
        assert_eq!(fq.queues[0].list, List::None);
        // A single packet of a new flow: when its queue empties it moves
        // to the old list first.
        fq.enqueue(frame(1, 0, 100, 0));
        fq.dequeue(0, &mut signals).unwrap();
        assert!(fq.dequeue(0, &mut signals).is_none());
        assert_eq!(fq.queues[1].list, List::None);
    }

    #[test]
    fn overflow_drops_from_the_head_of_the_fattest_queue() {
        let mut fq = FqCodel::new(params(), 1514, 1024, 3);
        for s in 0..5 {
            fq.enqueue(frame(0, s, 1500, 0));
        }
        for s in 0..8 {
            fq.enqueue(frame(1, s, 500, 0));
        }
        fq.enqueue(frame(2, 0, 1500, 0));
        let dropped = fq.drop_from_fattest().unwrap();
        assert_eq!((dropped.packet.flow, dropped.packet.seq), (0, 0));
        assert_eq!(fq.len(), 13);
    }

    /// Each queue has its own CoDel: a standing bulk queue is dropped from
    /// while a sparse flow's packets are not.
    #[test]
    fn codel_runs_per_queue() {
        let mut fq = FqCodel::new(params(), 1514, 1024, 2);
        let mut signals = Signals::default();
        let mut seq = 0;
        let mut now = 0;
        let mut probe_sent = 0;
        while now < 2_000 * MS {
            // The bulk flow keeps ~40 ms of packets queued; the sparse flow
            // sends one packet every 10 ms.
            while fq.queues[0].frames.len() < 400 {
                fq.enqueue(frame(0, seq, 1500, now));
                seq += 1;
            }
            if now % (10 * MS) == 0 {
                fq.enqueue(frame(1, 0, 100, now));
            }
            if let Some(f) = fq.dequeue(now, &mut signals) {
                probe_sent += (f.packet.flow == 1) as u64;
            }
            now += 100_000;
        }
        assert!(signals.drops > 0);
        assert_eq!(probe_sent, 200, "every sparse packet sent");
    }
}
