// The shape of the single-run wasm-bindgen module built from
// engine-wasm/bindings (app/src/engine/pkg/sawtooth_bindings.js; the guided
// labs have their own, see ../guided/engineApi.ts). Written by hand so that
// the pure parts of the facade, the worker logic and their tests do not need
// the build artifact; worker.ts checks at compile time that the real module
// fits.

export interface RawSimulationLike {
  advance(until_ns: number): boolean;
  now_ns(): number;
  duration_ns(): number;
  flow_count(): number;
  sample_columns(): string;
  drain_samples(): Float64Array;
  drain_events(): Float64Array;
  summary_json(): string;
  /** Engine events processed so far (the unit of the resource model's estimate). */
  processed_events(): number;
  free(): void;
}

export interface RawEngine {
  RawSimulation: new (scenario_json: string) => RawSimulationLike;
  catalogue_json(): string;
  /** The queue disciplines (core/src/aqm/catalogue.rs). */
  aqm_catalogue_json(): string;
  profiles_json(): string;
  default_scenario_json(): string;
  validate_scenario(json: string): string;
  /** The resource model's estimate for a scenario (core/src/resources.rs), or `{"errors": […]}`. */
  estimate_resources_json(json: string): string;
  /** A Mahimahi trace file read by the engine's rules (core/src/link_trace.rs): `{"trace", "mean_bps", "errors"}`. */
  read_trace_json(text: string, name: string): string;
  /** Deliberately trap (a Rust panic), to test recovery end to end. */
  debug_trap?(): void;
}
