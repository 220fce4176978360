//! ACK aggregation: the extra cwnd that keeps a flow sending through the
//! silences between ACKs that arrive in bursts (Linux ≥ 5.1; the same
//! rules and constants in google's BBRv3 `tcp_bbr.c`, which BBRv3 in
//! `cc/bbr3` shares).

use super::Bbr;
use crate::cc::{AckSample, Window};

/// `bbr_extra_acked_gain` (`BBR_UNIT`: 1).
const EXTRA_ACKED_GAIN: f64 = 1.0;
/// `bbr_extra_acked_win_rtts`.
pub(crate) const EXTRA_ACKED_WIN_RTTS: u32 = 5;
/// `bbr_ack_epoch_acked_reset_thresh`.
const ACK_EPOCH_ACKED_RESET_THRESH: u32 = 1 << 20;
/// `bbr_extra_acked_max_us`, in ns.
const EXTRA_ACKED_MAX_NS: f64 = 100_000_000.0;

/// The ACK-aggregation state of `struct bbr`: the start of the current
/// sampling epoch (`ack_epoch_mstamp`), packets (S)ACKed in it
/// (`ack_epoch_acked`), and `extra_acked[2]`, the largest excess of ACKed
/// data over the estimated bandwidth in each of two windows of 5 rounds
/// (`extra_acked_win_idx`, `extra_acked_win_rtts`).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct AckAggregation {
    epoch_stamp_ns: u64,
    epoch_acked: u32,
    extra_acked: [u32; 2],
    win_idx: usize,
    win_rtts: u32,
}

impl AckAggregation {
    /// A new epoch starts at `now_ns` (`bbr_init`).
    pub(crate) fn start(&mut self, now_ns: u64) {
        self.epoch_stamp_ns = now_ns;
    }

    /// `bbr_update_ack_aggregation`: the windowed max of data ACKed
    /// beyond what the estimated bandwidth `bw_pps` explains since the
    /// epoch began. `delivered_mstamp_ns` is `tp->delivered_mstamp`.
    pub(crate) fn update(
        &mut self,
        round_start: bool,
        win_rtts: u32,
        delivered_mstamp_ns: u64,
        bw_pps: f64,
        w: &Window,
        ack: &AckSample,
    ) {
        if ack.acked_pkts == 0 || ack.delivery_rate_pps.is_none() {
            return;
        }
        if round_start {
            self.win_rtts = (self.win_rtts + 1).min(0x1f);
            if self.win_rtts >= win_rtts {
                self.win_rtts = 0;
                self.win_idx = 1 - self.win_idx;
                self.extra_acked[self.win_idx] = 0;
            }
        }
        // Packets the estimated bandwidth would deliver over the epoch.
        let epoch_ns = delivered_mstamp_ns.saturating_sub(self.epoch_stamp_ns);
        let mut expected_acked = (bw_pps * epoch_ns as f64 / 1e9) as u32;
        // A new epoch when ACKs fall behind that, or after very many.
        if self.epoch_acked <= expected_acked
            || self.epoch_acked + ack.acked_pkts >= ACK_EPOCH_ACKED_RESET_THRESH
        {
            self.epoch_acked = 0;
            self.epoch_stamp_ns = delivered_mstamp_ns;
            expected_acked = 0;
        }
        self.epoch_acked = (self.epoch_acked + ack.acked_pkts).min(0xf_ffff);
        let extra_acked = (self.epoch_acked - expected_acked).min(w.cwnd_pkts);
        let slot = &mut self.extra_acked[self.win_idx];
        // A u16 in Linux (which would wrap past 65535 packets).
        *slot = (*slot).max(extra_acked.min(u16::MAX as u32));
    }

    /// `bbr_ack_aggregation_cwnd`: the extra cwnd for ACK aggregation,
    /// at most 100 ms at the estimated bandwidth, once the pipe is full.
    pub(crate) fn cwnd(&self, full_bw_reached: bool, bw_pps: f64) -> u32 {
        if EXTRA_ACKED_GAIN > 0.0 && full_bw_reached {
            let max_aggr_cwnd = (bw_pps * EXTRA_ACKED_MAX_NS / 1e9) as u32;
            let extra = self.extra_acked[0].max(self.extra_acked[1]);
            let aggr_cwnd = (EXTRA_ACKED_GAIN * extra as f64) as u32;
            aggr_cwnd.min(max_aggr_cwnd)
        } else {
            0
        }
    }
}

impl Bbr {
    pub(super) fn update_ack_aggregation(&mut self, w: &Window, ack: &AckSample) {
        let bw = self.bw_est();
        self.ack_aggregation.update(
            self.round_start,
            EXTRA_ACKED_WIN_RTTS,
            self.delivered_mstamp_ns,
            bw,
            w,
            ack,
        );
    }

    pub(super) fn ack_aggregation_cwnd(&self) -> u32 {
        self.ack_aggregation
            .cwnd(self.full_bw_reached, self.bw_est())
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{ack_at, start};
    use super::super::*;
    use crate::cc::testing::run_fluid;

    /// `bbr_update_ack_aggregation` / `bbr_ack_aggregation_cwnd` (Linux
    /// ≥ 5.1): ACKs that come in bursts (here 200 packets every 20 ms,
    /// the bottleneck rate on average) add the excess over the estimated
    /// bandwidth to the cwnd target, at most 100 ms of data.
    #[test]
    fn ack_aggregation_adds_the_burst_to_the_cwnd_target() {
        let (mut cc, mut w, mut p) = start();
        let mut d = 0;
        let (mut t, _) = run_fluid(&mut cc, &mut w, &mut p, 40, 0, &mut d);
        assert_eq!(cc.mode(), BbrMode::ProbeBw);
        let plain = w.cwnd_pkts;
        assert!(plain <= 436, "cwnd {plain}");
        for _ in 0..10 {
            t += 20_000_000;
            d += 200;
            cc.cong_control(
                &mut w,
                &ack_at(t, 200, d, 230, 20_000_000, 10_000.0),
                CaState::Open,
            );
        }
        // 2·BDP (400) + 200 extra + 3 TSO bursts, even, (+2).
        assert!(
            (620..=640).contains(&w.cwnd_pkts),
            "cwnd {} (without bursts {plain})",
            w.cwnd_pkts
        );
        // Bursts of 2000 every 200 ms: capped at 100 ms of data (1000).
        for _ in 0..20 {
            t += 200_000_000;
            d += 2000;
            cc.cong_control(
                &mut w,
                &ack_at(t, 2000, d, 2100, 20_000_000, 10_000.0),
                CaState::Open,
            );
        }
        assert!((1420..=1440).contains(&w.cwnd_pkts), "cwnd {}", w.cwnd_pkts);
    }
}
