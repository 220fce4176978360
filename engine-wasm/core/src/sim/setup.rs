//! Building a simulation from a validated scenario: hosts, flows and
//! their controllers, the bottleneck, the receiver and the probe host at
//! time zero, with the clock phases and offsets drawn from the seed.

use super::event::{Event, Timer, EVENT_INDEX_BITS};
use super::{FlowState, HostState, ProbeState, Simulation};
use crate::aqm::Bottleneck;
use crate::cc;
use crate::event_queue::EventQueue;
use crate::link_trace::TraceSchedule;
use crate::net::{DelayLine, ETHERNET_HEADER_BYTES, ETHERNET_OVERHEAD_BYTES};
use crate::nic::{HostInterrupt, Port, RingSize, SkbLayout, TickClock};
use crate::profile;
use crate::record::Recorder;
use crate::rng::Rng;
use crate::scenario::{Scenario, ValidationError};
use crate::tcp::{small_queues, Receiver, Sender, SenderConfig, SmallQueues};
use crate::units::ms_to_ns;

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
        // A trace-driven link's rate is its trace's mean in wire terms
        // (RED's transmission time); its service follows the trace.
        let mut bottleneck = Bottleneck::new(
            &s.bottleneck.aqm,
            s.bottleneck_rate_bps() as u64,
            s.bottleneck.buffer_pkts as usize,
            wire_bytes,
            s.mtu_bytes + ETHERNET_HEADER_BYTES,
            flow_count,
        );
        if let Some(trace) = &s.bottleneck.trace {
            let schedule = TraceSchedule::new(&trace.opportunities_ms)
                .expect("a validated trace has a schedule");
            bottleneck = bottleneck.with_trace(schedule);
        }
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
                let cc = cc::build_with(&flow.algorithm, &flow.params, &mech.algorithm_rules())
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
                            cwnd_limited: mech.cwnd_limited,
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
                    rto_on_head_retransmit: mech.rto_restart
                        == profile::RtoRestartRule::HeadRetransmit,
                    delack: Timer::default(),
                    pace: Timer::default(),
                    paces,
                    next_send_ns: 0,
                    network_drops: 0,
                    ecn_marks: 0,
                    delivered_at_last_sample: 0,
                    skb: skb.clone(),
                    tsq: SmallQueues::new(
                        mech.small_queue_limit_bytes as u64,
                        small_queues::segment_truesize_bytes(mss),
                    ),
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
                .with_clock_ppb(nic_clock_ppb)
                .tracking_owners_if(mech.small_queue_limit_bytes > 0),
                irq: HostInterrupt::new(
                    us_to_ns(mech.interrupt_interval_us),
                    us_to_ns(mech.tx_completion_us),
                    us_to_ns(mech.interrupt_throttle_us),
                    throttle_phase,
                ),
                irq_timer: Timer::default(),
                clock,
                rto_tick_ns: 0,
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
        let recorder = Recorder::new(flows.len(), hosts.len(), scenario.probe.is_some(), rows)
            .with_trace_capacity(scenario.bottleneck.trace.is_some());
        Ok(Simulation {
            rng,
            receiver_clock,
            delack_tick_ns: 0,
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
            small_queues: mech.small_queue_limit_bytes > 0,
        })
    }
}
