import { describe, expect, it } from 'vitest';
import type { Scenario } from '../engine/types';
import { formatEta, pointCost, runOrder, sweepProgress, type PointTiming } from './progress';

const P = (cost: number, status: PointTiming['status'], extra: Partial<PointTiming> = {}): PointTiming => ({ cost, status, ...extra });

describe('sweepProgress', () => {
  it('has no estimate before a point finishes', () => {
    const p = sweepProgress([P(10, 'running', { startedAt: 0 }), P(10, 'pending')], 500, 2);
    expect(p).toMatchObject({ total: 2, done: 0, running: 1, fraction: 0, etaMs: null });
  });

  it('turns the work left into time at the measured speed, across the workers', () => {
    // One worker did 100 units in 1000 ms: 0.1 unit/ms per worker.
    const pts = [P(100, 'done', { wallMs: 1000 }), P(100, 'pending'), P(100, 'pending'), P(100, 'pending'), P(100, 'pending')];
    const p = sweepProgress(pts, 1000, 2);
    expect(p.fraction).toBeCloseTo(0.2);
    // 400 units left, two workers at 0.1 unit/ms each.
    expect(p.etaMs).toBeCloseTo(2000);
    // With one point left, only one worker can help.
    const last = sweepProgress([P(100, 'done', { wallMs: 1000 }), P(100, 'pending')], 1000, 4);
    expect(last.etaMs).toBeCloseTo(1000);
  });

  it('credits running points for the time they have run, never as finished', () => {
    const pts = [P(100, 'done', { wallMs: 1000 }), P(100, 'running', { startedAt: 0 }), P(100, 'pending')];
    // The running point has run 500 ms: 50 units done.
    const p = sweepProgress(pts, 500, 2);
    expect(p.fraction).toBeCloseTo(150 / 300);
    expect(p.etaMs).toBeCloseTo(150 / 0.2);
    // Long overdue: capped at 90% of its cost.
    const late = sweepProgress(pts, 100_000, 2);
    expect(late.fraction).toBeCloseTo(190 / 300);
  });

  it('weights progress by cost and counts failed points as settled', () => {
    const pts = [P(300, 'error'), P(100, 'done', { wallMs: 10 }), P(600, 'pending')];
    const p = sweepProgress(pts, 0, 1);
    expect(p).toMatchObject({ done: 1, failed: 1, total: 3 });
    expect(p.fraction).toBeCloseTo(0.4);
    expect(p.etaMs).toBeCloseTo(600 / 10);
  });

  it('is complete with nothing left', () => {
    expect(sweepProgress([P(1, 'done', { wallMs: 1 })], 5, 2)).toMatchObject({ fraction: 1, etaMs: 0 });
    expect(sweepProgress([], 0, 2)).toMatchObject({ fraction: 1, etaMs: 0, total: 0 });
  });
});

describe('formatEta', () => {
  it('rounds to what a person reads', () => {
    expect(formatEta(null)).toMatch(/estimating/);
    expect(formatEta(400)).toBe('less than a second left');
    expect(formatEta(3200)).toBe('about 4 s left');
    expect(formatEta(41_000)).toBe('about 45 s left');
    expect(formatEta(150_000)).toBe('about 2.5 min left');
    expect(formatEta(20 * 60_000)).toBe('about 20 min left');
    expect(formatEta(3 * 3600_000)).toBe('about 3 h left');
  });
});

describe('pointCost', () => {
  const sc = (o: { rate: number; nic: number[]; mtu: number; dur: number }) =>
    ({ bottleneck: { rate_bps: o.rate }, hosts: o.nic.map((n) => ({ nic_bps: n })), mtu_bytes: o.mtu, duration_ms: o.dur }) as unknown as Scenario;
  it('grows with the packets simulated', () => {
    const jumbo = pointCost(sc({ rate: 1e9, nic: [1e9], mtu: 9000, dur: 10_000 }));
    const small = pointCost(sc({ rate: 1e9, nic: [1e9], mtu: 1500, dur: 10_000 }));
    const long = pointCost(sc({ rate: 1e9, nic: [1e9], mtu: 9000, dur: 20_000 }));
    expect(small / jumbo).toBeGreaterThan(5);
    expect(long / jumbo).toBeGreaterThan(1.9);
    // The slower of the NICs (in sum) and the bottleneck limits the rate.
    expect(pointCost(sc({ rate: 1e9, nic: [1e8], mtu: 9000, dur: 10_000 }))).toBeLessThan(jumbo / 5);
  });
});

describe('runOrder', () => {
  it('goes x by x across the series, first seed first, costliest first within a round', () => {
    const keys = [
      { series: 0, x: 0, seed: 0, cost: 1 },
      { series: 0, x: 1, seed: 0, cost: 1 },
      { series: 0, x: 0, seed: 1, cost: 1 },
      { series: 1, x: 0, seed: 0, cost: 5 },
      { series: 1, x: 1, seed: 0, cost: 1 },
    ];
    expect(runOrder(keys)).toEqual([3, 0, 1, 4, 2]);
  });
});
