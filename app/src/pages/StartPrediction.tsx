// The Start-here path's prediction step (issue 24): before trying Scalable
// TCP, the student commits how often its window will be cut compared with
// Standard TCP's (or skips, explicitly); one button then makes the switch,
// and once both runs have been on the page the verdict says what happened.
// The prediction is kept in the page and in its link (`pred=`), never sent
// anywhere. The logic is startPrediction.ts's.

import { useEffect, useId, useRef, useState, useSyncExternalStore } from 'react';
import type { LabStore } from '../lab/labStore';
import type { RunStore } from '../lab/runStore';
import { searchWithPrediction } from '../share/prediction';
import {
  comparisonKey,
  NO_START_PREDICTION,
  onlyAlgorithm,
  START_CHOICES,
  START_FROM,
  START_TO,
  startPredictionText,
  startVerdict,
  windowCuts,
  withAlgorithm,
  type StartChoice,
  type StartPrediction as Prediction,
} from './startPrediction';

interface Counted {
  cuts: number;
  durationS: number;
}

export interface StartPredictionProps {
  lab: LabStore;
  store: RunStore;
  /** The prediction the link carried (already checked: App.tsx noted a malformed one). */
  initial: Prediction;
}

export function StartPrediction({ lab, store, initial }: StartPredictionProps) {
  const uid = useId();
  const [prediction, setPrediction] = useState<Prediction>(initial);
  const [draft, setDraft] = useState<StartChoice | null>(initial.kind === 'committed' ? initial.choice : null);
  const state = useSyncExternalStore(lab.subscribe, lab.getSnapshot);
  const snap = useSyncExternalStore(store.subscribe, store.getSnapshot);
  // Window cuts of each finished one-flow run, by the scenario it shares with its counterpart and its algorithm.
  const [counts, setCounts] = useState<ReadonlyMap<string, Counted>>(() => new Map());
  useEffect(() => {
    if (snap.state !== 'done' || !snap.summary || !snap.scenario) return;
    const key = comparisonKey(snap.scenario);
    const alg = onlyAlgorithm(snap.scenario);
    const cuts = windowCuts(snap.summary);
    if (key === null || alg === null || cuts === null) return;
    const id = `${key}|${alg}`;
    const durationS = snap.scenario.duration_ms / 1000;
    setCounts((m) => (m.get(id)?.cuts === cuts ? m : new Map(m).set(id, { cuts, durationS })));
  }, [snap.state, snap.summary, snap.scenario]);

  // The address bar carries the prediction (useUrlSync keeps `pred=` when the scenario changes).
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const u = window.location;
    const next = `${u.pathname}${searchWithPrediction(u.search, startPredictionText(prediction))}${u.hash}`;
    if (next !== `${u.pathname}${u.search}${u.hash}`) window.history.replaceState(window.history.state, '', next);
  }, [prediction]);

  const scenario = state.scenario;
  const alg = onlyAlgorithm(scenario);
  const key = comparisonKey(scenario);
  const from = key !== null ? counts.get(`${key}|${START_FROM.id}`) : undefined;
  const to = key !== null ? counts.get(`${key}|${START_TO.id}`) : undefined;
  const onScreen = snap.state === 'done' && snap.scenario !== null && comparisonKey(snap.scenario) === key;
  const question = `Predict first: if this flow ran ${START_TO.name} instead of ${START_FROM.name}, how often would its window be cut in these ${Number((scenario.duration_ms / 1000).toPrecision(3))} s?`;

  const switchTo = (id: string) => lab.update((s) => withAlgorithm(s, id));
  const switchButton =
    alg === START_FROM.id ? (
      <button type="button" className="primary" onClick={() => switchTo(START_TO.id)} data-testid="start-prediction-switch" data-to={START_TO.id}>
        Switch the flow to {START_TO.name}
      </button>
    ) : alg === START_TO.id && !from ? (
      <button type="button" onClick={() => switchTo(START_FROM.id)} data-testid="start-prediction-switch" data-to={START_FROM.id}>
        Run it with {START_FROM.name} too, to compare
      </button>
    ) : null;

  if (prediction.kind === 'none')
    return (
      <div className="start-predict" data-testid="start-prediction" data-state="open">
        <fieldset>
          <legend>{question}</legend>
          {START_CHOICES.map((c) => (
            <label key={c.id} className={draft === c.id ? 'on' : undefined}>
              <input type="radio" name={`${uid}-choice`} value={c.id} checked={draft === c.id} onChange={() => setDraft(c.id)} data-testid={`start-prediction-choice-${c.id}`} />
              {c.label}
            </label>
          ))}
        </fieldset>
        <div className="start-predict-buttons">
          <button type="button" className="primary" disabled={draft === null} onClick={() => draft && setPrediction({ kind: 'committed', choice: draft })} data-testid="start-prediction-commit">
            Commit my prediction
          </button>
          <button type="button" onClick={() => setPrediction({ kind: 'skipped' })} data-testid="start-prediction-skip">
            Skip predicting
          </button>
        </div>
      </div>
    );

  const verdict = prediction.kind === 'committed' && from && to && onScreen ? startVerdict(prediction.choice, from.cuts, to.cuts, to.durationS) : null;
  return (
    <div className="start-predict" data-testid="start-prediction" data-state={prediction.kind} data-choice={prediction.kind === 'committed' ? prediction.choice : 'skip'}>
      <p data-testid="start-prediction-committed">
        {prediction.kind === 'committed' ? (
          <>
            You predicted that {START_TO.name}’s window would be cut <strong>{START_CHOICES.find((c) => c.id === prediction.choice)!.label.toLowerCase()}</strong> than{' '}
            {START_FROM.name}’s.
          </>
        ) : (
          <>You chose not to predict.</>
        )}{' '}
        <button
          type="button"
          className="link"
          onClick={() => {
            setPrediction(NO_START_PREDICTION);
          }}
          data-testid="start-prediction-change"
        >
          Change
        </button>
      </p>
      {verdict ? (
        <p className={`start-predict-verdict ${verdict.status}`} data-testid="start-prediction-verdict" data-verdict={verdict.status} data-answer={verdict.answer} role="status">
          <strong>{verdict.status === 'right' ? '✓' : '✗'}</strong> {verdict.sentence} Look at the congestion window chart: each cut is a tooth of the saw.
        </p>
      ) : (
        <p className="start-predict-buttons">
          {switchButton}
          {!switchButton && alg !== START_FROM.id && alg !== START_TO.id && <span className="muted">The comparison is for one flow running {START_FROM.name}, then {START_TO.name}.</span>}
        </p>
      )}
    </div>
  );
}

/** The lab page's Start-here prediction (none, skipped or committed) as passed to StartPrediction. */
export type { Prediction as StartPredictionState };
