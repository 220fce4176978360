//! How the window comes down in CWR and Recovery: Linux's rate halving
//! (`tcp_cwnd_down`, 2.4–3.1) and Proportional Rate Reduction (RFC 6937,
//! Linux ≥ 3.2). Pure functions of the sender's counters, unit-tested below.

use crate::cc::Window;

/// Linux `tcp_cwnd_down`: one packet less every second call while cwnd is
/// above `floor`, and never more than in-flight + 1. `counter` is the
/// two-ACK counter (Linux reuses `snd_cwnd_cnt`).
///
/// The floor is what the kernel's version used: 2.4 and 2.6.22's Reno,
/// HighSpeed and Scalable (`tcp_reno_min_cwnd`) go down to ssthresh/2, and
/// the engine's own CWR (before profiles) stopped at ssthresh.
pub fn rate_halving(w: &mut Window, counter: &mut u32, in_flight_pkts: u32, floor: u32) {
    let decr = *counter + 1;
    *counter = decr & 1;
    let decr = decr >> 1;
    if decr > 0 && w.cwnd_pkts > floor {
        w.cwnd_pkts -= decr.min(w.cwnd_pkts - floor);
    }
    w.cwnd_pkts = w.cwnd_pkts.min(in_flight_pkts + 1);
}

/// Proportional Rate Reduction (RFC 6937 §3, Linux `tcp_cwnd_reduction`):
/// the new cwnd = pipe + sndcnt. While pipe > ssthresh, sndcnt spreads the
/// reduction over one RTT of deliveries (prr_delivered·ssthresh/RecoverFS −
/// prr_out). Below ssthresh it sends what was delivered (packet
/// conservation: `max(prr_delivered − prr_out, delivered_now)`), plus one
/// when `slow_start` (the slow-start reduction bound, SSRB), never more than
/// ssthresh − pipe. RFC 6937 and Linux's first PRR (3.2) add the one on every ACK;
/// Linux 6 (`tcp_cwnd_reduction`: `if (flag &
/// FLAG_SND_UNA_ADVANCED && !newly_lost) sndcnt++`) only on an ACK that
/// advances snd_una and finds no new loss (see [`RecoveryRule::PrrSafeAck`]).
///
/// [`RecoveryRule::PrrSafeAck`]: crate::profile::RecoveryRule::PrrSafeAck
pub fn prr(
    pipe: u32,
    ssthresh: u32,
    prr_delivered: u32,
    prr_out: u32,
    recover_fs: u32,
    delivered_now: u32,
    slow_start: bool,
) -> u32 {
    let sndcnt = if pipe > ssthresh {
        let target = (prr_delivered as u64 * ssthresh as u64).div_ceil(recover_fs.max(1) as u64);
        target.saturating_sub(prr_out as u64) as u32
    } else {
        let limit =
            prr_delivered.saturating_sub(prr_out).max(delivered_now) + u32::from(slow_start);
        (ssthresh - pipe).min(limit)
    };
    pipe + sndcnt
}

#[cfg(test)]
mod tests {
    use super::*;

    fn window(cwnd: u32, ssthresh: u32) -> Window {
        Window {
            cwnd_pkts: cwnd,
            cwnd_cnt: 0,
            ssthresh_pkts: ssthresh,
            cwnd_clamp_pkts: 100_000,
        }
    }

    #[test]
    fn rate_halving_takes_one_packet_every_second_ack() {
        let mut w = window(100, 50);
        let mut c = 0;
        let cwnds: Vec<u32> = (0..6)
            .map(|_| {
                rate_halving(&mut w, &mut c, 1000, 50);
                w.cwnd_pkts
            })
            .collect();
        assert_eq!(cwnds, [100, 99, 99, 98, 98, 97]);
    }

    #[test]
    fn rate_halving_clamps_to_in_flight_plus_one_and_stops_at_its_floor() {
        let mut w = window(100, 50);
        let mut c = 0;
        rate_halving(&mut w, &mut c, 40, 50);
        assert_eq!(w.cwnd_pkts, 41, "in-flight + 1");
        // Linux 2.4's floor ssthresh/2: from 30 down to 25, no further.
        let mut w = window(30, 50);
        let mut c = 0;
        for _ in 0..40 {
            rate_halving(&mut w, &mut c, 1000, 25);
        }
        assert_eq!(w.cwnd_pkts, 25);
    }

    /// Over one round trip of a delayed-ACK flow (W packets, W/2 ACKs) rate
    /// halving removes W/4: Scalable's 1/8 cut becomes 1/4 on Linux 2.4,
    /// because its floor (ssthresh/2) lies below its ssthresh (7/8 W).
    #[test]
    fn one_round_of_rate_halving_with_delayed_acks_removes_a_quarter() {
        let w0 = 800;
        let mut w = window(w0, w0 * 7 / 8);
        let mut c = 0;
        let floor = w.ssthresh_pkts / 2;
        for _ in 0..w0 / 2 {
            rate_halving(&mut w, &mut c, 10_000, floor);
        }
        assert_eq!(w.cwnd_pkts, w0 - w0 / 4);
        // tcp_complete_cwr then takes min(cwnd, ssthresh): the lower one.
        assert!(w.cwnd_pkts.min(w.ssthresh_pkts) < w0 * 7 / 8);
    }

    /// RFC 6937 §3 example shape: 20 in flight, ssthresh 10, one loss; each
    /// delivery allows about one send per two deliveries.
    #[test]
    fn prr_sends_in_proportion_then_slow_starts_back_to_ssthresh() {
        let (recover_fs, ssthresh) = (20, 10);
        let mut out = 0;
        let mut sends = Vec::new();
        let mut pipe = 19;
        for delivered in 1..=8u32 {
            pipe -= 1;
            let cwnd = prr(pipe, ssthresh, delivered, out, recover_fs, 1, true);
            let sent = cwnd.saturating_sub(pipe);
            out += sent;
            pipe += sent;
            sends.push(sent);
        }
        assert_eq!(sends.iter().sum::<u32>(), 4, "{sends:?}");
        // Below ssthresh (heavy loss): at most delivered + 1 per ACK (SSRB).
        assert_eq!(prr(2, 10, 5, 5, 20, 1, true), 2 + 2);
        // Without the slow-start allowance (Linux 6 on an ACK that
        // does not advance snd_una or finds a new loss): what was
        // delivered, packet conservation.
        assert_eq!(prr(2, 10, 5, 5, 20, 1, false), 2 + 1);
        assert_eq!(
            prr(2, 10, 9, 5, 20, 1, false),
            2 + 4,
            "prr_delivered − prr_out"
        );
        assert_eq!(
            prr(8, 10, 9, 5, 20, 1, false),
            10,
            "at most ssthresh − pipe"
        );
    }
}
