// One ablation variant's sweep on the lab's worker pool: every point of the
// lab at this scale, run under the variant (the engine builds the variant's
// points), with each PointResult kept by point index. The ablation
// (ablationStore.ts) and the band of a stated unknown (bandStore.ts) both
// run their variants through this.

import type { EngineError } from '../engine/errors';
import type { PointResult } from '../engine/generated/labs';
import type { SweepHandle, SweepPool } from './pool';

export interface VariantSweepJob {
  lab: string;
  quick: boolean;
  /** The ablation variant's index (0: the lab as defined). */
  variant: number;
  /** Each point's relative work (progress.ts pointCost), in sweep order: its length is the number of points. */
  costs: readonly number[];
}

/** `results` by point index (null: the point failed). */
export type VariantSweepOutcome = { status: 'done'; results: (PointResult | null)[] } | { status: 'cancelled' } | { status: 'error'; error: EngineError };

export interface VariantSweepProgress {
  result(index: number, result: PointResult): void;
  failed(index: number): void;
}

/** Start the variant's sweep; `outcome` settles when it ends, `handle` cancels it. */
export function runVariantSweep(pool: SweepPool, job: VariantSweepJob, progress: VariantSweepProgress): { handle: SweepHandle; outcome: Promise<VariantSweepOutcome> } {
  const n = job.costs.length;
  // By point index, so that the engine averages in the sweep's order whatever order the runs finish in.
  const results: (PointResult | null)[] = new Array(n).fill(null);
  let settle: (o: VariantSweepOutcome) => void = () => {};
  const outcome = new Promise<VariantSweepOutcome>((resolve) => (settle = resolve));
  const handle = pool.run(
    { lab: job.lab, quick: job.quick, order: Array.from({ length: n }, (_, i) => i), variant: job.variant, cost: (i) => job.costs[i] },
    {
      started: () => {},
      result: (i, r) => {
        results[i] = r;
        progress.result(i, r);
      },
      failed: (i) => progress.failed(i),
      finished: (o) => settle(o.status === 'done' ? { status: 'done', results } : o),
    },
  );
  return { handle, outcome };
}
