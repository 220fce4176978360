// Scenario JSON download and upload. An upload is read as text (size
// capped), parsed, and then checked by the engine (sanitize.ts) before it
// replaces anything; upload.ts runs the whole check, in a worker.

import { jsonShapeProblem, shapeProblemText } from './duplicateKeys';
import type { Scenario } from '../engine/types';
import { clip } from './urlCodec';

export const MAX_UPLOAD_BYTES = 1_000_000;

export function scenarioJson(s: Scenario): string {
  return `${JSON.stringify(s, null, 2)}\n`;
}

export type ParsedUpload = { ok: true; scenario: Scenario } | { ok: false; message: string };

/** Parse uploaded text; the engine validates the fields afterwards. */
export function parseScenarioText(text: string, name = 'the file'): ParsedUpload {
  if (text.length > MAX_UPLOAD_BYTES) return { ok: false, message: `${clip(name, 60)} is larger than ${MAX_UPLOAD_BYTES / 1e6} MB; nothing was loaded.` };
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    return { ok: false, message: `${clip(name, 60)} is not JSON (${clip((e as Error).message, 120)}); nothing was loaded.` };
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) {
    return { ok: false, message: `${clip(name, 60)} is not a scenario (a JSON object); nothing was loaded.` };
  }
  const shape = jsonShapeProblem(text);
  if (shape !== null) return { ok: false, message: `${clip(name, 60)} ${shapeProblemText(shape, clip)}. Nothing was loaded.` };
  return { ok: true, scenario: doc as Scenario };
}
