import { describe, expect, it } from 'vitest';
import { BASE_TICK_PX } from '../charts/chartSizing';
import { chartScreenId, labScreens, paginate, presentChartSizing, presentFontPx, PRESENT_MAX_FONT_PX, PRESENT_MIN_FONT_PX, PRESENT_TICK_EM } from './labScreens';

describe('labScreens', () => {
  it('gives every chart a screen: the first with the run, each other alone', () => {
    const s = labScreens([
      { id: 'total_throughput_mbps', title: 'Throughput against window' },
      { id: 'drops', title: 'Drops against window' },
      { id: 'jain_index', title: 'Fairness against window' },
    ]);
    expect(s.map((x) => x.id)).toEqual(['question', 'prediction', 'run', 'chart-drops', 'chart-jain_index', 'shows', 'paper']);
    // The current screen's button names its chart ("4. Drops against window"), not a second count.
    expect(s[3]).toMatchObject({ title: 'Result 2: Drops against window', short: 'Drops against window' });
    expect(chartScreenId(0, 'total_throughput_mbps')).toBe('run');
    expect(chartScreenId(2, 'jain_index')).toBe('chart-jain_index');
  });

  it('has the fixed screens before the lab registers its charts', () => {
    expect(labScreens([]).map((x) => x.id)).toEqual(['question', 'prediction', 'run', 'shows', 'paper']);
  });
});

describe('presentation type', () => {
  it('follows the window’s height (its width when narrow), within limits', () => {
    expect(presentFontPx({ width: 1920, height: 1080 })).toBe(30);
    expect(presentFontPx({ width: 1280, height: 720 })).toBe(20);
    expect(presentFontPx({ width: 2560, height: 1440 })).toBe(40.5);
    // A 4:3 window is narrower than 16:9: its width (1024 × 1.6 %).
    expect(presentFontPx({ width: 1024, height: 768 })).toBe(16.5);
    // A narrow one: its width, never under the least size.
    expect(presentFontPx({ width: 800, height: 1080 })).toBe(PRESENT_MIN_FONT_PX);
    expect(presentFontPx({ width: 320, height: 200 })).toBe(PRESENT_MIN_FONT_PX);
    expect(presentFontPx({ width: 7680, height: 4320 })).toBe(PRESENT_MAX_FONT_PX);
  });

  it('scales chart tick labels to 0.7 of the body text: 21 px beside 30 px at 1080p', () => {
    const s = presentChartSizing(30);
    expect(s.fill).toBe(true);
    expect(s.scale * BASE_TICK_PX).toBeCloseTo(21);
    expect(presentChartSizing(20).scale * BASE_TICK_PX).toBeCloseTo(20 * PRESENT_TICK_EM);
  });
});

describe('paginate', () => {
  // Items of the given heights on pages `room` high.
  const pages = (heights: number[], room: number, headings: number[] = []) =>
    paginate(
      heights.length,
      (s, e) => heights.slice(s, e + 1).reduce((a, b) => a + b, 0) <= room,
      (i) => headings.includes(i),
    );

  it('keeps everything on one page when it fits', () => {
    expect(pages([10, 10, 10], 30)).toEqual([0]);
    expect(pages([], 30)).toEqual([]);
  });

  it('starts a page where the last one is full', () => {
    expect(pages([10, 10, 10, 10, 10], 25)).toEqual([0, 2, 4]);
    expect(pages([5, 30, 5, 5], 30)).toEqual([0, 1, 2]);
  });

  it('gives an item too tall for a page a page of its own', () => {
    expect(pages([10, 50, 10], 30)).toEqual([0, 1, 2]);
  });

  it('never ends a page with a heading', () => {
    // Item 2 is a heading: it goes with item 3.
    expect(pages([10, 10, 5, 10, 10], 25, [2])).toEqual([0, 2]);
    // A heading alone on its page stays there (nothing else fits beside it).
    expect(pages([30, 30], 30, [0])).toEqual([0, 1]);
  });

  it('asks about few ranges (binary search)', () => {
    let calls = 0;
    paginate(64, (s, e) => {
      calls++;
      return e - s < 8;
    });
    expect(calls).toBeLessThan(8 * 6);
  });
});
