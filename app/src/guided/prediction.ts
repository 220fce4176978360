// Predict, then run (issue 24): the question a guided lab asks before its
// first run, made from the lab's own definition (its first result chart's
// metric, lines and swept values: no lab has a hand-written quiz), the
// student's committed answer and optional sketch of one line, and, once the
// runs are in, the verdict and a one-line explanation of the difference,
// computed from the same seed aggregates the chart draws (chartData's
// placeAggregates). Plain functions; PredictionPanel.tsx draws them, the
// link's text is share/prediction.ts's.

import type { Axis, ChartMetric, Lab, SweepAggregates, SweepPoint, SweepValue } from '../engine/generated/labs';
import { encodePrediction, MAX_SKETCH_VALUE, parsePrediction, predictionNotice, SKIP, type PredictionLink, type SketchLink } from '../share/prediction';
import { lineDefs, placeAggregates, type AggPoint, type LineDef } from './chartData';
import { formatValue, formatX, isFraction, METRICS, withUnit, xKey } from './format';
import { chartPlan } from './presentation';

/** "Which line is highest at the largest swept value?" or "Does this line rise, fall or stay flat across the sweep?" */
export type QuestionKind = 'highest' | 'trend';
export type Trend = 'rise' | 'fall' | 'flat';

export interface Choice {
  id: string;
  label: string;
}

export interface LabQuestion {
  kind: QuestionKind;
  /** The result chart the question is about (the lab's first): `lab-chart-<chartId>`. */
  chartId: string;
  metric: ChartMetric;
  /** The lab's swept control. */
  axis: Axis;
  /** The chart's lines at this scale (the sketch may draw any of them). */
  lines: LineDef[];
  /** The swept values at this scale, in sweep order (one sketch point each). */
  xs: SweepValue[];
  /** `highest`: the swept value asked about (the lab's `predict_at` where it runs at this scale, else the last); `trend`: the first and that one. */
  from: SweepValue;
  at: SweepValue;
  /** `trend`: the line asked about; null for `highest`. */
  line: LineDef | null;
  text: string;
  choices: Choice[];
}

/** With more lines than this, the question asks for one line's trend instead of the highest line. */
export const MAX_HIGHEST_CHOICES = 6;
/** Lines within this fraction of the highest are level with it (either answer is right). */
export const LEVEL_TOLERANCE = 0.01;
/** A change smaller than this fraction of the first value is "about flat". */
export const TREND_TOLERANCE = 0.1;
/** A sketch point within this fraction of the simulated value is close. */
export const SKETCH_TOLERANCE = 0.1;

const pct = (f: number) => `${Math.round(f * 100)} %`;

/** How a sentence names a metric: the noun, and whether it takes "the". */
const NOUNS: Partial<Record<ChartMetric, [string, boolean]>> = {
  total_throughput_mbps: ['total throughput', true],
  group_throughput_mbps: ['throughput', true],
  flow_throughput_mbps: ['throughput', true],
  standard_throughput_mbps: ['throughput of the Standard TCP flows', true],
  standard_share: ['share of Standard TCP', true],
  jain_index: ['Jain’s fairness index', false],
  utilisation: ['utilisation', true],
  time_to_max_rate_s: ['time to reach the maximum rate', true],
  drops: ['number of packets dropped', true],
  local_congestion_events: ['number of local congestion events', true],
  congestion_event_rate: ['congestion events per delivered packet', false],
  mean_outstanding_kbytes: ['mean outstanding data', true],
  group_share: ['share of the throughput', true],
  probe_rtt_median_ms: ['median ping round trip', true],
  probe_rtt_p99_ms: ['99th-percentile ping round trip', true],
  mean_queue_delay_ms: ['mean queueing delay', true],
  mean_queue_pkts: ['mean bottleneck queue', true],
  group_queue_delay_ms: ['queueing delay of each flow’s packets', true],
  mean_captured_outstanding_kbytes: ['mean outstanding data seen by tcpdump', true],
  relative_fairness: ['relative fairness', false],
};

/** The metric as a noun ("total throughput"), and with its article ("the total throughput"). */
export function metricNoun(m: ChartMetric): { noun: string; phrase: string } {
  const known = NOUNS[m];
  if (known) return { noun: known[0], phrase: known[1] ? `the ${known[0]}` : known[0] };
  const label = METRICS[m]?.label ?? m;
  const noun = label.charAt(0).toLowerCase() + label.slice(1);
  return { noun, phrase: `the ${noun}` };
}

/** The series run at a scale, in the lab's order. */
export function scaleSeries(lab: Lab, quick: boolean): string[] {
  const only = quick ? lab.quick.series : null;
  return lab.series.filter((s) => !only || only.includes(s.id)).map((s) => s.id);
}

/** The swept values at a scale, in sweep order. */
export function scaleValues(lab: Lab, quick: boolean): SweepValue[] {
  return quick && lab.quick.values ? lab.quick.values : lab.sweep.values;
}

/** Choice labels: the lines' legend text, numbered where two would read the same. */
function choiceLabels(lines: readonly LineDef[]): Choice[] {
  const count = new Map<string, number>();
  for (const l of lines) count.set(l.label, (count.get(l.label) ?? 0) + 1);
  return lines.map((l) => ({ id: l.id, label: count.get(l.label)! > 1 && l.group !== null ? `${l.label} (flow ${l.group + 1})` : l.label }));
}

/** The line whose trend is asked: the first Standard TCP line (the baseline the labs compare with), else the first. */
function trendLine(lab: Lab, lines: readonly LineDef[]): LineDef {
  const standard = lines.find((l) => {
    const s = lab.series.find((x) => x.id === l.series);
    return s !== undefined && s.flows.every((f) => f.algorithm === 'reno');
  });
  return standard ?? lines[0];
}

/** A line's label inside a sentence: quoted when it is made of parts ("Standard vs Standard: client 1: Standard TCP"), whose colons would break the sentence. */
export function lineName(label: string): string {
  return label.includes(':') ? `“${label}”` : label;
}

export const TREND_CHOICES: readonly Choice[] = [
  { id: 'rise', label: 'Rise' },
  { id: 'fall', label: 'Fall' },
  { id: 'flat', label: 'Stay about flat' },
];

/**
 * The lab's question at a scale, from its first result chart: with two to
 * six lines, which is highest at the last swept value (the lines are the
 * choices); otherwise whether the baseline line rises, falls or stays about
 * flat from the first swept value to the last.
 */
export function labQuestion(lab: Lab, quick: boolean): LabQuestion {
  const plan = chartPlan(lab)[0];
  const metric = plan.metric;
  const run = scaleSeries(lab, quick).filter((s) => !plan.onlySeries || plan.onlySeries.includes(s));
  const lines = lineDefs(lab, metric, run);
  const xs = scaleValues(lab, quick);
  const from = xs[0] ?? null;
  // The lab may ask at another swept value than the last (its `predict_at`, where the paper's numbers part), if it runs at this scale.
  const asked = lab.guide.predict_at ?? null;
  const at = (asked !== null ? xs.find((x) => typeof x === 'number' && x === asked) : undefined) ?? xs[xs.length - 1] ?? null;
  const { noun, phrase } = metricNoun(metric);
  const axis = lab.sweep.axis;
  if (lines.length >= 2 && lines.length <= MAX_HIGHEST_CHOICES) {
    return {
      kind: 'highest',
      chartId: plan.id,
      metric,
      axis,
      lines,
      xs,
      from,
      at,
      line: null,
      text: `At ${formatX(axis, at)}, which will have the highest ${noun}?`,
      choices: choiceLabels(lines),
    };
  }
  const line = trendLine(lab, lines);
  return {
    kind: 'trend',
    chartId: plan.id,
    metric,
    axis,
    lines,
    xs,
    from,
    at,
    line,
    text: `From ${formatX(axis, from)} to ${formatX(axis, at)}, will ${phrase} of ${lineName(line.label)} rise, fall or stay about flat (within ±${pct(TREND_TOLERANCE)})?`,
    choices: [...TREND_CHOICES],
  };
}

// ------------------------------------------------------------------ what the student committed

export type Prediction = { kind: 'none' } | { kind: 'skipped' } | { kind: 'committed'; choice: string; sketch: SketchLink | null };

export const NO_PREDICTION: Prediction = { kind: 'none' };

/** The link's form of a prediction (null: none made yet, nothing in the link). */
export function predictionLink(p: Prediction): PredictionLink | null {
  if (p.kind === 'none') return null;
  if (p.kind === 'skipped') return { choice: SKIP, sketch: null };
  return { choice: p.choice, sketch: p.sketch };
}

/**
 * The `pred=` value a link to the lab's other scale carries: this
 * prediction's own, or, when it has no sketch here, the address's for the
 * same answer (its sketch was drawn at the other scale, which shows it
 * again); null when nothing is committed.
 */
export function predictionForScaleLink(p: Prediction, inAddress: string | null): string | null {
  if (p.kind !== 'committed') return null;
  // A sketch made here is this scale's own and goes as it is.
  const parsed = inAddress === null || p.sketch !== null ? null : parsePrediction(inAddress);
  if (parsed?.ok && parsed.value.choice === p.choice) return inAddress;
  return encodePrediction(predictionLink(p)!);
}

/** Largest value a sketch of `metric` may take (fractions and indices: 1). */
export function sketchMax(metric: ChartMetric): number {
  const unit = METRICS[metric]?.unit;
  return isFraction(unit) || unit === 'index' ? 1 : MAX_SKETCH_VALUE;
}

/**
 * Reads a `pred=` value against the lab's question: the choice must be one
 * of its answers (or `skip`), the sketch's line one of the chart's lines,
 * with one value per swept value, none above what the metric can reach.
 * Whatever does not fit is ignored with a notice.
 */
export function predictionFromLink(q: LabQuestion, text: string | null): { prediction: Prediction; notice: string | null } {
  if (text === null) return { prediction: NO_PREDICTION, notice: null };
  const parsed = parsePrediction(text);
  const no = (reason: string) => ({ prediction: NO_PREDICTION, notice: predictionNotice(text, reason) });
  if (!parsed.ok) return no(parsed.reason);
  const { choice, sketch } = parsed.value;
  if (choice === SKIP) return { prediction: { kind: 'skipped' }, notice: null };
  if (!q.choices.some((c) => c.id === choice)) return no(`“${choice.slice(0, 40)}” is not one of this lab’s answers (${q.choices.map((c) => (c.label === c.id ? c.id : `${c.id} for ${c.label}`)).join(', ')})`);
  if (sketch) {
    if (!q.lines.some((l) => l.id === sketch.line)) return no(`the sketch’s line “${sketch.line.slice(0, 40)}” is not on this lab’s first chart`);
    // A sketch drawn at the other scale (another number of swept values):
    // the answer still stands, the sketch does not fit this chart.
    if (sketch.values.length !== q.xs.length)
      return {
        prediction: { kind: 'committed', choice, sketch: null },
        notice: predictionNotice(text, `the sketch has ${sketch.values.length} values; this scale of the lab sweeps ${q.xs.length}, so only the answer is kept`),
      };
    const max = sketchMax(q.metric);
    if (sketch.values.some((v) => v > max)) return no(`a sketch value is above ${max}, the most ${metricNoun(q.metric).phrase} can be`);
  }
  return { prediction: { kind: 'committed', choice, sketch }, notice: null };
}

// ------------------------------------------------------------------ sketching

/**
 * The y-axis top a sketch starts on, before any run, in the metric's unit:
 * what the lab's own settings say the metric can reach (the bottleneck's
 * rate for a throughput, 1 for a fraction, the buffer for a queue, the
 * window for outstanding data, a few round trips for a delay, the run's
 * length for a time). The axis grows when a point is pushed past its top.
 */
export function sketchAxisTop(lab: Lab, metric: ChartMetric, quick: boolean): number {
  const info = METRICS[metric];
  const base = { ...(lab.base as Partial<Lab['base']>), ...(quick && lab.quick.set.duration_ms !== undefined ? { duration_ms: lab.quick.set.duration_ms } : {}) };
  const patches = [...(quick ? [lab.quick.set] : []), ...lab.series.map((s) => s.set)];
  const most = (field: 'bottleneck_rate_bps' | 'buffer_pkts' | 'window_bytes' | 'rtt_ms' | 'duration_ms', axis: Lab['sweep']['axis'] | null) => {
    const vals: number[] = [];
    const b =
      field === 'window_bytes'
        ? Math.max(0, ...(base.hosts ?? []).flatMap((h) => h.flows.map((f) => f.window_bytes)))
        : field === 'bottleneck_rate_bps'
          ? base.bottleneck?.rate_bps
          : field === 'buffer_pkts'
            ? base.bottleneck?.buffer_pkts
            : base[field];
    if (typeof b === 'number' && b > 0) vals.push(b);
    for (const p of patches) {
      const v = (p as Record<string, unknown>)[field];
      if (typeof v === 'number') vals.push(v);
    }
    if (axis && lab.sweep.axis === axis) for (const v of lab.sweep.values) if (typeof v === 'number') vals.push(v);
    return vals.length ? Math.max(...vals) : null;
  };
  let top: number | null = null;
  switch (info.unit) {
    case 'fraction':
    case 'index':
      top = 1;
      break;
    case 'Mb/s': {
      const r = most('bottleneck_rate_bps', 'bottleneck_rate_bps');
      top = r === null ? null : r / 1e6;
      break;
    }
    case 'ms': {
      const r = most('rtt_ms', 'rtt_ms');
      top = r === null ? null : 4 * r;
      break;
    }
    case 's': {
      const d = most('duration_ms', null);
      top = d === null ? null : d / 1000;
      break;
    }
    case 'kB': {
      const w = most('window_bytes', 'window_bytes');
      top = w === null ? null : w / 1000;
      break;
    }
    case 'packets':
      if (metric === 'mean_queue_pkts') top = most('buffer_pkts', 'buffer_pkts');
      break;
  }
  const floor = info.minTop ?? 1;
  return top !== null && Number.isFinite(top) && top > 0 ? Math.max(top, floor) : floor;
}

/** A sketch to start from: every point at half the axis. */
export function initialSketch(q: LabQuestion, line: string, top: number): SketchLink {
  const v = Number((top / 2).toPrecision(2));
  return { line, values: q.xs.map(() => v) };
}

/** The sketch with point `i` moved to `value` (kept between 0 and what the metric can reach). */
export function moveSketchPoint(sketch: SketchLink, i: number, value: number, metric: ChartMetric): SketchLink {
  if (i < 0 || i >= sketch.values.length || !Number.isFinite(value)) return sketch;
  const v = Math.min(sketchMax(metric), Math.max(0, Number(value.toPrecision(4))));
  return { ...sketch, values: sketch.values.map((old, j) => (j === i ? v : old)) };
}

/** One keyboard step of a sketch point on an axis reaching `top` (Page Up/Down: five). */
export function sketchStep(top: number): number {
  return top > 0 ? top / 20 : 0.05;
}

// ------------------------------------------------------------------ the verdict

export type VerdictStatus = 'right' | 'wrong' | 'pending' | 'unavailable';

export interface ChoiceVerdict {
  status: VerdictStatus;
  /** The right answers' ids (lines level with the highest, or the trend); [] until known. */
  answers: string[];
  sentence: string;
}

export interface SketchVerdict {
  status: 'scored' | 'pending' | 'unavailable';
  /** Points within SKETCH_TOLERANCE of the simulation, of those with a simulated value. */
  close: number;
  total: number;
  sentence: string;
}

interface LineValue {
  line: LineDef;
  /** The engine's mean over seeds; Infinity for a time never reached; null for none. */
  value: number | null;
  /** Every run of the line at this value has finished (or the sweep is over). */
  complete: boolean;
}

/**
 * The line's value at swept value `x`, from the aggregates the chart draws
 * (placeAggregates on the question's lines), and whether all its runs are in.
 */
function valueAt(q: LabQuestion, agg: readonly AggPoint[], points: readonly SweepPoint[], settled: boolean, line: LineDef, x: SweepValue): LineValue {
  const k = xKey(x);
  const a = agg.find((p) => p.line === line.id && p.xKey === k);
  const expected = points.filter((p) => p.series === line.series && xKey(p.x) === k).length;
  const finished = a ? a.runs.length : 0;
  const complete = settled || (expected > 0 && finished >= expected);
  let value: number | null = a ? a.mean : null;
  if (a && value === null && finished > 0 && q.metric === 'time_to_max_rate_s') value = Infinity;
  return { line, value, complete };
}

/** The question's lines' aggregates, placed as the chart places them. */
export function questionAggregates(q: LabQuestion, aggregates: SweepAggregates | null, points: readonly SweepPoint[]): AggPoint[] {
  return placeAggregates(aggregates, q.metric, q.lines, points);
}

function show(v: number, unit: string, withIts = true): string {
  if (v === Infinity) return 'never';
  return withIts ? withUnit(v, unit) : formatValue(v, unit);
}

function labelOf(q: LabQuestion, id: string): string {
  return q.choices.find((c) => c.id === id)?.label ?? q.lines.find((l) => l.id === id)?.label ?? id;
}

/** The relative change from a to b (Infinity for a rise from 0). */
function change(a: number, b: number): number {
  if (a === Infinity && b === Infinity) return 0;
  if (b === Infinity) return Infinity;
  if (a === Infinity) return -Infinity;
  if (a === 0) return b === 0 ? 0 : b > 0 ? Infinity : -Infinity;
  return (b - a) / Math.abs(a);
}

export function trendOf(a: number, b: number): Trend {
  const c = change(a, b);
  return c > TREND_TOLERANCE ? 'rise' : c < -TREND_TOLERANCE ? 'fall' : 'flat';
}

const TREND_VERB: Record<Trend, { does: string; to: string }> = {
  rise: { does: 'rises', to: 'rise' },
  fall: { does: 'falls', to: 'fall' },
  flat: { does: 'stays about flat', to: 'stay about flat' },
};

function changeText(a: number, b: number): string {
  const c = change(a, b);
  if (!Number.isFinite(c)) return '';
  const p = Math.round(c * 100);
  return ` (${p > 0 ? '+' : p < 0 ? '−' : '±'}${Math.abs(p)} %)`;
}

/**
 * The verdict on a committed choice: right or wrong against the simulated
 * values (the chart's aggregates), with one sentence saying what was
 * expected and what the simulation gave; pending until every run it needs
 * has finished (`settled`: the sweep is over, take what there is).
 */
export function scoreChoice(q: LabQuestion, choice: string, aggregates: SweepAggregates | null, points: readonly SweepPoint[], settled: boolean): ChoiceVerdict {
  const agg = questionAggregates(q, aggregates, points);
  const unit = METRICS[q.metric].unit;
  const axisText = (x: SweepValue) => formatX(q.axis, x);
  const { noun, phrase } = metricNoun(q.metric);
  if (q.kind === 'highest') {
    const vals = q.lines.map((l) => valueAt(q, agg, points, settled, l, q.at));
    if (vals.some((v) => !v.complete)) return { status: 'pending', answers: [], sentence: `Waiting for the runs at ${axisText(q.at)}.` };
    const known = vals.filter((v): v is LineValue & { value: number } => v.value !== null);
    if (known.length === 0) return { status: 'unavailable', answers: [], sentence: `The runs at ${axisText(q.at)} gave no ${noun} to compare.` };
    const sorted = [...known].sort((a, b) => b.value - a.value);
    const top = sorted[0];
    const level = (v: number) => (top.value === Infinity ? v === Infinity : v >= top.value - LEVEL_TOLERANCE * Math.abs(top.value));
    const leaders = sorted.filter((v) => level(v.value));
    const answers = leaders.map((v) => v.line.id);
    const mine = known.find((v) => v.line.id === choice);
    const where = axisText(q.at);
    const tol = pct(LEVEL_TOLERANCE);
    if (mine && answers.includes(choice)) {
      const others = leaders.filter((v) => v.line.id !== choice);
      if (mine === top && others.length === 0) {
        const next = sorted[1];
        return { status: 'right', answers, sentence: `Right: ${labelOf(q, choice)} has the highest ${noun} at ${where} (${show(mine.value, unit)}${next ? `; next, ${labelOf(q, next.line.id)} at ${show(next.value, unit)}` : ''}).` };
      }
      if (mine === top)
        return { status: 'right', answers, sentence: `Right: ${labelOf(q, choice)} has the highest ${noun} at ${where} (${show(mine.value, unit)}), level within ${tol} with ${others.map((o) => `${labelOf(q, o.line.id)} (${show(o.value, unit)})`).join(', ')}.` };
      return { status: 'right', answers, sentence: `Right: at ${where}, ${labelOf(q, choice)} (${show(mine.value, unit)}) is level within ${tol} with the highest, ${labelOf(q, top.line.id)} (${show(top.value, unit)}).` };
    }
    const yours = mine ? `${show(mine.value, unit, false)} vs ${show(top.value, unit)}` : `${labelOf(q, choice)} has no value there; the highest is ${show(top.value, unit)}`;
    return { status: 'wrong', answers, sentence: `You expected ${labelOf(q, choice)} highest; the simulation has ${labelOf(q, top.line.id)} highest at ${where} (${yours}).` };
  }
  const line = q.line!;
  const a = valueAt(q, agg, points, settled, line, q.from);
  const b = valueAt(q, agg, points, settled, line, q.at);
  if (!a.complete || !b.complete) return { status: 'pending', answers: [], sentence: `Waiting for the runs of ${lineName(line.label)} at ${axisText(q.from)} and ${axisText(q.at)}.` };
  if (a.value === null || b.value === null) return { status: 'unavailable', answers: [], sentence: `The runs of ${lineName(line.label)} gave no ${noun} at ${a.value === null ? axisText(q.from) : axisText(q.at)} to compare.` };
  const t = trendOf(a.value, b.value);
  const facts = `${show(a.value, unit)} at ${axisText(q.from)}, ${show(b.value, unit)} at ${axisText(q.at)}${changeText(a.value, b.value)}`;
  if (choice === t) return { status: 'right', answers: [t], sentence: `Right: ${phrase} of ${lineName(line.label)} ${TREND_VERB[t].does}: ${facts}.` };
  const expected = TREND_VERB[choice as Trend]?.to ?? choice;
  return { status: 'wrong', answers: [t], sentence: `You expected ${phrase} of ${lineName(line.label)} to ${expected}; it ${TREND_VERB[t].does}: ${facts}.` };
}

/**
 * How the sketch compares with the simulated line: at how many swept values
 * it is within SKETCH_TOLERANCE (or, near zero, within that fraction of the
 * line's largest value), and where it is furthest, in one sentence.
 */
export function scoreSketch(q: LabQuestion, sketch: SketchLink, aggregates: SweepAggregates | null, points: readonly SweepPoint[], settled: boolean): SketchVerdict {
  const line = q.lines.find((l) => l.id === sketch.line);
  if (!line) return { status: 'unavailable', close: 0, total: 0, sentence: '' };
  const agg = questionAggregates(q, aggregates, points);
  const unit = METRICS[q.metric].unit;
  const cells = q.xs.map((x, i) => ({ x, you: sketch.values[i], sim: valueAt(q, agg, points, settled, line, x) }));
  if (cells.some((c) => !c.sim.complete)) return { status: 'pending', close: 0, total: 0, sentence: `Your sketch of ${lineName(line.label)} waits for its runs.` };
  const scored = cells.filter((c): c is typeof c & { sim: { value: number } } => c.sim.value !== null && c.you !== undefined);
  if (scored.length === 0) return { status: 'unavailable', close: 0, total: 0, sentence: `The runs of ${lineName(line.label)} gave no values to compare your sketch with.` };
  const finite = scored.map((c) => c.sim.value).filter((v) => Number.isFinite(v));
  const floor = SKETCH_TOLERANCE * Math.max(0, ...finite.map(Math.abs));
  const miss = (c: (typeof scored)[number]) => (Number.isFinite(c.sim.value) ? Math.abs(c.you - c.sim.value) : Infinity);
  const isClose = (c: (typeof scored)[number]) => miss(c) <= Math.max(SKETCH_TOLERANCE * Math.abs(c.sim.value), floor);
  const close = scored.filter(isClose).length;
  const total = scored.length;
  const tol = pct(SKETCH_TOLERANCE);
  if (close === total) return { status: 'scored', close, total, sentence: `Your sketch of ${lineName(line.label)} is within ${tol} of the simulation at ${total === 1 ? 'its one value' : `all ${total} values`}.` };
  const worst = scored.reduce((w, c) => (miss(c) > miss(w) ? c : w));
  return {
    status: 'scored',
    close,
    total,
    sentence: `Your sketch of ${lineName(line.label)} is within ${tol} of the simulation at ${close} of ${total} values; it is furthest at ${formatX(q.axis, worst.x)}: you drew ${show(worst.you, unit)}, the simulation gives ${show(worst.sim.value, unit)}.`,
  };
}
