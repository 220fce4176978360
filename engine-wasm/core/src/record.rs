//! What a run records: sampled time series in columns, and
//! congestion events. Columns only grow, so a caller can read new rows from
//! a cursor while the run continues.

/// One round trip of the latency probe.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProbeSample {
    /// When the probe left the probe host.
    pub sent_ns: u64,
    /// When its echo reply came back, less `sent_ns`.
    pub rtt_ns: u64,
}

/// Kinds of event marked on the time axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum EventKind {
    /// A packet dropped by the bottleneck or the lossy link.
    NetworkLoss = 0,
    /// The sender's interface queue refused a segment and CWR began.
    LocalCongestion = 1,
    /// Three duplicate ACKs (or SACK) started fast recovery.
    FastRetransmit = 2,
    /// The retransmission timer expired.
    Timeout = 3,
    /// RED marked a packet Congestion Experienced.
    EcnMark = 4,
    /// The sender entered Open (5), Disorder (6), CWR (7), Recovery (8) or
    /// Loss (9): kind = 5 + Linux's `tcp_ca_state` number.
    EnteredOpen = 5,
    EnteredDisorder = 6,
    EnteredCwr = 7,
    EnteredRecovery = 8,
    EnteredLoss = 9,
}

/// Each event kind's name, by its number: the names the page's event log,
/// its Events CSV and the CLI's `run --format events` use
/// (docs/TEST-SURFACE.md §3.2).
pub const EVENT_KIND_NAMES: [&str; 10] = [
    "network_loss",
    "local_congestion",
    "fast_retransmit",
    "timeout",
    "ecn_mark",
    "entered_open",
    "entered_disorder",
    "entered_cwr",
    "entered_recovery",
    "entered_loss",
];

impl EventKind {
    /// The kind's name ([`EVENT_KIND_NAMES`]).
    pub fn name(self) -> &'static str {
        EVENT_KIND_NAMES[self as usize]
    }

    pub fn entered(state: crate::cc::CaState) -> EventKind {
        use crate::cc::CaState::*;
        match state {
            Open => EventKind::EnteredOpen,
            Disorder => EventKind::EnteredDisorder,
            Cwr => EventKind::EnteredCwr,
            Recovery => EventKind::EnteredRecovery,
            Loss => EventKind::EnteredLoss,
        }
    }
}

/// Per-flow sampled quantities, in column order.
pub const FLOW_COLUMNS: [&str; 10] = [
    "cwnd_pkts",
    "cwnd_bytes",
    "ssthresh_pkts",
    "outstanding_bytes",
    "outstanding_avg_bytes",
    "outstanding_wavg_bytes",
    "throughput_bps",
    "srtt_ms",
    "state",
    "outstanding_captured_bytes",
];

/// Index of each per-flow column in [`FLOW_COLUMNS`].
pub mod col {
    pub const CWND_PKTS: usize = 0;
    pub const CWND_BYTES: usize = 1;
    pub const SSTHRESH_PKTS: usize = 2;
    pub const OUTSTANDING_BYTES: usize = 3;
    pub const OUTSTANDING_AVG_BYTES: usize = 4;
    pub const OUTSTANDING_WAVG_BYTES: usize = 5;
    pub const THROUGHPUT_BPS: usize = 6;
    pub const SRTT_MS: usize = 7;
    pub const STATE: usize = 8;
    /// Outstanding data as tcpdump on the sending host sees it (the
    /// tcptrace plots of seeds 000 and 002): bytes handed to the NIC's
    /// driver and not yet acknowledged. Linux 2.4's capture tap
    /// (`dev_queue_xmit_nit` in `qdisc_restart`) sees a frame when the qdisc
    /// hands it to the driver, so data still in the interface queue is not
    /// counted; data in the driver's ring is.
    pub const OUTSTANDING_CAPTURED_BYTES: usize = 9;
}

/// Events beyond this many are counted but not stored, so the event log
/// never holds more than `MAX_STORED_EVENTS × size_of::<RecordedEvent>()`
/// bytes (3.2 MB) whatever the scenario.
pub const MAX_STORED_EVENTS: usize = 200_000;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RecordedEvent {
    pub time_s: f64,
    pub flow: u32,
    pub kind: EventKind,
}

pub struct Recorder {
    names: Vec<String>,
    columns: Vec<Vec<f64>>,
    flows: usize,
    next_column: usize,
    /// The last column is `probe.rtt_ms` (or, with a trace, the one before).
    probe: bool,
    events: Vec<RecordedEvent>,
    pub events_dropped: u64,
}

/// A trace-driven link's capacity column (`Recorder::with_trace_capacity`):
/// its delivery opportunities in each sample interval at 1504 bytes each,
/// in b/s (Mahimahi's capacity line).
pub const TRACE_CAPACITY_COLUMN: &str = "link.capacity_bps";

impl Recorder {
    /// A recorder whose columns hold `rows` samples without reallocating:
    /// reserving exactly avoids `Vec`'s doubling, which could otherwise
    /// hold up to twice the recorded bytes (the resource model counts
    /// exactly `rows`).
    /// With `probe`, a last column `probe.rtt_ms`: the latest latency-probe
    /// round trip back by the sample's time (NaN before the first).
    pub fn new(flows: usize, hosts: usize, probe: bool, rows: usize) -> Recorder {
        let mut names = vec!["t_s".to_string()];
        for f in 0..flows {
            names.extend(FLOW_COLUMNS.iter().map(|c| format!("f{f}.{c}")));
        }
        names.push("q.bottleneck_pkts".into());
        names.push("q.bottleneck_delay_ms".into());
        names.extend((0..hosts).map(|h| format!("h{h}.ifq_pkts")));
        names.extend((0..hosts).map(|h| format!("h{h}.ring_pkts")));
        if probe {
            names.push("probe.rtt_ms".into());
        }
        let columns = (0..names.len()).map(|_| Vec::with_capacity(rows)).collect();
        Recorder {
            names,
            columns,
            flows,
            next_column: 0,
            probe,
            events: Vec::new(),
            events_dropped: 0,
        }
    }

    /// With `trace`, a last column [`TRACE_CAPACITY_COLUMN`]: a
    /// trace-driven link's capacity over each sample interval. Runs without
    /// a trace record exactly as before.
    pub fn with_trace_capacity(mut self, trace: bool) -> Recorder {
        if trace {
            let rows = self.columns[0].capacity();
            self.names.push(TRACE_CAPACITY_COLUMN.into());
            self.columns.push(Vec::with_capacity(rows));
        }
        self
    }

    /// The trace-driven link's capacity for the row being written, after
    /// [`queue_values`](Recorder::queue_values).
    pub(crate) fn trace_capacity_value(&mut self, bps: f64) {
        self.columns[self.next_column].push(bps);
        self.next_column += 1;
        debug_assert_eq!(self.next_column, self.columns.len());
    }

    pub fn column_names(&self) -> &[String] {
        &self.names
    }

    pub fn column(&self, name: &str) -> Option<&[f64]> {
        self.names
            .iter()
            .position(|n| n == name)
            .map(|i| self.columns[i].as_slice())
    }

    /// Column `c` of flow `f` (an index into [`FLOW_COLUMNS`]).
    pub fn flow_column(&self, f: usize, c: usize) -> &[f64] {
        &self.columns[1 + f * FLOW_COLUMNS.len() + c]
    }

    pub fn columns(&self) -> &[Vec<f64>] {
        &self.columns
    }

    pub fn rows(&self) -> usize {
        self.columns[0].len()
    }

    pub fn events(&self) -> &[RecordedEvent] {
        &self.events
    }

    /// Bytes of samples and stored events recorded so far.
    pub fn recorded_bytes(&self) -> u64 {
        let values: usize = self.columns.iter().map(Vec::len).sum();
        (values * std::mem::size_of::<f64>()
            + self.events.len() * std::mem::size_of::<RecordedEvent>()) as u64
    }

    /// Bytes the recorder has allocated (reserved columns and the event
    /// log's capacity): what the run actually holds in memory.
    pub fn allocated_bytes(&self) -> u64 {
        let values: usize = self.columns.iter().map(Vec::capacity).sum();
        (values * std::mem::size_of::<f64>()
            + self.events.capacity() * std::mem::size_of::<RecordedEvent>()) as u64
    }

    pub(crate) fn begin_row(&mut self, now_ns: u64) {
        self.columns[0].push(now_ns as f64 / 1e9);
        self.next_column = 1;
    }

    pub(crate) fn flow_values(&mut self, values: [f64; FLOW_COLUMNS.len()]) {
        for v in values {
            self.columns[self.next_column].push(v);
            self.next_column += 1;
        }
    }

    /// The bottleneck's occupancy (packets) and queueing delay (ms), then
    /// each host's interface queue, then the probe's latest round trip (ms)
    /// when the recorder has that column.
    pub(crate) fn queue_values(
        &mut self,
        bottleneck: f64,
        bottleneck_delay_ms: f64,
        hosts_ifq: impl Iterator<Item = f64>,
        hosts_ring: impl Iterator<Item = f64>,
        probe_rtt_ms: f64,
    ) {
        for v in [bottleneck, bottleneck_delay_ms] {
            self.columns[self.next_column].push(v);
            self.next_column += 1;
        }
        for v in hosts_ifq.chain(hosts_ring) {
            self.columns[self.next_column].push(v);
            self.next_column += 1;
        }
        if self.probe {
            self.columns[self.next_column].push(probe_rtt_ms);
            self.next_column += 1;
        }
        debug_assert!(self.next_column + 1 >= self.columns.len());
        debug_assert!(self.flows * FLOW_COLUMNS.len() < self.columns.len());
    }

    /// A sender action moved flow `flow` from state `before` to `after`:
    /// the event log records the state it entered, if it changed. (The
    /// action's own event, a timeout or fast retransmit, goes first.)
    pub(crate) fn state_change(
        &mut self,
        now_ns: u64,
        flow: usize,
        before: crate::cc::CaState,
        after: crate::cc::CaState,
    ) {
        if after != before {
            self.event(now_ns, flow, EventKind::entered(after));
        }
    }

    pub(crate) fn event(&mut self, now_ns: u64, flow: usize, kind: EventKind) {
        if self.events.len() < MAX_STORED_EVENTS {
            if self.events.len() == self.events.capacity() {
                // Grow by doubling, but never past the cap.
                let target = (2 * self.events.len()).clamp(64, MAX_STORED_EVENTS);
                self.events.reserve_exact(target - self.events.len());
            }
            self.events.push(RecordedEvent {
                time_s: now_ns as f64 / 1e9,
                flow: flow as u32,
                kind,
            });
        } else {
            self.events_dropped += 1;
        }
    }
}

#[cfg(test)]
mod event_name_tests {
    use super::EventKind::*;

    /// Each name belongs to the kind of its number: the enum's own name in
    /// snake case (the table and the enum cannot drift apart).
    #[test]
    fn each_event_kind_is_named_by_its_number() {
        let kinds = [
            NetworkLoss,
            LocalCongestion,
            FastRetransmit,
            Timeout,
            EcnMark,
            EnteredOpen,
            EnteredDisorder,
            EnteredCwr,
            EnteredRecovery,
            EnteredLoss,
        ];
        for (i, kind) in kinds.into_iter().enumerate() {
            assert_eq!(kind as usize, i);
            let snake: String = format!("{kind:?}")
                .chars()
                .enumerate()
                .flat_map(|(j, c)| {
                    let lower = c.to_ascii_lowercase();
                    if c.is_ascii_uppercase() && j > 0 {
                        vec!['_', lower]
                    } else {
                        vec![lower]
                    }
                })
                .collect();
            assert_eq!(kind.name(), snake);
        }
    }
}
