// Scales and ticks for the charts: linear scales with d3's tick and "nice"
// rules (d3-array tickIncrement), written out here so the lab page's first
// load does not carry d3-scale and its interpolators.

const E10 = Math.sqrt(50);
const E5 = Math.sqrt(10);
const E2 = Math.sqrt(2);

function tickSpec(start: number, stop: number, count: number): [number, number, number] {
  const step = (stop - start) / Math.max(0, count);
  const power = Math.floor(Math.log10(step));
  const error = step / 10 ** power;
  const factor = error >= E10 ? 10 : error >= E5 ? 5 : error >= E2 ? 2 : 1;
  let i1: number;
  let i2: number;
  let inc: number;
  if (power < 0) {
    inc = 10 ** -power / factor;
    i1 = Math.round(start * inc);
    i2 = Math.round(stop * inc);
    if (i1 / inc < start) ++i1;
    if (i2 / inc > stop) --i2;
    inc = -inc;
  } else {
    inc = 10 ** power * factor;
    i1 = Math.round(start / inc);
    i2 = Math.round(stop / inc);
    if (i1 * inc < start) ++i1;
    if (i2 * inc > stop) --i2;
  }
  if (i2 < i1 && 0.5 <= count && count < 2) return tickSpec(start, stop, count * 2);
  return [i1, i2, inc];
}

/** Round tick values in [start, stop], about `count` of them (d3.ticks). */
export function ticks(start: number, stop: number, count: number): number[] {
  if (!(count > 0)) return [];
  if (start === stop) return [start];
  const reverse = stop < start;
  const [a, b] = reverse ? [stop, start] : [start, stop];
  const [i1, i2, inc] = tickSpec(a, b, count);
  if (!(i2 >= i1)) return [];
  const n = i2 - i1 + 1;
  const out = new Array<number>(n);
  for (let i = 0; i < n; i++) out[i] = inc < 0 ? (i1 + i) / -inc : (i1 + i) * inc;
  return reverse ? out.reverse() : out;
}

/** d3.tickIncrement: positive = step, negative = 1/step. */
function tickIncrement(start: number, stop: number, count: number): number {
  return tickSpec(start, stop, count)[2];
}

/** Extend a domain to round tick values (d3's linear nice). */
export function nice(domain: [number, number], count = 10): [number, number] {
  let [start, stop] = domain;
  const reverse = stop < start;
  if (reverse) [start, stop] = [stop, start];
  let prestep: number | undefined;
  for (let k = 0; k < 10; k++) {
    const step = tickIncrement(start, stop, count);
    if (step === prestep) break;
    if (step > 0) {
      start = Math.floor(start / step) * step;
      stop = Math.ceil(stop / step) * step;
    } else if (step < 0) {
      start = Math.ceil(start * step) / step;
      stop = Math.floor(stop * step) / step;
    } else break;
    prestep = step;
  }
  return reverse ? [stop, start] : [start, stop];
}

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
  const [d0, d1] = domain;
  const [r0, r1] = range;
  const k = d1 !== d0 ? (r1 - r0) / (d1 - d0) : 0;
  const f = ((v: number) => (d1 !== d0 ? r0 + (v - d0) * k : (r0 + r1) / 2)) as LinearScale;
  f.invert = (px) => (r1 !== r0 ? d0 + ((px - r0) * (d1 - d0)) / (r1 - r0) : d0);
  f.domain = domain;
  f.range = range;
  f.ticks = (count = 6) => ticks(d0, d1, count);
  f.tickStep = (count = 6) => {
    const t = ticks(d0, d1, count);
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
  return nice([lo, hi], opts.ticks ?? 6);
}

/** Inner plot size for an outer size and margin (never negative). */
export function innerSize(width: number, height: number, m: Margin): { width: number; height: number } {
  return { width: Math.max(0, width - m.left - m.right), height: Math.max(0, height - m.top - m.bottom) };
}
