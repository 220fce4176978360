import { describe, expect, it } from 'vitest';
import type { ChartSpec } from '../charts/specs';
import { chartSummaryText, chartTableColumns } from './ChartTable';

/** A delay chart of one flow whose smoothed RTT is first measured at sample 3 (the engine records 0 before). */
function delaySpec(): ChartSpec {
  return {
    id: 'delay',
    testId: 'chart-delay',
    title: 'Round-trip time and queueing delay',
    yLabel: 'delay (ms)',
    yFactor: 1,
    unit: 'ms',
    styles: [],
    series: [
      { id: 'f0.srtt_ms', label: 'flow 0 smoothed RTT', flow: 0, color: '#000', width: 1.5, y: Float64Array.of(0, 0, 0, 31, 33, 32), main: true, measuredFrom: 3 },
      { id: 'q.bottleneck_delay_ms', label: 'bottleneck queueing delay', flow: null, color: '#111', width: 1.5, y: Float64Array.of(0, 0, 1, 3, 2, 0), main: true },
    ],
  };
}

describe('chart text alternatives', () => {
  it('leave out the samples before a series is measured, and keep real zeros', () => {
    const { columns } = chartTableColumns(delaySpec(), 6);
    expect(Array.from(columns[0].values)).toEqual([NaN, NaN, NaN, 31, 33, 32]);
    // An empty queue is a measured 0.
    expect(Array.from(columns[1].values)).toEqual([0, 0, 1, 3, 2, 0]);
    const text = chartSummaryText('Delay', 'time (s)', Float64Array.of(0, 0.1, 0.2, 0.3, 0.4, 0.5), columns);
    expect(text).toContain('flow 0 smoothed RTT (ms) between 31 and 33 (mean 32)');
    expect(text).toContain('bottleneck queueing delay (ms) between 0 and 3 (mean 1)');
  });
});
