// Small labs, points and results for unit tests (shapes of the generated types).

import type { ClaimOutcome } from '../../engine/generated/labs';
import type { ChartMetric, Comparison, Lab, PaperValue, PointResult, SeedAggregate, Series, SweepAggregates, SweepPoint, SweepValue } from '../../engine/generated/labs';
import type { Scenario } from '../../engine/types';

export function series(id: string, flows: { algorithm: string; label?: string; standard?: boolean }[], set: Series['set'] = {}, label = id): Series {
  return { id, label, flows: flows.map((f) => ({ algorithm: f.algorithm, params: {}, label: f.label ?? f.algorithm, standard: f.standard ?? false })), set };
}

export function lab(o: Partial<Lab> & Pick<Lab, 'series'>): Lab {
  return {
    id: 'test-lab',
    number: 99,
    title: 'Test lab',
    summary: 'A lab for tests.',
    sources: [{ seed: '000', file: '000_x.txt', refs: 'Fig. 1' }],
    base: {} as Scenario,
    sweep: { axis: 'txqueuelen_pkts', label: 'txqueuelen', unit: 'packets', values: [50, 100, 200], log_scale: false },
    metrics: ['total_throughput_mbps'],
    seeds: [],
    start_jitter_ms: 0,
    jitter_first_flow: false,
    measure: null,
    buffer_bdp_factor: null,
    ranking: null,
    quick: { set: {}, values: null, seeds: null, series: null, measure: null, note: 'quick' },
    headline: [],
    unknowns: [],
    guide: { question: 'q', predict: 'p', control: 'c', paper_found: 'f', mechanism: 'm', model_differences: ['d'], try_next: [], simulator: [] },
    ...o,
  };
}

export function point(seriesId: string, x: SweepValue, seed = 1, groups: number[] = [0]): SweepPoint {
  return { lab: 'test-lab', series: seriesId, x, seed, groups, scenario: {} as Scenario };
}

export function result(p: SweepPoint, o: Partial<PointResult> = {}): PointResult {
  const total = o.total_throughput_mbps ?? 100;
  return {
    lab: p.lab,
    series: p.series,
    x: p.x,
    seed: p.seed,
    total_throughput_mbps: total,
    group_labels: [],
    group_throughput_mbps: [total],
    flow_throughput_mbps: p.groups.map(() => total / p.groups.length),
    standard_throughput_mbps: null,
    standard_share: null,
    jain_index: 1,
    utilisation: total / 1000,
    time_to_max_rate_s: null,
    flow_time_to_max_rate_s: [],
    drops: 0,
    local_congestion_events: 0,
    ecn_marks: 0,
    timeouts: 0,
    congestion_event_rate: 0,
    group_congestion_event_rate: [],
    mean_outstanding_kbytes: 0,
    duration_s: 10,
    ...o,
  };
}

export function paperValue(o: Partial<PaperValue> & Pick<PaperValue, 'series' | 'metric' | 'value'>): PaperValue {
  return {
    key: `${o.series}:${o.metric}:${o.x ?? o.x_range?.join('..') ?? '*'}`,
    lab: 'test-lab',
    unit: 'Mb/s',
    relation: 'value',
    runs: [],
    source: { seed: '000', file: '000_x.txt', at: 'Fig. 31' },
    ...o,
  };
}

/** A paper-vs-simulation row (lab 3's Standard at txqueuelen 100 unless overridden). */
export function comparison(o: Partial<Comparison> = {}): Comparison {
  return {
    key: 'k',
    series: 's',
    metric: 'total_throughput_mbps',
    group: null,
    relation: 'value',
    relative_to: null,
    relative_to_x: null,
    at: '100',
    paper: 828,
    paper_range: null,
    unit: 'Mb/s',
    simulated: 634.2,
    difference: 634.2 - 828,
    within_tolerance: false,
    points: 1,
    source: { seed: '000', file: 'f.txt', at: 'Fig. 31' },
    ...o,
    agreement: o.agreement !== undefined ? o.agreement : o.within_tolerance === true ? 'within_tolerance' : o.within_tolerance === null ? null : 'outside',
  };
}

/** A sentence as the engine evaluates it: "Scalable reaches 943 Mb/s." holding, unless overridden. */
export function claimOutcome(o: Partial<ClaimOutcome> = {}): ClaimOutcome {
  return {
    id: 'c',
    text: 'Scalable reaches 943 Mb/s.',
    parts: [
      { text: 'Scalable reaches ', reference: null, value: null },
      { text: '943 Mb/s', reference: 'scalable@16777216:total_throughput_mbps', value: 943.04 },
      { text: '.', reference: null, value: null },
    ],
    holds: true,
    detail: 'Scalable TCP: 943 Mb/s (at 16 MB)',
    ...o,
  };
}

/** A seed aggregate as the engine sends it: one line at one swept value, over runs [point index, seed, value]. */
export function seedAggregate(metric: ChartMetric, series: string, x: SweepValue, runs: [number, number, number | null][], group: number | null = null): SeedAggregate {
  const values = runs.map(([, , v]) => v);
  const defined = values.filter((v): v is number => v !== null);
  return {
    metric,
    series,
    group,
    x,
    mean: defined.length ? defined.reduce((a, b) => a + b, 0) / defined.length : null,
    min: defined.length ? Math.min(...defined) : null,
    max: defined.length ? Math.max(...defined) : null,
    values,
    runs: runs.map(([i]) => i),
    seeds: runs.map(([, seed]) => seed),
  };
}

/** The engine's aggregates when every point ran once: one cell per point, holding `values[i]`. */
export function onePerPoint(metric: ChartMetric, points: readonly SweepPoint[], values: readonly (number | null)[]): SweepAggregates {
  return { at_x: points.map((p, i) => seedAggregate(metric, p.series, p.x, [[i, p.seed, values[i]]])), series: [] };
}
