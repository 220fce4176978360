import { describe, expect, it } from 'vitest';
import { EngineClient, type WorkerLike } from './client';
import { createFakeWorker } from './testing/fakeWorker';
import { createMockEngine, defaultMockScenario } from './testing/mockEngine';

describe('EngineClient.validate', () => {
  it('returns the engine errors without disturbing a run', async () => {
    const client = new EngineClient(() => createFakeWorker(createMockEngine()));
    const run = client.run(defaultMockScenario());
    expect(await client.validate(defaultMockScenario())).toEqual([]);
    const errors = await client.validate({ ...defaultMockScenario(), rtt_ms: 5000 });
    expect(errors).toEqual([{ field: 'rtt_ms', value: '5000', message: 'must be between 0 and 1000 ms' }]);
    expect((await run.result).status).toBe('done');
    client.dispose();
  });

  it('rejects pending validations and fails the run when a ready worker dies (a crash, not a load error)', async () => {
    let fake: WorkerLike | null = null;
    const client = new EngineClient(() => (fake = createFakeWorker(createMockEngine())));
    await client.ready();
    const run = client.run(defaultMockScenario());
    const v = client.validate(defaultMockScenario());
    fake!.onerror!({ message: 'boom', preventDefault() {} } as ErrorEvent);
    await expect(v).rejects.toMatchObject({ kind: 'trap' });
    const r = await run.result;
    expect(r.status).toBe('error');
    expect(r.status === 'error' && r.error.kind).toBe('trap');
    // The next request starts a fresh worker.
    expect(await client.validate(defaultMockScenario())).toEqual([]);
    expect(client.restarts).toBe(1);
    client.dispose();
  });
});
