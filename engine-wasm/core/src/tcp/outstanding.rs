//! tcptrace's outstanding-data averages (Sandia's 10 Gb/s study's plots): the mean of the
//! values seen at each ACK and the time-weighted mean.

/// Running averages of outstanding data as tcptrace draws them: "avg" is
/// the mean of the values seen at each ACK, "wavg" weights each value by
/// how long it was held.
#[derive(Clone, Copy, Debug)]
pub struct OutstandingAverages {
    start_ns: u64,
    last_change_ns: u64,
    pub held_pkts: u32,
    integral_pkt_ns: f64,
    sum_at_acks: f64,
    acks: u64,
}

impl OutstandingAverages {
    pub fn new(now_ns: u64) -> Self {
        OutstandingAverages {
            start_ns: now_ns,
            last_change_ns: now_ns,
            held_pkts: 0,
            integral_pkt_ns: 0.0,
            sum_at_acks: 0.0,
            acks: 0,
        }
    }

    /// Account for the value held until `now_ns`; `current` is the value now.
    pub fn hold(&mut self, current: u32, now_ns: u64) {
        // Several calls at one instant (an ACK, then the packets it lets
        // out) would add 0: skip the arithmetic, not the result.
        if now_ns != self.last_change_ns {
            self.integral_pkt_ns += self.held_pkts as f64 * (now_ns - self.last_change_ns) as f64;
            self.last_change_ns = now_ns;
        }
        self.held_pkts = current;
    }

    pub fn on_ack(&mut self, after: u32) {
        self.held_pkts = after;
        self.sum_at_acks += after as f64;
        self.acks += 1;
    }

    pub fn averages_pkts(&self, current: u32, now_ns: u64) -> (f64, f64) {
        let per_ack = if self.acks > 0 {
            self.sum_at_acks / self.acks as f64
        } else {
            current as f64
        };
        let elapsed = now_ns.saturating_sub(self.start_ns) as f64;
        let integral = self.integral_pkt_ns
            + current as f64 * now_ns.saturating_sub(self.last_change_ns) as f64;
        let weighted = if elapsed > 0.0 {
            integral / elapsed
        } else {
            current as f64
        };
        (per_ack, weighted)
    }
}
