//! How slow start ends before the first loss, chosen per flow by the
//! `hystart` parameter of CUBIC and Reno ([`SlowStartMode`]): standard slow
//! start, HyStart as Linux's `tcp_cubic.c` runs it ([`LinuxHyStart`]), or
//! HyStart++ (RFC 9406, [`super::hystart_pp`]). [`SlowStart`] bundles the
//! three for an algorithm to embed.
//!
//! CUBIC's floating-point model (`cubic/rfc9438.rs`, the profiles before
//! `linux-6`) keeps its own HyStart with the rules of older kernels, so that
//! its results stay as they were; this file holds the current kernel's.

use super::hystart_pp::{seq_after, HyStartPlusPlus};
use super::{AckSample, Window};

/// Which slow start a flow runs: the `hystart` parameter, 0, 1 or 2.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SlowStartMode {
    /// Standard slow start (RFC 5681 §3.1): until ssthresh or a loss.
    Standard,
    /// HyStart (Ha & Rhee 2011) as Linux `tcp_cubic.c` runs it: leave slow
    /// start (ssthresh = cwnd) on a long ACK train or a rise in delay.
    HyStart,
    /// HyStart++ (RFC 9406): Conservative Slow Start on a rise of the
    /// round's minimum RTT.
    HyStartPlusPlus,
}

impl SlowStartMode {
    /// 0 standard, 1 HyStart, 2 HyStart++, to the nearest: the parameter was
    /// on/off (≥ 0.5 on) before HyStart++ existed, and 0 and 1 keep their
    /// meaning.
    pub fn from_param(value: f64) -> Self {
        if value < 0.5 {
            SlowStartMode::Standard
        } else if value < 1.5 {
            SlowStartMode::HyStart
        } else {
            SlowStartMode::HyStartPlusPlus
        }
    }
}

/// `hystart_low_window`: HyStart acts from 16 packets (Linux default).
pub const HYSTART_LOW_WINDOW: u32 = 16;
/// `HYSTART_MIN_SAMPLES`: RTT samples per round for the delay detector.
pub const HYSTART_MIN_SAMPLES: u32 = 8;
/// `hystart_ack_delta_us`: ACKs closer than 2 ms belong to one train.
pub const HYSTART_ACK_DELTA_US: u64 = 2_000;
/// `HYSTART_DELAY_MIN`, `HYSTART_DELAY_MAX`: the delay threshold is
/// delay_min/8 clamped to 4–16 ms.
pub const HYSTART_DELAY_MIN_US: u32 = 4_000;
pub const HYSTART_DELAY_MAX_US: u32 = 16_000;
/// `sk_gso_max_size` of a device without BIG TCP (`GSO_LEGACY_MAX_SIZE`,
/// 64 KiB; software GSO is on by default), for `hystart_ack_delay`.
pub const GSO_MAX_SIZE_BYTES: u64 = 65_536;

/// `hystart_ack_delay` (`tcp_cubic.c` since 2020): a cushion of
/// min(1 ms, 4·gso_max_size / pacing rate) for TSO/GRO aggregation, where
/// the pacing rate is the one Linux computes for every flow, paced or not
/// (`tcp_update_pacing_rate`: mss·max(cwnd, packets out)/srtt, times 2
/// while cwnd < ssthresh/2 and 1.2 after). 0 before the first RTT sample
/// (no rate yet).
pub fn hystart_ack_delay_us(w: &Window, ack: &AckSample) -> u32 {
    if ack.srtt_ns == 0 {
        return 0;
    }
    let ratio_pct: u64 = if w.cwnd_pkts < w.ssthresh_pkts / 2 {
        200
    } else {
        120
    };
    let pkts = w.cwnd_pkts.max(ack.in_flight_pkts) as u64;
    // Bytes per second.
    let rate = ack.mss_bytes as u64 * pkts * ratio_pct * 10_000_000 / ack.srtt_ns.max(1);
    if rate == 0 {
        return 0;
    }
    (GSO_MAX_SIZE_BYTES * 4 * 1_000_000 / rate).min(1_000) as u32
}

/// HyStart (Ha & Rhee 2011) with the rules of the current Linux
/// `net/ipv4/tcp_cubic.c` (read in 6.x trees with the January 2025 fix
/// "tcp_cubic: fix incorrect HyStart round start detection"):
/// * rounds by sequence number: a round ends when SND.UNA passes the
///   SND.NXT recorded at its start (`after(snd_una, end_seq)`), checked on
///   every ACK in slow start whatever the window, before anything else;
/// * from 16 packets: the ACK train — ACKs at most 2 ms apart, lasting
///   more than (delay_min + `hystart_ack_delay`)/2 since the round began
///   (the sender does not pace, `SK_PACING_NONE`); and the delay — the
///   smallest RTT of the round (every sample lowers it, "tcp_cubic: fix
///   spurious HYSTART_DELAY exit upon drop in min RTT", 2020), checked from the
///   ninth sample, above delay_min + clamp(delay_min/8, 4 ms, 16 ms);
/// * either sets ssthresh = cwnd at once (`found`), and HyStart stays off
///   until a timeout (`cubictcp_state` on `TCP_CA_Loss`).
///
/// Times in µs as Linux keeps them (`tcp_mstamp`, `rtt_us`).
#[derive(Clone, Copy, Debug, Default)]
pub struct LinuxHyStart {
    /// The exit point was found (`found`).
    pub found: bool,
    round_start_us: u64,
    last_ack_us: u64,
    /// `end_seq`: SND.NXT at the round's start. None after a reset at a
    /// moment the engine's hook does not see SND.NXT (a timeout): the next
    /// ACK supplies it (nothing new is sent in Loss before that ACK).
    end_seq: Option<u32>,
    /// After `init`: the first ACK starts the first round (Linux resets at
    /// connection set-up and again on the first ACK, which acknowledges
    /// data beyond the `end_seq` of set-up).
    restart_on_next_ack: bool,
    curr_rtt_us: u32,
    sample_cnt: u32,
    /// ssthresh Linux set in `pkts_acked` (`tp->snd_ssthresh =
    /// tcp_snd_cwnd(tp)`); the engine's hook may not change the window, so
    /// the algorithm applies it at its next window update.
    pending_ssthresh: Option<u32>,
}

impl LinuxHyStart {
    /// `cubictcp_init` with `hystart` on.
    pub fn on_init(&mut self) {
        *self = LinuxHyStart {
            restart_on_next_ack: true,
            ..LinuxHyStart::default()
        };
    }

    /// `cubictcp_state(TCP_CA_Loss)`: `found` cleared and
    /// `bictcp_hystart_reset` at the time of the timeout.
    pub fn on_timeout(&mut self, now_ns: u64) {
        *self = LinuxHyStart::default();
        self.reset_round(now_ns / 1000, None);
    }

    /// `bictcp_hystart_reset`.
    fn reset_round(&mut self, now_us: u64, end_seq: Option<u32>) {
        self.round_start_us = now_us;
        self.last_ack_us = now_us;
        self.end_seq = end_seq;
        self.restart_on_next_ack = false;
        self.curr_rtt_us = u32::MAX;
        self.sample_cnt = 0;
    }

    /// `hystart_update`, called from `pkts_acked` with the ACK's RTT
    /// (`delay_us`, at least 1) when `!found` and in slow start, after
    /// `delay_min_us` took this sample into account.
    pub fn update(&mut self, w: &Window, ack: &AckSample, delay_us: u32, delay_min_us: u32) {
        let now_us = ack.now_ns / 1000;
        match self.end_seq {
            None if self.restart_on_next_ack => self.reset_round(now_us, Some(ack.snd_nxt_seg)),
            None => self.end_seq = Some(ack.snd_nxt_seg),
            Some(end) => {
                if seq_after(ack.snd_una_seg, end) {
                    self.reset_round(now_us, Some(ack.snd_nxt_seg));
                }
            }
        }
        if w.cwnd_pkts < HYSTART_LOW_WINDOW {
            return;
        }
        // The ACK train.
        if now_us.saturating_sub(self.last_ack_us) <= HYSTART_ACK_DELTA_US {
            self.last_ack_us = now_us;
            let threshold = (delay_min_us as u64 + hystart_ack_delay_us(w, ack) as u64) >> 1;
            if now_us.saturating_sub(self.round_start_us) > threshold {
                self.found = true;
                self.pending_ssthresh = Some(w.cwnd_pkts);
            }
        }
        // The delay.
        self.curr_rtt_us = self.curr_rtt_us.min(delay_us);
        if self.sample_cnt < HYSTART_MIN_SAMPLES {
            self.sample_cnt += 1;
        } else if self.curr_rtt_us as u64
            > delay_min_us as u64
                + (delay_min_us >> 3).clamp(HYSTART_DELAY_MIN_US, HYSTART_DELAY_MAX_US) as u64
        {
            self.found = true;
            self.pending_ssthresh = Some(w.cwnd_pkts);
        }
    }

    /// The ssthresh HyStart set on this ACK, if any (once).
    pub fn take_ssthresh(&mut self) -> Option<u32> {
        self.pending_ssthresh.take()
    }

    /// A congestion event set ssthresh itself.
    pub fn on_congestion(&mut self) {
        self.pending_ssthresh = None;
    }
}

/// The slow start of one flow: the mode and the state of each detector.
#[derive(Clone, Copy, Debug)]
pub struct SlowStart {
    pub mode: SlowStartMode,
    pub hystart: LinuxHyStart,
    pub hystart_pp: HyStartPlusPlus,
}

impl SlowStart {
    pub fn new(mode: SlowStartMode) -> Self {
        SlowStart {
            mode,
            hystart: LinuxHyStart::default(),
            hystart_pp: HyStartPlusPlus::new(),
        }
    }

    /// The algorithm's `init`.
    pub fn on_init(&mut self) {
        *self = SlowStart::new(self.mode);
        if self.mode == SlowStartMode::HyStart {
            self.hystart.on_init();
        }
    }

    /// Every ACK (`pkts_acked`) for HyStart++: rounds and RTT samples. Call
    /// before the algorithm filters its own RTT samples.
    pub fn on_ack(&mut self, w: &Window, ack: &AckSample) {
        if self.mode == SlowStartMode::HyStartPlusPlus {
            self.hystart_pp.on_ack(w, ack);
        }
    }

    /// HyStart's detectors (`pkts_acked`, after the algorithm updated
    /// `delay_min_us` with this sample of `delay_us`).
    pub fn on_delay(&mut self, w: &Window, ack: &AckSample, delay_us: u32, delay_min_us: u32) {
        if self.mode == SlowStartMode::HyStart && !self.hystart.found && w.in_slow_start() {
            self.hystart.update(w, ack, delay_us, delay_min_us);
        }
    }

    /// Slow-start growth in `cong_avoid` while cwnd < ssthresh: returns the
    /// packets left for congestion avoidance (`tcp_slow_start`'s return).
    pub fn grow(&mut self, w: &mut Window, acked: u32) -> u32 {
        match self.mode {
            SlowStartMode::HyStartPlusPlus => self.hystart_pp.grow(w, acked),
            SlowStartMode::HyStart => {
                if let Some(ss) = self.hystart.take_ssthresh() {
                    w.ssthresh_pkts = ss;
                }
                if w.in_slow_start() {
                    w.slow_start(acked)
                } else {
                    acked
                }
            }
            SlowStartMode::Standard => w.slow_start(acked),
        }
    }

    /// The algorithm's `ssthresh`: a congestion event.
    pub fn on_congestion(&mut self) {
        self.hystart.on_congestion();
        self.hystart_pp.on_congestion();
    }

    /// `set_state(TCP_CA_Loss)`: HyStart starts over (Linux); HyStart++
    /// does not (RFC 9406 §4.3: the initial slow start only).
    pub fn on_timeout(&mut self, now_ns: u64) {
        if self.mode == SlowStartMode::HyStart {
            self.hystart.on_timeout(now_ns);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cc::INFINITE_SSTHRESH;

    const MS_US: u32 = 1_000;

    fn window(cwnd: u32) -> Window {
        Window {
            cwnd_pkts: cwnd,
            cwnd_cnt: 0,
            ssthresh_pkts: INFINITE_SSTHRESH,
            cwnd_clamp_pkts: 1_000_000,
        }
    }

    fn ack(now_ns: u64, una: u32, nxt: u32) -> AckSample {
        AckSample {
            now_ns,
            acked_pkts: 1,
            counted_pkts: 1,
            snd_una_seg: una,
            snd_nxt_seg: nxt,
            mss_bytes: 1448,
            ..AckSample::default()
        }
    }

    #[test]
    fn the_parameter_keeps_its_old_meaning() {
        assert_eq!(SlowStartMode::from_param(0.0), SlowStartMode::Standard);
        assert_eq!(SlowStartMode::from_param(1.0), SlowStartMode::HyStart);
        assert_eq!(SlowStartMode::from_param(0.5), SlowStartMode::HyStart);
        assert_eq!(
            SlowStartMode::from_param(2.0),
            SlowStartMode::HyStartPlusPlus
        );
    }

    /// "tcp_cubic: fix spurious HYSTART_DELAY exit upon drop in min RTT"
    /// (Cardwell, 2020, the example of its message): eight samples of 150 ms, then delay_min drops to 100 ms on
    /// the ninth; curr_rtt falls with it, so no exit (the older rule kept
    /// curr_rtt at 150 ms and left slow start).
    #[test]
    fn a_drop_in_min_rtt_is_no_delay_exit() {
        let w = window(32);
        let mut h = LinuxHyStart::default();
        h.on_init();
        let mut now = 1_000_000_000u64;
        for i in 0..8 {
            now += 10_000_000; // no ACK train: 10 ms apart
            h.update(&w, &ack(now, 1 + i, 100), 150 * MS_US, 150 * MS_US);
        }
        now += 10_000_000;
        h.update(&w, &ack(now, 9, 100), 100 * MS_US, 100 * MS_US);
        assert!(!h.found);
        // A real rise in the next round (SND.UNA passes 100): every sample
        // 113 ms > 100 ms + clamp(12.5, 4, 16) ms; decided on the ninth.
        for i in 0..9 {
            assert!(!h.found, "sample {i}");
            now += 10_000_000;
            h.update(&w, &ack(now, 101 + i, 300), 113 * MS_US, 100 * MS_US);
        }
        assert!(h.found);
        assert_eq!(h.take_ssthresh(), Some(32));
        assert_eq!(h.take_ssthresh(), None, "once");
    }

    /// The ACK train: ACKs at most 2 ms apart from the round's start for
    /// longer than (delay_min + ack_delay)/2.
    #[test]
    fn a_long_ack_train_ends_slow_start() {
        let w = window(64);
        let mut h = LinuxHyStart::default();
        h.on_init();
        let start = 1_000_000_000u64;
        // Round begins at the first ACK (SND.NXT 200): ACKs every 1 ms.
        let mut now = start;
        let mut una = 1;
        h.update(&w, &ack(now, una, 200), 40 * MS_US, 40 * MS_US);
        let delay = hystart_ack_delay_us(&w, &ack(now, una, 200));
        assert_eq!(delay, 0, "no srtt yet");
        while !h.found {
            now += 1_000_000;
            una += 1;
            h.update(&w, &ack(now, una, 200), 40 * MS_US, 40 * MS_US);
            assert!(now - start <= 21_000_000, "exit past 20 ms");
        }
        assert_eq!((now - start) / 1_000_000, 21, "first ACK past 40/2 ms");
    }

    /// Rounds: the ACK that passes the round's SND.NXT starts a new one,
    /// so the ACK train is measured from the round's first ACK.
    #[test]
    fn a_new_round_restarts_the_ack_train() {
        let w = window(64);
        let mut h = LinuxHyStart::default();
        h.on_init();
        let mut now = 1_000_000_000u64;
        h.update(&w, &ack(now, 1, 10), 40 * MS_US, 40 * MS_US);
        for una in 2..=10 {
            now += 1_000_000;
            h.update(&w, &ack(now, una, 10), 40 * MS_US, 40 * MS_US);
        }
        // SND.UNA 11 > end_seq 10: a new round 1 ms later.
        for una in 11..=29 {
            now += 1_000_000;
            h.update(&w, &ack(now, una, 40), 40 * MS_US, 40 * MS_US);
        }
        assert!(!h.found, "18 ms into the new round");
    }

    /// `hystart_ack_delay`: 1 ms at ordinary rates, less above ~1 Gb/s.
    #[test]
    fn ack_delay_is_a_millisecond_below_a_gigabit() {
        let mut a = ack(0, 0, 0);
        a.srtt_ns = 50_000_000;
        assert_eq!(hystart_ack_delay_us(&window(100), &a), 1_000);
        // 2·1448·100 000/0.05 s = 5.8 GB/s: 262 144 B / 5.8 GB/s = 45 µs.
        assert_eq!(hystart_ack_delay_us(&window(100_000), &a), 45);
    }

    /// Below 16 packets no detector runs, but rounds are still counted
    /// ("tcp_cubic: fix incorrect HyStart round start detection", 2025): the
    /// train is measured from the start of the round the window reached 16
    /// in.
    #[test]
    fn rounds_are_tracked_below_the_low_window() {
        let small = window(8);
        let mut h = LinuxHyStart::default();
        h.on_init();
        let t0 = 1_000_000_000u64;
        h.update(&small, &ack(t0, 1, 8), 40 * MS_US, 40 * MS_US);
        // Next round begins at 50 ms with the window now 16.
        let big = window(16);
        h.update(&big, &ack(t0 + 50_000_000, 9, 24), 40 * MS_US, 40 * MS_US);
        // 1 ms later: the train is 1 ms long, not 51 ms.
        h.update(&big, &ack(t0 + 51_000_000, 10, 24), 40 * MS_US, 40 * MS_US);
        assert!(!h.found);
    }
}
