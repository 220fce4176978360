//! The resource model of a run (issue 11): the bytes a run records, held to
//! one budget by validation, and the packets and engine events it is
//! expected to simulate, for run-time estimates. The same numbers in the
//! browser and natively.

pub mod browser;
pub mod traffic;

pub use browser::{
    browser_memory, browser_over_budget, BrowserMemory, BROWSER_BYTES_BUDGET, PAGE_AVERAGE_MS_MAX,
};

use crate::record::{RecordedEvent, FLOW_COLUMNS, MAX_STORED_EVENTS};
use crate::scenario::{Aqm, Scenario};
use crate::units::ms_to_ns;
use serde::Serialize;
use ts_rs::TS;

/// Recorded bytes (sampled columns and the event log) a valid scenario may
/// need: 256 MiB, in the browser and natively.
pub const RECORDED_BYTES_BUDGET: u64 = 256 * 1024 * 1024;

/// Engine memory for packets in flight a valid scenario may need: 1 GiB.
/// The browser's limit is the binding one: a WebAssembly memory of the
/// wasm32 target holds at most 4 GiB, and the page keeps the recorded data
/// (up to [`RECORDED_BYTES_BUDGET`]) and its copies beside it.
pub const IN_FLIGHT_BYTES_BUDGET: u64 = 1024 * 1024 * 1024;

/// Scoreboard entries a run may hold, in paths' worth of packets: what the
/// path holds, as much again lost when slow start overshoots (its last
/// round trip sends twice what the path holds, RFC 5681 §3.1), and what
/// recovery sends before the hole fills (no more than is delivered
/// meanwhile, RFC 6937 §3). The receivers' out-of-order sets hold a subset
/// of the same segments.
pub const SCOREBOARD_PATHS: u64 = 3;

/// Growable buffers (`VecDeque`, `Vec`) double when full, so one holds
/// less than twice the most it ever held.
pub const GROWTH_SLACK: u64 = 2;

/// Engine bytes per segment a sender has not had cumulatively
/// acknowledged: its scoreboard entry and, at worst, its place in the
/// receiver's out-of-order set.
pub const BYTES_PER_UNACKED_SEGMENT: u64 =
    crate::tcp::SCOREBOARD_ENTRY_BYTES + crate::tcp::OUT_OF_ORDER_ENTRY_BYTES;

/// Engine bytes per packet on the propagation paths: the data packet on
/// its way and, at worst, one ACK for it on the way back (every segment is
/// acknowledged at once during recovery, RFC 5681 §4.2).
pub const BYTES_PER_PACKET_ON_LINKS: u64 = (std::mem::size_of::<(u64, crate::net::Packet)>()
    + std::mem::size_of::<(u64, crate::net::Ack)>())
    as u64;

/// Engine bytes per frame waiting in a queue or a ring.
pub const BYTES_PER_QUEUED_FRAME: u64 = std::mem::size_of::<crate::net::Frame>() as u64;

/// Engine bytes per ACK waiting at a sender's NIC for its interrupt (with
/// the flow it is for).
pub const BYTES_PER_WAITING_ACK: u64 = std::mem::size_of::<(u32, crate::net::Ack)>() as u64;

const F64_BYTES: u64 = std::mem::size_of::<f64>() as u64;
const EVENT_BYTES: u64 = std::mem::size_of::<RecordedEvent>() as u64;

/// The event log never stores more than this (record.rs caps it).
pub const EVENT_LOG_BYTES_MAX: u64 = MAX_STORED_EVENTS as u64 * EVENT_BYTES;

/// What a run will record and roughly how much it will simulate.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
#[ts(export, export_to = "resources.ts")]
pub struct ResourceEstimate {
    /// Sample rows: one per `sample_interval_ms` and one at the end.
    #[ts(type = "number")]
    pub samples_per_flow: u64,
    /// Sampled columns: time, ten per flow, the bottleneck queue and its
    /// queueing delay, and each host's interface queue and driver ring.
    #[ts(type = "number")]
    pub columns: u64,
    /// samples × columns × 8 bytes (exact).
    #[ts(type = "number")]
    pub sample_bytes: u64,
    /// Congestion events expected in the log (at most its cap).
    #[ts(type = "number")]
    pub events: u64,
    #[ts(type = "number")]
    pub event_bytes: u64,
    /// The event log's cap: it never holds more than this.
    #[ts(type = "number")]
    pub event_bytes_max: u64,
    /// sample_bytes + probe_bytes + event_bytes: what the run is expected
    /// to record.
    #[ts(type = "number")]
    pub recorded_bytes: u64,
    /// sample_bytes + probe_bytes + event_bytes_max: what validation holds
    /// to the budget.
    #[ts(type = "number")]
    pub recorded_bytes_max: u64,
    #[ts(type = "number")]
    pub budget_bytes: u64,
    /// Latency probes the run sends (`Scenario::probe`; absent without
    /// one).
    #[serde(default, skip_serializing_if = "is_zero")]
    #[ts(type = "number")]
    pub probe_packets: u64,
    /// Bytes of the probes' round trips (16 each, exact if all return;
    /// absent without a probe).
    #[serde(default, skip_serializing_if = "is_zero")]
    #[ts(type = "number")]
    pub probe_bytes: u64,
    /// Data packets the senders are expected to transmit.
    #[ts(type = "number")]
    pub data_packets: u64,
    #[ts(type = "number")]
    pub ack_packets: u64,
    /// Discrete events the engine is expected to process (what its speed is
    /// measured in: `RawSimulation.processed_events`).
    #[ts(type = "number")]
    pub engine_events: u64,
    /// Data packets that can be in flight at once: every flow's window, but
    /// no more than the path holds ([`in_flight_packets_max`]).
    #[ts(type = "number")]
    pub in_flight_packets_max: u64,
    /// The most engine memory the packet stores can need: scoreboards,
    /// links and queues ([`packet_memory_max`]), held to
    /// [`IN_FLIGHT_BYTES_BUDGET`] by validation.
    #[ts(type = "number")]
    pub in_flight_bytes_max: u64,
    #[ts(type = "number")]
    pub in_flight_budget_bytes: u64,
    /// The copies of the recorded data and the engine's memory one run
    /// keeps in the browser at its peak ([`browser_memory`]).
    pub browser: BrowserMemory,
    /// `browser.total_bytes`, held to [`BROWSER_BYTES_BUDGET`] by the page
    /// before it runs (the CLI does not hold it: it keeps no such copies).
    #[ts(type = "number")]
    pub browser_bytes_max: u64,
    #[ts(type = "number")]
    pub browser_budget_bytes: u64,
    /// Why the page refuses the run, naming the field to change and the
    /// limit ([`browser_over_budget`]); null when it fits.
    pub browser_refusal: Option<crate::ValidationError>,
}

fn is_zero(x: &u64) -> bool {
    *x == 0
}

/// Sample rows a run records: `Simulation` samples every interval and at
/// the end, so ⌈duration / interval⌉ (at least one).
pub fn samples_per_flow(s: &Scenario) -> u64 {
    let end_ns = ms_to_ns(s.duration_ms);
    let interval_ns = ms_to_ns(s.sample_interval_ms).max(1);
    end_ns.div_ceil(interval_ns).max(1)
}

/// Latency probes a run sends: one every interval from time zero while
/// before the end (`sim/bottleneck.rs`, `send_probe`).
pub fn probes(s: &Scenario) -> u64 {
    match &s.probe {
        None => 0,
        Some(p) => {
            let interval_ns = ms_to_ns(p.interval_ms()).max(1);
            ms_to_ns(s.duration_ms).div_ceil(interval_ns)
        }
    }
}

/// Bytes of one probe's round trip (`record::ProbeSample`).
const PROBE_SAMPLE_BYTES: u64 = std::mem::size_of::<crate::record::ProbeSample>() as u64;

/// Engine events per probe: sent, leaves the bottleneck, echoed, back.
const EVENTS_PER_PROBE: f64 = 4.0;

/// Sampled columns (record.rs `Recorder::new`): time, the flows', the
/// bottleneck's occupancy and queueing delay, each host's interface queue
/// and driver ring, the probe's, a trace-driven link's capacity.
pub fn columns(s: &Scenario) -> u64 {
    3 + (s.flow_count() * FLOW_COLUMNS.len() + 2 * s.hosts.len()) as u64
        + s.probe.is_some() as u64
        + s.bottleneck.trace.is_some() as u64
}

/// Events one episode writes to the log, besides its drops or marks
/// (sim/endpoints.rs, tcp/sender.rs): entering Disorder, the fast retransmit,
/// entering Recovery and back to Open; or local congestion, entering CWR
/// and back to Open; or an ECN mark's CWR and Open.
const EVENTS_PER_LOSS_EPISODE: f64 = 4.0;
const EVENTS_PER_CWR_EPISODE: f64 = 3.0;

/// Estimate what `s` will record and simulate. Works on any scenario that
/// parses, valid or not (the app shows sizes beside validation errors).
pub fn estimate(s: &Scenario) -> ResourceEstimate {
    let samples = samples_per_flow(s);
    let columns = columns(s);
    let sample_bytes = samples.saturating_mul(columns).saturating_mul(F64_BYTES);
    let probe_packets = probes(s);
    let probe_bytes = probe_packets.saturating_mul(PROBE_SAMPLE_BYTES);
    let flows = traffic::flows(s);
    let ecn = s.bottleneck.aqm.marks_ecn();
    let events: f64 = flows
        .iter()
        .map(|f| {
            let congestion = if f.host_limited || ecn {
                EVENTS_PER_CWR_EPISODE
            } else {
                // One drop per flow per episode of the sawtooth.
                EVENTS_PER_LOSS_EPISODE + 1.0
            };
            f.random_drops
                + f.overshoot_drops
                + f.burst_drops
                + (f.burst_drops >= 1.0) as u8 as f64 * EVENTS_PER_LOSS_EPISODE
                + f.random_loss_episodes * EVENTS_PER_LOSS_EPISODE
                + f.congestion_episodes * congestion
        })
        .sum();
    let events = (events.round() as u64).min(MAX_STORED_EVENTS as u64);
    let event_bytes = events * EVENT_BYTES;
    let data: f64 = flows.iter().map(|f| f.data_pkts).sum();
    let acks: f64 = flows.iter().map(|f| f.ack_pkts).sum();
    let browser = browser_memory(s);
    ResourceEstimate {
        samples_per_flow: samples,
        columns,
        sample_bytes,
        events,
        event_bytes,
        event_bytes_max: EVENT_LOG_BYTES_MAX,
        recorded_bytes: sample_bytes
            .saturating_add(probe_bytes)
            .saturating_add(event_bytes),
        recorded_bytes_max: sample_bytes
            .saturating_add(probe_bytes)
            .saturating_add(EVENT_LOG_BYTES_MAX),
        budget_bytes: RECORDED_BYTES_BUDGET,
        probe_packets,
        probe_bytes,
        data_packets: data.round() as u64,
        ack_packets: acks.round() as u64,
        engine_events: engine_events(s, &flows, samples).round() as u64,
        in_flight_packets_max: in_flight_packets_max(s),
        in_flight_bytes_max: packet_memory_max(s),
        in_flight_budget_bytes: IN_FLIGHT_BYTES_BUDGET,
        browser_bytes_max: browser.total_bytes,
        browser,
        browser_budget_bytes: BROWSER_BYTES_BUDGET,
        browser_refusal: browser_over_budget(s),
    }
}

/// Payload bytes per segment, for a scenario that may not be valid yet.
fn mss_or_one(s: &Scenario) -> u64 {
    s.mtu_bytes
        .saturating_sub(crate::net::TCP_IP_HEADER_BYTES)
        .max(1) as u64
}

/// The data packets every flow's window allows in flight together.
fn window_packets(s: &Scenario) -> f64 {
    let mss = mss_or_one(s) as f64;
    s.hosts
        .iter()
        .flat_map(|h| &h.flows)
        .map(|f| (f.window_bytes as f64 / mss).ceil())
        .sum()
}

/// The data packets the path can hold at once: on the links for the
/// longest round trip at the fastest rate a packet meets (the bottleneck's
/// or a sender NIC's), and in the bottleneck's buffer and every host's
/// interface queue and transmit ring.
struct PathPackets {
    on_links: f64,
    queues: f64,
    /// ACKs waiting at the senders' NICs for their interrupts: the
    /// segments they acknowledge stay on the scoreboards meanwhile.
    acks_waiting: f64,
    /// Segments delivered past a hole while its lost retransmission waits
    /// for the timer: the least retransmission timeout (TCP_RTO_MIN, the
    /// floor of both RTO rules, RFC 6298 §2.4) and one timer tick, at the
    /// rate the path delivers. SACKed or duplicate-ACKed data keeps flowing
    /// meanwhile (RFC 6675 §5's pipe) and stays held until the hole fills.
    past_a_hole: f64,
}

impl PathPackets {
    fn of(s: &Scenario) -> PathPackets {
        let wire_bits = (s.mtu_bytes as f64 + crate::net::ETHERNET_OVERHEAD_BYTES as f64) * 8.0;
        let mech = s.resolved_mechanisms();
        let fastest_bps = s
            .hosts
            .iter()
            .map(|h| h.nic_bps)
            .fold(s.bottleneck_rate_bps(), f64::max);
        let longest_s = (s.rtt_ms
            + s.hosts
                .iter()
                .flat_map(|h| &h.flows)
                .map(|f| f.extra_delay_ms)
                .fold(0.0, f64::max))
            / 1e3
            + round_trip_granularity_s(s);
        let ring = mech.nic_ring_pkts.max(mech.nic_ring_descriptors) as f64;
        let hosts: f64 = s
            .hosts
            .iter()
            .map(|h| h.txqueuelen_pkts as f64 + ring)
            .sum();
        // Segments waiting at the receiver's NIC for its interrupt: what
        // the bottleneck delivers in one delay and one throttle interval.
        let receiver_wait_s =
            (mech.receiver_interrupt_us + mech.receiver_interrupt_throttle_us).max(0.0) / 1e6;
        let receiver = if receiver_wait_s > 0.0 {
            sane_div(s.bottleneck_rate_bps(), wire_bits) * receiver_wait_s + 1.0
        } else {
            0.0
        };
        // What the path delivers: no faster than the bottleneck or the
        // senders' NICs.
        let senders_bps: f64 = s.hosts.iter().map(|h| h.nic_bps).sum();
        let delivered_pps = sane_div(s.bottleneck_rate_bps().min(senders_bps), wire_bits);
        // ACKs waiting at the senders' NICs for their interrupts (the
        // receive delay, then the throttle): at most one per segment the
        // path delivers meanwhile, plus a receiver's whole batch and one
        // per host.
        let sender_wait_s =
            (mech.interrupt_interval_us + mech.interrupt_throttle_us).max(0.0) / 1e6;
        let acks_waiting = if sender_wait_s > 0.0 {
            delivered_pps * sender_wait_s + receiver + s.hosts.len() as f64
        } else {
            0.0
        };
        let tick_s = if mech.timer_hz > 0 {
            1.0 / mech.timer_hz as f64
        } else {
            0.0
        };
        let rto_floor_s = crate::tcp::RTO_MIN_NS as f64 / 1e9 + tick_s;
        PathPackets {
            on_links: sane_div(fastest_bps, wire_bits) * longest_s,
            queues: s.bottleneck.buffer_pkts as f64 + hosts + receiver,
            acks_waiting,
            past_a_hole: delivered_pps * rto_floor_s,
        }
    }

    /// Data packets the path holds: on its links and in its queues.
    fn total(&self) -> f64 {
        self.on_links + self.queues
    }

    /// Segments a sender may hold unacknowledged per path: those the path
    /// holds and those whose ACKs wait for the sender's interrupt.
    fn unacknowledged(&self) -> f64 {
        self.total() + self.acks_waiting
    }
}

/// Data packets that can be in flight at once: the windows, capped by the
/// path (a window larger than the path holds is never filled).
pub fn in_flight_packets_max(s: &Scenario) -> u64 {
    let n = window_packets(s).min(PathPackets::of(s).total());
    if n.is_finite() && n > 0.0 {
        n.ceil() as u64
    } else {
        0
    }
}

/// The most heap bytes a run's packet stores can need
/// (`Simulation::packet_memory`): scoreboards and out-of-order sets for
/// [`SCOREBOARD_PATHS`] paths' worth of segments (a path's worth counting
/// the segments whose ACKs wait for a sender's interrupt) and what flows
/// past a hole while its retransmission waits for the timer, the links for
/// what they carry, the queues and rings for what they hold, the senders'
/// NICs for the ACKs waiting there, each no more than the windows allow,
/// and room for the buffers' doubling ([`GROWTH_SLACK`]).
pub fn packet_memory_max(s: &Scenario) -> u64 {
    let p = PathPackets::of(s);
    let windows = window_packets(s);
    let unacked = windows.min(SCOREBOARD_PATHS as f64 * p.unacknowledged() + p.past_a_hole);
    let on_links = windows.min(p.on_links);
    let queued = windows.min(p.queues);
    let acks_waiting = windows.min(p.acks_waiting);
    let bytes = unacked * BYTES_PER_UNACKED_SEGMENT as f64
        + on_links * BYTES_PER_PACKET_ON_LINKS as f64
        + queued * BYTES_PER_QUEUED_FRAME as f64
        + acks_waiting * BYTES_PER_WAITING_ACK as f64;
    let grown = if bytes.is_finite() && bytes > 0.0 {
        (bytes.ceil() as u64).saturating_mul(GROWTH_SLACK)
    } else {
        0
    };
    grown
        .saturating_add(preallocated_queue_bytes(s))
        .saturating_add(probe_link_bytes(s))
}

/// How much longer a round trip can be than its delays: each direction's
/// delay line rounds its exit up to the timer granularity
/// (`delay_granularity_us`, `net::DelayLine::with_granularity`).
fn round_trip_granularity_s(s: &Scenario) -> f64 {
    2.0 * s.resolved_mechanisms().delay_granularity_us.max(0.0) / 1e6
}

/// The latency probe's packets on their links: one per interval over a
/// round trip (queueing included, at most the bottleneck's buffer),
/// counted in both directions, with room for the buffers' doubling.
fn probe_link_bytes(s: &Scenario) -> u64 {
    let Some(p) = &s.probe else { return 0 };
    let wire_bits = (s.mtu_bytes as f64 + crate::net::ETHERNET_OVERHEAD_BYTES as f64) * 8.0;
    let queue_s = sane_div(
        s.bottleneck.buffer_pkts as f64 * wire_bits,
        s.bottleneck_rate_bps(),
    );
    let round_trip_s = s.rtt_ms / 1e3 + queue_s + round_trip_granularity_s(s);
    let in_flight =
        (sane_div(round_trip_s, p.interval_ms() / 1e3).ceil() as u64 + 1).min(probes(s));
    in_flight
        .saturating_mul(2 * std::mem::size_of::<(u64, crate::net::Packet)>() as u64)
        .saturating_mul(GROWTH_SLACK)
}

/// What the queues reserve when they are made, whatever the windows: each
/// host's interface queue and the bottleneck's FIFO (FQ-CoDel's flow
/// queues start empty), [`crate::net::preallocated_frames`] each.
fn preallocated_queue_bytes(s: &Scenario) -> u64 {
    use crate::net::preallocated_frames;
    let hosts: usize = s
        .hosts
        .iter()
        .map(|h| preallocated_frames(h.txqueuelen_pkts as usize))
        .sum();
    let bottleneck = match s.bottleneck.aqm {
        Aqm::FqCodel { .. } => 0,
        _ => preallocated_frames(s.bottleneck.buffer_pkts as usize),
    };
    (hosts + bottleneck) as u64 * BYTES_PER_QUEUED_FRAME
}

/// Engine bytes per packet a window lets into flight, at most: every
/// store counts it (what the largest window that fits is found from).
const BYTES_PER_WINDOW_PACKET_MAX: u64 = GROWTH_SLACK
    * (SCOREBOARD_PATHS * BYTES_PER_UNACKED_SEGMENT
        + BYTES_PER_PACKET_ON_LINKS
        + BYTES_PER_QUEUED_FRAME);

/// Why the packets a scenario can hold in flight exceed the engine's
/// memory budget, naming what to change; `None` when they fit.
pub fn in_flight_over_budget_message(s: &Scenario) -> Option<String> {
    let need = packet_memory_max(s);
    if need <= IN_FLIGHT_BYTES_BUDGET {
        return None;
    }
    let packets = in_flight_packets_max(s);
    let flows = s.flow_count().max(1) as u64;
    // Windows this small fit whatever the path: every packet they let
    // into flight counted in every store.
    let fits = IN_FLIGHT_BYTES_BUDGET / BYTES_PER_WINDOW_PACKET_MAX;
    let window_max = (fits / flows).saturating_mul(mss_or_one(s));
    Some(format!(
        "lets {} packets be in flight at once ({} flow{} × their windows, capped by the path: its \
         bandwidth-delay product and buffers), whose scoreboards, links and queues need up to {} \
         of engine memory (limit {}); use windows of at most {} per flow, a shorter rtt_ms, a \
         slower link or fewer flows",
        group_thousands(packets as f64),
        flows,
        if flows == 1 { "" } else { "s" },
        bytes(need),
        bytes(IN_FLIGHT_BYTES_BUDGET),
        bytes_floor(window_max),
    ))
}

/// Engine events per packet and timer, from sim/mod.rs (dispatch): a data
/// packet finishes at its NIC and at the bottleneck and arrives at the
/// receiver (3), an ACK arrives (1), a paced packet waits for its pacing
/// timer (1); each active flow's delayed-ACK timer fires at most every
/// 40 ms; each host's receive interrupt at most once per interval.
fn engine_events(s: &Scenario, flows: &[traffic::FlowTraffic], samples: u64) -> f64 {
    let mut n = samples as f64 + EVENTS_PER_PROBE * probes(s) as f64;
    for f in flows {
        n += 3.0 * f.data_pkts + f.ack_pkts + 2.0;
        if f.paced {
            n += f.data_pkts;
        }
        if s.tcp.delayed_ack {
            // The timer is armed only by a segment that leaves an ACK
            // pending (every other one, RFC 1122 §4.2.3.2).
            n += (f.active_s * traffic::delack_timer_per_s()).min(f.ack_pkts);
        }
    }
    let interrupt_us = s.resolved_mechanisms().interrupt_interval_us;
    if interrupt_us > 0.0 {
        let per_host = sane_div(s.duration_ms / 1e3, interrupt_us / 1e6);
        let mut i = 0;
        for host in &s.hosts {
            let acks: f64 = flows[i..i + host.flows.len()]
                .iter()
                .map(|f| f.ack_pkts)
                .sum();
            n += acks.min(per_host);
            i += host.flows.len();
        }
    }
    n
}

fn sane_div(a: f64, b: f64) -> f64 {
    let x = a / b;
    if x.is_finite() && x > 0.0 {
        x
    } else {
        0.0
    }
}

/// Why a scenario's recorded data exceed the budget, naming the fields that
/// drive it and what to change; `None` when it fits.
pub fn over_budget_message(s: &Scenario) -> Option<String> {
    let row_bytes = columns(s) * F64_BYTES;
    let sample_bytes = samples_per_flow(s).saturating_mul(row_bytes);
    let fixed_bytes =
        EVENT_LOG_BYTES_MAX.saturating_add(probes(s).saturating_mul(PROBE_SAMPLE_BYTES));
    if sample_bytes.saturating_add(fixed_bytes) <= RECORDED_BYTES_BUDGET {
        return None;
    }
    let rows_max = RECORDED_BYTES_BUDGET.saturating_sub(fixed_bytes) / row_bytes;
    let flows = s.flow_count();
    let hosts = if s.hosts.len() > 1 {
        format!(" on {} hosts", s.hosts.len())
    } else {
        String::new()
    };
    let mut advice = Vec::new();
    if let Some(ms) = min_interval_ms(s, rows_max) {
        advice.push(format!("use ≥ {} ms", group_thousands(ms)));
    }
    advice.push("fewer flows".to_string());
    advice.push("a shorter duration_ms".to_string());
    Some(format!(
        "{} ms samples × {} flow{}{hosts} × {} need {} of samples (limit {}); {}",
        group_thousands(s.sample_interval_ms),
        flows,
        if flows == 1 { "" } else { "s" },
        seconds(s.duration_ms),
        bytes(sample_bytes),
        bytes(RECORDED_BYTES_BUDGET),
        join_or(&advice)
    ))
}

/// The shortest whole-millisecond interval that records at most `rows_max`
/// rows, if the validator's limits allow one.
fn min_interval_ms(s: &Scenario, rows_max: u64) -> Option<f64> {
    if rows_max == 0 {
        return None;
    }
    let mut ms = (s.duration_ms / rows_max as f64).ceil().max(1.0);
    let mut probe = s.clone();
    loop {
        probe.sample_interval_ms = ms;
        if samples_per_flow(&probe) <= rows_max {
            break;
        }
        ms += 1.0;
    }
    (ms <= crate::scenario::limits::SAMPLE_INTERVAL_MS.1).then_some(ms)
}

fn join_or(parts: &[String]) -> String {
    match parts {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{}, or {last}", init.join(", ")),
    }
}

/// A number with thin groups of thousands ("1 000"), at most three decimals.
pub fn group_thousands(x: f64) -> String {
    let text = format!("{:.3}", x);
    let text = text.trim_end_matches('0').trim_end_matches('.');
    let (int, frac) = text.split_once('.').unwrap_or((text, ""));
    let (sign, digits) = int.strip_prefix('-').map_or(("", int), |d| ("-", d));
    let mut grouped = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            grouped.push(' ');
        }
        grouped.push(c);
    }
    if frac.is_empty() {
        format!("{sign}{grouped}")
    } else {
        format!("{sign}{grouped}.{frac}")
    }
}

fn seconds(ms: f64) -> String {
    if ms >= 1000.0 {
        format!("{} s", group_thousands((ms / 1e3 * 10.0).round() / 10.0))
    } else {
        format!("{} ms", group_thousands(ms))
    }
}

/// Bytes in binary units rounded down, for a limit not to pass: a
/// window of 3 953 040 bytes is "3.7 MiB", never "3.8 MiB".
pub fn bytes_floor(n: u64) -> String {
    const UNITS: [&str; 5] = ["bytes", "KiB", "MiB", "GiB", "TiB"];
    let mut unit = 0;
    let mut scale = 1u64;
    while n / scale >= 1024 && unit + 1 < UNITS.len() {
        scale *= 1024;
        unit += 1;
    }
    if unit == 0 {
        return format!("{n} bytes");
    }
    let tenths = n.saturating_mul(10) / scale;
    if tenths >= 1000 || tenths % 10 == 0 {
        format!("{} {}", tenths / 10, UNITS[unit])
    } else {
        format!("{}.{} {}", tenths / 10, tenths % 10, UNITS[unit])
    }
}

/// Bytes in binary units with two significant decimals at most: "4.3 GiB".
pub fn bytes(n: u64) -> String {
    const UNITS: [&str; 5] = ["bytes", "KiB", "MiB", "GiB", "TiB"];
    let mut x = n as f64;
    let mut unit = 0;
    while x >= 1024.0 && unit + 1 < UNITS.len() {
        x /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{n} bytes")
    } else if x >= 100.0 || x.fract() == 0.0 {
        format!("{x:.0} {}", UNITS[unit])
    } else {
        format!("{x:.1} {}", UNITS[unit])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{Flow, Host};

    /// The shared link of issue 11 that crashed the browser: one host, 64
    /// Reno flows, 1 Mb/s, 1 ms samples, 1000 s.
    fn one_host_64_flows_1000_s() -> Scenario {
        let mut s = Scenario::default_scenario();
        s.bottleneck.rate_bps = 1e6;
        s.sample_interval_ms = 1.0;
        s.duration_ms = 1_000_000.0;
        s.hosts[0].flows = vec![Flow::new("reno", 16 << 20); 64];
        s
    }

    /// The native abort of issue 11: 64 hosts × 64 flows, 1 ms samples.
    fn hosts_64_by_flows_64() -> Scenario {
        let mut s = Scenario::default_scenario();
        s.sample_interval_ms = 1.0;
        s.hosts = vec![
            Host {
                nic_bps: 1e9,
                txqueuelen_pkts: 100,
                flows: vec![Flow::new("reno", 16 << 20); 64],
            };
            64
        ];
        s
    }

    /// The sample interval a refusal suggests: the number in its "use ≥ …
    /// ms" (validation's budget error and the browser's refusal word it
    /// alike).
    pub(super) fn suggested_interval_ms(message: &str) -> f64 {
        let after = message.split("use ≥ ").nth(1);
        let number = after.and_then(|rest| rest.split(" ms").next());
        number
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no \"use ≥ … ms\" in {message:?}"))
    }

    fn budget_error(s: &Scenario) -> crate::ValidationError {
        let errors = s.validate();
        assert_eq!(errors.len(), 1, "{errors:?}");
        errors.into_iter().next().unwrap()
    }

    #[test]
    fn the_crashing_link_is_rejected_naming_the_fields_and_the_interval_that_fits() {
        let s = one_host_64_flows_1000_s();
        let e = budget_error(&s);
        assert_eq!(e.field, "sample_interval_ms");
        assert_eq!(
            e.message,
            "1 ms samples × 64 flows × 1 000 s need 4.8 GiB of samples (limit 256 MiB); \
             use ≥ 20 ms, fewer flows, or a shorter duration_ms"
        );
        let mut fixed = s.clone();
        fixed.sample_interval_ms = 20.0;
        assert!(fixed.validate().is_empty(), "{:?}", fixed.validate());
        fixed.sample_interval_ms = 19.0;
        assert!(
            !fixed.validate().is_empty(),
            "20 ms is the shortest that fits"
        );
    }

    #[test]
    fn sixty_four_hosts_of_sixty_four_flows_at_1_ms_are_rejected() {
        let s = hosts_64_by_flows_64();
        let e = budget_error(&s);
        assert_eq!(e.field, "sample_interval_ms");
        assert!(
            e.message.contains("4096 flows on 64 hosts × 20 s"),
            "{}",
            e.message
        );
        assert!(e.message.contains("duration_ms"), "{}", e.message);
        let suggested = suggested_interval_ms(&e.message);
        let mut fixed = s.clone();
        fixed.sample_interval_ms = suggested;
        assert!(fixed.validate().is_empty(), "{:?}", fixed.validate());
        assert!(estimate(&fixed).recorded_bytes_max <= RECORDED_BYTES_BUDGET);
    }

    #[test]
    fn a_scenario_within_the_budget_has_no_budget_error() {
        let s = Scenario::default_scenario();
        assert!(s.validate().is_empty());
        let e = estimate(&s);
        assert_eq!(e.samples_per_flow, 2000);
        assert_eq!(e.columns, 1 + 10 + 2 + 2);
        assert_eq!(e.sample_bytes, 2000 * 15 * 8);
        assert!(e.recorded_bytes_max < RECORDED_BYTES_BUDGET);
    }

    #[test]
    fn samples_count_the_end_of_a_run_that_is_not_a_whole_number_of_intervals() {
        let mut s = Scenario::default_scenario();
        s.duration_ms = 1005.0;
        s.sample_interval_ms = 10.0;
        assert_eq!(samples_per_flow(&s), 101);
        s.sample_interval_ms = 5000.0;
        assert_eq!(samples_per_flow(&s), 1);
    }

    #[test]
    fn an_unvalidated_scenario_gets_an_estimate_without_panicking() {
        let mut s = Scenario::default_scenario();
        s.mtu_bytes = 0;
        s.duration_ms = -5.0;
        s.rtt_ms = f64::NAN;
        s.bottleneck.rate_bps = 0.0;
        s.hosts[0].flows[0].algorithm = "warp".into();
        let e = estimate(&s);
        assert_eq!(e.samples_per_flow, 1);
        assert_eq!(e.data_packets, 0);
        s.hosts.clear();
        assert_eq!(estimate(&s).columns, 3);
    }

    #[test]
    fn more_rate_and_time_mean_more_packets() {
        let mut s = Scenario::default_scenario();
        let base = estimate(&s).data_packets;
        assert!(base > 0);
        s.duration_ms *= 2.0;
        assert!(estimate(&s).data_packets > base);
        s.loss_rate = 0.1;
        assert!(
            estimate(&s).data_packets < base,
            "random loss slows TCP down"
        );
    }

    #[test]
    fn sizes_read_as_a_person_would_write_them() {
        assert_eq!(bytes(512), "512 bytes");
        assert_eq!(bytes(RECORDED_BYTES_BUDGET), "256 MiB");
        assert_eq!(bytes(4_632_000_000), "4.3 GiB");
        assert_eq!(group_thousands(1_000.0), "1 000");
        assert_eq!(group_thousands(1_234_567.5), "1 234 567.5");
        assert_eq!(group_thousands(18.0), "18");
    }
}
