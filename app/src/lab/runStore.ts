// The state of the current run, outside React: the page subscribes to it
// (useSyncExternalStore), the test hooks read it. Starting a run supersedes
// (cancels) the previous one.

import { parseColumns, SeriesBuffer, type RunSeries } from '../engine/columns';
import type { RunHandle, RunHandlers } from '../engine/client';
import type { RunDebug } from '../engine/protocol';
import type { EngineError } from '../engine/errors';
import { parseEvents } from '../engine/events';
import type { EngineEvent, RunSummary, Scenario } from '../engine/types';

export type RunState = 'idle' | 'running' | 'done' | 'error';

export interface RunSnapshot {
  /** Increments on every change. */
  version: number;
  runId: number;
  state: RunState;
  scenario: Scenario | null;
  series: RunSeries | null;
  events: EngineEvent[];
  summary: RunSummary | null;
  error: EngineError | null;
  /** Simulated fraction done, 0..1. */
  progress: number;
  wallMs: number | null;
  /** The last run that finished before this one (drawn faintly for comparison). */
  ghost: GhostRun | null;
}

export interface GhostRun {
  runId: number;
  scenario: Scenario;
  series: RunSeries;
  events: EngineEvent[];
}

export interface RunClient {
  run(scenario: Scenario, handlers: RunHandlers, debug?: RunDebug): RunHandle;
}

const INITIAL: RunSnapshot = {
  version: 0,
  runId: 0,
  state: 'idle',
  scenario: null,
  series: null,
  events: [],
  summary: null,
  error: null,
  progress: 0,
  wallMs: null,
  ghost: null,
};

export class RunStore {
  private snap: RunSnapshot = INITIAL;
  private listeners = new Set<() => void>();
  private waiters: ((s: RunSnapshot) => void)[] = [];
  private handle: RunHandle | null = null;
  private readonly client: RunClient;

  constructor(client: RunClient) {
    this.client = client;
  }

  getSnapshot = (): RunSnapshot => this.snap;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Resolves when the latest run has finished (done or error). */
  whenDone(): Promise<RunSnapshot> {
    const s = this.snap;
    if (s.state === 'done' || s.state === 'error') return Promise.resolve(s);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** The last run that finished (kept on screen if a later run crashes the engine). */
  private lastDone: RunSnapshot | null = null;

  private update(patch: Partial<RunSnapshot>): void {
    this.snap = { ...this.snap, ...patch, version: this.snap.version + 1 };
    if (this.snap.state === 'done') this.lastDone = this.snap;
    for (const l of this.listeners) l();
    if (this.snap.state === 'done' || this.snap.state === 'error') {
      const w = this.waiters;
      this.waiters = [];
      for (const resolve of w) resolve(this.snap);
    }
  }

  /** Start a run of `scenario`, cancelling the one in progress. */
  start(scenario: Scenario, debug?: RunDebug): void {
    this.handle?.cancel();
    const prev = this.snap;
    const ghost: GhostRun | null =
      prev.state === 'done' && prev.series && prev.scenario
        ? { runId: prev.runId, scenario: prev.scenario, series: prev.series, events: prev.events }
        : prev.ghost;
    let buffer: SeriesBuffer | null = null;
    let events: EngineEvent[] = [];
    const handle = this.client.run(scenario, {
      onStart: (start) => {
        if (this.handle !== handle) return;
        buffer = new SeriesBuffer(parseColumns(start.columns), 1024);
        this.update({ series: buffer.series(), progress: 0 });
      },
      onChunk: (chunk) => {
        if (this.handle !== handle || !buffer) return;
        buffer.append(chunk.samples);
        if (chunk.events.length) events = events.concat(parseEvents(chunk.events));
        this.update({
          series: buffer.series(),
          events,
          progress: chunk.durationNs > 0 ? Math.min(1, chunk.nowNs / chunk.durationNs) : 1,
        });
      },
    }, debug);
    this.handle = handle;
    this.update({
      runId: handle.id,
      state: 'running',
      scenario,
      series: null,
      events: [],
      summary: null,
      error: null,
      progress: 0,
      wallMs: null,
      ghost,
    });
    void handle.result.then((r) => {
      if (this.handle !== handle) return;
      this.handle = null;
      if (r.status === 'done') this.update({ state: 'done', summary: r.summary, wallMs: r.wallMs, progress: 1 });
      else if (r.status === 'error') {
        // share/resilience: when the engine crashed (a trap or a dead worker;
        // the client restarts it), the last finished result stays on screen.
        const last = r.error.kind === 'trap' ? this.lastDone : null;
        this.update(
          last
            ? { state: 'error', error: r.error, runId: last.runId, scenario: last.scenario, series: last.series, events: last.events, summary: last.summary, wallMs: last.wallMs, progress: 1 }
            : { state: 'error', error: r.error },
        );
      }
      // 'cancelled' only happens when superseded, handled by the newer run.
    });
  }
}
