import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BandStore, bandEnds } from './bandStore';
import { SweepPool } from './pool';
import type { LabCall } from './protocol';
import { LabService } from './service';
import { createFakeLabWorker, fakeLabEngine, type FakeLabWorker } from './testing/fakeLabWorker';
import { lab, series } from './testing/fixtures';

const UNKNOWN = {
  id: 'switch-buffer',
  name: "the switch's egress buffer",
  setting: 'bottleneck_buffer_pkts' as const,
  assumed: 116,
  range: [295, 417] as [number, number],
  why_unknown: 'Not published.',
  range_source: 'A rule of thumb.',
};

function setup(o: { points?: number; unknown?: boolean; loadError?: string } = {}) {
  const engine = fakeLabEngine({ points: o.points ?? 4, unknown: o.unknown ?? true });
  const workers: FakeLabWorker[] = [];
  const make = () => {
    const w = createFakeLabWorker(engine, { delay: () => 10, loadError: o.loadError });
    workers.push(w);
    return w;
  };
  const pool = new SweepPool(2, make);
  const service = new LabService(make);
  const theLab = lab({ id: 'x', series: [series('s0', [{ algorithm: 'reno' }]), series('s1', [{ algorithm: 'reno' }])], unknowns: [UNKNOWN] });
  const store = new BandStore(theLab, true, { service, pool });
  const runs = (): { index: number; variant?: number }[] =>
    workers
      .flatMap((w) => w.received)
      .flatMap((c: LabCall) => (c.fn === 'run' ? [{ index: c.index, variant: c.variant }] : c.fn === 'runBatch' ? c.indices.map((index) => ({ index, variant: c.variant })) : []));
  const aggregateCalls = () => workers.flatMap((w) => w.received).filter((c) => c.fn === 'aggregates');
  return { store, pool, runs, workers, aggregateCalls };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('bandEnds', () => {
  it('takes the ablation variants that set a stated unknown, in the engine’s order', () => {
    const ends = bandEnds([
      { index: 0, switch: null, label: 'whole', profile_value: '', turned_back_to: '', overrides: {}, unknown: null },
      { index: 1, switch: 'nic_ring', label: 'ring', profile_value: '', turned_back_to: '', overrides: {}, unknown: null },
      { index: 2, switch: null, label: 'low', profile_value: '', turned_back_to: '', overrides: {}, unknown: { id: 'b', value: 295 } },
      { index: 3, switch: null, label: 'high', profile_value: '', turned_back_to: '', overrides: {}, unknown: { id: 'b', value: 417 } },
    ]);
    expect(ends.map((e) => [e.variant, e.unknown, e.value, e.results, e.aggregates])).toEqual([
      [2, 'b', 295, null, null],
      [3, 'b', 417, null, null],
    ]);
  });
});

describe('BandStore', () => {
  it('does nothing until asked', async () => {
    const { store, runs } = setup();
    await vi.advanceTimersByTimeAsync(1000);
    expect(store.getSnapshot().state).toBe('idle');
    expect(runs()).toHaveLength(0);
  });

  it('runs the whole sweep at each end of the range, keeping every result and the engine’s aggregates of them', async () => {
    const { store, runs, aggregateCalls } = setup({ points: 4 });
    const done = store.run();
    expect(store.getSnapshot().state).toBe('running');
    await vi.advanceTimersByTimeAsync(1000);
    await done;
    const s = store.getSnapshot();
    expect(s.state).toBe('done');
    expect(s.total).toBe(8);
    expect(s.done).toBe(8);
    expect(s.failed).toBe(0);
    // Only the two ends run: never the lab as defined (the sweep's own store has those) nor a switch turned back.
    expect(runs().map((r) => r.variant).sort()).toEqual([2, 2, 2, 2, 3, 3, 3, 3]);
    expect(s.ends.map((e) => [e.variant, e.value])).toEqual([
      [2, 295],
      [3, 417],
    ]);
    // The fake measures 100 + i Mb/s, +100 per variant index: each result kept by point index.
    expect(s.ends[0].results!.map((r) => r?.total_throughput_mbps)).toEqual([300, 301, 302, 303]);
    expect(s.ends[1].results!.map((r) => r?.total_throughput_mbps)).toEqual([400, 401, 402, 403]);
    // The engine aggregated each end's results for the lab's chart metrics.
    expect(aggregateCalls()).toHaveLength(2);
    expect(s.ends[0].aggregates!.at_x.filter((a) => a.metric === 'total_throughput_mbps').map((a) => a.mean)).toEqual([300, 301, 302, 303]);
    expect(s.ends[1].aggregates!.at_x.filter((a) => a.metric === 'total_throughput_mbps').map((a) => a.mean)).toEqual([400, 401, 402, 403]);
  });

  it('stops on cancel, says so, and runs only the missing end next time', async () => {
    const { store, runs } = setup({ points: 4 });
    const first = store.run();
    for (let i = 0; i < 200 && store.getSnapshot().current !== 1; i++) await vi.advanceTimersByTimeAsync(1);
    expect(store.getSnapshot().current).toBe(1);
    store.cancel();
    await first;
    expect(store.getSnapshot().state).toBe('cancelled');
    expect(store.getSnapshot().ends[0].aggregates).not.toBeNull();
    expect(store.getSnapshot().ends[1].aggregates).toBeNull();
    const before = runs().length;
    const second = store.run();
    await vi.advanceTimersByTimeAsync(1000);
    await second;
    expect(store.getSnapshot().state).toBe('done');
    const again = runs().slice(before);
    expect(again.every((c) => c.variant === 3)).toBe(true);
    expect(again).toHaveLength(4);
  });

  it('stops its runs and goes quiet when disposed (the lab is left)', async () => {
    const { store, pool, workers } = setup({ points: 4 });
    const heard = vi.fn();
    store.subscribe(heard);
    const run = store.run();
    for (let i = 0; i < 200 && !pool.running; i++) await vi.advanceTimersByTimeAsync(1);
    expect(pool.running).toBe(true);
    const before = workers.filter((w) => !w.terminated).length;
    store.dispose();
    expect(pool.running).toBe(false);
    // The pool's workers were terminated (a fresh pool is started).
    expect(workers.filter((w) => w.terminated).length).toBeGreaterThan(0);
    expect(before).toBeGreaterThan(0);
    heard.mockClear();
    await vi.advanceTimersByTimeAsync(1000);
    await run;
    expect(heard).not.toHaveBeenCalled();
    expect(store.getSnapshot().state).toBe('running');
  });

  it('says in words when the engine has no runs for the unknowns', async () => {
    const { store, runs } = setup({ unknown: false });
    const run = store.run();
    await vi.advanceTimersByTimeAsync(100);
    await run;
    expect(store.getSnapshot().state).toBe('error');
    expect(store.getSnapshot().message).toMatch(/no runs for this lab’s unknowns/);
    expect(runs()).toHaveLength(0);
  });

  it('says in words when the engine does not load', async () => {
    const { store } = setup({ loadError: 'no wasm here' });
    const run = store.run();
    await vi.advanceTimersByTimeAsync(100);
    await run;
    expect(store.getSnapshot().state).toBe('error');
    expect(store.getSnapshot().message).toMatch(/no wasm here/);
  });
});
