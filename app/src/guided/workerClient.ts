// The page side of one guided-lab worker: calls as promises, and the
// worker's death (a trap, an uncaught error, a failed load) as a rejection
// of every outstanding call. Every failure is an EngineCallError carrying
// an EngineError (../engine/errors.ts), as the lab page's runs report theirs.

import { EngineCallError, type EngineError } from '../engine/errors';
import type { CallValues, FromLabWorker, LabCall, ToLabWorker } from './protocol';

/** The part of Worker used here (a fake in unit tests). */
export interface LabWorkerLike {
  postMessage(msg: ToLabWorker): void;
  terminate(): void;
  onmessage: ((ev: MessageEvent<FromLabWorker>) => void) | null;
  onerror: ((ev: ErrorEvent) => void) | null;
}

export function createLabModuleWorker(): LabWorkerLike {
  return new Worker(new URL('./labWorker.ts', import.meta.url), { type: 'module', name: 'sawtooth-lab' }) as LabWorkerLike;
}

export interface CallReturn<T> {
  value: T;
  /** Time the engine spent on the call, inside the worker. */
  wallMs: number;
}

interface Pending {
  resolve: (r: CallReturn<unknown>) => void;
  reject: (e: EngineCallError) => void;
  /** The silence timer of a call with a deadline. */
  timer?: ReturnType<typeof setTimeout>;
}

export interface CallOptions {
  /**
   * A worker that has not answered this call after so many ms is taken for
   * dead: a worker can exit, or be killed by the browser, without an error
   * event, and a guided-lab run cannot report progress from inside its wasm
   * call, so the pool bounds each call by a generous multiple of its
   * expected time instead.
   */
  deadlineMs?: number;
}

/** A failure after which the worker is not used again. */
const fatal = (error: EngineError) => new EngineCallError(error, true);

export class LabWorker {
  private readonly w: LabWorkerLike;
  private nextId = 1;
  private pending = new Map<number, Pending>();
  private isReady = false;
  /** Set once the worker is unusable (terminated, crashed, trapped). */
  dead = false;
  readonly ready: Promise<void>;
  private readyResolve!: () => void;
  private readyReject!: (e: EngineCallError) => void;

  constructor(w: LabWorkerLike) {
    this.w = w;
    this.ready = new Promise<void>((res, rej) => {
      this.readyResolve = res;
      this.readyReject = rej;
    });
    this.ready.catch(() => undefined);
    w.onmessage = (ev) => this.onMessage(ev.data);
    w.onerror = (ev) => {
      ev.preventDefault?.();
      const detail = ev.message ? `: ${ev.message}` : '';
      // A worker that was ready and then died crashed; one that never got ready could not load.
      this.fail(
        fatal(this.isReady ? { kind: 'trap', message: `the lab worker stopped unexpectedly${detail}` } : { kind: 'load', message: `the lab worker failed to start${detail}` }),
      );
    };
  }

  call<K extends LabCall['fn']>(call: Extract<LabCall, { fn: K }>, options: CallOptions = {}): Promise<CallReturn<CallValues[K]>> {
    if (this.dead) return Promise.reject(fatal({ kind: 'internal', message: 'the lab worker was stopped' }));
    const id = this.nextId++;
    return new Promise<CallReturn<CallValues[K]>>((resolve, reject) => {
      const pending: Pending = { resolve: resolve as (r: CallReturn<unknown>) => void, reject };
      const limit = options.deadlineMs;
      if (limit !== undefined && Number.isFinite(limit)) {
        pending.timer = setTimeout(
          () => this.fail(fatal({ kind: 'trap', message: `the lab worker stopped answering (no reply in ${Math.round(limit / 1000)} s)` })),
          limit,
        );
      }
      this.pending.set(id, pending);
      this.w.postMessage({ id, call });
    });
  }

  /** Calls in flight. */
  get busy(): number {
    return this.pending.size;
  }

  /** Stop the worker; its outstanding calls are rejected as cancelled. */
  terminate(): void {
    this.fail(fatal({ kind: 'internal', message: 'cancelled' }));
  }

  private fail(e: EngineCallError): void {
    if (this.dead) return;
    this.dead = true;
    this.w.onmessage = null;
    this.w.onerror = null;
    this.w.terminate();
    this.readyReject(e);
    const p = this.pending;
    this.pending = new Map();
    for (const { reject, timer } of p.values()) {
      clearTimeout(timer);
      reject(e);
    }
  }

  private settle(id: number): Pending | undefined {
    const p = this.pending.get(id);
    this.pending.delete(id);
    clearTimeout(p?.timer);
    return p;
  }

  private onMessage(msg: FromLabWorker): void {
    switch (msg.type) {
      case 'ready':
        this.isReady = true;
        this.readyResolve();
        return;
      case 'load-error':
        this.fail(fatal(msg.error));
        return;
      case 'reply':
        this.settle(msg.id)?.resolve({ value: msg.reply.value, wallMs: msg.reply.wallMs });
        return;
      case 'error': {
        const e = new EngineCallError(msg.error, msg.fatal);
        this.settle(msg.id)?.reject(e);
        // A trapped instance is not used again.
        if (msg.fatal) this.fail(e);
        return;
      }
    }
  }
}
