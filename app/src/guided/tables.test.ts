import { describe, expect, it } from 'vitest';
import { comparisonCells, countOf, quantity, sentenceCase } from './tables';
import { comparison, lab, series } from './testing/fixtures';

const C = comparison;

describe('comparisonCells', () => {
  it('states the difference in the unit and relative to the paper', () => {
    expect(comparisonCells(C({}))).toEqual({ paper: '828 Mb/s', simulated: '634 Mb/s', difference: '−194 Mb/s (−23.4%)' });
  });
  it('shares as percentages, differences in points', () => {
    expect(comparisonCells(C({ unit: 'fraction', paper: 0.38, simulated: 0.45, difference: 0.07 }))).toEqual({ paper: '38%', simulated: '45%', difference: '+7 points' });
  });
  it('percent relations with the paper’s range', () => {
    const c = comparisonCells(C({ unit: '%', relation: 'percent', relative_to: 'reno', paper: null, paper_range: [1, 7], simulated: 2.5, difference: null, agreement: 'inside_range' }));
    expect(c.paper).toBe('1% to 7%');
    expect(c.difference).toBe('inside the paper’s stated range');
    const out = comparisonCells(C({ unit: '%', relation: 'percent', relative_to: 'reno', paper: null, paper_range: [1, 7], simulated: -0.4, difference: null, agreement: 'outside' }));
    expect(out.difference).toBe('outside the paper’s stated range');
  });
  it('an effect within a factor of 1.5 says so', () => {
    const c = comparisonCells(C({ unit: '%', relation: 'percent', relative_to: 'reno', paper: 14, simulated: 10, difference: -4, agreement: 'effect_within_factor' }));
    expect(c.difference).toBe('−4 points, the paper’s effect within a factor of 1.5');
  });
  it('ranks as places', () => {
    expect(comparisonCells(C({ unit: 'rank', metric: 'rank', paper: 1, simulated: 3, difference: 2 })).difference).toBe('2 places lower');
    expect(comparisonCells(C({ unit: 'rank', metric: 'rank', paper: 5, simulated: 1, difference: -4 })).difference).toBe('4 places higher');
  });
  it('one packet is singular, and a range whose ends read the same is one value (issue 24 item 7)', () => {
    const c = comparisonCells(C({ unit: 'packets', metric: 'drops', paper: 1, simulated: 3, difference: 2 }));
    expect(c.paper).toBe('1 packet');
    expect(c.simulated).toBe('3 packets');
    const r = comparisonCells(C({ paper: null, paper_range: [941, 941.2], simulated: 941, difference: null, agreement: 'inside_range' }));
    expect(r.paper).toBe('941 Mb/s');
  });
  it('nothing simulated yet', () => {
    expect(comparisonCells(C({ simulated: null, difference: null }))).toEqual({ paper: '828 Mb/s', simulated: '', difference: '' });
  });
});

describe('what a published value measures', () => {
  const l = lab({ series: [series('reno', [{ algorithm: 'reno' }], {}, 'Standard TCP'), series('scalable', [{ algorithm: 'scalable' }], {}, 'Scalable TCP')] });
  it('an effect between two series names the baseline series', () => {
    expect(quantity(l, { metric: 'total_throughput_mbps', group: null, series: 'scalable', relation: 'percent', relative_to: 'reno' })).toMatch(/% change over Standard TCP$/);
  });
  it('an effect across the sweep names the setting it starts from (lab 3: txqueuelen 100 to above 210)', () => {
    const q = quantity(l, { metric: 'total_throughput_mbps', group: null, series: 'reno', relation: 'percent', relative_to: 'reno', relative_to_x: 100 });
    expect(q).toMatch(/% change from txqueuelen = 100 packets$/);
    const other = quantity(l, { metric: 'total_throughput_mbps', group: null, series: 'scalable', relation: 'difference', relative_to: 'reno', relative_to_x: 100 });
    expect(other).toMatch(/minus Standard TCP at 100 packets$/);
  });
});

describe('the fidelity note’s wording', () => {
  it('keeps a name’s capital and lowercases an ordinary word', () => {
    expect(sentenceCase('Standard TCP’s share of the throughput')).toBe('Standard TCP’s share of the throughput');
    expect(sentenceCase('BBR’s share')).toBe('BBR’s share');
    expect(sentenceCase('HighSpeed’s gain')).toBe('HighSpeed’s gain');
    expect(sentenceCase('Total throughput')).toBe('total throughput');
  });

  it('agrees with the count', () => {
    const nine = countOf(9, 'published value', 'these runs can be compared with');
    expect(nine.one).toBe(false);
    expect(nine.all).toBe('all 9 published values these runs can be compared with');
    expect(nine.some(1)).toBe('1 of the 9 published values these runs can be compared with');
    const one = countOf(1, 'finding', 'from the paper that these runs decide');
    expect(one.one).toBe(true);
    expect(one.all).toBe('the one finding from the paper that these runs decide');
    expect(one.some(1)).toBe(one.all);
  });
});
