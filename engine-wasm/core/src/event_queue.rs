//! The simulation's event queue: events leave in (time, sequence) order,
//! the sequence being the order they were scheduled in, so that equal times
//! keep their scheduling order and a run is reproducible bit for bit.
//!
//! Keys are 16 bytes: the time in the high 64 bits, then the sequence
//! number, then the event itself packed into 16 bits (its kind and the
//! link or flow it is for), so that one integer comparison orders two
//! events and a key is all there is to an event. Sequence numbers are
//! unique, so the event bits never decide an order.
//!
//! The pending keys are kept sorted, latest first: taking the earliest is
//! a pop from the end, and scheduling moves up only the keys due before
//! the new one (a link's next completion is among the earliest: one or two
//! moves), a short, predictable loop. A dozen events are pending in a run
//! of two flows, a few more per flow. Past a thousand (hundreds of
//! flows) the insertion costs more than a heap's logarithm, and the keys
//! move into a binary heap, and back once few remain.
//!
//! This replaced a binary heap of (time, sequence, event) structs compared
//! field by field, the largest cost of a run. Taking from a heap is a chain
//! of dependent loads and comparisons, one per level; a winner tree, a
//! 4-ary heap, a tree of block minima and a radix heap were all slower
//! than the sorted keys here (BENCHMARKS.md, "Faster engine").

use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Bits of a key that hold the event; the sequence number has the other
/// 48 of the low half.
const EVENT_BITS: u32 = 16;

/// An event that packs into [`EVENT_BITS`] bits, to travel inside a key.
pub(crate) trait EventCode: Copy {
    fn code(self) -> u16;
    fn from_code(code: u16) -> Self;
}

/// (time, sequence, event) packed into one integer (see the module
/// comment).
type Key = u128;

/// Above this many pending events the keys go to a heap; below
/// [`SORTED_AGAIN`] they come back (the gap keeps them from switching at
/// every event). Measured: the sorted keys were faster with 160 flows, the
/// heap with 4 096. The unit tests use small values to switch often.
const SORTED_MAX: usize = if cfg!(test) { 24 } else { 1024 };
const SORTED_AGAIN: usize = if cfg!(test) { 8 } else { 256 };

fn time_of(k: Key) -> u64 {
    (k >> 64) as u64
}

/// A priority queue of events of type `E`.
#[derive(Debug)]
pub(crate) struct EventQueue<E> {
    next_seq: u64,
    /// The pending keys, latest first, while there are few (`!large`).
    sorted: Vec<Key>,
    /// The pending keys while there are many (`large`).
    heap: BinaryHeap<Reverse<Key>>,
    large: bool,
    event: std::marker::PhantomData<E>,
}

impl<E: EventCode> EventQueue<E> {
    pub fn new() -> Self {
        EventQueue {
            next_seq: 0,
            sorted: Vec::with_capacity(SORTED_MAX),
            heap: BinaryHeap::new(),
            large: false,
            event: std::marker::PhantomData,
        }
    }

    /// Schedule `event` at `time_ns`.
    #[inline]
    pub fn push(&mut self, time_ns: u64, event: E) {
        let seq = self.next_seq;
        self.next_seq += 1;
        // 2^48 events is years of simulated gigabit traffic, far beyond the
        // scenario limits; checked all the same, since order depends on it.
        assert!(seq < 1 << (64 - EVENT_BITS), "event sequence overflow");
        let tag = seq << EVENT_BITS | event.code() as u64;
        let key = (time_ns as Key) << 64 | tag as Key;
        if self.large {
            self.heap.push(Reverse(key));
        } else if self.sorted.len() == SORTED_MAX {
            self.large = true;
            self.heap = self.sorted.drain(..).map(Reverse).collect();
            self.heap.push(Reverse(key));
        } else {
            // Move up the keys due before this one, from the earliest.
            self.sorted.push(key);
            let keys = &mut self.sorted[..];
            let mut i = keys.len() - 1;
            while i > 0 && keys[i - 1] < key {
                keys[i] = keys[i - 1];
                i -= 1;
            }
            keys[i] = key;
        }
    }

    /// The earliest event, if it is due by `until_ns`: removed and returned
    /// with its time.
    #[inline]
    pub fn pop_until(&mut self, until_ns: u64) -> Option<(u64, E)> {
        let first = if self.large {
            let Reverse(first) = *self.heap.peek()?;
            if time_of(first) > until_ns {
                return None;
            }
            self.heap.pop();
            if self.heap.len() < SORTED_AGAIN {
                self.large = false;
                // Ascending in Reverse: the keys latest first.
                let keys = std::mem::take(&mut self.heap).into_sorted_vec();
                self.sorted.extend(keys.into_iter().map(|Reverse(k)| k));
            }
            first
        } else {
            let first = *self.sorted.last()?;
            if time_of(first) > until_ns {
                return None;
            }
            self.sorted.pop();
            first
        };
        Some((time_of(first), E::from_code(first as u16)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    impl EventCode for u16 {
        fn code(self) -> u16 {
            self
        }

        fn from_code(code: u16) -> Self {
            code
        }
    }
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;

    /// The reference: the engine's former queue, one binary heap over
    /// (time, sequence).
    #[derive(Default)]
    struct Reference {
        heap: BinaryHeap<Reverse<(u64, u64, u16)>>,
        seq: u64,
    }

    impl Reference {
        fn push(&mut self, t: u64, e: u16) {
            self.heap.push(Reverse((t, self.seq, e)));
            self.seq += 1;
        }

        fn pop_until(&mut self, until: u64) -> Option<(u64, u16)> {
            match self.heap.peek() {
                Some(Reverse((t, _, _))) if *t <= until => {
                    self.heap.pop().map(|Reverse((t, _, e))| (t, e))
                }
                _ => None,
            }
        }
    }

    #[test]
    fn equal_times_leave_in_scheduling_order() {
        let mut q = EventQueue::new();
        q.push(10, 1u16);
        q.push(10, 2);
        q.push(10, 3);
        q.push(5, 4);
        q.push(10, 4);
        q.push(10, 0);
        let order: Vec<_> = std::iter::from_fn(|| q.pop_until(u64::MAX)).collect();
        assert_eq!(order, [(5, 4), (10, 1), (10, 2), (10, 3), (10, 4), (10, 0)]);
    }

    #[test]
    fn nothing_after_the_horizon_is_popped() {
        let mut q = EventQueue::new();
        q.push(100, 7u16);
        q.push(200, 8);
        assert_eq!(q.pop_until(99), None);
        assert_eq!(q.pop_until(150), Some((100, 7)));
        assert_eq!(q.pop_until(150), None);
        assert_eq!(q.pop_until(200), Some((200, 8)));
        assert_eq!(q.pop_until(u64::MAX), None);
    }

    #[test]
    fn every_code_comes_back() {
        let mut q = EventQueue::new();
        for c in [0, 1, 0x0fff, 0x1000, u16::MAX] {
            q.push(1, c);
            assert_eq!(q.pop_until(1), Some((1, c)));
        }
    }

    /// Filling far past the heap threshold and draining below the sorted
    /// one, twice, keeps the order.
    #[test]
    fn the_order_survives_moving_to_the_heap_and_back() {
        let mut q = EventQueue::new();
        let mut r = Reference::default();
        let (mut now, mut pending) = (0, 0);
        for round in 0..2u64 {
            for i in 0..3 * SORTED_MAX as u64 {
                let t = now + (i * 37 + round) % 101;
                q.push(t, (i % 7) as u16);
                r.push(t, (i % 7) as u16);
                pending += 1;
            }
            assert!(q.large, "in the heap");
            while pending > SORTED_AGAIN / 2 {
                let got = q.pop_until(u64::MAX);
                assert_eq!(got, r.pop_until(u64::MAX));
                now = got.expect("pending").0;
                pending -= 1;
            }
            assert!(!q.large, "back to sorted keys");
        }
    }

    proptest! {
        /// Any interleaving of pushes and pops gives exactly the former
        /// queue's order, with few events pending or many (the keys move
        /// to the heap and back).
        #[test]
        fn pops_in_exactly_the_former_queues_order(
            push_weight in 1u8..4,
            ops in prop::collection::vec((0u8..4, any::<u16>(), 0u64..50), 1..400),
        ) {
            let mut q = EventQueue::new();
            let mut r = Reference::default();
            let mut now = 0u64;
            for (op, e, dt) in ops {
                if op < push_weight {
                    q.push(now + dt, e);
                    r.push(now + dt, e);
                } else {
                    let until = now + dt;
                    let got = q.pop_until(until);
                    prop_assert_eq!(got, r.pop_until(until));
                    if let Some((t, _)) = got {
                        now = t;
                    }
                }
            }
            loop {
                let got = q.pop_until(u64::MAX);
                prop_assert_eq!(got, r.pop_until(u64::MAX));
                if got.is_none() {
                    break;
                }
            }
        }
    }
}
