//! Independent runs on native threads, results in input order: the one
//! parallel runner of the CLI (`sweep`, `fidelity`, `ablation`) and the
//! long tests (digests, lab claims and findings). Each run is a pure
//! function of its scenario, so the order they finish in changes nothing.
//! Native only: in the browser, runs go to Web Workers instead (a wasm32
//! build compiles this but never calls it).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// One worker per available core (at least one).
pub fn available_cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// `f` applied to every job on at most `workers` threads, each taking the
/// next job as it finishes one; the results in the jobs' order.
pub fn map_in_order<T: Sync, R: Send>(
    jobs: &[T],
    workers: usize,
    f: impl Fn(&T) -> R + Sync,
) -> Vec<R> {
    let next = AtomicUsize::new(0);
    let slots: Vec<Mutex<Option<R>>> = jobs.iter().map(|_| Mutex::new(None)).collect();
    std::thread::scope(|s| {
        for _ in 0..workers.max(1).min(jobs.len()) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(job) = jobs.get(i) else { break };
                let r = f(job);
                *slots[i].lock().expect("no panic while locked") = Some(r);
            });
        }
    });
    slots
        .into_iter()
        .map(|m| {
            m.into_inner()
                .expect("no panic while locked")
                .expect("every job ran")
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_back_in_job_order_whatever_the_workers() {
        let jobs: Vec<u64> = (0..100).collect();
        for workers in [0, 1, 3, 200] {
            let out = map_in_order(&jobs, workers, |&j| {
                // Uneven work (early jobs longest), so jobs finish out of order.
                let work: u64 = (0..(100 - j) * 1000).map(|b| b % 3).sum();
                j + work - std::hint::black_box(work)
            });
            assert_eq!(out, jobs, "{workers} workers");
        }
        assert!(map_in_order(&[] as &[u8], 4, |&x| x).is_empty());
        assert!(available_cores() >= 1);
    }
}
