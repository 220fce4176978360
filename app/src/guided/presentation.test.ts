import { describe, expect, it } from 'vitest';
import { aggregateMetrics, chartPlan, runCount, showsGain, showsRanking } from './presentation';
import { lab, series } from './testing/fixtures';

describe('chartPlan', () => {
  it('a chart per metric, bars for the time to the maximum rate, no chart for the rank', () => {
    const l = lab({ series: [], metrics: ['time_to_max_rate_s', 'total_throughput_mbps', 'rank'] });
    expect(chartPlan(l).map((p) => [p.id, p.bars])).toEqual([
      ['time_to_max_rate_s', true],
      ['total_throughput_mbps', false],
    ]);
    expect(chartPlan(l)[1].title).toBe('Throughput, all flows against txqueuelen');
  });

  it('relative fairness after utilisation when many flows mix Standard and others', () => {
    const l = lab({
      series: [series('mix', [{ algorithm: 'highspeed' }, { algorithm: 'reno', standard: true }]), series('std', [{ algorithm: 'reno', standard: true }])],
      sweep: { axis: 'flow_pairs', label: 'Number of flows', unit: 'flows', values: [2, 10], log_scale: true },
      metrics: ['utilisation', 'jain_index'],
    });
    const plan = chartPlan(l);
    expect(plan.map((p) => p.id)).toEqual(['utilisation', 'relative_fairness', 'jain_index']);
    expect(plan[1].onlySeries).toEqual(['mix']);
  });
});

describe('tables and counts', () => {
  it('ranking where the paper ranked, gain for parallel streams', () => {
    expect(showsRanking(lab({ series: [], ranking: { by: 'total_throughput_mbps', tie_break: 'standard_throughput_mbps', tie_tolerance: 0.01 } }))).toBe(true);
    expect(showsRanking(lab({ series: [] }))).toBe(false);
    expect(showsGain(lab({ series: [], sweep: { axis: 'streams_per_host', label: 'Streams', unit: '', values: [1], log_scale: false } }))).toBe(true);
  });

  it('asks the engine to aggregate what the charts and tables draw, each metric once', () => {
    const ranked = lab({ series: [], metrics: ['total_throughput_mbps', 'rank'], ranking: { by: 'total_throughput_mbps', tie_break: 'standard_throughput_mbps', tie_tolerance: 0.01 } });
    expect(aggregateMetrics(ranked)).toEqual(['total_throughput_mbps', 'standard_share']);
    const streams = lab({ series: [], metrics: ['jain_index'], sweep: { axis: 'streams_per_host', label: 'Streams', unit: '', values: [1], log_scale: false } });
    expect(aggregateMetrics(streams)).toEqual(['jain_index', 'total_throughput_mbps']);
  });

  it('counts runs at each scale', () => {
    const l = lab({
      series: [series('a', [{ algorithm: 'reno' }]), series('b', [{ algorithm: 'reno' }]), series('c', [{ algorithm: 'reno' }])],
      seeds: [1, 2, 3, 4],
      quick: { set: {}, values: [50], seeds: [1, 2], series: ['a'], measure: null, note: '' },
    });
    expect(runCount(l, false)).toBe(3 * 3 * 4);
    expect(runCount(l, true)).toBe(1 * 1 * 2);
  });
});
