// The guided-lab worker's logic, free of the worker global scope so that it
// can be tested against a fake engine: one call in, one answer out.

import type { LabEngine } from './engineApi';
import type { PointResult } from '../engine/generated/labs';
import type { BatchItem, LabCall } from './protocol';

export type CallOutcome = { ok: true; value: unknown; wallMs: number } | { ok: false; message: string; fatal: boolean };

/**
 * A WebAssembly trap (a Rust panic compiles to `unreachable`): the instance
 * may be left inconsistent, so the worker is replaced. Errors the bindings
 * throw on purpose (JsError: an unknown lab, a bad index) are plain Errors.
 */
export function isTrap(e: unknown): boolean {
  return typeof WebAssembly !== 'undefined' && e instanceof WebAssembly.RuntimeError;
}

export function errorMessage(e: unknown): string {
  if (e instanceof Error) return e.message || e.name;
  return String(e);
}

function runPoint(engine: LabEngine, lab: string, quick: boolean, variant: number | undefined, index: number): string {
  return variant ? engine.run_ablation_point_json(lab, quick, variant, index) : engine.run_lab_point_json(lab, quick, index);
}

/** Run a batch's points in order, each timed and answered apart; a trap ends the call (the instance is not used again). */
function runBatch(engine: LabEngine, call: Extract<LabCall, { fn: 'runBatch' }>, now: () => number): BatchItem[] {
  return call.indices.map((index): BatchItem => {
    const t0 = now();
    try {
      const result = JSON.parse(runPoint(engine, call.lab, call.quick, call.variant, index)) as PointResult;
      return { ok: true, result, wallMs: now() - t0 };
    } catch (e) {
      if (isTrap(e)) throw e;
      return { ok: false, message: errorMessage(e) };
    }
  });
}

export function handleCall(engine: LabEngine, call: LabCall, now: () => number): CallOutcome {
  const t0 = now();
  try {
    let value: unknown;
    switch (call.fn) {
      case 'meta':
        value = { labs: JSON.parse(engine.labs_json()), paper: JSON.parse(engine.paper_json()) };
        break;
      case 'points':
        value = JSON.parse(engine.lab_points_json(call.lab, call.quick));
        break;
      case 'run':
        if (call.debug === 'trap') {
          if (!engine.debug_trap) throw new Error('this engine build has no debug_trap');
          engine.debug_trap();
        }
        value = JSON.parse(runPoint(engine, call.lab, call.quick, call.variant, call.index));
        break;
      case 'runBatch':
        value = runBatch(engine, call, now);
        break;
      case 'ablation':
        value = JSON.parse(engine.ablation_variants_json(call.lab));
        break;
      case 'ablationRow':
        value = JSON.parse(engine.ablation_row_json(call.lab, call.variant, call.results));
        break;
      case 'compare':
        value = JSON.parse(engine.compare_lab_json(call.lab, call.results));
        break;
      case 'claims':
        value = JSON.parse(engine.lab_claims_json(call.lab, call.quick, call.results));
        break;
      case 'rank':
        value = JSON.parse(engine.rank_lab_json(call.lab, call.results));
        break;
      default:
        throw new Error(`unknown call ${(call as { fn: string }).fn}`);
    }
    return { ok: true, value, wallMs: now() - t0 };
  } catch (e) {
    const fatal = isTrap(e);
    return { ok: false, message: fatal ? `the engine trapped (${errorMessage(e)})` : errorMessage(e), fatal };
  }
}
