import { describe, expect, it } from 'vitest';
import { chartMargins, DEFAULT_SIZING, fitAxisTitle, lineWidthScale, MIN_PLOT_H, plotLayout, textWidth } from './chartSizing';

describe('plotLayout', () => {
  it('keeps the lab page as it was: a fixed plot, one lane per marker kind', () => {
    expect(plotLayout({ plotHeight: 190, scale: 1, laneKinds: 4 })).toEqual({ plotHeight: 190, laneHeight: 11, stackedLanes: true, lanesHeight: 50 });
    expect(plotLayout({ scale: 1, laneKinds: 0 })).toMatchObject({ plotHeight: 190, lanesHeight: 0 });
  });

  it('fills a box: plot, lanes and margins add up to its height', () => {
    const l = plotLayout({ boxHeight: 400, scale: 1.5, laneKinds: 4 });
    const m = chartMargins(1.5);
    expect(l.stackedLanes).toBe(true);
    expect(l.lanesHeight).toBeCloseTo(4 * 16.5 + 9);
    expect(l.plotHeight + l.lanesHeight + m.top + m.bottom).toBeLessThanOrEqual(400);
    expect(l.plotHeight + l.lanesHeight + m.top + m.bottom).toBeGreaterThan(399);
  });

  it('puts every marker kind in one lane when the box is small', () => {
    const l = plotLayout({ boxHeight: 150, scale: 1, laneKinds: 4 });
    expect(l.stackedLanes).toBe(false);
    expect(l.lanesHeight).toBe(17);
    expect(l.plotHeight).toBe(150 - 44 - 17);
  });

  it('never draws a plot below its minimum', () => {
    expect(plotLayout({ boxHeight: 20, scale: 1, laneKinds: 4 }).plotHeight).toBe(MIN_PLOT_H);
  });
});

describe('fitAxisTitle', () => {
  const full = 'throughput (Mb/s, 100 ms avg)';
  it('keeps the full title where it fits', () => {
    expect(fitAxisTitle([full, 'Mb/s'], 200, 10, 11)).toBe(full);
  });

  it('falls back to the unit, then to nothing, rather than run past the plot into the heading', () => {
    expect(fitAxisTitle([full, 'Mb/s'], 100, 10, 11)).toBe('Mb/s');
    expect(fitAxisTitle([full, 'Mb/s'], 10, 2, 11)).toBe('');
  });

  it('measures generously', () => {
    expect(textWidth(full, 11)).toBeGreaterThan(full.length * 0.6 * 11);
  });
});

describe('lineWidthScale', () => {
  it('keeps the lab page’s widths, thickens lines for big type and the projector', () => {
    expect(lineWidthScale(DEFAULT_SIZING)).toBe(1);
    expect(lineWidthScale({ scale: 1.2, lineScale: 1 })).toBe(1);
    expect(lineWidthScale({ scale: 2.4, lineScale: 1 })).toBeCloseTo(1.8);
    expect(lineWidthScale({ scale: 1, lineScale: 2 })).toBe(2);
  });
});
