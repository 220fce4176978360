import { describe, expect, it } from 'vitest';
import { EngineClient, type WorkerLike } from '../engine/client';
import { createFakeWorker } from '../engine/testing/fakeWorker';
import { createMockEngine, defaultMockScenario } from '../engine/testing/mockEngine';
import { RunStore } from '../lab/runStore';

describe('a crashed engine (resilience)', () => {
  it('reports the crash, keeps the last result, and the next run works in a new worker', async () => {
    const workers: WorkerLike[] = [];
    // A slow engine, so the second run is still going when the worker dies.
    const client = new EngineClient(() => {
      const w = createFakeWorker(createMockEngine({ busyMsPerAdvance: (s) => (s.rtt_ms === 99 ? 5 : 0) }), 1);
      workers.push(w);
      return w;
    });
    const store = new RunStore(client);
    store.start(defaultMockScenario());
    const a = await store.whenDone();
    expect(a.state).toBe('done');

    store.start({ ...defaultMockScenario(), rtt_ms: 99 });
    await new Promise((r) => setTimeout(r, 5));
    expect(store.getSnapshot().state).toBe('running');
    workers[0].onerror!({ message: 'worker died', preventDefault() {} } as ErrorEvent);
    const crashed = await store.whenDone();
    expect(crashed.state).toBe('error');
    expect(crashed.error).toMatchObject({ kind: 'trap' });
    // The last result is still what the page shows.
    expect(crashed.summary).toEqual(a.summary);
    expect(crashed.series).toBe(a.series);
    expect(crashed.scenario).toEqual(a.scenario);

    store.start({ ...defaultMockScenario(), rtt_ms: 60 });
    const b = await store.whenDone();
    expect(b.state).toBe('done');
    expect(b.scenario!.rtt_ms).toBe(60);
    expect(workers).toHaveLength(2);
    client.dispose();
  });

  it('a validation error does not bring back an old result', async () => {
    const client = new EngineClient(() => createFakeWorker(createMockEngine()));
    const store = new RunStore(client);
    store.start(defaultMockScenario());
    await store.whenDone();
    store.start({ ...defaultMockScenario(), rtt_ms: 5000 });
    const bad = await store.whenDone();
    expect(bad.error?.kind).toBe('validation');
    expect(bad.summary).toBeNull();
    client.dispose();
  });
});
