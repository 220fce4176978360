//! The TCP ends: a sender sending what its window allows, a receiver
//! taking data and acknowledging it, a sender taking ACKs, and the
//! retransmission timeout.

use super::event::Event;
use super::Simulation;
use crate::net::{Ack, Frame, Packet};
use crate::record::EventKind;

impl Simulation {
    /// Send whatever the window allows (Linux `tcp_write_xmit`), then let
    /// the sender note whether the window was the limit
    /// (`tcp_cwnd_validate`).
    pub(super) fn try_send(&mut self, f: usize) {
        let sent = self.send_while_allowed(f);
        let flow = &mut self.flows[f];
        if flow.active {
            flow.sender.after_sending(sent);
        }
    }

    /// [`try_send`](Self::try_send)'s loop: returns how many segments
    /// it sent.
    fn send_while_allowed(&mut self, f: usize) -> u32 {
        let now = self.now_ns;
        let mut sent = 0;
        loop {
            let flow = &mut self.flows[f];
            if !flow.active {
                return sent;
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
                return sent;
            }
            let Some(tx) = flow.sender.next_transmission() else {
                return sent;
            };
            // TCP Small Queues: over its limit the socket waits for one of
            // its segments to leave the host (`tx_freed`).
            if flow.tsq.is_enabled()
                && flow.tsq.holds_back(
                    pacing.map(|r| r as u64),
                    tx.retransmission,
                    flow.sender.packets_out(),
                )
            {
                return sent;
            }
            let packet = Packet {
                flow: f as u32,
                seq: tx.seq,
                sent_ns: now,
                retransmission: tx.retransmission,
                ce: false,
                ect1: flow.sender.ect1,
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
                    let host = &mut self.hosts[flow.host];
                    let t = host.clock.expiry_ns_near(
                        now + flow.sender.backed_off_rto_ns(),
                        &mut host.rto_tick_ns,
                    );
                    if let Some(t) = flow.rto.set(t) {
                        self.events.push(t, Event::Rto(f as u32));
                    }
                }
                return sent;
            };
            flow.tsq.on_queued();
            sent += 1;
            // The first unacknowledged segment, resent (Linux's `rtx_head`).
            let head_resent = tx.retransmission && tx.seq == flow.sender.snd_una;
            flow.sender.on_transmitted(tx, now);
            if head_resent && flow.rto_on_head_retransmit {
                // Linux `tcp_xmit_retransmit_queue` (2.4 to 6.x): resending
                // the head restarts the timer for a full RTO, so a resent
                // head is given one RTO of its own before the timer gives
                // up on it (RFC 6298 §5.3 restarts only on an ACK).
                let host = &mut self.hosts[flow.host];
                if let Some(t) =
                    flow.rto.set(host.clock.expiry_ns_near(
                        now + flow.sender.backed_off_rto_ns(),
                        &mut host.rto_tick_ns,
                    ))
                {
                    self.events.push(t, Event::Rto(f as u32));
                }
            } else if !flow.rto.is_set() {
                let host = &mut self.hosts[flow.host];
                if let Some(t) =
                    flow.rto.set(host.clock.expiry_ns_near(
                        now + flow.sender.backed_off_rto_ns(),
                        &mut host.rto_tick_ns,
                    ))
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

    pub(super) fn deliver_data(&mut self, f: usize, p: Packet) {
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
            if let Some(t) = flow.delack.set(
                self.receiver_clock
                    .expiry_ns_near(d, &mut self.delack_tick_ns),
            ) {
                self.events.push(t, Event::DelayedAck(f as u32));
            }
        }
    }

    /// Inlined: called out of line, the ACK went through memory, written
    /// field by field and read back whole, and the read waited on the
    /// writes (5 % of a run in this function, perf).
    #[inline]
    pub(super) fn send_ack(&mut self, f: usize, ack: Ack) {
        let now = self.now_ns;
        if let Some(t) = self.flows[f].rev.push(now, ack) {
            self.events.push(t, Event::AckArrives(f as u32));
        }
    }

    pub(super) fn deliver_ack(&mut self, f: usize, ack: Ack) {
        let now = self.now_ns;
        let flow = &mut self.flows[f];
        let una_before = flow.sender.snd_una;
        let state_before = flow.sender.state;
        let outcome = flow.sender.on_ack(&ack, now);
        if flow.tsq.is_enabled() && !flow.paces {
            // Linux `tcp_cong_control` ends with `tcp_update_pacing_rate`.
            let s = &flow.sender;
            flow.tsq.update_pacing_rate(
                s.mss_bytes,
                s.window.cwnd_pkts,
                s.window.ssthresh_pkts,
                s.packets_out(),
                s.srtt_ns(),
            );
        }
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
            let host = &mut self.hosts[flow.host];
            if let Some(t) = flow.rto.set(
                host.clock
                    .expiry_ns_near(now + flow.sender.backed_off_rto_ns(), &mut host.rto_tick_ns),
            ) {
                self.events.push(t, Event::Rto(f as u32));
            }
        }
        self.try_send(f);
    }

    pub(super) fn retransmission_timeout(&mut self, f: usize) {
        let now = self.now_ns;
        let flow = &mut self.flows[f];
        if flow.sender.packets_out() > 0 {
            let state_before = flow.sender.state;
            flow.sender.on_timeout(now);
            self.recorder.event(now, f, EventKind::Timeout);
            self.recorder
                .state_change(now, f, state_before, flow.sender.state);
            let host = &mut self.hosts[flow.host];
            let t = host
                .clock
                .expiry_ns_near(now + flow.sender.backed_off_rto_ns(), &mut host.rto_tick_ns);
            if let Some(t) = flow.rto.set(t) {
                self.events.push(t, Event::Rto(f as u32));
            }
        }
        self.try_send(f);
    }
}
