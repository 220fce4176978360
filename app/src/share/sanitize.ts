// The engine's word on a scenario from a link or an upload: each field it
// rejects falls back to its default, with a notice naming the field, the
// value and the rule. If that still leaves a scenario the engine rejects,
// the whole default scenario is used.

import type { Scenario, ValidationError } from '../engine/types';
import { formatValidationError } from '../engine/errors';
import { formatCount } from '../lab/runAdvice';
import { clip } from './urlCodec';

export type Validate = (s: Scenario) => Promise<ValidationError[]>;

export interface Sanitized {
  scenario: Scenario;
  /** What was ignored, one sentence each: at most MAX_NOTICES (show them with capNotices(notices, unlisted)). */
  notices: string[];
  /** Notices not written out: there were so many more (counted, never built). */
  unlisted: number;
  /** The engine's errors for what came in (empty when it was valid). */
  errors: ValidationError[];
  /** No field could be repaired: `scenario` is the whole default scenario. */
  replaced: boolean;
}

type Path = (string | number)[];

const isLetter = (c: number) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f; // A-Z a-z _
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;

/**
 * "hosts[0].flows[1].window_bytes" → ['hosts', 0, 'flows', 1, 'window_bytes'];
 * null unless the text is names joined by `.` and `[index]`. One pass, no
 * regular expression: it runs once per engine error, and an upload can bring
 * 90 000 of them.
 */
export function parseFieldPath(field: string): Path | null {
  const out: Path = [];
  const n = field.length;
  let i = 0;
  const name = (): boolean => {
    const start = i;
    if (i >= n || !isLetter(field.charCodeAt(i))) return false;
    for (i++; i < n && (isLetter(field.charCodeAt(i)) || isDigit(field.charCodeAt(i))); i++);
    out.push(field.slice(start, i));
    return true;
  };
  if (!name()) return null;
  while (i < n) {
    const c = field.charCodeAt(i++);
    if (c === 0x2e /* . */) {
      if (!name()) return null;
    } else if (c === 0x5b /* [ */) {
      const start = i;
      while (i < n && isDigit(field.charCodeAt(i))) i++;
      if (i === start || field.charCodeAt(i) !== 0x5d /* ] */) return null;
      out.push(Number(field.slice(start, i++)));
    } else return null;
  }
  return out;
}

function getAt(root: unknown, path: Path): { found: boolean; value: unknown } {
  let cur: unknown = root;
  for (const k of path) {
    if (typeof cur !== 'object' || cur === null || !Object.hasOwn(cur, k)) return { found: false, value: undefined };
    cur = (cur as Record<string | number, unknown>)[k];
  }
  return { found: true, value: cur };
}

/** The default for a field: from `defaults`, or from its first host / flow for extra ones. */
function defaultAt(defaults: Scenario, path: Path): { found: boolean; value: unknown } {
  const direct = getAt(defaults, path);
  if (direct.found) return direct;
  const generic = path.map((k, i) => (typeof k === 'number' && (path[i - 1] === 'hosts' || path[i - 1] === 'flows') ? 0 : k));
  return getAt(defaults, generic);
}

function setAt(root: unknown, path: Path, value: unknown): boolean {
  let cur: unknown = root;
  for (const k of path.slice(0, -1)) {
    if (typeof cur !== 'object' || cur === null || !Object.hasOwn(cur, k)) return false;
    cur = (cur as Record<string | number, unknown>)[k];
  }
  const last = path[path.length - 1];
  if (typeof cur !== 'object' || cur === null) return false;
  if (value === undefined) {
    if (Array.isArray(cur) || !Object.hasOwn(cur, last)) return false;
    delete (cur as Record<string | number, unknown>)[last];
  } else (cur as Record<string | number, unknown>)[last] = structuredClone(value);
  return true;
}

/** What a null default means, for the fields that have one. */
const NULL_MEANS: Record<string, string> = {
  initial_ssthresh_pkts: 'no initial ssthresh (infinite)',
  stop_ms: 'no stop (the flow runs to the end)',
};

function show(v: unknown, field?: string | number): string {
  if (v === null) return NULL_MEANS[String(field)] ?? 'none';
  return typeof v === 'object' ? 'its default' : String(v);
}

/** How to mend one rejected field: what to write where, and how to say it. */
interface Repair {
  path: Path;
  /** `undefined` deletes the field (an optional one: its own default applies). */
  value: unknown;
  using: string;
}

function repairOf(input: Scenario, defaults: Scenario, path: Path): Repair | null {
  const def = defaultAt(defaults, path);
  const last = path[path.length - 1];
  // An algorithm parameter the catalogue does not know is dropped: the
  // algorithm's default applies.
  if (path.length >= 2 && path[path.length - 2] === 'params' && !def.found) return { path, value: undefined, using: "the algorithm's default" };
  // A queue discipline's or the probe's optional field is dropped: the
  // discipline's (RFC) or the probe's default applies. RED's fields are
  // all required, so a bad one gives the scenario default's discipline.
  const aqm = input.bottleneck?.aqm;
  if (path.length === 3 && path[0] === 'bottleneck' && path[1] === 'aqm' && last !== 'kind' && !def.found && aqm) {
    if (aqm.kind === 'red') return { path: ['bottleneck', 'aqm'], value: defaults.bottleneck.aqm, using: `the default queue discipline (${defaults.bottleneck.aqm.kind})` };
    return { path, value: undefined, using: `${aqm.kind}'s default` };
  }
  if (path.length === 2 && path[0] === 'probe' && !def.found) return { path, value: undefined, using: "the probe's default" };
  return def.found ? { path, value: def.value, using: show(def.value, last) } : null;
}

/**
 * Notices shown at most; the rest are counted in one more line (a link or
 * an upload with 90 000 unknown parameters must not print 90 000 lines, nor
 * spend the time to write them).
 */
export const MAX_NOTICES = 20;

/** The line that stands for `more` problems not listed. */
export function moreLine(more: number): string {
  return `… and ${formatCount(more)} more ${more === 1 ? 'problem' : 'problems'}, not listed.`;
}

/**
 * The first MAX_NOTICES notices, and one saying how many more there were:
 * those beyond MAX_NOTICES in `notices` plus `unlisted` never written out.
 */
export function capNotices(notices: string[], unlisted = 0): string[] {
  const more = Math.max(0, notices.length - MAX_NOTICES) + unlisted;
  if (more === 0) return notices;
  return [...notices.slice(0, MAX_NOTICES), moreLine(more)];
}

/**
 * The engine's verdict on `input`, and a scenario it accepts: each rejected
 * field set to its default (an unknown algorithm parameter dropped), or the
 * whole default scenario if that is not enough. Asks the engine at most
 * twice; the work is linear in the number of errors, and only the first
 * MAX_NOTICES notices are written (the rest are counted in `unlisted`).
 */
/**
 * An engine error as a notice quotes it: the link's value shortened (it is
 * the visitor's text), the engine's message whole (a long one, such as a
 * memory limit's, was cut mid-word at 160 characters), both bounded.
 */
function errorText(e: ValidationError): string {
  return clip(formatValidationError({ ...e, value: clip(e.value, 60) }), 480);
}

export async function sanitizeScenario(input: Scenario, defaults: Scenario, validate: Validate, what = 'the link'): Promise<Sanitized> {
  const errors = await validate(input);
  if (errors.length === 0) return { scenario: input, notices: [], unlisted: 0, errors, replaced: false };
  const notices: string[] = [];
  let unlisted = 0;
  const fixed = structuredClone(input) as unknown;
  let repairable = true;
  for (const e of errors) {
    const path = parseFieldPath(e.field);
    const repair = path ? repairOf(input, defaults, path) : null;
    if (repair && setAt(fixed, repair.path, repair.value)) {
      if (notices.length < MAX_NOTICES) notices.push(`Ignored ${errorText(e)} in ${what}; using ${repair.using}.`);
      else unlisted++;
    } else {
      repairable = false;
      break;
    }
  }
  if (repairable) {
    const again = await validate(fixed as Scenario);
    if (again.length === 0) return { scenario: fixed as Scenario, notices, unlisted, errors, replaced: false };
  }
  const list = errors.slice(0, 5).map(errorText).join('; ');
  return {
    scenario: structuredClone(defaults),
    notices: [`Ignored the scenario in ${what}: ${list}${errors.length > 5 ? ` (and ${formatCount(errors.length - 5)} more)` : ''}; using the default scenario.`],
    unlisted: 0,
    errors,
    replaced: true,
  };
}
