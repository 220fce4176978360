// The page's side of a scenario upload: the file goes to a worker of its
// own (uploadWorker.ts), started for this file and ended after its answer.
// The page only posts the File (a handle) and gets back what to show, so a
// file under the size cap but full of unknown fields cannot block it; the
// lab's run worker (and its silence watchdog) is not involved at all.

import { EngineCallError, engineErrorText, type EngineError } from '../engine/errors';
import type { Scenario } from '../engine/types';
import { WorkerClient, type EngineWorkerPort } from '../engine/workerClient';
import type { Validate } from './sanitize';
import { MAX_UPLOAD_BYTES } from './scenarioFile';
import { checkUploadFile, engineFailed, tooLarge, type UploadCall, type UploadOutcome } from './upload';

/** The part of Worker used here (a fake in unit tests). */
export type UploadWorkerLike = EngineWorkerPort<UploadCall, null, UploadOutcome>;

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

/** The worker's failures, in the words the upload's message ends with (engineErrorText). */
const crashError = (message: string): EngineError => ({ kind: 'internal', message: `its worker stopped${message ? ` (${message})` : ''}` });
const deadlineError = (ms: number): EngineError => ({ kind: 'internal', message: `it did not answer within ${ms / 1000} s` });

/**
 * Check an uploaded file in a worker and say what to load and show. Never
 * rejects: a worker that fails to load its engine, dies or falls silent is
 * reported as an engine that could not check the file. Where no worker can
 * be started at all, the file is checked here with `validate`.
 */
export function checkUploadInWorker(file: File, defaults: Scenario, validate: Validate, options: UploadCheckOptions = {}): Promise<UploadOutcome> {
  if (file.size > MAX_UPLOAD_BYTES) return Promise.resolve(tooLarge(file.name));
  const client = new WorkerClient(options.create ?? createUploadWorker, { crashError, deadlineError });
  try {
    client.start();
  } catch {
    return checkUploadFile(file, defaults, validate);
  }
  return client
    .call({ type: 'check', file, name: file.name, defaults }, { deadlineMs: options.deadlineMs ?? UPLOAD_DEADLINE_MS })
    .catch((e: unknown) => engineFailed(e instanceof EngineCallError ? engineErrorText(e.error) : String(e)))
    .finally(() => client.terminate());
}
