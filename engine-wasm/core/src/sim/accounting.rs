//! Where every packet is and what the packet stores hold: the
//! conservation and memory checks of the tests and the fuzz harness.

use super::{FlowState, Simulation};

impl Simulation {
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
        a.in_queues += (self.bottleneck.occupancy_pkts() + self.bottleneck.held_pkts()) as u64;
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
