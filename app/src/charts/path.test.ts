import { describe, expect, it } from 'vitest';
import { decimateMinMax } from './decimate';
import { linePath, pathVertexCount } from './path';
import { linearScale } from './scale';

const id = (v: number) => v;

describe('linePath', () => {
  it('moves to the first point and draws lines through the rest', () => {
    const d = { x: Float64Array.from([0, 1, 2]), y: Float64Array.from([5, 6, 4]), length: 3 };
    expect(linePath(d, id, id)).toBe('M0,5L1,6L2,4');
  });

  it('applies the scales and rounds to 0.1 px', () => {
    const x = linearScale([0, 10], [0, 100]);
    const y = linearScale([0, 3], [90, 0]);
    const d = { x: Float64Array.from([0, 10]), y: Float64Array.from([1, 3]), length: 2 };
    expect(linePath(d, x, y)).toBe('M0,60L100,0');
    const r = { x: Float64Array.from([1 / 3]), y: Float64Array.from([2 / 3]), length: 1 };
    expect(linePath(r, id, id)).toBe('M0.3,0.7');
  });

  it('breaks the line at gaps and ignores points past length', () => {
    const d = { x: Float64Array.from([0, 1, 2, 3, 99]), y: Float64Array.from([1, NaN, 2, 3, 99]), length: 4 };
    expect(linePath(d, id, id)).toBe('M0,1M2,2L3,3');
  });

  it('is empty for no points, and has one vertex per decimated point', () => {
    expect(linePath({ x: new Float64Array(0), y: new Float64Array(0), length: 0 }, id, id)).toBe('');
    const n = 5000;
    const xs = Float64Array.from({ length: n }, (_, i) => i);
    const d = decimateMinMax(xs, xs.map((v) => v % 17), { x0: 0, x1: n - 1, pixels: 100 });
    expect(pathVertexCount(linePath(d, id, id))).toBe(d.length);
  });
});
