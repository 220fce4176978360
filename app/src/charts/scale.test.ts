import { describe, expect, it } from 'vitest';
import { extentOf, innerSize, linearScale, niceDomain } from './scale';

describe('linearScale', () => {
  it('maps domain to range (inverted y) and back', () => {
    const y = linearScale([0, 100], [200, 0]);
    expect(y(0)).toBe(200);
    expect(y(100)).toBe(0);
    expect(y(25)).toBe(150);
    expect(y.invert(150)).toBe(25);
  });

  it('gives round ticks and their step', () => {
    const x = linearScale([0, 20], [0, 800]);
    expect(x.ticks(5)).toEqual([0, 5, 10, 15, 20]);
    expect(x.tickStep(5)).toBe(5);
    expect(linearScale([0, 1], [0, 1]).tickStep(5)).toBeCloseTo(0.2);
  });
});

describe('extentOf', () => {
  it('spans several arrays and ignores NaN', () => {
    expect(extentOf([Float64Array.from([3, NaN, 7]), [-1, 2]])).toEqual([-1, 7]);
  });
  it('honours count and returns null when there is nothing', () => {
    expect(extentOf([[1, 2, 300]], 2)).toEqual([1, 2]);
    expect(extentOf([[NaN], []])).toBeNull();
  });
});

describe('niceDomain', () => {
  it('starts at zero and rounds the top up', () => {
    expect(niceDomain([12, 937])).toEqual([0, 1000]);
    expect(niceDomain([2.2, 8.7], { includeZero: false })).toEqual([2, 9]);
  });
  it('never returns an empty domain', () => {
    expect(niceDomain(null)).toEqual([0, 1]);
    expect(niceDomain([0, 0])).toEqual([0, 1]);
    expect(niceDomain([50, 50])).toEqual([0, 50]);
    const [lo, hi] = niceDomain([50, 50], { includeZero: false });
    expect(lo).toBeLessThan(50);
    expect(hi).toBeGreaterThan(50);
  });
});

describe('innerSize', () => {
  it('subtracts margins and clamps at zero', () => {
    expect(innerSize(800, 300, { top: 10, right: 20, bottom: 30, left: 50 })).toEqual({ width: 730, height: 260 });
    expect(innerSize(10, 10, { top: 10, right: 20, bottom: 30, left: 50 })).toEqual({ width: 0, height: 0 });
  });
});

describe('ticks and nice (d3 rules)', () => {
  it('match d3 on common domains', async () => {
    const d3 = await import('d3');
    const { ticks, nice } = await import('./scale');
    for (const [a, b, n] of [[0, 20, 5], [0, 1, 6], [0, 937, 6], [2.2, 8.7, 6], [0, 0.003, 4], [-5, 5, 10], [0, 1e9, 6], [10, 0, 5], [0, 19.99, 13]] as [number, number, number][]) {
      expect(ticks(a, b, n)).toEqual(d3.ticks(a, b, n));
      expect(nice([a, b], n)).toEqual(d3.scaleLinear().domain([a, b]).nice(n).domain());
    }
  });
});
