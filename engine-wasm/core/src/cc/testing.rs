//! Fake senders for testing controllers in isolation (the s2n-quic-core
//! `testing` pattern): a loss-free path where every packet of a window is
//! acknowledged one RTT later, one ACK per packet.

use super::{AckSample, CongestionControl, Window, INFINITE_SSTHRESH};

/// A fresh window of `cwnd_pkts` with `ssthresh_pkts` and a clamp far above
/// anything a test reaches (10 M packets).
pub fn window(cwnd_pkts: u32, ssthresh_pkts: u32) -> Window {
    Window {
        cwnd_pkts,
        cwnd_cnt: 0,
        ssthresh_pkts,
        cwnd_clamp_pkts: 10_000_000,
    }
}

/// A window of `cwnd_pkts` in congestion avoidance (ssthresh 2).
pub fn avoidance_window(cwnd_pkts: u32) -> Window {
    window(cwnd_pkts, 2)
}

/// A window of `cwnd_pkts` in slow start (ssthresh unbounded).
pub fn slow_start_window(cwnd_pkts: u32) -> Window {
    window(cwnd_pkts, INFINITE_SSTHRESH)
}

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
                counted_pkts: 1,
                rtt_ns: Some(rtt_ns),
                min_rtt_ns: rtt_ns,
                srtt_ns: rtt_ns,
                in_flight_pkts: w.cwnd_pkts,
                delivered_pkts: delivered,
                delivery_rate_pps: Some(window as f64 * 1e9 / rtt_ns as f64),
                prior_delivered_pkts: delivered.saturating_sub(w.cwnd_pkts as u64),
                prior_in_flight_pkts: w.cwnd_pkts,
                tx_in_flight_pkts: w.cwnd_pkts,
                tx_lost_pkts: 0,
                tx_delivered_ce_pkts: 0,
                delivered_ce_pkts: 0,
                losses_pkts: 0,
                app_limited: false,
                ece: false,
                ce_delta_pkts: 0,
                mss_bytes: 1448,
                snd_una_seg: delivered as u32,
                snd_nxt_seg: delivered as u32 + w.cwnd_pkts,
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

/// A congestion event seen through the sender's state machine: the
/// algorithm's ssthresh, Recovery, cwnd = ssthresh, back to Open. For
/// algorithms that watch `set_state` (H-TCP, CTCP, Vegas, BBR).
pub fn loss_event_with_states(cc: &mut dyn CongestionControl, w: &mut Window, now_ns: u64) {
    let ss = cc.ssthresh(w, now_ns);
    w.ssthresh_pkts = ss;
    cc.set_state(w, super::CaState::Recovery, now_ns);
    w.cwnd_pkts = ss;
    w.cwnd_cnt = 0;
    cc.set_state(w, super::CaState::Open, now_ns);
}

/// A single bottleneck seen as a fluid: capacity `capacity_pps`, two-way
/// propagation delay `base_rtt_ns`, a FIFO queue of at most `buffer_pkts`.
/// Window-based senders keep `min(cwnd, …)` packets in flight, so the queue
/// is `inflight − BDP` whenever that is positive and the RTT is
/// `base + queue / C` (the synthetic model of the FAST and Vegas papers).
/// Paced senders (BBR) inject at their pacing rate, capped by cwnd.
#[derive(Clone, Copy, Debug)]
pub struct FluidPath {
    pub base_rtt_ns: u64,
    pub capacity_pps: f64,
    pub buffer_pkts: f64,
    pub queue_pkts: f64,
}

impl FluidPath {
    pub fn new(base_rtt_ns: u64, capacity_pps: f64) -> Self {
        FluidPath {
            base_rtt_ns,
            capacity_pps,
            buffer_pkts: f64::INFINITY,
            queue_pkts: 0.0,
        }
    }

    pub fn bdp_pkts(&self) -> f64 {
        self.capacity_pps * self.base_rtt_ns as f64 / 1e9
    }

    pub fn rtt_ns(&self) -> u64 {
        self.base_rtt_ns + (self.queue_pkts / self.capacity_pps * 1e9) as u64
    }
}

/// What one round of [`run_fluid`] looked like.
#[derive(Clone, Copy, Debug)]
pub struct RoundTrace {
    pub cwnd_pkts: u32,
    pub rtt_ns: u64,
    pub queue_pkts: f64,
}

/// Run `rounds` round trips over a [`FluidPath`]. Each round the sender has
/// `inflight` packets out, all acknowledged one RTT later with that round's
/// RTT, one ACK per packet, spaced by the bottleneck.
pub fn run_fluid(
    cc: &mut dyn CongestionControl,
    w: &mut Window,
    path: &mut FluidPath,
    rounds: u32,
    start_ns: u64,
    delivered: &mut u64,
) -> (u64, Vec<RoundTrace>) {
    let mut now = start_ns;
    let mut trace = Vec::with_capacity(rounds as usize);
    let mss = 1448u32;
    for _ in 0..rounds {
        let bdp = path.bdp_pkts();
        let rtt_prev = path.rtt_ns();
        let paced_pps = cc.pacing_rate_bytes_per_s().map(|b| b / mss as f64);
        let cwnd = w.cwnd_pkts.max(1) as f64;
        let inflight = match paced_pps {
            None => {
                path.queue_pkts = (cwnd - bdp).clamp(0.0, path.buffer_pkts);
                cwnd.min(bdp + path.buffer_pkts)
            }
            Some(pps) => {
                // Sent this round: the pacing rate over one RTT, capped by cwnd.
                let send = (pps * rtt_prev as f64 / 1e9).min(cwnd);
                let drained = path.capacity_pps * rtt_prev as f64 / 1e9;
                path.queue_pkts = (path.queue_pkts + send - drained).clamp(0.0, path.buffer_pkts);
                path.queue_pkts = path.queue_pkts.min((send - bdp).max(0.0));
                send
            }
        };
        let rtt = path.rtt_ns();
        let n = (inflight.round() as u32).max(1);
        // ACKs arrive spaced by the bottleneck (an ACK train shorter than
        // the RTT while the pipe is not full), the round lasts one RTT.
        let round_start = now;
        let step = (rtt / n as u64).min((1e9 / path.capacity_pps) as u64);
        let rate = (inflight * 1e9 / rtt as f64).min(path.capacity_pps);
        trace.push(RoundTrace {
            cwnd_pkts: w.cwnd_pkts,
            rtt_ns: rtt,
            queue_pkts: path.queue_pkts,
        });
        for _ in 0..n {
            now += step;
            *delivered += 1;
            let ack = AckSample {
                now_ns: now,
                acked_pkts: 1,
                counted_pkts: 1,
                rtt_ns: Some(rtt),
                min_rtt_ns: path.base_rtt_ns,
                srtt_ns: rtt,
                in_flight_pkts: n,
                delivered_pkts: *delivered,
                delivery_rate_pps: Some(rate),
                // The packet acknowledged now left n deliveries ago.
                prior_delivered_pkts: delivered.saturating_sub(n as u64),
                prior_in_flight_pkts: n,
                tx_in_flight_pkts: n,
                tx_lost_pkts: 0,
                tx_delivered_ce_pkts: 0,
                delivered_ce_pkts: 0,
                losses_pkts: 0,
                app_limited: false,
                ece: false,
                ce_delta_pkts: 0,
                mss_bytes: mss,
                snd_una_seg: *delivered as u32,
                snd_nxt_seg: *delivered as u32 + n,
            };
            cc.pkts_acked(w, &ack);
            if !cc.cong_control(w, &ack, super::CaState::Open) {
                cc.cong_avoid(w, &ack);
            }
        }
        now = now.max(round_start + rtt);
    }
    (now, trace)
}
