// Engine data types shared by the page, the worker and the tests.
//
// The scenario and catalogue types are generated from the Rust definitions
// (ts-rs, engine-wasm/core) into ./generated/; never write them twice.

export type { Aqm, Bottleneck, Flow, Host, Scenario, TcpConfig, ValidationError } from './generated/scenario';
export type { AlgorithmInfo, Citation, ParamInfo, ParamInfo as AlgorithmParam } from './generated/catalogue';

// ---------------------------------------------------------------- results
// (hand-written until the summary types are generated too)

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
  packets_delivered: number;
}

// ---------------------------------------------------------------- events

export const EVENT_KINDS = ['network_loss', 'local_congestion', 'fast_retransmit', 'timeout', 'ecn_mark'] as const;
export type EventKind = (typeof EVENT_KINDS)[number] | 'unknown';

export interface EngineEvent {
  t_s: number;
  flow: number;
  kind: EventKind;
}

