// The page side of one guided-lab worker: calls as promises, and the
// worker's death (a trap, an uncaught error, a failed load) as a rejection
// of every outstanding call with `crashed` set.

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

export class LabCallError extends Error {
  /** The worker can no longer be used (it trapped, died or never loaded). */
  readonly fatal: boolean;
  /** The worker died (or failed to load) rather than reporting an error. */
  readonly crashed: boolean;
  /** The worker never became ready. */
  readonly load: boolean;
  constructor(message: string, o: { fatal: boolean; crashed: boolean; load?: boolean }) {
    super(message);
    this.name = 'LabCallError';
    this.fatal = o.fatal;
    this.crashed = o.crashed;
    this.load = o.load ?? false;
  }
}

export interface CallReturn<T> {
  value: T;
  /** Time the engine spent on the call, inside the worker. */
  wallMs: number;
}

interface Pending {
  resolve: (r: CallReturn<unknown>) => void;
  reject: (e: LabCallError) => void;
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

export class LabWorker {
  private readonly w: LabWorkerLike;
  private nextId = 1;
  private pending = new Map<number, Pending>();
  private isReady = false;
  /** Set once the worker is unusable (terminated, crashed, trapped). */
  dead = false;
  readonly ready: Promise<void>;
  private readyResolve!: () => void;
  private readyReject!: (e: LabCallError) => void;

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
      this.fail(
        this.isReady
          ? new LabCallError(`the lab worker stopped unexpectedly${detail}`, { fatal: true, crashed: true })
          : new LabCallError(`the lab worker failed to start${detail}`, { fatal: true, crashed: true, load: true }),
      );
    };
  }

  call<K extends LabCall['fn']>(call: Extract<LabCall, { fn: K }>, options: CallOptions = {}): Promise<CallReturn<CallValues[K]>> {
    if (this.dead) return Promise.reject(new LabCallError('the lab worker was stopped', { fatal: true, crashed: false }));
    const id = this.nextId++;
    return new Promise<CallReturn<CallValues[K]>>((resolve, reject) => {
      const pending: Pending = { resolve: resolve as (r: CallReturn<unknown>) => void, reject };
      const limit = options.deadlineMs;
      if (limit !== undefined && Number.isFinite(limit)) {
        pending.timer = setTimeout(
          () => this.fail(new LabCallError(`the lab worker stopped answering (no reply in ${Math.round(limit / 1000)} s)`, { fatal: true, crashed: true })),
          limit,
        );
      }
      this.pending.set(id, pending);
      this.w.postMessage({ type: 'call', id, call });
    });
  }

  /** Calls in flight. */
  get busy(): number {
    return this.pending.size;
  }

  terminate(): void {
    if (this.dead) return;
    this.dead = true;
    this.w.onmessage = null;
    this.w.onerror = null;
    this.w.terminate();
    const p = this.pending;
    this.pending = new Map();
    const e = new LabCallError('cancelled', { fatal: true, crashed: false });
    for (const { reject, timer } of p.values()) {
      clearTimeout(timer);
      reject(e);
    }
    this.readyReject(e);
  }

  private fail(e: LabCallError): void {
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

  private onMessage(msg: FromLabWorker): void {
    switch (msg.type) {
      case 'ready':
        this.isReady = true;
        this.readyResolve();
        return;
      case 'load-error':
        this.fail(new LabCallError(msg.message, { fatal: true, crashed: true, load: true }));
        return;
      case 'return': {
        const p = this.pending.get(msg.id);
        this.pending.delete(msg.id);
        clearTimeout(p?.timer);
        p?.resolve({ value: msg.value, wallMs: msg.wallMs });
        return;
      }
      case 'throw': {
        const p = this.pending.get(msg.id);
        this.pending.delete(msg.id);
        clearTimeout(p?.timer);
        const e = new LabCallError(msg.message, { fatal: msg.fatal, crashed: false });
        p?.reject(e);
        // A trapped instance is not used again.
        if (msg.fatal) this.fail(e);
        return;
      }
    }
  }
}
