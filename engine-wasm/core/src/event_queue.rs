//! The simulation's event queue: events leave in (time, sequence) order,
//! the sequence being the order they were scheduled in, so that equal times
//! keep their scheduling order and a run is reproducible bit for bit.
//!
//! Keys are 16 bytes: the time in the high 64 bits, then the sequence
//! number, then the event's *source* (a link, a delay line, a flow's
//! timer), so that one integer comparison orders two events. Sequence
//! numbers are unique, so the source bits never decide an order. The event
//! itself is a function of its source (a source always schedules the same
//! event) and is stored once per source.
//!
//! The pending keys are kept sorted, latest first: taking the earliest is
//! a pop from the end, and scheduling moves up only the keys due before
//! the new one (a link's next completion is among the earliest: one or two
//! moves), a short, predictable loop. A dozen events are pending in a run
//! of two flows, a few hundred with a hundred flows. Past a thousand
//! (thousands of flows) the insertion costs more than a heap's logarithm,
//! and the keys move into a binary heap, and back once few remain.
//!
//! This replaced a binary heap of (time, sequence, event) structs compared
//! field by field, the largest cost of a run. Taking from a heap is a chain
//! of dependent loads and comparisons, one per level; a winner tree, a
//! 4-ary heap, a tree of block minima and a radix heap were all slower
//! than the sorted keys here (BENCHMARKS.md, "Faster engine").

use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Bits of a key that hold the source; the sequence number has the other
/// 48 of the low half.
const SOURCE_BITS: u32 = 16;
const SOURCE_MASK: u64 = (1 << SOURCE_BITS) - 1;
/// The most sources a queue can have (the scenario limits need ~29 000).
const MAX_SOURCES: usize = 1 << SOURCE_BITS;

/// (time, sequence, source) packed into one integer (see the module
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

fn source_of(k: Key) -> usize {
    (k as u64 & SOURCE_MASK) as usize
}

/// A priority queue of events of type `E`, each scheduled by one of a
/// fixed number of sources.
#[derive(Debug)]
pub(crate) struct EventQueue<E> {
    next_seq: u64,
    /// The pending keys, latest first, while there are few (`!large`).
    sorted: Vec<Key>,
    /// The pending keys while there are many (`large`).
    heap: BinaryHeap<Reverse<Key>>,
    large: bool,
    /// The event each source schedules.
    events: Vec<E>,
}

impl<E: Copy> EventQueue<E> {
    /// A queue for `sources` sources; `filler` is stored for sources that
    /// have scheduled nothing yet and is never returned.
    pub fn new(sources: usize, filler: E) -> Self {
        assert!(
            sources <= MAX_SOURCES,
            "{sources} event sources (at most {MAX_SOURCES})"
        );
        EventQueue {
            next_seq: 0,
            sorted: Vec::with_capacity(SORTED_MAX),
            heap: BinaryHeap::new(),
            large: false,
            events: vec![filler; sources],
        }
    }

    /// Schedule `event`, from `source`, at `time_ns`.
    #[inline]
    pub fn push(&mut self, source: usize, time_ns: u64, event: E) {
        let seq = self.next_seq;
        self.next_seq += 1;
        // 2^48 events is years of simulated gigabit traffic, far beyond the
        // scenario limits; checked all the same, since order depends on it.
        assert!(seq < 1 << (64 - SOURCE_BITS), "event sequence overflow");
        self.events[source] = event;
        let tag = seq << SOURCE_BITS | source as u64;
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
        Some((time_of(first), self.events[source_of(first)]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;

    /// The reference: the engine's former queue, one binary heap over
    /// (time, sequence).
    #[derive(Default)]
    struct Reference {
        heap: BinaryHeap<Reverse<(u64, u64, u32)>>,
        seq: u64,
    }

    impl Reference {
        fn push(&mut self, t: u64, e: u32) {
            self.heap.push(Reverse((t, self.seq, e)));
            self.seq += 1;
        }

        fn pop_until(&mut self, until: u64) -> Option<(u64, u32)> {
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
        let mut q = EventQueue::new(4, 0u32);
        q.push(2, 10, 1);
        q.push(3, 10, 2);
        q.push(0, 10, 3);
        q.push(1, 5, 4);
        q.push(1, 10, 4);
        let order: Vec<_> = std::iter::from_fn(|| q.pop_until(u64::MAX)).collect();
        assert_eq!(order, [(5, 4), (10, 1), (10, 2), (10, 3), (10, 4)]);
    }

    #[test]
    fn nothing_after_the_horizon_is_popped() {
        let mut q = EventQueue::new(2, 0u32);
        q.push(0, 100, 7);
        q.push(1, 200, 8);
        assert_eq!(q.pop_until(99), None);
        assert_eq!(q.pop_until(150), Some((100, 7)));
        assert_eq!(q.pop_until(150), None);
        assert_eq!(q.pop_until(200), Some((200, 8)));
        assert_eq!(q.pop_until(u64::MAX), None);
    }

    /// Filling far past the heap threshold and draining below the sorted
    /// one, twice, keeps the order.
    #[test]
    fn the_order_survives_moving_to_the_heap_and_back() {
        let mut q = EventQueue::new(7, 0u32);
        let mut r = Reference::default();
        let (mut now, mut pending) = (0, 0);
        for round in 0..2u64 {
            for i in 0..3 * SORTED_MAX as u64 {
                let t = now + (i * 37 + round) % 101;
                q.push((i % 7) as usize, t, (i % 7) as u32);
                r.push(t, (i % 7) as u32);
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
            sources in 1usize..20,
            push_weight in 1u8..4,
            ops in prop::collection::vec((0u8..4, 0usize..20, 0u64..50), 1..400),
        ) {
            let mut q = EventQueue::new(sources, 0u32);
            let mut r = Reference::default();
            let mut now = 0u64;
            for (op, s, dt) in ops {
                // A source always schedules the same event: its number.
                let s = s % sources;
                if op < push_weight {
                    q.push(s, now + dt, s as u32);
                    r.push(now + dt, s as u32);
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
