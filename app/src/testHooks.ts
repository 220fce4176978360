// A read-only window.sawtooth for tests and the curious: what the page shows
// right now (published after each render), the id of the newest run, and a
// promise for the end of the current (or of the next) run, so tests wait on
// state rather than on timeouts.
//
// Its types are the published contract (docs/sawtooth-test-surface.d.ts,
// documented in docs/TEST-SURFACE.md): the hooks below must satisfy them,
// and the app's own types must match them both ways (ContractChecks), so a
// change to either fails the type check until the other follows.

import type * as Contract from '../../docs/sawtooth-test-surface';
import type { RunSeries } from './engine/columns';
import type { EngineError } from './engine/errors';
import type { Comparison, PointResult } from './engine/generated/labs';
import type { EngineEvent, EventKind, RunSummary, Scenario } from './engine/types';
import { isSettled, type RunPublisher, type RunSnapshot, type RunState, type SettledState } from './lab/runStore';
// guided labs (issue 7): window.sawtooth.lab().
import { labHookSnapshot, type LabHookSnapshot } from './guided/testHooks';

/**
 * The contract version (stated at the top of docs/TEST-SURFACE.md):
 * bump it, there and in docs/sawtooth-test-surface.d.ts, with every change
 * to what the contract promises.
 */
export const CONTRACT_VERSION = 26 satisfies Contract.ContractVersion;

/** window.sawtooth, exactly as the published declarations describe it. */
export type SawtoothHooks = Contract.Sawtooth;

// ---- compile-time checks: the app's types and the published ones are the same shapes.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type NotAny<T> = 0 extends 1 & T ? false : true;
type Check<A, B> = Same<A, B> extends true ? (NotAny<A> extends true ? (NotAny<B> extends true ? true : false) : false) : false;
type Expect<T extends true> = T;
export type ContractChecks = [
  Expect<Check<RunState, Contract.RunState>>,
  Expect<Check<SettledState, Contract.SettledState>>,
  Expect<Check<Scenario, Contract.Scenario>>,
  Expect<Check<RunSummary, Contract.RunSummary>>,
  Expect<Check<RunSeries, Contract.RunSeries>>,
  Expect<Check<EngineError, Contract.EngineError>>,
  Expect<Check<EventKind, Contract.EventKind>>,
  Expect<Check<EngineEvent, Contract.EngineEvent>>,
  Expect<Check<PointResult, Contract.PointResult>>,
  Expect<Check<Comparison, Contract.Comparison>>,
  Expect<Check<LabHookSnapshot, Contract.LabSnapshot>>,
];

function copySeries(s: RunSeries): RunSeries {
  return {
    length: s.length,
    t: s.t.slice(),
    flows: s.flows.map((f) => {
      const out = {} as RunSeries['flows'][number];
      for (const k of Object.keys(f) as (keyof typeof f)[]) out[k] = f[k].slice();
      return out;
    }),
    bottleneck_queue_pkts: s.bottleneck_queue_pkts.slice(),
    bottleneck_delay_ms: s.bottleneck_delay_ms.slice(),
    probe_rtt_ms: s.probe_rtt_ms.slice(),
    link_capacity_bps: s.link_capacity_bps.slice(),
    hosts: s.hosts.map((h) => (h.ring_pkts ? { ifq_pkts: h.ifq_pkts.slice(), ring_pkts: h.ring_pkts.slice() } : { ifq_pkts: h.ifq_pkts.slice() })),
  };
}

const clone = <T>(v: T): T => (v === null ? v : structuredClone(v));

type Finished = SettledState;
const finished = isSettled;

interface Waiter {
  /** Resolve only once a run newer than this has finished (undefined: the current run). */
  after: number | undefined;
  resolve: (s: Finished) => void;
}

/** Tracks what has been rendered; App publishes to it from a layout effect. */
export class RenderedRun implements RunPublisher {
  private snap: RunSnapshot | null = null;
  private state: RunState = 'idle';
  private error: EngineError | null = null;
  /** The newest run id published (running or finished); it only grows. */
  private latestRunId = 0;
  private waiters: Waiter[] = [];

  publish(snap: RunSnapshot | null, state: RunState, error: EngineError | null): void {
    this.snap = snap;
    this.state = state;
    this.error = error;
    // After an engine crash the snapshot shows the last finished run (an
    // older id): the run that crashed was published as running before.
    if (snap && snap.runId > this.latestRunId) this.latestRunId = snap.runId;
    if (finished(state)) {
      const keep: Waiter[] = [];
      const ready: Waiter[] = [];
      for (const w of this.waiters) (this.satisfies(w.after) ? ready : keep).push(w);
      this.waiters = keep;
      for (const w of ready) w.resolve(state);
    }
  }

  private satisfies(after: number | undefined): boolean {
    return after === undefined || this.latestRunId > after;
  }

  private whenDone(afterRunId?: number): Promise<Finished> {
    const after = typeof afterRunId === 'number' && Number.isFinite(afterRunId) ? afterRunId : undefined;
    const s = this.state;
    if (finished(s) && this.satisfies(after)) return Promise.resolve(s);
    return new Promise<Finished>((resolve) => this.waiters.push({ after, resolve }));
  }

  hooks(): SawtoothHooks {
    return Object.freeze({
      contractVersion: CONTRACT_VERSION,
      state: () => this.state,
      scenario: () => clone(this.snap?.scenario ?? null),
      summary: () => clone(this.snap?.summary ?? null),
      series: () => (this.snap?.series ? copySeries(this.snap.series) : null),
      error: () => clone(this.error),
      events: () => (this.snap ? this.snap.events.map((e) => ({ ...e })) : []),
      runId: () => this.latestRunId,
      whenDone: (afterRunId?: number) => this.whenDone(afterRunId),
      lab: () => labHookSnapshot(),
    } satisfies SawtoothHooks);
  }
}

export function installTestHooks(rendered: RenderedRun, target: Window = window): void {
  Object.defineProperty(target, 'sawtooth', { value: rendered.hooks(), writable: false, configurable: false, enumerable: true });
}
