// The band of a guided lab's stated unknowns: the lab's sweep run again at
// each end of each unknown's plausible range (the engine's ablation
// variants that carry `unknown`; it builds their points), one after another
// on the lab's worker pool, only when asked (two extra sweeps per unknown).
// Each end keeps its PointResults and the engine's seed aggregates of them,
// which the result charts draw as a band around the lines (bandData.ts).

import { engineErrorText } from '../engine/errors';
import type { AblationVariant } from '../engine/generated/ablation';
import type { Lab, PointResult, SweepAggregates } from '../engine/generated/labs';
import type { SweepPool } from './pool';
import { aggregateMetrics } from './presentation';
import { pointCost } from './progress';
import type { LabService } from './service';
import { runVariantSweep } from './variantSweep';
import { VariantRunStore } from './variantStore';

export type BandState = 'idle' | 'running' | 'done' | 'cancelled' | 'error';

/** One end of one unknown's range, run as the whole sweep. */
export interface BandEnd {
  /** The ablation variant that runs it. */
  variant: number;
  unknown: string;
  value: number;
  /** Results by point index (null: failed or not run); null until its sweep has finished. */
  results: (PointResult | null)[] | null;
  /** The engine's seed aggregates of those results (what the charts draw); null until then. */
  aggregates: SweepAggregates | null;
}

export interface BandSnapshot {
  state: BandState;
  ends: BandEnd[];
  /** The end (index into `ends`) running now. */
  current: number | null;
  /** Runs finished over all ends, and their number (0 until the first request). */
  done: number;
  total: number;
  /** Runs that failed (the band at their x uses the other seeds). */
  failed: number;
  message: string | null;
}

export interface BandDeps {
  service: LabService;
  pool: SweepPool;
}

/** The variants that run a stated unknown at one end of its range, in the engine's order. */
export function bandEnds(variants: readonly AblationVariant[]): BandEnd[] {
  return variants.flatMap((v) => (v.unknown ? [{ variant: v.index, unknown: v.unknown.id, value: v.unknown.value, results: null, aggregates: null }] : []));
}

export class BandStore extends VariantRunStore<BandSnapshot> {
  constructor(
    private readonly lab: Lab,
    private readonly quick: boolean,
    private readonly deps: BandDeps,
  ) {
    super({ state: 'idle', ends: [], current: null, done: 0, total: 0, failed: 0, message: null });
  }

  /** Run every end of every unknown's range that has not finished yet, one after another. */
  async run(): Promise<void> {
    if (this.snap.state === 'running' || this.disposed) return;
    this.stopped = false;
    this.set({ state: 'running', message: null, failed: 0 });
    let costs: number[];
    try {
      const [variants, points] = await Promise.all([this.deps.service.ablationVariants(this.lab.id), this.deps.service.points(this.lab.id, this.quick)]);
      costs = points.map((p) => pointCost(p.scenario));
      const ends = this.snap.ends.length ? this.snap.ends : bandEnds(variants);
      if (ends.length === 0) {
        this.set({ state: 'error', message: 'The engine has no runs for this lab’s unknowns.' });
        return;
      }
      const finished = ends.filter((e) => e.aggregates !== null).length;
      this.set({ ends, total: ends.length * points.length, done: finished * points.length });
    } catch (e) {
      this.set({ state: 'error', message: `Could not prepare the band: ${(e as Error).message}` });
      return;
    }
    for (let k = 0; k < this.snap.ends.length; k++) {
      if (this.snap.ends[k].aggregates !== null) continue;
      if (this.stopped || this.disposed) {
        this.set({ state: 'cancelled', current: null });
        return;
      }
      this.set({ current: k });
      if (!(await this.runEnd(k, costs))) return;
    }
    this.set({ state: 'done', current: null });
  }

  /** One end's sweep and the engine's aggregates of it; false if it was cancelled or failed. */
  private async runEnd(k: number, costs: readonly number[]): Promise<boolean> {
    const end = this.snap.ends[k];
    const { handle, outcome } = runVariantSweep(
      this.deps.pool,
      { lab: this.lab.id, quick: this.quick, variant: end.variant, costs },
      {
        result: () => this.set({ done: this.snap.done + 1 }),
        failed: () => this.set({ done: this.snap.done + 1, failed: this.snap.failed + 1 }),
      },
    );
    this.handle = handle;
    const o = await outcome;
    this.handle = null;
    if (o.status !== 'done') {
      this.set(o.status === 'cancelled' ? { state: 'cancelled', current: null } : { state: 'error', current: null, message: engineErrorText(o.error) });
      return false;
    }
    const ran = o.results.filter((r): r is PointResult => r !== null);
    if (ran.length === 0) {
      this.set({ state: 'error', current: null, message: 'Every run at this end of the range failed, so there is no band to draw.' });
      return false;
    }
    try {
      const aggregates = await this.deps.service.aggregates(this.lab.id, this.quick, aggregateMetrics(this.lab), ran);
      this.set({ ends: this.snap.ends.map((e, i) => (i === k ? { ...e, results: o.results, aggregates } : e)) });
      return true;
    } catch (e) {
      this.set({ state: 'error', current: null, message: `The band’s aggregates failed: ${(e as Error).message}` });
      return false;
    }
  }

}
