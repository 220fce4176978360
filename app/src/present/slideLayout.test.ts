import { describe, expect, it } from 'vitest';
import { engineDefaults } from '../share/testing/defaults';
import { buildChartSpecs } from '../charts/specs';
import { flowColor } from '../charts/palette';
import type { RunSeries } from '../engine/columns';
import { drawSlide } from './slideDraw';
import { clockText, scenarioCaption, slideLayout, slideLegend, type Rect } from './slideLayout';
import { SLIDE_THEMES } from './slideThemes';

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
  it('names the scenario (algorithms, rate, RTT, buffer) and the playback time', () => {
    const s = { ...engineDefaults(), rtt_ms: 40, seed: 7, bottleneck: { ...engineDefaults().bottleneck, rate_bps: 1e9, buffer_pkts: 300 } };
    expect(scenarioCaption(s)).toBe('reno · 1.00 Gb/s bottleneck · RTT 40 ms · buffer 300 packets · seed 7');
    expect(scenarioCaption(s, { reno: 'Standard TCP' })).toMatch(/^Standard TCP · /);
    expect(clockText(3.2, 10)).toBe('t = 3.20 s of 10 s');
  });
});

/** A 2D context that records the text drawn and the stroke colours (jsdom has no canvas). */
function recordingContext(): { ctx: CanvasRenderingContext2D; texts: string[]; strokes: string[] } {
  const texts: string[] = [];
  const strokes: string[] = [];
  const target: Record<string, unknown> = {
    fillText: (t: string) => texts.push(t),
    measureText: (t: string) => ({ width: t.length * 10 }),
    stroke: () => strokes.push(String(target.strokeStyle)),
  };
  const ctx = new Proxy(target, {
    get: (o, k) => (k in o ? o[k as string] : () => undefined),
    set: (o, k, v) => ((o[k as string] = v), true),
  }) as unknown as CanvasRenderingContext2D;
  return { ctx, texts, strokes };
}

describe('the legend and caption on slides and video frames (issue 24 item 6)', () => {
  const scenario = (() => {
    const d = engineDefaults();
    return { ...d, hosts: [{ ...d.hosts[0], flows: [{ ...d.hosts[0].flows[0], algorithm: 'reno' }, { ...d.hosts[0].flows[0], algorithm: 'scalable' }] }] };
  })();
  const n = 50;
  const col = () => new Float64Array(n).map((_, i) => i);
  const flow = () => ({ cwnd_pkts: col(), cwnd_bytes: col(), ssthresh_pkts: col(), outstanding_bytes: col(), outstanding_avg_bytes: col(), outstanding_wavg_bytes: col(), throughput_bps: col(), srtt_ms: col(), state: col(), outstanding_captured_bytes: col() });
  const series = { length: n, t: col(), flows: [flow(), flow()], bottleneck_queue_pkts: col(), bottleneck_delay_ms: col(), probe_rtt_ms: new Float64Array(0), link_capacity_bps: new Float64Array(0), hosts: [{ ifq_pkts: col() }] } as unknown as RunSeries;
  const specs = buildChartSpecs(series, scenario, { cwndUnit: 'packets', throughput: series.flows.map((f) => f.throughput_bps), sumThroughput: null, throughputAverageMs: 100 });
  const names = { reno: 'Standard TCP', scalable: 'Scalable TCP' };

  it('lists each flow by name in its colour, then the drawn charts’ line styles once', () => {
    const legend = slideLegend(scenario, names, [specs[0], specs[4]]);
    expect(legend.slice(0, 2)).toEqual([
      expect.objectContaining({ label: 'flow 0 · Standard TCP', color: flowColor(0) }),
      expect.objectContaining({ label: 'flow 1 · Scalable TCP', color: flowColor(1) }),
    ]);
    expect(legend.map((e) => e.label)).toContain('ssthresh');
    expect(legend.map((e) => e.label)).toContain('queueing delay (bottleneck)');
  });

  for (const [w, h, charts] of [
    [1920, 1080, 1],
    [1280, 720, 4],
  ] as const)
    it(`a ${w}×${h} frame with ${charts} chart(s) draws the caption and every legend label, and the flows’ colours`, () => {
      const { ctx, texts, strokes } = recordingContext();
      const drawn = specs.slice(0, charts);
      const layout = slideLayout({ width: w, height: h }, charts, true, true);
      expect(layout.legend).not.toBeNull();
      for (const c of layout.charts) expect(apart(c.box, layout.legend!)).toBe(true);
      const legend = slideLegend(scenario, names, [drawn[0]]);
      const caption = scenarioCaption(scenario, names);
      drawSlide(ctx, layout, { charts: drawn.map((spec) => ({ spec, x: series.t, count: n })), events: [], duration: 0.5, header: { left: caption, right: '' }, legend }, 0.5, SLIDE_THEMES.projector);
      expect(texts).toContain(caption);
      expect(caption).toContain('Standard TCP, Scalable TCP (2 flows)');
      expect(caption).toContain('RTT');
      expect(caption).toContain('buffer');
      expect(texts).toContain('flow 0 · Standard TCP');
      expect(texts).toContain('flow 1 · Scalable TCP');
      expect(strokes).toContain(flowColor(0));
      expect(strokes).toContain(flowColor(1));
    });
});
