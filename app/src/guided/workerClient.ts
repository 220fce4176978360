// The page side of one guided-lab worker slot: calls as promises over the
// shared worker client (../engine/workerClient.ts), which starts the
// worker, replaces it after it died and rejects every outstanding call of a
// worker that died (a trap, an uncaught error, a failed load, a passed
// deadline). Every failure is an EngineCallError carrying an EngineError
// (../engine/errors.ts), as the lab page's runs report theirs.

import type { EngineError } from '../engine/errors';
import { WorkerClient, type EngineWorkerPort } from '../engine/workerClient';
import type { CallValues, LabCall, LabReply } from './protocol';

/** The part of Worker used here (a fake in unit tests). */
export type LabWorkerLike = EngineWorkerPort<LabCall, null, LabReply>;

export function createLabModuleWorker(): LabWorkerLike {
  return new Worker(new URL('./labWorker.ts', import.meta.url), { type: 'module', name: 'sawtooth-lab' }) as LabWorkerLike;
}

export interface CallReturn<T> {
  value: T;
  /** Time the engine spent on the call, inside the worker. */
  wallMs: number;
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

/** A worker's error event: a crash once it was ready, else a failure to load. */
function crashError(message: string, ready: boolean): EngineError {
  const detail = message ? `: ${message}` : '';
  return ready ? { kind: 'trap', message: `the lab worker stopped unexpectedly${detail}` } : { kind: 'load', message: `the lab worker failed to start${detail}` };
}

function deadlineError(limit: number): EngineError {
  return { kind: 'trap', message: `the lab worker stopped answering (no reply in ${Math.round(limit / 1000)} s)` };
}

/** One guided-lab worker at a time: started on first use, replaced by the next call after it failed or was terminated. */
export class LabWorker {
  private readonly client: WorkerClient<LabCall, null, LabReply>;

  constructor(create: () => LabWorkerLike) {
    this.client = new WorkerClient(create, { crashError, deadlineError });
  }

  /** Start the worker now (it loads its engine meanwhile). */
  start(): void {
    this.client.start();
  }

  /** Resolves once the worker's engine is loaded. */
  ready(): Promise<void> {
    return this.client.ready().then(() => undefined);
  }

  call<K extends LabCall['fn']>(call: Extract<LabCall, { fn: K }>, options: CallOptions = {}): Promise<CallReturn<CallValues[K]>> {
    return this.client.call(call, options).then((reply) => ({ value: reply.value as CallValues[K], wallMs: reply.wallMs }));
  }

  /** Calls in flight. */
  get busy(): number {
    return this.client.busy;
  }

  /** Workers started (1 + one per replacement). */
  get started(): number {
    return this.client.started;
  }

  /** Stop the worker; its outstanding calls are rejected as cancelled. The next call starts a fresh one. */
  terminate(): void {
    this.client.terminate();
  }
}
