//! The simulation's events, packed into the event queue's 16-bit codes,
//! and the lazily scheduled timers (retransmission, delayed ACK, pacing,
//! interrupts) that post them.

use crate::event_queue::EventCode;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Event {
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
pub(super) const EVENT_INDEX_BITS: u32 = 12;

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
pub(super) struct Timer {
    deadline_ns: Option<u64>,
    scheduled_ns: Option<u64>,
}

impl Timer {
    /// Returns the time to schedule a heap entry at, if one is needed.
    pub(super) fn set(&mut self, deadline_ns: u64) -> Option<u64> {
        self.deadline_ns = Some(deadline_ns);
        match self.scheduled_ns {
            Some(s) if s <= deadline_ns => None,
            _ => {
                self.scheduled_ns = Some(deadline_ns);
                Some(deadline_ns)
            }
        }
    }

    pub(super) fn clear(&mut self) {
        self.deadline_ns = None;
    }

    pub(super) fn is_set(&self) -> bool {
        self.deadline_ns.is_some()
    }

    /// A heap entry for this timer fired at `now_ns`. Returns (fire now?,
    /// time to re-schedule at).
    pub(super) fn on_fire(&mut self, now_ns: u64) -> (bool, Option<u64>) {
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
