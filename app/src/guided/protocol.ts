// Messages between the page and a guided-lab worker (labWorker.ts). Each
// worker holds one wasm instance and answers one call at a time; a sweep
// spreads its points over a pool of them (pool.ts).

import type { AblationRow, AblationVariant } from '../engine/generated/ablation';
import type { ClaimOutcome } from '../engine/generated/labs';
import type { Comparison, LabsFile, PaperFile, PointResult, SweepPoint } from '../engine/generated/labs';

/** Debug switches for one point (e2e tests of crash recovery). */
export type PointDebug = 'trap' | 'crash';

export type LabCall =
  | { fn: 'meta' }
  | { fn: 'points'; lab: string; quick: boolean }
  /** variant: an ablation variant (0 or absent: the lab as defined). */
  | { fn: 'run'; lab: string; quick: boolean; index: number; variant?: number; debug?: PointDebug }
  /**
   * Several points in a row, in one message each way (small runs cost less
   * than a round trip through a busy page); each point's outcome apart.
   */
  | { fn: 'runBatch'; lab: string; quick: boolean; indices: number[]; variant?: number }
  | { fn: 'ablation'; lab: string }
  | { fn: 'ablationRow'; lab: string; variant: number; results: string }
  | { fn: 'compare'; lab: string; results: string }
  | { fn: 'claims'; lab: string; quick: boolean; results: string }
  | { fn: 'rank'; lab: string; results: string };

/** The ranking as rank_lab_json returns it: [series, combined, tie-break metric] best first, or null. */
export type RankRow = [string, number, number];

/** One point of a batch: its result and the engine's time on it, or why it failed (not a trap: a trap fails the whole call). */
export type BatchItem = { ok: true; result: PointResult; wallMs: number } | { ok: false; message: string };

export interface CallValues {
  meta: { labs: LabsFile; paper: PaperFile };
  points: SweepPoint[];
  run: PointResult;
  runBatch: BatchItem[];
  compare: Comparison[];
  claims: ClaimOutcome[];
  rank: RankRow[] | null;
  ablation: AblationVariant[];
  ablationRow: AblationRow;
}

export type ToLabWorker = { type: 'call'; id: number; call: LabCall };

export type FromLabWorker =
  | { type: 'ready' }
  | { type: 'load-error'; message: string }
  | { type: 'return'; id: number; value: unknown; wallMs: number }
  /** fatal: the wasm instance trapped and must not be used again. */
  | { type: 'throw'; id: number; message: string; fatal: boolean };
