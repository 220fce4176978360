// The run's event log, indexed for the path view: per kind (and per flow),
// the times in order, so "how many drops in the last 100 ms" and "when was
// the latest" are two binary searches however long the log is. The index
// grows with the run (the log only grows); a new run rebuilds it.

import { upperBound } from '../charts/timeLink';
import type { EngineEvent } from '../engine/types';

/** The event kinds the path view shows where they happen. */
export const PATH_EVENT_KINDS = ['network_loss', 'ecn_mark', 'local_congestion', 'fast_retransmit', 'timeout'] as const;
export type PathEventKind = (typeof PATH_EVENT_KINDS)[number];

const isPathKind = (k: string): k is PathEventKind => (PATH_EVENT_KINDS as readonly string[]).includes(k);

interface KindIndex {
  all: number[];
  byFlow: number[][];
}

export class EventIndex {
  private key: unknown = undefined;
  private seen = 0;
  private kinds = new Map<PathEventKind, KindIndex>();

  /**
   * Take in the log of run `key` (any value that changes with the run). The
   * log of one run only grows, so only its new events are read; a new key,
   * or a shorter log, starts again.
   */
  update(events: readonly EngineEvent[], key: unknown): this {
    if (key !== this.key || events.length < this.seen) {
      this.key = key;
      this.seen = 0;
      this.kinds = new Map();
    }
    for (let i = this.seen; i < events.length; i++) {
      const e = events[i];
      if (!isPathKind(e.kind)) continue;
      let k = this.kinds.get(e.kind);
      if (!k) this.kinds.set(e.kind, (k = { all: [], byFlow: [] }));
      k.all.push(e.t_s);
      (k.byFlow[e.flow] ??= []).push(e.t_s);
    }
    this.seen = events.length;
    return this;
  }

  /** Events read so far. */
  get size(): number {
    return this.seen;
  }

  private times(kind: PathEventKind, flow?: number): number[] | undefined {
    const k = this.kinds.get(kind);
    return flow === undefined ? k?.all : k?.byFlow[flow];
  }

  /** Events of `kind` (of `flow`, or of every flow) with from < t_s ≤ to. */
  count(kind: PathEventKind, from: number, to: number, flow?: number): number {
    const ts = this.times(kind, flow);
    if (!ts || !(to > from)) return 0;
    return upperBound(ts, to) - upperBound(ts, from);
  }

  /** The time of the latest event of `kind` (of `flow`) at or before `to`, or null. */
  last(kind: PathEventKind, to: number, flow?: number): number | null {
    const ts = this.times(kind, flow);
    if (!ts) return null;
    const i = upperBound(ts, to);
    return i > 0 ? ts[i - 1] : null;
  }
}
