//! The windowed max filter BBR keeps its bandwidth estimate in: Linux
//! `lib/win_minmax.c`.

/// One sample of Linux's windowed min/max tracker (`struct minmax_sample`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct MinmaxSample {
    t: u64,
    v: f64,
}

/// Kathleen Nichols' windowed max tracker, Linux `lib/win_minmax.c`
/// (`minmax_running_max`), which `tcp_bbr.c` keeps its bandwidth in: the
/// best, second and third best samples spread over the window. A sample
/// stays the maximum while `t − its t ≤ win` (so a round-`r` sample lasts
/// through round `r + 10` for `bbr_bw_rtts` = 10); when it ages out, the
/// next choice is the one the sub-window rules kept, which is not always
/// the exact maximum of what remains; and nothing ages without a new
/// sample.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Minmax {
    s: [MinmaxSample; 3],
}

impl Minmax {
    /// `minmax_get`.
    pub(super) fn get(&self) -> f64 {
        self.s[0].v
    }

    /// `minmax_reset`.
    fn reset(&mut self, t: u64, v: f64) -> f64 {
        self.s = [MinmaxSample { t, v }; 3];
        v
    }

    /// `minmax_subwin_update`: as time advances, update the 1st, 2nd and
    /// 3rd choices.
    fn subwin_update(&mut self, win: u64, val: MinmaxSample) -> f64 {
        let dt = val.t.wrapping_sub(self.s[0].t);
        if dt > win {
            // Passed the entire window without a new max: the 2nd choice
            // becomes the max, the 3rd the 2nd; maybe twice.
            self.s[0] = self.s[1];
            self.s[1] = self.s[2];
            self.s[2] = val;
            if val.t.wrapping_sub(self.s[0].t) > win {
                self.s[0] = self.s[1];
                self.s[1] = self.s[2];
                self.s[2] = val;
            }
        } else if self.s[1].t == self.s[0].t && dt > win / 4 {
            // A quarter of the window without a new max: take a 2nd choice
            // from the 2nd quarter.
            self.s[2] = val;
            self.s[1] = val;
        } else if self.s[2].t == self.s[1].t && dt > win / 2 {
            // Half the window without a new max: a 3rd choice from the
            // last half.
            self.s[2] = val;
        }
        self.s[0].v
    }

    /// `minmax_running_max`.
    pub(super) fn running_max(&mut self, win: u64, t: u64, v: f64) -> f64 {
        let val = MinmaxSample { t, v };
        if val.v >= self.s[0].v || val.t.wrapping_sub(self.s[2].t) > win {
            return self.reset(t, v);
        }
        if val.v >= self.s[1].v {
            self.s[2] = val;
            self.s[1] = val;
        } else if val.v >= self.s[2].v {
            self.s[2] = val;
        }
        self.subwin_update(win, val)
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{ack_at, linux_started};
    use super::super::*;

    /// The bandwidth filter is Linux's `minmax_running_max` over
    /// `bbr_bw_rtts` = 10 rounds: a sample stays the maximum while fewer
    /// than 11 rounds have passed (`dt > win` ages it), and when it ages
    /// out the next choice is what the sub-window rules kept — here the
    /// sample from the 2nd quarter of the window (10 pkt/s), not the exact
    /// maximum of the last 10 rounds (90).
    #[test]
    fn bandwidth_filter_is_linux_windowed_max() {
        let (mut cc, mut w) = linux_started();
        let rates = [
            100.0, 90.0, 80.0, 10.0, 10.0, 10.0, 10.0, 10.0, 10.0, 10.0, 10.0, 10.0,
        ];
        let mut bws = vec![];
        for (i, &rate) in rates.iter().enumerate() {
            // Nothing left in flight: every ACK starts a round.
            let k = i as u64 + 1;
            cc.cong_control(
                &mut w,
                &ack_at(k * 10_000_000, 1, k, 0, 10_000_000, rate),
                CaState::Open,
            );
            bws.push(cc.max_bw_pps());
        }
        // Rounds 1–11 (dt ≤ 10): 100; round 12: the kept 2nd choice.
        assert_eq!(&bws[..11], &[100.0; 11], "{bws:?}");
        assert_eq!(bws[11], 10.0, "{bws:?}");
    }
}
