import type { ValidationError } from './types';

/** Everything that can go wrong with a run, as data the page can render. */
export type EngineError =
  /** The scenario was rejected: each entry names the field, value and rule. */
  | { kind: 'validation'; errors: ValidationError[] }
  /** The wasm module trapped (a Rust panic or a WebAssembly.RuntimeError). */
  | { kind: 'trap'; message: string }
  /** The engine could not be loaded at all. */
  | { kind: 'load'; message: string }
  /** Anything else thrown by the engine or the worker. */
  | { kind: 'internal'; message: string };

function isValidationError(x: unknown): x is ValidationError {
  if (typeof x !== 'object' || x === null) return false;
  const o = x as Record<string, unknown>;
  return typeof o.field === 'string' && typeof o.message === 'string';
}

/**
 * Parse the engine's `{"errors":[{field,value,message}]}` document. Returns
 * null when `text` is not such a document.
 */
export function parseValidationErrors(text: string): ValidationError[] | null {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof doc !== 'object' || doc === null) return null;
  const errors = (doc as { errors?: unknown }).errors;
  if (!Array.isArray(errors) || !errors.every(isValidationError)) return null;
  return errors.map((e) => ({ field: e.field, value: String(e.value ?? ''), message: e.message }));
}

function messageOf(e: unknown): string {
  if (e instanceof Error) return e.message;
  if (typeof e === 'string') return e;
  try {
    return JSON.stringify(e);
  } catch {
    return String(e);
  }
}

/** True for a trap of the wasm instance, after which it must not be used again. */
export function isWasmTrap(e: unknown): boolean {
  if (typeof WebAssembly !== 'undefined' && e instanceof WebAssembly.RuntimeError) return true;
  // wasm-bindgen reports a Rust panic as `unreachable` once the panic hook ran.
  return e instanceof Error && /^(unreachable|RuntimeError)/.test(e.message);
}

/** Classify anything thrown by the engine. */
export function toEngineError(e: unknown): EngineError {
  if (isWasmTrap(e)) return { kind: 'trap', message: messageOf(e) };
  const message = messageOf(e);
  const errors = parseValidationErrors(message);
  if (errors) return { kind: 'validation', errors };
  return { kind: 'internal', message };
}

/** Errors after which the wasm instance is suspect and must be re-instantiated. */
export function isFatal(error: EngineError): boolean {
  return error.kind === 'trap' || error.kind === 'internal';
}

/** "rtt_ms = 900: must be between 0 and 500 ms" — the engine's own format. */
export function formatValidationError(e: ValidationError): string {
  return e.value === '' ? `${e.field}: ${e.message}` : `${e.field} = ${e.value}: ${e.message}`;
}

/** An EngineError as one line of text (a failed point of a sweep, a status line). */
export function engineErrorText(error: EngineError): string {
  return error.kind === 'validation' ? error.errors.map(formatValidationError).join('; ') : error.message;
}

/**
 * A request to an engine worker that failed, as a promise's rejection: the
 * EngineError, and whether the worker is beyond use (it trapped, died or
 * never loaded, or was stopped).
 */
export class EngineCallError extends Error {
  readonly error: EngineError;
  readonly fatal: boolean;
  constructor(error: EngineError, fatal: boolean) {
    super(engineErrorText(error));
    this.name = 'EngineCallError';
    this.error = error;
    this.fatal = fatal;
  }
}

export function describeEngineError(error: EngineError): string[] {
  switch (error.kind) {
    case 'validation':
      return error.errors.map(formatValidationError);
    case 'trap':
      return [
        /stopped responding/.test(error.message)
          ? `The simulation stopped: ${error.message}.`
          : `The simulation crashed inside the engine (technical detail: ${error.message}).`,
        'The last finished result is still on screen, and the engine has been restarted: change a setting to run again.',
      ];
    case 'load':
      return [`The engine could not be loaded: ${error.message}`];
    case 'internal':
      return [`Engine error: ${error.message}`];
  }
}
