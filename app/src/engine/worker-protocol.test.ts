import { describe, expect, it } from 'vitest';
import { EngineClient, HEARTBEAT_CHECK_MS, HEARTBEAT_TIMEOUT_MS, type RunChunk } from './client';
import { parseColumns, SeriesBuffer } from './columns';
import type { FromWorker, RunReply } from './protocol';
import { Runner } from './runner';
import { createFakeWorker, type FakeWorker } from './testing/fakeWorker';
import { handClock } from './testing/handClock';
import { createMockEngine, defaultMockScenario, mockCwnd } from './testing/mockEngine';

/** What a message says: a reply's own type, else the envelope's. */
const kind = (m: FromWorker) => (m.type === 'reply' ? m.reply.type : m.type);
type Chunk = Extract<RunReply, { type: 'chunk' }>;

describe('Runner (worker logic)', () => {
  it('announces ready, then streams started → chunks → done, transferring buffers', async () => {
    const posted: { msg: FromWorker; transfer?: Transferable[] }[] = [];
    const runner = new Runner({
      load: async () => createMockEngine(),
      post: (msg, transfer) => posted.push({ msg, transfer }),
      yieldToEvents: () => Promise.resolve(),
      now: () => 0, // every slice looks instant → the step doubles
      firstSliceNs: 10e6,
    });
    await runner.start();
    expect(posted[0].msg.type).toBe('ready');
    runner.handle({ id: 7, call: { type: 'run', scenario: defaultMockScenario() } });
    await new Promise((r) => setTimeout(r, 10));
    const types = posted.map((p) => kind(p.msg));
    expect(types[1]).toBe('started');
    expect(types.at(-1)).toBe('done');
    const chunks = posted.filter((p) => kind(p.msg) === 'chunk');
    // 10, 20, 40, ... ms slices cover 1000 ms in 7 chunks.
    expect(chunks).toHaveLength(7);
    for (const c of chunks) {
      const m = c.msg as Extract<FromWorker, { type: 'reply' }>;
      expect(m.id).toBe(7);
      const chunk = m.reply as Chunk;
      expect(c.transfer).toEqual([chunk.samples.buffer, chunk.events.buffer]);
    }
    const rows = chunks.reduce((n, c) => n + ((c.msg as Extract<FromWorker, { type: 'reply' }>).reply as Chunk).rows, 0);
    expect(rows).toBe(101);
  });

  it('posts validation errors as non-fatal and traps as fatal, then refuses to run', async () => {
    const posted: FromWorker[] = [];
    const runner = new Runner({
      load: async () => createMockEngine({ trapAtNs: 3e8 }),
      post: (msg) => posted.push(msg),
      yieldToEvents: () => Promise.resolve(),
      now: () => 0,
    });
    await runner.start();
    const bad = defaultMockScenario();
    bad.rtt_ms = -1;
    runner.handle({ id: 1, call: { type: 'run', scenario: bad } });
    await new Promise((r) => setTimeout(r, 5));
    expect(posted.at(-1)).toMatchObject({ type: 'error', id: 1, fatal: false, error: { kind: 'validation' } });

    runner.handle({ id: 2, call: { type: 'run', scenario: defaultMockScenario() } });
    await new Promise((r) => setTimeout(r, 5));
    expect(posted.at(-1)).toMatchObject({ type: 'error', id: 2, fatal: true, error: { kind: 'trap' } });

    runner.handle({ id: 3, call: { type: 'run', scenario: defaultMockScenario() } });
    await new Promise((r) => setTimeout(r, 5));
    expect(posted.at(-1)).toMatchObject({ type: 'error', id: 3, fatal: true });
  });

  it('reports an engine that fails to load', async () => {
    const posted: FromWorker[] = [];
    const runner = new Runner({
      load: () => Promise.reject(new Error('CompileError: bad magic')),
      post: (msg) => posted.push(msg),
      yieldToEvents: () => Promise.resolve(),
      now: () => 0,
    });
    await runner.start();
    expect(posted).toEqual([{ type: 'load-error', error: { kind: 'load', message: 'CompileError: bad magic' } }]);
  });
});

describe('EngineClient over a worker', () => {
  it('resolves ready() with the engine defaults', async () => {
    const client = new EngineClient(() => createFakeWorker(createMockEngine()));
    const info = await client.ready();
    expect(info.defaultScenario.rtt_ms).toBe(30);
    expect(info.catalogue[0].id).toBe('reno');
    client.dispose();
  });

  it('streams a run into a growing series that matches the engine', async () => {
    const client = new EngineClient(() => createFakeWorker(createMockEngine()));
    let buffer: SeriesBuffer | null = null;
    const chunks: RunChunk[] = [];
    const handle = client.run(defaultMockScenario(), {
      onStart: (s) => (buffer = new SeriesBuffer(parseColumns(s.columns))),
      onChunk: (c) => {
        chunks.push(c);
        buffer!.append(c.samples);
      },
    });
    const result = await handle.result;
    expect(result.status).toBe('done');
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.at(-1)!.nowNs).toBe(1e9);
    const s = buffer!.series();
    expect(s.length).toBe(101);
    for (let i = 0; i < s.length; i++) expect(s.flows[0].cwnd_pkts[i]).toBeCloseTo(mockCwnd(s.t[i], 0, 30));
    client.dispose();
  });

  it('cancels a stale run when a new one starts', async () => {
    const stats = { created: 0, freed: 0, advances: 0 };
    let worker: FakeWorker | null = null;
    const client = new EngineClient(() => (worker = createFakeWorker(createMockEngine({ stats, busyMsPerAdvance: (s) => (s.duration_ms > 100_000 ? 3 : 0) }), 1)));
    const long = defaultMockScenario();
    long.duration_ms = 600_000;
    let firstProgress = 0;
    const first = client.run(long, { onChunk: (c) => (firstProgress = c.nowNs / c.durationNs) });
    await new Promise((r) => setTimeout(r, 30));
    const s2 = defaultMockScenario();
    s2.rtt_ms = 100;
    const secondRows: number[] = [];
    const second = client.run(s2, { onChunk: (c) => secondRows.push(c.rows) });
    expect(await first.result).toEqual({ status: 'cancelled' });
    const r2 = await second.result;
    expect(r2.status).toBe('done');
    if (r2.status === 'done') expect(r2.summary.total_throughput_bps).toBeCloseTo(8e8 / 2);
    expect(worker!.received.map((m) => m.call.type)).toEqual(['run', 'cancel', 'run']);
    await new Promise((r) => setTimeout(r, 10));
    // Both simulations were freed; the long one stopped early, after streaming some chunks.
    expect(stats).toMatchObject({ created: 2, freed: 2 });
    expect(firstProgress).toBeGreaterThan(0);
    expect(firstProgress).toBeLessThan(0.01);
    expect(secondRows.reduce((a, b) => a + b, 0)).toBe(101);
    client.dispose();
  });

  it('reports a trap and starts a fresh worker for the next run', async () => {
    let made = 0;
    const client = new EngineClient(() => {
      made++;
      return createFakeWorker(createMockEngine(made === 1 ? { trapAtNs: 2e8 } : {}));
    });
    const r1 = await client.run(defaultMockScenario()).result;
    expect(r1).toEqual({ status: 'error', error: { kind: 'trap', message: 'unreachable' } });
    const r2 = await client.run(defaultMockScenario()).result;
    expect(r2.status).toBe('done');
    expect(made).toBe(2);
    expect(client.restarts).toBe(1);
    client.dispose();
  });

  it('recovers from a requested debug trap on a fresh worker', async () => {
    const workers: FakeWorker[] = [];
    const client = new EngineClient(() => {
      const w = createFakeWorker(createMockEngine());
      workers.push(w);
      return w;
    });
    const r1 = await client.run(defaultMockScenario(), {}, { debug: 'trap' }).result;
    expect(r1).toMatchObject({ status: 'error', error: { kind: 'trap' } });
    expect(workers[0].terminated).toBe(true);
    const r2 = await client.run(defaultMockScenario()).result;
    expect(r2.status).toBe('done');
    expect(workers).toHaveLength(2);
    expect(workers[1].terminated).toBe(false);
    client.dispose();
  });

  it('returns validation errors for a bad scenario without restarting', async () => {
    let made = 0;
    const client = new EngineClient(() => {
      made++;
      return createFakeWorker(createMockEngine());
    });
    const s = defaultMockScenario();
    s.hosts[0].flows[0].window_bytes = 12;
    const r = await client.run(s).result;
    expect(r).toEqual({
      status: 'error',
      error: {
        kind: 'validation',
        errors: [{ field: 'hosts[0].flows[0].window_bytes', value: '12', message: 'must be between 65536 and 536870912' }],
      },
    });
    expect((await client.run(defaultMockScenario()).result).status).toBe('done');
    expect(made).toBe(1);
    client.dispose();
  });

  it('notices a worker that exits without a word (heartbeat), reports it and replaces it', async () => {
    // A hand-driven clock: the heartbeat is checked when the test says so.
    const { timers, tick, now } = handClock();
    const workers: FakeWorker[] = [];
    const client = new EngineClient(() => {
      const w = createFakeWorker(createMockEngine());
      workers.push(w);
      return w;
    }, timers);
    await client.ready();
    const started: number[] = [];
    const run = client.run(defaultMockScenario(), { onStart: () => started.push(now()) }, { debug: 'exit' });
    let settled: unknown = null;
    void run.result.then((r) => (settled = r));
    await new Promise((r) => setTimeout(r, 20));
    expect(started).toHaveLength(1); // it did start, then went silent
    for (let t = HEARTBEAT_CHECK_MS; t < HEARTBEAT_TIMEOUT_MS; t += HEARTBEAT_CHECK_MS) tick(HEARTBEAT_CHECK_MS);
    await Promise.resolve();
    expect(settled).toBeNull(); // silence shorter than the timeout is not death
    tick(HEARTBEAT_CHECK_MS);
    expect(await run.result).toMatchObject({ status: 'error', error: { kind: 'trap', message: expect.stringContaining('stopped responding') } });
    expect(workers[0].terminated).toBe(true);
    const r2 = await client.run(defaultMockScenario()).result;
    expect(r2.status).toBe('done');
    expect(workers).toHaveLength(2);
    client.dispose();
  });

  it('does not blame the worker when the page itself was blocked', async () => {
    const { timers, tick } = handClock();
    const client = new EngineClient(() => createFakeWorker(createMockEngine()), timers);
    await client.ready();
    const run = client.run(defaultMockScenario(), {}, { debug: 'exit' });
    let settled: unknown = null;
    void run.result.then((r) => (settled = r));
    await new Promise((r) => setTimeout(r, 20));
    // The page's thread was busy for 8 s: the watchdog's first check comes late.
    tick(8000);
    await Promise.resolve();
    expect(settled).toBeNull();
    // Then real silence, counted from the late check, is still noticed.
    for (let t = 0; t < HEARTBEAT_TIMEOUT_MS; t += HEARTBEAT_CHECK_MS) tick(HEARTBEAT_CHECK_MS);
    expect(await run.result).toMatchObject({ status: 'error', error: { kind: 'trap' } });
    client.dispose();
  });

  it('does not take a busy, talking worker for dead', async () => {
    const { timers, tick } = handClock();
    const client = new EngineClient(() => createFakeWorker(createMockEngine()), timers);
    // Every chunk the worker sends moves the clock by 4 s: never 5 s of silence.
    const r = await client.run(defaultMockScenario(), { onChunk: () => tick(4000) }).result;
    expect(r.status).toBe('done');
    client.dispose();
  });
});
