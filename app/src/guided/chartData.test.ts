import { describe, expect, it } from 'vitest';
import {
  buildResultChart,
  gainOverStandard,
  lineDefs,
  makeXScale,
  makeYScale,
  mixedSeries,
  paperMarks,
  placeAggregates,
  resultChartFrame,
  seriesMean,
  tickLabelShift,
  standardBaselines,
  thinTicks,
  valuesRun,
} from './chartData';
import { formatAt, formatX, formatValue, fraction, METRICS, withUnit } from './format';
import { lab, onePerPoint, paperValue, point, seedAggregate, series } from './testing/fixtures';

const G = { width: 500, height: 300, margin: { top: 10, right: 20, bottom: 40, left: 60 } };

const txq = lab({
  series: [series('reno', [{ algorithm: 'reno' }], {}, 'Standard TCP'), series('scalable', [{ algorithm: 'scalable' }], {}, 'Scalable TCP')],
});

describe('lines', () => {
  it('one line per series run, coloured by the series’ place in the lab', () => {
    const lines = lineDefs(txq, 'total_throughput_mbps', ['scalable']);
    expect(lines.map((l) => l.id)).toEqual(['scalable']);
    // Scalable keeps its colour even when Standard was not run.
    expect(lines[0].color).toBe(lineDefs(txq, 'total_throughput_mbps', ['reno', 'scalable'])[1].color);
    expect(lines[0].seriesIndex).toBe(1);
  });

  it('one line per series and client for group metrics, later clients hollow and dotted', () => {
    const two = lab({ series: [series('sc-std', [{ algorithm: 'scalable', label: 'client 1' }, { algorithm: 'reno', label: 'client 2', standard: true }], {}, 'Scalable vs Standard')] });
    const lines = lineDefs(two, 'group_throughput_mbps', ['sc-std']);
    expect(lines.map((l) => [l.id, l.label, l.hollow, l.dash])).toEqual([
      ['sc-std#0', 'Scalable vs Standard: client 1', false, undefined],
      ['sc-std#1', 'Scalable vs Standard: client 2', true, '2 3'],
    ]);
  });

  it('series past the eighth reuse a colour with a dash', () => {
    const many = lab({ series: Array.from({ length: 10 }, (_, i) => series(`s${i}`, [{ algorithm: 'reno' }])) });
    const lines = lineDefs(many, 'total_throughput_mbps', many.series.map((s) => s.id));
    expect(lines[8].color).toBe(lines[0].color);
    expect(lines[8].dash).toBeDefined();
    expect(lines[0].dash).toBeUndefined();
  });
});

describe('the engine’s aggregates on the axes', () => {
  it('places each seed aggregate on its line and swept value, keeping the runs for drill-down', () => {
    const points = [point('reno', 50, 1), point('reno', 50, 2), point('reno', 100, 1), point('reno', 100, 2), point('scalable', 50, 1)];
    const engine = {
      at_x: [
        seedAggregate('total_throughput_mbps', 'reno', 100, [[2, 1, 800]]),
        seedAggregate('total_throughput_mbps', 'reno', 50, [
          [0, 1, 400],
          [1, 2, 500],
        ]),
        // Another metric's cells are not this chart's.
        seedAggregate('drops', 'reno', 50, [[0, 1, 3]]),
      ],
      series: [],
    };
    const lines = lineDefs(txq, 'total_throughput_mbps', ['reno', 'scalable']);
    const agg = placeAggregates(engine, 'total_throughput_mbps', lines, points);
    expect(agg.map((a) => [a.line, a.x, a.mean, a.min, a.max, a.runs, a.seeds])).toEqual([
      ['reno', 50, 450, 400, 500, [0, 1], [1, 2]],
      ['reno', 100, 800, 800, 800, [2], [1]],
    ]);
    expect(agg[1].xi).toBe(1);
    // Nothing asked yet: nothing drawn.
    expect(placeAggregates(null, 'total_throughput_mbps', lines, points)).toEqual([]);
  });

  it('a group metric’s cells go on the line of their client; lines not drawn are left out', () => {
    const two = lab({ series: [series('sc-std', [{ algorithm: 'scalable' }, { algorithm: 'reno', standard: true }])] });
    const points = [point('sc-std', 50, 1, [0, 1])];
    const engine = {
      at_x: [seedAggregate('group_throughput_mbps', 'sc-std', 50, [[0, 1, 600]], 0), seedAggregate('group_throughput_mbps', 'sc-std', 50, [[0, 1, 300]], 1), seedAggregate('group_throughput_mbps', 'other', 50, [[0, 1, 1]], 0)],
      series: [],
    };
    const agg = placeAggregates(engine, 'group_throughput_mbps', lineDefs(two, 'group_throughput_mbps', ['sc-std']), points);
    expect(agg.map((a) => [a.line, a.mean])).toEqual([
      ['sc-std#0', 600],
      ['sc-std#1', 300],
    ]);
  });

  it('keeps runs without a value (never reached the rate) as null means', () => {
    const points = [point('reno', 50)];
    const lines = lineDefs(txq, 'time_to_max_rate_s', ['reno']);
    const agg = placeAggregates(onePerPoint('time_to_max_rate_s', points, [null]), 'time_to_max_rate_s', lines, points);
    expect(agg[0]).toMatchObject({ mean: null, values: [null], runs: [0] });
  });

  it('lists the values run in sweep order', () => {
    expect(valuesRun([point('a', 100), point('a', 5), point('b', 100), point('b', 5)])).toEqual([100, 5]);
  });
});

describe('scales', () => {
  it('a log window axis with the swept values as ticks, thinned to fit', () => {
    const w = lab({ series: [], sweep: { axis: 'window_bytes', label: 'Window', unit: 'bytes', values: [], log_scale: true } });
    const values = [262144, 1048576, 4194304, 16777216];
    const x = makeXScale(w, values, [0, 300]);
    expect(x.kind).toBe('log');
    expect(x.pos(262144, 0)).toBeCloseTo(0);
    expect(x.pos(16777216, 3)).toBeCloseTo(300);
    // Equal ratios are equal distances.
    expect(x.pos(4194304, 2) - x.pos(1048576, 1)).toBeCloseTo(100);
    expect(x.ticks.map((t) => t.label)).toEqual(['256 KB', '1 MB', '4 MB', '16 MB']);
    const crowded = makeXScale(w, [262144, 524288, 1048576, 2097152, 3145728, 4194304, 5242880, 6291456, 7340032, 8388608, 10485760, 12582912, 14680064, 16777216], [0, 300]);
    const pos = crowded.ticks.map((t) => t.pos);
    for (let i = 1; i < pos.length; i++) expect(pos[i] - pos[i - 1]).toBeGreaterThanOrEqual(44);
    expect(crowded.ticks[0].label).toBe('256 KB');
  });

  it('a category axis for [a, b] pairs and "unlimited"', () => {
    const ab = lab({ series: [], sweep: { axis: 'scalable_ab', label: '[a, b]', unit: '', values: [], log_scale: false } });
    const x = makeXScale(ab, [[0.01, 0.125], [0.04, 0.5]], [0, 200]);
    expect(x.kind).toBe('point');
    expect(x.ticks.map((t) => t.label)).toEqual(['[1/100, 1/8]', '[1/25, 1/2]']);
    expect(x.pos([0.04, 0.5], 1)).toBeGreaterThan(x.pos([0.01, 0.125], 0));
    expect(x.num(3)).toBeNull();
  });

  it('y from zero to a nice top; fractions reach at least 1 and read as percentages', () => {
    const y = makeYScale('total_throughput_mbps', [812, 966], [200, 0]);
    expect(y.domain).toEqual([0, 1000]);
    expect(y.pos(500)).toBeCloseTo(100);
    const share = makeYScale('standard_share', [0.3, 0.38], [100, 0]);
    expect(share.domain[1]).toBe(1);
    expect(share.ticks.at(-1)!.label).toBe('100%');
  });

  it('thinTicks keeps the first and, when it fits, the last', () => {
    const t = (pos: number) => ({ pos, label: String(pos) });
    expect(thinTicks([t(0), t(10), t(50), t(60), t(100)], 40).map((x) => x.pos)).toEqual([0, 50, 100]);
    expect(thinTicks([t(0), t(30), t(45)], 40).map((x) => x.pos)).toEqual([0, 45]);
  });
});

describe('paper values on the chart', () => {
  const values = [
    paperValue({ series: 'reno', metric: 'total_throughput_mbps', x: 100, value: 828 }),
    paperValue({ series: 'reno', metric: 'total_throughput_mbps', x_range: [150, 250], value: 966 }),
    paperValue({ series: 'scalable', metric: 'total_throughput_mbps', value: 900 }),
    paperValue({ series: 'reno', metric: 'drops', x: 100, value: 5 }),
    paperValue({ series: 'scalable', metric: 'total_throughput_mbps', x: 100, value: 8, relation: 'percent', relative_to: 'reno' }),
  ];

  it('absolute values of the chart’s metric, on the drawn lines only', () => {
    const lines = lineDefs(txq, 'total_throughput_mbps', ['reno', 'scalable']);
    expect(paperMarks('total_throughput_mbps', lines, values).map((m) => [m.line, m.kind, m.value])).toEqual([
      ['reno', 'point', 828],
      ['reno', 'range', 966],
      ['scalable', 'all', 900],
    ]);
    expect(paperMarks('total_throughput_mbps', lineDefs(txq, 'total_throughput_mbps', ['scalable']), values)).toHaveLength(1);
  });

  it('group values go on the line of their client', () => {
    const two = lab({ series: [series('std-std', [{ algorithm: 'reno' }, { algorithm: 'reno', standard: true }])] });
    const lines = lineDefs(two, 'group_throughput_mbps', ['std-std']);
    const v = [paperValue({ series: 'std-std', metric: 'group_throughput_mbps', group: 1, value: 308 })];
    expect(paperMarks('group_throughput_mbps', lines, v).map((m) => m.line)).toEqual(['std-std#1']);
  });
});

describe('buildResultChart', () => {
  const points = [point('reno', 50), point('reno', 100), point('reno', 200), point('scalable', 50), point('scalable', 100), point('scalable', 200)];
  const aggregates = onePerPoint(
    'total_throughput_mbps',
    points,
    points.map((_, i) => 700 + 50 * i),
  );
  const paper = [
    paperValue({ series: 'reno', metric: 'total_throughput_mbps', x: 100, value: 828 }),
    paperValue({ series: 'reno', metric: 'total_throughput_mbps', x_range: [150, 250], value: 966 }),
  ];

  it('draws each finished run where the engine put it', () => {
    const m = buildResultChart({ lab: txq, metric: 'total_throughput_mbps', points, aggregates, paper, geometry: G });
    expect(m.pointCount).toBe(6);
    expect(m.seriesIds).toEqual(['reno', 'scalable']);
    const reno100 = m.marks.find((k) => k.line === 'reno' && k.x === 100)!;
    expect(reno100.mean).toBe(750);
    expect(m.y.domain).toEqual([0, 1000]);
    expect(reno100.py).toBeCloseTo(m.y.pos(750));
    // Linear txqueuelen axis: 100 sits a third of the way from 50 to 200.
    expect(reno100.px).toBeCloseTo(60 + (420 * 50) / 150);
    expect(m.paths[0].d.startsWith('M60,')).toBe(true);
    expect(m.paths[0].d.split('L')).toHaveLength(3);
  });

  it('marks the Linux default txqueuelen and places the paper’s values', () => {
    const m = buildResultChart({ lab: txq, metric: 'total_throughput_mbps', points, aggregates, paper, geometry: G });
    expect(m.references).toEqual([{ px: expect.closeTo(60 + (420 * 50) / 150, 6), label: 'Linux default (100)' }]);
    const pt = m.paper.find((p) => p.kind === 'point')!;
    expect(pt.px0).toBeCloseTo(m.references[0].px);
    expect(pt.py).toBeCloseTo(m.y.pos(828));
    // The range 150–250 is clipped to the axis (50–200).
    const range = m.paper.find((p) => p.kind === 'range')!;
    expect(range.px0).toBeCloseTo(60 + (420 * 100) / 150);
    expect(range.px1).toBeCloseTo(480);
  });

  it('shows only finished runs while the sweep is running', () => {
    const partial = { at_x: aggregates.at_x.filter((_, i) => i % 2 === 0), series: [] };
    const m = buildResultChart({ lab: txq, metric: 'total_throughput_mbps', points, aggregates: partial, paper: [], geometry: G });
    expect(m.pointCount).toBe(3);
  });

  it('draws min/max bars only over several seeds', () => {
    const pts = [point('reno', 50, 1), point('reno', 50, 2)];
    const both = {
      at_x: [
        seedAggregate('jain_index', 'reno', 50, [
          [0, 1, 0.6],
          [1, 2, 0.9],
        ]),
      ],
      series: [],
    };
    const m = buildResultChart({ lab: txq, metric: 'jain_index', points: pts, aggregates: both, paper: [], geometry: G });
    expect(m.marks[0].mean).toBeCloseTo(0.75);
    expect(m.marks[0].bar!.y0).toBeCloseTo(m.y.pos(0.6));
    expect(m.marks[0].bar!.y1).toBeCloseTo(m.y.pos(0.9));
    const one = buildResultChart({ lab: txq, metric: 'jain_index', points: pts.slice(0, 1), aggregates: onePerPoint('jain_index', pts.slice(0, 1), [1]), paper: [], geometry: G });
    expect(one.marks[0].bar).toBeNull();
  });
});

describe('a sketch on the chart (predict, then run)', () => {
  const points = [point('reno', 50), point('reno', 100), point('reno', 200)];

  it('sits on the empty axes at the swept values, the axis reaching the top it starts on', () => {
    const m = buildResultChart({ lab: txq, metric: 'total_throughput_mbps', points, aggregates: null, paper: [], geometry: G, sketch: { line: 'reno', xs: [50, 100, 200], values: [500, 600, 400] }, yAtLeast: 1000 });
    expect(m.pointCount).toBe(0);
    expect(m.y.domain).toEqual([0, 1000]);
    expect(m.sketch!.line).toBe('reno');
    expect(m.sketch!.points.map((p) => [p.i, p.x, p.value])).toEqual([
      [0, 50, 500],
      [1, 100, 600],
      [2, 200, 400],
    ]);
    expect(m.sketch!.points[1].px).toBeCloseTo(60 + (420 * 50) / 150);
    expect(m.sketch!.points[1].py).toBeCloseTo(m.y.pos(600));
    expect(m.sketch!.d.split('L')).toHaveLength(3);
    // The value under a pixel, for dragging.
    expect(m.y.invert(m.y.pos(600))).toBeCloseTo(600);
  });

  it('stretches the axis like the data (a point pushed past the top grows it), and leaves out values not on the chart', () => {
    const m = buildResultChart({ lab: txq, metric: 'total_throughput_mbps', points, aggregates: null, paper: [], geometry: G, sketch: { line: 'reno', xs: [50, 100, 200, 400], values: [500, 1400, 400, 1] }, yAtLeast: 1000 });
    expect(m.y.domain[1]).toBeGreaterThanOrEqual(1400);
    expect(m.sketch!.points.map((p) => p.x)).toEqual([50, 100, 200]);
    // With results and no sketch the axis is the data's alone.
    const data = onePerPoint('total_throughput_mbps', points, [100, 200, 300]);
    expect(buildResultChart({ lab: txq, metric: 'total_throughput_mbps', points, aggregates: data, paper: [], geometry: G }).y.domain).toEqual([0, 300]);
    expect(buildResultChart({ lab: txq, metric: 'total_throughput_mbps', points, aggregates: data, paper: [], geometry: G, sketch: { line: 'reno', xs: [50, 100, 200], values: [900, 0, 0] } }).y.domain[1]).toBeGreaterThanOrEqual(900);
    expect(buildResultChart({ lab: txq, metric: 'total_throughput_mbps', points, aggregates: data, paper: [], geometry: G }).sketch).toBeNull();
  });
});

describe('resultChartFrame', () => {
  it('is the lab page’s frame at scale 1', () => {
    const f = resultChartFrame(1);
    expect(f.margin).toEqual({ top: 14, right: 18, bottom: 46, left: 62 });
    expect(f).toMatchObject({ tickPx: 11, tickGap: 44, tickLength: 5, xLabelY: 17, xTitleUp: 6, yTitleX: 14, yLabelGap: 6, referenceLabelX: 4, referenceLabelY: 10, markArea: 54, barMarkArea: 40, diamond: 7, cap: 4 });
  });

  it('grows lengths with the type and symbol areas with its square (presentation mode)', () => {
    const f = resultChartFrame(2);
    expect(f.margin.left).toBe(124);
    expect(f.tickGap).toBe(88);
    expect(f.markArea).toBe(216);
  });

  it('leaves room above bars for the marks and "never" labels over them', () => {
    for (const scale of [1, 1.9]) {
      const f = resultChartFrame(scale, true);
      // The label's baseline is 4 caps above the plot's top, its type 10/11 of the ticks'.
      expect(4 * f.cap + (f.tickPx * 10) / 11).toBeLessThanOrEqual(f.margin.top);
    }
    expect(resultChartFrame(1).margin.top).toBe(14);
  });

  it('keeps the x tick labels inside the chart', () => {
    // "400 ms" at 14 px is about 54 px wide: at the right edge it moves left, in the middle it stays.
    expect(tickLabelShift(480, '400 ms', 14, 500)).toBeCloseTo(500 - 6 * 0.64 * 7 - 480);
    expect(tickLabelShift(250, '400 ms', 14, 500)).toBe(0);
    expect(tickLabelShift(3, '50 ms', 14, 500)).toBeGreaterThan(0);
  });

  it('spaces x tick labels as the frame says', () => {
    const points = [10, 20, 30, 40, 50, 60, 70, 80].map((x) => point('reno', x));
    const ticks = (tickGap: number) =>
      buildResultChart({ lab: txq, metric: 'total_throughput_mbps', points, aggregates: null, paper: [], geometry: { ...G, tickGap } }).x.ticks.length;
    expect(ticks(44)).toBeGreaterThan(ticks(120));
  });
});

describe('bars (time to the maximum rate)', () => {
  it('groups one bar per series at each swept value; runs that never got there reach the top as "never"', () => {
    const rtt = lab({ series: [series('reno', [{ algorithm: 'reno' }]), series('fast', [{ algorithm: 'fast' }])], sweep: { axis: 'rtt_ms', label: 'RTT', unit: 'ms', values: [25, 100], log_scale: false } });
    const points = [point('reno', 25), point('reno', 100), point('fast', 25), point('fast', 100)];
    const t = [40, null, 5, 9];
    const m = buildResultChart({ lab: rtt, metric: 'time_to_max_rate_s', points, aggregates: onePerPoint('time_to_max_rate_s', points, t), paper: [], geometry: G, bars: true });
    expect(m.x.kind).toBe('point');
    const bars = m.bars!;
    expect(bars).toHaveLength(4);
    const at25 = bars.filter((b) => b.mark.x === 25);
    expect(at25[1].x).toBeCloseTo(at25[0].x + at25[0].width);
    expect(at25[0].y).toBeCloseTo(m.y.pos(40));
    // Every bar inside the plot.
    for (const b of bars) {
      expect(b.x).toBeGreaterThanOrEqual(G.margin.left);
      expect(b.x + b.width).toBeLessThanOrEqual(G.width - G.margin.right);
    }
    const never = bars.find((b) => b.never)!;
    expect(never.line).toBe('reno');
    expect(never.y).toBeCloseTo(m.y.pos(m.y.domain[1]));
    expect(m.pointCount).toBe(3);
  });
});

describe('gain over Standard', () => {
  const streams = lab({
    sweep: { axis: 'streams_per_host', label: 'Streams', unit: 'streams', values: [2, 16], log_scale: true },
    series: [
      series('reno-1c', [{ algorithm: 'reno' }], { host_count: 1, rtt_ms: 30 }),
      series('hs-1c', [{ algorithm: 'highspeed' }], { rtt_ms: 30, host_count: 1 }),
      series('hs-2c', [{ algorithm: 'highspeed' }, { algorithm: 'highspeed' }], { rtt_ms: 30 }),
      series('reno-2c', [{ algorithm: 'reno' }, { algorithm: 'reno' }], { rtt_ms: 30 }),
    ],
  });

  it('pairs each series with the Standard series of the same setting', () => {
    expect([...standardBaselines(streams)]).toEqual([
      ['reno-1c', null],
      ['hs-1c', 'reno-1c'],
      ['hs-2c', 'reno-2c'],
      ['reno-2c', null],
    ]);
  });

  it('is 100 × (mean / Standard’s mean − 1) at each swept value', () => {
    const points = [point('reno-1c', 2), point('reno-1c', 16), point('hs-1c', 2), point('hs-1c', 16)];
    const tp = [800, 950, 840, 940];
    const rows = gainOverStandard(streams, points, onePerPoint('total_throughput_mbps', points, tp));
    expect(rows.map((r) => [r.x, r.cells.map((c) => [c.series, c.baseline, Number(c.gainPct!.toFixed(3))])])).toEqual([
      [2, [['hs-1c', 'reno-1c', 5]]],
      [16, [['hs-1c', 'reno-1c', -1.053]]],
    ]);
  });
});

describe('relative fairness', () => {
  // The engine computes it (labs/aggregate.rs); the charts draw it for the series that mix Standard and other flows.
  it('applies to series with both Standard and other flows', () => {
    const mix = series('mix', [{ algorithm: 'highspeed' }, { algorithm: 'reno', standard: true }]);
    const allStd = series('std', [{ algorithm: 'reno', standard: true }]);
    expect(mixedSeries(lab({ series: [mix, allStd] }))).toEqual(['mix']);
  });
});

describe('seriesMean', () => {
  it('reads the engine’s mean of a metric over a series’ finished runs', () => {
    const engine = { at_x: [], series: [{ metric: 'standard_share' as const, series: 'reno', mean: 0.35 }] };
    expect(seriesMean(engine, 'standard_share', 'reno')).toBe(0.35);
    expect(seriesMean(engine, 'standard_share', 'scalable')).toBeNull();
    expect(seriesMean(engine, 'jain_index', 'reno')).toBeNull();
    expect(seriesMean(null, 'standard_share', 'reno')).toBeNull();
  });
});

describe('format', () => {
  it('swept values in their units', () => {
    expect(formatX('window_bytes', 262144)).toBe('256 KB');
    expect(formatX('window_bytes', 3145728)).toBe('3 MB');
    expect(formatX('txqueuelen_pkts', 100)).toBe('100 packets');
    expect(formatX('rtt_ms', 30)).toBe('30 ms');
    expect(formatX('initial_ssthresh_pkts', null)).toBe('unlimited');
    expect(formatX('scalable_ab', [0.08, 0.5])).toBe('[2/25, 1/2]');
    expect(formatX('bottleneck_rate_bps', 2e8)).toBe('200 Mb/s');
    expect(formatX('rtt_ratio', 8)).toBe('RTT ratio 8');
    expect(formatX('rtt_ratio', 8, true)).toBe('8');
  });
  it('fractions', () => {
    expect(fraction(0.04)).toBe('1/25');
    expect(fraction(0.0625)).toBe('1/16');
    expect(fraction(0.005)).toBe('1/200');
  });
  it('the swept values a paper value applies at', () => {
    const sw = { axis: 'window_bytes' as const, label: '', unit: 'bytes', values: [], log_scale: true };
    expect(formatAt('4194304..16777216', sw)).toBe('4 MB–16 MB');
    expect(formatAt('all', sw)).toBe('over the sweep');
    expect(formatAt('5242880', sw)).toBe('5 MB');
  });
  it('values', () => {
    expect(formatValue(828.04)).toBe('828');
    expect(formatValue(0.355, METRICS.standard_share.unit)).toBe('35.5%');
    expect(formatValue(null)).toBe('—');
    expect(formatValue(0.9731)).toBe('0.973');
  });
  it('in the engine’s units: fractions as percentages, ratios with ×, indices bare', () => {
    expect(METRICS.utilisation.unit).toBe('fraction');
    expect(withUnit(0.94, METRICS.utilisation.unit)).toBe('94%');
    expect(withUnit(828.04, METRICS.total_throughput_mbps.unit)).toBe('828 Mb/s');
    expect(withUnit(0.9731, METRICS.jain_index.unit)).toBe('0.973');
    expect(withUnit(4, METRICS.relative_fairness.unit)).toBe('4 ×');
    expect(withUnit(null, METRICS.drops.unit)).toBe('—');
    // Issue 24 item 7: one of a counted unit is singular.
    expect(withUnit(1, METRICS.drops.unit)).toBe(`1 ${METRICS.drops.unit!.replace(/s$/, '')}`);
    expect(withUnit(2, METRICS.drops.unit)).toBe(`2 ${METRICS.drops.unit}`);
  });
});
