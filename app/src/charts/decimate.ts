// Per-pixel min/max decimation (the "M4" scheme): for each pixel column keep
// the first, minimum, maximum and last point, in x order. A line drawn through
// the result looks the same at that width as one through every sample, but
// has at most 4 points per pixel. Points with a non-finite y are gaps.

export interface Decimated {
  x: Float64Array;
  y: Float64Array;
  /** Number of valid points in x/y (the arrays may be longer). */
  length: number;
}

export interface DecimateOptions {
  /** Visible x range; points outside it are dropped. */
  x0: number;
  x1: number;
  /** Width in pixels (buckets). */
  pixels: number;
  /** Only the first n points of the input are used (default: all). */
  count?: number;
  /** Start at this index (points before it are skipped; default 0). */
  start?: number;
}

export function decimateMinMax(xs: ArrayLike<number>, ys: ArrayLike<number>, opts: DecimateOptions): Decimated {
  const n = Math.min(opts.count ?? xs.length, xs.length, ys.length);
  const pixels = Math.max(1, Math.floor(opts.pixels));
  const { x0, x1 } = opts;
  const span = x1 - x0;
  let outX = new Float64Array(Math.max(1, Math.min(n, pixels * 4 + 16)));
  let outY = new Float64Array(outX.length);
  let len = 0;
  const push = (x: number, y: number) => {
    if (len === outX.length) {
      const gx = new Float64Array(outX.length * 2);
      const gy = new Float64Array(outX.length * 2);
      gx.set(outX);
      gy.set(outY);
      outX = gx;
      outY = gy;
    }
    outX[len] = x;
    outY[len] = y;
    len++;
  };

  // Current bucket: indices of first, min, max, last.
  let bucket = -1;
  let iFirst = -1;
  let iMin = -1;
  let iMax = -1;
  let iLast = -1;

  const flush = () => {
    if (iFirst < 0) return;
    const idx = [iFirst, iMin, iMax, iLast].sort((a, b) => a - b);
    let prev = -1;
    for (const i of idx) {
      if (i !== prev) push(xs[i], ys[i]);
      prev = i;
    }
    iFirst = iMin = iMax = iLast = -1;
  };

  for (let i = Math.max(0, opts.start ?? 0); i < n; i++) {
    const x = xs[i];
    if (!(x >= x0 && x <= x1)) continue;
    const y = ys[i];
    if (!Number.isFinite(y)) {
      flush();
      // One gap marker per run of missing values.
      if (len > 0 && !Number.isNaN(outY[len - 1])) push(x, NaN);
      bucket = -1;
      continue;
    }
    const b = span > 0 ? Math.min(pixels - 1, Math.floor(((x - x0) / span) * pixels)) : 0;
    if (b !== bucket) {
      flush();
      bucket = b;
      iFirst = iMin = iMax = iLast = i;
      continue;
    }
    iLast = i;
    if (y < ys[iMin]) iMin = i;
    if (y > ys[iMax]) iMax = i;
  }
  flush();
  return { x: outX, y: outY, length: len };
}
