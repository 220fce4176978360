// The engine's word on a scenario from a link or an upload: each field it
// rejects falls back to its default, with a notice naming the field, the
// value and the rule. If that still leaves a scenario the engine rejects,
// the whole default scenario is used.

import type { Scenario, ValidationError } from '../engine/types';
import { formatValidationError } from '../engine/errors';
import { clip } from './urlCodec';

export type Validate = (s: Scenario) => Promise<ValidationError[]>;

export interface Sanitized {
  scenario: Scenario;
  notices: string[];
  /** The engine's errors for what came in (empty when it was valid). */
  errors: ValidationError[];
}

type Path = (string | number)[];

/** "hosts[0].flows[1].window_bytes" → ['hosts', 0, 'flows', 1, 'window_bytes']. */
export function parseFieldPath(field: string): Path | null {
  if (!/^[A-Za-z_][A-Za-z0-9_]*(\[\d+\]|\.[A-Za-z_][A-Za-z0-9_]*)*$/.test(field)) return null;
  const out: Path = [];
  for (const m of field.matchAll(/([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]/g)) out.push(m[1] ?? Number(m[2]));
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

function show(v: unknown): string {
  return v === null ? 'null' : typeof v === 'object' ? 'its default' : String(v);
}

/** Notices shown at most; the rest are counted in one more (a link with 90 000 unknown parameters must not print 90 000 lines). */
export const MAX_NOTICES = 20;

/** The first MAX_NOTICES notices, and one saying how many more were dropped. */
export function capNotices(notices: string[]): string[] {
  if (notices.length <= MAX_NOTICES) return notices;
  const more = notices.length - MAX_NOTICES;
  return [...notices.slice(0, MAX_NOTICES), `… and ${more} more ${more === 1 ? 'problem' : 'problems'} of the same kind, not listed.`];
}

export async function sanitizeScenario(input: Scenario, defaults: Scenario, validate: Validate, what = 'the link'): Promise<Sanitized> {
  const errors = await validate(input);
  if (errors.length === 0) return { scenario: input, notices: [], errors };
  const notices: string[] = [];
  const fixed = structuredClone(input) as unknown;
  let repairable = true;
  for (const e of errors) {
    const path = parseFieldPath(e.field);
    const def = path ? defaultAt(defaults, path) : { found: false, value: undefined };
    // An algorithm parameter the catalogue does not know is dropped (the
    // algorithm's default applies); other fields take the scenario default.
    const isParam = path !== null && path.length >= 2 && path[path.length - 2] === 'params';
    if (path && (def.found || isParam) && setAt(fixed, path, isParam && !def.found ? undefined : def.value)) {
      notices.push(`Ignored ${clip(formatValidationError(e))} in ${what}; using ${isParam && !def.found ? "the algorithm's default" : show(def.value)}.`);
    } else {
      repairable = false;
    }
  }
  if (repairable) {
    const again = await validate(fixed as Scenario);
    if (again.length === 0) return { scenario: fixed as Scenario, notices: capNotices(notices), errors };
  }
  const list = errors.slice(0, 5).map((e) => clip(formatValidationError(e))).join('; ');
  return {
    scenario: structuredClone(defaults),
    notices: [`Ignored the scenario in ${what}: ${list}${errors.length > 5 ? ` (and ${errors.length - 5} more)` : ''}; using the default scenario.`],
    errors,
  };
}
