#!/usr/bin/env node
// The built-in link traces (issue 25): delivery-opportunity traces in
// Mahimahi's format, written to public/traces/, with the app's list of them
// (app/src/lab/builtinTraces.ts). Every trace is made here from a rule and,
// for the stochastic one, a fixed seed; nothing is measured or downloaded.
//
//   node scripts/traces/generate.mjs          # write the files
//   node scripts/traces/generate.mjs --check  # fail if a file differs
//
// Mahimahi's format (github.com/ravinet/mahimahi, src/frontend/link_queue.cc):
// one line per delivery opportunity, a whole number of milliseconds,
// non-decreasing; each opportunity lets 1504 bytes leave (an IP packet of up
// to 1500 bytes and a 4-byte TUN header); several lines with one timestamp
// are several opportunities in that millisecond; the trace repeats with its
// last timestamp as its period. One opportunity a millisecond is 12.032 Mb/s.
//
// The generator uses integer arithmetic and one seeded generator
// (mulberry32) only, no Math.exp or Math.log (whose last bits may differ
// between JavaScript engines), so every run writes the same bytes.

import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const OUT = join(root, 'public', 'traces');
const LIST = join(root, 'app', 'src', 'lab', 'builtinTraces.ts');
const OPPORTUNITY_BYTES = 1504;

/** A seeded generator (mulberry32): 32-bit integers, then [0, 1). */
function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A whole number uniformly in lo..=hi. */
const uniformInt = (rand, lo, hi) => lo + Math.floor(rand() * (hi - lo + 1));

/** `per` opportunities in every millisecond from `from` to `to` (inclusive). */
function constant(from, to, per) {
  const out = [];
  for (let t = from; t <= to; t++) for (let k = 0; k < per; k++) out.push(t);
  return out;
}

/** One opportunity every `every` ms, from `from` + `every` up to `to`. */
function sparse(from, to, every) {
  const out = [];
  for (let t = from + every; t <= to; t += every) out.push(t);
  return out;
}

/**
 * A cellular-like trace, synthetic: a Markov-modulated rate, not a
 * measurement of any network. Time is cut into 100 ms blocks. The rate
 * level L (opportunities per block: 100 is 12.032 Mb/s) starts at 80 and
 * after each block moves by a whole step drawn uniformly from −20..20 plus a
 * pull of round((80 − L) / 8) towards 80, kept within 8..400 (1–48 Mb/s).
 * Before each block, with probability 1/20, an outage of 1–5 blocks (drawn
 * uniformly) begins: no opportunity at all. A block's L opportunities fall
 * on milliseconds drawn uniformly from its 100 (several may share one). The
 * last line is the period, appended if the last block did not draw it.
 */
function cellularLike(seed, periodMs) {
  const rand = mulberry32(seed);
  const block = 100;
  let level = 80;
  let outage = 0;
  const out = [];
  for (let start = 0; start < periodMs; start += block) {
    if (outage === 0 && rand() < 1 / 20) outage = uniformInt(rand, 1, 5);
    if (outage > 0) {
      outage--;
    } else {
      const times = [];
      for (let k = 0; k < level; k++) times.push(start + uniformInt(rand, 1, block));
      times.sort((a, b) => a - b);
      out.push(...times);
    }
    const pull = Math.round((80 - level) / 8);
    level = Math.min(400, Math.max(8, level + uniformInt(rand, -20, 20) + pull));
  }
  if (out[out.length - 1] !== periodMs) out.push(periodMs);
  return out;
}

const TRACES = [
  {
    id: 'constant-12mbps',
    name: 'Constant 12 Mb/s',
    description: 'One opportunity every millisecond: 1504 bytes/ms, 12.03 Mb/s.',
    rule: 'one line per millisecond, 1 to 1000',
    lines: () => constant(1, 1000, 1),
  },
  {
    id: 'constant-48mbps',
    name: 'Constant 48 Mb/s',
    description: 'Four opportunities every millisecond: 48.13 Mb/s.',
    rule: 'four lines per millisecond, 1 to 1000',
    lines: () => constant(1, 1000, 4),
  },
  {
    id: 'square-24-6mbps',
    name: 'Square wave 24 / 6 Mb/s',
    description: '2 s at 24.06 Mb/s (two opportunities a millisecond), then 2 s at 6.02 Mb/s (one every 2 ms), repeating.',
    rule: 'two lines per millisecond from 1 to 2000, then one every 2 ms from 2002 to 4000',
    lines: () => [...constant(1, 2000, 2), ...sparse(2000, 4000, 2)],
  },
  {
    id: 'on-off-1s',
    name: 'On 1 s / off 1 s',
    description: '1 s at 12.03 Mb/s, then an outage of 1 s (only the period line at 2000 ms), repeating.',
    rule: 'one line per millisecond from 1 to 1000, then 2000',
    lines: () => [...constant(1, 1000, 1), 2000],
  },
  {
    id: 'cellular-like',
    name: 'Cellular-like (synthetic)',
    description:
      'A synthetic varying link, not a measurement: a random-walk rate (about 5–13 Mb/s in this file) changing every 100 ms, with outages (2.5 s of the 10 s); repeating.',
    rule: 'cellularLike(seed 25, period 10000 ms) in scripts/traces/generate.mjs',
    lines: () => cellularLike(25, 10_000),
  },
];

const meanBps = (lines) => (lines.length * OPPORTUNITY_BYTES * 8 * 1000) / lines[lines.length - 1];

function outputs() {
  const files = new Map();
  const list = [];
  for (const t of TRACES) {
    const lines = t.lines();
    for (let i = 1; i < lines.length; i++) if (lines[i] < lines[i - 1]) throw new Error(`${t.id}: unordered at ${i}`);
    files.set(join(OUT, `${t.id}.trace`), lines.join('\n') + '\n');
    list.push({
      id: t.id,
      file: `traces/${t.id}.trace`,
      name: t.name,
      description: t.description,
      lines: lines.length,
      period_ms: lines[lines.length - 1],
      mean_bps: Math.round(meanBps(lines)),
    });
  }
  const ts =
    '// Generated by scripts/traces/generate.mjs (public/traces/README.md). Do not edit.\n\n' +
    '/** A built-in Mahimahi trace: its file under public/, and what it holds. */\n' +
    'export interface BuiltinTrace {\n' +
    '  id: string;\n' +
    '  /** Relative to the site root (the app fetches it when chosen). */\n' +
    '  file: string;\n' +
    '  name: string;\n' +
    '  description: string;\n' +
    '  /** Delivery opportunities in one period (the file\'s lines). */\n' +
    '  lines: number;\n' +
    '  /** The last timestamp: the trace repeats with this period. */\n' +
    '  period_ms: number;\n' +
    '  /** Mean rate at 1504 bytes per opportunity, b/s (rounded). */\n' +
    '  mean_bps: number;\n' +
    '}\n\n' +
    `export const BUILTIN_TRACES: readonly BuiltinTrace[] = ${JSON.stringify(list, null, 2)};\n`;
  files.set(LIST, ts);
  return files;
}

const check = process.argv.includes('--check');
let stale = 0;
for (const [path, text] of outputs()) {
  if (check) {
    let old = null;
    try {
      old = readFileSync(path, 'utf8');
    } catch {
      /* missing */
    }
    if (old !== text) {
      console.error(`stale: ${path}`);
      stale++;
    }
  } else {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    console.log(`wrote ${path}`);
  }
}
if (stale) {
  console.error('run: node scripts/traces/generate.mjs');
  process.exit(1);
}
