import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AblationStore } from './ablationStore';
import { SweepPool } from './pool';
import type { LabCall } from './protocol';
import { LabService } from './service';
import { createFakeLabWorker, fakeLabEngine, type FakeLabWorker } from './testing/fakeLabWorker';

function setup(points = 4) {
  const engine = fakeLabEngine({ points });
  const workers: FakeLabWorker[] = [];
  const make = () => {
    const w = createFakeLabWorker(engine, { delay: () => 10 });
    workers.push(w);
    return w;
  };
  const pool = new SweepPool(2, make);
  const service = new LabService(make);
  const store = new AblationStore('x', true, { service, pool });
  // Every point run, alone or in a batch of small ones.
  const runs = (): { index: number; variant?: number }[] =>
    workers
      .flatMap((w) => w.received)
      .flatMap((c: LabCall) => (c.fn === 'run' ? [{ index: c.index, variant: c.variant }] : c.fn === 'runBatch' ? c.indices.map((index) => ({ index, variant: c.variant })) : []));
  return { store, pool, runs };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('AblationStore', () => {
  it('runs the whole sweep once per variant and keeps the engine’s row for each', async () => {
    const { store, runs } = setup(4);
    const done = store.run();
    await vi.advanceTimersByTimeAsync(1000);
    await done;
    const s = store.getSnapshot();
    expect(s.state).toBe('done');
    expect(s.variants.map((v) => v.switch)).toEqual([null, 'nic_ring']);
    expect(s.total).toBe(8);
    expect(s.done).toBe(8);
    // Variant 0 runs as the lab is defined (no variant on the call), variant 1 names itself.
    expect(runs().filter((c) => c.variant === undefined)).toHaveLength(4);
    expect(runs().filter((c) => c.variant === 1)).toHaveLength(4);
    // The fake measures 100 + i Mb/s, +100 under variant 1: means 101.5 and 201.5.
    expect(s.rows.map((r) => r?.headline[0].simulated)).toEqual([101.5, 201.5]);
    expect(s.rows.map((r) => r?.values_within_tolerance)).toEqual([0, 0]);
  });

  it('stops on cancel, says so, and runs only the missing variants next time', async () => {
    const { store, runs } = setup(4);
    const first = store.run();
    // Until variant 0's row is in and variant 1 runs.
    for (let i = 0; i < 100 && store.getSnapshot().current !== 1; i++) await vi.advanceTimersByTimeAsync(1);
    expect(store.getSnapshot().state).toBe('running');
    store.cancel();
    await first;
    expect(store.getSnapshot().state).toBe('cancelled');
    expect(store.getSnapshot().rows[0]).not.toBeNull();
    expect(store.getSnapshot().rows[1]).toBeNull();
    const before = runs().length;
    const second = store.run();
    await vi.advanceTimersByTimeAsync(1000);
    await second;
    expect(store.getSnapshot().state).toBe('done');
    const again = runs().slice(before);
    expect(again.every((c) => c.variant === 1)).toBe(true);
    expect(again).toHaveLength(4);
  });
});
