//! A Linux-like bulk TCP connection: the sender's state machine
//! (`sender`, its state changes and window update in `sender/recovery.rs`),
//! its scoreboard of SACKed, lost and resent segments with loss marking
//! (`scoreboard`), its RTT/RTO estimator (`rtt`), window reduction in CWR
//! and Recovery (`reduction`), tcptrace's outstanding-data averages
//! (`outstanding`), the receiver (`receiver`) and sequence numbers modulo
//! 2^32 (`seq`), and TCP Small Queues' limit on the data a socket keeps
//! below TCP (`small_queues`).

mod outstanding;
mod receiver;
pub mod reduction;
pub mod rtt;
mod scoreboard;
mod sender;
pub mod small_queues;
pub use scoreboard::SCOREBOARD_ENTRY_BYTES;
#[cfg(test)]
mod rate_tests;
pub mod seq;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod wrap_tests;

pub use receiver::{DataAcks, Receiver, OUT_OF_ORDER_ENTRY_BYTES};
pub use rtt::{RttEstimator, RTO_MAX_NS, RTO_MIN_NS};
pub use sender::{AckOutcome, Sender, SenderConfig, SenderStats, Transmission};
pub use small_queues::SmallQueues;

/// Duplicate-ACK threshold for fast retransmit (RFC 5681 §3.2).
pub const DUP_THRESH: u32 = 3;
/// Linux's delayed-ACK timer minimum (TCP_DELACK_MIN, 40 ms).
pub const DELACK_NS: u64 = 40_000_000;
