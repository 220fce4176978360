// The guided-lab workers' calls (labWorker.ts), in the engine workers'
// envelope (../engine/protocol.ts). Each worker holds one wasm instance and
// answers one call at a time; a sweep spreads its points over a pool of
// them (pool.ts).

import type { AblationRow, AblationVariant } from '../engine/generated/ablation';
import type { ChartMetric, ClaimOutcome, FindingOutcome, SweepAggregates } from '../engine/generated/labs';
import type { Comparison, LabsFile, PaperFile, PointResult, SweepFileOutcome, SweepPoint } from '../engine/generated/labs';
import type { EngineError } from '../engine/errors';
import type { WorkerMessage, WorkerRequest } from '../engine/protocol';

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
  | { fn: 'ablationRow'; lab: string; quick: boolean; variant: number; results: string }
  | { fn: 'compare'; lab: string; results: string }
  | { fn: 'claims'; lab: string; quick: boolean; results: string }
  /** The papers' findings judged on the results so far. */
  | { fn: 'findings'; lab: string; quick: boolean; results: string }
  | { fn: 'rank'; lab: string; results: string }
  /** The seed aggregates of `metrics` that the result charts and tables draw. */
  | { fn: 'aggregates'; lab: string; quick: boolean; metrics: ChartMetric[]; results: string }
  /** A sweep file from the CLI (its text), opened and checked for this lab and scale. */
  | { fn: 'openFile'; lab: string; quick: boolean; text: string };

/** The ranking as rank_lab_json returns it: [series, combined, tie-break metric] best first, or null. */
export type RankRow = [string, number, number];

/** One point of a batch: its result and the engine's time on it, or why it failed (not a trap: a trap fails the whole call). */
export type BatchItem = { ok: true; result: PointResult; wallMs: number } | { ok: false; error: EngineError };

export interface CallValues {
  meta: { labs: LabsFile; paper: PaperFile };
  points: SweepPoint[];
  run: PointResult;
  runBatch: BatchItem[];
  compare: Comparison[];
  claims: ClaimOutcome[];
  findings: FindingOutcome[];
  rank: RankRow[] | null;
  aggregates: SweepAggregates;
  ablation: AblationVariant[];
  ablationRow: AblationRow;
  openFile: SweepFileOutcome;
}

/** A call's answer: its value and the time the engine spent on it, inside the worker. */
export interface LabReply {
  value: unknown;
  wallMs: number;
}

export type ToLabWorker = WorkerRequest<LabCall>;
/** A lab worker's 'ready' carries nothing: the lab definitions come with the 'meta' call. */
export type FromLabWorker = WorkerMessage<null, LabReply>;
