// Engine data types shared by the page, the worker and the tests.
//
// The scenario and catalogue types are generated from the Rust definitions
// (ts-rs, engine-wasm/core) into ./generated/; never write them twice.

import { EVENT_KINDS } from './generated/constants';
import type { FlowSummary as GenFlowSummary, HostSummary as GenHostSummary, Summary as GenSummary } from './generated/summary';

export type { Aqm, Bottleneck, Flow, Host, LatencyProbe, LinkTrace, MechanismOverrides, Mechanisms, Scenario, TcpConfig, ValidationError } from './generated/scenario';
export type { Profile, SwitchId, SwitchInfo } from './generated/profiles';

import type { Profile, SwitchInfo } from './generated/profiles';

/** The testbed profiles and the switches they set (engine `profiles_json`). */
export interface ProfileCatalogue {
  profiles: Profile[];
  switches: SwitchInfo[];
}
export type { AlgorithmInfo, AqmInfo, Citation, ParamInfo, ParamInfo as AlgorithmParam } from './generated/catalogue';

// ---------------------------------------------------------------- results

/**
 * ts-rs types Rust's u64 as bigint, but the engine's summary is JSON, which
 * JSON.parse turns into plain numbers: this maps the generated types to what
 * the page actually receives.
 */
export type JsonNumbers<T> = T extends bigint
  ? number
  : T extends (infer U)[]
    ? JsonNumbers<U>[]
    : T extends object
      ? { [K in keyof T]: JsonNumbers<T[K]> }
      : T;

export type FlowSummary = JsonNumbers<GenFlowSummary>;
export type HostSummary = JsonNumbers<GenHostSummary>;
export type RunSummary = JsonNumbers<GenSummary>;

// ---------------------------------------------------------------- resources

/** The engine's resource model of a run (engine-wasm/core/src/resources.rs). */
export type { BrowserMemory, ResourceEstimate } from './generated/resources';

// ---------------------------------------------------------------- events

/** The engine's event kind numbers (record.rs EVENT_KIND_NAMES, generated): 0–4 congestion events, 5–9 "entered state". */
export { EVENT_KINDS };
export type EventKind = (typeof EVENT_KINDS)[number] | 'unknown';

export interface EngineEvent {
  t_s: number;
  flow: number;
  kind: EventKind;
}

