// Typed facade over the wasm engine's RawSimulation.

import { parseColumns, SeriesBuffer, type ColumnLayout, type RunSeries } from './columns';
import { parseValidationErrors, toEngineError, type EngineError } from './errors';
import { parseEvents } from './events';
import type { TraceRead } from './protocol';
import type { RawEngine, RawSimulationLike } from './raw';
import type { AlgorithmInfo, AqmInfo, ProfileCatalogue, EngineEvent, ResourceEstimate, RunSummary, Scenario, ValidationError } from './types';

/** Thrown by the facade; carries the classified engine error. */
export class EngineRunError extends Error {
  readonly error: EngineError;
  constructor(error: EngineError) {
    super(error.kind === 'validation' ? error.errors.map((e) => `${e.field}: ${e.message}`).join('; ') : error.message);
    this.name = 'EngineRunError';
    this.error = error;
  }
}

function guard<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof EngineRunError) throw e;
    throw new EngineRunError(toEngineError(e));
  }
}

export interface DrainedChunk {
  /** Column-major samples (layout.names.length × rows). */
  samples: Float64Array;
  rows: number;
  /** Flat [t_s, flow, kind] triples. */
  events: Float64Array;
}

/** Ensure an array owns its buffer (never a view into wasm memory), so it can be transferred. */
export function ownedCopy(a: Float64Array): Float64Array {
  return a.byteOffset === 0 && a.byteLength === a.buffer.byteLength && a.buffer instanceof ArrayBuffer ? a : a.slice();
}

export class Simulation {
  readonly layout: ColumnLayout;
  private raw: RawSimulationLike | null;

  private constructor(raw: RawSimulationLike) {
    this.raw = raw;
    try {
      this.layout = parseColumns(JSON.parse(raw.sample_columns()) as string[]);
    } catch (e) {
      raw.free();
      this.raw = null;
      throw e instanceof EngineRunError ? e : new EngineRunError(toEngineError(e));
    }
  }

  /** Build a simulation; throws EngineRunError (kind 'validation' for a bad scenario). */
  static create(engine: RawEngine, scenario: Scenario | string): Simulation {
    const json = typeof scenario === 'string' ? scenario : JSON.stringify(scenario);
    const raw = guard(() => new engine.RawSimulation(json));
    return new Simulation(raw);
  }

  private get r(): RawSimulationLike {
    if (!this.raw) throw new EngineRunError({ kind: 'internal', message: 'simulation already freed' });
    return this.raw;
  }

  get nowNs(): number {
    return guard(() => this.r.now_ns());
  }
  get durationNs(): number {
    return guard(() => this.r.duration_ns());
  }
  get flowCount(): number {
    return guard(() => this.r.flow_count());
  }

  /** Simulate up to `untilNs`; true once the whole duration is done. */
  advance(untilNs: number): boolean {
    return guard(() => this.r.advance(untilNs));
  }

  /** New samples and events since the previous call. */
  drain(): DrainedChunk {
    return guard(() => {
      const samples = ownedCopy(this.r.drain_samples());
      const events = ownedCopy(this.r.drain_events());
      const n = this.layout.names.length;
      if (samples.length % n !== 0) {
        throw new EngineRunError({ kind: 'internal', message: `sample chunk of ${samples.length} values for ${n} columns` });
      }
      return { samples, rows: samples.length / n, events };
    });
  }

  summary(): RunSummary {
    return guard(() => JSON.parse(this.r.summary_json()) as RunSummary);
  }

  /** Engine events processed so far. */
  get processedEvents(): number {
    return guard(() => this.r.processed_events());
  }

  free(): void {
    const raw = this.raw;
    this.raw = null;
    if (raw) {
      try {
        raw.free();
      } catch {
        // A trapped instance may fail to free; it is being discarded anyway.
      }
    }
  }
}

export interface CompletedRun {
  series: RunSeries;
  events: EngineEvent[];
  summary: RunSummary;
}

/** Run a scenario to the end in one go (node scripts, benches, tests). */
export function runToCompletion(engine: RawEngine, scenario: Scenario | string, stepNs = 1e9): CompletedRun {
  const sim = Simulation.create(engine, scenario);
  try {
    const buffer = new SeriesBuffer(sim.layout);
    const events: EngineEvent[] = [];
    const duration = sim.durationNs;
    let done = false;
    while (!done) {
      done = sim.advance(Math.min(sim.nowNs + stepNs, duration));
      const chunk = sim.drain();
      buffer.append(chunk.samples);
      events.push(...parseEvents(chunk.events));
    }
    return { series: buffer.series(), events, summary: sim.summary() };
  } finally {
    sim.free();
  }
}

export function validateScenario(engine: RawEngine, scenario: Scenario | string): ValidationError[] {
  const json = typeof scenario === 'string' ? scenario : JSON.stringify(scenario);
  const text = guard(() => engine.validate_scenario(json));
  const errors = parseValidationErrors(text);
  if (!errors) throw new EngineRunError({ kind: 'internal', message: `unexpected validate_scenario output: ${text.slice(0, 200)}` });
  return errors;
}

/**
 * A Mahimahi trace file's text read by the engine (`read_trace_json`): the
 * trace for `bottleneck.trace`, or the problems naming the file's line.
 */
export function readTrace(engine: RawEngine, text: string, name: string): TraceRead {
  const out = guard(() => engine.read_trace_json(text, name));
  let parsed: unknown;
  try {
    parsed = JSON.parse(out);
  } catch {
    parsed = null;
  }
  const r = parsed as Partial<TraceRead> | null;
  if (!r || !Array.isArray(r.errors) || typeof r.mean_bps !== 'number' || (r.trace !== null && typeof r.trace !== 'object')) {
    throw new EngineRunError({ kind: 'internal', message: `unexpected read_trace_json output: ${out.slice(0, 200)}` });
  }
  return { trace: r.trace ?? null, mean_bps: r.mean_bps, errors: r.errors };
}

/**
 * What a run of `scenario` will record and roughly how much work it is (the
 * engine's resource model); throws EngineRunError (kind 'validation') when
 * the scenario cannot be read at all.
 */
export function estimateResources(engine: RawEngine, scenario: Scenario | string): ResourceEstimate {
  const json = typeof scenario === 'string' ? scenario : JSON.stringify(scenario);
  const text = guard(() => engine.estimate_resources_json(json));
  const errors = parseValidationErrors(text);
  if (errors) throw new EngineRunError({ kind: 'validation', errors });
  return guard(() => JSON.parse(text) as ResourceEstimate);
}

export function defaultScenario(engine: RawEngine): Scenario {
  return guard(() => JSON.parse(engine.default_scenario_json()) as Scenario);
}

/** The testbed profiles and their switches (docs/profiles.md). */
export function profiles(engine: RawEngine): ProfileCatalogue {
  return guard(() => JSON.parse(engine.profiles_json()) as ProfileCatalogue);
}

export function aqmCatalogue(engine: RawEngine): AqmInfo[] {
  return guard(() => JSON.parse(engine.aqm_catalogue_json()) as AqmInfo[]);
}

export function catalogue(engine: RawEngine): AlgorithmInfo[] {
  return guard(() => JSON.parse(engine.catalogue_json()) as AlgorithmInfo[]);
}
