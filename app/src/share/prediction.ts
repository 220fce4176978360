// A student's prediction in a link (`pred=`): the choice they committed
// before running (or that they skipped), and optionally the curve they
// sketched for one line of the first result chart. The prediction lives in
// the page and in its link only; it is never sent anywhere.
//
//   pred=skip                                  skipped, explicitly
//   pred=scalable-1500                         a choice (an id the page's question offers)
//   pred=rise~reno:480,900,940.5               a choice and a sketch of line `reno`
//   pred=bbr-cubic.1~bbr-cubic.1:0.3,0.42      a per-group line (`series#1`, written `series.1`) chosen and sketched
//
// This module reads and writes the text only (its syntax and sizes); what
// the choice and the line may be is the page's question's to check
// (guided/prediction.ts for a guided lab, lab/startPrediction.ts for the
// lab page's Start-here path). A value that cannot be read is ignored with
// a notice, as any other link parameter.

/** The link parameter. */
export const PREDICTION_PARAM = 'pred';

/** The choice that says the student chose not to predict. */
export const SKIP = 'skip';

/** Longest `pred=` value read (a sketch of 64 points at full precision fits). */
export const MAX_PREDICTION_CHARS = 1200;
/** Most points a sketch may have. */
export const MAX_SKETCH_POINTS = 64;
/** Largest value a sketch point may have (any metric's unit). */
export const MAX_SKETCH_VALUE = 1e9;

export interface SketchLink {
  /** The chart line: a series id, or `series#group` for a per-group line. */
  line: string;
  /** One value per swept value of the chart, in sweep order, in the metric's unit. */
  values: number[];
}

export interface PredictionLink {
  /** `skip`, or the id of the chosen answer (a per-group line as `series#group`). */
  choice: string;
  sketch: SketchLink | null;
}

const LINE = /^([a-z0-9][a-z0-9_-]{0,63})(?:\.(\d{1,2}))?$/;
const NUMBER = /^\d{1,10}(?:\.\d{1,8})?(?:e-\d{1,2})?$/;

export type PredictionParse = { ok: true; value: PredictionLink } | { ok: false; reason: string };

/** A line id as written in a link (`series#1` → `series.1`). */
function lineText(line: string): string {
  return line.replace('#', '.');
}

/** Reads a `pred=` value. Never throws. */
export function parsePrediction(text: string): PredictionParse {
  if (text.length === 0) return { ok: false, reason: 'it is empty' };
  if (text.length > MAX_PREDICTION_CHARS) return { ok: false, reason: `it is longer than ${MAX_PREDICTION_CHARS} characters` };
  const parts = text.split('~');
  if (parts.length > 2) return { ok: false, reason: 'it has more than one sketch (“~”)' };
  const [choiceText, sketchText] = parts;
  const c = LINE.exec(choiceText);
  if (!c) return { ok: false, reason: 'the choice must be “skip” or an id of lower-case letters, digits, “-” and “_”' };
  const choice = c[2] === undefined ? c[1] : `${c[1]}#${Number(c[2])}`;
  if (sketchText === undefined) return { ok: true, value: { choice, sketch: null } };
  if (choice === SKIP) return { ok: false, reason: 'a skipped prediction has no sketch' };
  const colon = sketchText.indexOf(':');
  if (colon < 0) return { ok: false, reason: 'the sketch must be written line:value,value,…' };
  const m = LINE.exec(sketchText.slice(0, colon));
  if (!m) return { ok: false, reason: 'the sketch’s line is not a series id' };
  const line = m[2] === undefined ? m[1] : `${m[1]}#${Number(m[2])}`;
  const items = sketchText.slice(colon + 1).split(',');
  if (items.length > MAX_SKETCH_POINTS) return { ok: false, reason: `the sketch has more than ${MAX_SKETCH_POINTS} points` };
  const values: number[] = [];
  for (const item of items) {
    if (!NUMBER.test(item)) return { ok: false, reason: `the sketch’s value “${item.slice(0, 16)}” is not a number of 0 or more` };
    const v = Number(item);
    if (!Number.isFinite(v) || v > MAX_SKETCH_VALUE) return { ok: false, reason: `the sketch’s value “${item.slice(0, 16)}” is too large` };
    values.push(v);
  }
  return { ok: true, value: { choice, sketch: { line, values } } };
}

/** A sketch value as written: four significant digits, no sign, no exponent above 1. */
export function sketchNumber(v: number): string {
  const c = Math.min(MAX_SKETCH_VALUE, Math.max(0, Number.isFinite(v) ? v : 0));
  if (c === 0) return '0';
  // Small values come out as 1.5e-7, others plainly (values stay below 1e21).
  return String(Number(c.toPrecision(4)));
}

/** The `pred=` value of a prediction (the inverse of parsePrediction). */
export function encodePrediction(p: PredictionLink): string {
  const choice = lineText(p.choice);
  if (!p.sketch || p.choice === SKIP) return choice;
  return `${choice}~${lineText(p.sketch.line)}:${p.sketch.values.map(sketchNumber).join(',')}`;
}

/** Text from a link quoted in a notice: at most 40 characters. */
export function quoteLinkValue(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

/** The notice for a `pred=` value that is ignored. */
export function predictionNotice(text: string, reason: string): string {
  return `Ignored ${PREDICTION_PARAM}=${quoteLinkValue(text)}: ${reason}.`;
}

/**
 * `search` (a URL's query, with or without "?") with `pred=` set to
 * `value`, or removed when `value` is null; the other parameters are kept
 * as they were written. Returns the query with its "?" ("" when empty).
 */
export function searchWithPrediction(search: string, value: string | null): string {
  const raw = search.startsWith('?') ? search.slice(1) : search;
  const kept = raw.split('&').filter((kv) => kv !== '' && kv.split('=')[0] !== PREDICTION_PARAM);
  if (value !== null) kept.push(`${PREDICTION_PARAM}=${value}`);
  return kept.length ? `?${kept.join('&')}` : '';
}

/** The `pred=` value of a query, or null when there is none. */
export function predictionParam(search: string): string | null {
  return new URLSearchParams(search).get(PREDICTION_PARAM);
}

/** `url` with the `pred=` of the query `from` (the page's address) added, when it has one. */
export function withLinkPrediction(url: string, from: string): string {
  const value = predictionParam(from);
  if (value === null || !parsePrediction(value).ok) return url;
  const q = url.indexOf('?');
  const hash = url.indexOf('#');
  const end = hash < 0 ? url.length : hash;
  const base = q < 0 ? url.slice(0, end) : url.slice(0, q);
  const search = q < 0 ? '' : url.slice(q, end);
  return `${base}${searchWithPrediction(search, encodeURIComponentSafe(value))}${url.slice(end)}`;
}

/** A prediction's text as it goes into a link: its own characters (letters, digits, - _ . ~ : ,) are written as they are. */
function encodeURIComponentSafe(value: string): string {
  return value.replace(/[^A-Za-z0-9\-_.~:,]/g, (c) => encodeURIComponent(c));
}
