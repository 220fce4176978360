// SVG path strings from (decimated) points.

import type { Decimated } from './decimate';

const round = (v: number) => Math.round(v * 10) / 10;

/**
 * "M x,y L x,y ..." through the points, mapping each with sx/sy. A NaN y
 * breaks the line (the next point starts a new sub-path). Empty string when
 * there is nothing to draw.
 */
export function linePath(points: Decimated, sx: (v: number) => number, sy: (v: number) => number): string {
  const parts: string[] = [];
  let pen = false;
  for (let i = 0; i < points.length; i++) {
    const y = points.y[i];
    if (!Number.isFinite(y)) {
      pen = false;
      continue;
    }
    const px = round(sx(points.x[i]));
    const py = round(sy(y));
    parts.push(`${pen ? 'L' : 'M'}${px},${py}`);
    pen = true;
  }
  return parts.join('');
}

/** The number of drawn vertices in a path made by linePath. */
export function pathVertexCount(d: string): number {
  return (d.match(/[ML]/g) ?? []).length;
}
