import { describe, expect, it } from 'vitest';
import { countOf, sentenceCase } from './tables';

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
