// SVG path strings from (decimated) points.

import type { Decimated } from './decimate';

const round = (v: number) => Math.round(v * 10) / 10;

/**
 * "M x,y L x,y ..." through the points, mapping each with sx/sy. A NaN y
 * breaks the line (the next point starts a new sub-path). Empty string when
 * there is nothing to draw.
 */
export function linePath(points: Decimated, sx: (v: number) => number, sy: (v: number) => number): string {
  // String concatenation (V8 ropes) is several times faster than building an
  // array of template strings: this runs for every line of every chart.
  let out = '';
  let pen = false;
  const { x, y, length } = points;
  for (let i = 0; i < length; i++) {
    const yi = y[i];
    if (!Number.isFinite(yi)) {
      pen = false;
      continue;
    }
    out += (pen ? 'L' : 'M') + round(sx(x[i])) + ',' + round(sy(yi));
    pen = true;
  }
  return out;
}

/** The number of drawn vertices in a path made by linePath. */
export function pathVertexCount(d: string): number {
  return (d.match(/[ML]/g) ?? []).length;
}
