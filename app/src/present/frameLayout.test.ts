import { describe, expect, it } from 'vitest';
import { chartChrome, chartScaleFor, chooseGrid, fitFontPx, fitLayout, frameBox, MAX_FONT_PX, MIN_FONT_PX, placeControls, sideWidth } from './frameLayout';

const grid = (width: number, height: number, charts: number, fontPx = 15) => chooseGrid({ area: { width, height }, charts, gap: 6, fontPx });

describe('fitFontPx', () => {
  it('scales type with the frame and shrinks it as charts share the frame', () => {
    expect(fitFontPx({ width: 1280, height: 720 }, 1)).toBe(20);
    expect(fitFontPx({ width: 1280, height: 720 }, 4)).toBe(15);
    expect(fitFontPx({ width: 1920, height: 1080 }, 4)).toBeGreaterThan(fitFontPx({ width: 1280, height: 720 }, 4));
    // A narrow frame is limited by its width.
    expect(fitFontPx({ width: 640, height: 1080 }, 1)).toBe(10 < MIN_FONT_PX ? MIN_FONT_PX : 10);
  });

  it('stays within its limits at the smallest and largest frames', () => {
    expect(fitFontPx({ width: 480, height: 270 }, 4)).toBe(MIN_FONT_PX);
    expect(fitFontPx({ width: 3840, height: 2160 }, 1)).toBe(MAX_FONT_PX);
  });

  it('gives chart type 0.8 of the root size, never under 10 px', () => {
    expect(chartScaleFor(11)).toBeCloseTo(10 / 11);
    expect(chartScaleFor(20)).toBeCloseTo(16 / 11);
  });
});

describe('chooseGrid', () => {
  it('puts one chart in one cell filling the area', () => {
    expect(grid(1200, 600, 1)).toEqual({ columns: 1, rows: 1, lastSpan: 1, cellWidth: 1200, cellHeight: 600 });
  });

  it('uses a 2×2 grid for four charts in a 16:9 or 4:3 frame', () => {
    expect(grid(1264, 600, 4)).toMatchObject({ columns: 2, rows: 2, lastSpan: 1 });
    expect(grid(1008, 680, 4)).toMatchObject({ columns: 2, rows: 2 });
  });

  it('stacks charts in a tall frame and lines them up in a very wide one', () => {
    expect(grid(600, 1400, 4)).toMatchObject({ columns: 1, rows: 4 });
    expect(grid(2400, 320, 4)).toMatchObject({ columns: 4, rows: 1 });
    expect(grid(1264, 600, 2)).toMatchObject({ columns: 1, rows: 2 });
  });

  it('lets the last chart span the free cells of its row', () => {
    const g = grid(1264, 600, 3);
    expect(g).toMatchObject({ columns: 2, rows: 2, lastSpan: 2 });
  });

  it('never leaves a whole row empty', () => {
    for (const [w, h] of [[480, 200], [960, 400], [1900, 900], [2500, 500], [700, 900]])
      for (let n = 1; n <= 4; n++) {
        const g = grid(w, h, n);
        expect(g.columns * (g.rows - 1)).toBeLessThan(n);
        expect(g.lastSpan).toBeGreaterThanOrEqual(1);
        expect(g.lastSpan).toBeLessThanOrEqual(g.columns);
        // Cells and gaps fill the area and no more.
        expect(g.cellWidth * g.columns + 6 * (g.columns - 1)).toBeLessThanOrEqual(w);
        expect(g.cellHeight * g.rows + 6 * (g.rows - 1)).toBeLessThanOrEqual(h);
      }
  });

  it('prefers plots at least three lines of type high', () => {
    // 4 charts in a short strip: stacking them would leave no plot.
    const g = grid(470, 160, 4, 11);
    const plotH = g.cellHeight - chartChrome(11).height;
    expect(plotH).toBeGreaterThanOrEqual(33);
  });
});

describe('placeControls', () => {
  it('puts a few controls in a band above the charts', () => {
    expect(placeControls({ width: 1280, height: 720 }, 15, 3)).toBe('top');
    expect(placeControls({ width: 1280, height: 720 }, 15, 0)).toBe('none');
  });

  it('moves them beside the charts when the band would take too much of a wide frame', () => {
    expect(placeControls({ width: 480, height: 270 }, 11, 3)).toBe('side');
    expect(placeControls({ width: 1280, height: 720 }, 15, 16)).toBe('side');
    expect(placeControls({ width: 1280, height: 720 }, 15, 8)).toBe('top');
    // A tall frame keeps them on top (a column would squeeze the charts).
    expect(placeControls({ width: 600, height: 900 }, 11, 6)).toBe('top');
  });

  it('sizes the side column between 14 and 24 ems', () => {
    expect(sideWidth({ width: 480, height: 270 }, 11)).toBe(154);
    expect(sideWidth({ width: 2560, height: 1440 }, 20)).toBe(480);
    expect(sideWidth({ width: 1280, height: 720 }, 15)).toBe(360);
  });
});

describe('frameBox and fitLayout', () => {
  it('uses the window, or the frame asked for scaled to the window keeping its shape, up and down', () => {
    expect(frameBox({ width: 800, height: 600 }, null)).toEqual({ width: 800, height: 600 });
    expect(frameBox({ width: 1280, height: 720 }, { width: 1280, height: 720 })).toEqual({ width: 1280, height: 720 });
    expect(frameBox({ width: 1920, height: 1080 }, { width: 1280, height: 720 })).toEqual({ width: 1920, height: 1080 });
    expect(frameBox({ width: 2560, height: 1600 }, { width: 1280, height: 720 })).toEqual({ width: 2560, height: 1440 });
    expect(frameBox({ width: 640, height: 720 }, { width: 1280, height: 720 })).toEqual({ width: 640, height: 360 });
  });

  it('combines the decisions', () => {
    const l = fitLayout({ width: 480, height: 270 }, null, 4, 3);
    expect(l).toMatchObject({ box: { width: 480, height: 270 }, compact: true, fontPx: 11, controls: 'side', sideWidth: 154 });
    expect(fitLayout({ width: 1280, height: 720 }, null, 4, 3).compact).toBe(false);
    expect(l.chartScale).toBeCloseTo(10 / 11);
    expect(fitLayout({ width: 1280, height: 720 }, null, 2, 0)).toMatchObject({ controls: 'none', sideWidth: 0 });
  });
});
