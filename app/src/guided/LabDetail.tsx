// One guided lab: the guide (question, prediction, control), the sweep
// (run, progress and time left, cancel), the results as the paper drew
// them with what they show (sentences checked against the runs), the
// paper's values beside the simulation, what the paper found and why, and
// where the simulator's model differs from the testbed.

import { memo, useCallback, useContext, useEffect, useLayoutEffect, useMemo, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import type { Lab, PaperFile } from '../engine/generated/labs';
import type { Scenario } from '../engine/types';
import { chartScreenId } from '../present/labScreens';
import { LabStepperContext } from '../present/LabStepper';
import { Tip } from '../ui/Tip';
import { fullCite, paperOf, shortCite, sourceCite } from './cite';
import { drillHref } from './drill';
import { glossarySegments } from './glossaryLinks';
import { labHref, type LabsEnv } from './env';
import { predictionParam, searchWithPrediction } from '../share/prediction';
import { chartPlan, drawsPaperValues, runCount, showsGain, showsRanking } from './presentation';
import { formatEta, sweepProgress } from './progress';
import type { PointDebug } from './protocol';
import { labQuestion, predictionForScaleLink, sketchAxisTop, type Prediction } from './prediction';
import { moveDraftPoint, PredictionPanel, PredictionVerdict, useFocusSketch, usePrediction, type PredictionDraft } from './PredictionPanel';
import type { ChartSketch } from './ResultChart';
import { AblationPanel as AblationPanelView } from './AblationPanel';
import { ResultChart as ResultChartView } from './ResultChart';
import { SimClaims as SimClaimsView } from './SimClaims';
import { SweepStore, type SweepSnapshot } from './sweepStore';
import { OpenResults } from './OpenResults';
import { importedText } from './openResults';
import { CodeText } from '../ui/CodeText';
import { BandControl, useBandStore } from './UnknownBand';
import * as tables from './tables';
import { FindingBadge, FlaggedPoints, NoCongestionNote, PointErrors } from './tables';
import { setLabHookSource, type LabHookSnapshot } from './testHooks';

// The sweep store tells the page of progress several times a second; these
// are drawn again only when what they show changes (the engine's
// aggregates and comparisons, every 500 ms at most), not with each point:
// the page's thread shares the cores with the pool's workers (issue 12).
const ResultChart = memo(ResultChartView);
const SimClaims = memo(SimClaimsView);
const AblationPanel = memo(AblationPanelView);
const FidelityNote = memo(tables.FidelityNote);
const PaperTable = memo(tables.PaperTable);
const RankingTable = memo(tables.RankingTable);
const GainTable = memo(tables.GainTable);

export interface LabDetailProps {
  lab: Lab;
  labs: Lab[];
  paper: PaperFile;
  quick: boolean;
  env: LabsEnv;
  defaults: Scenario;
  debug: ReadonlyMap<number, PointDebug>;
}

/** Guide text with the glossary's terms linked (first mention in the paragraph); drawn again only when the text changes. */
export const GlossaryText = memo(function GlossaryText({ text }: { text: string }): ReactNode {
  return glossarySegments(text).map((s, i) =>
    s.term ? (
      <span key={i} className="glossary-term">
        {s.text}
        <Tip id={s.term} />
      </span>
    ) : (
      <span key={i}>{s.text}</span>
    ),
  );
});

function hookSnapshot(s: SweepSnapshot, env: LabsEnv): LabHookSnapshot {
  return {
    id: s.lab.id,
    number: s.lab.number,
    quick: s.quick,
    state: s.state,
    total: s.points.length,
    completed: s.pointStates.filter((p) => p.status === 'done').length,
    failed: s.pointStates.filter((p) => p.status === 'error').length,
    workers: env.pool.size,
    poolGeneration: env.pool.generation,
    points: s.points.map((p, index) => ({
      index,
      series: p.series,
      x: p.x,
      seed: p.seed,
      status: s.pointStates[index].status,
      result: s.pointStates[index].result,
      error: s.pointStates[index].error,
      scenario: p.scenario,
    })),
    comparisons: s.comparisons,
    ranking: s.ranking,
    findings: s.findings,
    imported: s.imported ? { ...s.imported, series: [...s.imported.series] } : null,
  };
}

/** The student's prediction in their own words: kept in this browser tab only (sessionStorage), not in the link. */
function useNote(labId: string): [string, (v: string) => void] {
  const key = `sawtooth.labs.prediction:${labId}`;
  const [text, setText] = useState(() => {
    try {
      return sessionStorage.getItem(key) ?? '';
    } catch {
      return '';
    }
  });
  const set = (v: string) => {
    setText(v);
    try {
      sessionStorage.setItem(key, v);
    } catch {
      // not kept
    }
  };
  return [text, set];
}

function storage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

export function LabDetail({ lab, labs, paper, quick, env, defaults, debug }: LabDetailProps) {
  // A store per mount (StrictMode mounts twice in development).
  const [store, setStore] = useState<SweepStore | null>(null);
  useEffect(() => {
    const hasFindings = paper.findings.some((f) => f.lab === lab.id);
    const s = new SweepStore(lab, quick, { service: env.service, pool: env.pool, now: () => performance.now(), storage: storage(), debug, hasFindings, ahead: env.ahead });
    setStore(s);
    void s.load();
    env.pool.warm();
    return () => s.dispose();
  }, [lab, quick, env, debug, paper]);
  if (!store) return <section className="labs" data-testid="guided-lab" data-lab-id={lab.id} data-lab-state="loading" />;
  return <LabBody store={store} lab={lab} labs={labs} paper={paper} quick={quick} env={env} defaults={defaults} />;
}

/**
 * The sweep's progress bar and status line, with the clock for the time
 * left: its ticks draw only this, not the charts and tables around it (the
 * page's thread shares the cores with the pool's workers).
 */
function SweepStatus({ snap, lab, quick, workers }: { snap: SweepSnapshot; lab: Lab; quick: boolean; workers: number }) {
  const running = snap.state === 'running';
  const [now, setNow] = useState(() => performance.now());
  useEffect(() => {
    if (!running) return;
    const t = setInterval(() => setNow(performance.now()), 500);
    return () => clearInterval(t);
  }, [running]);
  const progress = sweepProgress(snap.pointStates, running ? Math.max(now, performance.now()) : now, workers);
  const anyResults = snap.results.some((r) => r !== null);
  const missing = snap.pointStates.filter((p) => p.status !== 'done').length;
  const total = snap.points.length || runCount(lab, quick);
  const simulatedS = snap.points.reduce((a, p) => a + p.scenario.duration_ms / 1000, 0);
  const wall = snap.startedAt !== null && snap.finishedAt !== null ? (snap.finishedAt - snap.startedAt) / 1000 : null;

  let status: string;
  switch (snap.state) {
    case 'loading':
      status = 'Preparing the sweep…';
      break;
    case 'running':
      status = `${progress.done} of ${progress.total} runs finished${progress.failed ? `, ${progress.failed} failed` : ''} · ${formatEta(progress.etaMs)}`;
      break;
    case 'done':
      status = snap.imported?.ahead
        ? `All ${progress.total} runs computed ahead by the CLI and shipped with the site.`
        : snap.imported
        ? `All ${progress.total} runs opened from ${snap.imported.file} (computed by the CLI).`
        : `All ${progress.total} runs finished${progress.failed ? ` (${progress.failed} failed)` : ''}${wall !== null ? ` in ${wall.toFixed(1)} s` : snap.restored ? ' (kept from earlier in this tab)' : ''}.`;
      break;
    case 'cancelled':
      status = `Cancelled: ${progress.done} of ${progress.total} runs finished. Run again to do the remaining ${missing}.`;
      break;
    case 'error':
      status = snap.message ?? 'The sweep failed.';
      break;
    default:
      status = anyResults ? `${progress.done} of ${progress.total} runs finished; ${missing} to go.` : `${total} runs, ${Math.round(simulatedS)} s of simulated time, on ${workers} worker${workers === 1 ? '' : 's'}.`;
  }

  return (
    <>
      <progress
        className="lab-progress"
        max={1}
        value={snap.state === 'done' ? 1 : progress.fraction}
        aria-label="Sweep progress"
        aria-valuetext={status}
        data-testid="lab-progress"
        data-completed={progress.done}
        data-total={progress.total}
        data-eta-ms={progress.etaMs === null ? '' : Math.round(progress.etaMs)}
      />
      <p className="lab-status" role="status" aria-live="polite" data-testid="lab-status">
        {status}
      </p>
    </>
  );
}

function LabBody({ store, lab, labs, paper, quick, env, defaults }: Omit<LabDetailProps, 'debug'> & { store: SweepStore }) {
  const snap = useSyncExternalStore(store.subscribe, store.getSnapshot);
  const running = snap.state === 'running';
  const runButton = useRef<HTMLButtonElement>(null);
  const cancelButton = useRef<HTMLButtonElement>(null);
  const clearButton = useRef<HTMLButtonElement>(null);
  // The button a keyboard user pressed becomes disabled as the sweep starts
  // or ends: focus moves to the one that now acts (Cancel while it runs,
  // then Run, or Clear when nothing is left to run) instead of the page.
  const wasRunning = useRef(running);
  useEffect(() => {
    if (wasRunning.current === running) return;
    wasRunning.current = running;
    const from = running ? runButton.current : cancelButton.current;
    const lost = document.activeElement === from || document.activeElement === document.body;
    if (!lost) return;
    const to = running ? cancelButton.current : runButton.current && !runButton.current.disabled ? runButton.current : clearButton.current;
    to?.focus();
  }, [running]);

  // What the page shows, for window.sawtooth.lab() (published after render).
  const latest = useRef(snap);
  useLayoutEffect(() => {
    latest.current = snap;
  });
  useEffect(() => {
    setLabHookSource(() => hookSnapshot(latest.current, env));
    return () => setLabHookSource(null);
  }, [env]);


  const plan = useMemo(() => chartPlan(lab), [lab]);
  // Presentation mode: each chart on a screen of its own (present/LabStepper.tsx).
  const stepper = useContext(LabStepperContext);
  const { setCharts } = stepper;
  useEffect(() => {
    setCharts(plan.map((p) => ({ id: p.id, title: p.title })));
    return () => setCharts([]);
  }, [plan, setCharts]);
  const labPaper = useMemo(() => paper.values.filter((v) => v.lab === lab.id), [paper, lab]);
  const findings = useMemo(() => paper.findings.filter((c) => c.lab === lab.id), [paper, lab]);
  const parameters = useMemo(() => paper.parameters.filter((c) => c.lab === lab.id), [paper, lab]);
  const href = typeof window !== 'undefined' ? window.location.href : 'http://localhost/';
  const drill = useMemo(() => {
    const cache = new Map<number, string>();
    return (i: number) => {
      let h = cache.get(i);
      if (h === undefined) {
        const p = snap.points[i];
        h = p ? drillHref(href, p.scenario, defaults) : '#';
        cache.set(i, h);
      }
      return h;
    };
  }, [snap.points, href, defaults]);

  const [note, setNote] = useNote(lab.id);
  // Predict, then run: the lab's question, the committed prediction (in the link) and the draft being made.
  const question = useMemo(() => labQuestion(lab, quick), [lab, quick]);
  const sketchTop = useMemo(() => sketchAxisTop(lab, question.metric, quick), [lab, question.metric, quick]);
  const { prediction, notice: predictionNotice, setPrediction } = usePrediction(question);
  // The other scale asks the same question: a committed prediction goes with the student.
  const scaleHref = (q: boolean) => searchWithPrediction(labHref(lab.id, q), predictionForScaleLink(prediction, predictionParam(window.location.search)));
  const [draft, setDraft] = useState<PredictionDraft>(() =>
    prediction.kind === 'committed' ? { choice: prediction.choice, sketch: prediction.sketch } : { choice: null, sketch: null },
  );
  const choosePrediction = useCallback(
    (p: Prediction) => {
      // Changing a committed prediction starts from what it was.
      if (p.kind === 'none' && prediction.kind === 'committed') setDraft({ choice: prediction.choice, sketch: prediction.sketch });
      setPrediction(p);
    },
    [prediction, setPrediction],
  );
  const focusSketch = useFocusSketch(question.chartId);
  const moveSketch = useCallback((i: number, value: number) => setDraft((d) => moveDraftPoint(d, question, i, value)), [question]);
  const [ablationRunning, setAblationRunning] = useState(false);
  // The band of the stated unknowns (labs that state some), run on request on the same workers.
  const band = useBandStore(lab, quick, env);
  const bandRunning = band.snap.state === 'running';
  const [foundOpen, setFoundOpen] = useState(false);
  useEffect(() => {
    if (snap.state === 'done') setFoundOpen(true);
  }, [snap.state]);

  const anyResults = snap.results.some((r) => r !== null);
  const missing = snap.pointStates.filter((p) => p.status !== 'done').length;
  const undecided = prediction.kind === 'none' && !anyResults;
  const sketchSource = prediction.kind === 'committed' ? prediction.sketch : prediction.kind === 'none' && !anyResults ? draft.sketch : null;
  const chartSketch = useMemo<ChartSketch | null>(
    () =>
      sketchSource
        ? {
            line: sketchSource.line,
            xs: question.xs,
            values: sketchSource.values,
            yAtLeast: anyResults ? undefined : sketchTop,
            onMove: prediction.kind === 'none' ? moveSketch : undefined,
          }
        : null,
    [sketchSource, question.xs, anyResults, sketchTop, prediction.kind, moveSketch],
  );
  const idx = labs.findIndex((l) => l.id === lab.id);
  const prev = idx > 0 ? labs[idx - 1] : null;
  const next = idx >= 0 && idx < labs.length - 1 ? labs[idx + 1] : null;

  return (
    <section className="labs lab-detail" data-testid="guided-lab" data-lab-id={lab.id} data-lab-state={snap.state} data-quick={quick ? '1' : '0'} aria-labelledby="lab-title">
      <nav className="lab-crumbs" aria-label="Guided labs">
        <a href="?view=labs">All labs</a>
        {prev && <a href={labHref(prev.id, quick)}>← Lab {prev.number}</a>}
        {next && <a href={labHref(next.id, quick)}>Lab {next.number} →</a>}
      </nav>
      <header className="lab-head">
        <h2 id="lab-title">
          <span className="lab-number">Lab {lab.number}</span> {lab.title}
        </h2>
        <p className="lab-summary">{lab.summary}</p>
        <p className="lab-sources">
          From{' '}
          {lab.sources.map((s, i) => {
            const p = paperOf(paper, s.seed);
            return (
              <span key={`${s.seed}-${i}`}>
                {i > 0 ? '; ' : ''}
                {p ? <cite title={p.note ?? undefined}>{fullCite(p)}</cite> : shortCite(paper, s.seed)}, {s.refs}
              </span>
            );
          })}
          .
        </p>
      </header>

      <div className="lab-top">
        <section className="lab-guide" aria-labelledby="guide-q">
          <h3 id="guide-q">The question</h3>
          <p>
            <GlossaryText text={lab.guide.question} />
          </p>
          <h3>Predict before you run</h3>
          <p>
            <GlossaryText text={lab.guide.predict} />
          </p>
          <PredictionPanel
            q={question}
            prediction={prediction}
            draft={draft}
            sketchTop={sketchTop}
            anyResults={anyResults}
            notice={predictionNotice}
            chartTitle={plan[0]?.title ?? ''}
            note={note}
            onNote={setNote}
            onDraft={setDraft}
            onPrediction={choosePrediction}
            onSketchStarted={focusSketch}
          />
          <h3>The control</h3>
          <p>
            <GlossaryText text={lab.guide.control} />
          </p>
        </section>

        <section className="lab-run" aria-labelledby="run-title">
          <h3 id="run-title">Run the sweep</h3>
          <fieldset className="lab-scale">
            <legend>Scale</legend>
            <a href={scaleHref(true)} aria-current={quick ? 'true' : undefined} className={quick ? 'on' : ''}>
              Quick: {runCount(lab, true)} runs
            </a>
            <a href={scaleHref(false)} aria-current={!quick ? 'true' : undefined} className={!quick ? 'on' : ''}>
              Faithful: {runCount(lab, false)} runs, computed ahead
            </a>
          </fieldset>
          <p className="hint">
            {quick
              ? `${lab.quick.note} The faithful scale’s results are computed ahead and shown at once there.`
              : 'The paper’s durations, values and repetitions, computed ahead by the CLI and shown at once; running them again here can take a long time in a browser.'}
          </p>
          <div className="lab-buttons">
            <button
              type="button"
              className="primary"
              onClick={() => {
                // Running before predicting is a choice the button names: it skips the prediction.
                if (undecided) setPrediction({ kind: 'skipped' });
                store.run();
              }}
              disabled={running || ablationRunning || bandRunning || snap.state === 'loading' || (missing === 0 && snap.points.length > 0)}
              data-testid="lab-run"
              ref={runButton}
            >
              {running ? 'Running…' : anyResults && missing > 0 ? `Run the remaining ${missing}` : undecided ? 'Run without predicting' : 'Run the sweep'}
            </button>
            <button type="button" onClick={() => store.cancel()} disabled={!running} data-testid="lab-cancel" ref={cancelButton}>
              Cancel
            </button>
            <button type="button" onClick={() => store.clear()} disabled={running || !anyResults} data-testid="lab-clear" ref={clearButton}>
              Clear results
            </button>
          </div>
          <SweepStatus snap={snap} lab={lab} quick={quick} workers={env.pool.size} />
          <p className="hint">
            {env.pool.size} worker{env.pool.size === 1 ? '' : 's'} (one per core){snap.restored && snap.state !== 'running' ? ' · results kept from earlier in this tab' : ''}. Click any
            point to open that run in the lab page.
          </p>
          <OpenResults
            store={store}
            lab={lab}
            quick={quick}
            blocked={
              running
                ? 'A sweep is running here: wait for it or cancel it to open a file.'
                : ablationRunning || bandRunning
                  ? 'Waits for the ablation or the band to finish.'
                  : snap.state === 'loading'
                    ? 'Preparing the sweep…'
                    : null
            }
          />
          <PointErrors lab={lab} points={snap.points} states={snap.pointStates} />
          <FlaggedPoints lab={lab} points={snap.points} states={snap.pointStates} drillHref={drill} />
        </section>
      </div>

      <section className="lab-results" aria-labelledby="results-title">
        <h3 id="results-title">Results</h3>
        {!anyResults && (
          <p className="muted">
            The charts fill in point by point as the runs finish.
            {drawsPaperValues(lab, labPaper) ? ' The paper’s values are already drawn (diamonds and lines in the series’ colours).' : ' The paper’s values for this lab are differences or rankings; they are in the table below, not on the charts.'}
          </p>
        )}
        {anyResults && snap.imported?.ahead && (
          <div className="imported-note" data-testid="imported-note" data-file={snap.imported.file} data-runs={snap.imported.runs} data-ahead="true" data-stamp={snap.imported.stamp}>
            <p>
              <strong>Computed ahead.</strong> <CodeText text={importedText(snap.imported)} />. They were not run in this page.
            </p>
            <button
              type="button"
              data-testid="ahead-rerun"
              disabled={snap.state === 'running' || ablationRunning || bandRunning}
              onClick={() => {
                store.clear();
                store.run();
              }}
            >
              Run them again here
            </button>
          </div>
        )}
        {anyResults && snap.imported && !snap.imported.ahead && (
          <p className="imported-note" data-testid="imported-note" data-file={snap.imported.file} data-runs={snap.imported.runs} data-ahead="false" data-stamp={snap.imported.stamp}>
            Results opened from a file: <CodeText text={importedText(snap.imported)} />. They were not run in this page; Clear results forgets them.
          </p>
        )}
        {snap.aheadProblem && (
          <p className="field-error" role="status" data-testid="ahead-problem">
            The faithful results computed ahead are not shown: {snap.aheadProblem.kind === 'fetch' ? `they could not be fetched (${snap.aheadProblem.reason})` : snap.aheadProblem.reason}. Run the sweep here instead.
          </p>
        )}
        {anyResults && <PredictionVerdict q={question} prediction={prediction} snap={snap} />}
        {band.store && (
          <BandControl
            lab={lab}
            quick={quick}
            store={band.store}
            snap={band.snap}
            points={snap.points.length}
            anyResults={anyResults}
            blocked={running ? 'Waits for the lab’s sweep to finish (they share the workers).' : ablationRunning ? 'Waits for the ablation to finish (they share the workers).' : null}
          />
        )}
        <div className="lab-charts">
          {plan.map((p, i) => (
            <div key={p.id} className={i === 0 ? 'lab-chart-cell primary' : 'lab-chart-cell'} data-on-screen={stepper.step === chartScreenId(i, p.id) ? '' : undefined}>
              <ResultChart
                lab={lab}
                plan={p}
                points={snap.points}
                aggregates={snap.aggregates}
                paper={labPaper}
                papers={paper.papers}
                drillHref={drill}
                height={i === 0 ? 300 : 230}
                band={band.chart}
                sketch={p.id === question.chartId ? chartSketch : null}
              />
            </div>
          ))}
        </div>
        <SimClaims claims={snap.claims} />
        <NoCongestionNote lab={lab} results={snap.results} />
        <FidelityNote lab={lab} comparisons={snap.comparisons} findings={snap.findings} anyResults={anyResults} />
        {showsRanking(lab) && (
          <>
            <h4>Ranking</h4>
            <RankingTable lab={lab} ranking={snap.ranking} aggregates={snap.aggregates} paper={labPaper} />
          </>
        )}
        {showsGain(lab) && (
          <>
            <h4>Gain over Standard TCP</h4>
            <GainTable lab={lab} points={snap.points} aggregates={snap.aggregates} />
          </>
        )}
      </section>

      <section className="lab-paper" aria-labelledby="paper-title">
        <h3 id="paper-title">The paper beside the simulation</h3>
        <p className="hint">
          Every number below comes from the engine; none is tuned to match the paper. Where they differ, the list of model differences below is the first
          place to look.
        </p>
        <PaperTable lab={lab} comparisons={snap.comparisons} paper={labPaper} papers={paper.papers} anyResults={anyResults} running={running} />
        {parameters.length > 0 && (
          <p className="hint">
            Published settings used: {parameters.map((p) => `${p.name} = ${p.value} ${p.unit} (${p.condition}; ${sourceCite(paper, p.source)})`).join('; ')}.
          </p>
        )}
      </section>

      <AblationPanel lab={lab} quick={quick} env={env} paper={labPaper} sweepRunning={running || bandRunning} onRunningChange={setAblationRunning} />

      <section className="lab-findings">
        <details open={foundOpen} onToggle={(e) => setFoundOpen((e.target as HTMLDetailsElement).open)} data-testid="lab-findings">
          <summary>What the paper found, and why</summary>
          <h4>What the paper found</h4>
          <p>
            <GlossaryText text={lab.guide.paper_found} />
          </p>
          {findings.length > 0 && (
            <ul className="claims" data-testid="paper-findings">
              {findings.map((c) => {
                const outcome = snap.findings?.find((f) => f.id === c.id);
                return (
                  <li key={c.id} data-finding={c.id} data-status={outcome?.status ?? 'pending'}>
                    “{c.text}” <span className="muted small">({sourceCite(paper, c.source)})</span>{' '}
                    <FindingBadge status={outcome?.status ?? null} note={c.note ?? null} />
                  </li>
                );
              })}
            </ul>
          )}
          <h4>Why: the mechanism</h4>
          <p>
            <GlossaryText text={lab.guide.mechanism} />
          </p>
          {lab.guide.try_next.length > 0 && (
            <>
              <h4>Try next</h4>
              <ul>
                {lab.guide.try_next.map((t, i) => (
                  <li key={i}>
                    <GlossaryText text={t} />
                  </li>
                ))}
              </ul>
            </>
          )}
        </details>
      </section>

      <section className="lab-model" aria-labelledby="model-title">
        <h3 id="model-title">Where the simulator differs from the testbed</h3>
        <ul data-testid="model-differences">
          {lab.guide.model_differences.map((d, i) => (
            <li key={i}>{d}</li>
          ))}
        </ul>
      </section>
    </section>
  );
}
