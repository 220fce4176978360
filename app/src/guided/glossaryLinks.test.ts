import { describe, expect, it } from 'vitest';
import { GLOSSARY } from '../lab/glossary';
import { glossarySegments } from './glossaryLinks';

describe('glossarySegments', () => {
  it('marks the first mention of each term and keeps the text whole', () => {
    const text = 'A full txqueuelen queue is local congestion; a longer txqueuelen fills the BDP.';
    const seg = glossarySegments(text);
    expect(seg.map((s) => s.text).join('')).toBe(text);
    expect(seg.filter((s) => s.term).map((s) => [s.text, s.term])).toEqual([
      ['txqueuelen', 'txqueuelen'],
      ['local congestion', 'local_congestion'],
      ['BDP', 'bdp'],
    ]);
  });

  it('does not link a term inside a longer one, and every term is in the glossary', () => {
    const seg = glossarySegments('the congestion window and the window');
    expect(seg.filter((s) => s.term).map((s) => [s.text, s.term])).toEqual([
      ['congestion window', 'cwnd'],
      ['window', 'window'],
    ]);
    for (const s of glossarySegments('cwnd ssthresh RTT Jain’s index outstanding data window BDP txqueuelen local congestion')) {
      if (s.term) expect(GLOSSARY[s.term]).toBeDefined();
    }
  });

  it('skips terms already linked', () => {
    expect(glossarySegments('txqueuelen', new Set(['txqueuelen']))).toEqual([{ text: 'txqueuelen' }]);
  });
});
