// Link the glossary (lab/glossary.ts) from the guide text: the first mention
// of each term in a paragraph gets a tip.

import type { GlossaryId } from '../lab/glossary';

const TERMS: [GlossaryId, RegExp][] = [
  ['txqueuelen', /\btxqueuelen\b/],
  ['local_congestion', /\blocal congestion\b/i],
  ['cwr', /\bCWR\b/],
  ['tcptrace', /\btcptrace\b/],
  ['recovery', /\b(?:fast )?recovery\b/i],
  ['bdp', /\bbandwidth-delay product\b|\bBDP\b/],
  ['cwnd', /\bcwnd\b|\bcongestion window\b/],
  ['ssthresh', /\bssthresh\b|\bslow-start threshold\b/],
  ['jain', /\bJain['’]s (?:fairness )?index\b/],
  ['outstanding', /\boutstanding data\b|\boutstanding\b/],
  ['rtt', /\bRTT\b|\bround-trip time\b/],
  ['window', /\bwindows?\b/],
];

export type Segment = { text: string; term?: GlossaryId };

/** Split text into plain runs and glossary terms (each term once, first mention). */
export function glossarySegments(text: string, skip: ReadonlySet<GlossaryId> = new Set()): Segment[] {
  const hits: { at: number; end: number; term: GlossaryId }[] = [];
  for (const [term, re] of TERMS) {
    if (skip.has(term)) continue;
    // The first mention not inside a term already found (e.g. "window" in
    // "congestion window").
    const all = new RegExp(re.source, re.flags.includes('g') ? re.flags : `${re.flags}g`);
    for (const m of text.matchAll(all)) {
      const at = m.index ?? 0;
      const end = at + m[0].length;
      if (hits.some((h) => at < h.end && end > h.at)) continue;
      hits.push({ at, end, term });
      break;
    }
  }
  hits.sort((a, b) => a.at - b.at);
  const out: Segment[] = [];
  let pos = 0;
  for (const h of hits) {
    if (h.at > pos) out.push({ text: text.slice(pos, h.at) });
    out.push({ text: text.slice(h.at, h.end), term: h.term });
    pos = h.end;
  }
  if (pos < text.length) out.push({ text: text.slice(pos) });
  return out;
}
