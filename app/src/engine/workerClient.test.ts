import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EngineCallError, type EngineError } from './errors';
import type { WorkerMessage, WorkerRequest } from './protocol';
import { handClock } from './testing/handClock';
import { WorkerClient, type EngineWorkerPort, type WorkerClientOptions } from './workerClient';

type Call = { op: 'echo'; text: string } | { op: 'count'; n: number } | { op: 'stop' };
type Reply = { text: string } | { i: number; of: number };
type Msg = WorkerMessage<string, Reply>;

/** A hand-driven stand-in for a Worker: it records what it is sent and says what the test tells it. */
interface FakePort extends EngineWorkerPort<Call, string, Reply> {
  sent: { msg: WorkerRequest<Call>; transfer?: Transferable[] }[];
  terminated: boolean;
  say(msg: Msg): void;
  crash(message: string): void;
}

function fakePort(): FakePort {
  const p: FakePort = {
    sent: [],
    terminated: false,
    onmessage: null,
    onerror: null,
    postMessage(msg, transfer) {
      p.sent.push(transfer ? { msg, transfer } : { msg });
    },
    terminate() {
      p.terminated = true;
    },
    say(msg) {
      p.onmessage?.({ data: msg } as MessageEvent<Msg>);
    },
    crash(message) {
      p.onerror?.({ message, preventDefault() {} } as ErrorEvent);
    },
  };
  return p;
}

const OPTIONS: WorkerClientOptions = {
  crashError: (message, ready) => (ready ? { kind: 'trap', message: `crashed: ${message}` } : { kind: 'load', message: `did not start: ${message}` }),
  deadlineError: (ms) => ({ kind: 'trap', message: `silent for ${ms} ms` }),
};

function setup(options: WorkerClientOptions = OPTIONS) {
  const ports: FakePort[] = [];
  const client = new WorkerClient<Call, string, Reply>(() => {
    const p = fakePort();
    ports.push(p);
    return p;
  }, options);
  return { client, ports };
}

/** A promise's outcome once the microtasks ran, or 'pending'. */
async function state<T>(p: Promise<T>): Promise<{ ok: T } | { err: unknown } | 'pending'> {
  let out: { ok: T } | { err: unknown } | 'pending' = 'pending';
  p.then(
    (ok) => (out = { ok }),
    (err: unknown) => (out = { err }),
  );
  await new Promise((r) => setTimeout(r, 0));
  return out;
}

describe('WorkerClient', () => {
  it('starts one worker on first use and matches answers to requests by id', async () => {
    const { client, ports } = setup();
    expect(ports).toHaveLength(0);
    const a = client.call({ op: 'echo', text: 'a' });
    const b = client.call({ op: 'echo', text: 'b' });
    expect(ports).toHaveLength(1);
    const [ida, idb] = ports[0].sent.map((s) => s.msg.id);
    expect(ida).not.toBe(idb);
    expect(ports[0].sent.map((s) => s.msg.call)).toEqual([
      { op: 'echo', text: 'a' },
      { op: 'echo', text: 'b' },
    ]);
    expect(client.busy).toBe(2);
    // Answered out of order.
    ports[0].say({ type: 'reply', id: idb, reply: { text: 'B' } });
    ports[0].say({ type: 'reply', id: ida, reply: { text: 'A' } });
    expect(await a).toEqual({ text: 'A' });
    expect(await b).toEqual({ text: 'B' });
    expect(client.busy).toBe(0);
    // An answer nobody waits for is ignored.
    ports[0].say({ type: 'reply', id: ida, reply: { text: 'again' } });
    expect(client.started).toBe(1);
  });

  it('delivers several replies to one request until its last', () => {
    const { client, ports } = setup();
    const got: Reply[] = [];
    const id = client.request({ op: 'count', n: 3 }, { reply: (r) => got.push(r), last: (r) => 'i' in r && r.i === r.of, fail: () => got.push({ text: 'failed' }) });
    for (let i = 1; i <= 4; i++) ports[0].say({ type: 'reply', id, reply: { i, of: 3 } });
    expect(got).toEqual([
      { i: 1, of: 3 },
      { i: 2, of: 3 },
      { i: 3, of: 3 },
    ]);
    expect(client.busy).toBe(0);
  });

  it('passes transfer lists through to the worker, and sends none where none is given', () => {
    const { client, ports } = setup();
    const buffer = new ArrayBuffer(8);
    void client.call({ op: 'echo', text: 'x' }, { transfer: [buffer] });
    void client.call({ op: 'echo', text: 'y' });
    client.post(1, { op: 'stop' }, [new ArrayBuffer(4)]);
    expect(ports[0].sent[0].transfer).toEqual([buffer]);
    expect(ports[0].sent[0].transfer![0]).toBe(buffer);
    expect('transfer' in ports[0].sent[1]).toBe(false);
    expect(ports[0].sent[2]).toMatchObject({ msg: { id: 1, call: { op: 'stop' } }, transfer: [expect.any(ArrayBuffer)] });
  });

  it('resolves ready with the worker’s info', async () => {
    const { client, ports } = setup();
    const ready = client.ready();
    ports[0].say({ type: 'ready', info: 'engine 1' });
    expect(await ready).toBe('engine 1');
  });

  it('a non-fatal error answer fails its request only; the worker goes on', async () => {
    const { client, ports } = setup();
    const a = client.call({ op: 'echo', text: 'a' });
    const b = client.call({ op: 'echo', text: 'b' });
    const error: EngineError = { kind: 'validation', errors: [{ field: 'x', value: '1', message: 'bad' }] };
    ports[0].say({ type: 'error', id: ports[0].sent[0].msg.id, error, fatal: false });
    const e = (await state(a)) as { err: EngineCallError };
    expect(e.err).toBeInstanceOf(EngineCallError);
    expect(e.err).toMatchObject({ error, fatal: false });
    expect(await state(b)).toBe('pending');
    expect(ports[0].terminated).toBe(false);
    void client.call({ op: 'echo', text: 'c' });
    expect(ports).toHaveLength(1);
  });

  it('a trap (a fatal error answer) rejects every pending request and the next request gets a fresh worker', async () => {
    const { client, ports } = setup();
    const ready = client.ready();
    ports[0].say({ type: 'ready', info: 'one' });
    await ready;
    const a = client.call({ op: 'echo', text: 'a' });
    const b = client.call({ op: 'echo', text: 'b' });
    const outcomes = Promise.allSettled([a, b]);
    const trap: EngineError = { kind: 'trap', message: 'unreachable' };
    ports[0].say({ type: 'error', id: ports[0].sent[0].msg.id, error: trap, fatal: true });
    const dead = { status: 'rejected', reason: expect.objectContaining({ error: trap, fatal: true }) };
    expect(await outcomes).toEqual([dead, dead]);
    expect(ports[0].terminated).toBe(true);
    expect(ports[0].onmessage).toBeNull();
    expect(client.busy).toBe(0);
    const c = client.call({ op: 'echo', text: 'c' });
    expect(ports).toHaveLength(2);
    expect(client.started).toBe(2);
    ports[1].say({ type: 'reply', id: ports[1].sent[0].msg.id, reply: { text: 'C' } });
    expect(await c).toEqual({ text: 'C' });
  });

  it('a worker’s error event is a crash once it was ready, a load failure before; both reject what it owed', async () => {
    const { client, ports } = setup();
    const before = client.call({ op: 'echo', text: 'a' });
    const ready = client.ready();
    ports[0].crash('no wasm');
    const load = { kind: 'load', message: 'did not start: no wasm' };
    expect(await state(before)).toEqual({ err: expect.objectContaining({ error: load, fatal: true }) });
    expect(await state(ready)).toEqual({ err: expect.objectContaining({ error: load }) });

    const after = client.call({ op: 'echo', text: 'b' });
    ports[1].say({ type: 'ready', info: 'two' });
    ports[1].crash('out of memory');
    expect(await state(after)).toEqual({ err: expect.objectContaining({ error: { kind: 'trap', message: 'crashed: out of memory' }, fatal: true }) });
    expect(ports.map((p) => p.terminated)).toEqual([true, true]);
  });

  it('a load-error message fails the worker with the engine’s own error', async () => {
    const { client, ports } = setup();
    const a = client.call({ op: 'echo', text: 'a' });
    const error: EngineError = { kind: 'load', message: 'the engine failed to load: 404' };
    ports[0].say({ type: 'load-error', error });
    expect(await state(a)).toEqual({ err: expect.objectContaining({ error, fatal: true }) });
    expect(ports[0].terminated).toBe(true);
  });

  it('terminate rejects pending requests (as cancelled unless told why); messages of the ended worker are ignored', async () => {
    const { client, ports } = setup();
    const a = client.call({ op: 'echo', text: 'a' });
    const port = ports[0];
    const handler = port.onmessage!;
    client.terminate();
    expect(await state(a)).toEqual({ err: expect.objectContaining({ error: { kind: 'internal', message: 'cancelled' }, fatal: true }) });
    expect(port.terminated).toBe(true);
    handler({ data: { type: 'reply', id: port.sent[0].msg.id, reply: { text: 'late' } } } as MessageEvent<Msg>);
    const b = client.call({ op: 'echo', text: 'b' });
    client.terminate({ kind: 'internal', message: 'the page left' });
    expect(await state(b)).toEqual({ err: expect.objectContaining({ error: { kind: 'internal', message: 'the page left' } }) });
    expect(ports).toHaveLength(2);
  });

  it('a forgotten request’s answers are ignored; post reaches the running worker only', async () => {
    const { client, ports } = setup();
    client.post(1, { op: 'stop' });
    expect(ports).toHaveLength(0); // no worker is started to be told something
    const a = client.call({ op: 'echo', text: 'a' });
    const id = ports[0].sent[0].msg.id;
    expect(client.forget(id)).toBe(true);
    expect(client.forget(id)).toBe(false);
    client.post(id, { op: 'stop' });
    ports[0].say({ type: 'reply', id, reply: { text: 'A' } });
    expect(await state(a)).toBe('pending');
    expect(ports[0].sent.at(-1)).toEqual({ msg: { id, call: { op: 'stop' } } });
  });

  describe('deadlines', () => {
    beforeEach(() => vi.useFakeTimers());
    afterEach(() => vi.useRealTimers());

    it('a request unanswered by its deadline fails the worker; one answered in time clears its timer', async () => {
      const { client, ports } = setup();
      const quick = client.call({ op: 'echo', text: 'q' }, { deadlineMs: 100 });
      ports[0].say({ type: 'reply', id: ports[0].sent[0].msg.id, reply: { text: 'Q' } });
      await vi.advanceTimersByTimeAsync(200);
      expect(await quick).toEqual({ text: 'Q' });
      expect(ports[0].terminated).toBe(false);

      const slow = client.call({ op: 'echo', text: 's' }, { deadlineMs: 100 });
      const other = client.call({ op: 'echo', text: 'o' });
      const outcomes = Promise.allSettled([slow, other]);
      await vi.advanceTimersByTimeAsync(99);
      expect(ports[0].terminated).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      const [s, o] = await outcomes;
      const dead = { error: { kind: 'trap', message: 'silent for 100 ms' }, fatal: true };
      expect(s).toMatchObject({ status: 'rejected', reason: dead });
      expect(o).toMatchObject({ status: 'rejected', reason: dead });
      expect(ports[0].terminated).toBe(true);
    });

    it('no deadline, or an infinite one, waits as long as it takes', async () => {
      const { client, ports } = setup();
      const a = client.call({ op: 'echo', text: 'a' });
      const b = client.call({ op: 'echo', text: 'b' }, { deadlineMs: Infinity });
      await vi.advanceTimersByTimeAsync(3_600_000);
      expect(ports[0].terminated).toBe(false);
      expect(client.busy).toBe(2);
      client.terminate();
      await Promise.allSettled([a, b]);
    });
  });

  describe('heartbeat', () => {
    const silence: EngineError = { kind: 'trap', message: 'silent' };

    it('fails a ready worker that owes an answer and stays silent; a talking one is not dead', async () => {
      const { timers, tick, checks } = handClock();
      const { client, ports } = setup({ ...OPTIONS, heartbeat: { timeoutMs: 5000, checkMs: 1000, timers, error: silence } });
      const ready = client.ready();
      ports[0].say({ type: 'ready', info: 'x' });
      await ready;
      expect(checks).toHaveLength(0); // nothing owed: nothing watched
      const got: Reply[] = [];
      let failed: EngineCallError | null = null;
      const id = client.request({ op: 'count', n: 100 }, { reply: (r) => got.push(r), last: () => false, fail: (e) => (failed = e) });
      expect(checks).toHaveLength(1);
      for (let i = 0; i < 10; i++) {
        tick(1000);
        ports[0].say({ type: 'reply', id, reply: { i, of: 100 } });
      }
      expect(failed).toBeNull();
      for (let i = 0; i < 5; i++) tick(1000);
      expect(failed).toMatchObject({ error: silence, fatal: true });
      expect(ports[0].terminated).toBe(true);
      expect(checks).toHaveLength(0); // disarmed
    });

    it('does not count silence before the worker is ready, and disarms once nothing is owed', async () => {
      const { timers, tick, checks } = handClock();
      const { client, ports } = setup({ ...OPTIONS, heartbeat: { timeoutMs: 5000, checkMs: 1000, timers, error: silence } });
      const a = client.call({ op: 'echo', text: 'a' });
      for (let i = 0; i < 20; i++) tick(1000);
      expect(ports[0].terminated).toBe(false);
      ports[0].say({ type: 'reply', id: ports[0].sent[0].msg.id, reply: { text: 'A' } });
      await a;
      tick(1000);
      expect(checks).toHaveLength(0);
    });
  });
});
