import { describe, expect, it } from 'vitest';
import type { StatedUnknown } from '../engine/generated/labs';
import { assumedOutside, bandButtonText, bandCells, bandLegendText, bandRangeWords, rangeText, valueText, type PlacedMean } from './bandData';
import { buildResultChart, LONE_BAND_HALF_WIDTH } from './chartData';
import { lab, onePerPoint, point, seedAggregate, series } from './testing/fixtures';

const G = { width: 500, height: 300, margin: { top: 10, right: 20, bottom: 40, left: 60 } };

const BUFFER: StatedUnknown = {
  id: 'switch-buffer',
  name: "the switch's egress buffer",
  setting: 'bottleneck_buffer_pkts',
  assumed: 116,
  range: [295, 417],
  why_unknown: 'Not published.',
  range_source: 'A rule of thumb.',
};

const at = (line: string, x: number, mean: number | null, xi = 0): PlacedMean => ({ line, x, xKey: String(x), xi, mean });

describe('bandCells', () => {
  it('spans the least and greatest of the assumed run and the range ends at each line and x', () => {
    const cells = bandCells(
      [at('a', 1, 500), at('a', 2, 600, 1), at('b', 1, 300)],
      [
        [at('a', 1, 450), at('a', 2, 700, 1), at('b', 1, 310)],
        [at('a', 1, 520), at('a', 2, 650, 1), at('b', 1, 305)],
      ],
    );
    expect(cells.map((c) => [c.line, c.x, c.lo, c.hi, c.assumed, c.ends])).toEqual([
      ['a', 1, 450, 520, 500, [450, 520]],
      ['a', 2, 600, 700, 600, [700, 650]],
      ['b', 1, 300, 310, 300, [310, 305]],
    ]);
    // The line's own value is always inside its band.
    for (const c of cells) expect(c.lo <= c.assumed && c.assumed <= c.hi).toBe(true);
  });

  it('draws nothing where the line has no value, nor where no end has one yet', () => {
    const cells = bandCells(
      [at('a', 1, null), at('a', 2, 600, 1), at('a', 3, 700, 2)],
      [
        [at('a', 1, 450), at('a', 2, null, 1)],
        [at('a', 1, 520), at('a', 2, 650, 1)],
      ],
    );
    // x=1: the line has no value; x=2: one end has; x=3: no end ran there.
    expect(cells.map((c) => [c.x, c.lo, c.hi, c.ends])).toEqual([[2, 600, 650, [null, 650]]]);
    expect(bandCells([at('a', 1, 5)], [])).toEqual([]);
  });
});

describe('the band’s words', () => {
  it('names the unknown, its range and unit', () => {
    expect(rangeText(BUFFER)).toBe('295–417 packets');
    expect(valueText(BUFFER, 1)).toBe('1 packet');
    expect(bandButtonText([BUFFER])).toBe("Show the band of the switch's egress buffer (295–417 packets)");
    expect(bandButtonText([BUFFER, { ...BUFFER, id: 'b2', name: 'the other buffer', range: [1, 2.5] }])).toBe(
      "Show the band of the switch's egress buffer (295–417 packets) and the other buffer (1–2.5 packets)",
    );
    expect(bandRangeWords([BUFFER])).toBe("the plausible range of the switch's egress buffer");
    const legend = bandLegendText([BUFFER]);
    expect(legend).toContain("the switch's egress buffer at 295–417 packets");
    expect(legend).toContain('116 packets (assumed');
  });

  it('tells when the assumed value lies outside the plausible range', () => {
    expect(assumedOutside(BUFFER)).toBe(true);
    expect(assumedOutside({ ...BUFFER, assumed: 300 })).toBe(false);
    expect(assumedOutside({ ...BUFFER, assumed: 417 })).toBe(false);
  });
});

describe('the band on a result chart', () => {
  const two = lab({ series: [series('reno', [{ algorithm: 'reno' }]), series('scalable', [{ algorithm: 'scalable' }])] });
  const points = [point('reno', 50), point('reno', 100), point('reno', 200), point('scalable', 50), point('scalable', 100), point('scalable', 200)];
  const metric = 'total_throughput_mbps' as const;
  const assumed = onePerPoint(metric, points, [400, 500, 600, 800, 850, 900]);
  const low = onePerPoint(metric, points, [380, 520, 610, 800, 860, 905]);
  const high = onePerPoint(metric, points, [420, 480, 640, 790, 870, 990]);

  it('draws one shaded area per line from the engine’s means, and the y axis makes room for its top', () => {
    const without = buildResultChart({ lab: two, metric, points, aggregates: assumed, paper: [], geometry: G });
    expect(without.bands).toEqual([]);
    const m = buildResultChart({ lab: two, metric, points, aggregates: assumed, paper: [], geometry: G, bandEnds: [low, high] });
    expect(m.bands.map((b) => b.line)).toEqual(['reno', 'scalable']);
    const reno = m.bands[0];
    expect(reno.cells.map((c) => [c.x, c.lo, c.hi])).toEqual([
      [50, 380, 420],
      [100, 480, 520],
      [200, 600, 640],
    ]);
    expect(m.bands[1].cells.map((c) => [c.lo, c.hi])).toEqual([
      [790, 800],
      [850, 870],
      [900, 990],
    ]);
    // An area: one path from the first x to the last and back.
    expect(reno.d.startsWith('M')).toBe(true);
    expect(reno.d.match(/M/g)).toHaveLength(1);
    expect(m.y.domain[1]).toBeGreaterThanOrEqual(990);
    // The lines are the assumed run's, unchanged by the band.
    expect(m.marks.map((k) => k.mean)).toEqual(without.marks.map((k) => k.mean));
  });

  it('breaks the area where a range end has no value, and draws a lone value as a small rectangle', () => {
    const gap = onePerPoint(metric, points, [380, null, 610, 800, 860, 905]);
    const m = buildResultChart({ lab: two, metric, points, aggregates: assumed, paper: [], geometry: G, bandEnds: [gap] });
    const reno = m.bands[0];
    expect(reno.cells.map((c) => c.x)).toEqual([50, 200]);
    // Two lone cells: two rectangles LONE_BAND_HALF_WIDTH either side of their x.
    expect(reno.d.match(/M/g)).toHaveLength(2);
    const x50 = m.marks.find((k) => k.line === 'reno' && k.x === 50)!.px;
    expect(reno.d.startsWith(`M${x50 - LONE_BAND_HALF_WIDTH},`)).toBe(true);
  });

  it('draws a bar chart’s band over each bar', () => {
    const t = [10, 20, 30, 40, 50, 60];
    const m = buildResultChart({
      lab: two,
      metric: 'time_to_max_rate_s',
      points,
      aggregates: onePerPoint('time_to_max_rate_s', points, t),
      paper: [],
      geometry: G,
      bars: true,
      bandEnds: [onePerPoint('time_to_max_rate_s', points, t.map((v) => v * 2))],
    });
    expect(m.bands.map((b) => [b.line, b.cells.length, b.d.match(/M/g)!.length])).toEqual([
      ['reno', 3, 3],
      ['scalable', 3, 3],
    ]);
    const bar = m.bars!.find((b) => b.line === 'reno')!;
    expect(m.bands[0].d.startsWith(`M${bar.x},`)).toBe(true);
  });

  it('bands only the lines drawn (series hidden from the legend have none)', () => {
    const aggs = { at_x: [seedAggregate(metric, 'reno', 50, [[0, 1, 400]]), seedAggregate(metric, 'scalable', 50, [[3, 1, 800]])], series: [] };
    const end = { at_x: [seedAggregate(metric, 'reno', 50, [[0, 1, 390]]), seedAggregate(metric, 'scalable', 50, [[3, 1, 820]])], series: [] };
    const m = buildResultChart({ lab: two, metric, points, aggregates: aggs, paper: [], geometry: G, onlySeries: ['scalable'], bandEnds: [end] });
    expect(m.bands.map((b) => [b.line, b.cells[0].lo, b.cells[0].hi])).toEqual([['scalable', 800, 820]]);
  });
});
