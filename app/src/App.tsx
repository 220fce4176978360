// The walking-skeleton page: one scenario (the engine's default, with URL
// overrides), an RTT control that re-runs it, live cwnd and throughput
// charts, and the mean throughput.

import { useEffect, useLayoutEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { LineChart, type LineSpec } from './charts/LineChart';
import type { EngineClient } from './engine/client';
import type { EngineError } from './engine/errors';
import type { RunDebug } from './engine/protocol';
import type { Scenario } from './engine/types';
import { RTT_FIELD } from './lab/fields';
import { scenarioFromUrl } from './lab/params';
import type { RunState, RunStore } from './lab/runStore';
import type { RenderedRun } from './lab/testHooks';
import { ErrorPanel } from './ui/ErrorPanel';
import { NumberControl } from './ui/NumberControl';
import { SummaryPanel } from './ui/SummaryPanel';

export const FLOW_COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#17becf', '#8c564b', '#e377c2'];

export interface AppProps {
  client: EngineClient;
  store: RunStore;
  rendered: RenderedRun;
  search: string;
}

export function App({ client, store, rendered, search }: AppProps) {
  const snap = useSyncExternalStore(store.subscribe, store.getSnapshot);
  const [base, setBase] = useState<Scenario | null>(null);
  const [rtt, setRtt] = useState<number | null>(null);
  const [urlErrors, setUrlErrors] = useState<string[]>([]);
  const [loadError, setLoadError] = useState<EngineError | null>(null);

  useEffect(() => {
    let live = true;
    client.ready().then(
      (info) => {
        if (!live) return;
        const { scenario, errors } = scenarioFromUrl(search, info.defaultScenario);
        setBase(scenario);
        setRtt(scenario.rtt_ms);
        setUrlErrors(errors);
      },
      (e: EngineError) => live && setLoadError(e),
    );
    return () => {
      live = false;
    };
  }, [client, search]);

  const scenario = useMemo<Scenario | null>(() => (base && rtt !== null ? { ...base, rtt_ms: rtt } : null), [base, rtt]);

  // ?debug=trap makes the first run trap inside the engine (recovery tests).
  const [debugFirstRun, setDebugFirstRun] = useState<RunDebug | undefined>(() =>
    new URLSearchParams(search).get('debug') === 'trap' ? 'trap' : undefined,
  );
  useEffect(() => {
    if (!scenario) return;
    store.start(scenario, debugFirstRun);
    if (debugFirstRun) setDebugFirstRun(undefined);
  }, [scenario, store]);

  const state: RunState = loadError ? 'error' : snap.state;
  const error = loadError ?? snap.error;

  // The ready marker and test hooks follow what is on screen.
  useLayoutEffect(() => {
    document.documentElement.dataset.runState = state;
    rendered.publish(snap, state, error);
  }, [snap, state, error, rendered]);

  const series = snap.series;
  const durationS = (snap.scenario?.duration_ms ?? scenario?.duration_ms ?? 1000) / 1000;
  const xDomain = useMemo<[number, number]>(() => [0, durationS], [durationS]);
  const cwndLines = useMemo<LineSpec[]>(
    () =>
      series?.flows.map((f, i) => ({ key: `f${i}.cwnd`, label: `flow ${i}`, color: FLOW_COLORS[i % FLOW_COLORS.length], y: f.cwnd_pkts })) ??
      [],
    [series],
  );
  const tputLines = useMemo<LineSpec[]>(
    () =>
      series?.flows.map((f, i) => ({
        key: `f${i}.throughput`,
        label: `flow ${i}`,
        color: FLOW_COLORS[i % FLOW_COLORS.length],
        y: f.throughput_bps,
      })) ?? [],
    [series],
  );
  const empty = useMemo(() => new Float64Array(0), []);

  return (
    <div className="app" data-run-state={state}>
      <header>
        <h1>Sawtooth</h1>
        <p className="tagline">A TCP congestion-control lab: a packet-level simulator running in your browser.</p>
      </header>

      <section className="controls" aria-label="Scenario">
        <NumberControl
          label="RTT"
          spec={RTT_FIELD}
          step={1}
          value={rtt ?? 30}
          disabled={rtt === null}
          onChange={setRtt}
          testId="rtt"
        />
        {scenario && (
          <p className="scenario-note">
            {scenario.hosts.reduce((n, h) => n + h.flows.length, 0)} flow(s) · {scenario.hosts[0]?.flows[0]?.algorithm ?? '?'} ·{' '}
            {scenario.bottleneck.rate_bps / 1e6} Mb/s bottleneck · MTU {scenario.mtu_bytes} · {scenario.duration_ms / 1000} s · seed{' '}
            {scenario.seed}
          </p>
        )}
        {urlErrors.map((e) => (
          <p key={e} className="field-error" role="alert">
            {e}
          </p>
        ))}
      </section>

      {state === 'error' && error && <ErrorPanel error={error} />}

      <SummaryPanel summary={snap.summary} running={state === 'running'} progress={snap.progress} />

      <section className="charts">
        <LineChart
          testId="chart-cwnd"
          title="Congestion window"
          yLabel="cwnd (packets)"
          x={series?.t ?? empty}
          lines={cwndLines}
          xDomain={xDomain}
        />
        <LineChart
          testId="chart-throughput"
          title="Throughput"
          yLabel="throughput (Mb/s)"
          x={series?.t ?? empty}
          lines={tputLines}
          xDomain={xDomain}
          yFactor={1e-6}
        />
      </section>
    </div>
  );
}
