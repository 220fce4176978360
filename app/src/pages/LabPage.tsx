// The lab page: the scenario builder beside live, linked charts, the
// playback bar, the summary and the explainer. It owns the run lifecycle
// (a scenario change starts a run at once, cancelling the stale one), the
// playback clock, the linked x view and hover cursor, and publishes what is
// on screen to the test hooks.

import { useCallback, useDeferredValue, useEffect, useLayoutEffect, useMemo, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import type { RunView } from '../charts/chartModel';
import { MARKER_KINDS, markerPath, type MarkerKind } from '../charts/markers';
import { flowColor } from '../charts/palette';
import { AutoRun } from '../lab/autoRun';
import { QueueExplainer } from '../ui/QueueExplainer';
import { buildChartSpecs, CHART_IDS, ColumnSum, MovingAverage, type ChartSpec } from '../charts/specs';
import { TimeChart, type RenderMode } from '../charts/TimeChart';
import { clampDomain, isFullView, type Domain } from '../charts/timeLink';
import type { EngineError } from '../engine/errors';
import type { RunDebug, TraceRead } from '../engine/protocol';
import type { RunSeries } from '../engine/columns';
import type { AlgorithmInfo, AqmInfo, ProfileCatalogue, Scenario, ValidationError } from '../engine/types';
import { ErrorPanel } from '../ui/ErrorPanel';
import { RunGate } from '../ui/RunGate';
import { Explainer } from '../ui/Explainer';
import { FieldErrorsContext } from '../ui/FieldErrors';
import { PlaybackBar } from '../ui/PlaybackBar';
import { ScenarioBuilder } from '../ui/ScenarioBuilder';
import { SummaryTable } from '../ui/SummaryTable';
import { Tip } from '../ui/Tip';
import type { LabStore } from '../lab/labStore';
import * as pb from '../lab/playback';
import { isSettled, type RunPublisher, type RunSnapshot, type RunState, type RunStore } from '../lab/runStore';
import { flatFlows } from '../lab/topology';
import { firstOf, LEGEND_FLOWS_MAX } from '../lab/manyFlows';
import { PathView } from '../path/PathView';

export interface LabPageProps {
  lab: LabStore;
  store: RunStore;
  catalogue: AlgorithmInfo[];
  /** The testbed profiles (engine catalogue). */
  profiles?: ProfileCatalogue;
  /** The queue disciplines (engine AQM catalogue). */
  aqms?: AqmInfo[];
  rendered: RunPublisher;
  /** Debug switch for the first run (?debug=trap). */
  debugFirstRun?: RunDebug;
  renderMode?: RenderMode;
  /** Chart ids to show (cwnd, outstanding, throughput, queues); null: all. */
  visibleCharts?: string[] | null;
  /** Control ids to show; null: all. */
  visibleControls?: string[] | null;
  /** Hide the scenario builder (embed views). */
  hideBuilder?: boolean;
  /** The engine's reading of a Mahimahi trace file (the bottleneck's trace control). */
  readTrace?: (text: string, name: string) => Promise<TraceRead>;
  /** Extra content above the charts (URL notices) and below the summary (sharing). */
  notices?: ReactNode;
  footer?: ReactNode;
  /** share: plot height of each chart (embed mode fits the charts to the frame); default 190. */
  chartHeight?: number;
  /** share: play each run from 0 s as it comes (?autoplay=1), at `playbackSpeed` (?speed=). */
  autoplay?: boolean;
  playbackSpeed?: number;
  /** Show the path view (the lab page; fitted views only with `charts=path`). Default true. */
  showPath?: boolean;
  /** The path view is a cell of the charts' grid, scaled to fit it (fitted views with `charts=path`). */
  pathInGrid?: boolean;
  /** Rendered inside each chart's figure (text summary, data table). */
  renderChartExtra?: (id: string, chart: { spec: ChartSpec; x: Float64Array; count: number }) => ReactNode;
}

/**
 * The run snapshot, rendered at most once per animation frame while a run
 * streams (the worker may post chunks faster than the page can draw); the
 * end and failure of a run render at once.
 */
function useFrameSnapshot(store: RunStore): RunSnapshot {
  const [snap, setSnap] = useState(store.getSnapshot);
  useEffect(() => {
    let raf = 0;
    let timer: ReturnType<typeof setTimeout> | 0 = 0;
    let last = 0;
    const flush = () => {
      raf = 0;
      last = performance.now();
      setSnap(store.getSnapshot());
    };
    const cancel = () => {
      if (raf) cancelAnimationFrame(raf);
      if (timer) clearTimeout(timer);
      raf = 0;
      timer = 0;
    };
    const unsubscribe = store.subscribe(() => {
      const s = store.getSnapshot();
      // The end of a run (done, error) shows at once. Its start waits for
      // its first samples (usually a few ms: a slider change then paints
      // once, with the new run; without samples within START_WAIT_MS the
      // start shows alone), and its chunks show at the next frame, then at
      // most every STREAM_FRAME_MS so the page leaves the CPU to the engine.
      if (s.state !== 'running' || typeof requestAnimationFrame === 'undefined') {
        cancel();
        last = 0;
        setSnap(s);
        return;
      }
      const started = s.series !== null && s.series.length > 0;
      if (!started) {
        cancel();
        last = 0;
        timer = setTimeout(() => {
          timer = 0;
          raf = requestAnimationFrame(flush);
        }, START_WAIT_MS);
        return;
      }
      if (raf) return;
      if (timer && last === 0) {
        // The first samples of a run: paint them at the next frame.
        clearTimeout(timer);
        timer = 0;
      }
      if (timer) return;
      const wait = last ? STREAM_FRAME_MS - (performance.now() - last) : 0;
      if (wait > 0)
        timer = setTimeout(() => {
          timer = 0;
          raf = requestAnimationFrame(flush);
        }, wait);
      else raf = requestAnimationFrame(flush);
    });
    setSnap(store.getSnapshot());
    return () => {
      unsubscribe();
      cancel();
    };
  }, [store]);
  return snap;
}

/** Least time between two renders of a streaming run (a 2-core machine shares its CPU with the engine). */
const STREAM_FRAME_MS = 50;
/** How long the start of a run waits for its first samples before it is shown alone. */
const START_WAIT_MS = 100;


/** Averaging windows of the throughput chart (the engine samples every 10 ms by default). */
const THROUGHPUT_AVERAGES = [
  { ms: 0, label: 'raw', id: 'raw' },
  { ms: 100, label: '100 ms', id: '100ms' },
  { ms: 1000, label: '1 s', id: '1s' },
];

const BASE_LANES: MarkerKind[] = ['network_loss', 'local_congestion', 'fast_retransmit', 'timeout'];

export function LabPage(props: LabPageProps) {
  const { lab, store, catalogue, rendered } = props;
  const state = useSyncExternalStore(lab.subscribe, lab.getSnapshot);
  const snap = useFrameSnapshot(store);
  const scenario = state.scenario;

  // ---- runs: a scenario change starts a run at once (the store cancels the stale one)
  const [playback, setPlayback] = useState<pb.Playback>(() => ({
    ...pb.INITIAL_PLAYBACK,
    status: props.autoplay ? 'playing' : pb.INITIAL_PLAYBACK.status,
    speed: pb.clampSpeed(props.playbackSpeed ?? pb.INITIAL_PLAYBACK.speed),
  }));
  const autoplay = useRef(props.autoplay);
  autoplay.current = props.autoplay;
  // The AutoRun starts a run on every scenario change; the page only restarts its playback clock.
  const autoRun = useMemo(() => new AutoRun(lab, store), [lab, store]);
  const firstDebug = useRef(props.debugFirstRun);
  useEffect(
    () => autoRun.attach(() => setPlayback((p) => (autoplay.current ? pb.restart(p) : pb.onNewRun(p))), firstDebug.current),
    [autoRun],
  );

  const runScenario = snap.scenario ?? scenario;
  const duration = runScenario.duration_ms / 1000;
  const series = snap.series;
  const frontier = series && series.length > 0 ? series.t[series.length - 1] : 0;
  const computed: pb.Computed = useMemo(
    () => ({ frontier: snap.state === 'done' ? Math.max(frontier, duration) : frontier, duration, done: snap.state === 'done' }),
    [frontier, duration, snap.state],
  );
  const computedRef = useRef(computed);
  computedRef.current = computed;
  const tShown = pb.shownTime(playback, computed);

  // ---- playback clock
  useEffect(() => {
    if (playback.status !== 'playing') return;
    let raf = 0;
    let last = performance.now();
    const loop = (now: number) => {
      const dt = now - last;
      last = now;
      setPlayback((p) => pb.tick(p, dt, computedRef.current));
      raf = requestAnimationFrame(loop);
    };
    raf = requestAnimationFrame(loop);
    return () => cancelAnimationFrame(raf);
  }, [playback.status]);

  // ---- linked x view and hover
  const bounds = useMemo<Domain>(() => [0, duration], [duration]);
  const [viewDomain, setViewDomain] = useState<Domain | null>(null);
  const minSpan = Math.max(runScenario.sample_interval_ms / 1000 * 4, duration / 10000);
  const view = useMemo<Domain>(() => (viewDomain ? clampDomain(viewDomain, bounds, minSpan) : bounds), [viewDomain, bounds, minSpan]);
  const [hoverT, setHoverT] = useState<number | null>(null);
  const onView = useCallback((d: Domain) => setViewDomain(d), []);
  const onHover = useCallback((t: number | null) => setHoverT(t), []);

  // ---- chart specs for the current run and the ghost
  const [showGhost, setShowGhost] = useState(true);
  const sum = useRef(new ColumnSum());
  const ghostSum = useRef(new ColumnSum());
  const averages = useRef<MovingAverage[]>([]);
  const ghostAverages = useRef<MovingAverage[]>([]);
  const capacityAverage = useRef(new MovingAverage());
  const ghostCapacityAverage = useRef(new MovingAverage());
  const cwndUnit = state.view.cwndUnit;
  const avgMs = state.view.throughputAverageMs;
  /** The flows' throughput averaged over avgMs (the raw samples when that is one sample), their sum, and a trace-driven link's capacity averaged alike. */
  const throughputOf = (key: unknown, s: RunSeries, sc: Scenario, avg: MovingAverage[], total: ColumnSum, capAvg: MovingAverage) => {
    const window = Math.max(1, Math.round(avgMs / sc.sample_interval_ms));
    const cols = s.flows.map((f, i) => (window > 1 ? (avg[i] ??= new MovingAverage()).get(`${String(key)}|${window}`, f.throughput_bps, s.length, window) : f.throughput_bps));
    const cap = s.link_capacity_bps;
    const linkCapacity = cap.length === s.length && window > 1 ? capAvg.get(`${String(key)}|${window}`, cap, s.length, window) : null;
    return { cols, sum: s.flows.length > 1 ? total.get(`${String(key)}|${window}`, cols, s.length) : null, linkCapacity };
  };
  const specs = useMemo<ChartSpec[] | null>(() => {
    if (!series || !snap.scenario) return null;
    const t = throughputOf(snap.runId, series, snap.scenario, averages.current, sum.current, capacityAverage.current);
    return buildChartSpecs(series, snap.scenario, { cwndUnit, sumThroughput: t.sum, throughput: t.cols, throughputAverageMs: avgMs, linkCapacity: t.linkCapacity });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [series, snap.scenario, snap.runId, cwndUnit, avgMs]);
  const ghost = showGhost ? snap.ghost : null;
  const ghostSpecs = useMemo<ChartSpec[] | null>(() => {
    if (!ghost) return null;
    const t = throughputOf(ghost.runId, ghost.series, ghost.scenario, ghostAverages.current, ghostSum.current, ghostCapacityAverage.current);
    return buildChartSpecs(ghost.series, ghost.scenario, { cwndUnit, sumThroughput: t.sum, throughput: t.cols, throughputAverageMs: avgMs, linkCapacity: t.linkCapacity });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ghost, cwndUnit, avgMs]);

  // Stable per-chart views (memoised charts re-render only when their run changes).
  const runViews = useMemo<(RunView | null)[]>(
    () => (specs && series ? specs.map((spec) => ({ spec, x: series.t, computed: series.length })) : [null, null, null, null]),
    [specs, series],
  );
  const ghostViews = useMemo<(RunView | null)[]>(
    () => (ghostSpecs && ghost ? ghostSpecs.map((spec) => ({ spec, x: ghost.series.t, computed: ghost.series.length })) : [null, null, null, null]),
    [ghostSpecs, ghost],
  );

  // Content rendered inside each chart (text alternatives, tables): rebuilt
  // when the run changes, not on every playback frame.
  // Deferred: React renders them after the charts, in the background.
  const renderExtra = props.renderChartExtra;
  const extraViews = useDeferredValue(runViews);
  const extras = useMemo(
    () => CHART_IDS.map((id, i) => (renderExtra && extraViews[i] ? renderExtra(id, { spec: extraViews[i]!.spec, x: extraViews[i]!.x, count: extraViews[i]!.computed }) : null)),
    [renderExtra, extraViews],
  );

  // Charts draw on canvas while a run streams or plays back and switch to SVG
  // at rest; the switch after a run ends is deferred (React renders it after
  // the final frame has painted), and the page reports the run done with it.
  const streaming = snap.state === 'running';
  const streamingDeferred = useDeferredValue(streaming);
  const animating = streaming || streamingDeferred || playback.status === 'playing';
  const ecn = runScenario.bottleneck.aqm.kind === 'red' && runScenario.bottleneck.aqm.ecn;
  const lanes = useMemo<MarkerKind[]>(() => (ecn ? [...BASE_LANES, 'ecn_mark'] : BASE_LANES), [ecn]);

  // ---- errors: field errors next to their controls, all of them in the panel
  const runState: RunState = snap.state;
  const error: EngineError | null = snap.error;
  const fieldErrors = useMemo<readonly ValidationError[]>(() => (error?.kind === 'validation' ? error.errors : []), [error]);

  // A new run is reported running at once (its first frame may wait for its
  // first samples), so nobody waiting on the page sees the previous run as
  // the current one.
  useEffect(
    () =>
      store.subscribe(() => {
        const s = store.getSnapshot();
        if (s.state === 'running' && document.documentElement.dataset.runState !== 'running') {
          document.documentElement.dataset.runState = 'running';
          rendered.publish(s, 'running', null);
        }
      }),
    [store, rendered],
  );

  // ---- what is on screen, for the page contract and the test hooks: a run
  // is reported done once its charts are drawn at rest.
  const shownState: RunState = runState === 'done' && streamingDeferred ? 'running' : runState;
  useLayoutEffect(() => {
    document.documentElement.dataset.runState = shownState;
    rendered.publish(snap, shownState, error);
  }, [snap, shownState, error, rendered]);

  // Escape stops a running run (unless something else, an open tip, used the key).
  // The listener stays on and asks the store, so an Escape pressed just after a
  // run starts, before the page has drawn it as running, still stops it.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && !e.defaultPrevented) store.stop();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [store]);

  // Set once the first run is on screen (later work, such as typesetting, waits for it).
  const [firstDone, setFirstDone] = useState(false);
  useEffect(() => {
    if (!firstDone && isSettled(runState)) setFirstDone(true);
  }, [firstDone, runState]);

  const flows = flatFlows(scenario);
  const legendFlows = firstOf(flows, LEGEND_FLOWS_MAX);
  const selected = Math.min(state.view.selectedFlow, flows.length - 1);
  const info = catalogue.find((a) => a.id === flows[selected]?.flow.algorithm) ?? null;
  const chartShown = (id: string) => !props.visibleCharts || props.visibleCharts.includes(id);
  const stepS = pb.stepSize(view[1] - view[0], runScenario.sample_interval_ms / 1000);
  const onStep = useCallback((dir: 1 | -1) => setPlayback((p) => pb.step(p, computedRef.current, dir * stepS)), [stepS]);

  const pathView = (fit: boolean) => (
    <PathView
      series={series}
      scenario={runScenario}
      events={snap.events}
      runId={snap.runId}
      t={tShown}
      playing={playback.status === 'playing'}
      streaming={streaming}
      speed={playback.speed}
      catalogue={catalogue}
      profiles={props.profiles}
      onStep={onStep}
      fit={fit}
    />
  );

  return (
    <FieldErrorsContext.Provider value={fieldErrors}>
      <div className={`lab${props.hideBuilder ? ' no-builder' : ''}`} data-testid="lab">
        {!props.hideBuilder && (
          <aside className="lab-builder" aria-label="Scenario">
            <h2 className="section-title">Scenario</h2>
            <ScenarioBuilder lab={lab} state={state} catalogue={catalogue} profiles={props.profiles} aqms={props.aqms} visibleControls={props.visibleControls} readTrace={props.readTrace} />
          </aside>
        )}
        <main className="lab-results" aria-label="Results">
          {props.notices}
          {runState === 'error' && error && <ErrorPanel error={error} scenario={state.scenario} estimate={snap.estimate} />}
          <RunGate
            snap={snap}
            eventsPerSecond={store.speed.eventsPerSecond()}
            measured={store.speed.measured()}
            onStart={() => store.confirm()}
            onResume={() => snap.scenario && store.start(snap.scenario, { confirmed: true })}
          />
          <PlaybackBar
            playback={playback}
            tShown={tShown}
            duration={duration}
            frontier={computed.frontier}
            runState={runState}
            progress={snap.progress}
            wallMs={snap.wallMs}
            timeLeftMs={snap.timeLeftMs}
            onStop={() => store.stop()}
            onPlay={() => setPlayback((p) => pb.play(p, computedRef.current))}
            onPause={() => setPlayback((p) => pb.pause(p, computedRef.current))}
            onStep={onStep}
            onRestart={() => setPlayback((p) => pb.restart(p))}
            onLive={() => setPlayback((p) => pb.goLive(p))}
            onSpeed={(v) => setPlayback((p) => pb.setSpeed(p, v))}
            onScrub={(t) => setPlayback((p) => pb.scrub(p, computedRef.current, t))}
          />
          <div className="chart-legend" data-testid="chart-legend">
            <span className="legend-group" aria-label="Flows">
              {legendFlows.shown.map((f) => (
                <span key={f.global} className="legend-item">
                  <span className="swatch" style={{ background: flowColor(f.global) }} />
                  flow {f.global} · {catalogue.find((a) => a.id === f.flow.algorithm)?.name ?? f.flow.algorithm}
                </span>
              ))}
              {legendFlows.more > 0 && <span className="legend-item legend-more">and {legendFlows.more} more flows</span>}
            </span>
            <span className="legend-group" aria-label="Event markers">
              {MARKER_KINDS.filter((m) => lanes.includes(m.kind)).map((m) => (
                <span key={m.kind} className="legend-item" data-marker={m.kind}>
                  <svg width="12" height="12" aria-hidden="true">
                    <path d={markerPath(m.shape, 4.5)} transform="translate(6,6)" fill="var(--ink-soft)" />
                  </svg>
                  {m.label}
                </span>
              ))}
            </span>
            <span className="legend-group controls-inline">
              <label className="check">
                <input type="checkbox" checked={showGhost} onChange={(e) => setShowGhost(e.currentTarget.checked)} data-testid="show-ghost" />
                previous run (faint)
              </label>
              <span className="seg-toggle" role="radiogroup" aria-label="cwnd unit" data-control-id="cwnd-unit">
                {(['packets', 'bytes'] as const).map((u) => (
                  <label key={u} className={cwndUnit === u ? 'on' : ''}>
                    <input type="radio" name="cwnd-unit" value={u} checked={cwndUnit === u} onChange={() => lab.setView({ cwndUnit: u })} data-testid={`cwnd-unit-${u}`} />
                    cwnd in {u}
                  </label>
                ))}
              </span>
              <span className="seg-toggle" role="radiogroup" aria-label="Throughput averaged over" data-control-id="throughput-average">
                {THROUGHPUT_AVERAGES.map((a) => (
                  <label key={a.ms} className={avgMs === a.ms ? 'on' : ''} title={`Throughput averaged over ${a.label}`}>
                    <input type="radio" name="tput-avg" value={a.id} checked={avgMs === a.ms} onChange={() => lab.setView({ throughputAverageMs: a.ms })} data-testid={`throughput-average-${a.id}`} />
                    {a.label}
                  </label>
                ))}
              </span>
              <button type="button" className="small" disabled={isFullView(view, bounds)} onClick={() => setViewDomain(null)} data-testid="reset-zoom">
                Reset zoom
              </button>
              <Tip text="Drag across any chart to zoom all of them to that time range; double-click to reset. Hover (or focus a chart and use the arrow keys) to read values on every chart at once." label="the charts" question="How to read the charts" />
            </span>
          </div>
          {props.showPath !== false && !props.pathInGrid && pathView(false)}
          <div className="charts" id="lab-charts" tabIndex={-1} aria-label="Charts" data-testid="charts" data-x-view={JSON.stringify(view)}>
            {props.showPath !== false && props.pathInGrid && pathView(true)}
            {CHART_IDS.map((id, i) => {
              if (!chartShown(id)) return null;
              const spec = specs?.[i] ?? ghostSpecs?.[i] ?? null;
              if (!spec) return <ChartPlaceholder key={id} id={id} />;
              const run = runViews[i];
              const gv = ghostViews[i];
              return (
                <TimeChart
                  key={id}
                  spec={spec}
                  run={run}
                  ghost={gv}
                  runId={snap.runId}
                  events={snap.events}
                  laneKinds={lanes}
                  view={view}
                  bounds={bounds}
                  minSpan={minSpan}
                  tShown={tShown}
                  animating={animating}
                  renderMode={props.renderMode ?? 'auto'}
                  hoverT={hoverT}
                  onHover={onHover}
                  onView={onView}
                  height={props.chartHeight}
                >
                  {extras[i]}
                </TimeChart>
              );
            })}
          </div>
          <SummaryTable summary={snap.summary} running={runState === 'running'} />
          <Explainer info={info} flow={selected} ready={firstDone} />
          {props.aqms && <QueueExplainer aqm={scenario.bottleneck.aqm} aqms={props.aqms} />}
          {props.footer}
        </main>
      </div>
    </FieldErrorsContext.Provider>
  );
}

const TITLES: Record<string, string> = { cwnd: 'Congestion window', outstanding: 'Outstanding data (tcptrace)', throughput: 'Throughput', queues: 'Queues', delay: 'Round-trip time and queueing delay' };

function ChartPlaceholder({ id }: { id: string }) {
  return (
    <figure className="chart placeholder" data-testid={`chart-${id}`} data-series-ids="[]" data-point-counts="{}">
      <figcaption>
        <span className="chart-title">
          {TITLES[id]}
          {id === 'outstanding' && <Tip id="tcptrace" />}
        </span>
      </figcaption>
      <div className="chart-empty">Waiting for the engine…</div>
    </figure>
  );
}
