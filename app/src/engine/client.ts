// The page side of the engine worker: a promise/subscription API over the
// message protocol. One run at a time; starting a run cancels the previous.
// The worker itself (starting it, request ids, its failure and replacement,
// the heartbeat) is the shared worker client's (workerClient.ts).

import { EngineCallError, type EngineError } from './errors';
import type { EngineInfo, RunCall, RunDebug, RunReply, TraceRead } from './protocol';
import type { ResourceEstimate, RunSummary, Scenario, ValidationError } from './types';
import { BROWSER_TIMERS, WorkerClient, type Answers, type ClientTimers, type EngineWorkerPort } from './workerClient';

export type { ClientTimers } from './workerClient';

/** The part of Worker the client uses (a fake in unit tests). */
export type WorkerLike = EngineWorkerPort<RunCall, EngineInfo, RunReply>;

export interface RunStart {
  columns: string[];
  flowCount: number;
  durationNs: number;
  /** The resource model's estimate for the run. */
  estimate: ResourceEstimate;
}

export interface RunChunk {
  samples: Float64Array;
  rows: number;
  events: Float64Array;
  nowNs: number;
  durationNs: number;
}

export type RunResult =
  /** `events`: engine events processed (with wallMs, the engine's speed here). */
  | { status: 'done'; summary: RunSummary; wallMs: number; events: number }
  /** Not started: longer than RunOptions.confirmAboveEvents; run it again with the user's consent. */
  | { status: 'confirm'; estimate: ResourceEstimate }
  | { status: 'error'; error: EngineError }
  | { status: 'cancelled' };

export interface RunHandlers {
  onStart?(start: RunStart): void;
  onChunk?(chunk: RunChunk): void;
}

export interface RunOptions {
  debug?: RunDebug;
  /** Hold back a run whose estimated engine events exceed this (RunResult 'confirm'). */
  confirmAboveEvents?: number;
}

export interface RunHandle {
  readonly id: number;
  /** Settles once; never rejects. */
  readonly result: Promise<RunResult>;
  cancel(): void;
}

/**
 * A worker that owes an answer (a run in progress, a validation) and has said
 * nothing for this long is taken for dead: a worker can exit or be killed
 * (out of memory) without an error event. A running engine reports every
 * slice (about 25 ms of wall time), so five seconds of silence is not a busy
 * engine.
 */
export const HEARTBEAT_TIMEOUT_MS = 5000;
/** How often the client checks for a silent worker while it waits for one. */
export const HEARTBEAT_CHECK_MS = 1000;

export function createModuleWorker(): WorkerLike {
  return new Worker(new URL('./worker.ts', import.meta.url), { type: 'module', name: 'sawtooth-engine' }) as WorkerLike;
}

/** The client's calls reject with the EngineError itself. */
const engineErrorOf = (e: unknown): unknown => (e instanceof EngineCallError ? e.error : e);

/** A worker's error event: a crash once it was ready, else a failure to load. */
function crashError(message: string, ready: boolean): EngineError {
  return ready
    ? { kind: 'trap', message: `the engine worker stopped unexpectedly${message ? `: ${message}` : ''}` }
    : { kind: 'load', message: message || 'the engine worker failed to start' };
}

/** A run's answers, by the run's reply types. */
function runAnswers(handlers: RunHandlers, resolve: (r: RunResult) => void): Answers<RunReply> {
  return {
    last: (reply) => reply.type === 'done' || reply.type === 'confirm' || reply.type === 'cancelled',
    reply: (reply) => {
      switch (reply.type) {
        case 'started':
          handlers.onStart?.({ columns: reply.columns, flowCount: reply.flowCount, durationNs: reply.durationNs, estimate: reply.estimate });
          break;
        case 'chunk':
          handlers.onChunk?.({ samples: reply.samples, rows: reply.rows, events: reply.events, nowNs: reply.nowNs, durationNs: reply.durationNs });
          break;
        case 'done':
          resolve({ status: 'done', summary: reply.summary, wallMs: reply.wallMs, events: reply.events });
          break;
        case 'confirm':
          resolve({ status: 'confirm', estimate: reply.estimate });
          break;
        case 'cancelled':
          resolve({ status: 'cancelled' });
          break;
      }
    },
    fail: (e) => resolve({ status: 'error', error: e.error }),
  };
}

/**
 * The engine worker's calls over the shared worker client (workerClient.ts),
 * with a heartbeat: a run reports every slice, so silence means death.
 */
export class EngineClient {
  private readonly client: WorkerClient<RunCall, EngineInfo, RunReply>;
  /** The run in progress: its request id and how to settle it as cancelled. */
  private pending: { id: number; cancelled: () => void } | null = null;

  constructor(createWorker: () => WorkerLike = createModuleWorker, timers: ClientTimers = BROWSER_TIMERS) {
    this.client = new WorkerClient(createWorker, {
      crashError,
      heartbeat: {
        timeoutMs: HEARTBEAT_TIMEOUT_MS,
        checkMs: HEARTBEAT_CHECK_MS,
        timers,
        error: { kind: 'trap', message: `the engine stopped responding for ${HEARTBEAT_TIMEOUT_MS / 1000} s (its worker exited or hung without an error)` },
      },
    });
  }

  /** Number of workers started (1 + restarts after traps). */
  get restarts(): number {
    return this.client.started - 1;
  }

  /** Resolves with the engine's defaults and catalogue once it is loaded. */
  ready(): Promise<EngineInfo> {
    return this.client.ready().catch((e: unknown) => Promise.reject(engineErrorOf(e)));
  }

  run(scenario: Scenario, handlers: RunHandlers = {}, options: RunOptions = {}): RunHandle {
    this.cancelPending();
    let resolve!: (r: RunResult) => void;
    const result = new Promise<RunResult>((r) => (resolve = r));
    const { debug, confirmAboveEvents } = options;
    const call: RunCall = { type: 'run', scenario, ...(debug ? { debug } : {}), ...(confirmAboveEvents !== undefined ? { confirmAboveEvents } : {}) };
    const id = this.client.request(call, runAnswers(handlers, (r) => {
      if (this.pending?.id === id) this.pending = null;
      resolve(r);
    }));
    this.pending = { id, cancelled: () => resolve({ status: 'cancelled' }) };
    return {
      id,
      result,
      cancel: () => {
        if (this.pending?.id === id) this.cancelPending();
      },
    };
  }

  /**
   * The engine's verdict on a scenario without running it: every problem
   * (field, value, rule), empty when valid. Rejects with an EngineError when
   * the engine cannot answer (it failed to load or the worker died).
   */
  async validate(scenario: Scenario): Promise<ValidationError[]> {
    return (await this.ask({ type: 'validate', scenario }, 'validated')).errors;
  }

  /**
   * A Mahimahi trace file (its text) read by the engine's rules: the trace
   * for `bottleneck.trace`, or the problems, each naming the file's line.
   * Rejects with an EngineError when the engine cannot answer.
   */
  async readTrace(text: string, name: string): Promise<TraceRead> {
    const reply = await this.ask({ type: 'readTrace', text, name }, 'traceRead');
    return { trace: reply.trace, mean_bps: reply.mean_bps, errors: reply.errors };
  }

  dispose(): void {
    this.cancelPending();
    this.client.terminate();
  }

  /** A call answered once, with a reply of type `type`; rejects with the EngineError. */
  private async ask<T extends RunReply['type']>(call: RunCall, type: T): Promise<Extract<RunReply, { type: T }>> {
    let reply: RunReply;
    try {
      reply = await this.client.call(call);
    } catch (e) {
      throw engineErrorOf(e);
    }
    if (reply.type !== type) throw { kind: 'internal', message: `the engine answered ${call.type} with ${reply.type}` } satisfies EngineError;
    return reply as Extract<RunReply, { type: T }>;
  }

  /** Settle the run in progress as cancelled, and tell the worker. */
  private cancelPending(): void {
    const p = this.pending;
    if (!p) return;
    this.pending = null;
    this.client.forget(p.id);
    this.client.post(p.id, { type: 'cancel' });
    p.cancelled();
  }
}
