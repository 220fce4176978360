// A pool of guided-lab workers running one sweep at a time: each worker
// holds the call it runs and the next one, so that it never waits for the
// page; a call is the next point or a batch of the next small ones.
// Results are reported point by point, a worker that
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

/**
 * Calls a worker holds at once: the one it runs and the next, queued in its
 * message port, so that it starts the next without a round trip through the
 * page's thread (busy drawing). Measured before this: the workers were
 * inside a point only 76-80 % of a quick sweep.
 */
export const CALLS_PER_WORKER = 2;

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

/** A call sent to a worker: its points, and whether the worker has started it (it is the oldest one still open there). */
interface Call {
  indices: number[];
  started: boolean;
  /** Given back to the queue when its worker died before starting it: its answer is ignored. */
  abandoned: boolean;
}

interface Current {
  job: SweepJob;
  events: SweepEvents;
  queue: number[];
  /** Points sent to workers and not yet answered. */
  running: number;
  /** Each worker's open calls, oldest (running) first. */
  calls: Call[][];
  /** No more events from the workers are taken. */
  over: boolean;
  /** finished() was sent. */
  reported: boolean;
}

export class SweepPool {
  readonly size: number;
  /** One slot per worker; a slot starts a fresh worker for its next call after its worker died or was stopped. */
  private readonly workers: LabWorker[];
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
    this.workers = Array.from({ length: this.size }, () => new LabWorker(create));
  }

  /** Start the workers now (they load the engine in parallel). */
  warm(): void {
    if (this.generation === 0) this.generation = 1;
    for (const w of this.workers) w.start();
  }

  get running(): boolean {
    return this.current !== null;
  }

  run(job: SweepJob, events: SweepEvents): SweepHandle {
    if (this.current) this.cancel();
    if (this.generation === 0) this.generation = 1;
    const cur: Current = { job, events, queue: [...job.order], running: 0, calls: Array.from({ length: this.size }, () => []), over: false, reported: false };
    this.current = cur;
    if (cur.queue.length === 0) {
      this.finish(cur, { status: 'done' });
    } else {
      // First one call per worker, so that the points spread over all of them; then the next for each.
      for (let depth = 0; depth < CALLS_PER_WORKER; depth++) for (let slot = 0; slot < this.size && !cur.over; slot++) this.pump(cur, slot);
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
    for (const w of this.workers) w.start();
    if (cur) this.finish(cur, { status: 'cancelled' });
  }

  dispose(): void {
    const cur = this.current;
    this.stopAll();
    if (cur) this.finish(cur, { status: 'cancelled' });
  }

  private stopAll(): void {
    if (this.current) this.current.over = true;
    for (const w of this.workers) w.terminate();
  }

  private worker(slot: number): LabWorker {
    return this.workers[slot];
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

  /** Give worker `slot` its next call, unless it holds CALLS_PER_WORKER already or nothing is left. */
  private pump(cur: Current, slot: number): void {
    if (cur.over || cur.calls[slot].length >= CALLS_PER_WORKER) return;
    const batch = this.takeBatch(cur);
    if (batch.length === 0) {
      if (cur.running === 0) this.finish(cur, { status: 'done' });
      return;
    }
    const open = cur.calls[slot];
    // A call queued behind another may wait for it: its deadline covers both.
    const aheadCost = open.reduce((a, c) => a + c.indices.reduce((b, i) => b + (cur.job.cost?.(i) ?? 0), 0), 0);
    const call: Call = { indices: batch, started: open.length === 0, abandoned: false };
    open.push(call);
    cur.running += batch.length;
    if (call.started) for (const i of batch) cur.events.started(i, slot);
    if (batch.length === 1) this.runOne(cur, slot, call, aheadCost);
    else this.runBatch(cur, slot, call, aheadCost);
  }

  /**
   * A call was answered or failed: it leaves its worker's open calls, and the
   * one queued behind it (now running there) is reported started.
   */
  private settle(cur: Current, slot: number, call: Call): void {
    const open = cur.calls[slot];
    const k = open.indexOf(call);
    if (k >= 0) open.splice(k, 1);
    cur.running -= call.indices.length;
    const next = open[0];
    if (next && !next.started) {
      next.started = true;
      for (const i of next.indices) cur.events.started(i, slot);
    }
  }

  /** The worker of `slot` died: the calls it had not started go back to the head of the queue. */
  private requeueUnstarted(cur: Current, slot: number): void {
    const open = cur.calls[slot];
    const waiting = open.filter((c) => !c.started);
    cur.calls[slot] = open.filter((c) => c.started);
    for (const c of waiting.reverse()) {
      c.abandoned = true;
      cur.running -= c.indices.length;
      cur.queue.unshift(...c.indices);
    }
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

  private runOne(cur: Current, slot: number, call: Call, aheadCost: number): void {
    const index = call.indices[0];
    const w = this.worker(slot);
    const debug = cur.job.debug?.get(index);
    const variant = cur.job.variant;
    const cost = cur.job.cost?.(index);
    const deadlineMs = this.deadline(cost === undefined ? undefined : cost + aheadCost);
    w.call({ fn: 'run', lab: cur.job.lab, quick: cur.job.quick, index, ...(variant ? { variant } : {}), ...(debug ? { debug } : {}) }, { deadlineMs }).then(
      (r) => {
        this.measure(cost, r.wallMs);
        if (cur.over || call.abandoned) return;
        this.settle(cur, slot, call);
        cur.events.result(index, r.value, r.wallMs);
        this.pump(cur, slot);
      },
      (e: EngineCallError) => this.callFailed(cur, slot, call, e),
    );
  }

  private runBatch(cur: Current, slot: number, call: Call, aheadCost: number): void {
    const indices = call.indices;
    const w = this.worker(slot);
    const variant = cur.job.variant;
    const costs = indices.map((i) => cur.job.cost?.(i) ?? 0);
    // The batch's deadline is that of its work as a whole (and of the call ahead of it).
    const deadlineMs = this.deadline(costs.reduce((a, c) => a + c, aheadCost));
    w.call({ fn: 'runBatch', lab: cur.job.lab, quick: cur.job.quick, indices, ...(variant ? { variant } : {}) }, { deadlineMs }).then(
      (r) => {
        r.value.forEach((item, k) => item.ok && this.measure(costs[k], item.wallMs));
        if (cur.over || call.abandoned) return;
        this.settle(cur, slot, call);
        r.value.forEach((item, k) => {
          if (item.ok) cur.events.result(indices[k], item.result, item.wallMs);
          else cur.events.failed(indices[k], item.error, false);
        });
        this.pump(cur, slot);
      },
      (e: EngineCallError) => this.callFailed(cur, slot, call, e),
    );
  }

  /**
   * A call failed as a whole: every point in it is reported failed (crashed
   * if its worker died). The calls the dead worker had not started are not
   * failures: they go back to the queue for the fresh worker.
   */
  private callFailed(cur: Current, slot: number, call: Call, e: EngineCallError): void {
    if (cur.over || call.abandoned) return;
    if (e.error.kind === 'load') {
      // The engine cannot load here: every point would fail the same way.
      this.stopAll();
      this.finish(cur, { status: 'error', error: e.error });
      return;
    }
    // A fatal failure (a trap, a dead or silent worker) took the worker with
    // it: what it had not started goes back to the queue before anything
    // queued there could be taken for started.
    if (e.fatal) {
      this.replaced++;
      this.requeueUnstarted(cur, slot);
    }
    this.settle(cur, slot, call);
    for (const i of call.indices) cur.events.failed(i, e.error, e.fatal);
    while (!cur.over && cur.calls[slot].length < CALLS_PER_WORKER && cur.queue.length > 0) this.pump(cur, slot);
    if (!cur.over && cur.queue.length === 0 && cur.running === 0) this.finish(cur, { status: 'done' });
  }
}
