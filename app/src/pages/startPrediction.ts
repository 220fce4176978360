// Predict, then run, on the lab page's Start-here path (issue 24): before
// its one thing to try (switching the flow from Standard TCP to Scalable
// TCP), the student predicts how often Scalable TCP's window will be cut
// compared with Standard TCP's in the same scenario; once both runs are
// on the page, the verdict and one sentence with the two counts. Plain
// functions; StartPrediction.tsx draws them. The prediction is kept in the
// page and its link (`pred=more`), never sent anywhere.

import type { RunSummary, Scenario } from '../engine/types';
import { canonicalJson } from '../share/urlCodec';
import { parsePrediction, predictionNotice, SKIP } from '../share/prediction';

export type StartChoice = 'more' | 'same' | 'fewer';

export const START_CHOICES: readonly { id: StartChoice; label: string }[] = [
  { id: 'more', label: 'More often' },
  { id: 'same', label: 'About as often' },
  { id: 'fewer', label: 'Less often' },
];

/** The algorithm the path starts from and the one it tries. */
export const START_FROM = { id: 'reno', name: 'Standard TCP' } as const;
export const START_TO = { id: 'scalable', name: 'Scalable TCP' } as const;

/** Counts within this fraction of each other (or one cut apart) are "about as often". */
export const SAME_TOLERANCE = 0.25;

export type StartPrediction = { kind: 'none' } | { kind: 'skipped' } | { kind: 'committed'; choice: StartChoice };

export const NO_START_PREDICTION: StartPrediction = { kind: 'none' };

/** The Start-here prediction in a lab-page link; whatever is not one of its answers is ignored with a notice. */
export function startPredictionFromLink(text: string | null): { prediction: StartPrediction; notice: string | null } {
  if (text === null) return { prediction: NO_START_PREDICTION, notice: null };
  const parsed = parsePrediction(text);
  if (!parsed.ok) return { prediction: NO_START_PREDICTION, notice: predictionNotice(text, parsed.reason) };
  const { choice, sketch } = parsed.value;
  if (sketch) return { prediction: NO_START_PREDICTION, notice: predictionNotice(text, 'the lab page’s prediction has no sketch') };
  if (choice === SKIP) return { prediction: { kind: 'skipped' }, notice: null };
  if (!START_CHOICES.some((c) => c.id === choice)) return { prediction: NO_START_PREDICTION, notice: predictionNotice(text, `“${choice.slice(0, 40)}” is not one of the answers (more, same, fewer, skip)`) };
  return { prediction: { kind: 'committed', choice: choice as StartChoice }, notice: null };
}

/** The link's value of a Start-here prediction, or null when none was made. */
export function startPredictionText(p: StartPrediction): string | null {
  return p.kind === 'none' ? null : p.kind === 'skipped' ? SKIP : p.choice;
}

/**
 * How often flow 0's window was cut in a run: each fast recovery, each
 * timeout and each local congestion event (the interface queue refusing a
 * segment) cuts it once.
 */
export function windowCuts(summary: RunSummary, flow = 0): number | null {
  const f = summary.flows[flow];
  if (!f) return null;
  return Number(f.fast_retransmits) + Number(f.timeouts) + Number(f.local_congestion_events);
}

/**
 * What two runs must share for their counts to be compared: the whole
 * scenario but the one flow's algorithm (and its parameters). Null for a
 * scenario with other than one flow.
 */
export function comparisonKey(s: Scenario): string | null {
  if (s.hosts.length !== 1 || s.hosts[0].flows.length !== 1) return null;
  const flow = { ...s.hosts[0].flows[0], algorithm: '*', params: {} };
  return canonicalJson({ ...s, hosts: [{ ...s.hosts[0], flows: [flow] }] });
}

/** The algorithm of the scenario's one flow, or null. */
export function onlyAlgorithm(s: Scenario): string | null {
  return s.hosts.length === 1 && s.hosts[0].flows.length === 1 ? s.hosts[0].flows[0].algorithm : null;
}

/** The scenario with its one flow switched to `algorithm` (its parameters to the algorithm's defaults). */
export function withAlgorithm(s: Scenario, algorithm: string): Scenario {
  return { ...s, hosts: s.hosts.map((h, hi) => (hi === 0 ? { ...h, flows: h.flows.map((f, fi) => (fi === 0 ? { ...f, algorithm, params: {} } : f)) } : h)) };
}

/** More, about as many, or fewer cuts with the tried algorithm (`to`) than with the first (`from`). */
export function cutsTrend(from: number, to: number): StartChoice {
  const diff = to - from;
  if (Math.abs(diff) <= Math.max(1, SAME_TOLERANCE * Math.max(from, to))) return 'same';
  return diff > 0 ? 'more' : 'fewer';
}

const times = (n: number) => `${n} time${n === 1 ? '' : 's'}`;
const seconds = (s: number) => `${Number(s.toPrecision(3))} s`;
const WORDS: Record<StartChoice, string> = { more: 'more often', same: 'about as often', fewer: 'less often' };

export interface StartVerdict {
  status: 'right' | 'wrong';
  answer: StartChoice;
  sentence: string;
}

/** The verdict on a committed choice, from the two runs' counts, in one sentence. */
export function startVerdict(choice: StartChoice, fromCuts: number, toCuts: number, durationS: number): StartVerdict {
  const answer = cutsTrend(fromCuts, toCuts);
  const facts = `in ${seconds(durationS)}, ${START_TO.name}’s window was cut ${times(toCuts)}, ${START_FROM.name}’s ${times(fromCuts)}`;
  if (choice === answer) return { status: 'right', answer, sentence: `Right: ${facts}.` };
  return { status: 'wrong', answer, sentence: `You expected ${START_TO.name}’s window to be cut ${WORDS[choice]}; ${facts}: ${WORDS[answer]}.` };
}
