//! Controlled Delay, CoDel (Nichols, Jacobson, McGregor & Iyengar, RFC 8289):
//! a queue that watches how long packets wait (their sojourn time, §3.1)
//! and, once the wait has stayed above TARGET for a whole INTERVAL, drops
//! at dequeue, spacing drops by INTERVAL/√count (the control law, §4.5)
//! until the wait falls below TARGET again.
//!
//! This is the pseudocode of RFC 8289 §5 as a state machine with time
//! passed in; the queue itself is the caller's ([`CodelQueue`]), so the same
//! code serves the single FIFO of `codel` and each flow queue of
//! `fq_codel` (RFC 8290 §4.2).

use super::Signals;
use crate::net::Frame;

/// TARGET: the acceptable standing queue delay (RFC 8289 §4.3, §5.3: 5 ms).
pub const TARGET_MS: f64 = 5.0;

/// INTERVAL: how long the delay must stay above TARGET before dropping
/// starts, on the order of a worst-case RTT (RFC 8289 §4.2, §5.3: 100 ms).
pub const INTERVAL_MS: f64 = 100.0;

/// When a new dropping episode starts within this many INTERVALs of the
/// last drop, `count` resumes from the drops of the last episode (RFC 8289
/// §5.5, the "Linux version" of the re-entry rule the RFC gives).
pub const REENTRY_INTERVALS: u64 = 16;

/// CoDel's settings, resolved from the scenario.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CodelParams {
    pub target_ns: u64,
    pub interval_ns: u64,
    /// MAXPACKET (RFC 8289 §5.3: "SHOULD use interface MTU"): with at most
    /// this many bytes left in the queue CoDel never drops, since one
    /// packet is not a standing queue. In queue bytes (`Frame::len_bytes`):
    /// the MTU plus the Ethernet header.
    pub maxpacket_bytes: u64,
    /// Mark ECN-capable packets instead of dropping them (RFC 8289 §5.5
    /// leaves the drop to the implementation; RFC 3168 §5).
    pub ecn: bool,
}

/// The queue CoDel dequeues from.
pub trait CodelQueue {
    /// Remove the head frame; returns it and the bytes the queue holds
    /// after it left (what RFC 8289's `bytes()` reads after the dequeue).
    fn pop(&mut self) -> Option<(Frame, u64)>;
}

/// CoDel's per-queue state (RFC 8289 §5.2).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Codel {
    /// When the sojourn time will have stayed above TARGET for INTERVAL
    /// (`first_above_time`; None: it is below TARGET).
    pub first_above_ns: Option<u64>,
    /// When the next drop is due while dropping.
    pub drop_next_ns: u64,
    /// Drops since dropping started (or resumed from the last episode).
    pub count: u32,
    /// `count` when the last dropping episode started.
    pub lastcount: u32,
    pub dropping: bool,
}

/// The control law (RFC 8289 §4.5, §5.6): the next drop INTERVAL/√count
/// after `t_ns`.
pub fn control_law(t_ns: u64, interval_ns: u64, count: u32) -> u64 {
    t_ns + (interval_ns as f64 / (count.max(1) as f64).sqrt()).round() as u64
}

impl Codel {
    /// `dodequeue` of RFC 8289 §5.5: take the head and say whether its
    /// sojourn time has been above TARGET for an INTERVAL.
    fn dodequeue<Q: CodelQueue>(
        &mut self,
        p: &CodelParams,
        now_ns: u64,
        q: &mut Q,
    ) -> (Option<Frame>, bool) {
        let Some((frame, bytes_left)) = q.pop() else {
            // The queue is empty: it went below TARGET.
            self.first_above_ns = None;
            return (None, false);
        };
        let sojourn_ns = now_ns - frame.enqueued_ns;
        let ok_to_drop = if sojourn_ns < p.target_ns || bytes_left <= p.maxpacket_bytes {
            self.first_above_ns = None;
            false
        } else {
            match self.first_above_ns {
                None => {
                    self.first_above_ns = Some(now_ns + p.interval_ns);
                    false
                }
                Some(t) => now_ns >= t,
            }
        };
        (Some(frame), ok_to_drop)
    }

    /// Mark `frame` instead of dropping it, if ECN is on and the packet is
    /// ECN-capable (RFC 3168 §5: a Not-ECT packet is dropped).
    fn try_mark(p: &CodelParams, frame: &mut Frame, signals: &mut Signals) -> bool {
        if p.ecn && frame.packet.is_ect() {
            signals.mark(&mut frame.packet);
            true
        } else {
            false
        }
    }

    /// `dequeue` of RFC 8289 §5.5 at `now_ns`: the frame to send, if any;
    /// the frames it drops and marks go to `signals`.
    pub fn dequeue<Q: CodelQueue>(
        &mut self,
        p: &CodelParams,
        now_ns: u64,
        q: &mut Q,
        signals: &mut Signals,
    ) -> Option<Frame> {
        let (mut frame, ok_to_drop) = self.dodequeue(p, now_ns, q);
        if self.dropping {
            if !ok_to_drop {
                // The sojourn time went below TARGET: leave dropping.
                self.dropping = false;
            }
            while self.dropping && now_ns >= self.drop_next_ns {
                let mut f = frame.expect("ok_to_drop implies a frame");
                self.count += 1;
                if Self::try_mark(p, &mut f, signals) {
                    // A marked packet is sent: one signal per drop time.
                    self.drop_next_ns = control_law(self.drop_next_ns, p.interval_ns, self.count);
                    return Some(f);
                }
                signals.drop(&f.packet);
                let (next, ok) = self.dodequeue(p, now_ns, q);
                frame = next;
                if ok {
                    self.drop_next_ns = control_law(self.drop_next_ns, p.interval_ns, self.count);
                } else {
                    self.dropping = false;
                }
            }
        } else if ok_to_drop {
            let mut f = frame.expect("ok_to_drop implies a frame");
            if Self::try_mark(p, &mut f, signals) {
                frame = Some(f);
            } else {
                signals.drop(&f.packet);
                frame = self.dodequeue(p, now_ns, q).0;
            }
            self.dropping = true;
            // Re-entry (RFC 8289 §5.5): if dropping stopped recently, the
            // drop rate that controlled the queue last time is a good
            // start; `now − drop_next` approximates the time since the
            // last drop (and is negative if dropping stopped early).
            let delta = self.count.wrapping_sub(self.lastcount);
            let since_ns = now_ns as i128 - self.drop_next_ns as i128;
            self.count = if delta > 1 && since_ns < (REENTRY_INTERVALS * p.interval_ns) as i128 {
                delta
            } else {
                1
            };
            self.drop_next_ns = control_law(now_ns, p.interval_ns, self.count);
            self.lastcount = self.count;
        }
        frame
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aqm::testing;
    use std::collections::VecDeque;

    const MS: u64 = 1_000_000;

    /// A FIFO of frames of `len` bytes, all enqueued at `enqueued_ns`.
    struct Fifo(VecDeque<Frame>);

    impl CodelQueue for Fifo {
        fn pop(&mut self) -> Option<(Frame, u64)> {
            let f = self.0.pop_front()?;
            let left = self.0.iter().map(|f| f.len_bytes as u64).sum();
            Some((f, left))
        }
    }

    fn frame(flow: u32, enqueued_ns: u64) -> Frame {
        testing::frame(flow, 0, 1500, enqueued_ns)
    }

    fn params(ecn: bool) -> CodelParams {
        CodelParams {
            target_ns: 5 * MS,
            interval_ns: 100 * MS,
            maxpacket_bytes: 1514,
            ecn,
        }
    }

    /// A queue that always holds `depth` packets that each waited
    /// `sojourn_ns`: refilled before every dequeue.
    fn standing(depth: usize, now: u64, sojourn_ns: u64) -> Fifo {
        Fifo((0..depth).map(|_| frame(0, now - sojourn_ns)).collect())
    }

    #[test]
    fn the_defaults_are_rfc_8289s() {
        assert_eq!(TARGET_MS, 5.0, "RFC 8289 §4.3: TARGET 5 ms");
        assert_eq!(INTERVAL_MS, 100.0, "RFC 8289 §4.2: INTERVAL 100 ms");
        assert_eq!(REENTRY_INTERVALS, 16, "RFC 8289 §5.5: 16 × INTERVAL");
    }

    /// §4.5: once dropping, the n-th drop follows the previous one after
    /// INTERVAL/√n.
    #[test]
    fn drops_are_spaced_by_interval_over_the_square_root_of_count() {
        let p = params(false);
        let mut c = Codel::default();
        let mut signals = Signals::default();
        let mut drop_times = Vec::new();
        let mut now = 1_000 * MS;
        while now < 1_000 * MS + 600 * MS {
            let before = signals.drops;
            let mut q = standing(10, now, 50 * MS);
            let sent = c.dequeue(&p, now, &mut q, &mut signals);
            assert!(sent.is_some());
            for _ in before..signals.drops {
                drop_times.push(now);
            }
            now += 100_000; // a dequeue every 0.1 ms
        }
        // First drop one INTERVAL after the first packet above TARGET;
        // the n-th after it is due Σ_{k=1..n} INTERVAL/√k later. Dequeues
        // happen every 0.1 ms: each drop is at the first one due.
        assert_eq!(drop_times[0], 1_100 * MS);
        let mut due = drop_times[0] as f64;
        for (n, &t) in drop_times.iter().enumerate().skip(1) {
            due += 100.0 * MS as f64 / (n as f64).sqrt();
            assert!(
                t as f64 >= due - 1.0 && (t as f64) < due + 100_000.0,
                "drop {n} at {t} ns, due {due}"
            );
        }
        assert!(drop_times.len() >= 5, "{drop_times:?}");
    }

    #[test]
    fn no_drop_below_target_however_long() {
        let p = params(false);
        let mut c = Codel::default();
        let mut signals = Signals::default();
        for k in 0..10_000u64 {
            let now = 1_000 * MS + k * MS;
            let mut q = standing(100, now, 5 * MS - 1);
            c.dequeue(&p, now, &mut q, &mut signals);
        }
        assert_eq!(signals.drops, 0);
    }

    #[test]
    fn no_drop_before_a_whole_interval_above_target() {
        let p = params(false);
        let mut c = Codel::default();
        let mut signals = Signals::default();
        let start = 1_000 * MS;
        let mut now = start;
        while now < start + 100 * MS {
            let mut q = standing(100, now, 20 * MS);
            c.dequeue(&p, now, &mut q, &mut signals);
            now += MS / 2;
        }
        assert_eq!(signals.drops, 0, "still within the first INTERVAL");
        let mut q = standing(100, now, 20 * MS);
        c.dequeue(&p, now, &mut q, &mut signals);
        assert_eq!(signals.drops, 1, "an INTERVAL above TARGET: drop");
        assert!(c.dropping);
    }

    /// One packet is not a standing queue: with at most MAXPACKET bytes
    /// left, CoDel does not drop however long the packet waited.
    #[test]
    fn no_drop_with_at_most_one_mtu_left() {
        let p = params(false);
        let mut c = Codel::default();
        let mut signals = Signals::default();
        for k in 0..1_000u64 {
            let now = 1_000 * MS + k * MS;
            let mut q = standing(2, now, 500 * MS);
            c.dequeue(&p, now, &mut q, &mut signals);
        }
        assert_eq!(signals.drops, 0);
    }

    /// §5.5: re-entering the dropping state soon after leaving it resumes
    /// from the drops of the last episode (count − lastcount); long after,
    /// from 1.
    #[test]
    fn re_entry_resumes_count_only_within_sixteen_intervals() {
        let p = params(false);
        let run_episode = |c: &mut Codel, start: u64, len: u64| {
            let mut signals = Signals::default();
            let mut now = start;
            while now < start + len {
                let mut q = standing(10, now, 50 * MS);
                c.dequeue(&p, now, &mut q, &mut signals);
                now += MS / 10;
            }
            // Below target: leave dropping.
            let mut q = standing(10, now, 0);
            c.dequeue(&p, now, &mut q, &mut signals);
            assert!(!c.dropping);
            now
        };
        let mut c = Codel::default();
        let end = run_episode(&mut c, 1_000 * MS, 700 * MS);
        let drops_first = c.count;
        assert!(drops_first > 3, "count {drops_first}");
        // Soon after: the next episode starts at count − lastcount.
        let mut soon = c;
        let restart = end + 50 * MS;
        let mut signals = Signals::default();
        let mut now = restart;
        while !soon.dropping {
            let mut q = standing(10, now, 50 * MS);
            soon.dequeue(&p, now, &mut q, &mut signals);
            now += MS / 10;
        }
        assert!(now - restart < 16 * 100 * MS);
        assert_eq!(soon.count, drops_first - 1, "delta = count − lastcount (1)");
        // Long after: from 1.
        let mut late = c;
        let mut now = end + 20 * 100 * MS;
        while !late.dropping {
            let mut q = standing(10, now, 50 * MS);
            late.dequeue(&p, now, &mut q, &mut signals);
            now += MS / 10;
        }
        assert_eq!(late.count, 1);
    }

    /// With ECN a due drop marks the ECN-capable head instead and sends it;
    /// a Not-ECT packet (the probe) is dropped all the same.
    #[test]
    fn ecn_marks_instead_of_dropping_but_drops_not_ect() {
        let p = params(true);
        let mut c = Codel::default();
        let mut signals = Signals::default();
        let mut now = 1_000 * MS;
        let mut sent_ce = 0;
        while now < 1_500 * MS {
            let mut q = standing(10, now, 50 * MS);
            let f = c.dequeue(&p, now, &mut q, &mut signals).unwrap();
            sent_ce += f.packet.ce as u64;
            now += MS / 10;
        }
        assert_eq!(signals.drops, 0);
        assert!(signals.marks >= 4);
        assert_eq!(sent_ce, signals.marks, "every mark is on a sent packet");

        let mut c = Codel::default();
        let mut signals = Signals::default();
        let mut now = 1_000 * MS;
        while now < 1_200 * MS {
            let mut q = Fifo(
                (0..10)
                    .map(|_| frame(crate::net::PROBE_FLOW, now - 50 * MS))
                    .collect(),
            );
            c.dequeue(&p, now, &mut q, &mut signals);
            now += MS / 10;
        }
        assert!(signals.probe_drops >= 1);
        assert_eq!(signals.marks, 0);
    }
}
