//! Random Early Detection (Floyd & Jacobson, IEEE/ACM ToN 1993), "gentle"
//! off, optionally marking ECN-capable packets instead of dropping them
//! (RFC 3168 §5). Decided at enqueue from the average queue.

use super::Verdict;

/// Random Early Detection state (Floyd & Jacobson 1993, "gentle" off).
#[derive(Clone, Debug)]
pub struct Red {
    pub min_th: f64,
    pub max_th: f64,
    pub max_p: f64,
    pub weight: f64,
    pub ecn: bool,
    pub avg: f64,
    /// Packets since the last mark/drop (the `count` of the paper).
    pub count: i64,
    /// When the queue went idle, to decay `avg` across idle time.
    pub idle_since_ns: Option<u64>,
}

impl Red {
    pub fn new(min_th: f64, max_th: f64, max_p: f64, weight: f64, ecn: bool) -> Red {
        Red {
            min_th,
            max_th,
            max_p,
            weight,
            ecn,
            avg: 0.0,
            count: -1,
            idle_since_ns: None,
        }
    }

    /// Update the average with the instantaneous queue `q` and decide.
    /// `uniform` is a draw in [0, 1); `tx_ns` is one packet's transmission
    /// time, used to age the average over idle periods (Floyd & Jacobson §4).
    pub fn on_arrival(
        &mut self,
        q: usize,
        now_ns: u64,
        tx_ns: u64,
        uniform: f64,
        ect: bool,
    ) -> Verdict {
        if let Some(since) = self.idle_since_ns {
            // The queue stays idle until a packet is actually queued (the
            // caller clears the mark then), so age from here on.
            let m = ((now_ns - since) / tx_ns.max(1)).min(i32::MAX as u64) as i32;
            self.avg *= (1.0 - self.weight).powi(m);
            self.idle_since_ns = Some(now_ns);
        }
        self.avg = (1.0 - self.weight) * self.avg + self.weight * q as f64;
        if self.avg < self.min_th {
            self.count = -1;
            return Verdict::Enqueue;
        }
        let signal = if self.avg >= self.max_th {
            self.count = 0;
            true
        } else {
            self.count += 1;
            let pb = self.max_p * (self.avg - self.min_th) / (self.max_th - self.min_th);
            let denom = 1.0 - self.count as f64 * pb;
            let pa = if denom <= 0.0 { 1.0 } else { pb / denom };
            if uniform < pa {
                self.count = 0;
                true
            } else {
                false
            }
        };
        match (signal, self.ecn && ect && self.avg < self.max_th) {
            (false, _) => Verdict::Enqueue,
            (true, true) => Verdict::Mark,
            (true, false) => Verdict::Drop,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Floyd & Jacobson §4: the average decays over idle time, even when
    /// arrivals during the idle period are dropped (a regression: the idle
    /// mark used to be consumed by a dropped packet, freezing the average
    /// above max_th so that every retransmission was dropped).
    #[test]
    fn red_average_decays_across_idle_time_despite_drops() {
        let mut red = Red::new(5.0, 15.0, 0.1, 0.01, false);
        red.avg = 100.0;
        red.idle_since_ns = Some(0);
        assert_eq!(red.on_arrival(0, 1_000, 1_000, 0.5, true), Verdict::Drop);
        assert!(red.idle_since_ns.is_some(), "a drop leaves the queue idle");
        let v = red.on_arrival(0, 10_000_000, 1_000, 0.5, true);
        assert!(red.avg < 1.0, "avg {}", red.avg);
        assert_eq!(v, Verdict::Enqueue);
    }

    #[test]
    fn red_never_signals_below_min_th_and_always_above_max_th() {
        let mut red = Red::new(5.0, 15.0, 0.1, 1.0, false);
        for _ in 0..100 {
            assert_eq!(red.on_arrival(4, 0, 1, 0.0, true), Verdict::Enqueue);
        }
        assert_eq!(red.on_arrival(20, 0, 1, 0.999, true), Verdict::Drop);
        let mut ecn = Red::new(5.0, 15.0, 1.0, 1.0, true);
        assert_eq!(ecn.on_arrival(14, 0, 1, 0.0, true), Verdict::Mark);
        assert_eq!(ecn.on_arrival(14, 0, 1, 0.0, false), Verdict::Drop);
    }
}
