// Linked time axes: one x view shared by every chart (zoom or brush one, all
// follow) and one hover time (hover one, all show a cursor). Pure functions
// over [t0, t1] domains.

export type Domain = [number, number];

/** Keep a view inside the run and at least `minSpan` wide. */
export function clampDomain(d: Domain, bounds: Domain, minSpan: number): Domain {
  const [b0, b1] = bounds;
  const full = b1 - b0;
  let span = Math.max(Math.min(d[1] - d[0], full), Math.min(minSpan, full));
  if (!(span > 0)) return [b0, b1];
  let t0 = d[0];
  if (t0 < b0) t0 = b0;
  if (t0 + span > b1) t0 = b1 - span;
  span = Math.min(span, b1 - t0);
  return [t0, t0 + span];
}

/** Zoom by `factor` (< 1 zooms in) keeping `center` where it is. */
export function zoomAt(d: Domain, center: number, factor: number, bounds: Domain, minSpan: number): Domain {
  const c = Math.min(d[1], Math.max(d[0], center));
  const t0 = c - (c - d[0]) * factor;
  const t1 = c + (d[1] - c) * factor;
  return clampDomain([t0, t1], bounds, minSpan);
}

/** Pan by a fraction of the view's width (positive: later). */
export function panBy(d: Domain, fraction: number, bounds: Domain, minSpan: number): Domain {
  const dt = (d[1] - d[0]) * fraction;
  return clampDomain([d[0] + dt, d[1] + dt], bounds, minSpan);
}

/**
 * The view a brush selects, from two pixel positions on a chart whose x
 * scale maps `view` to [0, width]; null when the brush is too narrow to mean
 * a zoom (a click).
 */
export function brushDomain(px0: number, px1: number, width: number, view: Domain, bounds: Domain, minSpan: number, minPx = 4): Domain | null {
  if (!(width > 0) || Math.abs(px1 - px0) < minPx) return null;
  const a = Math.max(0, Math.min(width, Math.min(px0, px1)));
  const b = Math.max(0, Math.min(width, Math.max(px0, px1)));
  const toT = (px: number) => view[0] + (px / width) * (view[1] - view[0]);
  return clampDomain([toT(a), toT(b)], bounds, minSpan);
}

export function isFullView(d: Domain, bounds: Domain): boolean {
  const eps = (bounds[1] - bounds[0]) * 1e-9;
  return Math.abs(d[0] - bounds[0]) <= eps && Math.abs(d[1] - bounds[1]) <= eps;
}

/** Number of leading samples with t ≤ `t` (xs ascending, first `count` used). */
export function upperBound(xs: ArrayLike<number>, t: number, count = xs.length): number {
  let lo = 0;
  let hi = Math.min(count, xs.length);
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid] <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index with t ≥ `t`. */
export function lowerBound(xs: ArrayLike<number>, t: number, count = xs.length): number {
  let lo = 0;
  let hi = Math.min(count, xs.length);
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid] < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Index of the sample nearest to `t` among the first `count`, or -1 when there are none. */
export function nearestSample(xs: ArrayLike<number>, t: number, count = xs.length): number {
  const n = Math.min(count, xs.length);
  if (n === 0) return -1;
  const i = lowerBound(xs, t, n);
  if (i <= 0) return 0;
  if (i >= n) return n - 1;
  return t - xs[i - 1] <= xs[i] - t ? i - 1 : i;
}
