// Sweep progress and the estimate of the time left. Points differ in cost
// (duration, link rate, MTU), so progress is measured in estimated work
// (packets to simulate), and the engine's measured speed on the finished
// points (work per millisecond of one worker) turns the work left into time.

import type { Scenario } from '../engine/types';
import { capacityPps } from '../model/path';

/**
 * Relative cost of running a scenario: about the number of packets it
 * simulates (the capacity in packets/s × the duration), plus a fixed part
 * per run.
 */
export function pointCost(s: Scenario): number {
  const packets = (capacityPps(s) * s.duration_ms) / 1000;
  return Math.max(1, packets) + 2000;
}

export type PointStatus = 'pending' | 'running' | 'done' | 'error';

export interface PointTiming {
  cost: number;
  status: PointStatus;
  /** When the point started (same clock as `now`). */
  startedAt?: number | null;
  /** Engine time of a finished point. */
  wallMs?: number | null;
}

export interface SweepProgress {
  total: number;
  done: number;
  failed: number;
  running: number;
  /** 0…1, by estimated work. */
  fraction: number;
  /** Milliseconds left, or null until a point has finished. */
  etaMs: number | null;
}

/** Credit for a running point is capped below its cost: it is not finished. */
const RUNNING_CREDIT_CAP = 0.9;

export function sweepProgress(points: readonly PointTiming[], now: number, workers: number): SweepProgress {
  let totalCost = 0;
  let settledCost = 0;
  let doneCost = 0;
  let doneWall = 0;
  let done = 0;
  let failed = 0;
  let running = 0;
  let left = 0;
  for (const p of points) {
    totalCost += p.cost;
    if (p.status === 'done') {
      done++;
      settledCost += p.cost;
      if (p.wallMs != null && p.wallMs > 0) {
        doneCost += p.cost;
        doneWall += p.wallMs;
      }
    } else if (p.status === 'error') {
      failed++;
      settledCost += p.cost;
    } else {
      left++;
      if (p.status === 'running') running++;
    }
  }
  // Work per ms of one worker, from the finished points.
  const rate = doneWall > 0 ? doneCost / doneWall : null;
  let credit = 0;
  if (rate !== null) {
    for (const p of points) {
      if (p.status === 'running' && p.startedAt != null) credit += Math.min(rate * Math.max(0, now - p.startedAt), RUNNING_CREDIT_CAP * p.cost);
    }
  }
  const fraction = totalCost > 0 ? Math.min(1, (settledCost + credit) / totalCost) : 1;
  let etaMs: number | null = null;
  if (left === 0) etaMs = 0;
  else if (rate !== null) {
    const parallel = Math.max(1, Math.min(workers, left));
    etaMs = Math.max(0, totalCost - settledCost - credit) / (rate * parallel);
  }
  return { total: points.length, done, failed, running, fraction, etaMs };
}

/** "about 40 s left", "about 3 min left", "less than a second left". */
export function formatEta(ms: number | null): string {
  if (ms === null) return 'estimating the time left…';
  if (ms < 1000) return 'less than a second left';
  const s = ms / 1000;
  if (s < 10) return `about ${Math.ceil(s)} s left`;
  if (s < 60) return `about ${Math.ceil(s / 5) * 5} s left`;
  const min = s / 60;
  if (min < 10) return `about ${Math.round(min * 2) / 2} min left`;
  if (min < 90) return `about ${Math.round(min)} min left`;
  return `about ${Math.round((min / 60) * 10) / 10} h left`;
}

/**
 * The order to start points in: x by x across the series (so every line
 * grows together), seeds last, costliest first within a round.
 */
export function runOrder(keys: readonly { x: number; series: number; seed: number; cost: number }[]): number[] {
  return keys
    .map((k, i) => ({ ...k, i }))
    .sort((a, b) => a.seed - b.seed || a.x - b.x || b.cost - a.cost || a.series - b.series || a.i - b.i)
    .map((k) => k.i);
}
