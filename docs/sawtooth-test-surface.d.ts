// Sawtooth's public test surface, as TypeScript declarations: the types of
// window.sawtooth and of everything it returns (docs/TEST-SURFACE.md says
// what each value means). Copy this file into your own Playwright project
// and import it (types only, nothing from Sawtooth's app code):
//
//   import type { Sawtooth } from './sawtooth-test-surface';
//   const state = await page.evaluate(() => window.sawtooth!.whenDone());
//
// Importing it also declares `window.sawtooth` (optional: the page defines it
// when its script has run). The page's own hooks (app/src/testHooks.ts)
// are checked against this file when Sawtooth is compiled, so the two cannot
// drift apart. `contractVersion` is the version of this contract; it changes
// (and TEST-SURFACE.md says how) whenever anything promised here changes.

/** The version of the test surface these declarations describe (stated at the top of TEST-SURFACE.md). */
export type ContractVersion = 26;

// ------------------------------------------------------------------ run state

/**
 * `<html data-run-state>`: what the page shows. 'waiting': a run estimated
 * to take over a minute on this machine is held until the user starts it
 * (the last finished run stays on screen); 'stopped': the user stopped the
 * run, and what it computed stays on screen.
 */
export type RunState = 'idle' | 'running' | 'done' | 'error' | 'waiting' | 'stopped';

/** The states in which nothing runs, and nothing will without the user: what whenDone() resolves with. */
export type SettledState = 'done' | 'error' | 'waiting' | 'stopped';

// ------------------------------------------------------------------ scenario (the engine's JSON format)

/** Queue management at the bottleneck. */
export type Aqm =
  | { kind: 'drop_tail' }
  | {
      kind: 'red';
      min_th_pkts: number;
      max_th_pkts: number;
      max_p: number;
      /** EWMA weight of the average queue (w_q). */
      weight: number;
      ecn: boolean;
    }
  /** CoDel (RFC 8289); absent fields take the RFC's defaults (5 ms, 100 ms, no ECN). */
  | { kind: 'codel'; target_ms?: number; interval_ms?: number; ecn?: boolean }
  /** FQ-CoDel (RFC 8290); defaults 5 ms, 100 ms, 1514 bytes, 1024 queues, no ECN. */
  | { kind: 'fq_codel'; target_ms?: number; interval_ms?: number; quantum_bytes?: number; flows?: number; ecn?: boolean }
  /** PIE (RFC 8033); defaults 15 ms, 15 ms, 0.125, 1.25, 150 ms, no ECN. */
  | { kind: 'pie'; target_ms?: number; t_update_ms?: number; alpha?: number; beta?: number; max_burst_ms?: number; ecn?: boolean }
  /** DCTCP's step marking (RFC 8257 §3.1): mark CE from K packets waiting; default K = 20. */
  | { kind: 'step_mark'; threshold_pkts?: number }
  /** DualPI2, the L4S dual queue (RFC 9332; Linux sch_dualpi2.c); defaults 15 ms, 16 ms, 41/256, 819/256, 1 ms, k = 2, 10 %, drop on overload. */
  | {
      kind: 'dualpi2';
      target_ms?: number;
      t_update_ms?: number;
      alpha?: number;
      beta?: number;
      step_thresh_ms?: number;
      coupling?: number;
      c_protection_pct?: number;
      drop_overload?: boolean;
    };

/** A ping through the bottleneck at a fixed interval (defaults 200 ms, 84 bytes). */
export interface LatencyProbe {
  interval_ms?: number;
  size_bytes?: number;
}

export interface Bottleneck {
  /** b/s on the wire (Ethernet framing included); ignored when `trace` is given. */
  rate_bps: number;
  /** Packets that may wait, not counting the one being transmitted. */
  buffer_pkts: number;
  aqm: Aqm;
  /** A trace-driven link (Mahimahi's format): the link sends when the trace says. */
  trace?: LinkTrace;
}

/**
 * A delivery-opportunity trace in Mahimahi's format: each entry one
 * opportunity for 1504 bytes at that millisecond (whole, non-decreasing);
 * the trace repeats with its last entry as period.
 */
export interface LinkTrace {
  /** For display: a file name, or a built-in trace's id. */
  name?: string;
  opportunities_ms: number[];
}

export type CwndCounting = 'per_packet' | 'per_ack';
export type HighSpeedRule = 'formula' | 'table';
export type ScalableRule = 'kelly' | 'linux_ai_count';
export type RtoRule = 'rfc6298' | 'linux';
export type RecoveryRule = 'prr' | 'prr_safe_ack' | 'rate_halving' | 'rfc6675';
export type CubicVersion = 'rfc9438' | 'linux2622' | 'linux6';
export type CwrRule = 'algorithm' | 'halve';
export type LostRetransmitRule = 'timeout' | 'recovery' | 'rack';
export type RtoRestartRule = 'ack' | 'head_retransmit';

/** Single-switch overrides of the testbed profile (docs/profiles.md). */
export interface MechanismOverrides {
  cwnd_counting?: CwndCounting;
  highspeed?: HighSpeedRule;
  scalable?: ScalableRule;
  rto?: RtoRule;
  initial_rto_ms?: number;
  recovery?: RecoveryRule;
  cubic?: CubicVersion;
  nic_ring_pkts?: number;
  interrupt_interval_us?: number;
  rmem_max_bytes?: number;
  host_send_limit_bps?: number;
  delay_granularity_us?: number;
  nic_ring_descriptors?: number;
  tx_completion_us?: number;
  interrupt_throttle_us?: number;
  timer_hz?: number;
  clock_tolerance_ppm?: number;
  cwr?: CwrRule;
  receiver_interrupt_us?: number;
  receiver_interrupt_throttle_us?: number;
  lost_retransmit?: LostRetransmitRule;
  rto_restart?: RtoRestartRule;
}

/** One bulk TCP transfer (an iperf stream). */
export interface Flow {
  /** An id from the algorithm catalogue ("reno", "scalable", …). */
  algorithm: string;
  /** Algorithm parameters by id; missing ones take the catalogue default. */
  params: { [key in string]: number };
  /** Socket buffer: the receiver's advertised window, bytes. */
  window_bytes: number;
  start_ms: number;
  /** null: runs to the end. */
  stop_ms: number | null;
  /** Extra two-way delay of this flow only, ms. */
  extra_delay_ms: number;
}

/** A sender host: one NIC with its interface queue, any number of flows. */
export interface Host {
  nic_bps: number;
  /** Interface queue length, packets (`ifconfig txqueuelen`). */
  txqueuelen_pkts: number;
  flows: Flow[];
}

export interface TcpConfig {
  initial_cwnd_pkts: number;
  /** null: Linux's "infinite" ssthresh. */
  initial_ssthresh_pkts: number | null;
  delayed_ack: boolean;
  sack: boolean;
  /**
   * Sequence number of each flow's first segment, 0 to 4294967295 (the
   * engine numbers segments modulo 2^32). Absent: each flow draws its own
   * from the seed. No result depends on it.
   */
  initial_sequence?: number;
}

/** A whole experiment (the engine's scenario document). */
export interface Scenario {
  version: number;
  seed: number;
  duration_ms: number;
  sample_interval_ms: number;
  /** MSS = mtu_bytes − 52. */
  mtu_bytes: number;
  /** Two-way propagation delay, ms. */
  rtt_ms: number;
  /** Loss probability per data packet after the bottleneck. */
  loss_rate: number;
  /** Testbed profile id. */
  profile: string;
  mechanisms: MechanismOverrides;
  tcp: TcpConfig;
  bottleneck: Bottleneck;
  hosts: Host[];
  /** The latency probe, when on. */
  probe?: LatencyProbe;
}

/** One problem with a scenario: the field, the value and the rule. */
export interface ValidationError {
  field: string;
  value: string;
  message: string;
}

// ------------------------------------------------------------------ summary

export interface FlowSummary {
  flow: number;
  host: number;
  algorithm: string;
  /** Payload delivered in order per second of the flow's active time, b/s (iperf). */
  mean_throughput_bps: number;
  /** This flow's fraction of all delivered payload. */
  share: number;
  /** Time-average of cwnd while the flow was active, packets. */
  mean_cwnd_pkts: number;
  drops: number;
  ecn_marks: number;
  local_congestion_events: number;
  ifq_refusals: number;
  retransmits: number;
  /** Retransmitted segments over all segments sent. */
  retransmission_rate: number;
  fast_retransmits: number;
  timeouts: number;
  /** Seconds from the flow's start until its 1-s average throughput first reached 90% of its final rate. */
  time_to_90pct_s: number | null;
}

export interface HostSummary {
  host: number;
  mean_throughput_bps: number;
}

/** The latency probe's round trips; percentiles by nearest rank, null when no probe came back. */
export interface ProbeSummary {
  sent: number;
  received: number;
  /** Dropped at the bottleneck. */
  lost: number;
  rtt_median_ms: number | null;
  rtt_p99_ms: number | null;
  rtt_min_ms: number | null;
  rtt_mean_ms: number | null;
}

/** The finished run's summary. */
export interface RunSummary {
  duration_s: number;
  flows: FlowSummary[];
  hosts: HostSummary[];
  total_throughput_bps: number;
  /** min(bottleneck rate, sum of NIC rates), b/s on the wire. */
  capacity_bps: number;
  /** Total (payload) throughput over capacity: at most MSS / (MTU + 38). */
  utilisation: number;
  /** Jain's index over the flows' mean throughputs. */
  jain_index: number;
  bottleneck_drops: number;
  ecn_marks: number;
  /** Data packets that crossed the bottleneck. */
  packets_delivered: number;
  events_not_stored: number;
  /** The latency probe's round trips, when the scenario has a probe. */
  probe?: ProbeSummary;
  /** What went wrong, when the engine flagged the run (section 3). */
  flags?: RunFlag[];
}

/** One thing that went wrong in a run, in the engine's words. */
export interface RunFlag {
  kind: 'retransmissions' | 'timeouts' | 'idle_link';
  /** 0-based flow index; absent for the link. */
  flow?: number;
  text: string;
}

// ------------------------------------------------------------------ errors

export type EngineError =
  | { kind: 'validation'; errors: ValidationError[] }
  | { kind: 'trap'; message: string }
  | { kind: 'load'; message: string }
  | { kind: 'internal'; message: string };

// ------------------------------------------------------------------ events

/**
 * Every kind window.sawtooth.events() reports (TEST-SURFACE.md §3.2, with their meaning), in the
 * engine's numbering 0…9; 'unknown' is a number this page does not know
 * (a newer engine).
 */
export type EventKind =
  | 'network_loss'
  | 'local_congestion'
  | 'fast_retransmit'
  | 'timeout'
  | 'ecn_mark'
  | 'entered_open'
  | 'entered_disorder'
  | 'entered_cwr'
  | 'entered_recovery'
  | 'entered_loss'
  | 'unknown';

export interface EngineEvent {
  /** Simulated time, seconds. */
  t_s: number;
  /** Flow number (0-based, hosts in order). */
  flow: number;
  kind: EventKind;
}

// ------------------------------------------------------------------ samples

/** One flow's sample columns (TEST-SURFACE.md §3.1), one value per sample. */
export interface FlowSeries {
  cwnd_pkts: Float64Array;
  cwnd_bytes: Float64Array;
  /** NaN: infinite. */
  ssthresh_pkts: Float64Array;
  outstanding_bytes: Float64Array;
  outstanding_avg_bytes: Float64Array;
  outstanding_wavg_bytes: Float64Array;
  throughput_bps: Float64Array;
  srtt_ms: Float64Array;
  /** 0 Open, 1 Disorder, 2 CWR, 3 Recovery, 4 Loss; NaN before the flow starts. */
  state: Float64Array;
  /** What tcpdump on the sender sees: handed to the NIC driver, not yet acknowledged. */
  outstanding_captured_bytes: Float64Array;
}

/** The run's samples, all columns of the same length. */
export interface RunSeries {
  length: number;
  /** Sample times, seconds. */
  t: Float64Array;
  flows: FlowSeries[];
  /** Packets at the bottleneck, the one in transmission included (0 … buffer_pkts + 1). */
  bottleneck_queue_pkts: Float64Array;
  /** Queueing delay of the packet that last left the bottleneck, ms (0 while idle). */
  bottleneck_delay_ms: Float64Array;
  /** The latency probe's latest round trip, ms (NaN before the first); empty without a probe. */
  probe_rtt_ms: Float64Array;
  /** A trace-driven bottleneck's delivery opportunities in each interval at 1504 bytes, b/s (`link.capacity_bps`); empty without a trace. */
  link_capacity_bps: Float64Array;
  /** Each host's interface queue, the one in transmission included (0 … txqueuelen_pkts + 1). */
  /** `ring_pkts`: frames in the host's driver ring, the one on the wire included (`h<h>.ring_pkts`). */
  hosts: { ifq_pkts: Float64Array; ring_pkts?: Float64Array }[];
}

// ------------------------------------------------------------------ guided labs

export type LabState = 'loading' | 'idle' | 'running' | 'done' | 'cancelled' | 'error';
export type PointStatus = 'pending' | 'running' | 'done' | 'error';

/** One point on the swept axis: a number, an [a, b] pair, or null ("unlimited"). */
export type SweepValue = number | [number, number] | null;

export type Metric =
  | 'total_throughput_mbps'
  | 'group_throughput_mbps'
  | 'flow_throughput_mbps'
  | 'standard_throughput_mbps'
  | 'standard_share'
  | 'jain_index'
  | 'utilisation'
  | 'time_to_max_rate_s'
  | 'drops'
  | 'local_congestion_events'
  | 'congestion_event_rate'
  | 'mean_outstanding_kbytes'
  | 'rank'
  | 'group_share'
  | 'probe_rtt_median_ms'
  | 'probe_rtt_p99_ms'
  | 'mean_queue_delay_ms'
  | 'mean_queue_pkts'
  | 'mean_captured_outstanding_kbytes'
  | 'group_queue_delay_ms';

export type Relation = 'value' | 'difference' | 'percent';

export interface PaperSource {
  seed: string;
  file: string;
  /** Table, figure, page or section. */
  at: string;
}

/** One paper value next to what the simulation gave. */
export interface Comparison {
  key: string;
  series: string;
  metric: Metric;
  group: number | null;
  relation: Relation;
  relative_to: string | null;
  /** For an effect across the sweep (one series at two settings): the swept value `relative_to` is taken at. */
  relative_to_x: number | null;
  /** The x (or x range) compared, as text. */
  at: string;
  /** The paper's number; null where it states only a range (no middle value is invented). */
  paper: number | null;
  paper_range: [number, number] | null;
  unit: string;
  /** null when no simulated point matches. */
  simulated: number | null;
  /** simulated − paper (null for a range). */
  difference: number | null;
  /** The simulation agrees with this number (see `agreement`); null for ranks and missing values. */
  within_tolerance: boolean | null;
  /**
   * How it was judged: a value within ±10 %, inside a stated range, an effect
   * (difference or gain between two series) with the paper's sign within a
   * factor of 1.5 of its size, or outside; null for ranks and missing values.
   */
  agreement: 'within_tolerance' | 'inside_range' | 'effect_within_factor' | 'outside' | null;
  /** Simulated points (x × seeds) averaged. */
  points: number;
  source: PaperSource;
}

/** Everything measured from one run of a sweep (fields and units: TEST-SURFACE.md §8.1). */
export interface PointResult {
  lab: string;
  series: string;
  x: SweepValue;
  seed: number;
  total_throughput_mbps: number;
  group_labels: string[];
  group_throughput_mbps: number[];
  flow_throughput_mbps: number[];
  standard_throughput_mbps: number | null;
  standard_share: number | null;
  jain_index: number;
  utilisation: number;
  time_to_max_rate_s: number | null;
  flow_time_to_max_rate_s: (number | null)[];
  drops: number;
  local_congestion_events: number;
  ecn_marks: number;
  timeouts: number;
  congestion_event_rate: number;
  group_congestion_event_rate: number[];
  mean_outstanding_kbytes: number;
  duration_s: number;
  /** Measured only in labs that list the metric (labs 12-14). */
  group_share?: number[];
  probe_rtt_median_ms?: number;
  probe_rtt_p99_ms?: number;
  mean_queue_delay_ms?: number;
  mean_queue_pkts?: number;
  mean_captured_outstanding_kbytes?: number;
  /** Each group's mean queueing delay, ms (null: none of its packets left the queue in the window); lab 16. */
  group_queue_delay_ms?: (number | null)[];
}

/** [series, combined, tie-break], best first. */
export type RankRow = [string, number, number];

export interface LabPoint {
  index: number;
  series: string;
  x: SweepValue;
  seed: number;
  status: PointStatus;
  /** Once finished. */
  result: PointResult | null;
  error: string | null;
  /** The run's complete scenario. */
  scenario: Scenario;
}

/** window.sawtooth.lab(): what the guided-labs view shows. */
export interface LabSnapshot {
  id: string;
  number: number;
  quick: boolean;
  state: LabState;
  total: number;
  completed: number;
  failed: number;
  workers: number;
  poolGeneration: number;
  points: LabPoint[];
  comparisons: Comparison[] | null;
  ranking: RankRow[] | null;
  /** The paper's findings judged on the results on screen (null: not asked yet). */
  findings: FindingOutcome[] | null;
  /** The results on screen were opened from a sweep file the CLI wrote (section 8.6), else null. */
  imported: ImportedResults | null;
}

/** A sweep file from `sawtooth sweep` or `sawtooth merge` opened in a guided lab (section 8.6). */
export interface ImportedResults {
  /** The file's name. */
  file: string;
  /** Its scale: always the lab's on screen (another is refused). */
  quick: boolean;
  /** The sweep's series filter (`--series`); empty: every series. */
  series: string[];
  /** The engine build that wrote it: the page's own, or one whose results stamp for the lab is the page's (another is refused). */
  engine: string;
  /** The results stamp in the file's closing line (`results=`). */
  stamp: string;
  /** Runs the file held. */
  runs: number;
  /** The faithful results computed ahead and shipped with the site, shown at once at the faithful scale (not opened by the user). */
  ahead: boolean;
}

/** One of the paper's findings beside what the runs show (paper.json `findings`). */
export interface FindingOutcome {
  id: string;
  text: string;
  /** held / broken: decided by these runs; pending: a run it needs is unfinished; not_run_here: the scale does not run it; not_checked: no run can decide it (note says why). */
  status: 'held' | 'broken' | 'pending' | 'not_run_here' | 'not_checked';
  /** The measured values the checks compared (where broken: where it fails). */
  detail: string;
  note: string | null;
  source: PaperSource;
}

// ------------------------------------------------------------------ window.sawtooth

/** window.sawtooth: frozen; every method returns a copy. */
export interface Sawtooth {
  /** The contract version (stated at the top of TEST-SURFACE.md). */
  readonly contractVersion: ContractVersion;
  /** As <html data-run-state>. */
  state(): RunState;
  scenario(): Scenario | null;
  summary(): RunSummary | null;
  /** The run's samples so far. */
  series(): RunSeries | null;
  error(): EngineError | null;
  /** The engine's event log of the run so far. */
  events(): EngineEvent[];
  /**
   * The id of the newest run the page has reported (running or finished);
   * 0 before the first. It only grows. Read it before changing a control,
   * then pass it to whenDone().
   */
  runId(): number;
  /**
   * Resolves with the settled state ('done', 'error', 'waiting' or
   * 'stopped') once the current run has settled and is on screen. With
   * `afterRunId`: once a run newer than that id has (never for the run that
   * was on screen when the id was read).
   */
  whenDone(afterRunId?: number): Promise<SettledState>;
  /** The guided-labs view's state; null on the lab page. */
  lab(): LabSnapshot | null;
}

declare global {
  interface Window {
    sawtooth?: Sawtooth;
  }
}
