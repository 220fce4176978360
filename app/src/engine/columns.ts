// Parsing of the engine's sample columns and accumulation of sample chunks.
//
// The engine names its columns (RawSimulation.sample_columns()):
//   "t_s", then per flow i "f{i}.cwnd_pkts", "f{i}.cwnd_bytes",
//   "f{i}.ssthresh_pkts" (NaN = infinite), "f{i}.outstanding_bytes",
//   "f{i}.outstanding_avg_bytes" (tcptrace mean over ACKs),
//   "f{i}.outstanding_wavg_bytes" (time-weighted mean), "f{i}.throughput_bps",
//   "f{i}.srtt_ms", "f{i}.state" (0 Open … 4 Loss; NaN before the flow
//   starts), "f{i}.outstanding_captured_bytes" (what tcpdump on the sender
//   sees: handed to the NIC driver, not yet acknowledged), then "q.bottleneck_pkts", "q.bottleneck_delay_ms" (the queueing
//   delay of the packet that last left the bottleneck), per host h
//   "h{h}.ifq_pkts", and with a latency probe "probe.rtt_ms" (the latest
//   ping round trip; NaN before the first), and with a trace-driven
//   bottleneck "link.capacity_bps" (its delivery opportunities in the
//   interval at 1504 bytes each).
// drain_samples() returns new rows column-major: all of column 0, then all of
// column 1, ... (length = columns × rows).

import { FLOW_COLUMNS, TRACE_CAPACITY_COLUMN } from './generated/constants';

/** Each flow's quantities, in the engine's column order (generated from record.rs FLOW_COLUMNS). */
export const FLOW_FIELDS = FLOW_COLUMNS;
export type FlowField = (typeof FLOW_FIELDS)[number];

export type FlowColumns = Record<FlowField, number>;

/** Where each quantity is in a sample row (column indices; -1 when absent). */
export interface ColumnLayout {
  names: string[];
  t: number;
  flows: FlowColumns[];
  bottleneckQueue: number;
  bottleneckDelay: number;
  probeRtt: number;
  /** A trace-driven bottleneck's capacity column (`link.capacity_bps`), -1 without a trace. */
  linkCapacity: number;
  hostQueues: number[];
  /** Each host's driver-ring column (`h<h>.ring_pkts`), -1 where the run has none. */
  hostRings: number[];
  /** Columns the app does not know (kept, but not given a typed view). */
  unknown: string[];
}

export type FlowSeries = Record<FlowField, Float64Array>;

/** Typed views of a run's samples, all of the same length. */
export interface RunSeries {
  length: number;
  t: Float64Array;
  flows: FlowSeries[];
  bottleneck_queue_pkts: Float64Array;
  /** Queueing delay at the bottleneck, ms. */
  bottleneck_delay_ms: Float64Array;
  /** The latency probe's latest round trip, ms; empty without a probe. */
  probe_rtt_ms: Float64Array;
  /** A trace-driven bottleneck's capacity per sample interval, b/s; empty without a trace. */
  link_capacity_bps: Float64Array;
  /** Per host: its interface queue and, from engines that record it, its driver ring (frames, the one on the wire included). */
  hosts: { ifq_pkts: Float64Array; ring_pkts?: Float64Array }[];
}

export class ColumnError extends Error {}

const FLOW_RE = /^f(\d+)\.([a-z_]+)$/;
const HOST_RE = /^h(\d+)\.ifq_pkts$/;
const RING_RE = /^h(\d+)\.ring_pkts$/;

/** Parse column names into a layout. Throws ColumnError on a malformed set. */
export function parseColumns(names: readonly string[]): ColumnLayout {
  const seen = new Set<string>();
  for (const n of names) {
    if (seen.has(n)) throw new ColumnError(`duplicate column "${n}"`);
    seen.add(n);
  }
  const t = names.indexOf('t_s');
  if (t < 0) throw new ColumnError('no "t_s" column');

  const flows: Partial<FlowColumns>[] = [];
  const hostQueues: number[] = [];
  const rings: number[] = [];
  const unknown: string[] = [];
  let bottleneckQueue = -1;
  let bottleneckDelay = -1;
  let probeRtt = -1;
  let linkCapacity = -1;

  names.forEach((name, i) => {
    if (i === t) return;
    if (name === 'q.bottleneck_pkts') {
      bottleneckQueue = i;
      return;
    }
    if (name === 'q.bottleneck_delay_ms') {
      bottleneckDelay = i;
      return;
    }
    if (name === 'probe.rtt_ms') {
      probeRtt = i;
      return;
    }
    if (name === TRACE_CAPACITY_COLUMN) {
      linkCapacity = i;
      return;
    }
    const f = FLOW_RE.exec(name);
    if (f && (FLOW_FIELDS as readonly string[]).includes(f[2])) {
      const idx = Number(f[1]);
      (flows[idx] ??= {})[f[2] as FlowField] = i;
      return;
    }
    const h = HOST_RE.exec(name);
    if (h) {
      hostQueues[Number(h[1])] = i;
      return;
    }
    const r = RING_RE.exec(name);
    if (r) {
      rings[Number(r[1])] = i;
      return;
    }
    unknown.push(name);
  });

  const complete: FlowColumns[] = [];
  for (let i = 0; i < flows.length; i++) {
    const cols = flows[i];
    if (!cols) throw new ColumnError(`flow ${i} has no columns (flows must be numbered from 0)`);
    const missing = FLOW_FIELDS.filter((k) => cols[k] === undefined);
    if (missing.length) throw new ColumnError(`flow ${i} lacks ${missing.map((m) => `f${i}.${m}`).join(', ')}`);
    complete.push(cols as FlowColumns);
  }
  for (let h = 0; h < hostQueues.length; h++) {
    if (hostQueues[h] === undefined) throw new ColumnError(`host ${h} has no h${h}.ifq_pkts column`);
  }
  if (rings.length > hostQueues.length) throw new ColumnError(`h${rings.length - 1}.ring_pkts has no interface queue column`);
  const hostRings = hostQueues.map((_, h) => rings[h] ?? -1);
  return { names: [...names], t, flows: complete, bottleneckQueue, bottleneckDelay, probeRtt, linkCapacity, hostQueues, hostRings, unknown };
}

/** Number of rows in a column-major chunk; throws when the length does not divide. */
export function rowsInChunk(layout: ColumnLayout, chunk: Float64Array): number {
  const n = layout.names.length;
  if (n === 0) return 0;
  if (chunk.length % n !== 0) {
    throw new ColumnError(`sample chunk of ${chunk.length} values is not a multiple of ${n} columns`);
  }
  return chunk.length / n;
}

const EMPTY = new Float64Array(0);

/**
 * A growable column store: append column-major chunks, read typed views.
 * Views returned by series() stay valid until the next append (which may
 * reallocate); take a fresh one after each append.
 */
export class SeriesBuffer {
  readonly layout: ColumnLayout;
  private cols: Float64Array[];
  private len = 0;

  constructor(layout: ColumnLayout, initialCapacity = 1024) {
    this.layout = layout;
    const cap = Math.max(1, initialCapacity);
    this.cols = layout.names.map(() => new Float64Array(cap));
  }

  get length(): number {
    return this.len;
  }

  get capacity(): number {
    return this.cols[0]?.length ?? 0;
  }

  /** Append a column-major chunk; returns the number of rows added. */
  append(chunk: Float64Array): number {
    const rows = rowsInChunk(this.layout, chunk);
    if (rows === 0) return 0;
    this.reserve(this.len + rows);
    for (let c = 0; c < this.cols.length; c++) {
      this.cols[c].set(chunk.subarray(c * rows, (c + 1) * rows), this.len);
    }
    this.len += rows;
    return rows;
  }

  private reserve(n: number): void {
    if (n <= this.capacity) return;
    let cap = this.capacity;
    while (cap < n) cap *= 2;
    this.cols = this.cols.map((old) => {
      const grown = new Float64Array(cap);
      grown.set(old.subarray(0, this.len));
      return grown;
    });
  }

  /** The first `length` values of column `index` (empty for index -1). */
  column(index: number): Float64Array {
    if (index < 0) return EMPTY;
    return this.cols[index].subarray(0, this.len);
  }

  series(): RunSeries {
    const l = this.layout;
    const col = (i: number) => this.column(i);
    return {
      length: this.len,
      t: col(l.t),
      flows: l.flows.map((f) => {
        const out = {} as FlowSeries;
        for (const k of FLOW_FIELDS) out[k] = col(f[k]);
        return out;
      }),
      bottleneck_queue_pkts: col(l.bottleneckQueue),
      bottleneck_delay_ms: col(l.bottleneckDelay),
      probe_rtt_ms: col(l.probeRtt),
      link_capacity_bps: col(l.linkCapacity),
      hosts: l.hostQueues.map((i, h) => (l.hostRings[h] >= 0 ? { ifq_pkts: col(i), ring_pkts: col(l.hostRings[h]) } : { ifq_pkts: col(i) })),
    };
  }
}
