//! What a run keeps in the browser (issue 28): the run worker's
//! WebAssembly memory and the page's copies of what the engine records,
//! held to one budget before the page runs a scenario.

use super::{
    bytes, columns, group_thousands, join_or, min_interval_ms, packet_memory_max, probes,
    samples_per_flow, seconds, EVENT_LOG_BYTES_MAX, F64_BYTES, PROBE_SAMPLE_BYTES,
};
use crate::record::MAX_STORED_EVENTS;
use crate::scenario::Scenario;
use serde::Serialize;
use ts_rs::TS;

/// What a run keeps in the browser's renderer at its peak: the run worker's
/// WebAssembly memory (which never shrinks) and the copies the page makes of
/// what the engine records. Each term is the most the code can hold, from
/// its own sizes (8-byte `f64` per row per column, the growth rules of the
/// page's buffers); see docs/ENGINE.md, "The browser's copies".
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
#[ts(export, export_to = "resources.ts")]
pub struct BrowserMemory {
    /// The engine's recorder in WebAssembly memory: its columns reserved
    /// for every row at the start (`Recorder::new`), the probes, the event
    /// log up to its cap (`recorded_bytes_max`).
    #[ts(type = "number")]
    pub engine_recording_bytes: u64,
    /// The engine's packet stores (`in_flight_bytes_max`).
    #[ts(type = "number")]
    pub engine_packets_bytes: u64,
    /// One chunk drained from the recorder (bindings' `drain_samples`,
    /// `drain_events`: a flat `Vec<f64>` in WebAssembly memory, whose high
    /// water stays): at most every row and every event, as the slice length
    /// doubles while the engine is fast (app/src/engine/runner.ts).
    #[ts(type = "number")]
    pub engine_chunk_bytes: u64,
    /// The chunks as JavaScript arrays (`Float64Array.from` in the worker,
    /// transferred to the page, garbage once appended): every row and
    /// event once, at worst all still uncollected.
    #[ts(type = "number")]
    pub chunks_bytes: u64,
    /// The page's series buffer (`SeriesBuffer`, app/src/engine/columns.ts):
    /// every column reserved for `samples_per_flow` rows.
    #[ts(type = "number")]
    pub series_bytes: u64,
    /// The throughput charts' trailing averages (`MovingAverage`,
    /// app/src/charts/specs.ts): three arrays per flow (and per a trace's
    /// capacity) of up to twice the rows, and the flows' sum (`ColumnSum`).
    /// Zero when the page's longest average spans one sample.
    #[ts(type = "number")]
    pub averages_bytes: u64,
    /// The path view's delivery index (`DeliveryIndex`, app/src/path/link.ts):
    /// one prefix sum per flow of up to twice the rows.
    #[ts(type = "number")]
    pub delivery_index_bytes: u64,
    /// The last finished run, kept on the page as the ghost: its series
    /// buffer and its averages. A change of one control reruns the same
    /// scenario with one value changed, so it is counted as large as this
    /// run's.
    #[ts(type = "number")]
    pub ghost_bytes: u64,
    #[ts(type = "number")]
    pub total_bytes: u64,
}

/// What one run may keep in the browser ([`BrowserMemory::total_bytes`]):
/// 2 GiB. The page and its run worker share one renderer process, whose
/// data memory Chromium's sandbox holds to 4 GiB on a 64-bit machine
/// (`kDataSizeLimit`, chromium `sandbox/constants.h`: `RLIMIT_DATA` on Linux,
/// the job's memory limit on Windows; raised to 8 or 16 GiB only on machines
/// with more than 8 or 16 GiB of RAM). Half of the smallest limit is left to
/// what the model does not count: the page itself (about 210 MB at rest,
/// BENCHMARKS.md), its DOM and JavaScript heap, and garbage not yet
/// collected. A renderer at 4.8 GB crashed (BENCHMARKS.md, issue 28).
pub const BROWSER_BYTES_BUDGET: u64 = 2 * 1024 * 1024 * 1024;

/// The page's longest throughput average, ms (`THROUGHPUT_AVERAGES`,
/// app/src/pages/LabPage.tsx): with samples this far apart or more, the
/// averages are the samples themselves and the page keeps no copy.
pub const PAGE_AVERAGE_MS_MAX: f64 = 1000.0;

/// Float64 arrays per averaged column (`MovingAverage`: the averages, the
/// prefix sums and the prefix counts).
const AVERAGE_ARRAYS: u64 = 3;

/// Bytes of one event in a drained chunk: `[t_s, flow, kind]` as `f64`s.
const CHUNK_EVENT_BYTES: u64 = 3 * F64_BYTES;

/// What a run of `s` keeps in the browser at its peak (see
/// [`BrowserMemory`]); `rows` sample rows (`samples_per_flow`).
fn browser_memory_with_rows(s: &Scenario, rows: u64, packets_bytes: u64) -> BrowserMemory {
    let columns = columns(s);
    let flows = s.flow_count() as u64;
    let sample_bytes = rows.saturating_mul(columns).saturating_mul(F64_BYTES);
    let recording = sample_bytes
        .saturating_add(probes(s).saturating_mul(PROBE_SAMPLE_BYTES))
        .saturating_add(EVENT_LOG_BYTES_MAX);
    let events_in_chunks = MAX_STORED_EVENTS as u64 * CHUNK_EVENT_BYTES;
    let chunks = sample_bytes.saturating_add(events_in_chunks);
    // Growable page buffers double from a floor: at most twice the rows.
    let grown = |floor: u64| rows.saturating_mul(2).max(floor);
    let window = (PAGE_AVERAGE_MS_MAX / s.sample_interval_ms).round();
    let averaged = if window > 1.0 {
        flows + s.bottleneck.trace.is_some() as u64
    } else {
        0
    };
    let averages = averaged
        .saturating_mul(AVERAGE_ARRAYS * F64_BYTES)
        .saturating_mul(grown(16).saturating_add(1))
        .saturating_add(if flows > 1 {
            grown(1024).saturating_mul(F64_BYTES)
        } else {
            0
        });
    let delivery = flows.saturating_mul(F64_BYTES).saturating_mul(grown(64));
    let ghost = sample_bytes.saturating_add(averages);
    let total = [
        recording,
        packets_bytes,
        chunks,
        chunks,
        sample_bytes,
        averages,
        delivery,
        ghost,
    ]
    .iter()
    .fold(0u64, |a, &b| a.saturating_add(b));
    BrowserMemory {
        engine_recording_bytes: recording,
        engine_packets_bytes: packets_bytes,
        engine_chunk_bytes: chunks,
        chunks_bytes: chunks,
        series_bytes: sample_bytes,
        averages_bytes: averages,
        delivery_index_bytes: delivery,
        ghost_bytes: ghost,
        total_bytes: total,
    }
}

/// What a run of `s` keeps in the browser at its peak: the engine's
/// recording and packet stores in the run worker's WebAssembly memory, the
/// drained chunks, and the page's copies ([`BrowserMemory`]).
pub fn browser_memory(s: &Scenario) -> BrowserMemory {
    browser_memory_with_rows(s, samples_per_flow(s), packet_memory_max(s))
}

/// Why the page refuses to run `s` (what it keeps in the browser exceeds
/// [`BROWSER_BYTES_BUDGET`]), naming the field to change and the limit, as
/// validation words its errors; `None` when it fits. The page checks it
/// before it runs (app/src/engine/runner.ts); the CLI keeps no such copies.
pub fn browser_over_budget(s: &Scenario) -> Option<crate::ValidationError> {
    let packets = packet_memory_max(s);
    let need = browser_memory_with_rows(s, samples_per_flow(s), packets);
    if need.total_bytes <= BROWSER_BYTES_BUDGET {
        return None;
    }
    let fits =
        |rows: u64| browser_memory_with_rows(s, rows, packets).total_bytes <= BROWSER_BYTES_BUDGET;
    let flows = s.flow_count();
    let copies = need.total_bytes.saturating_sub(packets);
    if !fits(1) {
        // Not the samples: the packets in flight alone leave no room.
        let window = s
            .hosts
            .first()
            .and_then(|h| h.flows.first())
            .map_or(0, |f| f.window_bytes);
        return Some(crate::ValidationError {
            field: "hosts[0].flows[0].window_bytes".into(),
            value: window.to_string(),
            message: format!(
                "the engine's packets in flight ({}) and the recorded data's copies ({}) would keep {} \
                 in the browser (limit {} in the browser); use smaller windows, a shorter rtt_ms, \
                 a slower link or fewer flows",
                bytes(packets),
                bytes(copies),
                bytes(need.total_bytes),
                bytes(BROWSER_BYTES_BUDGET),
            ),
        });
    }
    // The most rows that fit (the total grows with the rows).
    let (mut lo, mut hi) = (1u64, samples_per_flow(s));
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if fits(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let mut advice = Vec::new();
    if let Some(ms) = min_interval_ms(s, lo) {
        advice.push(format!("use ≥ {} ms", group_thousands(ms)));
    }
    advice.push("fewer flows".to_string());
    advice.push("a shorter duration_ms".to_string());
    let hosts = if s.hosts.len() > 1 {
        format!(" on {} hosts", s.hosts.len())
    } else {
        String::new()
    };
    Some(crate::ValidationError {
        field: "sample_interval_ms".into(),
        value: s.sample_interval_ms.to_string(),
        message: format!(
            "{} ms samples × {} flow{}{hosts} × {} record {} of samples, which the browser holds \
             about {} times over (the engine's recording and chunks, the page's series, averages, \
             path view and previous run): {} with the engine's packets (limit {} in the browser); \
             {}",
            group_thousands(s.sample_interval_ms),
            flows,
            if flows == 1 { "" } else { "s" },
            seconds(s.duration_ms),
            bytes(need.series_bytes),
            (copies as f64 / need.series_bytes.max(1) as f64).round(),
            bytes(need.total_bytes),
            bytes(BROWSER_BYTES_BUDGET),
            join_or(&advice)
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resources::estimate;
    use crate::resources::tests::suggested_interval_ms;
    use crate::scenario::{Flow, Host};

    /// 64 hosts × 64 Reno flows (BENCHMARKS.md, issue 28), 10 ms samples
    /// for 8 s: 800 rows × 41 091 columns, at the recording budget.
    fn hosts_64_by_flows_64_at_the_recording_limit(
        rate_bps: f64,
        window_bytes: u32,
        rtt_ms: f64,
    ) -> Scenario {
        let mut s = Scenario::default_scenario();
        s.profile = "linux-6".into();
        s.mtu_bytes = 1500;
        s.rtt_ms = rtt_ms;
        s.duration_ms = 8000.0;
        s.sample_interval_ms = 10.0;
        s.bottleneck.rate_bps = rate_bps;
        s.bottleneck.buffer_pkts = 1_000_000;
        s.hosts = vec![
            Host {
                nic_bps: rate_bps,
                txqueuelen_pkts: 100,
                flows: vec![Flow::new("reno", window_bytes); 64],
            };
            64
        ];
        s
    }

    #[test]
    fn the_browser_figure_counts_each_copy_of_the_recorded_data_from_the_codes_sizes() {
        // The fast copy of BENCHMARKS.md: 100 Mb/s, 64 KB windows, 50 ms.
        let s = hosts_64_by_flows_64_at_the_recording_limit(1e8, 65_536, 50.0);
        assert!(s.validate().is_empty(), "{:?}", s.validate());
        let e = estimate(&s);
        let b = &e.browser;
        let rows = 800u64;
        let columns = 3 + 4096 * 10 + 2 * 64;
        assert_eq!(e.samples_per_flow, rows);
        assert_eq!(e.columns, columns);
        let series = rows * columns * 8;
        assert_eq!(b.series_bytes, series);
        // The recorder reserves every row; the event log up to its cap.
        assert_eq!(b.engine_recording_bytes, series + 200_000 * 16);
        assert_eq!(b.engine_recording_bytes, e.recorded_bytes_max);
        assert_eq!(b.engine_packets_bytes, e.in_flight_bytes_max);
        // Every row and event drained once, as [t, flow, kind] triples.
        assert_eq!(b.chunks_bytes, series + 200_000 * 24);
        assert_eq!(b.engine_chunk_bytes, b.chunks_bytes);
        // 10 ms samples, a 1 s average: three arrays per flow of up to
        // twice the rows (+1), and the flows' sum.
        assert_eq!(
            b.averages_bytes,
            4096 * 3 * 8 * (2 * rows + 1) + 8 * 2 * rows
        );
        assert_eq!(b.delivery_index_bytes, 4096 * 8 * 2 * rows);
        assert_eq!(b.ghost_bytes, series + b.averages_bytes);
        assert_eq!(
            b.total_bytes,
            b.engine_recording_bytes
                + b.engine_packets_bytes
                + b.engine_chunk_bytes
                + b.chunks_bytes
                + b.series_bytes
                + b.averages_bytes
                + b.delivery_index_bytes
                + b.ghost_bytes
        );
        assert_eq!(e.browser_bytes_max, b.total_bytes);
        assert_eq!(e.browser_budget_bytes, BROWSER_BYTES_BUDGET);
        // About 1.6 GiB: inside the browser's budget.
        assert!(
            b.total_bytes > 1536 << 20 && b.total_bytes < BROWSER_BYTES_BUDGET,
            "{b:?}"
        );
        assert_eq!(e.browser_refusal, None);
    }

    #[test]
    fn samples_a_second_apart_keep_no_averages_on_the_page() {
        let mut s = Scenario::default_scenario();
        s.sample_interval_ms = 1000.0;
        assert_eq!(browser_memory(&s).averages_bytes, 0);
        s.sample_interval_ms = 500.0;
        assert!(browser_memory(&s).averages_bytes > 0);
    }

    #[test]
    fn a_run_inside_the_recording_budget_but_over_the_browsers_is_refused_naming_the_interval() {
        // 100 Gb/s, 724 KiB windows, 500 ms: the packet stores' bound is
        // about half a GiB beside the recording at its limit.
        let s = hosts_64_by_flows_64_at_the_recording_limit(1e11, 741_376, 500.0);
        assert!(
            s.validate().is_empty(),
            "the CLI runs it: {:?}",
            s.validate()
        );
        let e = estimate(&s);
        assert!(
            e.browser_bytes_max > BROWSER_BYTES_BUDGET,
            "{:?}",
            e.browser
        );
        let refusal = e.browser_refusal.expect("refused in the browser");
        assert_eq!(refusal.field, "sample_interval_ms");
        assert_eq!(refusal.value, "10");
        assert!(
            refusal.message.starts_with(
                "10 ms samples × 4096 flows on 64 hosts × 8 s record 251 MiB of samples"
            ),
            "{}",
            refusal.message
        );
        assert!(
            refusal
                .message
                .contains("(limit 2 GiB in the browser); use ≥ "),
            "{}",
            refusal.message
        );
        assert!(
            refusal
                .message
                .ends_with("ms, fewer flows, or a shorter duration_ms"),
            "{}",
            refusal.message
        );
        let suggested = suggested_interval_ms(&refusal.message);
        let mut fixed = s.clone();
        fixed.sample_interval_ms = suggested;
        assert_eq!(
            estimate(&fixed).browser_refusal,
            None,
            "{suggested} ms fits"
        );
        assert!(estimate(&fixed).browser_bytes_max <= BROWSER_BYTES_BUDGET);
        fixed.sample_interval_ms = suggested - 1.0;
        assert!(
            estimate(&fixed).browser_refusal.is_some(),
            "{suggested} ms is the shortest that fits"
        );
    }
}
