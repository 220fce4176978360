//! BBRv3's constants and rules against google's v3 `tcp_bbr.c`.

use super::*;
use crate::cc::testing::{run_fluid, FluidPath};

/// What a cut by `bbr_beta` keeps: `BBR_UNIT - 76` = 180/256.
const KEEP: f64 = 180.0 / 256.0;

fn started() -> (Bbr3, Window) {
    let mut cc = Bbr3::linux();
    let mut w = Window {
        cwnd_pkts: 10,
        cwnd_cnt: 0,
        ssthresh_pkts: 100,
        cwnd_clamp_pkts: 1_000_000,
    };
    cc.init(&mut w, 0);
    (cc, w)
}

/// One ACK at `now` of `acked` packets, the connection having delivered
/// `delivered` with `in_flight` left, at `pps` delivery rate.
fn ack_at(now: u64, acked: u32, delivered: u64, in_flight: u32, rtt: u64, pps: f64) -> AckSample {
    AckSample {
        now_ns: now,
        acked_pkts: acked,
        counted_pkts: acked,
        rtt_ns: Some(rtt),
        srtt_ns: rtt,
        in_flight_pkts: in_flight,
        delivered_pkts: delivered,
        delivery_rate_pps: Some(pps),
        prior_delivered_pkts: delivered.saturating_sub(in_flight as u64),
        prior_in_flight_pkts: in_flight + acked,
        tx_in_flight_pkts: in_flight + acked,
        mss_bytes: 1448,
        ..AckSample::default()
    }
}

/// Into PROBE_BW on a 10 000 pkt/s, 20 ms path (BDP 200 packets).
fn in_probe_bw() -> (Bbr3, Window, FluidPath, u64, u64) {
    let (mut cc, mut w) = started();
    let mut p = FluidPath::new(20_000_000, 10_000.0);
    let mut d = 0;
    let (t, _) = run_fluid(&mut cc, &mut w, &mut p, 40, 0, &mut d);
    assert_eq!(cc.mode(), Mode::ProbeBw);
    (cc, w, p, t, d)
}

/// google/bbr v3 `tcp_bbr.c`, in its fixed point (`BBR_UNIT` = 256):
/// `bbr_pacing_gain[]` = {5/4 (UP), 91/100 → 232/256 (DOWN), 1 (CRUISE),
/// 1 (REFILL)}; `bbr_startup_pacing_gain` 277/100 + 1 → 710/256,
/// `bbr_startup_cwnd_gain` 2, `bbr_drain_gain` 1000/2885 → 88/256, `bbr_cwnd_gain`
/// 2 plus `bbr_bw_probe_cwnd_gain` (1/4) in UP; PROBE_RTT's
/// `bbr_probe_rtt_cwnd_gain` 1/2 and `bbr_probe_rtt_win_ms` 5000.
#[test]
fn the_gains_are_v3s() {
    assert_eq!(Phase::Up.pacing_gain(), 1.25);
    assert_eq!(Phase::Down.pacing_gain(), 0.90625);
    assert_eq!(Phase::Cruise.pacing_gain(), 1.0);
    assert_eq!(Phase::Refill.pacing_gain(), 1.0);
    assert_eq!(STARTUP_PACING_GAIN, 2.7734375);
    assert_eq!(STARTUP_CWND_GAIN, 2.0);
    assert_eq!(DRAIN_GAIN, 0.34375);
    assert_eq!(CWND_GAIN + BW_PROBE_CWND_GAIN, 2.25);
    assert_eq!(PROBE_RTT_CWND_GAIN, 0.5);
    assert_eq!(PROBE_RTT_WIN_NS, 5_000_000_000);
    assert_eq!(probe_bw::BW_PROBE_MAX_ROUNDS, 63);
    assert_eq!(modes::FULL_LOSS_CNT, 6);
    let (cc, _) = started();
    assert_eq!(cc.mode(), Mode::Startup);
    assert_eq!(cc.pacing_gain, 2.7734375);
    // bbr_loss_thresh 5/256; the bounds keep 180/256; headroom 38/256.
    assert_eq!(cc.loss_thresh, 5.0 / 256.0);
    assert_eq!(1.0 - cc.beta, KEEP);
    assert_eq!(cc.headroom, 38.0 / 256.0);
    assert_eq!(cc.cwnd_gain, 2.0);
}

/// STARTUP finds the bandwidth, DRAIN empties the queue, PROBE_BW starts
/// in DOWN and cruises once in flight is at most the BDP; the next probe
/// waits 2 to 3 s (`bbr_bw_probe_base_us` + `bbr_bw_probe_rand_us`).
#[test]
fn startup_drain_then_down_and_cruise_with_a_two_to_three_second_wait() {
    let (cc, w, _, _, _) = in_probe_bw();
    assert!(
        (cc.max_bw_pps() / 10_000.0 - 1.0).abs() < 0.01,
        "bw {}",
        cc.max_bw_pps()
    );
    assert_eq!(cc.min_rtt_ns(), 20_000_000);
    assert!(
        cc.phase_log.starts_with(&[Phase::Down]),
        "{:?}",
        cc.phase_log
    );
    assert!(cc.phase_log.contains(&Phase::Cruise), "{:?}", cc.phase_log);
    let wait = cc.probe_wait_ns();
    assert!((2_000_000_000..3_000_000_000).contains(&wait), "{wait}");
    // No loss: no bounds; cwnd is 2 BDP plus the allowances.
    assert_eq!(cc.inflight_hi(), None);
    assert_eq!(cc.inflight_lo(), None);
    assert!((400..=440).contains(&w.cwnd_pkts), "cwnd {}", w.cwnd_pkts);
}

/// `bbr_is_reno_coexistence_probe_time` bounds the wait between probes by
/// the BDP in round trips (Reno's time to regrow), at most 63: on a
/// 200-packet BDP the 2–3 s wall clock comes first only if shorter than
/// 63 rounds of 20 ms (1.26 s) — so here the round bound decides.
#[test]
fn the_next_probe_comes_after_at_most_63_rounds() {
    let (mut cc, mut w, mut p, mut t, mut d) = in_probe_bw();
    // From the start of the next DOWN (where the count restarts at 0 or
    // 1) to the next REFILL.
    let mut seen = cc.phase_log.len();
    let down = loop {
        (t, _) = run_fluid(&mut cc, &mut w, &mut p, 1, t, &mut d);
        if cc.phase_log[seen..].contains(&Phase::Down) {
            break t;
        }
        seen = cc.phase_log.len();
        assert!(t < 10_000_000_000, "no probe cycle in 10 s");
    };
    seen = cc.phase_log.len();
    while !cc.phase_log[seen..].contains(&Phase::Refill) {
        (t, _) = run_fluid(&mut cc, &mut w, &mut p, 1, t, &mut d);
        assert!(t - down < 3_000_000_000, "no probe within 3 s of DOWN");
    }
    let rounds = (t - down) as f64 / 20e6;
    assert!((55.0..=66.0).contains(&rounds), "{rounds} rounds");
}

/// `bbr_handle_inflight_too_high`: a sample whose loss rate is over 2 %
/// (`bbr_loss_thresh`) sets `inflight_hi` to what was in flight when its
/// packet left, or to 180/256 of the target (`bbr_beta` = 30/100 → 76/256) if that is
/// more; in UP it ends the probe (DOWN).
#[test]
fn too_much_loss_in_a_probe_sets_inflight_hi_and_steps_down() {
    let (mut cc, mut w, mut p, mut t, mut d) = in_probe_bw();
    while cc.phase() != Phase::Up {
        (t, _) = run_fluid(&mut cc, &mut w, &mut p, 1, t, &mut d);
    }
    // 3 of 250 in flight lost: 1.2 %, not too high.
    t += 1_000_000;
    d += 1;
    let mut a = ack_at(t, 1, d, 249, 20_000_000, 10_000.0);
    a.tx_in_flight_pkts = 250;
    a.tx_lost_pkts = 3;
    cc.cong_control(&mut w, &a, CaState::Recovery);
    assert_eq!(cc.phase(), Phase::Up);
    // 6 of 250: 2.4 %, too high.
    t += 1_000_000;
    d += 1;
    let mut a = ack_at(t, 1, d, 249, 20_000_000, 10_000.0);
    a.tx_in_flight_pkts = 250;
    a.tx_lost_pkts = 6;
    cc.cong_control(&mut w, &a, CaState::Recovery);
    assert_eq!(cc.phase(), Phase::Down);
    let target = cc.inflight(cc.bw_pps(), 1.0).min(w.cwnd_pkts);
    assert_eq!(
        cc.inflight_hi(),
        Some(250u32.max((target as f64 * 180.0 / 256.0) as u32))
    );
}

/// `bbr_adapt_lower_bounds`: outside a probe, the end of a round trip that
/// saw loss sets `inflight_lo` to 180/256 of cwnd (not below what the round
/// delivered) and `bw_lo` to 180/256 of the max bandwidth (not below the
/// round's best rate); they cap cwnd and the model's bandwidth.
#[test]
fn a_lossy_round_outside_a_probe_cuts_the_lower_bounds_by_beta() {
    let (mut cc, mut w, mut p, mut t, mut d) = in_probe_bw();
    while cc.phase() != Phase::Cruise {
        (t, _) = run_fluid(&mut cc, &mut w, &mut p, 1, t, &mut d);
    }
    let cwnd = w.cwnd_pkts;
    let bw = cc.max_bw_pps();
    // A lossy round ends (its last sample is of a packet sent after the
    // round began): inflight_lo = 180/256 cwnd; bw_lo keeps the round's best
    // rate (about the max).
    let lossy_round = |cc: &mut Bbr3, w: &mut Window, t: &mut u64, d: &mut u64| {
        *t += 1_000_000;
        *d += 1;
        let mut a = ack_at(*t, 1, *d, 10, 20_000_000, 1_000.0);
        a.losses_pkts = 1;
        cc.cong_control(w, &a, CaState::Recovery);
        *t += 25_000_000;
        *d += 1;
        let mut a = ack_at(*t, 1, *d, 10, 20_000_000, 1_000.0);
        a.prior_delivered_pkts = *d;
        cc.cong_control(w, &a, CaState::Recovery);
    };
    lossy_round(&mut cc, &mut w, &mut t, &mut d);
    assert_eq!(cc.inflight_lo(), Some((cwnd as f64 * KEEP) as u32));
    let after_one = cc.bw_pps();
    assert!(after_one > 0.98 * bw, "{after_one} vs {bw}");
    assert!(w.cwnd_pkts <= (cwnd as f64 * KEEP) as u32);
    // The next lossy round's best rate is low: both bounds × 180/256 again.
    lossy_round(&mut cc, &mut w, &mut t, &mut d);
    assert_eq!(
        cc.inflight_lo(),
        Some(((cwnd as f64 * KEEP) as u32 as f64 * KEEP) as u32)
    );
    assert!(
        (cc.bw_pps() - after_one * KEEP).abs() < 1.0,
        "{}",
        cc.bw_pps()
    );
}

/// `bbr_raise_inflight_hi_slope`: UP's growth doubles each round, one
/// packet of `inflight_hi` per cwnd/2^k ACKed.
#[test]
fn up_grows_inflight_hi_one_two_four_packets_per_round() {
    let (mut cc, w) = started();
    cc.bw_probe_up_rounds = 0;
    cc.raise_inflight_hi_slope(&w);
    assert_eq!(cc.bw_probe_up_cnt, 10);
    cc.raise_inflight_hi_slope(&w);
    assert_eq!(cc.bw_probe_up_cnt, 5);
    cc.raise_inflight_hi_slope(&w);
    assert_eq!(cc.bw_probe_up_cnt, 2);
    cc.raise_inflight_hi_slope(&w);
    assert_eq!(cc.bw_probe_up_cnt, 1);
}

/// PROBE_RTT (v3): 5 s without a lower RTT; cwnd half the BDP (100 of
/// 200 packets here, plus nothing: `bbr_probe_rtt_cwnd` has no budget),
/// not 4 packets as in v1.
#[test]
fn probe_rtt_halves_the_bdp_every_five_seconds() {
    let (mut cc, mut w, mut p, mut t, mut d) = in_probe_bw();
    p.base_rtt_ns = 21_000_000;
    let from = t;
    let mut lowest = u32::MAX;
    let mut entered = None;
    while t < from + 7_000_000_000 {
        (t, _) = run_fluid(&mut cc, &mut w, &mut p, 1, t, &mut d);
        if cc.mode() == Mode::ProbeRtt {
            entered.get_or_insert(t);
            lowest = lowest.min(w.cwnd_pkts);
        }
    }
    let entered = entered.expect("PROBE_RTT within 7 s");
    assert!(
        entered - from < 5_200_000_000,
        "{} ms",
        (entered - from) / 1_000_000
    );
    assert_eq!(lowest, 100);
}

/// `bbr_inflight_hi_from_lost_skb` for one-packet skbs, in the kernel's
/// fixed point (`loss_thresh` 5/256): `inflight_prev = tx_in_flight - 1`,
/// `lost_prev = lost - 1`, `loss_budget = ⌈inflight_prev · 5 / 256⌉`, and
/// the lost packet's share past the budget, `(budget - lost_prev) · 256 /
/// 251`, truncated.
#[test]
fn inflight_hi_from_a_lost_packet_is_where_the_loss_rate_crossed_2_percent() {
    let cc = Bbr3::linux();
    let hi = |tx_in_flight_pkts, tx_lost_pkts| {
        cc.inflight_hi_from_lost_packet(&LostPacket {
            tx_in_flight_pkts,
            tx_lost_pkts,
            ..LostPacket::default()
        })
    };
    // 299 before it, budget ⌈5.84⌉ = 6, 6 lost before it: crossed already.
    assert_eq!(hi(300, 7), 299);
    // 99 before it, budget ⌈1.93⌉ = 2, 1 lost before: (2 − 1)·256/251 = 1.
    assert_eq!(hi(100, 2), 100);
    // 1000 before it, budget ⌈19.53⌉ = 20, 3 lost before: 17·256/251 = 17.
    assert_eq!(hi(1001, 4), 1017);
    // Counts that cannot be (nothing in flight or lost): ~0U.
    assert_eq!(hi(0, 1), UNSET);
    assert_eq!(hi(10, 0), UNSET);
}

/// `bbr_skb_marked_lost`: while a probe's samples count, a packet marked
/// lost whose own flight lost more than 2 % ends the probe (DOWN) and sets
/// `inflight_hi` from that flight; outside a probe it only notes the loss
/// for the round (`bbr_note_loss`).
#[test]
fn a_packet_lost_from_a_too_lossy_probe_flight_ends_the_probe() {
    let (mut cc, mut w, mut p, mut t, mut d) = in_probe_bw();
    while cc.phase() != Phase::Cruise {
        (t, _) = run_fluid(&mut cc, &mut w, &mut p, 1, t, &mut d);
    }
    let hi = cc.inflight_hi();
    assert!(!cc.loss_in_round);
    cc.skb_marked_lost(
        &w,
        &LostPacket {
            now_ns: t,
            delivered_pkts: d,
            tx_in_flight_pkts: 300,
            tx_lost_pkts: 30,
            delivered_at_send_pkts: d - 200,
        },
    );
    assert_eq!(cc.phase(), Phase::Cruise, "not probing: no reaction");
    assert_eq!(cc.inflight_hi(), hi);
    assert!(cc.loss_in_round, "the loss is noted for the round");
    assert_eq!(cc.loss_round_delivered, d);

    while cc.phase() != Phase::Up {
        (t, _) = run_fluid(&mut cc, &mut w, &mut p, 1, t, &mut d);
    }
    // 5 of 300 (1.7 %): not too high.
    let lost = |tx_lost_pkts| LostPacket {
        now_ns: t,
        delivered_pkts: d,
        tx_in_flight_pkts: 300,
        tx_lost_pkts,
        delivered_at_send_pkts: d - 200,
    };
    cc.skb_marked_lost(&w, &lost(5));
    assert_eq!(cc.phase(), Phase::Up);
    // 7 of 300: too high, at the packet itself (6 lost of the 299 before it).
    cc.skb_marked_lost(&w, &lost(7));
    assert_eq!(cc.phase(), Phase::Down);
    let target = cc.inflight(cc.bw_pps(), 1.0).min(w.cwnd_pkts);
    assert_eq!(
        cc.inflight_hi(),
        Some(299u32.max((target as f64 * KEEP) as u32))
    );
    // Once per probe: a later packet does not react again.
    let after = cc.inflight_hi();
    cc.skb_marked_lost(&w, &lost(40));
    assert_eq!(cc.inflight_hi(), after);
}

/// google/bbr v3 `tcp_bbr.c`'s ECN constants, in 256ths:
/// `bbr_ecn_max_rtt_us` 5000, `bbr_ecn_alpha_gain` `BBR_UNIT / 16`,
/// `bbr_ecn_alpha_init` `BBR_UNIT`, `bbr_ecn_factor` `BBR_UNIT * 1 / 3` → 85,
/// `bbr_ecn_thresh` and `bbr_ecn_reprobe_gain` `BBR_UNIT / 2`,
/// `bbr_full_ecn_cnt` 2; off unless the route allows it.
#[test]
fn the_ecn_constants_are_v3s() {
    use super::ecn::*;
    assert_eq!(ECN_MAX_RTT_NS, 5_000_000);
    assert_eq!((ECN_ALPHA_GAIN, ECN_ALPHA_INIT), (16, 256));
    assert_eq!(ECN_FACTOR, 85);
    assert_eq!((ECN_THRESH, ECN_REPROBE_GAIN), (128, 128));
    assert_eq!(FULL_ECN_CNT, 2);
    let cc = Bbr3::linux();
    assert!(!cc.ecn_enabled);
    assert_eq!(cc.ce_echo(), CeEcho::Classic);
    assert_eq!(cc.ecn_alpha, 256);
    assert_eq!(cc.ecn_cut(), 171, "alpha 1 cuts 85/256");
    let on = build(&Params::resolve(&INFO, &[("ecn".to_string(), 1.0)].into()));
    assert_eq!(on.ce_echo(), CeEcho::Dctcp, "bbr_precise_ece_ack");
}

/// A round's delivered and CE-marked counts, as `bbr_update_ecn_alpha`
/// reads `tp->delivered` and `tp->delivered_ce`.
fn round_end(delivered: u64, delivered_ce: u64) -> AckSample {
    AckSample {
        delivered_pkts: delivered,
        delivered_ce_pkts: delivered_ce,
        ..AckSample::default()
    }
}

/// `bbr_update_ecn_alpha`: eligible once the route allows ECN and the min
/// RTT is at most 5 ms; then each round `alpha = (240 · alpha >> 8) + (16
/// · ce_ratio >> 8)`, with `ce_ratio = delivered_ce · 256 / delivered`.
#[test]
fn ecn_alpha_moves_a_sixteenth_toward_each_rounds_ce_fraction() {
    let mut cc = Bbr3::linux();
    cc.ecn_enabled = true;
    cc.min_rtt_ns = 6_000_000;
    cc.update_ecn_alpha(&round_end(100, 50));
    assert!(!cc.ecn_eligible, "6 ms is beyond bbr_ecn_max_rtt_us");
    assert_eq!(cc.ecn_alpha, 256);
    cc.min_rtt_ns = 1_000_000;
    cc.update_ecn_alpha(&round_end(100, 50));
    assert!(cc.ecn_eligible);
    assert_eq!(cc.ecn_alpha, 240 + 8, "half marked");
    cc.update_ecn_alpha(&round_end(200, 50));
    assert_eq!(cc.ecn_alpha, (240 * 248) >> 8, "none marked");
    let mut off = Bbr3::linux();
    off.min_rtt_ns = 1_000_000;
    off.update_ecn_alpha(&round_end(100, 100));
    assert!(!off.ecn_eligible, "the route does not allow ECN");
}

/// `bbr_is_inflight_too_high`'s ECN half: `delivered_ce > delivered ·
/// 128 >> 8`, on an eligible flow only.
#[test]
fn more_than_half_the_sample_marked_is_too_high() {
    let mut cc = Bbr3::linux();
    let sample = |ce| AckSample {
        delivered_pkts: 1_100,
        prior_delivered_pkts: 1_000,
        tx_delivered_ce_pkts: ce,
        ..AckSample::default()
    };
    assert!(!cc.is_inflight_too_high(&sample(80)), "not eligible");
    cc.ecn_eligible = true;
    assert!(!cc.is_inflight_too_high(&sample(50)));
    assert!(cc.is_inflight_too_high(&sample(51)));
}

/// `bbr_adapt_lower_bounds` with `bbr_ecn_lower_bounds`: outside a probe
/// a marked round caps `inflight_lo` (cwnd if unset) at `inflight_lo ·
/// (256 − alpha · 85 >> 8) >> 8`, and leaves `bw_lo` alone.
#[test]
fn a_marked_round_cuts_inflight_lo_by_alpha_over_three() {
    let (mut cc, mut w) = started();
    cc.mode = Mode::ProbeBw;
    cc.phase = Phase::Cruise;
    w.cwnd_pkts = 200;
    cc.ecn_eligible = true;
    cc.ecn_in_round = true;
    cc.adapt_lower_bounds(&w);
    assert_eq!(cc.inflight_lo(), Some((200 * 171) >> 8));
    assert!(cc.bw_lo.is_infinite());
    cc.inflight_lo = 200;
    cc.ecn_alpha = 128;
    cc.adapt_lower_bounds(&w);
    assert_eq!(cc.inflight_lo(), Some((200 * (256 - 42)) >> 8));
    // Probing: no cut.
    cc.phase = Phase::Up;
    cc.inflight_lo = 200;
    cc.adapt_lower_bounds(&w);
    assert_eq!(cc.inflight_lo(), Some(200));
}

/// `bbr_check_ecn_too_high_in_startup`: two rounds in a row with at least
/// half the packets marked end STARTUP (`bbr_handle_queue_too_high_in_startup`).
#[test]
fn two_marked_rounds_end_startup() {
    let mut cc = Bbr3::linux();
    cc.ecn_enabled = true;
    cc.min_rtt_ns = 1_000_000;
    cc.update_ecn_alpha(&round_end(100, 60));
    cc.update_ecn_alpha(&round_end(200, 100));
    assert!(
        !cc.full_bw_reached,
        "the second round had 40 %: count restarts"
    );
    cc.update_ecn_alpha(&round_end(300, 150));
    assert!(!cc.full_bw_reached);
    cc.update_ecn_alpha(&round_end(400, 200));
    assert!(cc.full_bw_reached);
    assert!(cc.inflight_hi().is_some());
}

/// `bbr_check_time_to_probe_bw`'s ECN re-probe: marks and no loss this
/// cycle, in Open: REFILL at once with `bw_probe_up_rounds` =
/// ⌊log2(inflight_hi · 128 >> 8)⌋; not after a loss or outside Open.
#[test]
fn marks_without_loss_bring_the_next_probe_at_once() {
    let mut cc = Bbr3::linux();
    cc.ecn_eligible = true;
    cc.ecn_in_cycle = true;
    cc.inflight_hi = 200;
    assert_eq!(cc.ecn_reprobe_rounds(), Some(6), "log2(100)");
    cc.ca_state = CaState::Cwr;
    assert_eq!(cc.ecn_reprobe_rounds(), None);
    cc.ca_state = CaState::Open;
    cc.loss_in_cycle = true;
    assert_eq!(cc.ecn_reprobe_rounds(), None);
}
