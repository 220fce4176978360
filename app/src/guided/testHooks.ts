// window.sawtooth.lab(): what the guided-labs view shows (docs/TEST-SURFACE.md).
// The view registers a source while it is on screen; app/src/testHooks.ts calls
// labHookSnapshot() for the window.sawtooth member.

import type { Comparison, FindingOutcome, PointResult, SweepValue } from '../engine/generated/labs';
import type { Scenario } from '../engine/types';
import type { PointStatus } from './progress';
import type { RankRow } from './protocol';
import type { LabRunState } from './sweepStore';

export interface LabHookPoint {
  index: number;
  series: string;
  x: SweepValue;
  seed: number;
  status: PointStatus;
  /** The engine's PointResult (app/src/engine/generated/labs.ts), once finished. */
  result: PointResult | null;
  error: string | null;
  /** The run's complete scenario (what drill-down opens in the lab page). */
  scenario: Scenario;
}

export interface LabHookSnapshot {
  id: string;
  number: number;
  quick: boolean;
  state: LabRunState;
  total: number;
  completed: number;
  failed: number;
  /** Workers in the sweep pool, and how many pools were started (a cancel starts a fresh one). */
  workers: number;
  poolGeneration: number;
  points: LabHookPoint[];
  /** The engine's paper-vs-simulation rows for the results on screen. */
  comparisons: Comparison[] | null;
  /** The engine's ranking ([series, combined, tie-break]), for labs the paper ranked. */
  ranking: RankRow[] | null;
  /** The paper's findings judged on the results on screen. */
  findings: FindingOutcome[] | null;
  /** The results on screen were opened from a sweep file the CLI wrote (null: run here, or none). */
  imported: { file: string; quick: boolean; series: string[]; engine: string; stamp: string; runs: number; ahead: boolean } | null;
}

let source: (() => LabHookSnapshot | null) | null = null;

export function setLabHookSource(f: (() => LabHookSnapshot | null) | null): void {
  source = f;
}

/** A copy of what the guided-labs view shows, or null when it is not on screen. */
export function labHookSnapshot(): LabHookSnapshot | null {
  const s = source?.() ?? null;
  return s === null ? null : structuredClone(s);
}
