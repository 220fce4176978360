import { describe, expect, it } from 'vitest';
import { SeriesBuffer, parseColumns } from '../engine/columns';
import { defaultMockScenario } from '../engine/testing/mockEngine';
import type { EngineEvent } from '../engine/types';
import { buildChartModel, chartYExtent, formatReadout, valuesAt } from './chartModel';
import { binMarkers, countMarkers, kindsPresent, markerPath, MARKER_KINDS } from './markers';
import { BOTTLENECK_COLOR, flowColor, flowDash, LIMIT_COLOR, OKABE_ITO, onDark, SUM_COLOR } from './palette';
import { buildChartSpecs, CHART_IDS, ColumnSum, firstRttSample, MovingAverage } from './specs';

const FIELDS = ['cwnd_pkts', 'cwnd_bytes', 'ssthresh_pkts', 'outstanding_bytes', 'outstanding_avg_bytes', 'outstanding_wavg_bytes', 'throughput_bps', 'srtt_ms', 'state', 'outstanding_captured_bytes'];

/** A two-flow, two-host run of n samples 10 ms apart. */
function run(n: number) {
  const names = ['t_s', ...[0, 1].flatMap((i) => FIELDS.map((k) => `f${i}.${k}`)), 'q.bottleneck_pkts', 'q.bottleneck_delay_ms', 'h0.ifq_pkts', 'h1.ifq_pkts', 'probe.rtt_ms'];
  const layout = parseColumns(names);
  const b = new SeriesBuffer(layout);
  const chunk = new Float64Array(names.length * n);
  for (let r = 0; r < n; r++) {
    const t = r * 0.01;
    chunk[r] = t;
    for (let f = 0; f < 2; f++) {
      const base = 1 + f * FIELDS.length;
      const cwnd = 10 + f * 5 + (r % 50);
      const vals = [cwnd, cwnd * 8948, r < 50 ? NaN : 30, cwnd * 8948, 20 * 8948, 22 * 8948, 4e8 + f * 1e8, 30, 0, cwnd * 8948];
      vals.forEach((v, k) => (chunk[(base + k) * n + r] = v));
    }
    chunk[21 * n + r] = r % 7;
    chunk[22 * n + r] = (r % 7) * 0.072;
    chunk[23 * n + r] = 1;
    chunk[24 * n + r] = 2;
    chunk[25 * n + r] = r < 5 ? NaN : 30.5;
  }
  b.append(chunk);
  const s = defaultMockScenario();
  const scenario = { ...s, hosts: [s.hosts[0], { ...s.hosts[0], txqueuelen_pkts: 250 }] };
  return { series: b.series(), scenario };
}

describe('palette', () => {
  it('uses Okabe–Ito and dashes flows that reuse a colour', () => {
    expect(flowColor(0)).toBe('#0072B2');
    expect(flowColor(8)).toBe(flowColor(0));
    expect(flowDash(0)).toBeUndefined();
    expect(flowDash(8)).toBeDefined();
    expect(new Set(OKABE_ITO).size).toBe(8);
  });
});

describe('chart specs', () => {
  it('names series after the engine columns, with sum, capacity and limits', () => {
    const { series, scenario } = run(10);
    const sum = new ColumnSum().get(1, series.flows.map((f) => f.throughput_bps), series.length);
    const specs = buildChartSpecs(series, scenario, { cwndUnit: 'packets', sumThroughput: sum });
    expect(specs.map((s) => s.testId)).toEqual(['chart-cwnd', 'chart-outstanding', 'chart-throughput', 'chart-queues', 'chart-delay']);
    // The page matches specs to chart ids by position: the order is CHART_IDS'.
    expect(specs.map((s) => s.id)).toEqual([...CHART_IDS]);
    expect(specs[0].series.map((s) => s.id)).toEqual(['f0.cwnd_pkts', 'f0.ssthresh_pkts', 'f1.cwnd_pkts', 'f1.ssthresh_pkts']);
    expect(specs[1].series.map((s) => s.id)).toContain('f1.outstanding_wavg_bytes');
    expect(specs[1].series.find((s) => s.id === 'f0.window_bytes')!.y).toBe(16777216);
    expect(specs[2].series.map((s) => s.id)).toEqual(['f0.throughput_bps', 'f1.throughput_bps', 'sum.throughput_bps', 'capacity_bps']);
    expect(specs[2].series.find((s) => s.id === 'capacity_bps')!.y).toBe(1e9);
    expect(specs[3].series.map((s) => s.id)).toEqual(['q.bottleneck_pkts', 'q.buffer_pkts', 'h0.ifq_pkts', 'h0.txqueuelen_pkts', 'h1.ifq_pkts', 'h1.txqueuelen_pkts']);
    // Delay: each flow's smoothed RTT, the bottleneck's queueing delay, the ping, the base RTT.
    expect(specs[4].series.map((s) => s.id)).toEqual(['f0.srtt_ms', 'f1.srtt_ms', 'q.bottleneck_delay_ms', 'probe.rtt_ms', 'rtt_ms']);
    expect(specs[4].series.find((s) => s.id === 'q.bottleneck_delay_ms')!.y).toBe(series.bottleneck_delay_ms);
    expect((specs[4].series.find((s) => s.id === 'probe.rtt_ms')!.y as Float64Array)[6]).toBe(30.5);
    expect(specs[4].series.find((s) => s.id === 'rtt_ms')!.y).toBe(scenario.rtt_ms);
    const bytes = buildChartSpecs(series, scenario, { cwndUnit: 'bytes' });
    expect(bytes[0].series[0].id).toBe('f0.cwnd_bytes');
    expect(bytes[0].series[1].scale).toBe(8948);
  });

  it('averages a growing column over a trailing window, skipping NaN', () => {
    const a = Float64Array.from([1, 2, 3, NaN, 5, 6]);
    const m = new MovingAverage();
    expect(Array.from(m.get('r', a, 3, 2))).toEqual([1, 1.5, 2.5]);
    const all = Array.from(m.get('r', a, 6, 2));
    expect(all).toEqual([1, 1.5, 2.5, 3, 5, 5.5]);
    expect(Array.from(new MovingAverage().get('x', a, 6, 1)).map((v) => (Number.isNaN(v) ? 'NaN' : v))).toEqual([1, 2, 3, 'NaN', 5, 6]);
    const specs = buildChartSpecs(run(4).series, run(4).scenario, { cwndUnit: 'packets', throughput: [a, a] });
    expect(specs[2].series[0].y).toBe(a);
  });

  it('sums columns incrementally, NaN as zero', () => {
    const a = Float64Array.from([1, 2, NaN, 4]);
    const b = Float64Array.from([10, NaN, NaN, 40]);
    const s = new ColumnSum();
    expect(Array.from(s.get('r', [a, b], 2))).toEqual([11, 2]);
    const r = Array.from(s.get('r', [a, b], 4));
    expect(r.slice(0, 2)).toEqual([11, 2]);
    expect(r[2]).toBeNaN();
    expect(r[3]).toBe(44);
    expect(Array.from(s.get('other', [b], 1))).toEqual([10]);
  });
});

describe('markers', () => {
  const ev = (t_s: number, flow: number, kind: EngineEvent['kind']): EngineEvent => ({ t_s, flow, kind });
  const events = [ev(0.1, 0, 'network_loss'), ev(0.1001, 0, 'network_loss'), ev(0.5, 1, 'network_loss'), ev(1, 0, 'local_congestion'), ev(1.5, 0, 'entered_cwr'), ev(3, 0, 'timeout')];

  it('bins per pixel column but keeps every event counted', () => {
    const { bins, counts } = binMarkers(events, { t0: 0, t1: 2, pixels: 100 });
    expect(counts).toEqual({ network_loss: 3, local_congestion: 1, fast_retransmit: 0, timeout: 0, ecn_mark: 0 });
    expect(bins).toHaveLength(3);
    expect(bins[0]).toMatchObject({ kind: 'network_loss', flow: 0, px: 5, count: 2 });
    expect(bins.reduce((a, b) => a + b.count, 0)).toBe(4);
    expect(countMarkers(events, 0, 10, 0.3).network_loss).toBe(2);
    expect(binMarkers(events, { t0: 0, t1: 10, pixels: 10, tMax: 0.3 }).counts.network_loss).toBe(2);
  });
  it('lists the kinds present and has a distinct shape for each', () => {
    expect(kindsPresent(events)).toEqual(['network_loss', 'local_congestion', 'timeout']);
    expect(new Set(MARKER_KINDS.map((m) => m.shape)).size).toBe(MARKER_KINDS.length);
    for (const m of MARKER_KINDS) expect(markerPath(m.shape, 4)).toMatch(/^M.*Z$/);
  });
});

describe('buildChartModel', () => {
  const { series, scenario } = run(1000);
  const specs = buildChartSpecs(series, scenario, { cwndUnit: 'packets' });
  const cw = { spec: specs[0], x: series.t, computed: series.length };

  it('covers the view, counts shown samples and decimates to the width', () => {
    const m = buildChartModel({ run: cw, events: [], view: [0, 9.99], tShown: 9.99, width: 200, height: 100 });
    expect(m.seriesIds).toEqual(['f0.cwnd_pkts', 'f0.ssthresh_pkts', 'f1.cwnd_pkts', 'f1.ssthresh_pkts']);
    expect(m.pointCounts['f0.cwnd_pkts']).toBe(1000);
    expect(m.drawnCounts['f0.cwnd_pkts']).toBeLessThanOrEqual(800);
    expect(m.yDomain[0]).toBe(0);
    expect(m.yDomain[1]).toBeGreaterThanOrEqual(64);
    expect(m.xDomain).toEqual([0, 9.99]);
  });
  it('spaces ticks for the chart’s type scale (larger type, fewer ticks)', () => {
    const normal = buildChartModel({ run: cw, events: [], view: [0, 9.99], tShown: 9.99, width: 1600, height: 800 });
    const large = buildChartModel({ run: cw, events: [], view: [0, 9.99], tShown: 9.99, width: 1600, height: 800, tickScale: 2.5 });
    expect(large.xTicks.length).toBeLessThan(normal.xTicks.length);
    expect(large.yTicks.length).toBeLessThan(normal.yTicks.length);
    expect(large.xTicks.length).toBeGreaterThanOrEqual(2);
  });
  it('draws up to the playback cursor but keeps the axis of everything computed', () => {
    const full = buildChartModel({ run: cw, events: [], view: [0, 9.99], tShown: 9.99, width: 200, height: 100 });
    const half = buildChartModel({ run: cw, events: [], view: [0, 9.99], tShown: 4.995, width: 200, height: 100 });
    expect(half.pointCounts['f0.cwnd_pkts']).toBe(500);
    expect(half.yDomain).toEqual(full.yDomain);
    const zoom = buildChartModel({ run: cw, events: [], view: [2, 3], tShown: 9.99, width: 200, height: 100 });
    expect(zoom.pointCounts['f0.cwnd_pkts']).toBe(101);
  });
  it('puts constant lines on the axis when near the data, off-scale when far above', () => {
    const q = buildChartModel({ run: { spec: specs[3], x: series.t, computed: series.length }, events: [], view: [0, 10], tShown: 10, width: 200, height: 100 });
    // Buffer 1000 and txqueuelen 100/250 are far above a queue of 6: off-scale.
    expect(q.constants.find((c) => c.id === 'q.buffer_pkts')!.offScale).toBe(true);
    expect(q.pointCounts['q.buffer_pkts']).toBe(2);
    const t = buildChartModel({ run: { spec: specs[2], x: series.t, computed: series.length }, events: [], view: [0, 10], tShown: 10, width: 200, height: 100 });
    expect(t.constants.find((c) => c.id === 'capacity_bps')).toMatchObject({ value: 1000, offScale: false });
    expect(t.yDomain[1]).toBeGreaterThanOrEqual(1000);
    // A delivery burst far above the capacity does not stretch the axis.
    const burst = Float64Array.from(series.flows[0].throughput_bps);
    burst[500] = 20e9;
    const spiky = buildChartSpecs({ ...series, flows: [{ ...series.flows[0], throughput_bps: burst }, series.flows[1]] }, scenario, { cwndUnit: 'packets' });
    const m = buildChartModel({ run: { spec: spiky[2], x: series.t, computed: series.length }, events: [], view: [0, 10], tShown: 10, width: 200, height: 100 });
    expect(m.yDomain[1]).toBeLessThanOrEqual(1400);
    // …and the chart is told that data run past its top, to say so; not where nothing is cut.
    expect(chartYExtent({ run: { spec: spiky[2], x: series.t, computed: series.length }, view: [0, 10] }).clippedAbove).toBe(m.yDomain[1]);
    expect(chartYExtent({ run: { spec: spiky[2], x: series.t, computed: series.length }, view: [0, 4] }).clippedAbove).toBeNull();
    expect(chartYExtent({ run: { spec: specs[2], x: series.t, computed: series.length }, view: [0, 10] }).clippedAbove).toBeNull();
  });
  it('draws the ghost’s main series only and counts markers up to the cursor', () => {
    const ghost = { spec: specs[0], x: series.t, computed: series.length };
    const events: EngineEvent[] = [{ t_s: 1, flow: 0, kind: 'network_loss' }, { t_s: 8, flow: 1, kind: 'fast_retransmit' }];
    const m = buildChartModel({ run: cw, ghost, events, view: [0, 10], tShown: 5, width: 200, height: 100 });
    expect(m.ghostSeriesIds).toEqual(['f0.cwnd_pkts', 'f1.cwnd_pkts']);
    expect(m.markerCounts.network_loss).toBe(1);
    expect(m.markerCounts.fast_retransmit).toBe(0);
  });
  it('starts a flow’s smoothed RTT at its first RTT sample, not from the 0 recorded before it', () => {
    // The engine records srtt 0 until the flow's first RTT sample (here 20 samples, 0.2 s).
    const srtt = Float64Array.from(series.flows[0].srtt_ms, (v, i) => (i < 20 ? 0 : v));
    const late = { ...series, flows: [{ ...series.flows[0], srtt_ms: srtt }, series.flows[1]] };
    const delay = buildChartSpecs(late, scenario, { cwndUnit: 'packets' })[4];
    expect(delay.series.map((s) => s.measuredFrom)).toEqual([20, 0, undefined, undefined, undefined]);
    const m = buildChartModel({ run: { spec: delay, x: series.t, computed: series.length }, events: [], view: [0, 9.99], tShown: 9.99, width: 200, height: 100 });
    const line = m.lines.find((l) => l.id === 'f0.srtt_ms')!;
    expect(line.points.x[0]).toBeCloseTo(0.2, 9);
    for (let i = 0; i < line.points.length; i++) expect(line.points.y[i]).toBe(30);
    expect(m.lines.find((l) => l.id === 'f1.srtt_ms')!.points.x[0]).toBe(0);
    // Shown samples are still counted as the view holds them.
    expect(m.pointCounts['f0.srtt_ms']).toBe(1000);
    expect(valuesAt(delay, 19)[0].value).toBeNaN();
    expect(valuesAt(delay, 20)[0].value).toBe(30);
    // Before any sample, no line at all.
    expect(firstRttSample(new Float64Array(5), 5)).toBe(5);
  });
  it('reads values at a sample for the hover cursor', () => {
    const v = valuesAt(specs[0], 10);
    expect(v[0]).toMatchObject({ id: 'f0.cwnd_pkts', value: 20 });
    expect(v[1].value).toBeNaN();
    expect(formatReadout(1234.5)).toBe('1,235');
    expect(formatReadout(12.345)).toBe('12.3');
    // Whole numbers keep no decimals: "35 packets", "0 packets".
    expect(formatReadout(35)).toBe('35');
    expect(formatReadout(0)).toBe('0');
    expect(formatReadout(1)).toBe('1');
    expect(formatReadout(NaN, '∞')).toBe('∞');
  });
});

describe('onDark', () => {
  it('draws the dark neutrals and black light on the dark theme, and leaves the flow colours', () => {
    for (const c of [SUM_COLOR, BOTTLENECK_COLOR, LIMIT_COLOR, '#000000']) expect(onDark(c)).not.toBe(c);
    expect(onDark(flowColor(0))).toBe(flowColor(0));
    expect(onDark(flowColor(1))).toBe(flowColor(1));
  });
});
