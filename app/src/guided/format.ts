// Words and numbers for the guided labs: swept values in their unit, metric
// names, paper-table cells.

import type { Axis, ChartMetric, Sweep, SweepValue } from '../engine/generated/labs';
import { METRIC_UNITS } from '../engine/generated/metrics';

export interface MetricInfo {
  label: string;
  /** Short axis title with unit. */
  axis: string;
  /** The engine's unit (labs/metric.rs `Metric::unit`); see formatValue and unitSuffix for how it reads. */
  unit: string;
  /** The y axis reaches at least this (fractions and indices: 1; counts: 5, so that no tick is fractional). */
  minTop?: number;
}

const METRIC_TEXT: Record<ChartMetric, Omit<MetricInfo, 'unit'>> = {
  total_throughput_mbps: { label: 'Throughput, all flows', axis: 'Throughput (Mb/s)' },
  group_throughput_mbps: { label: 'Throughput of each client', axis: 'Throughput (Mb/s)' },
  flow_throughput_mbps: { label: 'Throughput of each flow', axis: 'Throughput (Mb/s)' },
  standard_throughput_mbps: { label: 'Standard TCP’s throughput', axis: 'Throughput (Mb/s)' },
  standard_share: { label: 'Standard TCP’s share of the throughput', axis: 'Share', minTop: 1 },
  jain_index: { label: 'Jain’s fairness index', axis: 'Jain’s index', minTop: 1 },
  utilisation: { label: 'Utilisation of the bottleneck', axis: 'Utilisation', minTop: 1 },
  time_to_max_rate_s: { label: 'Time to reach the maximum rate', axis: 'Time (s)' },
  drops: { label: 'Packets dropped in the network', axis: 'Drops (packets)', minTop: 5 },
  local_congestion_events: { label: 'Local congestion events (interface queue full)', axis: 'Events', minTop: 5 },
  congestion_event_rate: { label: 'Congestion events per delivered packet', axis: 'Events per packet' },
  mean_outstanding_kbytes: { label: 'Mean outstanding data (first flow)', axis: 'Outstanding (kB)' },
  rank: { label: 'Rank', axis: 'Rank' },
  group_share: { label: 'Share of the throughput, each flow', axis: 'Share', minTop: 1 },
  probe_rtt_median_ms: { label: 'Ping round trip, median', axis: 'Round trip (ms)' },
  probe_rtt_p99_ms: { label: 'Ping round trip, 99th percentile', axis: 'Round trip (ms)' },
  mean_queue_delay_ms: { label: 'Queueing delay at the bottleneck (time average)', axis: 'Queueing delay (ms)' },
  mean_captured_outstanding_kbytes: { label: 'Mean outstanding data seen by tcpdump on the sender (first flow)', axis: 'Outstanding (kB)' },
  mean_queue_pkts: { label: 'Bottleneck queue (time average)', axis: 'Queue (packets)', minTop: 5 },
  group_queue_delay_ms: { label: 'Queueing delay of each flow’s packets at the bottleneck', axis: 'Queueing delay (ms)' },
  relative_fairness: { label: 'Relative fairness: a non-Standard flow’s throughput over a Standard flow’s', axis: 'Ratio' },
};

/** What the lab charts and tables say of each engine metric (measured or derived): the words are the app's, the unit the engine's. */
export const METRICS = Object.fromEntries(
  (Object.keys(METRIC_TEXT) as ChartMetric[]).map((m) => [m, { ...METRIC_TEXT[m], unit: METRIC_UNITS[m] }]),
) as Record<ChartMetric, MetricInfo>;

/** An engine unit of values 0…1, shown as a percentage. */
export function isFraction(unit: string | undefined): boolean {
  return unit === 'fraction';
}

/**
 * What follows a number in an engine unit: nothing for fractions and
 * percentages (the number carries its %), indices and ranks; × for a ratio;
 * else the unit itself ("Mb/s", "ms", "packets").
 */
export function unitSuffix(unit: string): string {
  switch (unit) {
    case 'fraction':
    case '%':
    case 'index':
    case 'rank':
      return '';
    case 'ratio':
      return '×';
    default:
      return unit;
  }
}

/** A number with about three significant digits (tables, tooltips); a fraction as a percentage, a % value with its sign. */
export function formatValue(v: number | null | undefined, unit?: string): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '—';
  if (isFraction(unit)) return `${round3(v * 100)}%`;
  if (unit === '%') return `${round3(v)}%`;
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

/** The unit after a number as text: a counted unit in the singular after exactly 1 ("1 packet", "1 event", "2 packets"). */
export function unitAfter(text: string, unit: string): string {
  const suffix = unitSuffix(unit);
  if (!suffix) return '';
  return ` ${text === '1' && /^[a-z]+s$/.test(suffix) ? suffix.slice(0, -1) : suffix}`;
}

/** A value with its unit ("828 Mb/s", "38%", "0.97", "1 packet"), the unit an engine unit. */
export function withUnit(v: number | null | undefined, unit: string): string {
  const s = formatValue(v, unit);
  return s === '—' ? s : `${s}${unitAfter(s, unit)}`;
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
    case 'rtt_ratio':
      return short ? String(x) : `RTT ratio ${x}`;
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

/** Stable key of a swept value (numbers, pairs, null). */
export function xKey(x: SweepValue): string {
  return JSON.stringify(x);
}
