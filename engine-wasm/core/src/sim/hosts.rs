//! The hosts' network interfaces: a sender's transmit completions, and
//! the moderated network interrupts (each sender's and the receiving
//! host's) that hand arrived ACKs and data segments to TCP in batches.

use super::event::Event;
use super::Simulation;
use crate::net::{Ack, Packet};

impl Simulation {
    pub(super) fn host_tx_done(&mut self, h: usize) {
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
        if self.small_queues && !done.needs_interrupt {
            self.tx_freed(f.packet.flow as usize);
        }
    }

    /// One of flow `f`'s segments was freed at transmit completion (Linux
    /// `tcp_wfree`): a socket throttled by TCP Small Queues sends again
    /// (the TSQ tasklet's `tcp_tsq_write`).
    fn tx_freed(&mut self, f: usize) {
        if self.flows[f].tsq.on_freed() {
            self.try_send(f);
        }
    }

    /// A data segment reached the receiving host's NIC. With interrupt
    /// moderation it waits for the host's next receive interrupt, so TCP
    /// takes segments (and sends their ACKs) in batches; without it, at
    /// once.
    pub(super) fn data_reaches_receiver(&mut self, f: usize, p: Packet) {
        if self.receiver_irq.rx_is_immediate() {
            self.deliver_data(f, p);
        } else {
            self.receiver_irq.receive(self.now_ns, (f as u32, p));
            self.arm_receiver_interrupt();
        }
    }

    pub(super) fn arm_receiver_interrupt(&mut self) {
        if let Some(t) = self.receiver_irq.fire_time_ns() {
            if let Some(t) = self.receiver_irq_timer.set(t) {
                self.events.push(t, Event::ReceiverInterrupt);
            }
        }
    }

    /// The receiving host's interrupt (`e1000_intr` → `netif_rx` per
    /// frame; the receive softirq then runs TCP over the batch in arrival
    /// order, acknowledging as it goes).
    pub(super) fn receiver_interrupt(&mut self) {
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

    /// An ACK reached its sender's NIC. With interrupt moderation it waits
    /// for the host's next receive interrupt (the e1000's absolute delay
    /// timer starts at the first packet after an interrupt), so ACKs reach
    /// TCP in batches; without it, at once.
    pub(super) fn ack_reaches_host(&mut self, f: usize, ack: Ack) {
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
    pub(super) fn arm_interrupt(&mut self, h: usize) {
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
    pub(super) fn host_interrupt(&mut self, h: usize) {
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
        // The TSQ tasklet runs after the receive softirq (TASKLET_SOFTIRQ
        // follows NET_RX_SOFTIRQ).
        if self.small_queues {
            let freed = self.hosts[h].port.take_reclaimed_flows();
            for &f in &freed {
                self.tx_freed(f as usize);
            }
            self.hosts[h].port.return_reclaimed_flows(freed);
        }
        // Causes that came while TCP ran wait for the next interrupt.
        self.arm_interrupt(h);
    }
}
