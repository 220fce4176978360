// Messages between the page and a guided-lab worker (labWorker.ts). Each
// worker holds one wasm instance and answers one call at a time; a sweep
// spreads its points over a pool of them (pool.ts).

import type { Comparison, LabsFile, PaperFile, PointResult, SweepPoint } from '../engine/generated/labs';

/** Debug switches for one point (e2e tests of crash recovery). */
export type PointDebug = 'trap' | 'crash';

export type LabCall =
  | { fn: 'meta' }
  | { fn: 'points'; lab: string; quick: boolean }
  | { fn: 'run'; lab: string; quick: boolean; index: number; debug?: PointDebug }
  | { fn: 'compare'; lab: string; results: string }
  | { fn: 'rank'; lab: string; results: string };

/** The ranking as rank_lab_json returns it: [series, combined, tie-break metric] best first, or null. */
export type RankRow = [string, number, number];

export interface CallValues {
  meta: { labs: LabsFile; paper: PaperFile };
  points: SweepPoint[];
  run: PointResult;
  compare: Comparison[];
  rank: RankRow[] | null;
}

export type ToLabWorker = { type: 'call'; id: number; call: LabCall };

export type FromLabWorker =
  | { type: 'ready' }
  | { type: 'load-error'; message: string }
  | { type: 'return'; id: number; value: unknown; wallMs: number }
  /** fatal: the wasm instance trapped and must not be used again. */
  | { type: 'throw'; id: number; message: string; fatal: boolean };
