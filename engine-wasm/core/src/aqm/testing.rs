//! Frames for the tests of the queue disciplines and the NIC's ring (the
//! `cc/testing.rs` pattern).

use crate::net::{Frame, Packet};

/// Flow `flow`'s segment `seq` as an IP packet of `ip_bytes` in a frame
/// that joined its queue at `enqueued_ns`: a first transmission sent at 0,
/// Not-ECT-marked (set `packet.ect1` for an L4S sender's).
pub fn frame(flow: u32, seq: u32, ip_bytes: u32, enqueued_ns: u64) -> Frame {
    let mut f = Frame::new(
        Packet {
            flow,
            seq,
            sent_ns: 0,
            retransmission: false,
            ce: false,
            ect1: false,
        },
        ip_bytes,
    );
    f.enqueued_ns = enqueued_ns;
    f
}
