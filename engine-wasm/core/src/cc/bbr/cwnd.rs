//! The congestion window: the in-flight target (BDP × gain, quantized
//! for TSO bursts), packet conservation in the first round of recovery
//! and the pre-loss cwnd restored after it.

use super::{Bbr, BbrMode, CWND_MIN_TARGET};
use crate::cc::{AckSample, CaState, Window};

/// `TCP_INIT_CWND`.
pub(crate) const INIT_CWND: u32 = 10;
/// Largest TSO burst (`GSO_LEGACY_MAX_SIZE − 1 − MAX_TCP_HEADER`).
pub(crate) const GSO_MAX_BYTES: f64 = 65_215.0;

/// `bbr_tso_segs_goal`: about 1 ms of data at the pacing rate (bytes per
/// second), 2..64 KB, in segments of `mss` bytes (the same in BBRv3).
pub(crate) fn tso_segs_goal(pacing_rate: f64, mss: f64) -> u32 {
    let bytes = (pacing_rate / 1024.0).min(GSO_MAX_BYTES);
    let min_segs = if pacing_rate < 150_000.0 { 1 } else { 2 };
    ((bytes / mss) as u32).max(min_segs).min(0x7f)
}

impl Bbr {
    /// `bbr_bdp`: ⌈bw·min_rtt·gain⌉, the initial window before any RTT.
    pub(super) fn bdp(&self, bw_pps: f64, gain: f64) -> u32 {
        if self.min_rtt_ns == u64::MAX {
            return INIT_CWND;
        }
        (bw_pps * self.min_rtt_ns as f64 / 1e9 * gain).ceil() as u32
    }

    /// `bbr_tso_segs_goal` at this flow's pacing rate.
    pub(super) fn tso_segs_goal(&self) -> u32 {
        tso_segs_goal(self.pacing_rate, self.mss)
    }

    /// `bbr_quantization_budget`.
    pub(super) fn quantization_budget(&self, cwnd: u32) -> u32 {
        let mut cwnd = cwnd + 3 * self.tso_segs_goal();
        cwnd = (cwnd + 1) & !1;
        if self.mode == BbrMode::ProbeBw && self.cycle_idx == 0 {
            cwnd += 2;
        }
        cwnd
    }

    /// `bbr_inflight`: the in-flight target for a gain.
    pub(super) fn inflight(&self, bw_pps: f64, gain: f64) -> u32 {
        self.quantization_budget(self.bdp(bw_pps, gain))
    }

    pub(super) fn save_cwnd(&mut self, cwnd: u32) {
        if !matches!(self.prev_ca_state, CaState::Recovery | CaState::Loss)
            && self.mode != BbrMode::ProbeRtt
        {
            self.prior_cwnd = cwnd;
        } else {
            self.prior_cwnd = self.prior_cwnd.max(cwnd);
        }
    }

    /// `bbr_set_cwnd_to_recover_or_restore`: (cwnd, conserving).
    pub(super) fn recover_or_restore(
        &mut self,
        w: &Window,
        ack: &AckSample,
        state: CaState,
    ) -> (u32, bool) {
        let prev = self.prev_ca_state;
        let mut cwnd = w.cwnd_pkts;
        // "An ACK for P pkts should release at most 2*P packets": first the
        // newly lost packets come off.
        if ack.losses_pkts > 0 {
            cwnd = cwnd.saturating_sub(ack.losses_pkts).max(1);
        }
        let recovering = |s: CaState| matches!(s, CaState::Recovery | CaState::Loss);
        if state == CaState::Recovery && prev != CaState::Recovery {
            // Packet conservation for the first round of recovery.
            self.packet_conservation = true;
            self.start_round(ack);
            cwnd = ack.in_flight_pkts + ack.acked_pkts;
        } else if recovering(prev) && !recovering(state) {
            cwnd = cwnd.max(self.prior_cwnd);
            self.packet_conservation = false;
        }
        self.prev_ca_state = state;
        if self.packet_conservation {
            (cwnd.max(ack.in_flight_pkts + ack.acked_pkts), true)
        } else {
            (cwnd, false)
        }
    }

    pub(super) fn set_cwnd(&mut self, w: &mut Window, ack: &AckSample, state: CaState) {
        let acked = ack.acked_pkts;
        let mut cwnd = w.cwnd_pkts;
        if acked > 0 {
            let (c, conserving) = self.recover_or_restore(w, ack, state);
            cwnd = c;
            if !conserving {
                let target = self.bdp(self.bw_est(), self.cwnd_gain) + self.ack_aggregation_cwnd();
                let target = self.quantization_budget(target);
                if self.full_bw_reached {
                    cwnd = (cwnd + acked).min(target);
                } else if cwnd < target || ack.delivered_pkts < INIT_CWND as u64 {
                    cwnd += acked;
                }
                cwnd = cwnd.max(CWND_MIN_TARGET);
            }
        }
        w.cwnd_pkts = cwnd.min(w.cwnd_clamp_pkts).max(1);
        if self.mode == BbrMode::ProbeRtt {
            w.cwnd_pkts = w.cwnd_pkts.min(CWND_MIN_TARGET);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{ack_at, start};
    use super::super::*;
    use crate::cc::testing::run_fluid;

    /// `bbr_set_cwnd_to_recover_or_restore`: "An ACK for P pkts should
    /// release at most 2*P packets. We do this in two steps. First, here
    /// we deduct the number of lost packets" (`cwnd - rs->losses`, at
    /// least 1); then `bbr_set_cwnd` grows by the packets ACKed, up to the
    /// target.
    #[test]
    fn newly_lost_packets_come_off_the_window() {
        let (mut cc, mut w, mut p) = start();
        let mut d = 0;
        let (mut t, _) = run_fluid(&mut cc, &mut w, &mut p, 40, 0, &mut d);
        assert_eq!(cc.mode(), BbrMode::ProbeBw);
        let bw = cc.max_bw_pps();
        let rtt = cc.min_rtt_ns();
        let before = w.cwnd_pkts;
        t += 100_000;
        d += 1;
        let mut a = ack_at(t, 1, d, before - 8, rtt, bw);
        a.losses_pkts = 5;
        cc.cong_control(&mut w, &a, CaState::Open);
        assert_eq!(w.cwnd_pkts, before - 5 + 1);
    }
}
