//! Sawtooth's simulation core: a pure, deterministic, packet-level model of
//! TCP senders sharing a bottleneck (the papers it reproduces: docs/papers.md). No I/O, no clock
//! reads, no unsafe code: time is integer nanoseconds passed through events.
#![forbid(unsafe_code)]

pub mod ablation;
pub mod aqm;
pub mod cc;
mod event_queue;
pub mod fidelity;
pub mod flags;
pub mod fuzz;
pub mod labs;
pub mod link_trace;
pub mod net;
pub mod nic;
pub mod parallel;
pub mod profile;
pub mod record;
pub mod resources;
pub mod rng;
pub mod scenario;
pub mod sim;
pub mod sim_claims;
pub mod strict_json;
pub mod summary;
pub mod tcp;
mod units;
pub mod validation;
pub mod variants;

pub use scenario::{Scenario, ValidationError};
pub use sim::Simulation;
pub use summary::Summary;
