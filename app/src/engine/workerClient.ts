// The page's side of an engine worker, one stack for all three: the lab
// page's run client (client.ts), the guided labs' workers
// (guided/workerClient.ts, used by guided/pool.ts and guided/service.ts) and
// the scenario upload (share/uploadClient.ts). Each keeps its own calls
// (protocol.ts has the envelope); this owns what they share: starting the
// worker, request ids and the requests still owed an answer, transfer
// lists, the worker's failure (a load error, a trap, a crash, silence) as a
// rejection of every request it owed, and the fresh worker the next request
// starts.
//
// A worker is started by the caller's `create`: Vite bundles a module
// worker only where `new Worker(new URL('./file.ts', import.meta.url))`
// is written out, so each client keeps that one line.

import { EngineCallError, type EngineError } from './errors';
import type { WorkerMessage, WorkerRequest } from './protocol';

/** The part of Worker a client uses (a fake in unit tests). */
export interface WorkerPort<To, From> {
  postMessage(msg: To, transfer?: Transferable[]): void;
  terminate(): void;
  onmessage: ((ev: MessageEvent<From>) => void) | null;
  onerror: ((ev: ErrorEvent) => void) | null;
}

/** A worker speaking the engine workers' envelope (protocol.ts) with these calls, ready info and replies. */
export type EngineWorkerPort<Call, Info, Reply> = WorkerPort<WorkerRequest<Call>, WorkerMessage<Info, Reply>>;

/** What a request is told. */
export interface Answers<Reply> {
  reply(reply: Reply): void;
  /** Whether `reply` is the request's last answer (default: every reply is; a run answers several times). */
  last?(reply: Reply): boolean;
  /** The request failed: its own error answer, or its worker's failure (`fatal`), or the client's termination. */
  fail(e: EngineCallError): void;
}

export interface RequestOptions {
  /** Objects transferred with the request (not copied). */
  transfer?: Transferable[];
  /**
   * A worker that has not answered this request after so many ms is taken
   * for dead (options.deadlineError) and replaced: a worker can exit, or be
   * killed by the browser, without an error event.
   */
  deadlineMs?: number;
}

/** Clock and timers, injected so tests can drive the heartbeat deterministically. */
export interface ClientTimers {
  now(): number;
  setInterval(f: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

export const BROWSER_TIMERS: ClientTimers = {
  now: () => performance.now(),
  setInterval: (f, ms) => setInterval(f, ms),
  clearInterval: (h) => clearInterval(h as ReturnType<typeof setInterval>),
};

/**
 * A watchdog for a worker that reports as it works: one that owes an answer
 * and has said nothing for `timeoutMs` is taken for dead (`error`), checked
 * every `checkMs`. Before the worker is ready (fetching and compiling the
 * wasm may take longer) silence is not counted; a failure to load is
 * reported by the worker's error event.
 */
export interface Heartbeat {
  timeoutMs: number;
  checkMs: number;
  timers: ClientTimers;
  error: EngineError;
}

export interface WorkerClientOptions {
  /** What the worker's error event means: `message` is the event's (may be empty), `ready` whether the worker had said it was. */
  crashError(message: string, ready: boolean): EngineError;
  /** What a request's passed deadline means (RequestOptions.deadlineMs). */
  deadlineError?(deadlineMs: number): EngineError;
  heartbeat?: Heartbeat;
}

/** Terminating the client without saying why: its requests fail as cancelled. */
export const CANCELLED: EngineError = { kind: 'internal', message: 'cancelled' };

interface Pending<Reply> {
  answers: Answers<Reply>;
  timer?: ReturnType<typeof setTimeout>;
}

/** One started worker and whether it said it was ready. */
interface Started<Call, Info, Reply> {
  port: EngineWorkerPort<Call, Info, Reply>;
  isReady: boolean;
  ready: Promise<Info>;
  resolveReady(info: Info): void;
  rejectReady(e: EngineCallError): void;
}

/**
 * One worker at a time, started on first use and replaced by the next
 * request after it failed or was terminated. A failure (the worker's error
 * event, 'load-error', a fatal error answer, a passed deadline, a silent
 * heartbeat) terminates the worker and rejects every request it owed with
 * the same EngineCallError (fatal), and its ready promise.
 */
export class WorkerClient<Call, Info, Reply> {
  private readonly create: () => EngineWorkerPort<Call, Info, Reply>;
  private readonly options: WorkerClientOptions;
  private worker: Started<Call, Info, Reply> | null = null;
  private nextId = 1;
  private pending = new Map<number, Pending<Reply>>();
  /** Workers started so far. */
  started = 0;

  /** When the current worker last spoke, or was last asked something (heartbeat clock). */
  private lastHeard = 0;
  /** When the watchdog last ran (heartbeat clock). */
  private lastCheck = 0;
  private watchdog: unknown = null;

  constructor(create: () => EngineWorkerPort<Call, Info, Reply>, options: WorkerClientOptions) {
    this.create = create;
    this.options = options;
  }

  /** Start a worker now unless one is running (it loads its engine meanwhile). Throws what `create` throws. */
  start(): void {
    this.ensure();
  }

  /** Resolves with the worker's ready info; rejects (EngineCallError) if it fails first. Starts a worker. */
  ready(): Promise<Info> {
    return this.ensure().ready;
  }

  /** Requests still owed an answer. */
  get busy(): number {
    return this.pending.size;
  }

  /** Post `call` as a new request (starting a worker if none runs); its answers go to `answers`. Returns its id. */
  request(call: Call, answers: Answers<Reply>, options: RequestOptions = {}): number {
    const w = this.ensure();
    const id = this.nextId++;
    const p: Pending<Reply> = { answers };
    const limit = options.deadlineMs;
    if (limit !== undefined && Number.isFinite(limit)) {
      const error = this.options.deadlineError?.(limit) ?? { kind: 'trap', message: `the worker did not answer in ${limit} ms` };
      p.timer = setTimeout(() => this.fail(w, new EngineCallError(error, true)), limit);
    }
    this.pending.set(id, p);
    this.send(w, { id, call }, options.transfer);
    this.expectAnswer();
    return id;
  }

  /** A request with one answer, as a promise (rejected with an EngineCallError). */
  call(call: Call, options: RequestOptions = {}): Promise<Reply> {
    return new Promise<Reply>((resolve, reject) => {
      this.request(call, { reply: resolve, fail: reject }, options);
    });
  }

  /** Tell the running worker `call` about request `id` (a cancel), expecting no answer; nothing when no worker runs. */
  post(id: number, call: Call, transfer?: Transferable[]): void {
    if (this.worker) this.send(this.worker, { id, call }, transfer);
  }

  /** Stop waiting for request `id`: later answers to it are ignored. Whether it was owed one. */
  forget(id: number): boolean {
    const p = this.pending.get(id);
    if (!p) return false;
    clearTimeout(p.timer);
    this.pending.delete(id);
    return true;
  }

  /** End the worker; the requests it owed fail with `error` (default: cancelled). The next request starts a fresh one. */
  terminate(error: EngineError = CANCELLED): void {
    if (this.worker) this.fail(this.worker, new EngineCallError(error, true));
    this.disarm();
  }

  private send(w: Started<Call, Info, Reply>, msg: WorkerRequest<Call>, transfer?: Transferable[]): void {
    if (transfer) w.port.postMessage(msg, transfer);
    else w.port.postMessage(msg);
  }

  private ensure(): Started<Call, Info, Reply> {
    if (this.worker) return this.worker;
    const port = this.create();
    this.started++;
    let resolveReady!: (info: Info) => void;
    let rejectReady!: (e: EngineCallError) => void;
    const ready = new Promise<Info>((res, rej) => {
      resolveReady = res;
      rejectReady = rej;
    });
    // Avoid an unhandled rejection when nobody awaits ready().
    ready.catch(() => undefined);
    const w: Started<Call, Info, Reply> = { port, isReady: false, ready, resolveReady, rejectReady };
    this.worker = w;
    port.onmessage = (ev) => this.onMessage(w, ev.data);
    port.onerror = (ev) => {
      ev.preventDefault?.();
      // A worker that was ready and then died crashed; one that never got ready could not load.
      this.fail(w, new EngineCallError(this.options.crashError(ev.message ?? '', w.isReady), true));
    };
    return w;
  }

  /** Worker `w` is beyond use: end it and fail everything it owed. */
  private fail(w: Started<Call, Info, Reply>, e: EngineCallError): void {
    if (this.worker !== w) return;
    this.worker = null;
    w.port.onmessage = null;
    w.port.onerror = null;
    w.port.terminate();
    this.disarm();
    w.rejectReady(e);
    const pending = this.pending;
    this.pending = new Map();
    for (const p of pending.values()) {
      clearTimeout(p.timer);
      p.answers.fail(e);
    }
  }

  private onMessage(w: Started<Call, Info, Reply>, msg: WorkerMessage<Info, Reply>): void {
    if (this.worker !== w) return;
    if (this.options.heartbeat) this.lastHeard = this.options.heartbeat.timers.now();
    switch (msg.type) {
      case 'ready':
        w.isReady = true;
        w.resolveReady(msg.info);
        return;
      case 'load-error':
        // The engine itself failed: every request fails with it, the next starts a fresh worker.
        this.fail(w, new EngineCallError(msg.error, true));
        return;
      case 'reply': {
        const p = this.pending.get(msg.id);
        if (!p) return; // a forgotten request's (a cancelled run's) late answer
        if (p.answers.last?.(msg.reply) ?? true) this.forget(msg.id);
        p.answers.reply(msg.reply);
        return;
      }
      case 'error': {
        const e = new EngineCallError(msg.error, msg.fatal);
        const p = this.pending.get(msg.id);
        this.forget(msg.id);
        p?.answers.fail(e);
        // A trapped instance is not used again.
        if (msg.fatal) this.fail(w, e);
        return;
      }
    }
  }

  /** Something was asked of the worker: start (or keep) watching for its silence. */
  private expectAnswer(): void {
    const hb = this.options.heartbeat;
    if (!hb) return;
    this.lastHeard = hb.timers.now();
    if (this.watchdog === null) {
      this.lastCheck = this.lastHeard;
      this.watchdog = hb.timers.setInterval(() => this.checkHeartbeat(hb), hb.checkMs);
    }
  }

  private disarm(): void {
    if (this.watchdog === null) return;
    this.options.heartbeat?.timers.clearInterval(this.watchdog);
    this.watchdog = null;
  }

  /** A ready worker that owes an answer and has been silent for the heartbeat's timeout fails. */
  private checkHeartbeat(hb: Heartbeat): void {
    const w = this.worker;
    if (!w || this.pending.size === 0) {
      this.disarm();
      return;
    }
    const now = hb.timers.now();
    const pageWasBlocked = now - this.lastCheck > 2 * hb.checkMs;
    this.lastCheck = now;
    if (!w.isReady) return;
    // The watchdog itself ran late: the page's own thread was blocked, and
    // the worker's answer may be waiting behind it. Count silence afresh.
    if (pageWasBlocked) {
      this.lastHeard = now;
      return;
    }
    if (now - this.lastHeard < hb.timeoutMs) return;
    this.fail(w, new EngineCallError(hb.error, true));
  }
}
