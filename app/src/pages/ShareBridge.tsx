// The share features wired to the lab: the address bar follows the
// scenario, embed mode posts messages to its parent, the share panel (not in
// embed mode) exports and loads scenarios, and each chart gets its text
// summary and data table. App.tsx mounts these at the "share:" points.

import { useMemo, useSyncExternalStore } from 'react';
import { chartTextTitle, type ChartSpec } from '../charts/specs';
import type { AlgorithmInfo, Scenario } from '../engine/types';
import type { LabStore } from '../lab/labStore';
import type { RunStore } from '../lab/runStore';
import { ChartTable, chartTableColumns } from '../share/ChartTable';
import type { Validate } from '../share/sanitize';
import { SharePanel, type ShareChart } from './SharePanel';
import { useEmbedMessages, useUrlSync } from '../share/useShare';
import type { ViewOptions } from '../share/view';

export const SHARE_CHARTS: ShareChart[] = [
  { id: 'cwnd', title: 'Congestion window' },
  { id: 'outstanding', title: 'Outstanding data' },
  { id: 'throughput', title: 'Throughput' },
  { id: 'queues', title: 'Queues' },
  { id: 'delay', title: 'Round-trip time and queueing delay' },
];

/** The embed builder's charts: the time charts and the path view (charts=path; it has no export of its own). */
const BUILDER_CHARTS: ShareChart[] = [...SHARE_CHARTS, { id: 'path', title: 'Path (the network, following playback)' }];

export interface ShareBridgeProps {
  lab: LabStore;
  store: RunStore;
  view: ViewOptions;
  defaults: Scenario;
  validate: Validate;
  /** The engine's algorithms (names for the slides' legend and caption). */
  catalogue?: AlgorithmInfo[];
}

export function ShareBridge({ lab, store, view, defaults, validate, catalogue }: ShareBridgeProps) {
  const names = useMemo(() => Object.fromEntries((catalogue ?? []).map((a) => [a.id, a.name])), [catalogue]);
  const state = useSyncExternalStore(lab.subscribe, lab.getSnapshot);
  const snap = useSyncExternalStore(store.subscribe, store.getSnapshot);
  // The Start-here path's prediction (pred=) stays in the address as the scenario changes.
  useUrlSync(state.scenario, defaults, view.embed ? view : null, ['sw', 'render', 'pred']);
  useEmbedMessages(view, true, { runId: snap.runId, state: snap.state, summary: snap.summary, scenario: snap.scenario, error: snap.error });
  if (view.embed) return null;
  const shown = SHARE_CHARTS.filter((c) => view.charts === null || view.charts.includes(c.id));
  return (
    <SharePanel
      scenario={state.scenario}
      defaults={defaults}
      series={snap.state === 'done' ? snap.series : null}
      events={snap.events}
      summary={snap.summary}
      charts={shown}
      builderCharts={BUILDER_CHARTS}
      algorithmNames={names}
      chartView={{ cwndUnit: state.view.cwndUnit, throughputAverageMs: state.view.throughputAverageMs }}
      validate={validate}
      onLoad={(s) => lab.load(s)}
    />
  );
}

/** The chart's main series in display units, for the text summary and the table (the first few of a run with many flows). */
export function ChartAlternatives({ spec, x, count }: { spec: ChartSpec; x: Float64Array; count: number }) {
  const { columns, more } = useMemo(() => chartTableColumns(spec, count), [spec, count]);
  const xs = useMemo(() => x.subarray(0, count), [x, count]);
  return <ChartTable title={chartTextTitle(spec)} xLabel="time (s)" x={xs} columns={columns} moreSeries={more} testId={`chart-${spec.id}-a11y`} />;
}
