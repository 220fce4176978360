// What each lab chart plots, as data: series ids, labels, colours, line
// styles and scales, built from a run's columns and its scenario. Series ids
// are the engine's column names ("f0.cwnd_pkts") or, for derived and constant
// lines, names in the same style ("sum.throughput_bps", "f0.window_bytes").

import type { RunSeries } from '../engine/columns';
import type { Scenario } from '../engine/types';
import { BOTTLENECK_COLOR, flowColor, flowDash, LIMIT_COLOR, SUM_COLOR } from './palette';
import { capacityBps, mssBytes } from '../model/path';

/** The lab page's charts, in the order buildChartSpecs returns them: their one home. */
export const CHART_IDS = ['cwnd', 'outstanding', 'throughput', 'queues', 'delay'] as const;
export type ChartId = (typeof CHART_IDS)[number];
export type CwndUnit = 'packets' | 'bytes';

/** A trailing average's window as the charts name it: "100 ms", "1 s". */
export function averageWindowText(ms: number): string {
  return ms >= 1000 ? `${ms / 1000} s` : `${ms} ms`;
}

/** A chart's title for its text alternatives, naming the average its values are when they are one. */
export function chartTextTitle(spec: Pick<ChartSpec, 'title' | 'averageMs'>): string {
  return spec.averageMs ? `${spec.title} (${averageWindowText(spec.averageMs)} trailing average)` : spec.title;
}

export interface SeriesSpec {
  id: string;
  label: string;
  /** Flow number (colour), null for totals and limits. */
  flow: number | null;
  color: string;
  dash?: number[];
  width: number;
  /** Samples (same length as the time column) or a constant: a horizontal line. */
  y: Float64Array | number;
  /** Multiply values by this (before the chart's display factor). */
  scale?: number;
  /** Main series are the ones drawn for the previous run's ghost. */
  main: boolean;
  /** Constant lines far above the data do not stretch the axis (they are marked off-scale). */
  softExtent?: boolean;
  /**
   * First sample that is a measurement: the samples before it are not
   * drawn, read out or summarised (a smoothed RTT before the flow's first
   * RTT sample, which the engine's column records as 0). Absent: from 0.
   */
  measuredFrom?: number;
}

export interface ChartSpec {
  id: ChartId;
  testId: string;
  title: string;
  yLabel: string;
  /** Display factor: values × yFactor are what the axis shows. */
  yFactor: number;
  /** Unit of the displayed values in read-outs ("packets", "MB", "Mb/s"). */
  unit: string;
  series: SeriesSpec[];
  /** Cap of the y axis (display units): rarer spikes above it are clipped (throughput bursts after a recovery). */
  maxY?: number;
  /** Legend entries for line styles (beyond the flow colours); `color` when the style has one colour of its own (else drawn in the ink colour). */
  styles: { label: string; dash?: number[]; width: number; color?: string }[];
  /** The trailing average the drawn values carry, in ms (0: raw samples); throughput only. */
  averageMs?: number;
  /** Flows of the run whose own lines are not drawn (beyond CHART_FLOWS_MAX); absent when every flow's are. */
  flowsNotDrawn?: number;
}

const MB = 2 ** 20;
const DOT = [1.5, 2.5];
const DASH = [6, 3];
const LONG_DASH = [10, 4];
const DASH_DOT = [6, 2, 1.5, 2];

export interface SpecOptions {
  cwndUnit: CwndUnit;
  /** Sum of the flows' throughput (same length as the series), for runs with several flows. */
  sumThroughput?: Float64Array | null;
  /** The flows' throughput averaged over a window (same length as the series), drawn instead of the raw samples. */
  throughput?: Float64Array[] | null;
  /** That window, ms (for the axis label; 0 or absent: raw samples). */
  throughputAverageMs?: number;
  /** A trace-driven link's capacity averaged over the same window (same length as the series), drawn instead of its raw samples. */
  linkCapacity?: Float64Array | null;
}

export function flowLabel(i: number): string {
  return `flow ${i}`;
}

/**
 * Flows whose own lines the time charts draw (issue 28). A scenario may have
 * 4 096 flows (64 hosts × 64); drawing each flow's lines made 40 000 series
 * per run, redrawn on every frame, which cost the page hundreds of MB and
 * its main thread. A run with more flows draws the first CHART_FLOWS_MAX
 * flows' lines; the sum of throughput still counts every flow, the hosts'
 * queues are all drawn, and every column is in the series CSV export.
 */
export const CHART_FLOWS_MAX = 64;

export function buildChartSpecs(series: RunSeries, scenario: Scenario, opts: SpecOptions): ChartSpec[] {
  const mss = mssBytes(scenario.mtu_bytes);
  const flows = series.flows.slice(0, CHART_FLOWS_MAX);
  const flowsNotDrawn = series.flows.length - flows.length;
  const windows = scenario.hosts.flatMap((h) => h.flows.map((f) => f.window_bytes));
  const capacity = capacityBps(scenario);
  const bytes = opts.cwndUnit === 'bytes';

  const cwnd: ChartSpec = {
    id: 'cwnd',
    testId: 'chart-cwnd',
    title: 'Congestion window',
    yLabel: bytes ? 'cwnd (MB)' : 'cwnd (packets)',
    yFactor: bytes ? 1 / MB : 1,
    unit: bytes ? 'MB' : 'packets',
    series: flows.flatMap((f, i) => [
      {
        id: bytes ? `f${i}.cwnd_bytes` : `f${i}.cwnd_pkts`,
        label: `${flowLabel(i)} cwnd`,
        flow: i,
        color: flowColor(i),
        dash: flowDash(i),
        width: 1.5,
        y: bytes ? f.cwnd_bytes : f.cwnd_pkts,
        main: true,
      },
      {
        id: bytes ? `f${i}.ssthresh_bytes` : `f${i}.ssthresh_pkts`,
        label: `${flowLabel(i)} ssthresh`,
        flow: i,
        color: flowColor(i),
        dash: DASH,
        width: 1,
        y: f.ssthresh_pkts,
        scale: bytes ? mss : 1,
        main: false,
        softExtent: true,
      },
    ]),
    styles: [
      { label: 'cwnd', width: 1.5 },
      { label: 'ssthresh', dash: DASH, width: 1 },
    ],
  };

  const outstanding: ChartSpec = {
    id: 'outstanding',
    testId: 'chart-outstanding',
    title: 'Outstanding data (tcptrace)',
    yLabel: 'outstanding (MB)',
    yFactor: 1 / MB,
    unit: 'MB',
    series: flows.flatMap((f, i) => [
      { id: `f${i}.outstanding_bytes`, label: `${flowLabel(i)} outstanding`, flow: i, color: flowColor(i), dash: flowDash(i), width: 1, y: f.outstanding_bytes, main: true },
      { id: `f${i}.outstanding_avg_bytes`, label: `${flowLabel(i)} average`, flow: i, color: flowColor(i), dash: DASH, width: 1.75, y: f.outstanding_avg_bytes, main: false },
      { id: `f${i}.outstanding_wavg_bytes`, label: `${flowLabel(i)} weighted average`, flow: i, color: flowColor(i), dash: DOT, width: 2, y: f.outstanding_wavg_bytes, main: false },
      { id: `f${i}.outstanding_captured_bytes`, label: `${flowLabel(i)} seen by tcpdump on the sender`, flow: i, color: flowColor(i), dash: DASH_DOT, width: 1.5, y: f.outstanding_captured_bytes, main: false },
      { id: `f${i}.window_bytes`, label: `${flowLabel(i)} advertised window`, flow: i, color: flowColor(i), dash: LONG_DASH, width: 1, y: windows[i] ?? NaN, main: false, softExtent: true },
    ]),
    styles: [
      { label: 'instantaneous', width: 1 },
      { label: 'average', dash: DASH, width: 1.75 },
      { label: 'weighted average', dash: DOT, width: 2 },
      { label: 'seen by tcpdump (interface queue excluded)', dash: DASH_DOT, width: 1.5 },
      { label: 'advertised window', dash: LONG_DASH, width: 1 },
    ],
  };

  const tputSeries: SeriesSpec[] = flows.map((f, i) => ({
    id: `f${i}.throughput_bps`,
    label: `${flowLabel(i)}`,
    flow: i,
    color: flowColor(i),
    dash: flowDash(i),
    width: 1.5,
    y: opts.throughput?.[i] ?? f.throughput_bps,
    main: true,
  }));
  if (series.flows.length > 1 && opts.sumThroughput) {
    tputSeries.push({ id: 'sum.throughput_bps', label: 'sum', flow: null, color: SUM_COLOR, width: 2, y: opts.sumThroughput, main: true });
  }
  // A trace-driven link: its capacity as it varies (the engine's
  // link.capacity_bps, 1504 bytes per opportunity) instead of a constant.
  const traced = series.link_capacity_bps?.length === series.length && series.length > 0;
  const linkCapacity = traced ? (opts.linkCapacity ?? series.link_capacity_bps) : null;
  if (linkCapacity) {
    tputSeries.push({ id: 'link.capacity_bps', label: 'trace capacity', flow: null, color: LIMIT_COLOR, dash: DASH, width: 1.25, y: linkCapacity, main: false });
  } else {
    tputSeries.push({ id: 'capacity_bps', label: 'capacity', flow: null, color: LIMIT_COLOR, dash: DASH, width: 1, y: capacity, main: false });
  }
  const capacityStyle = linkCapacity ? { label: 'trace capacity (1504 B per opportunity)', dash: DASH, width: 1.25 } : { label: 'capacity', dash: DASH, width: 1 };
  let topBps = capacity;
  if (linkCapacity) {
    topBps = 0;
    for (let i = 0; i < linkCapacity.length; i++) if (linkCapacity[i] > topBps) topBps = linkCapacity[i];
    if (!(topBps > 0)) topBps = capacity;
  }
  const throughput: ChartSpec = {
    id: 'throughput',
    testId: 'chart-throughput',
    title: 'Throughput',
    yLabel: opts.throughputAverageMs ? `throughput (Mb/s, ${averageWindowText(opts.throughputAverageMs)} avg)` : 'throughput (Mb/s)',
    yFactor: 1e-6,
    unit: 'Mb/s',
    // In-order delivery per sample spikes far above the link rate when a
    // recovery releases a window of buffered data at once: keep the axis on
    // the capacity (the spikes are clipped at the top).
    maxY: (topBps * 1.25) / 1e6,
    series: tputSeries,
    averageMs: opts.throughputAverageMs ?? 0,
    styles: series.flows.length > 1 ? [{ label: 'sum of flows', width: 2 }, capacityStyle] : [capacityStyle],
  };

  const hostColor = (h: number) => {
    // A host's queue takes the colour of its first flow.
    let k = 0;
    for (let j = 0; j < h; j++) k += scenario.hosts[j]?.flows.length ?? 0;
    return flowColor(k);
  };
  const queueSeries: SeriesSpec[] = [
    { id: 'q.bottleneck_pkts', label: 'bottleneck queue', flow: null, color: BOTTLENECK_COLOR, width: 1.5, y: series.bottleneck_queue_pkts, main: true },
    { id: 'q.buffer_pkts', label: 'bottleneck buffer', flow: null, color: BOTTLENECK_COLOR, dash: LONG_DASH, width: 1, y: scenario.bottleneck.buffer_pkts, main: false, softExtent: true },
  ];
  series.hosts.forEach((h, i) => {
    queueSeries.push({ id: `h${i}.ifq_pkts`, label: `host ${i} interface queue`, flow: null, color: hostColor(i), dash: DOT, width: 2, y: h.ifq_pkts, main: true });
    queueSeries.push({ id: `h${i}.txqueuelen_pkts`, label: `host ${i} txqueuelen`, flow: null, color: hostColor(i), dash: LONG_DASH, width: 1, y: scenario.hosts[i]?.txqueuelen_pkts ?? NaN, main: false, softExtent: true });
    // The driver's ring behind the interface queue: where a NIC-bound
    // sender's standing queue sits while every other queue reads 0.
    if (h.ring_pkts) queueSeries.push({ id: `h${i}.ring_pkts`, label: `host ${i} NIC ring`, flow: null, color: hostColor(i), dash: DASH_DOT, width: 1.5, y: h.ring_pkts, main: true });
  });
  const queues: ChartSpec = {
    id: 'queues',
    testId: 'chart-queues',
    title: 'Queues',
    yLabel: 'occupancy (packets)',
    yFactor: 1,
    unit: 'packets',
    series: queueSeries,
    styles: [
      { label: 'bottleneck queue', width: 1.5 },
      { label: 'interface queue (host colour)', dash: DOT, width: 2 },
      ...(series.hosts.some((h) => h.ring_pkts) ? [{ label: 'NIC ring (host colour)', dash: DASH_DOT, width: 1.5 }] : []),
      { label: 'limit (buffer, txqueuelen)', dash: LONG_DASH, width: 1 },
    ],
  };

  const delaySeries: SeriesSpec[] = flows.map((f, i) => ({
    id: `f${i}.srtt_ms`,
    label: `${flowLabel(i)} smoothed RTT`,
    flow: i,
    color: flowColor(i),
    dash: flowDash(i),
    width: 1.5,
    y: f.srtt_ms,
    main: true,
    measuredFrom: firstRttSample(f.srtt_ms, series.length),
  }));
  delaySeries.push({ id: 'q.bottleneck_delay_ms', label: 'bottleneck queueing delay', flow: null, color: BOTTLENECK_COLOR, width: 1.5, y: series.bottleneck_delay_ms, main: true });
  if (series.probe_rtt_ms.length === series.length && series.length > 0) {
    delaySeries.push({ id: 'probe.rtt_ms', label: 'ping round trip', flow: null, color: SUM_COLOR, dash: DOT, width: 2, y: series.probe_rtt_ms, main: true });
  }
  delaySeries.push({ id: 'rtt_ms', label: 'base RTT', flow: null, color: LIMIT_COLOR, dash: DASH, width: 1, y: scenario.rtt_ms, main: false });
  const delay: ChartSpec = {
    id: 'delay',
    testId: 'chart-delay',
    title: 'Round-trip time and queueing delay',
    yLabel: 'delay (ms)',
    yFactor: 1,
    unit: 'ms',
    series: delaySeries,
    styles: [
      { label: series.flows.length > 1 ? 'smoothed RTT (flow colour)' : 'smoothed RTT', width: 1.5, color: flowColor(0) },
      { label: 'queueing delay (bottleneck)', width: 1.5, color: BOTTLENECK_COLOR },
      ...(series.probe_rtt_ms.length === series.length && series.length > 0 ? [{ label: 'ping round trip', dash: DOT, width: 2, color: SUM_COLOR }] : []),
      { label: 'base RTT', dash: DASH, width: 1, color: LIMIT_COLOR },
    ],
  };

  const specs = [cwnd, outstanding, throughput, queues, delay];
  if (flowsNotDrawn > 0) for (const c of specs) if (c.id !== 'queues') c.flowsNotDrawn = flowsNotDrawn;
  return specs;
}

/**
 * The first of a flow's `n` samples that carries a smoothed RTT: before the
 * flow's first RTT sample (and before it starts) the engine records 0, which
 * is no delay anyone measured, so the delay chart starts the line here
 * instead of drawing it up from 0. After the first sample the smoothed RTT
 * stays positive (RFC 6298 §2: it only averages samples).
 */
export function firstRttSample(srttMs: Float64Array, n: number): number {
  const end = Math.min(n, srttMs.length);
  let i = 0;
  while (i < end && !(srttMs[i] > 0)) i++;
  return i;
}

/** Whether sample `index` of a series is a measurement (see `SeriesSpec.measuredFrom`). */
export function isMeasured(s: Pick<SeriesSpec, 'measuredFrom'>, index: number): boolean {
  return index >= (s.measuredFrom ?? 0);
}

/**
 * Incremental trailing moving average of a column over `window` samples
 * (non-finite samples are left out; NaN where the window has none): a run's
 * columns only grow, so each update computes the new rows only.
 */
export class MovingAverage {
  private key: unknown = null;
  private sum = new Float64Array(1);
  private cnt = new Float64Array(1);
  private out = new Float64Array(0);
  private len = 0;

  get(key: unknown, column: Float64Array, n: number, window: number): Float64Array {
    const w = Math.max(1, Math.floor(window));
    if (key !== this.key || n < this.len) {
      this.key = key;
      this.len = 0;
    }
    if (this.out.length < n) {
      // No floor of 1024 rows: a run of 4 096 flows keeps one average per flow.
      const cap = Math.max(n, this.out.length * 2, 16);
      const grow = (a: Float64Array, size: number, keep: number) => {
        const g = new Float64Array(size);
        g.set(a.subarray(0, keep));
        return g;
      };
      this.out = grow(this.out, cap, this.len);
      this.sum = grow(this.sum, cap + 1, this.len + 1);
      this.cnt = grow(this.cnt, cap + 1, this.len + 1);
    }
    // Prefix sums: sum[i] and cnt[i] over the first i samples.
    for (let i = this.len; i < n; i++) {
      const v = column[i];
      const ok = Number.isFinite(v);
      this.sum[i + 1] = this.sum[i] + (ok ? v : 0);
      this.cnt[i + 1] = this.cnt[i] + (ok ? 1 : 0);
      const j = Math.max(0, i + 1 - w);
      const c = this.cnt[i + 1] - this.cnt[j];
      this.out[i] = c > 0 ? (this.sum[i + 1] - this.sum[j]) / c : NaN;
    }
    this.len = n;
    return this.out.subarray(0, n);
  }
}

/**
 * Incremental sum of several columns (NaN counts as 0): a run's columns only
 * grow, so each update adds the new rows only.
 */
export class ColumnSum {
  private key: unknown = null;
  private out = new Float64Array(0);
  private len = 0;

  get(key: unknown, columns: Float64Array[], n: number): Float64Array {
    if (key !== this.key || n < this.len) {
      this.key = key;
      this.len = 0;
    }
    if (this.out.length < n) {
      const grown = new Float64Array(Math.max(n, this.out.length * 2, 1024));
      grown.set(this.out.subarray(0, this.len));
      this.out = grown;
    }
    for (let i = this.len; i < n; i++) {
      let s = 0;
      let any = false;
      for (const c of columns) {
        const v = c[i];
        if (Number.isFinite(v)) {
          s += v;
          any = true;
        }
      }
      this.out[i] = any ? s : NaN;
    }
    this.len = n;
    return this.out.subarray(0, n);
  }
}
