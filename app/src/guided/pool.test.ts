import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { engineErrorText } from '../engine/errors';
import type { PointResult } from '../engine/generated/labs';
import { CALLS_PER_WORKER, defaultPoolSize, MIN_POINT_DEADLINE_MS, pointDeadlineMs, POINT_DEADLINE_FACTOR, SweepPool, type SweepEvents, type SweepOutcome } from './pool';
import type { PointDebug } from './protocol';
import { createFakeLabWorker, fakeLabEngine, type FakeLabWorker, type FakeOptions } from './testing/fakeLabWorker';
import { LabWorker } from './workerClient';
import { handleCall, outcomeMessage } from './workerCore';

function recorder() {
  const log: string[] = [];
  const results = new Map<number, PointResult>();
  const errors = new Map<number, { message: string; crashed: boolean }>();
  /** The kind of each failed point's EngineError. */
  const kinds = new Map<number, string>();
  let outcome: SweepOutcome | null = null;
  const events: SweepEvents = {
    started: (i, slot) => log.push(`start ${i}@${slot}`),
    result: (i, r) => {
      log.push(`done ${i}`);
      results.set(i, r);
    },
    failed: (i, error, crashed) => {
      log.push(`fail ${i}`);
      errors.set(i, { message: engineErrorText(error), crashed });
      kinds.set(i, error.kind);
    },
    finished: (o) => {
      log.push(`finished ${o.status}`);
      outcome = o;
    },
  };
  return { log, results, errors, kinds, events, outcome: () => outcome };
}

function makePool(size: number, engineOpts: Parameters<typeof fakeLabEngine>[0] = {}, o: FakeOptions = {}) {
  const workers: FakeLabWorker[] = [];
  const engine = fakeLabEngine(engineOpts);
  const pool = new SweepPool(size, () => {
    const w = createFakeLabWorker(engine, o);
    workers.push(w);
    return w;
  });
  return { pool, workers };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('defaultPoolSize', () => {
  it('uses one worker per core, capped, at least one', () => {
    expect(defaultPoolSize(4)).toBe(4);
    expect(defaultPoolSize(64)).toBe(8);
    expect(defaultPoolSize(0)).toBe(2);
    expect(defaultPoolSize(undefined)).toBe(2);
    expect(defaultPoolSize(1)).toBe(1);
  });
});

describe('SweepPool', () => {
  it('runs every point once across the workers and reports results point by point', async () => {
    const { pool, workers } = makePool(3, { points: 10 });
    const rec = recorder();
    pool.run({ lab: 'x', quick: true, order: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] }, rec.events);
    expect(workers).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(11);
    // Three points at a time: after one answer delay, three are done.
    expect(rec.results.size).toBe(3);
    await vi.advanceTimersByTimeAsync(100);
    expect(rec.outcome()).toEqual({ status: 'done' });
    expect([...rec.results.keys()].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(rec.results.get(7)!.total_throughput_mbps).toBe(107);
    // Each worker ran its share, one call at a time, nothing twice.
    const ran = workers.flatMap((w) => w.received.map((c) => (c.fn === 'run' ? c.index : -1)));
    expect(ran.sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(rec.log.filter((l) => l.startsWith('finished'))).toEqual(['finished done']);
  });

  it('gives each worker its next call before the page hears of the last one, and reports a point started only when its worker starts it', async () => {
    expect(CALLS_PER_WORKER).toBe(2);
    const { pool, workers } = makePool(2, { points: 8 }, { delay: () => 20 });
    const rec = recorder();
    pool.run({ lab: 'x', quick: true, order: [0, 1, 2, 3, 4, 5, 6, 7] }, rec.events);
    await vi.advanceTimersByTimeAsync(1);
    // Two calls each, spread first over the workers; only the running ones are started.
    expect(workers.map((w) => w.received.map((c) => (c.fn === 'run' ? c.index : -1)))).toEqual([
      [0, 2],
      [1, 3],
    ]);
    expect(rec.log).toEqual(['start 0@0', 'start 1@1']);
    await vi.advanceTimersByTimeAsync(20);
    // 0 and 1 answered; 2 and 3 were already waiting in their workers, and 4 and 5 are queued behind them.
    expect(rec.log.slice(2)).toEqual(['start 2@0', 'done 0', 'start 3@1', 'done 1']);
    expect(workers.map((w) => w.received.length)).toEqual([3, 3]);
    await vi.advanceTimersByTimeAsync(100);
    expect(rec.outcome()).toEqual({ status: 'done' });
    expect(rec.results.size).toBe(8);
  });

  it('a worker that traps gives the call queued behind the trap back: it runs on the fresh worker and is not reported failed', async () => {
    const { pool, workers } = makePool(1, { points: 4, trapAt: [1] });
    const rec = recorder();
    pool.run({ lab: 'x', quick: true, order: [0, 1, 2, 3] }, rec.events);
    await vi.advanceTimersByTimeAsync(200);
    expect(rec.outcome()).toEqual({ status: 'done' });
    expect([...rec.errors.keys()]).toEqual([1]);
    expect([...rec.results.keys()].sort()).toEqual([0, 2, 3]);
    // Point 2 was waiting in the worker that trapped, and ran again on its replacement.
    expect(workers[0].received.some((c) => c.fn === 'run' && c.index === 2)).toBe(true);
    expect(workers[1].received.some((c) => c.fn === 'run' && c.index === 2)).toBe(true);
    expect(rec.log.filter((l) => l === 'start 2@0')).toHaveLength(1);
  });

  it('starts points in the given order', async () => {
    const { pool } = makePool(1, { points: 4 });
    const rec = recorder();
    pool.run({ lab: 'x', quick: true, order: [3, 1, 2, 0] }, rec.events);
    await vi.advanceTimersByTimeAsync(100);
    expect(rec.log.filter((l) => l.startsWith('start'))).toEqual(['start 3@0', 'start 1@0', 'start 2@0', 'start 0@0']);
  });

  it('finishes at once with nothing to run', () => {
    const { pool } = makePool(2);
    const rec = recorder();
    pool.run({ lab: 'x', quick: true, order: [] }, rec.events);
    expect(rec.outcome()).toEqual({ status: 'done' });
  });

  it('takes a worker that never answers for dead once the point is far past its expected time, replaces it and continues', async () => {
    // 30 ms a point: too long to batch two (BATCH_TARGET_MS), so point 2 goes alone.
    const { pool, workers } = makePool(1, { points: 4 }, { silentAt: [2], delay: () => 30 });
    const rec = recorder();
    pool.run({ lab: 'x', quick: true, order: [0, 1, 2, 3], cost: () => 1 }, rec.events);
    await vi.advanceTimersByTimeAsync(100);
    // Points 0 and 1 answered in 30 ms each; point 2's worker went silent.
    expect(rec.results.size).toBe(2);
    await vi.advanceTimersByTimeAsync(MIN_POINT_DEADLINE_MS - 200);
    expect(rec.errors.size).toBe(0); // not yet: the deadline is at least a minute
    await vi.advanceTimersByTimeAsync(300);
    expect(rec.errors.get(2)).toEqual({ message: expect.stringContaining('stopped answering'), crashed: true });
    await vi.advanceTimersByTimeAsync(100);
    expect(rec.outcome()).toEqual({ status: 'done' });
    expect([...rec.results.keys()].sort()).toEqual([0, 1, 3]);
    expect(workers).toHaveLength(2);
    expect(workers[0].terminated).toBe(true);
  });

  it('batches small points once their pace is measured, the same results each, never a debug point, an even share at most', async () => {
    const { pool, workers } = makePool(2, { points: 12 });
    const rec = recorder();
    pool.run({ lab: 'x', quick: true, order: Array.from({ length: 12 }, (_, i) => i), cost: () => 1, debug: new Map([[7, 'trap' as const]]) }, rec.events);
    await vi.advanceTimersByTimeAsync(500);
    expect(rec.outcome()).toEqual({ status: 'done' });
    const calls = workers.flatMap((w) => w.received).filter((c) => c.fn === 'run' || c.fn === 'runBatch');
    // The first point of each worker goes alone (nothing measured yet), the rest in batches.
    expect(workers.slice(0, 2).map((w) => w.received.find((c) => c.fn === 'run' || c.fn === 'runBatch')?.fn)).toEqual(['run', 'run']);
    const batches = calls.filter((c) => c.fn === 'runBatch').map((c) => (c.fn === 'runBatch' ? c.indices : []));
    expect(batches.length).toBeGreaterThan(0);
    expect(batches.every((b) => b.length <= 5 && !b.includes(7))).toBe(true);
    expect(rec.errors.get(7)).toEqual({ message: expect.stringContaining('trapped'), crashed: true });
    expect([...rec.results.keys()].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 8, 9, 10, 11]);
    for (const [i, r] of rec.results) expect(r.total_throughput_mbps).toBe(100 + i);
  });

  it('reports every point of a batch whose worker died, and goes on', async () => {
    const { pool } = makePool(1, { points: 6 }, { silentAt: [3] });
    const rec = recorder();
    pool.run({ lab: 'x', quick: true, order: [0, 1, 2, 3, 4, 5], cost: () => 1 }, rec.events);
    await vi.advanceTimersByTimeAsync(MIN_POINT_DEADLINE_MS + 1000);
    expect(rec.outcome()).toEqual({ status: 'done' });
    expect(rec.results.has(0)).toBe(true);
    const failed = [...rec.errors.keys()];
    expect(failed).toContain(3);
    expect([...rec.errors.values()].every((e) => e.crashed)).toBe(true);
    expect(rec.results.size + rec.errors.size).toBe(6);
  });

  it('bounds a point by a multiple of its expected time, at least a minute, and not before anything was measured', () => {
    expect(pointDeadlineMs(1000, null)).toBeUndefined();
    expect(pointDeadlineMs(undefined, 1)).toBeUndefined();
    expect(pointDeadlineMs(10, 1)).toBe(MIN_POINT_DEADLINE_MS);
    expect(pointDeadlineMs(1e6, 1)).toBe(POINT_DEADLINE_FACTOR * 1e6);
  });

  it('reports a trapped point, replaces its worker and continues', async () => {
    const { pool, workers } = makePool(2, { points: 6, trapAt: [2] });
    const rec = recorder();
    pool.run({ lab: 'x', quick: true, order: [0, 1, 2, 3, 4, 5] }, rec.events);
    await vi.advanceTimersByTimeAsync(200);
    expect(rec.outcome()).toEqual({ status: 'done' });
    expect(rec.errors.get(2)).toEqual({ message: expect.stringContaining('trapped'), crashed: true });
    expect(rec.kinds.get(2)).toBe('trap');
    expect([...rec.results.keys()].sort()).toEqual([0, 1, 3, 4, 5]);
    expect(pool.replaced).toBe(1);
    expect(workers).toHaveLength(3);
    expect(workers.filter((w) => w.terminated)).toHaveLength(1);
  });

  it('reports a worker that dies, replaces it and continues', async () => {
    const { pool, workers } = makePool(2, { points: 5 });
    const rec = recorder();
    const debug = new Map<number, PointDebug>([[1, 'crash']]);
    pool.run({ lab: 'x', quick: true, order: [0, 1, 2, 3, 4], debug }, rec.events);
    await vi.advanceTimersByTimeAsync(200);
    expect(rec.outcome()).toEqual({ status: 'done' });
    expect(rec.errors.get(1)!.crashed).toBe(true);
    expect(rec.errors.get(1)!.message).toMatch(/stopped unexpectedly/);
    expect(rec.kinds.get(1)).toBe('trap');
    expect(rec.results.size).toBe(4);
    expect(workers).toHaveLength(3);
  });

  it('an engine error for a point is reported without replacing the worker', async () => {
    const { pool, workers } = makePool(1, { points: 2 });
    const rec = recorder();
    pool.run({ lab: 'x', quick: true, order: [0, 5, 1] }, rec.events);
    await vi.advanceTimersByTimeAsync(100);
    expect(rec.errors.get(5)).toEqual({ message: 'lab x has 2 points, not 6', crashed: false });
    expect(rec.kinds.get(5)).toBe('internal');
    expect(rec.results.size).toBe(2);
    expect(workers).toHaveLength(1);
  });

  it('cancel terminates every worker, starts a fresh pool and stops reporting', async () => {
    const { pool, workers } = makePool(2, { points: 10 }, { delay: () => 50 });
    const rec = recorder();
    const h = pool.run({ lab: 'x', quick: true, order: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] }, rec.events);
    await vi.advanceTimersByTimeAsync(60);
    expect(rec.results.size).toBe(2);
    const gen = pool.generation;
    h.cancel();
    expect(rec.outcome()).toEqual({ status: 'cancelled' });
    expect(workers.slice(0, 2).every((w) => w.terminated)).toBe(true);
    expect(workers).toHaveLength(4);
    expect(pool.generation).toBe(gen + 1);
    await vi.advanceTimersByTimeAsync(500);
    expect(rec.results.size).toBe(2);
    expect(rec.log.filter((l) => l.startsWith('finished'))).toEqual(['finished cancelled']);
    // The fresh pool runs the next sweep.
    const rec2 = recorder();
    pool.run({ lab: 'x', quick: true, order: [8, 9] }, rec2.events);
    await vi.advanceTimersByTimeAsync(100);
    expect(rec2.outcome()).toEqual({ status: 'done' });
    expect(rec2.results.size).toBe(2);
    expect(workers).toHaveLength(4);
  });

  it('a new sweep cancels the running one', async () => {
    const { pool } = makePool(1, { points: 10 }, { delay: () => 50 });
    const a = recorder();
    const b = recorder();
    pool.run({ lab: 'x', quick: true, order: [0, 1, 2] }, a.events);
    await vi.advanceTimersByTimeAsync(10);
    pool.run({ lab: 'x', quick: true, order: [3] }, b.events);
    expect(a.outcome()).toEqual({ status: 'cancelled' });
    await vi.advanceTimersByTimeAsync(100);
    expect(b.outcome()).toEqual({ status: 'done' });
    expect(a.results.size).toBe(0);
  });

  it('stops with an error when the engine cannot load', async () => {
    const { pool } = makePool(2, { points: 4 }, { loadError: 'the engine failed to load: 404' });
    const rec = recorder();
    pool.run({ lab: 'x', quick: true, order: [0, 1, 2, 3] }, rec.events);
    await vi.advanceTimersByTimeAsync(50);
    expect(rec.outcome()).toEqual({ status: 'error', error: { kind: 'load', message: 'the engine failed to load: 404' } });
    expect(rec.results.size).toBe(0);
    expect(rec.errors.size).toBe(0);
  });
});

describe('LabWorker', () => {
  it('answers meta and points calls with parsed values', async () => {
    const w = new LabWorker(() => createFakeLabWorker(fakeLabEngine({ points: 3 })));
    const meta = w.call({ fn: 'meta' });
    const points = w.call({ fn: 'points', lab: 'x', quick: true });
    await vi.advanceTimersByTimeAsync(20);
    expect((await meta).value.paper.values).toEqual([]);
    expect((await points).value).toHaveLength(3);
    await expect(w.ready()).resolves.toBeUndefined();
  });

  it('rejects the calls in flight on terminate; the next call starts a fresh worker', async () => {
    const fakes: FakeLabWorker[] = [];
    const w = new LabWorker(() => {
      const f = createFakeLabWorker(fakeLabEngine());
      fakes.push(f);
      return f;
    });
    const p = w.call({ fn: 'meta' });
    w.terminate();
    // Stopped, not crashed: the calls fail as cancelled.
    await expect(p).rejects.toMatchObject({ fatal: true, error: { kind: 'internal', message: 'cancelled' } });
    expect(fakes[0].terminated).toBe(true);
    const again = w.call({ fn: 'meta' });
    await vi.advanceTimersByTimeAsync(20);
    await expect(again).resolves.toMatchObject({ value: { paper: { values: [] } } });
    expect(fakes).toHaveLength(2);
    expect(w.started).toBe(2);
  });

  it('a call past its deadline takes the worker for dead, and says so', async () => {
    const w = new LabWorker(() => createFakeLabWorker(fakeLabEngine(), { silentAt: [0] }));
    const p = w.call({ fn: 'run', lab: 'x', quick: true, index: 0 }, { deadlineMs: 90_000 });
    const caught = p.catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(90_000);
    expect(await caught).toMatchObject({ fatal: true, error: { kind: 'trap', message: 'the lab worker stopped answering (no reply in 90 s)' } });
  });
});

describe('the lab worker’s answers', () => {
  it('are in the engine workers’ envelope, failures as EngineErrors: a trap is fatal, an error the bindings throw is not', () => {
    const engine = fakeLabEngine({ points: 2, trapAt: [1] });
    const trap = handleCall(engine, { fn: 'run', lab: 'x', quick: true, index: 1 }, () => 0);
    expect(outcomeMessage(3, trap)).toEqual({ type: 'error', id: 3, fatal: true, error: { kind: 'trap', message: 'the engine trapped (unreachable)' } });
    const bad = handleCall(engine, { fn: 'run', lab: 'x', quick: true, index: 5 }, () => 0);
    expect(outcomeMessage(4, bad)).toEqual({ type: 'error', id: 4, fatal: false, error: { kind: 'internal', message: 'lab x has 2 points, not 6' } });
    const ok = handleCall(engine, { fn: 'run', lab: 'x', quick: true, index: 0 }, () => 0);
    expect(outcomeMessage(5, ok)).toMatchObject({ type: 'reply', id: 5, reply: { value: { total_throughput_mbps: 100 }, wallMs: 0 } });
  });
});
