// The page side of the engine worker: a promise/subscription API over the
// message protocol. One run at a time; starting a run cancels the previous.

import type { EngineError } from './errors';
import type { EngineInfo, FromWorker, RunDebug, RunReply, ToWorker, TraceRead } from './protocol';
import type { ResourceEstimate, RunSummary, Scenario, ValidationError } from './types';

/** The part of Worker the client uses (a fake in unit tests). */
export interface WorkerLike {
  postMessage(msg: ToWorker): void;
  terminate(): void;
  onmessage: ((ev: MessageEvent<FromWorker>) => void) | null;
  onerror: ((ev: ErrorEvent) => void) | null;
}

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

interface Pending {
  id: number;
  handlers: RunHandlers;
  resolve: (r: RunResult) => void;
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

/** Clock and timers, injected so tests can drive the heartbeat deterministically. */
export interface ClientTimers {
  now(): number;
  setInterval(f: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

const BROWSER_TIMERS: ClientTimers = {
  now: () => performance.now(),
  setInterval: (f, ms) => setInterval(f, ms),
  clearInterval: (h) => clearInterval(h as ReturnType<typeof setInterval>),
};

export function createModuleWorker(): WorkerLike {
  return new Worker(new URL('./worker.ts', import.meta.url), { type: 'module', name: 'sawtooth-engine' }) as WorkerLike;
}

export class EngineClient {
  private worker: WorkerLike | null = null;
  private nextId = 1;
  private pending: Pending | null = null;
  private readyPromise: Promise<EngineInfo> | null = null;
  private readyResolve: ((info: EngineInfo) => void) | null = null;
  private readyReject: ((e: EngineError) => void) | null = null;
  /** Number of workers started (1 + restarts after traps). */
  restarts = -1;
  private readonly createWorker: () => WorkerLike;
  /** Outstanding validate() requests by id. */
  private validations = new Map<number, { resolve: (e: ValidationError[]) => void; reject: (e: EngineError) => void }>();
  /** Outstanding readTrace() requests by id. */
  private traceReads = new Map<number, { resolve: (r: TraceRead) => void; reject: (e: EngineError) => void }>();
  /** The current worker has announced itself ready (a later failure is a crash, not a load error). */
  private workerReady = false;

  private readonly timers: ClientTimers;
  /** When the current worker last spoke, or was last asked something (timers.now()). */
  private lastHeard = 0;
  /** When the watchdog last ran (timers.now()). */
  private lastCheck = 0;
  private watchdog: unknown = null;

  constructor(createWorker: () => WorkerLike = createModuleWorker, timers: ClientTimers = BROWSER_TIMERS) {
    this.createWorker = createWorker;
    this.timers = timers;
  }

  /** Resolves with the engine's defaults and catalogue once it is loaded. */
  ready(): Promise<EngineInfo> {
    this.ensureWorker();
    return this.readyPromise!;
  }

  run(scenario: Scenario, handlers: RunHandlers = {}, options: RunOptions = {}): RunHandle {
    this.cancelPending();
    const worker = this.ensureWorker();
    const id = this.nextId++;
    let resolve!: (r: RunResult) => void;
    const result = new Promise<RunResult>((r) => (resolve = r));
    this.pending = { id, handlers, resolve };
    const { debug, confirmAboveEvents } = options;
    worker.postMessage({ id, call: { type: 'run', scenario, ...(debug ? { debug } : {}), ...(confirmAboveEvents !== undefined ? { confirmAboveEvents } : {}) } });
    this.expectAnswer();
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
  validate(scenario: Scenario): Promise<ValidationError[]> {
    const worker = this.ensureWorker();
    const id = this.nextId++;
    return new Promise<ValidationError[]>((resolve, reject) => {
      this.validations.set(id, { resolve, reject });
      worker.postMessage({ id, call: { type: 'validate', scenario } });
      this.expectAnswer();
    });
  }

  /**
   * A Mahimahi trace file (its text) read by the engine's rules: the trace
   * for `bottleneck.trace`, or the problems, each naming the file's line.
   * Rejects with an EngineError when the engine cannot answer.
   */
  readTrace(text: string, name: string): Promise<TraceRead> {
    const worker = this.ensureWorker();
    const id = this.nextId++;
    return new Promise<TraceRead>((resolve, reject) => {
      this.traceReads.set(id, { resolve, reject });
      worker.postMessage({ id, call: { type: 'readTrace', text, name } });
      this.expectAnswer();
    });
  }

  dispose(): void {
    this.cancelPending();
    this.worker?.terminate();
    this.worker = null;
    this.disarm();
  }

  /** Something was asked of the worker: start (or keep) watching for its silence. */
  private expectAnswer(): void {
    this.lastHeard = this.timers.now();
    if (this.watchdog === null) {
      this.lastCheck = this.lastHeard;
      this.watchdog = this.timers.setInterval(() => this.checkHeartbeat(), HEARTBEAT_CHECK_MS);
    }
  }

  private disarm(): void {
    if (this.watchdog === null) return;
    this.timers.clearInterval(this.watchdog);
    this.watchdog = null;
  }

  private awaitingAnswer(): boolean {
    return this.pending !== null || this.validations.size > 0 || this.traceReads.size > 0;
  }

  /**
   * A loaded worker that owes an answer and has been silent for
   * HEARTBEAT_TIMEOUT_MS is reported as a crash and replaced. Before it is
   * ready, loading (fetching and compiling the wasm) may take longer, and a
   * failure to load is reported by the worker's error event.
   */
  private checkHeartbeat(): void {
    const w = this.worker;
    if (!w || !this.awaitingAnswer()) {
      this.disarm();
      return;
    }
    const now = this.timers.now();
    const pageWasBlocked = now - this.lastCheck > 2 * HEARTBEAT_CHECK_MS;
    this.lastCheck = now;
    if (!this.workerReady) return;
    // The watchdog itself ran late: the page's own thread was blocked, and
    // the worker's answer may be waiting behind it. Count silence afresh.
    if (pageWasBlocked) {
      this.lastHeard = now;
      return;
    }
    if (now - this.lastHeard < HEARTBEAT_TIMEOUT_MS) return;
    this.onWorkerFailure(w, {
      kind: 'trap',
      message: `the engine stopped responding for ${HEARTBEAT_TIMEOUT_MS / 1000} s (its worker exited or hung without an error)`,
    });
  }

  private cancelPending(): void {
    const p = this.pending;
    if (!p) return;
    this.pending = null;
    this.worker?.postMessage({ id: p.id, call: { type: 'cancel' } });
    p.resolve({ status: 'cancelled' });
  }

  private ensureWorker(): WorkerLike {
    if (this.worker) return this.worker;
    this.restarts++;
    const w = this.createWorker();
    this.worker = w;
    this.workerReady = false;
    if (!this.readyPromise) {
      this.readyPromise = new Promise<EngineInfo>((res, rej) => {
        this.readyResolve = res;
        this.readyReject = rej;
      });
      // Avoid an unhandled rejection when nobody awaits ready().
      this.readyPromise.catch(() => undefined);
    }
    w.onmessage = (ev) => this.onMessage(w, ev.data);
    w.onerror = (ev) => {
      ev.preventDefault?.();
      // A worker that was running fine and then died is a crash; the next
      // run starts a fresh one.
      this.onWorkerFailure(
        w,
        this.workerReady
          ? { kind: 'trap', message: `the engine worker stopped unexpectedly${ev.message ? `: ${ev.message}` : ''}` }
          : { kind: 'load', message: ev.message || 'the engine worker failed to start' },
      );
    };
    return w;
  }

  /** Drop a broken worker; the next run() starts a fresh one (a fresh wasm instance). */
  private discardWorker(w: WorkerLike): void {
    if (this.worker !== w) return;
    w.onmessage = null;
    w.onerror = null;
    w.terminate();
    this.worker = null;
  }

  private onWorkerFailure(w: WorkerLike, error: EngineError): void {
    this.discardWorker(w);
    this.disarm();
    this.readyReject?.(error);
    this.readyReject = null;
    this.readyResolve = null;
    this.readyPromise = null;
    const p = this.pending;
    if (p) {
      this.pending = null;
      p.resolve({ status: 'error', error });
    }
    const v = this.validations;
    this.validations = new Map();
    for (const { reject } of v.values()) reject(error);
    const t = this.traceReads;
    this.traceReads = new Map();
    for (const { reject } of t.values()) reject(error);
  }

  private onMessage(w: WorkerLike, msg: FromWorker): void {
    if (this.worker !== w) return;
    this.lastHeard = this.timers.now();
    switch (msg.type) {
      case 'ready':
        this.workerReady = true;
        this.readyResolve?.(msg.info);
        this.readyResolve = null;
        this.readyReject = null;
        return;
      case 'load-error':
        // The engine itself failed: every request fails with it, the next starts a fresh worker.
        this.onWorkerFailure(w, msg.error);
        return;
      case 'error':
        this.onError(w, msg.id, msg.error, msg.fatal);
        return;
      case 'reply':
        this.onReply(msg.id, msg.reply);
        return;
    }
  }

  private onError(w: WorkerLike, id: number, error: EngineError, fatal: boolean): void {
    const validation = this.validations.get(id) ?? this.traceReads.get(id);
    if (validation) {
      this.validations.delete(id);
      this.traceReads.delete(id);
      validation.reject(error);
    } else if (this.pending?.id === id) {
      const p = this.pending;
      this.pending = null;
      p.resolve({ status: 'error', error });
    }
    if (fatal) this.onWorkerFailure(w, error);
  }

  private onReply(id: number, reply: RunReply): void {
    if (reply.type === 'validated') {
      this.validations.get(id)?.resolve(reply.errors);
      this.validations.delete(id);
      return;
    }
    if (reply.type === 'traceRead') {
      this.traceReads.get(id)?.resolve({ trace: reply.trace, mean_bps: reply.mean_bps, errors: reply.errors });
      this.traceReads.delete(id);
      return;
    }
    const p = this.pending;
    if (!p || id !== p.id) return; // stale message of a cancelled run
    switch (reply.type) {
      case 'started':
        p.handlers.onStart?.({ columns: reply.columns, flowCount: reply.flowCount, durationNs: reply.durationNs, estimate: reply.estimate });
        break;
      case 'chunk':
        p.handlers.onChunk?.({ samples: reply.samples, rows: reply.rows, events: reply.events, nowNs: reply.nowNs, durationNs: reply.durationNs });
        break;
      case 'done':
        this.pending = null;
        p.resolve({ status: 'done', summary: reply.summary, wallMs: reply.wallMs, events: reply.events });
        break;
      case 'confirm':
        this.pending = null;
        p.resolve({ status: 'confirm', estimate: reply.estimate });
        break;
      case 'cancelled':
        this.pending = null;
        p.resolve({ status: 'cancelled' });
        break;
    }
  }
}
