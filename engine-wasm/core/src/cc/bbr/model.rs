//! The path model's inputs: packet-timed rounds, the bandwidth estimate
//! (a windowed max of delivery-rate samples over rounds) and which
//! samples are application-limited.

use super::Bbr;
use crate::cc::AckSample;

/// How many past stretches of `tp->app_limited` to remember: one per
/// PROBE_RTT (10 s apart), and a sample is about a packet sent within the
/// last round trip or so.
const APP_LIMITED_SPANS: usize = 4;

impl Bbr {
    /// Begin a packet-timed round at this ACK (Linux:
    /// `bbr->next_rtt_delivered = tp->delivered`).
    pub(super) fn start_round(&mut self, ack: &AckSample) {
        self.next_rtt_delivered = ack.delivered_pkts;
    }

    /// Whether this ACK's rate sample is about a packet sent after the
    /// round began (`!before(rs->prior_delivered,
    /// bbr->next_rtt_delivered)`).
    pub(super) fn round_ended(&self, ack: &AckSample) -> bool {
        ack.prior_delivered_pkts >= self.next_rtt_delivered
    }

    /// `rs->is_app_limited`: the sender's own flag, or the sample's packet
    /// left while PROBE_RTT had `tp->app_limited` set.
    pub(super) fn sample_app_limited(&self, ack: &AckSample) -> bool {
        ack.app_limited
            || ack.rtt_ns.is_some_and(|rtt| {
                let sent = ack.now_ns.saturating_sub(rtt);
                self.app_limited_spans
                    .iter()
                    .any(|&(from, until)| from <= sent && sent < until)
            })
    }

    /// `tcp_rate_gen`: "clear app limited if bubble is acked and gone".
    pub(super) fn clear_app_limited(&mut self, ack: &AckSample) {
        if self.app_limited_mark != 0 && ack.delivered_pkts > self.app_limited_mark {
            self.app_limited_mark = 0;
            if let Some(span) = self.app_limited_spans.back_mut() {
                if span.1 == u64::MAX {
                    span.1 = ack.now_ns;
                }
            }
        }
    }

    /// PROBE_RTT's `tp->app_limited = (tp->delivered +
    /// tcp_packets_in_flight(tp)) ? : 1`: what is sent from now until that
    /// much is delivered is application-limited.
    pub(super) fn set_app_limited(&mut self, ack: &AckSample) {
        self.app_limited_mark = (ack.delivered_pkts + ack.in_flight_pkts as u64).max(1);
        match self.app_limited_spans.back_mut() {
            Some(span) if span.1 == u64::MAX => {}
            // Cleared and set again on the same ACK: one stretch.
            Some(span) if span.1 == ack.now_ns => span.1 = u64::MAX,
            _ => {
                if self.app_limited_spans.len() == APP_LIMITED_SPANS {
                    self.app_limited_spans.pop_front();
                }
                self.app_limited_spans.push_back((ack.now_ns, u64::MAX));
            }
        }
    }

    /// `bbr_update_ack_aggregation`: the windowed max of data ACKed
    /// beyond what the estimated bandwidth explains since the epoch began
    /// (ACKs that arrive in bursts), to keep sending through the silences
    /// `bbr_update_bw`.
    pub(super) fn update_bw(&mut self, ack: &AckSample, app_limited: bool) {
        self.round_start = false;
        let Some(rate) = ack.delivery_rate_pps else {
            return;
        };
        if ack.acked_pkts == 0 {
            return;
        }
        if self.round_ended(ack) {
            self.start_round(ack);
            self.rtt_cnt += 1;
            self.round_start = true;
            self.packet_conservation = false;
        }
        self.lt_bw_sampling(ack.losses_pkts, app_limited);
        // App-limited samples are left out unless they raise the estimate;
        // then the filter does not age either.
        if !app_limited || rate >= self.bw.get() {
            self.bw
                .running_max(self.bw_window_rounds, self.rtt_cnt, rate);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::linux_started;
    use super::super::*;
    use crate::cc::testing::{run_fluid, FluidPath};

    /// PROBE_RTT marks what it sends application-limited (`tp->app_limited
    /// = tp->delivered + in flight`, "ignore low rate samples during this
    /// mode"): its 4-packet delivery rate does not enter the max filter,
    /// and the filter does not age without a sample. On a 10-ms path
    /// PROBE_RTT's 200 ms are 18 rounds, more than the filter's 10.
    #[test]
    fn probe_rtt_low_rate_samples_leave_the_bandwidth_estimate_alone() {
        let (mut cc, mut w) = linux_started();
        let mut p = FluidPath::new(10_000_000, 10_000.0);
        let mut d = 0;
        let (mut now, _) = run_fluid(&mut cc, &mut w, &mut p, 40, 0, &mut d);
        assert_eq!(cc.mode(), BbrMode::ProbeBw);
        let bw = cc.max_bw_pps();
        assert!((bw / 10_000.0 - 1.0).abs() < 0.01, "bw {bw}");
        // 1 ms longer: PROBE_RTT comes 10 s on whatever the min-RTT rule.
        p.base_rtt_ns = 11_000_000;
        let stamp = cc.min_rtt_stamp_ns();
        let mut probed = false;
        let mut lowest = f64::INFINITY;
        while now < stamp + 11_000_000_000 {
            let (t, _) = run_fluid(&mut cc, &mut w, &mut p, 1, now, &mut d);
            now = t;
            if cc.mode() == BbrMode::ProbeRtt {
                probed = true;
            }
            if probed {
                lowest = lowest.min(cc.max_bw_pps());
            }
        }
        assert!(probed && cc.mode() == BbrMode::ProbeBw);
        assert!(
            lowest > 0.99 * bw,
            "the estimate fell to {lowest} pkt/s from {bw}"
        );
    }
}
