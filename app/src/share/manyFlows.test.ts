// Issue 28: a run of 64 hosts × 64 flows, which the engine's memory model
// admits, must stay within the page's means in the browser. These tests pin
// what the page builds per flow for such a run: chart lines, data-table
// columns, averages, lists.

import { describe, expect, it } from 'vitest';
import { parseColumns, SeriesBuffer } from '../engine/columns';
import { FLOW_COLUMNS } from '../engine/generated/constants';
import { defaultMockScenario } from '../engine/testing/mockEngine';
import type { Scenario } from '../engine/types';
import { CHART_FLOWS_MAX, buildChartSpecs, ColumnSum, MovingAverage } from '../charts/specs';
import { chartSummaryText, chartTableColumns } from './ChartTable';
import { FLOW_CARDS_MAX, firstOf, shownFlowCards, TABLE_SERIES_MAX } from '../lab/manyFlows';

const HOSTS = 64;
const FLOWS_PER_HOST = 64;
const FLOWS = HOSTS * FLOWS_PER_HOST;
const ROWS = 40;

/** The scenario shape: 64 hosts of 64 flows, 40 one-second samples. */
function manyFlowRun() {
  const base = defaultMockScenario();
  const flow = base.hosts[0].flows[0];
  const scenario: Scenario = { ...base, duration_ms: 40_000, sample_interval_ms: 1000, hosts: Array.from({ length: HOSTS }, () => ({ ...base.hosts[0], flows: Array.from({ length: FLOWS_PER_HOST }, () => ({ ...flow })) })) };
  const names = ['t_s'];
  for (let f = 0; f < FLOWS; f++) for (const c of FLOW_COLUMNS) names.push(`f${f}.${c}`);
  names.push('q.bottleneck_pkts', 'q.bottleneck_delay_ms');
  for (let h = 0; h < HOSTS; h++) names.push(`h${h}.ifq_pkts`);
  for (let h = 0; h < HOSTS; h++) names.push(`h${h}.ring_pkts`);
  const buffer = new SeriesBuffer(parseColumns(names), ROWS);
  const chunk = new Float64Array(names.length * ROWS);
  for (let r = 0; r < ROWS; r++) {
    chunk[r] = r + 1;
    for (let f = 0; f < FLOWS; f++) {
      const at = (c: number) => (1 + f * FLOW_COLUMNS.length + c) * ROWS + r;
      chunk[at(0)] = 10 + (f % 7) + r;
      chunk[at(6)] = 1e6 * (1 + (f % 3));
      chunk[at(7)] = 500;
    }
  }
  buffer.append(chunk);
  return { series: buffer.series(), scenario };
}

describe('the time charts of a run with many flows', () => {
  const { series, scenario } = manyFlowRun();
  const throughput = series.flows.map((f) => f.throughput_bps);
  const sum = new ColumnSum().get('run', throughput, series.length);
  const specs = buildChartSpecs(series, scenario, { cwndUnit: 'packets', sumThroughput: sum, throughput });
  const byId = Object.fromEntries(specs.map((s) => [s.id, s]));

  it('draw the lines of the first CHART_FLOWS_MAX flows, not 40 000 series', () => {
    const perFlow = (id: string) => new Set(byId[id].series.filter((s) => s.flow !== null).map((s) => s.flow));
    for (const id of ['cwnd', 'outstanding', 'throughput', 'delay']) {
      expect(perFlow(id)).toEqual(new Set(Array.from({ length: CHART_FLOWS_MAX }, (_, i) => i)));
      expect(byId[id].flowsNotDrawn).toBe(FLOWS - CHART_FLOWS_MAX);
    }
    const lines = specs.reduce((n, s) => n + s.series.length, 0);
    // cwnd 2, outstanding 5, throughput 1, delay 1 per drawn flow; the sum, capacity, queues (3 per host + 2), delays (2).
    expect(lines).toBe(CHART_FLOWS_MAX * 9 + 2 + (2 + 3 * HOSTS) + 2);
  });

  it('still sum every flow’s throughput and draw every host’s queue', () => {
    const line = byId.throughput.series.find((s) => s.id === 'sum.throughput_bps')!;
    // 4 096 flows of 1, 2 or 3 Mb/s.
    const expected = throughput.reduce((a, c) => a + c[0], 0);
    expect((line.y as Float64Array)[0]).toBe(expected);
    expect(expected).toBeGreaterThan(FLOWS * 1e6);
    expect(byId.queues.series.filter((s) => /^h\d+\.ifq_pkts$/.test(s.id))).toHaveLength(HOSTS);
    expect(byId.queues.flowsNotDrawn).toBeUndefined();
  });

  it('give data tables of at most TABLE_SERIES_MAX columns, naming how many more there are', () => {
    const { columns, more } = chartTableColumns(byId.cwnd, series.length);
    expect(columns).toHaveLength(TABLE_SERIES_MAX);
    expect(more).toBe(CHART_FLOWS_MAX - TABLE_SERIES_MAX);
    expect(columns[0].values).toEqual(series.flows[0].cwnd_pkts);
    const text = chartSummaryText('Congestion window', 'time (s)', series.t, columns, undefined, more);
    expect(text).toMatch(new RegExp(`; ${more} more series \\(in the series CSV export\\)\\.$`));
    // A chart with few series gets them all.
    const small = chartTableColumns(byId.queues, series.length, 1000);
    expect(small.more).toBe(0);
  });
});

describe('MovingAverage', () => {
  it('holds about the rows it averages (one per flow of a 4 096-flow run), not 1 024 rows each', () => {
    const col = Float64Array.from({ length: ROWS }, (_, i) => i);
    const out = new MovingAverage().get('run', col, ROWS, 5);
    expect(out[ROWS - 1]).toBe((35 + 36 + 37 + 38 + 39) / 5);
    expect(out.buffer.byteLength).toBeLessThanOrEqual(2 * ROWS * 8);
  });
});

describe('per-flow lists', () => {
  it('show the first items and count the rest', () => {
    expect(firstOf([1, 2, 3], 2)).toEqual({ shown: [1, 2], more: 1 });
    expect(firstOf([1, 2], 5)).toEqual({ shown: [1, 2], more: 0 });
  });

  it('give cards to the first FLOW_CARDS_MAX flows, and to the selected one beyond them', () => {
    const flows = Array.from({ length: FLOWS }, (_, i) => i);
    expect(shownFlowCards(flows, 3)).toEqual({ shown: flows.slice(0, FLOW_CARDS_MAX), more: FLOWS - FLOW_CARDS_MAX });
    const picked = shownFlowCards(flows, 4000);
    expect(picked.shown).toHaveLength(FLOW_CARDS_MAX + 1);
    expect(picked.shown.at(-1)).toBe(4000);
    expect(picked.more).toBe(FLOWS - FLOW_CARDS_MAX - 1);
    const few = [0, 1, 2];
    expect(shownFlowCards(few, 2)).toEqual({ shown: few, more: 0 });
  });
});
