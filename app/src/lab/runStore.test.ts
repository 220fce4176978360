import { describe, expect, it } from 'vitest';
import { EngineClient } from '../engine/client';
import { createFakeWorker } from '../engine/testing/fakeWorker';
import { createMockEngine, defaultMockScenario, mockCwnd, mockEstimate } from '../engine/testing/mockEngine';
import { EngineSpeed, MIN_MEASURED_EVENTS } from '../engine/speed';
import { CONFIRM_ABOVE_MS, RunStore, type RunState } from './runStore';
import { RenderedRun } from '../testHooks';

/** An engine speed of `eventsPerS`, as if measured here (no browser storage). */
function speedOf(eventsPerS: number): EngineSpeed {
  const speed = new EngineSpeed(null);
  // A run long enough to count as a measurement (MIN_MEASURED_EVENTS).
  const seconds = Math.max(1, Math.ceil(MIN_MEASURED_EVENTS / eventsPerS));
  speed.record(eventsPerS * seconds, 1000 * seconds);
  return speed;
}

function setup(eventsPerS = 1e9) {
  const client = new EngineClient(() => createFakeWorker(createMockEngine()));
  const store = new RunStore(client, { speed: speedOf(eventsPerS) });
  const states: RunState[] = [];
  store.subscribe(() => {
    const s = store.getSnapshot().state;
    if (states.at(-1) !== s) states.push(s);
  });
  return { client, store, states };
}

describe('RunStore', () => {
  it('goes running → done, growing the series and keeping the summary', async () => {
    const { client, store, states } = setup();
    const lengths: number[] = [];
    store.subscribe(() => lengths.push(store.getSnapshot().series?.length ?? 0));
    store.start(defaultMockScenario());
    expect(store.getSnapshot().state).toBe('running');
    const final = await store.whenDone();
    expect(final.state).toBe('done');
    expect(states).toEqual(['running', 'done']);
    expect(final.series!.length).toBe(101);
    expect(final.series!.flows[0].cwnd_pkts[50]).toBeCloseTo(mockCwnd(0.5, 0, 30));
    expect(final.events).toHaveLength(10);
    expect(final.summary!.total_throughput_bps).toBeCloseTo(8e8 / 1.3);
    expect(final.progress).toBe(1);
    // The series grew over several updates (live charts).
    expect(new Set(lengths.filter((n) => n > 0 && n < 101)).size).toBeGreaterThan(0);
    client.dispose();
  });

  it('a new start supersedes the running one; whenDone waits for the latest', async () => {
    const { client, store, states } = setup();
    store.start(defaultMockScenario());
    const done = store.whenDone();
    const s2 = { ...defaultMockScenario(), rtt_ms: 200 };
    store.start(s2);
    const final = await done;
    expect(final.scenario).toEqual(s2);
    expect(final.summary!.total_throughput_bps).toBeCloseTo(8e8 / 3);
    expect(states).toEqual(['running', 'done']);
    client.dispose();
  });

  it("refuses before it runs a scenario over the browser's budget, naming the field and the limit (issue 28)", async () => {
    const s = defaultMockScenario();
    const need = mockEstimate(s).browser_bytes_max;
    const stats = { created: 0, freed: 0, advances: 0 };
    const client = new EngineClient(() => createFakeWorker(createMockEngine({ stats, browserBudgetBytes: need - 1 })));
    const store = new RunStore(client, { speed: speedOf(1e9) });
    store.start(s);
    const refused = await store.whenDone();
    expect(refused.state).toBe('error');
    expect(refused.error).toMatchObject({ kind: 'validation', errors: [{ field: 'sample_interval_ms', value: '10' }] });
    const message = refused.error?.kind === 'validation' ? refused.error.errors[0].message : '';
    expect(message).toContain(`(limit ${need - 1} bytes in the browser)`);
    expect(message).toContain('use ≥ 20 ms');
    // The user's go-ahead for a long run does not lift it.
    store.start(s, { confirmed: true });
    expect((await store.whenDone()).state).toBe('error');
    expect(stats.created).toBe(0);
    client.dispose();
    // At the budget it runs.
    const client2 = new EngineClient(() => createFakeWorker(createMockEngine({ stats, browserBudgetBytes: need })));
    const store2 = new RunStore(client2, { speed: speedOf(1e9) });
    store2.start(s);
    expect((await store2.whenDone()).state).toBe('done');
    expect(stats.created).toBe(1);
    client2.dispose();
  });

  it('an invalid scenario over the browser budget gets its validation errors, not the budget', async () => {
    const s = { ...defaultMockScenario(), rtt_ms: -1 };
    const client = new EngineClient(() => createFakeWorker(createMockEngine({ browserBudgetBytes: 1 })));
    const store = new RunStore(client, { speed: speedOf(1e9) });
    store.start(s);
    const final = await store.whenDone();
    expect(final.error).toMatchObject({ kind: 'validation', errors: [{ field: 'rtt_ms' }] });
    client.dispose();
  });

  it('ends in error with the validation errors', async () => {
    const { client, store } = setup();
    store.start({ ...defaultMockScenario(), rtt_ms: 5000 });
    const final = await store.whenDone();
    expect(final.state).toBe('error');
    expect(final.error).toEqual({ kind: 'validation', errors: [{ field: 'rtt_ms', value: '5000', message: 'must be between 0 and 1000 ms' }] });
    expect(final.summary).toBeNull();
    client.dispose();
  });
});

describe('RunStore: long runs wait, any run can be stopped (issue 11)', () => {
  // The mock engine does one event per simulated microsecond: a 1 s scenario is 1e6 events.
  it('holds a run estimated above a minute, keeps the last result, and runs it on confirm', async () => {
    const { client, store, states } = setup(1e6 / 30); // the default 1 s mock run takes 30 s here
    const s = defaultMockScenario();
    store.start({ ...s, duration_ms: 500 }); // 15 s: runs at once
    const first = await store.whenDone();
    expect(first.state).toBe('done');
    const long = { ...s, duration_ms: 3000 }; // 90 s > CONFIRM_ABOVE_MS
    store.start(long);
    const held = await store.whenDone();
    expect(held.state).toBe('waiting');
    expect(held.held).toEqual(long);
    expect(held.estimate!.engine_events).toBe(3e6);
    expect(held.estimatedMs).toBeGreaterThan(CONFIRM_ABOVE_MS);
    // What is on screen is still the last finished run.
    expect(held.scenario!.duration_ms).toBe(500);
    expect(held.summary).toEqual(first.summary);
    store.confirm();
    expect(store.getSnapshot().state).toBe('running');
    const done = await store.whenDone();
    expect(done.state).toBe('done');
    expect(done.scenario).toEqual(long);
    expect(states).toEqual(['running', 'done', 'running', 'waiting', 'running', 'done']);
    client.dispose();
  });

  it('measures the engine’s speed from finished runs', async () => {
    const client = new EngineClient(() => createFakeWorker(createMockEngine({ busyMsPerAdvance: 3 })));
    const speed = new EngineSpeed(null);
    const store = new RunStore(client, { speed });
    store.start({ ...defaultMockScenario(), duration_ms: 2000 });
    const done = await store.whenDone();
    expect(done.state).toBe('done');
    expect(speed.measured()).toBe(true);
    // 2e6 events in the run's wall time.
    expect(speed.eventsPerSecond()).toBeCloseTo((2e6 / done.wallMs!) * 1000, -2);
    client.dispose();
    // The fake engine busy-waits in every slice: on a loaded machine the run
    // takes seconds of wall time, so the test's limit is not vitest's 5 s.
  }, 30_000);

  it('stops a running run: what was computed stays, nothing else runs', async () => {
    const client = new EngineClient(() => createFakeWorker(createMockEngine({ busyMsPerAdvance: 2 })));
    const store = new RunStore(client, { speed: speedOf(1e9) });
    store.start({ ...defaultMockScenario(), duration_ms: 60_000 });
    await new Promise<void>((resolve) => {
      const off = store.subscribe(() => {
        if ((store.getSnapshot().series?.length ?? 0) > 0) {
          off();
          resolve();
        }
      });
    });
    store.stop();
    const stopped = await store.whenDone();
    expect(stopped.state).toBe('stopped');
    const rows = stopped.series!.length;
    expect(rows).toBeGreaterThan(0);
    expect(rows).toBeLessThan(6001);
    await new Promise((r) => setTimeout(r, 30));
    expect(store.getSnapshot().state).toBe('stopped');
    expect(store.getSnapshot().series!.length).toBe(rows);
    client.dispose();
  });

  it('reports time left while running, from the estimate and then the pace', async () => {
    const { client, store } = setup(1e6); // 1 s of mock simulation = 1 s here
    const left: number[] = [];
    store.subscribe(() => {
      const t = store.getSnapshot().timeLeftMs;
      if (store.getSnapshot().state === 'running' && t !== null) left.push(t);
    });
    store.start({ ...defaultMockScenario(), duration_ms: 2000 });
    await store.whenDone();
    expect(left[0]).toBe(2000); // the estimate, before any progress
    expect(store.getSnapshot().timeLeftMs).toBe(0);
    client.dispose();
  });
});

describe('RenderedRun hooks', () => {
  it('are read-only copies and resolve whenDone on a published final state', async () => {
    const { client, store } = setup();
    const rendered = new RenderedRun();
    const hooks = rendered.hooks();
    expect(Object.isFrozen(hooks)).toBe(true);
    const waiting = hooks.whenDone();
    store.start(defaultMockScenario());
    rendered.publish(store.getSnapshot(), 'running', null);
    const final = await store.whenDone();
    rendered.publish(final, final.state, null);
    expect(await waiting).toBe('done');
    const series = hooks.series()!;
    series.t[0] = 123;
    expect(hooks.series()!.t[0]).toBe(0);
    const summary = hooks.summary()!;
    summary.total_throughput_bps = -1;
    expect(hooks.summary()!.total_throughput_bps).toBeGreaterThan(0);
    client.dispose();
  });
});

describe('RunStore: the page holds what the run records, no more (issue 28)', () => {
  it('keeps the samples in the rows the run records, not a fixed 1024-row block per column', async () => {
    // A 4 096-flow run has 41 091 columns: 1 024 rows each were 321 MiB for 40 rows of samples.
    const { client, store } = setup();
    const s = defaultMockScenario();
    store.start(s);
    const final = await store.whenDone();
    const rows = mockEstimate(s).samples_per_flow;
    expect(final.series!.length).toBe(rows);
    for (const column of [final.series!.t, final.series!.flows[0].cwnd_pkts, final.series!.bottleneck_queue_pkts]) {
      expect(column.buffer.byteLength).toBe(rows * 8);
    }
    client.dispose();
  });

  it('a chunk without new samples keeps the series object (nothing drawn from it is rebuilt)', async () => {
    const { client, store } = setup();
    // Samples every 500 ms, slices of 20 ms and more: most chunks carry no new row.
    store.start({ ...defaultMockScenario(), sample_interval_ms: 500 });
    const seen: { series: unknown; length: number }[] = [];
    let chunks = 0;
    store.subscribe(() => {
      const snap = store.getSnapshot();
      if (snap.state === 'running' && snap.series) {
        chunks++;
        if (seen.at(-1)?.series !== snap.series) seen.push({ series: snap.series, length: snap.series.length });
      }
    });
    const final = await store.whenDone();
    expect(final.series!.length).toBe(3);
    // A new series object only when rows were added: its length always grew.
    const lengths = seen.map((x) => x.length);
    for (let i = 1; i < lengths.length; i++) expect(lengths[i]).toBeGreaterThan(lengths[i - 1]);
    expect(chunks).toBeGreaterThan(seen.length);
    client.dispose();
  });
});
