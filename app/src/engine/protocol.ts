// Messages between the page (EngineClient) and the engine worker (worker.ts).

import type { EngineError } from './errors';
import type { AlgorithmInfo, AqmInfo, ProfileCatalogue, ResourceEstimate, RunSummary, Scenario, ValidationError } from './types';

export type ToWorker =
  /**
   * Start a run; any run in progress is cancelled first. With
   * `confirmAboveEvents`, a run the resource model expects to take more
   * engine events than that is not started: the worker answers 'confirm'.
   */
  | { type: 'run'; id: number; scenario: Scenario; debug?: RunDebug; confirmAboveEvents?: number }
  /** Cancel a run (ignored when it is not the current one). */
  | { type: 'cancel'; id: number }
  /** Validate a scenario without running it (scenario uploads, shared links). */
  | { type: 'validate'; id: number; scenario: Scenario };

/**
 * Test switches: 'trap' makes the engine trap before the run starts; 'crash'
 * makes the worker itself die (an uncaught error in the worker) once the run
 * has started; 'exit' makes it exit silently (no error event), as a worker
 * killed by the browser does.
 */
export type RunDebug = 'trap' | 'crash' | 'exit';

export interface EngineInfo {
  defaultScenario: Scenario;
  catalogue: AlgorithmInfo[];
  /** The queue disciplines the bottleneck offers. */
  aqms: AqmInfo[];
  profiles: ProfileCatalogue;
}

export type FromWorker =
  /** The wasm engine is instantiated. */
  | { type: 'ready'; info: EngineInfo }
  /** A run was accepted: its columns and extent. */
  | { type: 'started'; id: number; columns: string[]; flowCount: number; durationNs: number; estimate: ResourceEstimate }
  /** A run held back because it is long (see 'run'): the page asks the user first. */
  | { type: 'confirm'; id: number; estimate: ResourceEstimate }
  /** New samples (column-major, transferred) and events (flat triples, transferred). */
  | { type: 'chunk'; id: number; samples: Float64Array; rows: number; events: Float64Array; nowNs: number; durationNs: number }
  /** `events`: engine events processed, for the page's measure of the engine's speed. */
  | { type: 'done'; id: number; summary: RunSummary; wallMs: number; events: number }
  | { type: 'cancelled'; id: number }
  /** Answer to 'validate': every problem, empty when the scenario is valid. */
  | { type: 'validated'; id: number; errors: ValidationError[] }
  /**
   * A run failed (id null: the engine itself failed). `fatal` means the wasm
   * instance is unusable (a trap): the client replaces the worker.
   */
  | { type: 'error'; id: number | null; error: EngineError; fatal: boolean };
