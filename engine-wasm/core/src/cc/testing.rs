//! Fake senders for testing controllers in isolation (the s2n-quic-core
//! `testing` pattern): a loss-free path where every packet of a window is
//! acknowledged one RTT later, one ACK per packet.

use super::{AckSample, CongestionControl, Window};

/// Run `rtts` loss-free round trips of `rtt_ns`: each round acks the whole
/// window, one packet per ACK, spread evenly over the round.
/// Returns the time at the end.
pub fn grow_for_rtts(
    cc: &mut dyn CongestionControl,
    w: &mut Window,
    rtts: u32,
    rtt_ns: u64,
) -> u64 {
    grow_from(cc, w, rtts, rtt_ns, 0)
}

/// As [`grow_for_rtts`], starting at `start_ns`, with the RTT sample equal to
/// `rtt_ns` on every ACK.
pub fn grow_from(
    cc: &mut dyn CongestionControl,
    w: &mut Window,
    rtts: u32,
    rtt_ns: u64,
    start_ns: u64,
) -> u64 {
    let mut now = start_ns;
    let mut delivered = 0u64;
    for _ in 0..rtts {
        let window = w.cwnd_pkts.max(1);
        let step = rtt_ns / window as u64;
        for _ in 0..window {
            now += step;
            delivered += 1;
            let ack = AckSample {
                now_ns: now,
                acked_pkts: 1,
                rtt_ns: Some(rtt_ns),
                min_rtt_ns: rtt_ns,
                srtt_ns: rtt_ns,
                in_flight_pkts: w.cwnd_pkts,
                delivered_pkts: delivered,
                delivery_rate_pps: Some(window as f64 * 1e9 / rtt_ns as f64),
                app_limited: false,
                ece: false,
                mss_bytes: 1448,
            };
            cc.pkts_acked(w, &ack);
            if !cc.cong_control(w, &ack, super::CaState::Open) {
                cc.cong_avoid(w, &ack);
            }
        }
    }
    now
}

/// Apply one congestion event the way the sender does on entering Recovery
/// and leaving it: ssthresh from the algorithm, then cwnd = ssthresh.
pub fn loss_event(cc: &mut dyn CongestionControl, w: &mut Window, now_ns: u64) {
    let ss = cc.ssthresh(w, now_ns);
    w.ssthresh_pkts = ss;
    w.cwnd_pkts = ss;
    w.cwnd_cnt = 0;
}
