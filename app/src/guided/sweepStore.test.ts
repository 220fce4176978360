import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SweepPool } from './pool';
import type { LabCall, PointDebug } from './protocol';
import { LabService } from './service';
import { browserPage, COMPARE_EVERY_MS, DRAW_BUDGET_FACTOR, fingerprint, parsePointDebug, SAVE_EVERY_MS, SweepStore, type PageLifecycle } from './sweepStore';
import { createFakeLabWorker, fakeLabEngine } from './testing/fakeLabWorker';
import type { Lab } from '../engine/generated/labs';
import { lab, series } from './testing/fixtures';

class MemoryStorage {
  data = new Map<string, string>();
  getItem(k: string) {
    return this.data.get(k) ?? null;
  }
  setItem(k: string, v: string) {
    this.data.set(k, v);
  }
  removeItem(k: string) {
    this.data.delete(k);
  }
}

const L = lab({ id: 'x', series: [series('s0', [{ algorithm: 'reno' }]), series('s1', [{ algorithm: 'scalable' }])] });

/** A page whose hiding (pagehide, or visibilitychange to hidden) the test triggers. */
class FakePage implements PageLifecycle {
  listeners = new Set<() => void>();
  onHide(cb: () => void) {
    this.listeners.add(cb);
    return () => this.listeners.delete(cb);
  }
  hide() {
    for (const l of this.listeners) l();
  }
}

function setup(
  o: {
    points?: number;
    trapAt?: number[];
    debug?: Map<number, PointDebug>;
    storage?: MemoryStorage;
    delay?: number;
    delayOf?: (call: LabCall) => number;
    lab?: Lab;
    now?: () => number;
    page?: PageLifecycle | null;
    quick?: boolean;
    ahead?: (labId: string) => Promise<string | null>;
  } = {},
) {
  const engine = fakeLabEngine({ points: o.points ?? 6, trapAt: o.trapAt });
  const make = () => createFakeLabWorker(engine, { delay: o.delayOf ?? (() => o.delay ?? 10) });
  const pool = new SweepPool(2, make);
  const service = new LabService(make);
  const storage = o.storage ?? new MemoryStorage();
  const store = new SweepStore(o.lab ?? L, o.quick ?? true, { service, pool, now: o.now ?? (() => Date.now()), storage: storage as unknown as Storage, debug: o.debug, page: o.page, ahead: o.ahead });
  return { store, pool, storage, service };
}

/** The point indices kept in `storage` for the lab's quick sweep. */
function savedIndices(storage: MemoryStorage): number[] {
  const text = storage.getItem(`sawtooth.labs.v1:${L.id}:quick`);
  if (!text) return [];
  return (JSON.parse(text) as { results: { index: number }[] }).results.map((r) => r.index).sort((a, b) => a - b);
}

function doneIndices(store: SweepStore): number[] {
  return store
    .getSnapshot()
    .results.map((r, i) => (r ? i : -1))
    .filter((i) => i >= 0);
}

/** A page's clock: performance.now(), which starts at 0 when the page loads. */
function pageClock(): () => number {
  const t0 = Date.now();
  return () => Date.now() - t0;
}

/** Points 0–2 take 10 ms; the rest a minute, so the sweep is still running when the test looks. */
const slowAfterThree = (call: LabCall) => {
  if (call.fn === 'run') return call.index < 3 ? 10 : 60_000;
  if (call.fn === 'runBatch') return call.indices.every((i) => i < 3) ? 10 * call.indices.length : 60_000;
  return 10;
};

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

async function settle(ms = 500) {
  await vi.advanceTimersByTimeAsync(ms);
}

describe('SweepStore', () => {
  it('loads the points, runs them all, and is done only once the final comparison is in', async () => {
    const { store } = setup();
    void store.load();
    expect(store.getSnapshot().state).toBe('loading');
    await settle(50);
    expect(store.getSnapshot()).toMatchObject({ state: 'idle', restored: false });
    expect(store.getSnapshot().points).toHaveLength(6);
    // The paper table is there before any run, and the charts' (empty) aggregates.
    expect(store.getSnapshot().comparisons).toEqual([{ key: 'k', simulated_points: 0 }]);
    expect(store.getSnapshot().aggregates).toEqual({ at_x: [], series: [] });
    const states: string[] = [];
    store.subscribe(() => states.push(store.getSnapshot().state));
    store.run();
    expect(store.getSnapshot().state).toBe('running');
    await settle(15);
    const mid = store.getSnapshot();
    expect(mid.results.filter(Boolean)).toHaveLength(2);
    // Both workers busy again (each on one point, or on a batch of small ones).
    expect(mid.pointStates.filter((p) => p.status === 'running').length).toBeGreaterThanOrEqual(2);
    await settle(500);
    const s = store.getSnapshot();
    expect(s.state).toBe('done');
    expect(s.results.every((r) => r !== null)).toBe(true);
    expect(s.results[3]!.total_throughput_mbps).toBe(103);
    expect(s.comparisons).toEqual([{ key: 'k', simulated_points: 6 }]);
    // The charts draw the engine's aggregates of every result, asked for the lab's chart metrics.
    expect(s.aggregates!.at_x.map((a) => [a.metric, a.mean])).toEqual(s.results.map((r) => ['total_throughput_mbps', r!.total_throughput_mbps]));
    expect(states.at(-1)).toBe('done');
  });

  it('tells subscribers of point progress once a frame, and compares at most every COMPARE_EVERY_MS while running', async () => {
    const { store, service } = setup({ points: 40, delay: 5 });
    const compare = vi.spyOn(service, 'compare');
    const aggregates = vi.spyOn(service, 'aggregates');
    void store.load();
    await settle(50);
    let heard = 0;
    store.subscribe(() => heard++);
    store.run();
    await settle(2000);
    const s = store.getSnapshot();
    expect(s.state).toBe('done');
    expect(s.comparisons).toEqual([{ key: 'k', simulated_points: 40 }]);
    // 40 results (and 40 starts) in well under a second: far fewer notifications and comparisons.
    expect(heard).toBeLessThan(40);
    expect(compare.mock.calls.length).toBeLessThan(10);
    // The charts' aggregates come with each comparison, the last over every result.
    expect(aggregates.mock.calls.length).toBe(compare.mock.calls.length);
    expect(s.aggregates!.at_x).toHaveLength(40);
  });

  it('asks the engine what the text’s sentences say of the results so far, and only for a lab that has some', async () => {
    const sentence = { id: 'c', text: 't', checks: [], scales: [] };
    const { store } = setup({ lab: { ...L, guide: { ...L.guide, simulator: [sentence] } } });
    void store.load();
    await settle(50);
    expect(store.getSnapshot().claims).toEqual([expect.objectContaining({ id: 'c', text: '0 runs', holds: null })]);
    store.run();
    await settle(500);
    expect(store.getSnapshot().state).toBe('done');
    expect(store.getSnapshot().claims).toEqual([expect.objectContaining({ text: '6 runs', holds: true })]);
    // Without sentences: none, and no call.
    const plain = setup();
    void plain.store.load();
    await settle(50);
    expect(plain.store.getSnapshot().claims).toEqual([]);
  });

  it('reports a trapped point and finishes the rest; running again retries only what is missing', async () => {
    const { store } = setup({ debug: new Map([[2, 'trap' as const]]) });
    void store.load();
    await settle(50);
    store.run();
    await settle(500);
    const s = store.getSnapshot();
    expect(s.state).toBe('done');
    expect(s.pointStates[2]).toMatchObject({ status: 'error', crashed: true });
    expect(s.pointStates[2].error).toMatch(/trapped/);
    expect(s.results.filter(Boolean)).toHaveLength(5);
  });

  it('cancel stops the sweep, keeps what finished, and a new run does the rest', async () => {
    const { store, pool } = setup({ points: 10, delay: 50 });
    void store.load();
    // The service answers one call at a time, as a real worker: the comparison's calls take 50 ms each.
    await settle(300);
    expect(store.getSnapshot().state).toBe('idle');
    store.run();
    await settle(60);
    const gen = pool.generation;
    store.cancel();
    await settle(120);
    let s = store.getSnapshot();
    expect(s.state).toBe('cancelled');
    expect(pool.generation).toBe(gen + 1);
    const kept = s.results.filter(Boolean).length;
    expect(kept).toBe(2);
    expect(s.pointStates.filter((p) => p.status === 'running')).toHaveLength(0);
    await settle(500);
    expect(store.getSnapshot().results.filter(Boolean)).toHaveLength(kept);
    store.run();
    await settle(1000);
    s = store.getSnapshot();
    expect(s.state).toBe('done');
    expect(s.results.every(Boolean)).toBe(true);
  });

  it('waits longer before redrawing the results when the page took long to draw the last ones', async () => {
    // A page whose every redraw of new results takes 300 ms (its clock moves on while the listener runs).
    let drawn = 0;
    const run = async (drawMs: number) => {
      const engine = fakeLabEngine({ points: 200 });
      const make = () => createFakeLabWorker(engine, { delay: () => 100 });
      const service = new LabService(make);
      let extra = 0;
      const store = new SweepStore(L, true, { service, pool: new SweepPool(2, make), now: () => Date.now() + extra, storage: null });
      let lastAggregates: unknown = null;
      store.subscribe(() => {
        const a = store.getSnapshot().aggregates;
        if (a !== lastAggregates) {
          lastAggregates = a;
          extra += drawMs;
          drawn++;
        }
      });
      void store.load();
      await settle(300);
      const compare = vi.spyOn(service, 'compare');
      store.run();
      await settle(6000); // the sweep (200 points of 100 ms on 2 workers) is still running
      expect(store.getSnapshot().state).toBe('running');
      store.dispose();
      return compare.mock.calls.length;
    };
    const quickPage = await run(1);
    drawn = 0;
    const slowPage = await run(300);
    expect(drawn).toBeGreaterThan(0);
    // A quick page is redrawn every COMPARE_EVERY_MS; a slow one every DRAW_BUDGET_FACTOR × 300 ms.
    expect(COMPARE_EVERY_MS * 2).toBeLessThan(DRAW_BUDGET_FACTOR * 300);
    // The service answers its four calls one after another, 100 ms each: a quick page's cycle is ~900 ms.
    // A slow page's second refresh was scheduled before its first draw was timed; after that, 3 s apart.
    expect(quickPage).toBeGreaterThanOrEqual(5);
    expect(slowPage).toBeLessThanOrEqual(3);
  });

  it('keeps results for the tab and restores them for the same sweep', async () => {
    const storage = new MemoryStorage();
    const a = setup({ storage });
    void a.store.load();
    await settle(50);
    a.store.run();
    await settle(500);
    expect(a.store.getSnapshot().state).toBe('done');
    const b = setup({ storage });
    void b.store.load();
    await settle(50);
    expect(b.store.getSnapshot()).toMatchObject({ state: 'done', restored: true });
    expect(b.store.getSnapshot().results.map((r) => r?.total_throughput_mbps)).toEqual([100, 101, 102, 103, 104, 105]);
    // A different sweep (other points) does not take them.
    const c = setup({ storage, points: 7 });
    void c.store.load();
    await settle(50);
    expect(c.store.getSnapshot()).toMatchObject({ state: 'idle', restored: false });
    b.store.clear();
    await settle(50);
    expect(b.store.getSnapshot().results.every((r) => r === null)).toBe(true);
    expect(storage.data.size).toBe(0);
  });
});

describe('SweepStore opens a sweep file from the CLI (issue 27)', () => {
  const file = (indices: number[], o: { lab?: string; quick?: boolean } = {}) => JSON.stringify({ lab: o.lab ?? L.id, quick: o.quick ?? true, indices });

  it('fills the sweep as a run here would, compares, is done, and marks the results as from the file', async () => {
    const storage = new MemoryStorage();
    const { store, service } = setup({ storage });
    void store.load();
    await settle(50);
    const states: string[] = [];
    store.subscribe(() => states.push(store.getSnapshot().state));
    const opened = store.openFile('x-quick.csv', file([0, 1, 2, 3, 4, 5]));
    await settle(100);
    expect(await opened).toEqual({ ok: true, runs: 6 });
    const s = store.getSnapshot();
    expect(s.state).toBe('done');
    expect(states.at(-1)).toBe('done');
    expect(s.results.map((r) => r?.total_throughput_mbps)).toEqual([100, 101, 102, 103, 104, 105]);
    expect(s.pointStates.every((p) => p.status === 'done')).toBe(true);
    // The same engine calls as at the end of a run.
    expect(s.comparisons).toEqual([{ key: 'k', simulated_points: 6 }]);
    expect(s.aggregates!.at_x).toHaveLength(6);
    expect(s.imported).toEqual({ file: 'x-quick.csv', quick: true, series: [], engine: 'fake', stamp: 'stamp', runs: 6, ahead: false });
    // Kept for the tab with the mark; Clear forgets both.
    const again = setup({ storage, lab: L });
    void again.store.load();
    await settle(50);
    expect(again.store.getSnapshot()).toMatchObject({ state: 'done', restored: true, imported: { file: 'x-quick.csv' } });
    store.clear();
    await settle(50);
    expect(store.getSnapshot()).toMatchObject({ imported: null, state: 'idle' });
    expect(service).toBeDefined();
  });

  it('a file with some runs leaves the others to run here, and replaces earlier results', async () => {
    const { store } = setup();
    void store.load();
    await settle(50);
    store.run();
    await settle(500);
    const opened = store.openFile('part.csv', file([1, 3]));
    await settle(100);
    expect(await opened).toEqual({ ok: true, runs: 2 });
    const s = store.getSnapshot();
    expect(s.state).toBe('idle');
    expect(s.results.map((r) => (r ? r.total_throughput_mbps : null))).toEqual([null, 101, null, 103, null, null]);
    expect(s.pointStates.map((p) => p.status)).toEqual(['pending', 'done', 'pending', 'done', 'pending', 'pending']);
    store.run();
    await settle(500);
    expect(store.getSnapshot()).toMatchObject({ state: 'done', imported: { file: 'part.csv', runs: 2 } });
  });

  it('a refused file changes nothing and says why, with the line', async () => {
    const { store } = setup();
    void store.load();
    await settle(50);
    const before = store.getSnapshot();
    const refused = store.openFile('other.csv', file([0], { lab: 'y' }));
    await settle(50);
    expect(await refused).toEqual({ ok: false, line: 1, message: 'this file holds lab y' });
    const junk = store.openFile('junk.csv', 'not json');
    await settle(50);
    expect(await junk).toEqual({ ok: false, line: 1, message: 'this is not a sweep file' });
    expect(store.getSnapshot()).toBe(before);
    // Not while a sweep runs here.
    store.run();
    const busy = await store.openFile('x.csv', file([0]));
    expect(busy.ok).toBe(false);
    expect(busy.ok ? '' : busy.message).toContain('a sweep is running here');
  });
});

describe('SweepStore keeps every finished point for a reload or a closed tab', () => {
  it('writes the finished points when the page is hidden, even in its first 2 s, and a reload restores them', async () => {
    const storage = new MemoryStorage();
    const page = new FakePage();
    const a = setup({ storage, points: 10, delayOf: slowAfterThree, now: pageClock(), page });
    void a.store.load();
    await settle(50);
    a.store.run();
    await settle(200);
    expect(a.store.getSnapshot().state).toBe('running');
    expect(doneIndices(a.store)).toEqual([0, 1, 2]);
    // The first result is written at once, even before the page is 2 s old.
    expect(savedIndices(storage).length).toBeGreaterThan(0);
    page.hide(); // pagehide (a reload, a closed tab) or visibilitychange to hidden
    expect(savedIndices(storage)).toEqual([0, 1, 2]);
    // The reloaded page (its old store never disposed) restores them.
    const b = setup({ storage, points: 10, now: pageClock(), page: new FakePage() });
    void b.store.load();
    await settle(50);
    expect(b.store.getSnapshot()).toMatchObject({ state: 'idle', restored: true });
    expect(doneIndices(b.store)).toEqual([0, 1, 2]);
    a.store.dispose();
    b.store.dispose();
  });

  it('writes a pending save within SAVE_EVERY_MS even when no more results come', async () => {
    const storage = new MemoryStorage();
    const { store } = setup({ storage, points: 10, delayOf: slowAfterThree, now: pageClock(), page: null });
    void store.load();
    await settle(50);
    store.run();
    await settle(200);
    expect(doneIndices(store)).toEqual([0, 1, 2]);
    await settle(SAVE_EVERY_MS);
    expect(store.getSnapshot().state).toBe('running');
    expect(savedIndices(storage)).toEqual([0, 1, 2]);
    store.dispose();
  });

  it('writes the pending save when disposed, and stops listening to the page', async () => {
    const storage = new MemoryStorage();
    const page = new FakePage();
    const { store } = setup({ storage, points: 10, delayOf: slowAfterThree, now: pageClock(), page });
    void store.load();
    await settle(50);
    expect(page.listeners.size).toBe(1);
    store.run();
    await settle(200);
    expect(doneIndices(store)).toEqual([0, 1, 2]);
    store.dispose();
    expect(savedIndices(storage)).toEqual([0, 1, 2]);
    expect(page.listeners.size).toBe(0);
  });

  it('browserPage calls back on pagehide and on visibilitychange to hidden only', () => {
    const win = new EventTarget();
    const doc = Object.assign(new EventTarget(), { visibilityState: 'visible' as DocumentVisibilityState });
    const page = browserPage(win, doc)!;
    let hidden = 0;
    const stop = page.onHide(() => hidden++);
    doc.dispatchEvent(new Event('visibilitychange'));
    expect(hidden).toBe(0);
    doc.visibilityState = 'hidden';
    doc.dispatchEvent(new Event('visibilitychange'));
    expect(hidden).toBe(1);
    win.dispatchEvent(new Event('pagehide'));
    expect(hidden).toBe(2);
    stop();
    win.dispatchEvent(new Event('pagehide'));
    doc.dispatchEvent(new Event('visibilitychange'));
    expect(hidden).toBe(2);
    // No page (a worker, Node): nothing to listen to.
    expect(browserPage(undefined, undefined)).toBeNull();
  });
});

describe('helpers', () => {
  it('parsePointDebug reads trap/crash switches and ignores the rest', () => {
    expect([...parsePointDebug('trap:3,crash:5,boom:1,trap:x')]).toEqual([
      [3, 'trap'],
      [5, 'crash'],
    ]);
    expect(parsePointDebug(null).size).toBe(0);
  });
  it('fingerprint is stable and sensitive', () => {
    expect(fingerprint('abc')).toBe(fingerprint('abc'));
    expect(fingerprint('abc')).not.toBe(fingerprint('abd'));
    expect(fingerprint('')).toMatch(/^[0-9a-f]{8}$/);
  });
});

describe('SweepStore shows the faithful results computed ahead (issue 27)', () => {
  const file = (indices: number[], o: { lab?: string } = {}) => JSON.stringify({ lab: o.lab ?? L.id, quick: false, indices });
  const all = [0, 1, 2, 3, 4, 5];

  it('at the faithful scale, with nothing of its own, it shows them at once, marked, without writing them to the tab', async () => {
    const asked: string[] = [];
    const storage = new MemoryStorage();
    const { store } = setup({ quick: false, storage, ahead: async (id) => (asked.push(id), file(all)) });
    void store.load();
    await settle(100);
    const s = store.getSnapshot();
    expect(asked).toEqual([L.id]);
    expect(s.state).toBe('done');
    expect(s.results.map((r) => r?.total_throughput_mbps)).toEqual([100, 101, 102, 103, 104, 105]);
    expect(s.imported).toMatchObject({ ahead: true, stamp: 'stamp', runs: 6, file: `results/${L.id}.csv` });
    expect(s.aheadProblem).toBeNull();
    expect(storage.data.size).toBe(0);
    // Running them again here: clear, then the sweep runs as any other.
    store.clear();
    store.run();
    await settle(500);
    expect(store.getSnapshot()).toMatchObject({ state: 'done', imported: null });
  });

  it('the quick scale, or results of its own in this tab, come first', async () => {
    const asked: string[] = [];
    const ahead = async (id: string) => (asked.push(id), file(all));
    const quick = setup({ ahead });
    void quick.store.load();
    await settle(100);
    expect(quick.store.getSnapshot()).toMatchObject({ state: 'idle', imported: null });
    const storage = new MemoryStorage();
    const own = setup({ quick: false, storage });
    void own.store.load();
    await settle(100);
    own.store.run();
    await settle(500);
    const again = setup({ quick: false, storage, ahead });
    void again.store.load();
    await settle(100);
    expect(again.store.getSnapshot()).toMatchObject({ state: 'done', restored: true, imported: null });
    expect(asked).toEqual([]);
  });

  it('results the engine refuses, or none shipped, leave the sweep to run here and say why', async () => {
    const refused = setup({ quick: false, ahead: async () => file(all, { lab: 'another' }) });
    void refused.store.load();
    await settle(100);
    expect(refused.store.getSnapshot()).toMatchObject({ state: 'idle', imported: null });
    expect(refused.store.getSnapshot().aheadProblem).toMatchObject({ kind: 'refused', reason: expect.stringMatching(/another/) });
    const none = setup({ quick: false, ahead: async () => null });
    void none.store.load();
    await settle(100);
    expect(none.store.getSnapshot()).toMatchObject({ state: 'idle', imported: null, aheadProblem: null });
    const failed = setup({ quick: false, ahead: async () => Promise.reject(new Error('404')) });
    void failed.store.load();
    await settle(100);
    expect(failed.store.getSnapshot()).toMatchObject({ state: 'idle', aheadProblem: { kind: 'fetch', reason: '404' } });
  });
});
