// The engine workers' protocol: one envelope for the lab page's run worker
// (worker.ts, runner.ts, client.ts), the guided labs' workers
// (guided/labWorker.ts, guided/workerClient.ts) and the upload worker
// (share/uploadWorker.ts, share/uploadClient.ts). Requests carry an id; the
// worker says once whether its wasm engine loaded, then answers each request
// with replies or an error, always an EngineError. The page's side of every
// one of them is the shared worker client (workerClient.ts).

import type { EngineError } from './errors';
import type { AlgorithmInfo, AqmInfo, LinkTrace, ProfileCatalogue, ResourceEstimate, RunSummary, Scenario, ValidationError } from './types';

/** A request to an engine worker; its replies (or its error) carry the same id. */
export interface WorkerRequest<Call> {
  id: number;
  call: Call;
}

/** Everything an engine worker posts to the page. */
export type WorkerMessage<Info, Reply> =
  /** The wasm engine is instantiated; `info` is what the page needs from it at once. */
  | { type: 'ready'; info: Info }
  /** The wasm engine could not be instantiated: the worker is of no use. */
  | { type: 'load-error'; error: EngineError }
  /** An answer to request `id` (a run answers several times). */
  | { type: 'reply'; id: number; reply: Reply }
  /**
   * Request `id` failed. `fatal`: the wasm instance is unusable (it
   * trapped): the page replaces the worker.
   */
  | { type: 'error'; id: number; error: EngineError; fatal: boolean };

// ------------------------------------------------------------------ the run worker

export type RunCall =
  /**
   * Start a run; any run in progress is cancelled first. With
   * `confirmAboveEvents`, a run the resource model expects to take more
   * engine events than that is not started: the worker answers 'confirm'.
   */
  | { type: 'run'; scenario: Scenario; debug?: RunDebug; confirmAboveEvents?: number }
  /** Cancel the run the request id names (ignored when it is not the current one). */
  | { type: 'cancel' }
  /** Validate a scenario without running it (scenario uploads, shared links). */
  | { type: 'validate'; scenario: Scenario }
  /** Read a Mahimahi trace file (its text) by the engine's rules, for the bottleneck's trace. */
  | { type: 'readTrace'; text: string; name: string };

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

export type RunReply =
  /** A run was accepted: its columns and extent. */
  | { type: 'started'; columns: string[]; flowCount: number; durationNs: number; estimate: ResourceEstimate }
  /** A run held back because it is long (see 'run'): the page asks the user first. */
  | { type: 'confirm'; estimate: ResourceEstimate }
  /** New samples (column-major, transferred) and events (flat triples, transferred). */
  | { type: 'chunk'; samples: Float64Array; rows: number; events: Float64Array; nowNs: number; durationNs: number }
  /** `events`: engine events processed, for the page's measure of the engine's speed. */
  | { type: 'done'; summary: RunSummary; wallMs: number; events: number }
  | { type: 'cancelled' }
  /** Answer to 'validate': every problem, empty when the scenario is valid. */
  | { type: 'validated'; errors: ValidationError[] }
  /** Answer to 'readTrace'. */
  | ({ type: 'traceRead' } & TraceRead);

/**
 * A Mahimahi trace file as the engine reads it (`read_trace_json`): the
 * trace for `bottleneck.trace`, or null with the problems (each naming the
 * field and, in its message, the file's line).
 */
export interface TraceRead {
  trace: LinkTrace | null;
  /** Mean rate at 1504 bytes per opportunity, b/s (0 when refused). */
  mean_bps: number;
  errors: ValidationError[];
}

export type ToWorker = WorkerRequest<RunCall>;
export type FromWorker = WorkerMessage<EngineInfo, RunReply>;
