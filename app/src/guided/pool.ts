// A pool of guided-lab workers running one sweep at a time: each idle worker
// takes the next point (or a batch of the next small ones), results are reported point by point, a worker that
// traps or dies is reported for its point, replaced, and the sweep goes on.
// Cancelling terminates every worker (a run cannot be interrupted inside the
// wasm call) and starts a fresh pool.

import type { EngineCallError, EngineError } from '../engine/errors';
import type { PointResult } from '../engine/generated/labs';
import type { PointDebug } from './protocol';
import { LabWorker, type LabWorkerLike } from './workerClient';

/** The most workers a pool starts, whatever the machine reports. */
export const MAX_POOL_SIZE = 8;

/** One worker per logical core, at least one, at most MAX_POOL_SIZE. */
export function defaultPoolSize(hardwareConcurrency: number | undefined): number {
  const n = Number.isFinite(hardwareConcurrency) && (hardwareConcurrency ?? 0) > 0 ? Math.floor(hardwareConcurrency!) : 2;
  return Math.max(1, Math.min(MAX_POOL_SIZE, n));
}

export interface SweepJob {
  lab: string;
  quick: boolean;
  /** Point indices (into the lab's sweep at this scale) in the order to start them. */
  order: number[];
  /** Debug switches for some points (e2e tests of crash recovery). */
  debug?: ReadonlyMap<number, PointDebug>;
  /** Run the sweep under this ablation variant (0 or absent: as defined). */
  variant?: number;
  /** Relative work of a point (progress.ts pointCost), to bound how long its worker may stay silent. */
  cost?: (index: number) => number;
}

/**
 * A worker's call takes several points while each is expected to take so
 * little that a round trip through the page (busy drawing) would idle it:
 * up to this much expected work per call, and at most MAX_BATCH points.
 */
export const BATCH_TARGET_MS = 50;
export const MAX_BATCH = 16;

/** However quick a point should be, its worker gets this long before it is taken for dead. */
export const MIN_POINT_DEADLINE_MS = 60_000;
/** A point's deadline, as a multiple of the time its work took on the points measured so far. */
export const POINT_DEADLINE_FACTOR = 20;

/**
 * How long a point's worker may stay silent: POINT_DEADLINE_FACTOR × its
 * expected time at the pace measured on finished points, at least
 * MIN_POINT_DEADLINE_MS; unbounded until a point has been measured.
 */
export function pointDeadlineMs(cost: number | undefined, workPerMs: number | null): number | undefined {
  if (cost === undefined || workPerMs === null || !(workPerMs > 0)) return undefined;
  return Math.max(MIN_POINT_DEADLINE_MS, (POINT_DEADLINE_FACTOR * cost) / workPerMs);
}

/** 'error': the sweep could not run at all (the engine does not load here). */
export type SweepOutcome = { status: 'done' } | { status: 'cancelled' } | { status: 'error'; error: EngineError };

export interface SweepEvents {
  started(index: number, slot: number): void;
  result(index: number, result: PointResult, wallMs: number): void;
  /** The point failed; `crashed`: its worker died or trapped and was replaced. */
  failed(index: number, error: EngineError, crashed: boolean): void;
  finished(outcome: SweepOutcome): void;
}

export interface SweepHandle {
  cancel(): void;
}

interface Current {
  job: SweepJob;
  events: SweepEvents;
  queue: number[];
  running: number;
  /** No more events from the workers are taken. */
  over: boolean;
  /** finished() was sent. */
  reported: boolean;
}

export class SweepPool {
  readonly size: number;
  private readonly create: () => LabWorkerLike;
  private workers: (LabWorker | null)[];
  private current: Current | null = null;
  /** Pools started (1 + one per cancel). */
  generation = 0;
  /** Workers replaced after a crash or trap. */
  replaced = 0;
  /** Work and wall time of the points finished by this pool (its measured pace). */
  private measuredWork = 0;
  private measuredMs = 0;

  constructor(size: number, create: () => LabWorkerLike) {
    this.size = Math.max(1, Math.floor(size));
    this.create = create;
    this.workers = new Array(this.size).fill(null);
  }

  /** Start the workers now (they load the engine in parallel). */
  warm(): void {
    if (this.generation === 0) this.generation = 1;
    for (let i = 0; i < this.size; i++) this.worker(i);
  }

  get running(): boolean {
    return this.current !== null;
  }

  run(job: SweepJob, events: SweepEvents): SweepHandle {
    if (this.current) this.cancel();
    if (this.generation === 0) this.generation = 1;
    const cur: Current = { job, events, queue: [...job.order], running: 0, over: false, reported: false };
    this.current = cur;
    if (cur.queue.length === 0) {
      this.finish(cur, { status: 'done' });
    } else {
      for (let slot = 0; slot < this.size && !cur.over; slot++) this.pump(cur, slot);
    }
    return {
      cancel: () => {
        if (this.current === cur) this.cancel();
      },
    };
  }

  /** Stop the current sweep: terminate every worker and start a fresh pool. */
  cancel(): void {
    const cur = this.current;
    this.stopAll();
    this.generation++;
    for (let i = 0; i < this.size; i++) this.worker(i);
    if (cur) this.finish(cur, { status: 'cancelled' });
  }

  dispose(): void {
    const cur = this.current;
    this.stopAll();
    if (cur) this.finish(cur, { status: 'cancelled' });
  }

  private stopAll(): void {
    if (this.current) this.current.over = true;
    for (let i = 0; i < this.size; i++) {
      this.workers[i]?.terminate();
      this.workers[i] = null;
    }
  }

  private worker(slot: number): LabWorker {
    let w = this.workers[slot];
    if (!w || w.dead) {
      w = new LabWorker(this.create());
      this.workers[slot] = w;
    }
    return w;
  }

  private finish(cur: Current, outcome: SweepOutcome): void {
    if (this.current === cur) this.current = null;
    cur.over = true;
    if (cur.reported) return;
    cur.reported = true;
    cur.events.finished(outcome);
  }

  /**
   * The points the next call on a worker takes: the queue's head, and while
   * the measured pace says they are small, more of them up to
   * BATCH_TARGET_MS of work, never more than an even share of what is left
   * (so the other workers are not starved at the end). Points with a debug
   * switch go alone.
   */
  private takeBatch(cur: Current): number[] {
    const first = cur.queue.shift();
    if (first === undefined) return [];
    const batch = [first];
    const { cost, debug } = cur.job;
    const pace = this.measuredMs > 0 ? this.measuredWork / this.measuredMs : null;
    if (!cost || pace === null || debug?.has(first)) return batch;
    const share = Math.ceil((cur.queue.length + 1) / this.size);
    let ms = cost(first) / pace;
    while (batch.length < Math.min(MAX_BATCH, share) && cur.queue.length > 0) {
      const next = cur.queue[0];
      const nextMs = cost(next) / pace;
      if (debug?.has(next) || ms + nextMs > BATCH_TARGET_MS) break;
      batch.push(cur.queue.shift()!);
      ms += nextMs;
    }
    return batch;
  }

  private pump(cur: Current, slot: number): void {
    if (cur.over) return;
    const batch = this.takeBatch(cur);
    if (batch.length === 0) {
      if (cur.running === 0) this.finish(cur, { status: 'done' });
      return;
    }
    if (batch.length === 1) this.runOne(cur, slot, batch[0]);
    else this.runBatch(cur, slot, batch);
  }

  /** Count a finished point's work and time into the pool's pace. */
  private measure(cost: number | undefined, wallMs: number): void {
    if (cost !== undefined && wallMs > 0) {
      this.measuredWork += cost;
      this.measuredMs += wallMs;
    }
  }

  private deadline(cost: number | undefined): number | undefined {
    return pointDeadlineMs(cost, this.measuredMs > 0 ? this.measuredWork / this.measuredMs : null);
  }

  private runOne(cur: Current, slot: number, index: number): void {
    const w = this.worker(slot);
    cur.running++;
    cur.events.started(index, slot);
    const debug = cur.job.debug?.get(index);
    const variant = cur.job.variant;
    const cost = cur.job.cost?.(index);
    w.call({ fn: 'run', lab: cur.job.lab, quick: cur.job.quick, index, ...(variant ? { variant } : {}), ...(debug ? { debug } : {}) }, { deadlineMs: this.deadline(cost) }).then(
      (r) => {
        this.measure(cost, r.wallMs);
        if (cur.over) return;
        cur.running--;
        cur.events.result(index, r.value, r.wallMs);
        this.pump(cur, slot);
      },
      (e: EngineCallError) => this.callFailed(cur, slot, [index], e),
    );
  }

  private runBatch(cur: Current, slot: number, indices: number[]): void {
    const w = this.worker(slot);
    cur.running += indices.length;
    for (const i of indices) cur.events.started(i, slot);
    const variant = cur.job.variant;
    const costs = indices.map((i) => cur.job.cost?.(i) ?? 0);
    // The batch's deadline is that of its work as a whole.
    const deadlineMs = this.deadline(costs.reduce((a, c) => a + c, 0));
    w.call({ fn: 'runBatch', lab: cur.job.lab, quick: cur.job.quick, indices, ...(variant ? { variant } : {}) }, { deadlineMs }).then(
      (r) => {
        r.value.forEach((item, k) => item.ok && this.measure(costs[k], item.wallMs));
        if (cur.over) return;
        cur.running -= indices.length;
        r.value.forEach((item, k) => {
          if (item.ok) cur.events.result(indices[k], item.result, item.wallMs);
          else cur.events.failed(indices[k], item.error, false);
        });
        this.pump(cur, slot);
      },
      (e: EngineCallError) => this.callFailed(cur, slot, indices, e),
    );
  }

  /** A call failed as a whole: every point in it is reported failed (crashed if its worker died). */
  private callFailed(cur: Current, slot: number, indices: number[], e: EngineCallError): void {
    if (cur.over) return;
    cur.running -= indices.length;
    if (e.error.kind === 'load') {
      // The engine cannot load here: every point would fail the same way.
      this.stopAll();
      this.finish(cur, { status: 'error', error: e.error });
      return;
    }
    // A fatal failure (a trap, a dead or silent worker) took the worker with it.
    if (e.fatal) this.replaced++;
    for (const i of indices) cur.events.failed(i, e.error, e.fatal);
    this.pump(cur, slot);
  }
}
