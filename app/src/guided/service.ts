// Lab definitions, sweep points, the paper comparison and the seed
// aggregates the result charts draw, from a worker of their own (so that
// they answer while the pool's workers are busy running points). Every
// number comes from the engine.

import type { AblationRow, AblationVariant } from '../engine/generated/ablation';
import type { ChartMetric, ClaimOutcome, FindingOutcome, SweepAggregates } from '../engine/generated/labs';
import type { Comparison, LabsFile, PaperFile, PointResult, SweepFileOutcome, SweepPoint } from '../engine/generated/labs';
import type { RankRow } from './protocol';
import { LabWorker, type LabWorkerLike } from './workerClient';

export class LabService {
  /** The service's worker slot: a worker that died is replaced by the next call. */
  private readonly worker: LabWorker;
  private metaPromise: Promise<{ labs: LabsFile; paper: PaperFile }> | null = null;
  private pointsCache = new Map<string, Promise<SweepPoint[]>>();

  constructor(create: () => LabWorkerLike) {
    this.worker = new LabWorker(create);
  }

  private w(): LabWorker {
    return this.worker;
  }

  meta(): Promise<{ labs: LabsFile; paper: PaperFile }> {
    if (!this.metaPromise) {
      this.metaPromise = this.w()
        .call({ fn: 'meta' })
        .then((r) => r.value);
      this.metaPromise.catch(() => (this.metaPromise = null));
    }
    return this.metaPromise;
  }

  points(lab: string, quick: boolean): Promise<SweepPoint[]> {
    const key = `${lab}:${quick}`;
    let p = this.pointsCache.get(key);
    if (!p) {
      p = this.w()
        .call({ fn: 'points', lab, quick })
        .then((r) => r.value);
      this.pointsCache.set(key, p);
      p.catch(() => this.pointsCache.delete(key));
    }
    return p;
  }

  async compare(lab: string, results: readonly PointResult[]): Promise<Comparison[]> {
    return (await this.w().call({ fn: 'compare', lab, results: JSON.stringify(results) })).value;
  }

  /** The lab's sentences about its runs at this scale, filled from and checked against `results`. */
  async claims(lab: string, quick: boolean, results: readonly PointResult[]): Promise<ClaimOutcome[]> {
    return (await this.w().call({ fn: 'claims', lab, quick, results: JSON.stringify(results) })).value;
  }

  /** The papers' findings for the lab, each judged on `results` at this scale. */
  async findings(lab: string, quick: boolean, results: readonly PointResult[]): Promise<FindingOutcome[]> {
    return (await this.w().call({ fn: 'findings', lab, quick, results: JSON.stringify(results) })).value;
  }

  /** The seed aggregates of `metrics` over `results` (the result charts and tables), at this scale. */
  async aggregates(lab: string, quick: boolean, metrics: readonly ChartMetric[], results: readonly PointResult[]): Promise<SweepAggregates> {
    return (await this.w().call({ fn: 'aggregates', lab, quick, metrics: [...metrics], results: JSON.stringify(results) })).value;
  }

  async rank(lab: string, results: readonly PointResult[]): Promise<RankRow[] | null> {
    return (await this.w().call({ fn: 'rank', lab, results: JSON.stringify(results) })).value;
  }

  async ablationVariants(lab: string): Promise<AblationVariant[]> {
    return (await this.w().call({ fn: 'ablation', lab })).value;
  }

  async ablationRow(lab: string, quick: boolean, variant: number, results: readonly PointResult[]): Promise<AblationRow> {
    return (await this.w().call({ fn: 'ablationRow', lab, quick, variant, results: JSON.stringify(results) })).value;
  }

  /**
   * A sweep file written by the CLI, opened and checked by the engine in this service's worker (a large file is
   * parsed off the page's thread): the runs it holds for this lab and scale, or why it is refused.
   */
  async openFile(lab: string, quick: boolean, text: string): Promise<SweepFileOutcome> {
    return (await this.w().call({ fn: 'openFile', lab, quick, text })).value;
  }

  dispose(): void {
    this.worker.terminate();
  }
}
