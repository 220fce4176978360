import { describe, expect, it } from 'vitest';
import { engineDefaults } from '../share/testing/defaults';
import { clockText, scenarioCaption, slideLayout, type Rect } from './slideLayout';

const inside = (a: Rect, b: Rect) => a.x >= b.x - 1e-6 && a.y >= b.y - 1e-6 && a.x + a.width <= b.x + b.width + 1e-6 && a.y + a.height <= b.y + b.height + 1e-6;
const apart = (a: Rect, b: Rect) => a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y;

describe('slideLayout', () => {
  for (const [w, h] of [[1920, 1080], [1280, 720], [3840, 2160], [1024, 768]])
    for (const n of [1, 2, 3, 4])
      it(`${n} chart(s) at ${w}×${h}: every box on the slide, none overlapping, plots inside their boxes`, () => {
        const l = slideLayout({ width: w, height: h }, n, true);
        const frame = { x: 0, y: 0, width: w, height: h };
        expect(l.charts).toHaveLength(n);
        expect(inside(l.header!, frame)).toBe(true);
        for (const c of l.charts) {
          expect(inside(c.box, frame)).toBe(true);
          expect(apart(c.box, l.header!)).toBe(true);
          expect(inside(c.plot, c.box)).toBe(true);
          expect(inside(c.lane, c.box)).toBe(true);
          expect(c.lane.y).toBeGreaterThanOrEqual(c.plot.y + c.plot.height);
          expect(c.plot.height).toBeGreaterThan(h / 8);
        }
        for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) expect(apart(l.charts[i].box, l.charts[j].box)).toBe(true);
      });

  it('sets type for the back row: 1920×1080 with four charts is bigger than the lab page’s', () => {
    expect(slideLayout({ width: 1920, height: 1080 }, 4, true).fontPx).toBeGreaterThanOrEqual(22);
    expect(slideLayout({ width: 1920, height: 1080 }, 1, false).header).toBeNull();
  });

  it('fills the slide: the last chart spans the rest of its row', () => {
    const l = slideLayout({ width: 1920, height: 1080 }, 3, false);
    const last = l.charts[2].box;
    expect(last.width).toBeGreaterThan(l.charts[0].box.width * 1.9);
  });
});

describe('slide texts', () => {
  it('names the scenario and the playback time', () => {
    const s = { ...engineDefaults(), rtt_ms: 40, seed: 7 };
    expect(scenarioCaption(s)).toMatch(/^reno · RTT 40 ms · 1\.00 Gb\/s · seed 7$/);
    expect(clockText(3.2, 10)).toBe('t = 3.20 s of 10 s');
  });
});
