import { describe, expect, it } from 'vitest';
import type { Comparison, FindingOutcome } from '../engine/generated/labs';
import { fidelitySummary, seriesIndistinguishable } from './fidelityNote';
import { brokenFindingText } from './tables';
import { comparison, lab, series } from './testing/fixtures';

const C = (o: Partial<Comparison>): Comparison => comparison({ series: 'reno', simulated: 880, difference: 52, within_tolerance: true, ...o });

describe('fidelitySummary', () => {
  const L = lab({ series: [series('reno', [{ algorithm: 'reno' }])] });
  it('counts values within the tolerance and lists the misses, largest relative miss first', () => {
    const s = fidelitySummary(L, [
      C({ key: 'a' }),
      C({ key: 'b', paper: 100, simulated: 30, difference: -70, within_tolerance: false }),
      C({ key: 'c', paper: 1000, simulated: 800, difference: -200, within_tolerance: false }),
      C({ key: 'd', simulated: null, difference: null, within_tolerance: null }),
      C({ key: 'e', metric: 'rank', unit: 'rank', paper: 1, simulated: 3, difference: 2, within_tolerance: null }),
    ]);
    expect(s.compared).toBe(3);
    expect(s.within).toBe(1);
    expect(s.misses.map((c) => c.key)).toEqual(['b', 'c']);
  });
  it('takes the mechanism still missing from the lab’s own model differences', () => {
    const l = lab({ series: [], guide: { ...L.guide, model_differences: ['A plain difference.', 'Still missing: the ring’s true reach.'] } });
    expect(fidelitySummary(l, []).missing).toEqual(['the ring’s true reach.']);
    expect(fidelitySummary(L, null)).toEqual({ compared: 0, within: 0, misses: [], missing: [], findingsDecided: 0, broken: [], agrees: false });
  });
});

describe('fidelitySummary with findings', () => {
  const L = lab({ series: [series('reno', [{ algorithm: 'reno' }])] });
  const F = (id: string, status: FindingOutcome['status']): FindingOutcome => ({ id, text: `finding ${id}.`, status, detail: 'x: 1', note: null, source: { seed: '000', file: 'f.txt', at: 'Fig. 1' } });
  it('agrees only when every value and every decided finding holds', () => {
    const values = [C({ key: 'a' })];
    expect(fidelitySummary(L, values, [F('h', 'held'), F('p', 'pending'), F('n', 'not_checked')]).agrees).toBe(true);
    const broken = fidelitySummary(L, values, [F('h', 'held'), F('b', 'broken')]);
    expect(broken.agrees).toBe(false);
    expect(broken.findingsDecided).toBe(2);
    expect(broken.broken.map((f) => f.id)).toEqual(['b']);
    expect(fidelitySummary(L, [], [F('p', 'pending')]).agrees).toBe(false);
  });
  it('states a broken finding in a plain sentence with what the runs gave', () => {
    expect(brokenFindingText(F('b', 'broken'))).toBe('The paper found: “finding b.” These runs do not bear it out (x: 1).');
  });
});

describe('seriesIndistinguishable', () => {
  const r = (series: string, x: number, g: number[], seed = 1) => ({ series, x, seed, group_throughput_mbps: g });
  it('is true only when every run of the same x and seed gives the same result in every series', () => {
    expect(seriesIndistinguishable([r('a', 50, [100, 800]), r('b', 50, [100, 800]), null, r('a', 200, [1, 2]), r('b', 200, [1, 2])])).toBe(true);
    expect(seriesIndistinguishable([r('a', 50, [100, 800]), r('b', 50, [100, 801])])).toBe(false);
    // Nothing to compare yet: one series only, or different seeds.
    expect(seriesIndistinguishable([r('a', 50, [1]), r('a', 200, [1])])).toBe(false);
    expect(seriesIndistinguishable([r('a', 50, [1], 1), r('b', 50, [1], 2)])).toBe(false);
  });
});
