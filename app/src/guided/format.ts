// Words and numbers for the guided labs: swept values in their unit, metric
// names, paper-table cells.

import type { Axis, Metric, Relation, Sweep, SweepValue } from '../engine/generated/labs';

/** Metrics the lab charts draw: the engine's, plus one derived from them. */
export type ChartMetric = Metric | 'relative_fairness';

export interface MetricInfo {
  label: string;
  /** Short axis title with unit. */
  axis: string;
  unit: string;
  /** A fraction shown as a percentage. */
  percent?: boolean;
  /** The y axis reaches at least this (fractions and indices: 1; counts: 5, so that no tick is fractional). */
  minTop?: number;
}

export const METRICS: Record<ChartMetric, MetricInfo> = {
  total_throughput_mbps: { label: 'Throughput, all flows', axis: 'Throughput (Mb/s)', unit: 'Mb/s' },
  group_throughput_mbps: { label: 'Throughput of each client', axis: 'Throughput (Mb/s)', unit: 'Mb/s' },
  flow_throughput_mbps: { label: 'Throughput of each flow', axis: 'Throughput (Mb/s)', unit: 'Mb/s' },
  standard_throughput_mbps: { label: 'Standard TCP’s throughput', axis: 'Throughput (Mb/s)', unit: 'Mb/s' },
  standard_share: { label: 'Standard TCP’s share of the throughput', axis: 'Share', unit: '%', percent: true, minTop: 1 },
  jain_index: { label: 'Jain’s fairness index', axis: 'Jain’s index', unit: '', minTop: 1 },
  utilisation: { label: 'Utilisation of the bottleneck', axis: 'Utilisation', unit: '%', percent: true, minTop: 1 },
  time_to_max_rate_s: { label: 'Time to reach the maximum rate', axis: 'Time (s)', unit: 's' },
  drops: { label: 'Packets dropped in the network', axis: 'Drops (packets)', unit: 'packets', minTop: 5 },
  local_congestion_events: { label: 'Local congestion events (interface queue full)', axis: 'Events', unit: 'events', minTop: 5 },
  congestion_event_rate: { label: 'Congestion events per delivered packet', axis: 'Events per packet', unit: 'per packet' },
  mean_outstanding_kbytes: { label: 'Mean outstanding data (first flow)', axis: 'Outstanding (kB)', unit: 'kB' },
  rank: { label: 'Rank', axis: 'Rank', unit: '' },
  group_share: { label: 'Share of the throughput, each flow', axis: 'Share', unit: '%', percent: true, minTop: 1 },
  probe_rtt_median_ms: { label: 'Ping round trip, median', axis: 'Round trip (ms)', unit: 'ms' },
  probe_rtt_p99_ms: { label: 'Ping round trip, 99th percentile', axis: 'Round trip (ms)', unit: 'ms' },
  mean_queue_delay_ms: { label: 'Queueing delay at the bottleneck (time average)', axis: 'Queueing delay (ms)', unit: 'ms' },
  mean_queue_pkts: { label: 'Bottleneck queue (time average)', axis: 'Queue (packets)', unit: 'packets', minTop: 5 },
  relative_fairness: { label: 'Relative fairness: a non-Standard flow’s throughput over a Standard flow’s', axis: 'Ratio', unit: '×' },
};

/** A number with about three significant digits (tables, tooltips). */
export function formatValue(v: number | null | undefined, info?: MetricInfo): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '—';
  if (info?.percent) return `${round3(v * 100)}%`;
  return round3(v);
}

function round3(v: number): string {
  const a = Math.abs(v);
  if (a === 0) return '0';
  // About three significant digits, without trailing zeros.
  const digits = a >= 100 ? 0 : a >= 10 ? 1 : a >= 1 ? 2 : a >= 0.01 ? 3 : null;
  const s = digits === null ? v.toPrecision(2) : v.toFixed(digits);
  return String(Number(s));
}

/** A value with its unit ("828 Mb/s", "38%", "0.97"). */
export function withUnit(v: number | null | undefined, info: MetricInfo): string {
  const s = formatValue(v, info);
  if (s === '—' || info.percent || !info.unit) return s;
  return `${s} ${info.unit}`;
}

/** A small fraction as text: 0.04 → "1/25", 0.08 → "2/25", 0.3 → "0.3". */
export function fraction(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  if (Number.isInteger(v)) return String(v);
  for (let den = 2; den <= 1000; den++) {
    const num = v * den;
    if (Math.abs(num - Math.round(num)) < 1e-9 && Math.round(num) <= 16) return `${Math.round(num)}/${den}`;
  }
  return String(Number(v.toPrecision(4)));
}

function bytes(v: number): string {
  const KiB = 1024;
  const MiB = 1024 * 1024;
  if (v >= MiB && Math.abs(v / MiB - Math.round((v / MiB) * 100) / 100) < 1e-9) return `${Number((v / MiB).toFixed(2))} MB`;
  if (v >= KiB) return `${Number((v / KiB).toFixed(1))} KB`;
  return `${v} B`;
}

function rate(v: number): string {
  if (v >= 1e9) return `${Number((v / 1e9).toPrecision(3))} Gb/s`;
  if (v >= 1e6) return `${Number((v / 1e6).toPrecision(3))} Mb/s`;
  return `${Number((v / 1e3).toPrecision(3))} kb/s`;
}

/** A swept value in its unit: "4 MB", "100 packets", "30 ms", "[1/100, 1/8]", "unlimited". */
export function formatX(axis: Axis, x: SweepValue, short = false): string {
  if (x === null) return 'unlimited';
  if (Array.isArray(x)) return `[${fraction(x[0])}, ${fraction(x[1])}]`;
  switch (axis) {
    case 'window_bytes':
      return bytes(x);
    case 'txqueuelen_pkts':
    case 'buffer_pkts':
    case 'initial_ssthresh_pkts':
    case 'mark_threshold_pkts':
      return short ? String(x) : `${x} packets`;
    case 'buffer_bdp':
      return short ? String(x) : `${x} BDP`;
    case 'rtt_ms':
      return `${x} ms`;
    case 'streams_per_host':
      return short ? String(x) : `${x} stream${x === 1 ? '' : 's'}`;
    case 'flow_pairs':
      return short ? String(x) : `${x} flows`;
    case 'scalable_ab':
      return String(x);
    case 'seed':
      return short ? String(x) : `seed ${x}`;
    case 'bottleneck_rate_bps':
      return rate(x);
  }
  return String(x);
}

/** The swept value(s) a paper value applies at (Comparison.at: "100", "215..250" or "all"). */
export function formatAt(at: string, sweep: Sweep): string {
  if (at === 'all') return 'over the sweep';
  const m = /^(-?[\d.e+-]+)\.\.(-?[\d.e+-]+)$/.exec(at);
  if (m) return `${formatX(sweep.axis, Number(m[1]), true)}–${formatX(sweep.axis, Number(m[2]))}`;
  const n = Number(at);
  return Number.isFinite(n) ? formatX(sweep.axis, n) : at;
}

/** How a paper value relates to the metric, in words. */
export function relationText(relation: Relation, relativeTo: string | null, label: (series: string) => string): string {
  if (relation === 'value' || relativeTo === null) return '';
  if (relation === 'difference') return `minus ${label(relativeTo)}`;
  return `% change over ${label(relativeTo)}`;
}

/** Stable key of a swept value (numbers, pairs, null). */
export function xKey(x: SweepValue): string {
  return JSON.stringify(x);
}
