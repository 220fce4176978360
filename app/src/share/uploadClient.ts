// The page's side of a scenario upload: the file goes to a worker of its
// own (uploadWorker.ts), started for this file and ended after its answer.
// The page only posts the File (a handle) and gets back what to show, so a
// file under the size cap but full of unknown fields cannot block it; the
// lab's run worker (and its silence watchdog) is not involved at all.

import { engineErrorText } from '../engine/errors';
import type { Scenario } from '../engine/types';
import type { Validate } from './sanitize';
import { MAX_UPLOAD_BYTES } from './scenarioFile';
import { checkUploadFile, engineFailed, tooLarge, type FromUploadWorker, type ToUploadWorker, type UploadOutcome } from './upload';

/** The part of Worker used here (a fake in unit tests). */
export interface UploadWorkerLike {
  postMessage(msg: ToUploadWorker): void;
  terminate(): void;
  onmessage: ((ev: MessageEvent<FromUploadWorker>) => void) | null;
  onerror: ((ev: ErrorEvent) => void) | null;
}

export function createUploadWorker(): UploadWorkerLike {
  return new Worker(new URL('./uploadWorker.ts', import.meta.url), { type: 'module', name: 'sawtooth-upload' }) as UploadWorkerLike;
}

/**
 * A worker that has not answered after this long is taken for dead (the
 * browser can end a worker without an error event). Checking a 1 MB file
 * with 90 000 problems takes about a second.
 */
export const UPLOAD_DEADLINE_MS = 60_000;

export interface UploadCheckOptions {
  /** Start the worker (default: the module worker). */
  create?: () => UploadWorkerLike;
  deadlineMs?: number;
}

/**
 * Check an uploaded file in a worker and say what to load and show. Never
 * rejects: a worker that fails to load its engine, dies or falls silent is
 * reported as an engine that could not check the file. Where no worker can
 * be started at all, the file is checked here with `validate`.
 */
export function checkUploadInWorker(file: File, defaults: Scenario, validate: Validate, options: UploadCheckOptions = {}): Promise<UploadOutcome> {
  if (file.size > MAX_UPLOAD_BYTES) return Promise.resolve(tooLarge(file.name));
  let w: UploadWorkerLike;
  try {
    w = (options.create ?? createUploadWorker)();
  } catch {
    return checkUploadFile(file, defaults, validate);
  }
  const id = 1;
  return new Promise<UploadOutcome>((resolve) => {
    const finish = (outcome: UploadOutcome) => {
      clearTimeout(timer);
      w.onmessage = null;
      w.onerror = null;
      w.terminate();
      resolve(outcome);
    };
    const timer = setTimeout(() => finish(engineFailed(`it did not answer within ${(options.deadlineMs ?? UPLOAD_DEADLINE_MS) / 1000} s`)), options.deadlineMs ?? UPLOAD_DEADLINE_MS);
    w.onmessage = (ev) => {
      const m = ev.data;
      if (m.type === 'reply' && m.id === id) finish(m.reply);
      else if (m.type === 'load-error' || (m.type === 'error' && m.id === id)) finish(engineFailed(engineErrorText(m.error)));
    };
    w.onerror = (ev) => {
      ev.preventDefault?.();
      finish(engineFailed(`its worker stopped${ev.message ? ` (${ev.message})` : ''}`));
    };
    w.postMessage({ id, call: { type: 'check', file, name: file.name, defaults } });
  });
}
