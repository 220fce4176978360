// A guided lab's ablation: the lab's sweep run once with its testbed
// profile as a whole and once per switch turned back to the plain model,
// one variant after another on the lab's worker pool. The engine defines the
// variants and computes each row (headline numbers, values within ±10 %,
// orderings held); this store only schedules the runs and keeps the rows.

import { engineErrorText } from '../engine/errors';
import type { AblationRow, AblationVariant } from '../engine/generated/ablation';
import type { PointResult } from '../engine/generated/labs';
import type { SweepPool } from './pool';
import { pointCost } from './progress';
import type { LabService } from './service';
import { runVariantSweep } from './variantSweep';
import { VariantRunStore } from './variantStore';

export type AblationState = 'idle' | 'loading' | 'running' | 'done' | 'cancelled' | 'error';

export interface AblationSnapshot {
  state: AblationState;
  variants: AblationVariant[];
  /** Rows by variant index (null: not run yet). */
  rows: (AblationRow | null)[];
  /** The variant running now. */
  current: number | null;
  /** Runs finished over all variants, and their number. */
  done: number;
  total: number;
  /** Runs that failed (their variant's row is computed from the rest). */
  failed: number;
  message: string | null;
}

export interface AblationDeps {
  service: LabService;
  pool: SweepPool;
}

export class AblationStore extends VariantRunStore<AblationSnapshot> {
  constructor(
    private readonly lab: string,
    private readonly quick: boolean,
    private readonly deps: AblationDeps,
  ) {
    super({ state: 'idle', variants: [], rows: [], current: null, done: 0, total: 0, failed: 0, message: null });
  }

  /** Fetch the variants (cheap; no runs). */
  async load(): Promise<void> {
    if (this.snap.variants.length > 0) return;
    try {
      const [variants, points] = await Promise.all([this.deps.service.ablationVariants(this.lab), this.deps.service.points(this.lab, this.quick)]);
      this.set({ variants, rows: variants.map(() => null), total: variants.length * points.length });
    } catch (e) {
      this.set({ state: 'error', message: `Could not prepare the ablation: ${(e as Error).message}` });
    }
  }

  /** Run every variant that has no row yet, one after another. */
  async run(): Promise<void> {
    if (this.snap.state === 'running' || this.snap.state === 'loading') return;
    this.set({ state: 'loading', message: null });
    await this.load();
    if (this.snap.variants.length === 0) return;
    const points = await this.deps.service.points(this.lab, this.quick);
    // The points' relative work lets the pool batch small runs and bound a silent worker.
    const costs = points.map((p) => pointCost(p.scenario));
    this.stopped = false;
    const finished = this.snap.rows.filter((r) => r !== null).length;
    this.set({ state: 'running', done: finished * points.length, failed: 0 });
    for (const v of this.snap.variants) {
      if (this.snap.rows[v.index] !== null) continue;
      if (this.stopped || this.disposed) {
        this.set({ state: 'cancelled', current: null });
        return;
      }
      this.set({ current: v.index });
      const results = await this.runVariant(v.index, costs);
      if (results === null) return;
      try {
        const row = await this.deps.service.ablationRow(this.lab, this.quick, v.index, results);
        const rows = this.snap.rows.slice();
        rows[v.index] = row;
        this.set({ rows });
      } catch (e) {
        this.set({ state: 'error', current: null, message: `The ablation’s comparison failed: ${(e as Error).message}` });
        return;
      }
    }
    this.set({ state: 'done', current: null });
  }

  /** One variant's sweep; null if it was cancelled or could not run. */
  private async runVariant(variant: number, costs: readonly number[]): Promise<PointResult[] | null> {
    const { handle, outcome } = runVariantSweep(
      this.deps.pool,
      { lab: this.lab, quick: this.quick, variant, costs },
      {
        result: () => this.set({ done: this.snap.done + 1 }),
        failed: () => this.set({ done: this.snap.done + 1, failed: this.snap.failed + 1 }),
      },
    );
    this.handle = handle;
    const o = await outcome;
    this.handle = null;
    if (o.status === 'done') return o.results.filter((r): r is PointResult => r !== null);
    this.set(o.status === 'cancelled' ? { state: 'cancelled', current: null } : { state: 'error', current: null, message: engineErrorText(o.error) });
    return null;
  }

}
