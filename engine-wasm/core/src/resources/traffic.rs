//! Expected traffic of a run, before it runs: data packets, ACKs, drops
//! and congestion episodes per flow, from rates, windows, loss and
//! duration.
//!
//! A deliberately coarse model, for sizing and run-time estimates: each
//! flow sends at the least of its window per RTT (the receiver's window),
//! the random-loss throughput of Padhye et al. (SIGCOMM 1998, eq. 31) and
//! its share of the NIC and the bottleneck, after a slow-start ramp
//! (RFC 5681 §3.1) that ends where the queue overflows (Lakshman & Madhow
//! 1997; the loss is seen a round trip later, so ssthresh is half of g
//! times that window), or at once with ssthresh 2 when the round trip
//! outlasts the initial RTO (RFC 6298 §5), then Reno's sawtooth. Drops:
//! random loss, slow start's overshoot (RFC 3742) and the first windows'
//! burst. Not modelled: losses that hit only some of many flows (drop-tail
//! with thousands of flows is not synchronised, so runs move up to about
//! twice what the model says), growth specific
//! to CUBIC, HighSpeed or Scalable, RED's equilibrium (its marks), and the
//! drops of bursts into 1–2-packet buffers after the first window.

use crate::net::ETHERNET_OVERHEAD_BYTES;
use crate::profile::{self, CwndCounting};
use crate::scenario::{Aqm, Scenario};
use crate::tcp::{DELACK_NS, DUP_THRESH, RTO_MIN_NS};

/// What one flow is expected to do over its active time.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FlowTraffic {
    /// Data packets sent (first transmissions and retransmissions).
    pub data_pkts: f64,
    pub ack_pkts: f64,
    /// Packets lost at random (`loss_rate`).
    pub random_drops: f64,
    /// Packets dropped as slow start overshoots the queue.
    pub overshoot_drops: f64,
    /// Packets of the first window dropped as every flow starting at once
    /// sends it into the bottleneck together.
    pub burst_drops: f64,
    /// Loss episodes (fast recovery or timeout) caused by random loss.
    pub random_loss_episodes: f64,
    /// Window reductions because the link or the NIC is full: one at the
    /// end of slow start, then one per additive-increase cycle.
    pub congestion_episodes: f64,
    /// The NIC rather than the bottleneck limits the flow, so its episodes
    /// are local congestion (CWR), not losses.
    pub host_limited: bool,
    /// The algorithm paces its packets (one timer event each).
    pub paced: bool,
    pub active_s: f64,
}

/// A positive finite number, or 0 (an unvalidated scenario must not give
/// NaN or infinite estimates).
fn sane(x: f64) -> f64 {
    if x.is_finite() && x > 0.0 {
        x
    } else {
        0.0
    }
}

/// Padhye, Firoiu, Towsley & Kurose, "Modeling TCP throughput" (SIGCOMM
/// 1998), eq. (31): packets per second of a bulk Reno flow with loss
/// probability `p`, round-trip time `rtt_s`, `b` packets per ACK and
/// timeout `t0_s`.
pub fn padhye_pps(p: f64, rtt_s: f64, b: f64, t0_s: f64) -> f64 {
    if p <= 0.0 {
        return f64::INFINITY;
    }
    let fast = rtt_s * (2.0 * b * p / 3.0).sqrt();
    let timeouts = t0_s * (3.0 * (3.0 * b * p / 8.0).sqrt()).min(1.0) * p * (1.0 + 32.0 * p * p);
    1.0 / (fast + timeouts)
}

/// A window's course over a run (Reno's, RFC 5681 §3.1): from `w0` it grows
/// by the factor `g` per round trip up to `ss_end` (slow start), restarts
/// from `ca_start` and grows by `a` packets per round trip up to `w`
/// (congestion avoidance), then stays.
#[derive(Clone, Copy, Debug)]
struct Ramp {
    w0: f64,
    g: f64,
    ss_end: f64,
    ca_start: f64,
    a: f64,
    w: f64,
}

impl Ramp {
    fn slow_start_rounds(&self) -> f64 {
        (self.ss_end / self.w0).ln().max(0.0) / self.g.ln()
    }

    /// Packets sent in `rounds` round trips.
    fn packets(&self, rounds: f64) -> f64 {
        let ss_rounds = self.slow_start_rounds();
        if rounds <= ss_rounds {
            return self.w0 * (self.g.powf(rounds) - 1.0) / (self.g - 1.0);
        }
        let mut packets = (self.ss_end - self.w0).max(0.0) / (self.g - 1.0);
        let (from, to) = (self.ca_start.min(self.w), self.w);
        let ca_rounds = (to - from) / self.a;
        let left = rounds - ss_rounds;
        if left <= ca_rounds {
            packets += left * from + self.a * left * left / 2.0;
        } else {
            packets += (from + to) / 2.0 * ca_rounds + to * (left - ca_rounds);
        }
        packets
    }
}

/// Random loss below which BBR keeps its rate (Linux BBR patch series,
/// net-next 2016: "if the packet loss rate is below 15% then BBR is able
/// to fully utilize the path").
const BBR_LOSS_TOLERANCE: f64 = 0.15;

/// One flow as the model sees it before sharing the links.
struct Shape {
    rtt_s: f64,
    demand_pps: f64,
    host_pps: f64,
    host: usize,
    t0_s: f64,
    /// The flow's share of its host's interface queue.
    ifq_share_pkts: f64,
    /// Packets sent at once at the start (its first window, as far as
    /// its interface queue takes it).
    first_window: f64,
    starts_at_zero: bool,
    active_s: f64,
    paced: bool,
    /// Neither the window nor the rate answers to loss (BBR): slow start
    /// runs to the target, no sawtooth.
    loss_blind: bool,
    /// Slow start's queue builds at the bottleneck (the flow's even share
    /// of it is narrower than its share of its own NIC), not at the
    /// interface queue.
    ss_at_bottleneck: bool,
    /// The round trip outlasts the initial retransmission timeout, so the
    /// first window times out before its ACKs return.
    first_rto_spurious: bool,
}

/// The fraction of the first windows lost when every flow that starts at
/// time zero sends its first window at once: a fluid queue fed by the NICs
/// (each host's burst arrives at its NIC's rate) and drained at the
/// bottleneck's, holding `buffer_pkts`.
fn first_burst_loss(shapes: &[Shape], hosts: usize, bottleneck_pps: f64, buffer_pkts: f64) -> f64 {
    let mut per_host = vec![(0.0, 0.0); hosts];
    for sh in shapes.iter().filter(|sh| sh.starts_at_zero) {
        per_host[sh.host].0 += sh.first_window;
        per_host[sh.host].1 = sh.host_pps;
    }
    let arriving: f64 = per_host.iter().map(|h| h.0).sum();
    let arrival_s = per_host
        .iter()
        .map(|&(pkts, pps)| pkts / pps.max(f64::MIN_POSITIVE))
        .fold(0.0, f64::max);
    let lost = arriving - buffer_pkts - bottleneck_pps * arrival_s;
    if arriving > 0.0 && lost > 0.0 {
        lost / arriving
    } else {
        0.0
    }
}

/// The expected traffic of every flow, in scenario order.
pub fn flows(s: &Scenario) -> Vec<FlowTraffic> {
    let mech = s.resolved_mechanisms();
    let mss_bytes = s.mtu_bytes.saturating_sub(52).max(1);
    let wire_bits = (s.mtu_bytes as f64 + ETHERNET_OVERHEAD_BYTES as f64) * 8.0;
    // A trace-driven link at its mean rate (Scenario::bottleneck_rate_bps).
    let bottleneck_bps = sane(s.bottleneck_rate_bps());
    let bottleneck_pps = bottleneck_bps / wire_bits;
    let duration_s = sane(s.duration_ms) / 1e3;
    let p = sane(s.loss_rate).min(1.0);
    let delayed_ack = s.tcp.delayed_ack;
    // RFC 5681 §3.1: slow start adds one MSS per ACK; an ACK per two
    // segments halves that unless every acked packet counts (RFC 3465).
    let per_ack = mech.cwnd_counting == CwndCounting::PerAck && delayed_ack;
    let g = if per_ack { 1.5 } else { 2.0 };
    let a = if per_ack { 0.5 } else { 1.0 };
    let packets_per_ack = if delayed_ack { 2.0 } else { 1.0 };
    let w0 = s.tcp.initial_cwnd_pkts.max(1) as f64;
    let ssthresh = s
        .tcp
        .initial_ssthresh_pkts
        .map_or(f64::INFINITY, |x| x as f64);
    let flow_count = s.flow_count().max(1) as f64;
    let buffer_pkts = s.bottleneck.buffer_pkts as f64;
    let initial_rto_s = mech.initial_rto_ms / 1e3;
    // RED and the delay-based AQMs signal early, with a drop or mark now
    // and then, not a full queue.
    let red = !matches!(s.bottleneck.aqm, Aqm::DropTail {});

    // Each flow's demand, then its share of its NIC and of the bottleneck.
    let mut shapes = Vec::new();
    for (h, host) in s.hosts.iter().enumerate() {
        let mut host_bps = sane(host.nic_bps);
        if mech.host_send_limit_bps > 0.0 {
            host_bps = host_bps.min(mech.host_send_limit_bps);
        }
        let host_pps = host_bps / wire_bits;
        for flow in &host.flows {
            let start_s = sane(flow.start_ms) / 1e3;
            let stop_s = flow.stop_ms.map_or(duration_s, |x| sane(x) / 1e3);
            let active_s = (stop_s.min(duration_s) - start_s).max(0.0);
            let serialisation_s = if host_bps > 0.0 && bottleneck_bps > 0.0 {
                wire_bits / host_bps + wire_bits / bottleneck_bps
            } else {
                0.0
            };
            let rtt_s = (sane(s.rtt_ms) + sane(flow.extra_delay_ms)) / 1e3 + serialisation_s;
            let rwnd_pkts =
                (profile::advertised_window_bytes(flow.window_bytes, mss_bytes, s.mtu_bytes, &mech)
                    / mss_bytes as u64)
                    .max(2) as f64;
            // The driver's ring sits behind the interface queue (sim/setup.rs).
            let ifq_share_pkts = (host.txqueuelen_pkts as f64 + mech.nic_ring_pkts as f64)
                / host.flows.len().max(1) as f64;
            // Linux's RTO: the smoothed RTT plus at least its 200 ms floor.
            let t0_s = rtt_s + RTO_MIN_NS as f64 / 1e9;
            let (paced, ignores_loss) = paces_and_ignores_loss(&flow.algorithm);
            let mut demand_pps = rwnd_pkts / rtt_s.max(f64::MIN_POSITIVE);
            // An algorithm that ignores loss (BBR) keeps the path full below
            // 15 % random loss (the Linux BBR patch series, net-next 2016),
            // unless its window (2 × its share of the pipe) is too small for
            // three duplicate ACKs and losses wait for a timeout (RFC 5681
            // §3.2).
            let share_pps = (bottleneck_pps / flow_count).min(host_pps);
            let tiny_window = 2.0 * share_pps * rtt_s < 2.0 * (DUP_THRESH as f64 + 1.0);
            let loss_blind = ignores_loss && !tiny_window && p < BBR_LOSS_TOLERANCE;
            if !loss_blind {
                demand_pps = demand_pps.min(padhye_pps(p, rtt_s, packets_per_ack, t0_s));
            }
            shapes.push(Shape {
                rtt_s,
                demand_pps,
                host_pps,
                host: h,
                t0_s,
                ifq_share_pkts,
                first_window: if active_s > 0.0 {
                    w0.min(rwnd_pkts).min(ifq_share_pkts.max(1.0))
                } else {
                    0.0
                },
                starts_at_zero: start_s == 0.0,
                active_s,
                paced,
                loss_blind,
                // Slow start sends g packets per ACK and its ACKs come back
                // at the pace of the narrowest hop, so the queue in front of
                // that hop takes the excess (Lakshman & Madhow 1997, §III).
                ss_at_bottleneck: bottleneck_pps / flow_count
                    < host_pps / host.flows.len().max(1) as f64,
                first_rto_spurious: initial_rto_s > 0.0 && rtt_s >= initial_rto_s,
            });
        }
    }
    let mut host_demand = vec![0.0; s.hosts.len()];
    for sh in &shapes {
        host_demand[sh.host] += sh.demand_pps;
    }
    let host_scale: Vec<f64> = shapes
        .iter()
        .map(|sh| (sh.host_pps / host_demand[sh.host].max(f64::MIN_POSITIVE)).min(1.0))
        .collect();
    let offered: f64 = shapes
        .iter()
        .zip(&host_scale)
        .map(|(sh, k)| sh.demand_pps * k)
        .sum();
    let link_scale = (bottleneck_pps / offered.max(f64::MIN_POSITIVE)).min(1.0);
    let burst_loss = first_burst_loss(&shapes, s.hosts.len(), bottleneck_pps, buffer_pkts);

    shapes
        .iter()
        .zip(&host_scale)
        .map(|(sh, &k_host)| {
            let rate_pps = sh.demand_pps * k_host * link_scale;
            let limited = k_host < 1.0 || link_scale < 1.0;
            let w = rate_pps * sh.rtt_s;
            // Where the flow's queue builds: at the bottleneck, or at its own
            // interface queue when the NIC is the tighter limit.
            // The bottleneck binds whenever it still cuts the rates the
            // NICs let through.
            let bottleneck_limited = link_scale < 1.0;
            let queue_share = if bottleneck_limited {
                buffer_pkts / flow_count
            } else {
                sh.ifq_share_pkts
            };
            // A limited flow's window also fills its share of the queue
            // before it is cut.
            let w_peak = if limited { w + queue_share } else { w };
            // Slow start ends when that is full, or earlier when the queue
            // is small: each ACK releases g packets for one drained, so the
            // queue holds (g − 1)/g of the window and overflows at
            // g/(g − 1) × queue (Lakshman & Madhow, IEEE/ACM ToN 1997, §III).
            // Slow start's bursts overflow the bottleneck's queue early
            // (L&M's model: a fast access link into the bottleneck), even
            // for a flow the path could carry whole (its window the limit),
            // once its share of the buffer is less than (g − 1)/g of its
            // window. A window-limited flow whose narrowest hop is its own
            // NIC feeds that queue only at the pace its ACKs return and
            // does not overflow it.
            let ss_queue = if limited {
                Some(queue_share)
            } else if sh.ss_at_bottleneck {
                Some(buffer_pkts / flow_count)
            } else {
                None
            };
            let overflow_at = match ss_queue {
                Some(q) if !sh.loss_blind => w_peak.min(q * g / (g - 1.0)).max(w0),
                _ => w_peak,
            };
            let mut ss_end = overflow_at.min(ssthresh).max(w0);
            let ends_in_loss =
                (limited || ss_end < w) && !sh.loss_blind && ss_end >= overflow_at && ss_end > w0;
            // The loss is seen a round trip after the queue overflowed, when
            // the window has grown g-fold (RFC 3742 §1): ssthresh is half
            // of that (RFC 5681 eq. 4).
            let mut ca_start = if ends_in_loss {
                (g * ss_end / 2.0).min(w)
            } else {
                ss_end
            };
            // RFC 6298 §5: a round trip longer than the initial RTO times the
            // first window out before its ACKs return: ssthresh falls to
            // max(FlightSize / 2, 2) and the flow grows only additively.
            if sh.first_rto_spurious && !sh.loss_blind {
                ss_end = w0;
                ca_start = (w0 / 2.0).max(2.0).min(w.max(w0));
            }
            let ramp = Ramp {
                w0,
                g,
                ss_end,
                ca_start,
                a,
                w,
            };
            let rounds = sh.active_s / sh.rtt_s.max(f64::MIN_POSITIVE);
            // The first window leaves at once; after it, the rate bounds.
            let first_window = sh.first_window;
            let data_pkts = if w <= w0 {
                rate_pps * sh.active_s
            } else {
                ramp.packets(rounds)
            }
            .min(first_window + rate_pps * sh.active_s)
            .max(first_window);
            // Slow start ends only once it has sent its packets: with a
            // queue building, its round trips stretch to the link's pace.
            let ss_packets = (ss_end - w0).max(0.0) / (g - 1.0);
            let ss_s = (ramp.slow_start_rounds() * sh.rtt_s)
                .max(ss_packets / rate_pps.max(f64::MIN_POSITIVE));
            let ss_done = sh.active_s >= ss_s && data_pkts >= ss_packets;
            let ss_rounds = ramp.slow_start_rounds().min(rounds);
            // Once the queue holds part of the window, a round trip lasts as
            // long as the link takes to carry the window: on average ¾ of
            // the peak of Reno's sawtooth (Mathis et al., CCR 1997).
            let round_s = if limited && rate_pps > 0.0 {
                sh.rtt_s.max(0.75 * w_peak / rate_pps)
            } else {
                sh.rtt_s
            };
            let ca_rounds = if ss_done {
                (sh.active_s - ss_s).max(0.0) / round_s.max(f64::MIN_POSITIVE)
            } else {
                0.0
            };
            let all_rounds = ss_rounds + ca_rounds;
            // RFC 3742 §1: slow start can add (g − 1) × window in its last
            // round trip, all of it dropped once the queue is full.
            let overshoot_drops = if (bottleneck_limited || (!limited && sh.ss_at_bottleneck))
                && !red
                && ends_in_loss
                && ss_done
            {
                (g - 1.0) * ss_end
            } else {
                0.0
            };
            let per_round = data_pkts / all_rounds.max(1.0);
            let random_drops = data_pkts * p;
            let burst_drops = if sh.starts_at_zero {
                first_window * burst_loss
            } else {
                0.0
            };
            // Rounds with at least one loss: rounds × (1 − (1 − p)^per_round).
            let random_loss_episodes = if p > 0.0 {
                -(per_round * (-p).ln_1p()).exp_m1() * all_rounds.max(1.0)
            } else {
                0.0
            };
            // Reno's sawtooth: from w_peak/2 back to w_peak at a per round.
            // A window too small for three duplicate ACKs (RFC 5681 §3.2)
            // recovers only by timeout, so a cycle lasts at least an RTO.
            let congestion_episodes = if limited && !sh.loss_blind && p == 0.0 && rate_pps > 0.0 {
                let mut cycle_s = (w_peak / 2.0 / a).max(1.0) * round_s;
                if w_peak / 2.0 < DUP_THRESH as f64 + 1.0 {
                    cycle_s = cycle_s.max(sh.t0_s);
                }
                let ca_s = ca_rounds * round_s;
                (ends_in_loss && ss_done) as u8 as f64 + ca_s / cycle_s.max(f64::MIN_POSITIVE)
            } else {
                (ends_in_loss && ss_done) as u8 as f64
            } + (sh.first_rto_spurious && !sh.loss_blind) as u8 as f64;
            FlowTraffic {
                data_pkts,
                ack_pkts: data_pkts / packets_per_ack,
                random_drops,
                overshoot_drops,
                burst_drops,
                random_loss_episodes,
                congestion_episodes,
                host_limited: limited && !bottleneck_limited,
                paced: sh.paced,
                active_s: sh.active_s,
            }
        })
        .collect()
}

/// Whether the algorithm paces its packets, and whether it ignores loss
/// (BBR): properties of the algorithm, not of its parameters (built with
/// its defaults, so an estimate never pays for a parameter-sized setup).
fn paces_and_ignores_loss(algorithm: &str) -> (bool, bool) {
    crate::cc::build(algorithm, &Default::default()).map_or((false, false), |cc| {
        (cc.pacing_rate_bytes_per_s().is_some(), cc.ignores_loss())
    })
}

/// Delayed-ACK timer firings per second of an active flow: at most one
/// pending timer of 40 ms (RFC 1122 §4.2.3.2).
pub fn delack_timer_per_s() -> f64 {
    1e9 / DELACK_NS as f64
}
