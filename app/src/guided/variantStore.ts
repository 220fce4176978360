// What the ablation and the band of a stated unknown share: a snapshot the
// page reads with useSyncExternalStore, patched and announced in one place,
// and a run that can be cancelled and disposed of.

import type { SweepHandle } from './pool';

export abstract class VariantRunStore<S> {
  private readonly listeners = new Set<() => void>();
  /** The variant sweep running now, if any. */
  protected handle: SweepHandle | null = null;
  protected stopped = false;
  protected disposed = false;

  constructor(protected snap: S) {}

  getSnapshot = (): S => this.snap;

  subscribe = (l: () => void): (() => void) => {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  };

  protected set(patch: Partial<S>): void {
    if (this.disposed) return;
    this.snap = { ...this.snap, ...patch };
    for (const l of this.listeners) l();
  }

  cancel(): void {
    this.stopped = true;
    this.handle?.cancel();
  }

  dispose(): void {
    this.cancel();
    this.disposed = true;
    this.listeners.clear();
  }
}
