// Slider scales as "ladders": the sorted list of values a slider can take.
// A slider's position is an index into its ladder, so the keyboard steps
// through sensible values (64 KB, 80 KB, 96 KB … on a log scale) and the
// typed field can still hold any value in range (the slider then shows the
// nearest rung).

export type Ladder = readonly number[];

function uniqSorted(values: number[]): number[] {
  const s = values.filter(Number.isFinite).sort((a, b) => a - b);
  const out: number[] = [];
  for (const v of s) if (out.length === 0 || Math.abs(v - out[out.length - 1]) > Math.abs(v) * 1e-12) out.push(v);
  return out;
}

/** Clean binary float noise: 0.30000000000000004 → 0.3. */
export function tidy(v: number): number {
  return v === 0 ? 0 : Number(v.toPrecision(12));
}

/** min..max in equal steps (inclusive; max always included). */
export function linearLadder(min: number, max: number, step: number): number[] {
  const n = Math.floor((max - min) / step + 1e-9);
  const out = Array.from({ length: n + 1 }, (_, i) => tidy(min + i * step));
  return uniqSorted([...out, max]);
}

/** Piecewise linear: [[from, to, step], ...]. */
export function steppedLadder(pieces: [number, number, number][]): number[] {
  return uniqSorted(pieces.flatMap(([a, b, s]) => linearLadder(a, b, s)));
}

/** mantissa × base^k for every k with min ≤ value ≤ max (plus min and max). */
export function mantissaLadder(min: number, max: number, mantissas: number[], base: number): number[] {
  const out: number[] = [min, max];
  if (min > 0 && max > min) {
    const k0 = Math.floor(Math.log(min) / Math.log(base)) - 1;
    const k1 = Math.ceil(Math.log(max) / Math.log(base)) + 1;
    for (let k = k0; k <= k1; k++) {
      for (const m of mantissas) {
        const v = tidy(m * base ** k);
        if (v >= min * (1 - 1e-12) && v <= max * (1 + 1e-12)) out.push(v);
      }
    }
  }
  return uniqSorted(out);
}

/** About ten steps per decade: 1, 1.25, 1.5, 2, 2.5, 3, 4, 5, 6, 8. */
export const DECADE_MANTISSAS = [1, 1.25, 1.5, 2, 2.5, 3, 4, 5, 6, 8];
/** Four steps per doubling, exact at powers of two (for byte sizes). */
export const OCTAVE_MANTISSAS = [1, 1.25, 1.5, 1.75];

export function decadeLadder(min: number, max: number): number[] {
  return mantissaLadder(min, max, DECADE_MANTISSAS, 10);
}

/** Index of the rung nearest to `value` (log distance when `log`). */
export function nearestIndex(ladder: Ladder, value: number, log = false): number {
  if (ladder.length === 0) return 0;
  if (!(value > ladder[0])) return 0;
  if (value >= ladder[ladder.length - 1]) return ladder.length - 1;
  let lo = 0;
  let hi = ladder.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (ladder[mid] <= value) lo = mid;
    else hi = mid;
  }
  const a = ladder[lo];
  const b = ladder[hi];
  const da = log && a > 0 ? Math.log(value / a) : value - a;
  const db = log && a > 0 ? Math.log(b / value) : b - value;
  return db < da ? hi : lo;
}

/** Whether a ladder spans enough orders of magnitude to compare by log distance. */
export function isLogLadder(ladder: Ladder): boolean {
  const positive = ladder.filter((v) => v > 0);
  return positive.length > 2 && positive[positive.length - 1] / positive[0] >= 100;
}

/**
 * A ladder for an algorithm parameter from the catalogue: linear in `step`
 * (when that gives at most 400 rungs), else ~10 per decade; min, max and the
 * default are always rungs.
 */
export function paramLadder(p: { min: number; max: number; step: number; default: number; log_scale: boolean }): number[] {
  const { min, max, step } = p;
  let rungs: number[];
  if (!p.log_scale && step > 0 && (max - min) / step <= 400) rungs = linearLadder(min, max, step);
  else if (min > 0) rungs = decadeLadder(min, max);
  else rungs = uniqSorted([0, ...decadeLadder(Math.max(step, (max - min) / 1000), max)]);
  return uniqSorted([...rungs, min, max, p.default].filter((v) => v >= min && v <= max));
}
