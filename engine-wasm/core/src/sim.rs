//! The discrete-event simulation: wires senders, interface queues, the
//! bottleneck, delay lines and receivers together. Events are ordered by
//! (time, sequence number); time is integer nanoseconds and never read from
//! a clock, so the same scenario and seed give the same trace bit for bit.

use crate::aqm::{Bottleneck, SignalKind};
use crate::cc::{self, CaState};
use crate::event_queue::{EventCode, EventQueue};
use crate::net::{
    Ack, DelayLine, Frame, Packet, ETHERNET_HEADER_BYTES, ETHERNET_OVERHEAD_BYTES, PROBE_FLOW,
};
use crate::nic::{HostInterrupt, Port, RingSize, SkbLayout, TickClock};
use crate::profile;
pub use crate::record::ProbeSample;
use crate::record::{EventKind, Recorder};
use crate::rng::Rng;
use crate::scenario::{Scenario, ValidationError};
use crate::summary::{summarise, FlowTotals, ProbeTotals, RunTotals, Summary};
use crate::tcp::{Receiver, Sender, SenderConfig};
use crate::units::ms_to_ns;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Event {
    HostTxDone(u32),
    BottleneckTxDone,
    DataArrives(u32),
    AckArrives(u32),
    Rto(u32),
    DelayedAck(u32),
    Pace(u32),
    Sample,
    /// A host's network interrupt: its ring's sent descriptors are
    /// reclaimed and its pending ACKs reach TCP.
    HostInterrupt(u32),
    FlowStart(u32),
    FlowStop(u32),
    /// The latency probe host sends its next probe.
    ProbeSend,
    /// A probe reached the far end of its forward path (its echo turns
    /// back).
    ProbeEcho,
    /// A probe's echo reply arrived back: its round trip is measured.
    ProbeReply,
    /// The receiving host's network interrupt: its pending data segments
    /// reach TCP.
    ReceiverInterrupt,
}

/// Bits of an event's code that hold the host or flow (the kind has the
/// top four): the scenario limits allow 64 × 64 flows.
const EVENT_INDEX_BITS: u32 = 12;

impl Event {
    /// The kind's number and the host or flow.
    fn parts(self) -> (u16, u32) {
        match self {
            Event::HostTxDone(i) => (0, i),
            Event::BottleneckTxDone => (1, 0),
            Event::DataArrives(i) => (2, i),
            Event::AckArrives(i) => (3, i),
            Event::Rto(i) => (4, i),
            Event::DelayedAck(i) => (5, i),
            Event::Pace(i) => (6, i),
            Event::Sample => (7, 0),
            Event::HostInterrupt(i) => (8, i),
            Event::FlowStart(i) => (9, i),
            Event::FlowStop(i) => (10, i),
            Event::ProbeSend => (11, 0),
            Event::ProbeEcho => (12, 0),
            Event::ProbeReply => (13, 0),
            Event::ReceiverInterrupt => (14, 0),
        }
    }
}

/// An event travels inside its queue key as 16 bits: the kind, then the
/// host or flow.
impl EventCode for Event {
    #[inline(always)]
    fn code(self) -> u16 {
        let (kind, i) = self.parts();
        debug_assert!(i < 1 << EVENT_INDEX_BITS, "host or flow {i}");
        kind << EVENT_INDEX_BITS | i as u16
    }

    #[inline(always)]
    fn from_code(code: u16) -> Self {
        let i = (code & ((1 << EVENT_INDEX_BITS) - 1)) as u32;
        match code >> EVENT_INDEX_BITS {
            0 => Event::HostTxDone(i),
            1 => Event::BottleneckTxDone,
            2 => Event::DataArrives(i),
            3 => Event::AckArrives(i),
            4 => Event::Rto(i),
            5 => Event::DelayedAck(i),
            6 => Event::Pace(i),
            7 => Event::Sample,
            8 => Event::HostInterrupt(i),
            9 => Event::FlowStart(i),
            10 => Event::FlowStop(i),
            11 => Event::ProbeSend,
            12 => Event::ProbeEcho,
            13 => Event::ProbeReply,
            _ => Event::ReceiverInterrupt,
        }
    }
}

/// A lazily scheduled timer: the deadline may move later without a new
/// heap entry; the pending entry re-arms itself when it fires early.
#[derive(Clone, Copy, Debug, Default)]
struct Timer {
    deadline_ns: Option<u64>,
    scheduled_ns: Option<u64>,
}

impl Timer {
    /// Returns the time to schedule a heap entry at, if one is needed.
    fn set(&mut self, deadline_ns: u64) -> Option<u64> {
        self.deadline_ns = Some(deadline_ns);
        match self.scheduled_ns {
            Some(s) if s <= deadline_ns => None,
            _ => {
                self.scheduled_ns = Some(deadline_ns);
                Some(deadline_ns)
            }
        }
    }

    fn clear(&mut self) {
        self.deadline_ns = None;
    }

    fn is_set(&self) -> bool {
        self.deadline_ns.is_some()
    }

    /// A heap entry for this timer fired at `now_ns`. Returns (fire now?,
    /// time to re-schedule at).
    fn on_fire(&mut self, now_ns: u64) -> (bool, Option<u64>) {
        if self.scheduled_ns == Some(now_ns) {
            self.scheduled_ns = None;
        }
        match self.deadline_ns {
            None => (false, None),
            Some(d) if d <= now_ns => {
                self.deadline_ns = None;
                (true, None)
            }
            Some(d) => {
                if self.scheduled_ns.is_none() {
                    self.scheduled_ns = Some(d);
                    (false, Some(d))
                } else {
                    (false, None)
                }
            }
        }
    }
}

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
    /// The receiving host's network interrupt, with the data segments
    /// (and their flows) waiting for it in arrival order.
    receiver_irq: HostInterrupt<(u32, Packet)>,
    receiver_irq_timer: Timer,
    recorder: Recorder,
    processed_events: u64,
}

impl Simulation {
    /// Validate `scenario` and set up the network at time zero.
    pub fn new(scenario: &Scenario) -> Result<Simulation, Vec<ValidationError>> {
        let errors = scenario.validate();
        if !errors.is_empty() {
            return Err(errors);
        }
        let s = scenario.clone();
        let mss = s.mss_bytes();
        let mech = s.resolved_mechanisms();
        let granularity_ns = (mech.delay_granularity_us * 1e3).round() as u64;
        let wire_bytes = s.mtu_bytes + ETHERNET_OVERHEAD_BYTES;
        let end_ns = ms_to_ns(s.duration_ms);
        let one_way_ns = ms_to_ns(s.rtt_ms) / 2;
        let flow_count: usize = s.hosts.iter().map(|h| h.flows.len()).sum();
        let mut bottleneck = Bottleneck::new(
            &s.bottleneck.aqm,
            s.bottleneck.rate_bps as u64,
            s.bottleneck.buffer_pkts as usize,
            wire_bytes,
            s.mtu_bytes + ETHERNET_HEADER_BYTES,
            flow_count,
        );
        let mut hosts = Vec::new();
        let mut flows = Vec::new();
        assert!(
            s.hosts.len().max(flow_count) <= 1 << EVENT_INDEX_BITS,
            "validated scenarios have at most 64 × 64 flows"
        );
        let mut events = EventQueue::new();
        let mut rng = Rng::new(s.seed as u64);
        // Unsynchronised clocks: each host's timer tick and interrupt
        // throttle start at their own phase, drawn first from the seed
        // (only when the profile models them, so other runs' random
        // streams are unchanged).
        let clocks_drift = mech.timer_hz > 0 || mech.interrupt_throttle_us > 0.0;
        let phase = |rng: &mut Rng| if clocks_drift { rng.uniform() } else { 0.0 };
        // Each port's transmit clock off nominal within the profile's
        // tolerance (IEEE 802.3: ±100 ppm), drawn after the phases and only
        // when the profile models it.
        let tolerance_ppb = mech.clock_tolerance_ppm * 1e3;
        let clock_ppb = |rng: &mut Rng| {
            if tolerance_ppb > 0.0 {
                ((2.0 * rng.uniform() - 1.0) * tolerance_ppb).round() as i64
            } else {
                0
            }
        };
        let receiver_clock = TickClock::new(mech.timer_hz, phase(&mut rng));
        let skb = if mech.nic_ring_descriptors > 0 {
            SkbLayout::linux_2_4(mss, crate::nic::I686_CACHE_LINE_BYTES)
        } else {
            SkbLayout::single()
        };
        let ring_size = if mech.nic_ring_descriptors > 0 {
            RingSize::Descriptors(mech.nic_ring_descriptors)
        } else {
            RingSize::Frames(mech.nic_ring_pkts)
        };
        let us_to_ns = |us: f64| (us * 1e3).round() as u64;
        for (h, host) in s.hosts.iter().enumerate() {
            for flow in &host.flows {
                let id = flows.len() as u32;
                let start_ns = ms_to_ns(flow.start_ms);
                let stop_ns = flow.stop_ms.map_or(u64::MAX, ms_to_ns);
                let cc = cc::build_with(&flow.algorithm, &flow.params, &mech)
                    .expect("validated algorithm");
                let paces = cc.paces();
                let ce_echo = cc.ce_echo();
                let extra_ns = ms_to_ns(flow.extra_delay_ms) / 2;
                let isn = s.initial_sequence(id as usize);
                flows.push(FlowState {
                    host: h,
                    algorithm: flow.algorithm.clone(),
                    sender: Sender::new(
                        SenderConfig {
                            mss_bytes: mss,
                            rwnd_bytes: profile::advertised_window_bytes(
                                flow.window_bytes,
                                mss,
                                s.mtu_bytes,
                                &mech,
                            ),
                            initial_cwnd_pkts: s.tcp.initial_cwnd_pkts,
                            initial_ssthresh_pkts: s.tcp.initial_ssthresh_pkts,
                            sack: s.tcp.sack,
                            counting: mech.cwnd_counting,
                            rto: mech.rto,
                            initial_rto_ns: ms_to_ns(mech.initial_rto_ms),
                            recovery: mech.recovery,
                            cwr: mech.cwr,
                            lost_retransmit: mech.lost_retransmit,
                            initial_seq: isn,
                        },
                        cc,
                        start_ns,
                    ),
                    receiver: Receiver::new(s.tcp.delayed_ack, ce_echo).starting_at(isn),
                    fwd: DelayLine::with_granularity(one_way_ns + extra_ns, granularity_ns),
                    rev: DelayLine::with_granularity(one_way_ns + extra_ns, granularity_ns),
                    start_ns,
                    stop_ns,
                    active: false,
                    rto: Timer::default(),
                    delack: Timer::default(),
                    pace: Timer::default(),
                    paces,
                    next_send_ns: 0,
                    network_drops: 0,
                    ecn_marks: 0,
                    delivered_at_last_sample: 0,
                    skb: skb.clone(),
                });
                events.push(start_ns, Event::FlowStart(id));
                if stop_ns < end_ns {
                    events.push(stop_ns, Event::FlowStop(id));
                }
            }
            // A host sends at its NIC's line rate unless the profile caps
            // what the host itself can push (bus, CPU).
            let rate_bps = if mech.host_send_limit_bps > 0.0 {
                host.nic_bps.min(mech.host_send_limit_bps)
            } else {
                host.nic_bps
            };
            let clock = TickClock::new(mech.timer_hz, phase(&mut rng));
            let throttle_phase = phase(&mut rng);
            let nic_clock_ppb = clock_ppb(&mut rng);
            hosts.push(HostState {
                port: Port::new(
                    rate_bps as u64,
                    host.txqueuelen_pkts as usize,
                    ring_size,
                    mech.tx_completion_us > 0.0,
                    wire_bytes,
                )
                .with_clock_ppb(nic_clock_ppb),
                irq: HostInterrupt::new(
                    us_to_ns(mech.interrupt_interval_us),
                    us_to_ns(mech.tx_completion_us),
                    us_to_ns(mech.interrupt_throttle_us),
                    throttle_phase,
                ),
                irq_timer: Timer::default(),
                clock,
            });
        }
        bottleneck.set_clock_ppb(clock_ppb(&mut rng));
        // The receiver's interrupt throttle starts at its own phase, drawn
        // last and only when it is modelled (other runs' streams stay).
        let receiver_throttle_ns = us_to_ns(mech.receiver_interrupt_throttle_us);
        let receiver_phase = if receiver_throttle_ns > 0 {
            rng.uniform()
        } else {
            0.0
        };
        let receiver_irq = HostInterrupt::new(
            us_to_ns(mech.receiver_interrupt_us),
            0,
            receiver_throttle_ns,
            receiver_phase,
        );
        let sample_interval_ns = ms_to_ns(s.sample_interval_ms).max(1);
        events.push(sample_interval_ns.min(end_ns), Event::Sample);
        let probe = s.probe.as_ref().map(|p| {
            events.push(0, Event::ProbeSend);
            ProbeState {
                interval_ns: ms_to_ns(p.interval_ms()).max(1),
                ip_bytes: p.size_bytes(),
                fwd: DelayLine::with_granularity(one_way_ns, granularity_ns),
                rev: DelayLine::with_granularity(one_way_ns, granularity_ns),
                sent: 0,
                samples: Vec::with_capacity(crate::resources::probes(&s) as usize),
            }
        });
        let rows = crate::resources::samples_per_flow(&s) as usize;
        let recorder = Recorder::new(flows.len(), hosts.len(), scenario.probe.is_some(), rows);
        Ok(Simulation {
            rng,
            receiver_clock,
            receiver_irq,
            receiver_irq_timer: Timer::default(),
            scenario: s,
            now_ns: 0,
            end_ns,
            sample_interval_ns,
            wire_bytes,
            events,
            hosts,
            bottleneck,
            probe,
            flows,
            recorder,
            processed_events: 0,
        })
    }

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

    /// Send whatever the window allows (Linux `tcp_write_xmit`).
    fn try_send(&mut self, f: usize) {
        let now = self.now_ns;
        loop {
            let flow = &mut self.flows[f];
            if !flow.active {
                return;
            }
            let pacing = if flow.paces {
                flow.sender.cc.pacing_rate_bytes_per_s()
            } else {
                debug_assert!(flow.sender.cc.pacing_rate_bytes_per_s().is_none());
                None
            };
            if pacing.is_some() && flow.next_send_ns > now {
                if let Some(t) = flow.pace.set(flow.next_send_ns) {
                    self.events.push(t, Event::Pace(f as u32));
                }
                return;
            }
            let Some(tx) = flow.sender.next_transmission() else {
                return;
            };
            let packet = Packet {
                flow: f as u32,
                seq: tx.seq,
                sent_ns: now,
                retransmission: tx.retransmission,
                ce: false,
            };
            let mut frame = Frame::new(packet, self.scenario.mtu_bytes);
            // The page layout follows the segment's place in the stream.
            frame.descriptors = flow.skb.descriptors(flow.sender.relative(tx.seq));
            let Ok(host_tx_done) = self.hosts[flow.host].port.enqueue(frame, now) else {
                let state_before = flow.sender.state;
                if flow.sender.on_local_congestion(now) {
                    self.recorder.event(now, f, EventKind::LocalCongestion);
                }
                self.recorder
                    .state_change(now, f, state_before, flow.sender.state);
                if flow.sender.packets_out() == 0 {
                    // Nothing in flight to clock us out again: retry after
                    // an RTO, as Linux's probe timer does.
                    let clock = self.hosts[flow.host].clock;
                    let t = clock.expiry_ns(now + flow.sender.backed_off_rto_ns());
                    if let Some(t) = flow.rto.set(t) {
                        self.events.push(t, Event::Rto(f as u32));
                    }
                }
                return;
            };
            flow.sender.on_transmitted(tx, now);
            if !flow.rto.is_set() {
                let clock = self.hosts[flow.host].clock;
                if let Some(t) = flow
                    .rto
                    .set(clock.expiry_ns(now + flow.sender.backed_off_rto_ns()))
                {
                    self.events.push(t, Event::Rto(f as u32));
                }
            }
            if let Some(rate) = pacing {
                let gap = (self.wire_bytes as f64 / rate.max(1.0) * 1e9) as u64;
                flow.next_send_ns = now + gap;
            }
            if let Some(t) = host_tx_done {
                self.events.push(t, Event::HostTxDone(flow.host as u32));
            }
        }
    }

    fn host_tx_done(&mut self, h: usize) {
        let now = self.now_ns;
        let host = &mut self.hosts[h];
        let done = host.port.finish(now);
        if let Some(t) = done.next_done_ns {
            self.events.push(t, Event::HostTxDone(h as u32));
        }
        if done.needs_interrupt {
            host.irq.tx_completed(now);
            self.arm_interrupt(h);
        }
        let f = done.frame;
        self.bottleneck_arrival(f);
    }

    /// The probe host sends probe number `sent` and schedules the next.
    fn send_probe(&mut self) {
        let now = self.now_ns;
        let probe = self.probe.as_mut().expect("probe events need a probe");
        let packet = Packet {
            flow: PROBE_FLOW,
            seq: probe.sent as u32,
            sent_ns: now,
            retransmission: false,
            ce: false,
        };
        probe.sent += 1;
        let frame = Frame::new(packet, probe.ip_bytes);
        let next = now + probe.interval_ns;
        if next < self.end_ns {
            self.events.push(next, Event::ProbeSend);
        }
        self.bottleneck_arrival(frame);
    }

    /// Record the drops and marks the bottleneck made (a probe's drop is
    /// counted by the bottleneck and the probe summary, not the event log).
    #[inline]
    fn take_signals(&mut self) {
        let now = self.now_ns;
        for s in self.bottleneck.take_signals() {
            if s.flow == PROBE_FLOW {
                continue;
            }
            let f = s.flow as usize;
            match s.kind {
                SignalKind::Drop => {
                    self.flows[f].network_drops += 1;
                    self.recorder.event(now, f, EventKind::NetworkLoss);
                }
                SignalKind::Mark => {
                    self.flows[f].ecn_marks += 1;
                    self.recorder.event(now, f, EventKind::EcnMark);
                }
            }
        }
    }

    fn bottleneck_arrival(&mut self, frame: Frame) {
        let now = self.now_ns;
        let done = self.bottleneck.arrive(frame, now, &mut self.rng);
        self.take_signals();
        if let Some(t) = done {
            self.events.push(t, Event::BottleneckTxDone);
        }
    }

    fn bottleneck_tx_done(&mut self) {
        let now = self.now_ns;
        let (p, next) = self.bottleneck.finish(now);
        // CoDel drops at dequeue, when the next frame starts.
        self.take_signals();
        if let Some(t) = next {
            self.events.push(t, Event::BottleneckTxDone);
        }
        if p.flow == PROBE_FLOW {
            let probe = self.probe.as_mut().expect("a probe needs a probe host");
            if let Some(t) = probe.fwd.push(now, p) {
                self.events.push(t, Event::ProbeEcho);
            }
            return;
        }
        if self.scenario.loss_rate > 0.0 && self.rng.uniform() < self.scenario.loss_rate {
            self.flows[p.flow as usize].network_drops += 1;
            self.recorder
                .event(now, p.flow as usize, EventKind::NetworkLoss);
            return;
        }
        let f = p.flow as usize;
        if let Some(t) = self.flows[f].fwd.push(now, p) {
            self.events.push(t, Event::DataArrives(f as u32));
        }
    }

    /// A data segment reached the receiving host's NIC. With interrupt
    /// moderation it waits for the host's next receive interrupt, so TCP
    /// takes segments (and sends their ACKs) in batches; without it, at
    /// once.
    fn data_reaches_receiver(&mut self, f: usize, p: Packet) {
        if self.receiver_irq.rx_is_immediate() {
            self.deliver_data(f, p);
        } else {
            self.receiver_irq.receive(self.now_ns, (f as u32, p));
            self.arm_receiver_interrupt();
        }
    }

    fn arm_receiver_interrupt(&mut self) {
        if let Some(t) = self.receiver_irq.fire_time_ns() {
            if let Some(t) = self.receiver_irq_timer.set(t) {
                self.events.push(t, Event::ReceiverInterrupt);
            }
        }
    }

    /// The receiving host's interrupt (`e1000_intr` → `netif_rx` per
    /// frame; the receive softirq then runs TCP over the batch in arrival
    /// order, acknowledging as it goes).
    fn receiver_interrupt(&mut self) {
        let now = self.now_ns;
        let (fire, again) = self.receiver_irq_timer.on_fire(now);
        if let Some(t) = again {
            self.events.push(t, Event::ReceiverInterrupt);
        }
        if !fire {
            return;
        }
        let batch = self.receiver_irq.fire(now);
        for &(f, p) in &batch {
            self.deliver_data(f as usize, p);
        }
        self.receiver_irq.recycle(batch);
        self.arm_receiver_interrupt();
    }

    fn deliver_data(&mut self, f: usize, p: Packet) {
        let now = self.now_ns;
        let flow = &mut self.flows[f];
        let acks = flow.receiver.on_data(&p, now);
        if let Some(held) = acks.held {
            // DCTCP: the held ACK with the old CE state goes first.
            self.send_ack(f, held);
        }
        let flow = &mut self.flows[f];
        if let Some(ack) = acks.ack {
            flow.delack.clear();
            self.send_ack(f, ack);
        } else if let Some(d) = flow.receiver.delack_deadline_ns {
            if let Some(t) = flow.delack.set(self.receiver_clock.expiry_ns(d)) {
                self.events.push(t, Event::DelayedAck(f as u32));
            }
        }
    }

    /// Inlined: called out of line, the ACK went through memory, written
    /// field by field and read back whole, and the read waited on the
    /// writes (5 % of a run in this function, perf).
    #[inline]
    fn send_ack(&mut self, f: usize, ack: Ack) {
        let now = self.now_ns;
        if let Some(t) = self.flows[f].rev.push(now, ack) {
            self.events.push(t, Event::AckArrives(f as u32));
        }
    }

    /// An ACK reached its sender's NIC. With interrupt moderation it waits
    /// for the host's next receive interrupt (the e1000's absolute delay
    /// timer starts at the first packet after an interrupt), so ACKs reach
    /// TCP in batches; without it, at once.
    fn ack_reaches_host(&mut self, f: usize, ack: Ack) {
        let h = self.flows[f].host;
        let irq = &mut self.hosts[h].irq;
        if irq.rx_is_immediate() {
            self.deliver_ack(f, ack);
        } else {
            irq.receive(self.now_ns, (f as u32, ack));
            self.arm_interrupt(h);
        }
    }

    /// Schedule host `h`'s interrupt for when its causes make it fire.
    fn arm_interrupt(&mut self, h: usize) {
        let host = &mut self.hosts[h];
        if let Some(t) = host.irq.fire_time_ns() {
            if let Some(t) = host.irq_timer.set(t) {
                self.events.push(t, Event::HostInterrupt(h as u32));
            }
        }
    }

    /// Host `h`'s network interrupt (`e1000_intr`): the receive ring's ACKs
    /// are taken, the transmit ring's sent descriptors reclaimed; then the
    /// transmit softirq refills the ring from the interface queue and the
    /// receive softirq hands the ACKs to TCP (2.4 runs NET_TX_SOFTIRQ
    /// before NET_RX_SOFTIRQ).
    fn host_interrupt(&mut self, h: usize) {
        let now = self.now_ns;
        let host = &mut self.hosts[h];
        let (fire, again) = host.irq_timer.on_fire(now);
        if let Some(t) = again {
            self.events.push(t, Event::HostInterrupt(h as u32));
        }
        if !fire {
            return;
        }
        let batch = host.irq.fire(now);
        if let Some(t) = host.port.reclaim(now) {
            self.events.push(t, Event::HostTxDone(h as u32));
        }
        for &(f, ack) in &batch {
            self.deliver_ack(f as usize, ack);
        }
        self.hosts[h].irq.recycle(batch);
        // Causes that came while TCP ran wait for the next interrupt.
        self.arm_interrupt(h);
    }

    fn deliver_ack(&mut self, f: usize, ack: Ack) {
        let now = self.now_ns;
        let flow = &mut self.flows[f];
        let una_before = flow.sender.snd_una;
        let state_before = flow.sender.state;
        let outcome = flow.sender.on_ack(&ack, now);
        if outcome.fast_retransmit {
            self.recorder.event(now, f, EventKind::FastRetransmit);
        }
        self.recorder
            .state_change(now, f, state_before, flow.sender.state);
        // RFC 6298 §5.2–5.3: stop the timer when all is acked, restart it
        // when new data is acknowledged.
        if flow.sender.packets_out() == 0 {
            flow.rto.clear();
        } else if crate::tcp::seq::after(flow.sender.snd_una, una_before) {
            let clock = self.hosts[flow.host].clock;
            if let Some(t) = flow
                .rto
                .set(clock.expiry_ns(now + flow.sender.backed_off_rto_ns()))
            {
                self.events.push(t, Event::Rto(f as u32));
            }
        }
        self.try_send(f);
    }

    fn retransmission_timeout(&mut self, f: usize) {
        let now = self.now_ns;
        let flow = &mut self.flows[f];
        if flow.sender.packets_out() > 0 {
            let state_before = flow.sender.state;
            flow.sender.on_timeout(now);
            self.recorder.event(now, f, EventKind::Timeout);
            self.recorder
                .state_change(now, f, state_before, flow.sender.state);
            let clock = self.hosts[flow.host].clock;
            let t = clock.expiry_ns(now + flow.sender.backed_off_rto_ns());
            if let Some(t) = flow.rto.set(t) {
                self.events.push(t, Event::Rto(f as u32));
            }
        }
        self.try_send(f);
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
    }

    /// Segments (and latency probes) in each place, for conservation
    /// checks: (sent by senders and the probe host, in host queues and at
    /// the bottleneck, in forward delay lines (a probe until its reply is
    /// back), delivered or buffered out of order at receivers (probes
    /// back), dropped).
    pub fn packet_accounting(&self) -> PacketAccounting {
        let mut a = PacketAccounting::default();
        for flow in &self.flows {
            a.sent += flow.sender.stats.segments_sent;
            a.in_flight_on_wire += flow.fwd.len() as u64;
            a.dropped += flow.network_drops;
        }
        for host in &self.hosts {
            a.in_queues += host.port.occupancy_pkts() as u64;
        }
        // Arrived at the receiver's NIC, waiting for its interrupt.
        a.in_flight_on_wire += self.receiver_irq.pending_len() as u64;
        a.in_queues += self.bottleneck.occupancy_pkts() as u64;
        a.received = self.flows.iter().map(|f| f.receiver_arrivals()).sum();
        if let Some(p) = &self.probe {
            // A probe is in flight from its send until its reply returns.
            a.sent += p.sent;
            a.in_flight_on_wire += (p.fwd.len() + p.rev.len()) as u64;
            a.received += p.samples.len() as u64;
            a.dropped += self.bottleneck.probe_drops();
        }
        a
    }

    /// Heap bytes the run's packet stores have needed at their largest,
    /// by store: what the resource model's `in_flight_bytes_max` bounds
    /// (the fuzz harness checks it). Buffers never shrink, so their
    /// capacities are high-water marks.
    pub fn packet_memory(&self) -> PacketMemory {
        let mut m = PacketMemory::default();
        for f in &self.flows {
            m.scoreboards += f.sender.scoreboard_allocated_bytes();
            m.out_of_order += f.receiver.out_of_order_peak_bytes();
            m.links += f.fwd.allocated_bytes() + f.rev.allocated_bytes();
        }
        for h in &self.hosts {
            m.hosts += h.port.allocated_bytes() + h.irq.allocated_bytes();
        }
        m.hosts += self.receiver_irq.allocated_bytes();
        if let Some(p) = &self.probe {
            m.links += p.fwd.allocated_bytes() + p.rev.allocated_bytes();
        }
        m.bottleneck = self.bottleneck.allocated_bytes();
        m
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

impl FlowState {
    fn receiver_arrivals(&self) -> u64 {
        self.receiver.arrivals
    }
}

/// Heap bytes of the stores that hold packets, at their largest.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PacketMemory {
    /// Every sender's scoreboard (one entry per segment sent and not yet
    /// cumulatively acknowledged, lost ones included).
    pub scoreboards: u64,
    /// Every receiver's segments held above a hole.
    pub out_of_order: u64,
    /// Data and ACKs on the propagation paths (and the probe's).
    pub links: u64,
    /// The hosts' interface queues, rings and interrupt batches.
    pub hosts: u64,
    pub bottleneck: u64,
}

impl PacketMemory {
    pub fn total(&self) -> u64 {
        self.scoreboards + self.out_of_order + self.links + self.hosts + self.bottleneck
    }
}

/// Where every data segment a sender transmitted (and every probe) is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PacketAccounting {
    pub sent: u64,
    pub in_queues: u64,
    pub in_flight_on_wire: u64,
    pub received: u64,
    pub dropped: u64,
}

impl PacketAccounting {
    /// Conservation: every segment sent is queued, on the wire, received or
    /// dropped — nothing is created or lost by the simulator itself.
    pub fn is_conserved(&self) -> bool {
        self.sent == self.in_queues + self.in_flight_on_wire + self.received + self.dropped
    }
}
