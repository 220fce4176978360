// A scenario upload from start to end: the file read as text (size
// capped), parsed, refused if a key is given twice or it nests deeper than
// any scenario (duplicateKeys.ts), checked by the engine, and repaired
// field by field (sanitize.ts). What the page shows comes back
// ready: the scenario to load (or none), the title and lines of the problem
// list, and the status line.
//
// A file under the 1 MB cap can still hold 90 000 unknown parameters. The
// work is linear in the file and the problem list is bounded (MAX_NOTICES
// lines and a count of the rest), and the page does it all in a worker of
// its own (uploadWorker.ts, uploadClient.ts), so that nothing in a file can
// hold up the page.

import { formatValidationError } from '../engine/errors';
import type { WorkerMessage, WorkerRequest } from '../engine/protocol';
import type { Scenario } from '../engine/types';
import { formatCount } from '../lab/runAdvice';
import { MAX_NOTICES, capNotices, moreLine, sanitizeScenario, type Validate } from './sanitize';
import { MAX_UPLOAD_BYTES, parseScenarioText } from './scenarioFile';
import { clip } from './urlCodec';

/** The list under the upload control: a title and at most MAX_NOTICES + 1 lines. */
export interface UploadProblems {
  title: string;
  items: string[];
}

export interface UploadOutcome {
  /** The scenario to load (checked by the engine), or null: nothing is loaded. */
  scenario: Scenario | null;
  /** What was ignored, for the page's notices (at most MAX_NOTICES + 1 lines). */
  notices: string[];
  /** What the engine rejected, or why nothing was loaded; null when the file was valid. */
  problems: UploadProblems | null;
  /** The status line. */
  status: string;
}

/** The parts of a File read here (a File or a Blob with a name). */
export interface UploadFile {
  readonly name: string;
  readonly size: number;
  text(): Promise<string>;
}

/** Longest engine error line shown (a value can be a long string). */
const ITEM_MAX = 300;

/** Nothing loaded, for `reason`. */
export function notLoaded(reason: string): UploadOutcome {
  return { scenario: null, notices: [], problems: { title: 'The upload was not loaded:', items: [reason] }, status: 'The upload was not loaded.' };
}

/** The file is over the size cap (checked before it is read). */
export function tooLarge(name: string): UploadOutcome {
  return notLoaded(`${clip(name, 60)} is larger than ${MAX_UPLOAD_BYTES / 1e6} MB; nothing was loaded.`);
}

/** Why the engine could not give its verdict (it failed to load, its worker died). */
export function engineFailed(detail: string): UploadOutcome {
  return notLoaded(`The engine could not check the file: ${clip(detail, 200)}`);
}

/**
 * Check uploaded text with the engine (`validate`) and say what to load and
 * show. Linear in the text and in the engine's errors; writes at most
 * MAX_NOTICES lines whatever the file holds. Never throws: an engine that
 * cannot answer is reported as such.
 */
export async function checkUploadText(text: string, name: string, defaults: Scenario, validate: Validate): Promise<UploadOutcome> {
  const parsed = parseScenarioText(text, name);
  if (!parsed.ok) return notLoaded(parsed.message);
  let s;
  try {
    s = await sanitizeScenario(parsed.scenario, defaults, validate, 'the upload');
  } catch (e) {
    return engineFailed(String((e as { message?: string })?.message ?? e));
  }
  const file = clip(name, 60);
  const n = s.errors.length;
  if (n === 0) return { scenario: s.scenario, notices: [], problems: null, status: `Loaded ${file}.` };
  // Name the fields the engine rejected (the first MAX_NOTICES), then load what can be used.
  const items = s.errors.slice(0, MAX_NOTICES).map((e) => clip(formatValidationError(e), ITEM_MAX));
  if (n > MAX_NOTICES) items.push(moreLine(n - MAX_NOTICES));
  const end = n > MAX_NOTICES ? `. The first ${MAX_NOTICES} are listed:` : ':';
  const title = s.replaced
    ? `The engine rejected the upload (${formatCount(n)} ${n === 1 ? 'problem' : 'problems'}), so the default scenario was loaded${end}`
    : n > MAX_NOTICES
      ? `The engine rejected ${formatCount(n)} fields of the upload; their defaults were used${end}`
      : 'The engine rejected these fields of the upload; their defaults were used:';
  return {
    scenario: s.scenario,
    notices: capNotices(s.notices, s.unlisted),
    problems: { title, items },
    status: s.replaced ? `Loaded the default scenario: ${file} could not be used.` : `Loaded ${file} with defaults for the ${n === 1 ? 'field' : 'fields'} listed.`,
  };
}

/** Read and check a file (the size is checked before it is read). */
export async function checkUploadFile(file: UploadFile, defaults: Scenario, validate: Validate): Promise<UploadOutcome> {
  if (file.size > MAX_UPLOAD_BYTES) return tooLarge(file.name);
  let text: string;
  try {
    text = await file.text();
  } catch (e) {
    return notLoaded(`${clip(file.name, 60)} could not be read (${clip(String((e as { message?: string })?.message ?? e), 120)}); nothing was loaded.`);
  }
  return checkUploadText(text, file.name, defaults, validate);
}

// ------------------------------------------------------------------ the upload worker's protocol

/** Check one file; the worker answers once, with an UploadOutcome. */
export interface UploadCall {
  type: 'check';
  /** The File (posting it to a worker copies a handle, not the bytes). */
  file: Blob;
  name: string;
  defaults: Scenario;
}

export type ToUploadWorker = WorkerRequest<UploadCall>;
/** The engine workers' envelope: 'ready' (no info), 'load-error', one 'reply', or an 'error'. */
export type FromUploadWorker = WorkerMessage<null, UploadOutcome>;

/** The upload worker's answer to one request (`validate` is its own engine's). */
export async function answerUpload({ id, call }: ToUploadWorker, validate: Validate): Promise<FromUploadWorker> {
  const file: UploadFile = { name: call.name, size: call.file.size, text: () => call.file.text() };
  return { type: 'reply', id, reply: await checkUploadFile(file, call.defaults, validate) };
}
