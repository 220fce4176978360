// Engine data types shared by the page, the worker and the tests.
//
// The Scenario types mirror engine-wasm/core/src/scenario.rs. They are a
// temporary hand-written copy until the ts-rs output lands in ./generated/;
// then this block becomes a re-export of './generated/scenario'.

export type Aqm =
  | { kind: 'drop_tail' }
  | { kind: 'red'; min_th_pkts: number; max_th_pkts: number; max_p: number; weight: number; ecn: boolean };

export interface Flow {
  algorithm: string;
  params: { [key in string]: number };
  window_bytes: number;
  start_ms: number;
  stop_ms: number | null;
  extra_delay_ms: number;
}

export interface Host {
  nic_bps: number;
  txqueuelen_pkts: number;
  flows: Flow[];
}

export interface TcpConfig {
  initial_cwnd_pkts: number;
  initial_ssthresh_pkts: number | null;
  delayed_ack: boolean;
  sack: boolean;
}

export interface Bottleneck {
  rate_bps: number;
  buffer_pkts: number;
  aqm: Aqm;
}

export interface Scenario {
  version: number;
  seed: number;
  duration_ms: number;
  sample_interval_ms: number;
  mtu_bytes: number;
  rtt_ms: number;
  loss_rate: number;
  tcp: TcpConfig;
  bottleneck: Bottleneck;
  hosts: Host[];
}

/** One problem with a scenario, naming the field, the value and the rule. */
export interface ValidationError {
  field: string;
  value: string;
  message: string;
}

// ---------------------------------------------------------------- results

export interface FlowSummary {
  flow: number;
  host: number;
  algorithm: string;
  mean_throughput_bps: number;
  share: number;
  drops: number;
  local_congestion_events: number;
  retransmits: number;
  time_to_90pct_s: number | null;
}

export interface RunSummary {
  flows: FlowSummary[];
  utilisation: number;
  jain_index: number;
  total_throughput_bps: number;
  bottleneck_drops: number;
  packets_sent: number;
}

// ---------------------------------------------------------------- catalogue

export interface AlgorithmParam {
  id: string;
  name: string;
  default: number;
  min: number;
  max: number;
  step: number;
  unit: string;
  log_scale: boolean;
  description: string;
}

export interface Citation {
  label: string;
  reference: string;
}

export interface AlgorithmInfo {
  id: string;
  name: string;
  explanation: string;
  expect_on_chart: string;
  increase_tex: string;
  decrease_tex: string;
  params: AlgorithmParam[];
  citations: Citation[];
}

// ---------------------------------------------------------------- events

export const EVENT_KINDS = ['network_loss', 'local_congestion', 'fast_retransmit', 'timeout', 'ecn_mark'] as const;
export type EventKind = (typeof EVENT_KINDS)[number] | 'unknown';

export interface EngineEvent {
  t_s: number;
  flow: number;
  kind: EventKind;
}

