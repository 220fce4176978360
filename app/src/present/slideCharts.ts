// The charts of a finished run as the page draws them (the same specs,
// cwnd unit and throughput averaging), for slide images and video frames.

import { buildChartSpecs, ColumnSum, MovingAverage, type CwndUnit } from '../charts/specs';
import type { RunSeries } from '../engine/columns';
import type { Scenario } from '../engine/types';
import type { SlideChart } from './slideDraw';

export interface ChartView {
  cwndUnit: CwndUnit;
  throughputAverageMs: number;
}

export function slideCharts(series: RunSeries, scenario: Scenario, view: ChartView, ids: readonly string[]): SlideChart[] {
  const window = Math.max(1, Math.round(view.throughputAverageMs / scenario.sample_interval_ms));
  const throughput = series.flows.map((f) => (window > 1 ? new MovingAverage().get(null, f.throughput_bps, series.length, window) : f.throughput_bps));
  const sum = series.flows.length > 1 ? new ColumnSum().get(null, throughput, series.length) : null;
  const cap = series.link_capacity_bps;
  const linkCapacity = cap.length === series.length && window > 1 ? new MovingAverage().get(null, cap, series.length, window) : null;
  const specs = buildChartSpecs(series, scenario, { cwndUnit: view.cwndUnit, sumThroughput: sum, throughput, throughputAverageMs: view.throughputAverageMs, linkCapacity });
  return ids.flatMap((id) => specs.filter((s) => s.id === id)).map((spec) => ({ spec, x: series.t, count: series.length }));
}
