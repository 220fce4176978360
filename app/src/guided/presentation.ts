// What each lab shows, derived from its definition: a chart per metric the
// lab lists (most important first), relative fairness where Standard and
// other flows share a many-flow run, grouped bars for the time to the
// maximum rate, the ranking table where the paper ranked the series, and
// the gain over Standard TCP for parallel streams.

import type { ChartMetric, Lab } from '../engine/generated/labs';
import { mixedSeries } from './chartData';
import { METRICS } from './format';

export interface ChartPlan {
  /** Stable id: data-testid="lab-chart-<id>". */
  id: string;
  metric: ChartMetric;
  title: string;
  bars: boolean;
  onlySeries?: string[];
}

export function chartPlan(lab: Lab): ChartPlan[] {
  const against = lab.sweep.label.charAt(0).toLowerCase() + lab.sweep.label.slice(1);
  const plan: ChartPlan[] = [];
  for (const m of lab.metrics) {
    if (m === 'rank') continue;
    plan.push({ id: m, metric: m, title: `${METRICS[m].label} against ${against}`, bars: m === 'time_to_max_rate_s' });
    if (m === 'utilisation' && lab.sweep.axis === 'flow_pairs') {
      const mixed = mixedSeries(lab);
      if (mixed.length) plan.push({ id: 'relative_fairness', metric: 'relative_fairness', title: `Relative fairness against ${against}`, bars: false, onlySeries: mixed });
    }
  }
  return plan;
}

export function showsRanking(lab: Lab): boolean {
  return lab.ranking !== null;
}

export function showsGain(lab: Lab): boolean {
  return lab.sweep.axis === 'streams_per_host';
}

/** The metrics whose seed aggregates the lab's charts and tables draw (asked of the engine with each comparison). */
export function aggregateMetrics(lab: Lab): ChartMetric[] {
  const metrics = new Set<ChartMetric>(chartPlan(lab).map((p) => p.metric));
  if (showsGain(lab)) metrics.add('total_throughput_mbps');
  if (showsRanking(lab)) metrics.add('standard_share');
  return [...metrics];
}

/** Runs in the sweep at a scale (series × swept values × seeds), from the definition. */
export function runCount(lab: Lab, quick: boolean): number {
  const series = quick && lab.quick.series ? lab.series.filter((s) => lab.quick.series!.includes(s.id)).length : lab.series.length;
  const values = (quick && lab.quick.values ? lab.quick.values : lab.sweep.values).length;
  const seeds = quick && lab.quick.seeds ? lab.quick.seeds.length : lab.seeds.length || 1;
  return series * values * seeds;
}

/** Do the lab's result charts draw any of the paper's values (absolute values of a charted metric)? */
export function drawsPaperValues(lab: Lab, paper: readonly { metric: string; relation: string; lab: string }[]): boolean {
  const metrics = new Set(chartPlan(lab).map((p) => p.metric as string));
  return paper.some((v) => v.lab === lab.id && v.relation === 'value' && metrics.has(v.metric));
}
