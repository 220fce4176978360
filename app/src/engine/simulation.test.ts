import { describe, expect, it } from 'vitest';
import { EngineRunError, ownedCopy, runToCompletion, Simulation, validateScenario } from './simulation';
import { createMockEngine, defaultMockScenario, mockCwnd } from './testing/mockEngine';

describe('Simulation facade', () => {
  it('runs to completion and exposes typed series, events and summary', () => {
    const stats = { created: 0, freed: 0, advances: 0 };
    const engine = createMockEngine({ stats });
    const s = defaultMockScenario();
    const run = runToCompletion(engine, s, 70e6);
    expect(run.series.length).toBe(101); // 0..1000 ms every 10 ms
    expect(run.series.t[100]).toBeCloseTo(1.0);
    expect(run.series.flows).toHaveLength(1);
    expect(run.series.flows[0].cwnd_pkts[37]).toBeCloseTo(mockCwnd(0.37, 0, s.rtt_ms));
    expect(run.events).toHaveLength(10);
    expect(run.events[0]).toEqual({ t_s: 0.1, flow: 0, kind: 'network_loss' });
    expect(run.summary.total_throughput_bps).toBeGreaterThan(0);
    expect(stats).toMatchObject({ created: 1, freed: 1 });
    expect(stats.advances).toBe(Math.ceil(1000 / 70));
  });

  it('turns the engine validation exception into typed errors', () => {
    const engine = createMockEngine();
    const s = defaultMockScenario();
    s.hosts[0].flows[0].window_bytes = 12;
    let caught: unknown;
    try {
      Simulation.create(engine, s);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(EngineRunError);
    expect((caught as EngineRunError).error).toEqual({
      kind: 'validation',
      errors: [{ field: 'hosts[0].flows[0].window_bytes', value: '12', message: 'must be between 65536 and 536870912' }],
    });
    expect(validateScenario(engine, s)).toHaveLength(1);
    expect(validateScenario(engine, defaultMockScenario())).toEqual([]);
  });

  it('reports traps as trap errors', () => {
    const sim = Simulation.create(createMockEngine({ trapAtNs: 5e8 }), defaultMockScenario());
    expect(() => sim.advance(1e8)).not.toThrow();
    let caught: unknown;
    try {
      sim.advance(6e8);
    } catch (e) {
      caught = e;
    }
    expect((caught as EngineRunError).error.kind).toBe('trap');
    sim.free();
    expect(() => sim.advance(7e8)).toThrow(/freed/);
  });

  it('copies arrays that are views into a larger buffer (wasm memory)', () => {
    const memory = new Float64Array(100);
    const view = memory.subarray(10, 20);
    const copy = ownedCopy(view);
    expect(copy).not.toBe(view);
    expect(copy.buffer.byteLength).toBe(80);
    const own = new Float64Array(4);
    expect(ownedCopy(own)).toBe(own);
  });
});
