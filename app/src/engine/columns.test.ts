import { describe, expect, it } from 'vitest';
import { ColumnError, parseColumns, rowsInChunk, SeriesBuffer } from './columns';

const flowCols = (i: number) =>
  [
    'cwnd_pkts',
    'cwnd_bytes',
    'ssthresh_pkts',
    'outstanding_bytes',
    'outstanding_avg_bytes',
    'outstanding_wavg_bytes',
    'throughput_bps',
    'srtt_ms',
    'state',
    'outstanding_captured_bytes',
  ].map((k) => `f${i}.${k}`);
const NAMES = ['t_s', ...flowCols(0), ...flowCols(1), 'q.bottleneck_pkts', 'h0.ifq_pkts', 'h1.ifq_pkts'];

/** Column-major chunk where column c, row r holds c*1000 + r + offset. */
function chunk(ncols: number, rows: number, offset = 0): Float64Array {
  const a = new Float64Array(ncols * rows);
  for (let c = 0; c < ncols; c++) for (let r = 0; r < rows; r++) a[c * rows + r] = c * 1000 + r + offset;
  return a;
}

describe('parseColumns', () => {
  it('finds time, per-flow, bottleneck and per-host columns', () => {
    const l = parseColumns(NAMES);
    expect(l.t).toBe(0);
    expect(l.flows).toHaveLength(2);
    expect(l.flows[0].cwnd_pkts).toBe(1);
    expect(l.flows[0].state).toBe(9);
    expect(l.flows[1].cwnd_pkts).toBe(11);
    expect(l.flows[1].throughput_bps).toBe(17);
    expect(l.bottleneckQueue).toBe(21);
    expect(l.hostQueues).toEqual([22, 23]);
    expect(l.unknown).toEqual([]);
  });

  it('does not depend on column order and keeps unknown columns aside', () => {
    const names = ['h0.ifq_pkts', 'f0.state', 'x.future', ...flowCols(0).slice(0, 8), 'f0.outstanding_captured_bytes', 't_s'];
    const l = parseColumns(names);
    expect(l.t).toBe(names.length - 1);
    expect(l.flows[0].state).toBe(1);
    expect(l.flows[0].cwnd_pkts).toBe(3);
    expect(l.bottleneckQueue).toBe(-1);
    expect(l.unknown).toEqual(['x.future']);
  });

  it('rejects malformed column sets', () => {
    expect(() => parseColumns(flowCols(0))).toThrow(ColumnError);
    expect(() => parseColumns(['t_s', ...flowCols(1)])).toThrow(/flow 0 has no columns/);
    expect(() => parseColumns(['t_s', ...flowCols(0).slice(1)])).toThrow(/f0\.cwnd_pkts/);
    expect(() => parseColumns(['t_s', 't_s'])).toThrow(/duplicate/);
    expect(() => parseColumns(['t_s', 'h1.ifq_pkts'])).toThrow(/host 0/);
    expect(() => parseColumns(['t_s', 'h0.ifq_pkts', 'h1.ring_pkts'])).toThrow(/h1.ring_pkts has no interface queue/);
  });
});

describe('rowsInChunk', () => {
  it('divides by the column count and rejects ragged chunks', () => {
    const l = parseColumns(NAMES);
    expect(rowsInChunk(l, chunk(NAMES.length, 7))).toBe(7);
    expect(rowsInChunk(l, new Float64Array(0))).toBe(0);
    expect(() => rowsInChunk(l, new Float64Array(NAMES.length * 2 + 1))).toThrow(ColumnError);
  });
});

describe('SeriesBuffer', () => {
  it('de-interleaves column-major chunks into typed per-flow series', () => {
    const b = new SeriesBuffer(parseColumns(NAMES));
    expect(b.append(chunk(NAMES.length, 3))).toBe(3);
    const s = b.series();
    expect(s.length).toBe(3);
    expect(Array.from(s.t)).toEqual([0, 1, 2]);
    expect(Array.from(s.flows[0].cwnd_pkts)).toEqual([1000, 1001, 1002]);
    expect(Array.from(s.flows[1].throughput_bps)).toEqual([17000, 17001, 17002]);
    expect(Array.from(s.bottleneck_queue_pkts)).toEqual([21000, 21001, 21002]);
    expect(Array.from(s.hosts[1].ifq_pkts)).toEqual([23000, 23001, 23002]);
  });

  it('appends across chunks and grows past its capacity', () => {
    const b = new SeriesBuffer(parseColumns(NAMES), 2);
    b.append(chunk(NAMES.length, 3, 0));
    b.append(chunk(NAMES.length, 0));
    b.append(chunk(NAMES.length, 5, 100));
    expect(b.length).toBe(8);
    expect(b.capacity).toBeGreaterThanOrEqual(8);
    const s = b.series();
    expect(Array.from(s.t)).toEqual([0, 1, 2, 100, 101, 102, 103, 104]);
    expect(Array.from(s.flows[1].state)).toEqual([19000, 19001, 19002, 19100, 19101, 19102, 19103, 19104]);
  });

  it('gives empty series for absent columns', () => {
    const b = new SeriesBuffer(parseColumns(['t_s', ...flowCols(0)]));
    b.append(chunk(11, 2));
    expect(b.series().bottleneck_queue_pkts.length).toBe(0);
    expect(b.series().hosts).toEqual([]);
  });
});

describe('driver ring columns', () => {
  it('are read per host when the engine records them, and absent otherwise', () => {
    const names = ['t_s', 'q.bottleneck_pkts', 'h0.ifq_pkts', 'h1.ifq_pkts', 'h0.ring_pkts', 'h1.ring_pkts'];
    const layout = parseColumns(names);
    expect(layout.hostRings).toEqual([4, 5]);
    expect(layout.unknown).toEqual([]);
    const old = parseColumns(['t_s', 'h0.ifq_pkts']);
    expect(old.hostRings).toEqual([-1]);
  });
});
