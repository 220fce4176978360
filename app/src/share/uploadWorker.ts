// The scenario upload's module Web Worker, one per uploaded file: it reads
// the file, parses it, and checks and repairs it with an engine instance of
// its own (upload.ts has the logic, uploadClient.ts the page's side), so a
// large or hostile file never holds up the page, nor the lab's run worker.

import init, * as bindings from '../engine/pkg/sawtooth_bindings.js';
import { toEngineError } from '../engine/errors';
import type { RawEngine } from '../engine/raw';
import { EngineRunError, validateScenario } from '../engine/simulation';
import { answerUpload, type FromUploadWorker, type ToUploadWorker } from './upload';
import { serveAfterBoot } from '../engine/workerBoot';

// Compile-time check that the built package matches the facade's view of it.
const engine: RawEngine = bindings;

serveAfterBoot<ToUploadWorker, FromUploadWorker>(init, async (request, post) => {
  try {
    post(await answerUpload(request, async (s) => validateScenario(engine, s)));
  } catch (e) {
    post({ type: 'error', id: request.id, error: e instanceof EngineRunError ? e.error : toEngineError(e), fatal: true });
  }
});
