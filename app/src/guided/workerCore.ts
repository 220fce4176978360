// The guided-lab worker's logic, free of the worker global scope so that it
// can be tested against a fake engine: one call in, one answer out.

import { toEngineError, type EngineError } from '../engine/errors';
import type { LabEngine } from './engineApi';
import type { PointResult } from '../engine/generated/labs';
import type { BatchItem, FromLabWorker, LabCall } from './protocol';

export type CallOutcome = { ok: true; value: unknown; wallMs: number } | { ok: false; error: EngineError; fatal: boolean };

/**
 * What a call threw, as an EngineError. A WebAssembly trap (a Rust panic
 * compiles to `unreachable`) may leave the instance inconsistent, so it is
 * fatal: the worker is replaced. Errors the bindings throw on purpose
 * (JsError: an unknown lab, a bad index) are `internal` and the instance
 * goes on.
 */
export function callError(e: unknown): { error: EngineError; fatal: boolean } {
  const error = toEngineError(e);
  if (error.kind !== 'trap') return { error, fatal: false };
  return { error: { kind: 'trap', message: `the engine trapped (${error.message})` }, fatal: true };
}

/** The envelope message that answers call `id` with its outcome. */
export function outcomeMessage(id: number, out: CallOutcome): FromLabWorker {
  return out.ok ? { type: 'reply', id, reply: { value: out.value, wallMs: out.wallMs } } : { type: 'error', id, error: out.error, fatal: out.fatal };
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
      const { error, fatal } = callError(e);
      if (fatal) throw e;
      return { ok: false, error };
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
        value = JSON.parse(engine.ablation_row_json(call.lab, call.quick, call.variant, call.results));
        break;
      case 'compare':
        value = JSON.parse(engine.compare_lab_json(call.lab, call.results));
        break;
      case 'claims':
        value = JSON.parse(engine.lab_claims_json(call.lab, call.quick, call.results));
        break;
      case 'findings':
        value = JSON.parse(engine.lab_findings_json(call.lab, call.quick, call.results));
        break;
      case 'rank':
        value = JSON.parse(engine.rank_lab_json(call.lab, call.results));
        break;
      case 'aggregates':
        value = JSON.parse(engine.lab_aggregates_json(call.lab, call.quick, JSON.stringify(call.metrics), call.results));
        break;
      case 'openFile':
        value = JSON.parse(engine.open_sweep_file_json(call.text, call.lab, call.quick));
        break;
      default:
        throw new Error(`unknown call ${(call as { fn: string }).fn}`);
    }
    return { ok: true, value, wallMs: now() - t0 };
  } catch (e) {
    return { ok: false, ...callError(e) };
  }
}
