// Units of the lab's controls: formatting for read-outs and typed fields, and
// parsing of what a student types ("16M", "16 MB", "1G", "1/50", "2.5e-5").
//
// Bytes use binary prefixes (the papers' "16 MB window" is 16·2^20 bytes);
// rates use SI prefixes (1 Gb/s = 10^9 b/s).

export type UnitKind = 'bytes' | 'rate' | 'ms' | 's' | 'packets' | 'plain';

export interface UnitInfo {
  kind: UnitKind;
  /** Unit text for labels ("ms", "packets", ""). */
  label: string;
}

const BYTE_STEPS: [number, string][] = [
  [2 ** 30, 'GB'],
  [2 ** 20, 'MB'],
  [2 ** 10, 'KB'],
  [1, 'B'],
];
const RATE_STEPS: [number, string][] = [
  [1e12, 'Tb/s'],
  [1e9, 'Gb/s'],
  [1e6, 'Mb/s'],
  [1e3, 'kb/s'],
  [1, 'b/s'],
];

/** A number with at most `sig` significant digits, no trailing zeros ("16", "1.25", "0.005"). */
export function trimNumber(v: number, sig = 4): string {
  if (!Number.isFinite(v)) return String(v);
  if (v === 0) return '0';
  const a = Math.abs(v);
  if (a >= 1e-4 && a < 1e15) {
    const digits = Math.max(0, sig - 1 - Math.floor(Math.log10(a)));
    return String(Number(v.toFixed(Math.min(20, digits))));
  }
  return String(Number(v.toPrecision(sig)));
}

function scaled(v: number, steps: [number, string][], sig: number): string {
  const a = Math.abs(v);
  for (const [f, u] of steps) {
    if (a >= f * 0.9995 || f === steps[steps.length - 1][0]) return `${trimNumber(v / f, sig)} ${u}`;
  }
  return `${trimNumber(v, sig)}`;
}

/** 16777216 → "16 MB", 65536 → "64 KB", 1536 → "1.5 KB". */
export function formatBytes(bytes: number, sig = 4): string {
  if (!Number.isFinite(bytes)) return '–';
  return scaled(bytes, BYTE_STEPS, sig);
}

/** 1e9 → "1 Gb/s", 2.5e8 → "250 Mb/s". */
export function formatRate(bps: number, sig = 4): string {
  if (!Number.isFinite(bps)) return '–';
  return scaled(bps, RATE_STEPS, sig);
}

/** A value with its unit for read-outs and the typed field. */
export function formatValue(v: number, kind: UnitKind, unitLabel = ''): string {
  switch (kind) {
    case 'bytes':
      return formatBytes(v);
    case 'rate':
      return formatRate(v);
    case 'ms':
      return `${trimNumber(v, 6)} ms`;
    case 's':
      return `${trimNumber(v, 6)} s`;
    case 'packets':
      return `${trimNumber(v, 7)}`;
    default:
      return unitLabel ? `${trimNumber(v, 6)}` : trimNumber(v, 6);
  }
}

/**
 * A value with its unit, once, for screen readers (a slider's
 * aria-valuetext): "40 ms", "16 MB", "1 Gb/s", "100 packets", "7".
 * formatValue already names the unit of bytes, rates and times; other
 * kinds get `unitLabel` appended (nothing when it is empty).
 */
export function valueText(v: number, kind: UnitKind, unitLabel = ''): string {
  const text = formatValue(v, kind, unitLabel);
  if (kind === 'bytes' || kind === 'rate' || kind === 'ms' || kind === 's') return text;
  const unit = unitFor(v, unitLabel.trim());
  return unit ? `${text} ${unit}` : text;
}

/** Counted units in the singular for exactly one: "1 packet/RTT", "1 stream". */
const SINGULAR: Record<string, string> = { packets: 'packet', streams: 'stream', flows: 'flow', hosts: 'host', segments: 'segment' };

/**
 * The unit label as it reads after `v`: the leading counted noun is made
 * singular when v is exactly 1 ("1 packet/RTT", not "1 packets/RTT").
 */
export function unitFor(v: number, unitLabel: string): string {
  if (v !== 1) return unitLabel;
  const m = /^([a-z]+)(.*)$/.exec(unitLabel);
  if (!m || !(m[1] in SINGULAR)) return unitLabel;
  return SINGULAR[m[1]] + m[2];
}

const NUMBER = String.raw`[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?`;
const NUMBER_RE = new RegExp(`^(${NUMBER})(?:\\s*/\\s*(${NUMBER}))?\\s*([a-zA-Z/%µ]*)$`);

const BYTE_SUFFIX: Record<string, number> = {
  '': 1,
  b: 1,
  byte: 1,
  bytes: 1,
  k: 2 ** 10,
  kb: 2 ** 10,
  kib: 2 ** 10,
  m: 2 ** 20,
  mb: 2 ** 20,
  mib: 2 ** 20,
  g: 2 ** 30,
  gb: 2 ** 30,
  gib: 2 ** 30,
};
const RATE_SUFFIX: Record<string, number> = {
  '': 1,
  'b/s': 1,
  bps: 1,
  k: 1e3,
  'kb/s': 1e3,
  kbps: 1e3,
  kbit: 1e3,
  m: 1e6,
  'mb/s': 1e6,
  mbps: 1e6,
  mbit: 1e6,
  g: 1e9,
  'gb/s': 1e9,
  gbps: 1e9,
  gbit: 1e9,
  t: 1e12,
  'tb/s': 1e12,
  tbps: 1e12,
};
const MS_SUFFIX: Record<string, number> = { '': 1, ms: 1, s: 1000, us: 0.001, 'µs': 0.001 };
const S_SUFFIX: Record<string, number> = { '': 1, s: 1, ms: 0.001, min: 60 };
const PLAIN_SUFFIX: Record<string, number> = { '': 1, '%': 0.01 };
const PACKET_SUFFIX: Record<string, number> = { '': 1, p: 1, pkt: 1, pkts: 1, packet: 1, packets: 1 };

const SUFFIXES: Record<UnitKind, Record<string, number>> = {
  bytes: BYTE_SUFFIX,
  rate: RATE_SUFFIX,
  ms: MS_SUFFIX,
  s: S_SUFFIX,
  packets: PACKET_SUFFIX,
  plain: PLAIN_SUFFIX,
};

/**
 * Parse typed text as a quantity of `kind` in base units (bytes, b/s, ms, s,
 * packets). Accepts a plain number, a fraction ("1/50") and a unit suffix
 * ("16M", "16 MB", "1 Gb/s", "2s" for ms fields). Null when unreadable.
 */
export function parseQuantity(text: string, kind: UnitKind): number | null {
  const t = text.trim().replace(/,/g, '');
  const m = NUMBER_RE.exec(t);
  if (!m) return null;
  let v = Number(m[1]);
  if (m[2] !== undefined) {
    const d = Number(m[2]);
    if (d === 0) return null;
    v /= d;
  }
  const suffix = m[3].toLowerCase().replace(/^µ/, 'µ');
  const table = SUFFIXES[kind];
  const f = table[suffix] ?? (kind === 'plain' && suffix === '' ? 1 : undefined);
  if (f === undefined) return null;
  v *= f;
  return Number.isFinite(v) ? v : null;
}
