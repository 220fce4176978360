// Predict, then run (issue 24), in a guided lab: the panel that asks the
// lab's question before its first run (a choice, an optional sketch on the
// first result chart, an optional note in the student's own words), the
// prediction kept in the page and in its link (`pred=`, never sent
// anywhere), and, once results are in, the verdict beside them with a
// one-line explanation of the difference. The question and the verdict are
// prediction.ts's; the link's text is share/prediction.ts's.

import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { encodePrediction, predictionParam, searchWithPrediction, type SketchLink } from '../share/prediction';
import { Notices } from '../share/Notices';
import {
  initialSketch,
  moveSketchPoint,
  NO_PREDICTION,
  predictionFromLink,
  predictionLink,
  scoreChoice,
  scoreSketch,
  type LabQuestion,
  type Prediction,
} from './prediction';
import type { SweepSnapshot } from './sweepStore';

/** What the student is choosing before committing. */
export interface PredictionDraft {
  choice: string | null;
  sketch: SketchLink | null;
}

function currentSearch(): string {
  return typeof window === 'undefined' ? '' : window.location.search;
}

/** The address with `pred=` set to this prediction (or removed), the rest of the link as it is. */
export function linkWith(p: Prediction): string {
  if (typeof window === 'undefined') return '';
  const link = predictionLink(p);
  const u = window.location;
  return `${u.pathname}${searchWithPrediction(u.search, link ? encodePrediction(link) : null)}${u.hash}`;
}

/**
 * The lab's prediction: read from the link when the lab opens (a value that
 * does not fit the lab's question is ignored with a notice), and written
 * back to the address bar (no history entry, no reload) whenever it changes,
 * so that the address is the share link.
 */
export function usePrediction(q: LabQuestion): { prediction: Prediction; notice: string | null; setPrediction(p: Prediction): void } {
  const [start] = useState(() => predictionFromLink(q, predictionParam(currentSearch())));
  const [prediction, setPrediction] = useState<Prediction>(start.prediction);
  const first = useRef(true);
  useEffect(() => {
    // The link it was opened with stays as it was (a malformed value too) until the student acts.
    if (first.current) {
      first.current = false;
      return;
    }
    const next = linkWith(prediction);
    if (next !== `${window.location.pathname}${window.location.search}${window.location.hash}`) window.history.replaceState(window.history.state, '', next);
  }, [prediction]);
  return { prediction, notice: start.notice, setPrediction };
}

export interface PredictionPanelProps {
  q: LabQuestion;
  prediction: Prediction;
  draft: PredictionDraft;
  /** The sketch's y-axis top before any run. */
  sketchTop: number;
  anyResults: boolean;
  notice: string | null;
  /** The result chart's title, for the sketch's instructions. */
  chartTitle: string;
  note: string;
  onNote(text: string): void;
  onDraft(d: PredictionDraft): void;
  onPrediction(p: Prediction): void;
  /** Move focus to the sketch's first point (after it appears). */
  onSketchStarted(): void;
}

export function PredictionPanel(p: PredictionPanelProps) {
  const { q, prediction, draft, anyResults } = p;
  const uid = useId();
  const defaultLine = q.line?.id ?? q.lines[0]?.id ?? '';
  const [sketchLine, setSketchLine] = useState(draft.sketch?.line ?? defaultLine);
  const choiceLabel = (id: string) => q.choices.find((c) => c.id === id)?.label ?? id;
  const lineLabel = (id: string) => q.lines.find((l) => l.id === id)?.label ?? id;
  const note = (
    <label className="prediction-note">
      In your own words <span className="muted">(optional; kept in this browser tab only)</span>
      <textarea value={p.note} onChange={(e) => p.onNote(e.target.value)} rows={2} data-testid="lab-prediction" />
    </label>
  );
  const notices = p.notice ? <Notices notices={[p.notice]} /> : null;

  if (prediction.kind !== 'none') {
    const sketch = prediction.kind === 'committed' ? prediction.sketch : null;
    return (
      <div className="prediction" data-testid="prediction-panel" data-state={prediction.kind} data-choice={prediction.kind === 'committed' ? prediction.choice : 'skip'}>
        {notices}
        <p className="prediction-question">{q.text}</p>
        <p className="prediction-committed" data-testid="prediction-committed">
          {prediction.kind === 'committed' ? (
            <>
              Your prediction: <strong>{choiceLabel(prediction.choice)}</strong>
              {sketch ? `, with a sketch of ${lineLabel(sketch.line)} on “${p.chartTitle}”.` : '.'}
            </>
          ) : (
            <>You chose not to predict this time.</>
          )}
        </p>
        {note}
        <div className="prediction-buttons">
          <button type="button" onClick={() => p.onPrediction(NO_PREDICTION)} disabled={anyResults} data-testid="prediction-change" title={anyResults ? 'Clear the results first: a prediction is made before the runs.' : undefined}>
            Change my prediction
          </button>
          <a href={linkWith(prediction)} className="prediction-link" data-testid="prediction-link">
            Link to this lab with {prediction.kind === 'committed' ? 'your prediction' : 'the prediction skipped'}
          </a>
        </div>
        <p className="hint">Your prediction is kept in this page and its link; it is never sent anywhere.</p>
      </div>
    );
  }

  if (anyResults)
    return (
      <div className="prediction" data-testid="prediction-panel" data-state="late">
        {notices}
        <p className="prediction-question">{q.text}</p>
        <p className="hint">The results are already on the charts. Clear them (beside Run) to predict before you run again.</p>
        {note}
      </div>
    );

  const startSketch = () => {
    p.onDraft({ ...draft, sketch: initialSketch(q, sketchLine, p.sketchTop) });
    p.onSketchStarted();
  };
  const commit = () => {
    if (draft.choice === null) return;
    p.onPrediction({ kind: 'committed', choice: draft.choice, sketch: draft.sketch });
  };

  return (
    <div className="prediction" data-testid="prediction-panel" data-state="open">
      {notices}
      <fieldset className="prediction-choices" data-testid="prediction-choices" data-kind={q.kind}>
        <legend>{q.text}</legend>
        {q.choices.map((c) => (
          <label key={c.id} className={draft.choice === c.id ? 'on' : undefined}>
            <input type="radio" name={`${uid}-choice`} value={c.id} checked={draft.choice === c.id} onChange={() => p.onDraft({ ...draft, choice: c.id })} data-testid={`prediction-choice-${c.id}`} />
            {c.label}
          </label>
        ))}
      </fieldset>
      <div className="prediction-sketch-controls">
        <label>
          Sketch (optional):{' '}
          <select
            value={sketchLine}
            onChange={(e) => {
              const line = e.target.value;
              setSketchLine(line);
              if (draft.sketch) p.onDraft({ ...draft, sketch: { ...draft.sketch, line } });
            }}
            data-testid="prediction-sketch-line"
          >
            {q.lines.map((l) => (
              <option key={l.id} value={l.id}>
                {l.label}
              </option>
            ))}
          </select>
        </label>{' '}
        {draft.sketch ? (
          <>
            <button type="button" onClick={p.onSketchStarted} data-testid="prediction-sketch-edit">
              Edit on the chart
            </button>{' '}
            <button type="button" onClick={() => p.onDraft({ ...draft, sketch: null })} data-testid="prediction-sketch-remove">
              Remove the sketch
            </button>
            <span className="hint sketch-help"> On “{p.chartTitle}”, drag the points, or use ↑ ↓ to move a point and ← → to choose one.</span>
          </>
        ) : (
          <button type="button" onClick={startSketch} data-testid="prediction-sketch-start">
            Draw it on the first chart
          </button>
        )}
      </div>
      {note}
      <div className="prediction-buttons">
        <button type="button" className="primary" onClick={commit} disabled={draft.choice === null} data-testid="prediction-commit">
          Commit my prediction
        </button>
        <button type="button" onClick={() => p.onPrediction({ kind: 'skipped' })} data-testid="prediction-skip">
          Skip predicting
        </button>
      </div>
      <p className="hint">Commit (or skip) before you run. Your prediction is kept in this page and its link; it is never sent anywhere.</p>
    </div>
  );
}

export interface PredictionVerdictProps {
  q: LabQuestion;
  prediction: Prediction;
  snap: Pick<SweepSnapshot, 'aggregates' | 'points' | 'state'>;
}

/** Once results are in: the prediction beside them, right or wrong, and what the simulation gave instead. */
export function PredictionVerdict({ q, prediction, snap }: PredictionVerdictProps) {
  const settled = snap.state === 'done';
  const choice = useMemo(
    () => (prediction.kind === 'committed' ? scoreChoice(q, prediction.choice, snap.aggregates, snap.points, settled) : null),
    [q, prediction, snap.aggregates, snap.points, settled],
  );
  const sketch = useMemo(
    () => (prediction.kind === 'committed' && prediction.sketch ? scoreSketch(q, prediction.sketch, snap.aggregates, snap.points, settled) : null),
    [q, prediction, snap.aggregates, snap.points, settled],
  );
  if (prediction.kind === 'none') return null;
  if (prediction.kind === 'skipped')
    return (
      <div className="prediction-verdict skipped" data-testid="prediction-verdict" data-verdict="skipped">
        <p>You ran this lab without a prediction. Next time, predict first: what you expected is what the results teach you.</p>
      </div>
    );
  const c = choice!;
  const label = q.choices.find((x) => x.id === prediction.choice)?.label ?? prediction.choice;
  const mark = c.status === 'right' ? '✓ Right' : c.status === 'wrong' ? '✗ Not what the simulation shows' : c.status === 'pending' ? 'Waiting for the runs' : 'Cannot be judged';
  return (
    <div className={`prediction-verdict ${c.status}`} data-testid="prediction-verdict" data-verdict={c.status} data-choice={prediction.choice} data-answers={JSON.stringify(c.answers)} role="status" aria-live="polite">
      <p className="prediction-verdict-head">
        <strong className="verdict-mark">{mark}</strong> · you predicted <strong>{label}</strong>
      </p>
      <p className="prediction-sentence" data-testid="prediction-sentence">
        {c.sentence}
      </p>
      {sketch && (
        <p className="prediction-sentence" data-testid="prediction-sketch-verdict" data-status={sketch.status} data-close={sketch.close} data-total={sketch.total}>
          {sketch.sentence} <span className="muted">(dashed on the chart)</span>
        </p>
      )}
    </div>
  );
}

/** Focus the first point of the sketch on chart `chartId` once it is drawn. */
export function useFocusSketch(chartId: string): () => void {
  const [ask, setAsk] = useState(0);
  useEffect(() => {
    if (!ask) return;
    const id = requestAnimationFrame(() => {
      const el = document.querySelector<SVGElement>(`[data-testid="lab-chart-${chartId}"] [data-testid="prediction-sketch"] .sketch-point[tabindex="0"]`);
      el?.focus();
    });
    return () => cancelAnimationFrame(id);
  }, [ask, chartId]);
  return useCallback(() => setAsk((n) => n + 1), []);
}

/** Move point i of a draft's sketch (keeping it within what the metric can reach). */
export function moveDraftPoint(draft: PredictionDraft, q: LabQuestion, i: number, value: number): PredictionDraft {
  return draft.sketch ? { ...draft, sketch: moveSketchPoint(draft.sketch, i, value, q.metric) } : draft;
}
