//! The discrete-event simulation: wires senders, interface queues, the
//! bottleneck, delay lines and receivers together. Events are ordered by
//! (time, sequence number); time is integer nanoseconds and never read from
//! a clock, so the same scenario and seed give the same trace bit for bit.
//!
//! One job per submodule: `event` (the events and timers), `setup`
//! (building the network from a scenario), `endpoints` (the TCP ends),
//! `hosts` (NICs and network interrupts), `bottleneck` (the switch and
//! the probe host's sends), `accounting` (conservation and memory
//! checks); this file holds the state and the event loop.

mod accounting;
mod bottleneck;
mod endpoints;
mod event;
mod hosts;
mod setup;

pub use accounting::{PacketAccounting, PacketMemory};

use crate::aqm::Bottleneck;
use crate::cc::{self, CaState};
use crate::event_queue::EventQueue;
use crate::net::{Ack, DelayLine, Packet};
use crate::nic::{HostInterrupt, Port, SkbLayout, TickClock};
pub use crate::record::ProbeSample;
use crate::record::Recorder;
use crate::rng::Rng;
use crate::scenario::Scenario;
use crate::summary::{summarise, FlowTotals, ProbeTotals, RunTotals, Summary};
use crate::tcp::{Receiver, Sender, SmallQueues};
use event::{Event, Timer};

/// One TCP connection and its two propagation paths.
struct FlowState {
    host: usize,
    algorithm: String,
    sender: Sender,
    receiver: Receiver,
    fwd: DelayLine<Packet>,
    rev: DelayLine<Ack>,
    start_ns: u64,
    stop_ns: u64,
    active: bool,
    rto: Timer,
    /// Resending the first unacknowledged segment restarts `rto` (the
    /// profile's `rto_restart`: Linux `tcp_xmit_retransmit_queue`).
    rto_on_head_retransmit: bool,
    delack: Timer,
    pace: Timer,
    /// The algorithm may pace (asked once: most never do).
    paces: bool,
    next_send_ns: u64,
    network_drops: u64,
    ecn_marks: u64,
    delivered_at_last_sample: u64,
    /// How many ring descriptors each of the flow's segments takes.
    skb: SkbLayout,
    /// TCP Small Queues (the profile's `small_queue_limit_bytes`).
    tsq: SmallQueues,
}

/// The latency probe host (`Scenario::probe`): it sends a probe every
/// interval from time zero (the first at 0, as ping sends its first at
/// once) straight into the bottleneck queue (its own link to the switch is
/// not modelled: one small packet per interval never queues there), then
/// the probe crosses the forward propagation delay, and its reply the
/// return delay, neither congested nor subject to `loss_rate` (which
/// models loss of data packets).
struct ProbeState {
    interval_ns: u64,
    ip_bytes: u32,
    fwd: DelayLine<Packet>,
    rev: DelayLine<Packet>,
    sent: u64,
    samples: Vec<ProbeSample>,
}

struct HostState {
    port: Port,
    /// The host's network interrupt, with the ACKs (and their flows)
    /// waiting for it in arrival order.
    irq: HostInterrupt<(u32, Ack)>,
    irq_timer: Timer,
    /// The host kernel's timer tick (RTO timers run on it).
    clock: TickClock,
    /// The tick an RTO timer of this host last expired at
    /// ([`TickClock::expiry_ns_near`]).
    rto_tick_ns: u64,
}

/// A running simulation. Create it from a validated scenario, then
/// [`advance`](Simulation::advance) in slices (for live charts) or
/// [`run_to_end`](Simulation::run_to_end).
pub struct Simulation {
    scenario: Scenario,
    now_ns: u64,
    end_ns: u64,
    sample_interval_ns: u64,
    wire_bytes: u32,
    events: EventQueue<Event>,
    rng: Rng,
    hosts: Vec<HostState>,
    bottleneck: Bottleneck,
    probe: Option<ProbeState>,
    flows: Vec<FlowState>,
    /// The receiving host's timer tick (delayed-ACK timers run on it).
    receiver_clock: TickClock,
    /// The tick a delayed-ACK timer last expired at
    /// ([`TickClock::expiry_ns_near`]).
    delack_tick_ns: u64,
    /// The receiving host's network interrupt, with the data segments
    /// (and their flows) waiting for it in arrival order.
    receiver_irq: HostInterrupt<(u32, Packet)>,
    receiver_irq_timer: Timer,
    recorder: Recorder,
    processed_events: u64,
    /// The profile runs TCP Small Queues: transmit completions may wake a
    /// socket (checked once per frame only then).
    small_queues: bool,
}

impl Simulation {
    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    pub fn now_ns(&self) -> u64 {
        self.now_ns
    }

    pub fn end_ns(&self) -> u64 {
        self.end_ns
    }

    pub fn is_finished(&self) -> bool {
        self.now_ns >= self.end_ns
    }

    pub fn flow_count(&self) -> usize {
        self.flows.len()
    }

    pub fn recorder(&self) -> &Recorder {
        &self.recorder
    }

    /// Bytes of samples, events and probe round trips recorded so far (the
    /// resource model's `recorded_bytes` predicts this at the end of the
    /// run).
    pub fn recorded_bytes(&self) -> u64 {
        self.recorder.recorded_bytes()
            + self.probe.as_ref().map_or(0, |p| {
                (p.samples.len() * std::mem::size_of::<ProbeSample>()) as u64
            })
    }

    /// Bytes the recorder and the probe hold allocated (columns and the
    /// probe's samples are reserved whole at the start).
    pub fn recorder_allocated_bytes(&self) -> u64 {
        self.recorder.allocated_bytes()
            + self.probe.as_ref().map_or(0, |p| {
                (p.samples.capacity() * std::mem::size_of::<ProbeSample>()) as u64
            })
    }

    /// Every probe that came back, in order of return (empty without a
    /// probe): when it was sent and its round-trip time.
    pub fn probe_samples(&self) -> &[ProbeSample] {
        self.probe.as_ref().map_or(&[], |p| &p.samples)
    }

    pub fn processed_events(&self) -> u64 {
        self.processed_events
    }

    /// A DualPI2 bottleneck's per-queue totals so far (`None` for the
    /// other disciplines).
    pub fn dualpi2_stats(&self) -> Option<crate::aqm::dualpi2::DualPi2Stats> {
        self.bottleneck.dualpi2_stats()
    }

    /// Flow `f`'s packets that left the bottleneck queue onto the link so
    /// far and their summed sojourn times (the labs' per-flow queueing
    /// delay).
    pub fn flow_queue_sojourn(&self, f: usize) -> crate::aqm::FlowSojourn {
        self.bottleneck.flow_sojourn(f)
    }

    /// Data packets that finished crossing the bottleneck.
    pub fn bottleneck_packets(&self) -> u64 {
        self.bottleneck.sent_pkts()
    }

    /// Simulate up to `until_ns` (capped at the end). Returns true when the
    /// whole duration has been simulated.
    pub fn advance(&mut self, until_ns: u64) -> bool {
        let until_ns = until_ns.min(self.end_ns);
        while let Some((t, event)) = self.events.pop_until(until_ns) {
            self.now_ns = t;
            self.processed_events += 1;
            self.dispatch(event);
        }
        self.now_ns = self.now_ns.max(until_ns);
        self.is_finished()
    }

    pub fn run_to_end(&mut self) -> Summary {
        self.advance(self.end_ns);
        self.summary()
    }

    pub fn summary(&self) -> Summary {
        let mut summary = summarise(&self.scenario, &self.run_totals(), &self.recorder);
        let flags = crate::flags::flag_run(&self.scenario, &summary, &self.recorder);
        summary.flags = (!flags.is_empty()).then_some(flags);
        summary
    }

    /// What the run has counted so far, for the summary.
    pub fn run_totals(&self) -> RunTotals {
        RunTotals {
            now_ns: self.now_ns,
            flows: self
                .flows
                .iter()
                .map(|f| FlowTotals {
                    host: f.host,
                    algorithm: f.algorithm.clone(),
                    start_ns: f.start_ns,
                    stop_ns: f.stop_ns,
                    delivered_segments: f.receiver.delivered_segments,
                    network_drops: f.network_drops,
                    ecn_marks: f.ecn_marks,
                    sender: f.sender.stats,
                })
                .collect(),
            bottleneck_drops: self.bottleneck.drops(),
            bottleneck_ecn_marks: self.bottleneck.ecn_marks(),
            bottleneck_sent_pkts: self.bottleneck.sent_pkts(),
            probe: self.probe.as_ref().map(|p| ProbeTotals {
                sent: p.sent,
                lost: self.bottleneck.probe_drops(),
                rtts_ns: p.samples.iter().map(|s| s.rtt_ns).collect(),
            }),
        }
    }

    fn dispatch(&mut self, event: Event) {
        let now = self.now_ns;
        match event {
            Event::HostTxDone(h) => self.host_tx_done(h as usize),
            Event::BottleneckTxDone => self.bottleneck_tx_done(),
            Event::DataArrives(f) => {
                let f = f as usize;
                while let Some(p) = self.flows[f].fwd.pop_due(now) {
                    self.data_reaches_receiver(f, p);
                }
                if let Some(t) = self.flows[f].fwd.next_exit_ns() {
                    self.events.push(t, Event::DataArrives(f as u32));
                }
            }
            Event::AckArrives(f) => {
                let f = f as usize;
                while let Some(a) = self.flows[f].rev.pop_due(now) {
                    self.ack_reaches_host(f, a);
                }
                if let Some(t) = self.flows[f].rev.next_exit_ns() {
                    self.events.push(t, Event::AckArrives(f as u32));
                }
            }
            Event::Rto(f) => {
                let (fire, again) = self.flows[f as usize].rto.on_fire(now);
                if let Some(t) = again {
                    self.events.push(t, Event::Rto(f));
                }
                if fire {
                    self.retransmission_timeout(f as usize);
                }
            }
            Event::DelayedAck(f) => {
                let flow = &mut self.flows[f as usize];
                let (fire, again) = flow.delack.on_fire(now);
                if let Some(t) = again {
                    self.events.push(t, Event::DelayedAck(f));
                }
                if fire {
                    if let Some(ack) = flow.receiver.on_delack_timer() {
                        self.send_ack(f as usize, ack);
                    }
                }
            }
            Event::Pace(f) => {
                let (fire, again) = self.flows[f as usize].pace.on_fire(now);
                if let Some(t) = again {
                    self.events.push(t, Event::Pace(f));
                }
                if fire {
                    self.try_send(f as usize);
                }
            }
            Event::Sample => {
                self.sample();
                if now < self.end_ns {
                    self.events.push(
                        (now + self.sample_interval_ns).min(self.end_ns),
                        Event::Sample,
                    );
                }
            }
            Event::HostInterrupt(h) => self.host_interrupt(h as usize),
            Event::ReceiverInterrupt => self.receiver_interrupt(),
            Event::FlowStart(f) => {
                self.flows[f as usize].active = true;
                self.try_send(f as usize);
            }
            Event::FlowStop(f) => {
                self.flows[f as usize].sender.finished = true;
            }
            Event::ProbeSend => self.send_probe(),
            Event::ProbeEcho => {
                let probe = self.probe.as_mut().expect("probe events need a probe");
                while let Some(p) = probe.fwd.pop_due(now) {
                    if let Some(t) = probe.rev.push(now, p) {
                        self.events.push(t, Event::ProbeReply);
                    }
                }
                if let Some(t) = probe.fwd.next_exit_ns() {
                    self.events.push(t, Event::ProbeEcho);
                }
            }
            Event::ProbeReply => {
                let probe = self.probe.as_mut().expect("probe events need a probe");
                while let Some(p) = probe.rev.pop_due(now) {
                    probe.samples.push(ProbeSample {
                        sent_ns: p.sent_ns,
                        rtt_ns: now - p.sent_ns,
                    });
                }
                if let Some(t) = probe.rev.next_exit_ns() {
                    self.events.push(t, Event::ProbeReply);
                }
            }
        }
    }

    fn sample(&mut self) {
        let now = self.now_ns;
        let interval_s = self.sample_interval_ns as f64 / 1e9;
        self.recorder.begin_row(now);
        for (f, flow) in self.flows.iter_mut().enumerate() {
            let s = &flow.sender;
            let delivered = flow.receiver.delivered_segments;
            let bits =
                (delivered - flow.delivered_at_last_sample) as f64 * s.mss_bytes as f64 * 8.0;
            flow.delivered_at_last_sample = delivered;
            let ssthresh = if s.window.ssthresh_pkts >= cc::INFINITE_SSTHRESH {
                f64::NAN
            } else {
                s.window.ssthresh_pkts as f64
            };
            let (avg, wavg) = s.outstanding_averages_bytes(now);
            // What tcpdump on the sender has seen: everything sent except
            // the flow's new segments still in the interface queue.
            let queued = self.hosts[flow.host].port.queued_new_segments(f as u32);
            let captured_out_pkts = s.packets_out().saturating_sub(queued);
            self.recorder.flow_values([
                s.window.cwnd_pkts as f64,
                s.window.cwnd_pkts as f64 * s.mss_bytes as f64,
                ssthresh,
                s.outstanding_bytes() as f64,
                avg,
                wavg,
                bits / interval_s,
                s.srtt_ns() as f64 / 1e6,
                if flow.active {
                    s.state as u8 as f64
                } else {
                    f64::NAN
                },
                captured_out_pkts as f64 * s.mss_bytes as f64,
            ]);
        }
        let delay_ms = self.bottleneck.sample_delay_ns() as f64 / 1e6;
        self.recorder.queue_values(
            self.bottleneck.occupancy_pkts() as f64,
            delay_ms,
            self.hosts
                .iter()
                .map(|h| h.port.interface_queue_pkts() as f64),
            self.hosts.iter().map(|h| h.port.ring_pkts() as f64),
            self.probe_samples()
                .last()
                .map_or(f64::NAN, |p| p.rtt_ns as f64 / 1e6),
        );
        if let Some(bps) = self.bottleneck.sample_capacity_bps(now, interval_s) {
            self.recorder.trace_capacity_value(bps);
        }
    }

    /// Is flow `f`'s sender in a congestion episode right now?
    pub fn flow_state(&self, f: usize) -> CaState {
        self.flows[f].sender.state
    }

    /// Distinct data segments flow `f`'s receiver has taken in so far
    /// (in order or held out of order).
    pub fn flow_distinct_segments(&self, f: usize) -> u64 {
        self.flows[f].receiver.distinct_segments()
    }

    /// The sender's current cwnd, for tests.
    pub fn flow_cwnd_pkts(&self, f: usize) -> u32 {
        self.flows[f].sender.window.cwnd_pkts
    }
}
