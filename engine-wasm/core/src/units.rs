//! Time units: the scenario speaks milliseconds, the engine integer
//! nanoseconds. A leaf module, so that validation, the resource model and
//! the queue disciplines convert time without depending on the simulation.

/// Nanoseconds in a millisecond.
pub(crate) const NS_PER_MS: f64 = 1e6;

/// A scenario's milliseconds as the engine's nanoseconds (rounded).
pub(crate) fn ms_to_ns(ms: f64) -> u64 {
    (ms * NS_PER_MS).round() as u64
}
