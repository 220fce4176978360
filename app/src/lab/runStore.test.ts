import { describe, expect, it } from 'vitest';
import { EngineClient } from '../engine/client';
import { createFakeWorker } from '../engine/testing/fakeWorker';
import { createMockEngine, defaultMockScenario, mockCwnd } from '../engine/testing/mockEngine';
import { RunStore, type RunState } from './runStore';
import { RenderedRun } from './testHooks';

function setup() {
  const client = new EngineClient(() => createFakeWorker(createMockEngine()));
  const store = new RunStore(client);
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
