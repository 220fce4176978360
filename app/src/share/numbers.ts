// Strict number syntax for URL parameters, with the unit suffixes the share
// links use. Every formatter here is exact: parse(format(x)) === x for every
// finite double (a formatter falls back to the plain number whenever a
// suffix would not reproduce the value bit for bit).

/** A decimal number as people type it: no hex, no "Infinity", no blanks. */
const NUMBER_RE = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

export function parseNumber(text: string): number | null {
  if (!NUMBER_RE.test(text)) return null;
  const n = Number(text);
  return Number.isFinite(n) ? n : null;
}

/** JavaScript's shortest round-tripping representation ("1e-7", "0.30000000000000004"). */
export function formatNumber(n: number): string {
  // -0 would print as "0"; keep it distinguishable so round trips stay exact.
  return Object.is(n, -0) ? '-0' : String(n);
}

export const U32_MAX = 4294967295;

export function parseU32(text: string): number | null {
  const n = parseNumber(text);
  return n !== null && Number.isInteger(n) && n >= 0 && n <= U32_MAX ? n : null;
}

export interface SuffixSet {
  /** Suffix → multiplier, largest first. */
  units: readonly (readonly [string, number])[];
  /** Suffixes are matched case-insensitively when true. */
  caseInsensitive?: boolean;
}

/** Bit rates: k, M, G, T are powers of 1000 (1G = 1e9 b/s). */
export const RATE_UNITS: SuffixSet = {
  units: [
    ['T', 1e12],
    ['G', 1e9],
    ['M', 1e6],
    ['k', 1e3],
  ],
};

/** Byte sizes: K, M, G are powers of 1024 (16M = 16 MiB, the Linux convention). */
export const BYTE_UNITS: SuffixSet = {
  units: [
    ['G', 1024 ** 3],
    ['M', 1024 ** 2],
    ['K', 1024],
  ],
  caseInsensitive: true,
};

export function parseWithUnits(text: string, set: SuffixSet): number | null {
  for (const [suffix, mult] of set.units) {
    const hit = set.caseInsensitive ? text.toLowerCase().endsWith(suffix.toLowerCase()) : text.endsWith(suffix);
    if (hit && text.length > suffix.length) {
      const n = parseNumber(text.slice(0, -suffix.length));
      if (n === null) return null;
      const v = n * mult;
      return Number.isFinite(v) ? v : null;
    }
  }
  return parseNumber(text);
}

export function formatWithUnits(n: number, set: SuffixSet): string {
  if (n !== 0 && Number.isFinite(n)) {
    for (const [suffix, mult] of set.units) {
      if (Math.abs(n) < mult) continue;
      const mant = n / mult;
      const text = formatNumber(mant);
      // Only short, exact mantissas ("16", "1.5"), never "16.000000001".
      if (text.length <= 8 && !/e/i.test(text) && Number(text) * mult === n) return text + suffix;
    }
  }
  return formatNumber(n);
}

/** Durations: a plain number is seconds, "ms" or "s" may follow. */
export function parseSeconds(text: string): number | null {
  if (text.endsWith('ms')) return parseNumber(text.slice(0, -2));
  const n = parseNumber(text.endsWith('s') ? text.slice(0, -1) : text);
  if (n === null) return null;
  const ms = n * 1000;
  return Number.isFinite(ms) ? ms : null;
}

export function formatSeconds(ms: number): string {
  const s = formatNumber(ms / 1000);
  if (!/e/i.test(s) && Number(s) * 1000 === ms && !Object.is(ms, -0)) return s;
  return `${formatNumber(ms)}ms`;
}
