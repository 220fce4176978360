import { describe, expect, it } from 'vitest';
import { brushDomain, clampDomain, isFullView, lowerBound, nearestSample, panBy, upperBound, zoomAt } from './timeLink';

const B: [number, number] = [0, 20];

describe('linked time domains', () => {
  it('clamps views inside the run with a minimum span', () => {
    expect(clampDomain([-5, 5], B, 0.1)).toEqual([0, 10]);
    expect(clampDomain([15, 25], B, 0.1)).toEqual([10, 20]);
    expect(clampDomain([-5, 50], B, 0.1)).toEqual([0, 20]);
    expect(clampDomain([3, 3.01], B, 0.1)).toEqual([3, 3.1]);
  });
  it('zooms around a point and pans by a fraction of the view', () => {
    expect(zoomAt([0, 20], 10, 0.5, B, 0.1)).toEqual([5, 15]);
    expect(zoomAt([0, 20], 0, 0.5, B, 0.1)).toEqual([0, 10]);
    expect(zoomAt([5, 15], 10, 4, B, 0.1)).toEqual([0, 20]);
    expect(panBy([5, 15], 0.5, B, 0.1)).toEqual([10, 20]);
    expect(panBy([5, 15], 2, B, 0.1)).toEqual([10, 20]);
    expect(panBy([5, 15], -0.2, B, 0.1)).toEqual([3, 13]);
  });
  it('turns a brush into a view, ignoring clicks', () => {
    expect(brushDomain(100, 300, 400, [0, 20], B, 0.1)).toEqual([5, 15]);
    expect(brushDomain(300, 100, 400, [0, 20], B, 0.1)).toEqual([5, 15]);
    expect(brushDomain(-50, 100, 400, [10, 20], B, 0.1)).toEqual([10, 12.5]);
    expect(brushDomain(100, 102, 400, [0, 20], B, 0.1)).toBeNull();
    expect(isFullView([0, 20], B)).toBe(true);
    expect(isFullView([0, 19], B)).toBe(false);
  });
  it('finds samples by time', () => {
    const t = [0, 0.01, 0.02, 0.03, 0.04];
    expect(upperBound(t, 0.02)).toBe(3);
    expect(upperBound(t, 1)).toBe(5);
    expect(upperBound(t, 1, 2)).toBe(2);
    expect(upperBound(t, -1)).toBe(0);
    expect(lowerBound(t, 0.015)).toBe(2);
    expect(nearestSample(t, 0.014)).toBe(1);
    expect(nearestSample(t, 0.016)).toBe(2);
    expect(nearestSample(t, 9)).toBe(4);
    expect(nearestSample(t, 9, 3)).toBe(2);
    expect(nearestSample([], 1)).toBe(-1);
  });
});
