//! The bottleneck link: frames arriving at the switch (from the hosts and
//! the latency probe host), its drops and marks, and frames leaving it
//! onto the forward paths (or lost at random after it).

use super::event::Event;
use super::Simulation;
use crate::aqm::SignalKind;
use crate::net::{Frame, Packet, PROBE_FLOW};
use crate::record::EventKind;

impl Simulation {
    /// The probe host sends probe number `sent` and schedules the next.
    pub(super) fn send_probe(&mut self) {
        let now = self.now_ns;
        let probe = self.probe.as_mut().expect("probe events need a probe");
        let packet = Packet {
            flow: PROBE_FLOW,
            seq: probe.sent as u32,
            sent_ns: now,
            retransmission: false,
            ce: false,
            ect1: false,
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
    pub(super) fn take_signals(&mut self) {
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

    pub(super) fn bottleneck_arrival(&mut self, frame: Frame) {
        let now = self.now_ns;
        let done = self.bottleneck.arrive(frame, now, &mut self.rng);
        self.take_signals();
        if let Some(t) = done {
            self.events.push(t, Event::BottleneckTxDone);
        }
    }

    pub(super) fn bottleneck_tx_done(&mut self) {
        if self.bottleneck.is_trace_driven() {
            self.bottleneck_opportunity();
            return;
        }
        let now = self.now_ns;
        let (p, next) = self.bottleneck.finish(now, &mut self.rng);
        // CoDel drops at dequeue, when the next frame starts.
        self.take_signals();
        if let Some(t) = next {
            self.events.push(t, Event::BottleneckTxDone);
        }
        self.leave_bottleneck(p);
    }

    /// A trace-driven link's delivery opportunity (`link_trace.rs`): the
    /// link serves its queue, and the packets it delivered leave in order.
    #[cold]
    #[inline(never)]
    fn bottleneck_opportunity(&mut self) {
        let now = self.now_ns;
        let next = self.bottleneck.serve_opportunity(now, &mut self.rng);
        self.take_signals();
        if let Some(t) = next {
            self.events.push(t, Event::BottleneckTxDone);
        }
        let delivered = self.bottleneck.take_delivered();
        for &p in &delivered {
            self.leave_bottleneck(p);
        }
        self.bottleneck.return_delivered(delivered);
    }

    /// Packet `p` has crossed the bottleneck: onto its forward path (a
    /// probe onto the probe's), unless lost at random after the link.
    #[inline(always)]
    fn leave_bottleneck(&mut self, p: Packet) {
        let now = self.now_ns;
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
}
