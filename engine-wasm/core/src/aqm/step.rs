//! DCTCP's switch marking (RFC 8257 §3.1; Alizadeh et al., "Data Center
//! TCP", SIGCOMM 2010, §3.1): an arriving packet is marked Congestion
//! Experienced when the instantaneous queue holds at least K packets; the
//! queue drops only when it is full. K = 20 packets at 1 Gb/s is the
//! paper's setting (§3.4: K > C·RTT/7; §4 runs K = 20 at 1 Gb/s).

use super::Verdict;

/// K, the marking threshold in packets (Alizadeh et al. 2010, §3.4 and §4:
/// 20 packets at 1 Gb/s).
pub const THRESHOLD_PKTS: u32 = 20;

/// The marking rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StepMark {
    pub threshold_pkts: u32,
}

impl StepMark {
    /// A packet arrives at a queue of `waiting_pkts` (the packets waiting,
    /// not the one on the wire, as `buffer_pkts` counts them). A Not-ECT
    /// packet that would be marked is dropped (RFC 3168 §5).
    pub fn on_arrival(&self, waiting_pkts: usize, ect: bool) -> Verdict {
        if waiting_pkts < self.threshold_pkts as usize {
            Verdict::Enqueue
        } else if ect {
            Verdict::Mark
        } else {
            Verdict::Drop
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn k_is_twenty_packets() {
        assert_eq!(THRESHOLD_PKTS, 20);
    }

    #[test]
    fn marks_from_exactly_k_waiting_packets() {
        let s = StepMark { threshold_pkts: 20 };
        assert_eq!(s.on_arrival(19, true), Verdict::Enqueue);
        assert_eq!(s.on_arrival(20, true), Verdict::Mark);
        assert_eq!(s.on_arrival(500, true), Verdict::Mark);
        assert_eq!(s.on_arrival(20, false), Verdict::Drop, "Not-ECT");
        assert_eq!(s.on_arrival(0, false), Verdict::Enqueue);
    }
}
