//! Sequence-number arithmetic modulo 2^32 (RFC 793 §3.3, RFC 1982), as
//! Linux's `before()` and `after()` (`include/net/tcp.h`) do it:
//! `seq1` is before `seq2` when `(s32)(seq1 - seq2) < 0`.
//!
//! The engine numbers whole segments, so its 32-bit space wraps after
//! 2^32 segments; a connection starts at its initial sequence number
//! (`tcp.initial_sequence`, or one drawn from the seed), so a run may wrap
//! at any point. Every comparison of two sequence numbers goes through
//! these, every step through `wrapping_add`/`wrapping_sub`; two numbers
//! compared are always less than 2^31 apart (the window is far smaller),
//! so the order is the order of the unbounded numbers they stand for.

/// `a` comes before `b` (Linux `before(a, b)`).
#[inline]
pub fn before(a: u32, b: u32) -> bool {
    (a.wrapping_sub(b) as i32) < 0
}

/// `a` comes after `b` (Linux `after(a, b)`).
#[inline]
pub fn after(a: u32, b: u32) -> bool {
    before(b, a)
}

/// The later of two sequence numbers.
#[inline]
pub fn seq_max(a: u32, b: u32) -> u32 {
    if before(a, b) {
        b
    } else {
        a
    }
}

/// The earlier of two sequence numbers.
#[inline]
pub fn seq_min(a: u32, b: u32) -> u32 {
    if before(a, b) {
        a
    } else {
        b
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_is_modulo_two_to_the_32() {
        assert!(before(1, 2) && after(2, 1));
        assert!(!before(5, 5) && !after(5, 5));
        // Across the wrap: u32::MAX is just before 0.
        assert!(before(u32::MAX, 0) && after(0, u32::MAX));
        assert!(before(u32::MAX - 100, 100));
        assert_eq!(seq_max(u32::MAX - 3, 2), 2);
        assert_eq!(seq_min(u32::MAX - 3, 2), u32::MAX - 3);
        // Less than 2^31 apart: the unbounded order.
        assert!(before(0, (1 << 31) - 1));
        assert!(
            after(0, 1 << 31),
            "exactly 2^31 apart reads as after (Linux)"
        );
    }
}
