// Scales and ticks for the charts (thin, tested wrappers over d3-scale).

import { scaleLinear } from 'd3';

export interface Margin {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

export interface LinearScale {
  (v: number): number;
  invert(px: number): number;
  domain: [number, number];
  range: [number, number];
  ticks(count?: number): number[];
  /** The distance between ticks for `count` ticks (for formatting precision). */
  tickStep(count?: number): number;
}

export function linearScale(domain: [number, number], range: [number, number]): LinearScale {
  const s = scaleLinear().domain(domain).range(range);
  const f = ((v: number) => s(v)) as LinearScale;
  f.invert = (px) => s.invert(px);
  f.domain = domain;
  f.range = range;
  f.ticks = (count = 6) => s.ticks(count);
  f.tickStep = (count = 6) => {
    const t = s.ticks(count);
    return t.length > 1 ? t[1] - t[0] : Math.abs(domain[1] - domain[0]) || 1;
  };
  return f;
}

/** [min, max] of the finite values of several arrays (first `count` of each), or null. */
export function extentOf(arrays: ArrayLike<number>[], count?: number): [number, number] | null {
  let lo = Infinity;
  let hi = -Infinity;
  for (const a of arrays) {
    const n = Math.min(count ?? a.length, a.length);
    for (let i = 0; i < n; i++) {
      const v = a[i];
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
  }
  return lo <= hi ? [lo, hi] : null;
}

/**
 * A y domain for a chart of non-negative quantities: starts at zero (unless
 * data goes below), rounded up to nice tick values, never empty.
 */
export function niceDomain(extent: [number, number] | null, opts: { includeZero?: boolean; ticks?: number } = {}): [number, number] {
  const includeZero = opts.includeZero ?? true;
  if (!extent) return [0, 1];
  let [lo, hi] = extent;
  if (includeZero) {
    lo = Math.min(lo, 0);
    hi = Math.max(hi, 0);
  }
  if (lo === hi) {
    const pad = lo === 0 ? 1 : Math.abs(lo) * 0.1;
    lo = includeZero && lo >= 0 ? 0 : lo - pad;
    hi = hi + pad;
  }
  const d = scaleLinear().domain([lo, hi]).nice(opts.ticks ?? 6).domain();
  return [d[0], d[1]];
}

/** Inner plot size for an outer size and margin (never negative). */
export function innerSize(width: number, height: number, m: Margin): { width: number; height: number } {
  return { width: Math.max(0, width - m.left - m.right), height: Math.max(0, height - m.top - m.bottom) };
}
