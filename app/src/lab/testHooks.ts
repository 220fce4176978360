// A read-only window.sawtooth for tests and the curious: what the page shows
// right now (published after each render), and a promise for the end of the
// current run, so tests wait on state rather than on timeouts.

import type { RunSeries } from '../engine/columns';
import type { EngineError } from '../engine/errors';
import type { EngineEvent, RunSummary, Scenario } from '../engine/types';
import type { RunSnapshot, RunState } from './runStore';
// guided labs (issue 7): window.sawtooth.lab().
import { labHookSnapshot, type LabHookSnapshot } from '../labs/testHooks';

export interface SawtoothHooks {
  state(): RunState;
  scenario(): Scenario | null;
  summary(): RunSummary | null;
  /** A copy of the run's samples so far. */
  series(): RunSeries | null;
  error(): EngineError | null;
  /** The engine's event log of the run so far: { t_s, flow, kind } (kinds as in engine/types EVENT_KINDS). */
  events(): EngineEvent[];
  /** Resolves with the final state once the current run has finished and is on screen. */
  whenDone(): Promise<RunState>;
  /** guided labs: what the guided-labs view shows (the open lab's sweep), or null on other views. */
  lab(): LabHookSnapshot | null;
}

declare global {
  interface Window {
    sawtooth?: SawtoothHooks;
  }
}

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
    hosts: s.hosts.map((h) => ({ ifq_pkts: h.ifq_pkts.slice() })),
  };
}

const clone = <T>(v: T): T => (v === null ? v : structuredClone(v));

/** Tracks what has been rendered; App publishes to it from a layout effect. */
export class RenderedRun {
  private snap: RunSnapshot | null = null;
  private state: RunState = 'idle';
  private error: EngineError | null = null;
  private waiters: ((s: RunState) => void)[] = [];

  publish(snap: RunSnapshot | null, state: RunState, error: EngineError | null): void {
    this.snap = snap;
    this.state = state;
    this.error = error;
    if (state === 'done' || state === 'error') {
      const w = this.waiters;
      this.waiters = [];
      for (const resolve of w) resolve(state);
    }
  }

  hooks(): SawtoothHooks {
    return Object.freeze({
      state: () => this.state,
      scenario: () => clone(this.snap?.scenario ?? null),
      summary: () => clone(this.snap?.summary ?? null),
      series: () => (this.snap?.series ? copySeries(this.snap.series) : null),
      error: () => clone(this.error),
      events: () => (this.snap ? this.snap.events.map((e) => ({ ...e })) : []),
      whenDone: () =>
        this.state === 'done' || this.state === 'error'
          ? Promise.resolve(this.state)
          : new Promise<RunState>((resolve) => this.waiters.push(resolve)),
      lab: () => labHookSnapshot(),
    });
  }
}

export function installTestHooks(rendered: RenderedRun, target: Window = window): void {
  Object.defineProperty(target, 'sawtooth', { value: rendered.hooks(), writable: false, configurable: false, enumerable: true });
}
