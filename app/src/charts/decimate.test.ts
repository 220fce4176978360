import { describe, expect, it } from 'vitest';
import { decimateMinMax } from './decimate';

const range = (n: number) => Float64Array.from({ length: n }, (_, i) => i);
const pts = (d: ReturnType<typeof decimateMinMax>) =>
  Array.from({ length: d.length }, (_, i) => [d.x[i], d.y[i]] as [number, number]);

describe('decimateMinMax', () => {
  it('keeps every point when there are fewer points than pixels', () => {
    const x = range(10);
    const y = Float64Array.from(x, (v) => v * v);
    const d = decimateMinMax(x, y, { x0: 0, x1: 9, pixels: 100 });
    expect(pts(d)).toEqual(Array.from(x, (v) => [v, v * v]));
  });

  it('bounds the output to 4 points per pixel and keeps x ascending', () => {
    const n = 100_000;
    const x = range(n);
    const y = Float64Array.from(x, (v) => Math.sin(v / 7) * 100 + (v % 13));
    const d = decimateMinMax(x, y, { x0: 0, x1: n - 1, pixels: 300 });
    expect(d.length).toBeLessThanOrEqual(4 * 300);
    expect(d.length).toBeGreaterThan(300);
    for (let i = 1; i < d.length; i++) expect(d.x[i]).toBeGreaterThan(d.x[i - 1]);
  });

  it('preserves the extremes of each pixel (a one-sample spike survives)', () => {
    const n = 10_000;
    const x = range(n);
    const y = new Float64Array(n).fill(5);
    y[4321] = 1000;
    y[7777] = -3;
    const d = decimateMinMax(x, y, { x0: 0, x1: n - 1, pixels: 50 });
    const ys = Array.from(d.y.subarray(0, d.length));
    expect(Math.max(...ys)).toBe(1000);
    expect(Math.min(...ys)).toBe(-3);
    expect(pts(d)).toContainEqual([4321, 1000]);
    expect(pts(d)).toContainEqual([7777, -3]);
    // Flat stretches collapse to first/last per bucket.
    expect(d.length).toBeLessThanOrEqual(50 * 2 + 4);
  });

  it('keeps the first and last points of the visible range', () => {
    const x = range(1000);
    const y = Float64Array.from(x, (v) => (v * 37) % 101);
    const d = decimateMinMax(x, y, { x0: 0, x1: 999, pixels: 10 });
    expect([d.x[0], d.y[0]]).toEqual([0, 0]);
    expect([d.x[d.length - 1], d.y[d.length - 1]]).toEqual([999, (999 * 37) % 101]);
  });

  it('drops points outside the visible range and honours count', () => {
    const x = range(100);
    const d = decimateMinMax(x, x, { x0: 20, x1: 30, pixels: 1000 });
    expect(d.x[0]).toBe(20);
    expect(d.x[d.length - 1]).toBe(30);
    const c = decimateMinMax(x, x, { x0: 0, x1: 99, pixels: 1000, count: 5 });
    expect(c.length).toBe(5);
  });

  it('turns non-finite values into a single gap marker', () => {
    const x = range(6);
    const y = Float64Array.from([1, 2, NaN, NaN, 3, 4]);
    const d = decimateMinMax(x, y, { x0: 0, x1: 5, pixels: 100 });
    const ys = Array.from(d.y.subarray(0, d.length));
    expect(ys.filter(Number.isNaN).length).toBe(1);
    expect(ys.filter(Number.isFinite)).toEqual([1, 2, 3, 4]);
  });

  it('handles empty input and a zero-width range', () => {
    expect(decimateMinMax(new Float64Array(0), new Float64Array(0), { x0: 0, x1: 1, pixels: 10 }).length).toBe(0);
    const d = decimateMinMax([1, 1, 1], [3, 9, 4], { x0: 1, x1: 1, pixels: 10 });
    expect(pts(d)).toEqual([[1, 3], [1, 9], [1, 4]]);
  });

  it('starts at an index and keeps the same pixel columns (drawing in pieces matches drawing at once)', () => {
    const n = 2000;
    const x = range(n);
    const y = Float64Array.from(x, (v) => Math.sin(v / 13) * 50 + (v % 7));
    const whole = pts(decimateMinMax(x, y, { x0: 0, x1: n - 1, pixels: 100 }));
    const a = pts(decimateMinMax(x, y, { x0: 0, x1: n - 1, pixels: 100, count: 1000 }));
    const b = pts(decimateMinMax(x, y, { x0: 0, x1: n - 1, pixels: 100, start: 1000 }));
    expect(b[0][0]).toBe(1000);
    // Piece boundaries fall on column boundaries here (1000 = 50 columns), so the pieces are the whole.
    expect([...a, ...b]).toEqual(whole);
  });
});
