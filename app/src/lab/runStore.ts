// The state of the current run, outside React: the page subscribes to it
// (useSyncExternalStore), the test hooks read it. Starting a run supersedes
// (cancels) the previous one.

import { parseColumns, SeriesBuffer, type RunSeries } from '../engine/columns';
import type { RunHandle, RunHandlers, RunOptions } from '../engine/client';
import type { RunDebug } from '../engine/protocol';
import type { EngineError } from '../engine/errors';
import { parseEvents } from '../engine/events';
import { EngineSpeed, timeLeftMs } from '../engine/speed';
import type { EngineEvent, ResourceEstimate, RunSummary, Scenario } from '../engine/types';

/**
 * 'waiting': a long run is held until the user says go (nothing is running);
 * 'stopped': the user stopped the run, what it computed stays on screen.
 */
export type RunState = 'idle' | 'running' | 'done' | 'error' | 'waiting' | 'stopped';

/** States in which nothing is running and nothing will without the user. */
export type SettledState = Exclude<RunState, 'idle' | 'running'>;

export function isSettled(s: RunState): s is SettledState {
  return s !== 'idle' && s !== 'running';
}

/** Runs expected to take longer than this (wall time, on this machine) wait for the user's go-ahead. */
export const CONFIRM_ABOVE_MS = 60_000;

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
  /** The resource model's estimate for the run on screen (or the one waiting). */
  estimate: ResourceEstimate | null;
  /** Its expected wall time on this machine, ms (estimate ÷ the engine's measured speed). */
  estimatedMs: number | null;
  /** Wall time left of the running run, ms, or null when unknown. */
  timeLeftMs: number | null;
  /** 'waiting': the scenario held back (the one on screen is the last finished run's). */
  held: Scenario | null;
  /** The last run that finished before this one (drawn faintly for comparison). */
  ghost: GhostRun | null;
}

export interface GhostRun {
  runId: number;
  scenario: Scenario;
  series: RunSeries;
  events: EngineEvent[];
}

/**
 * Where the page reports what is on screen (the test hooks, testHooks.ts):
 * the snapshot drawn, the state shown and the error shown.
 */
export interface RunPublisher {
  publish(snap: RunSnapshot | null, state: RunState, error: EngineError | null): void;
}

export interface RunClient {
  run(scenario: Scenario, handlers: RunHandlers, options?: RunOptions): RunHandle;
}

export interface RunStoreOptions {
  /** The engine's measured pace on this machine. */
  speed?: EngineSpeed;
  /** Wall clock, ms. */
  now?: () => number;
}

export interface StartOptions {
  debug?: RunDebug;
  /** The user has agreed to a long run: start it whatever its estimate. */
  confirmed?: boolean;
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
  estimate: null,
  estimatedMs: null,
  timeLeftMs: null,
  held: null,
  ghost: null,
};

export class RunStore {
  private snap: RunSnapshot = INITIAL;
  private listeners = new Set<() => void>();
  private waiters: ((s: RunSnapshot) => void)[] = [];
  private handle: RunHandle | null = null;
  private readonly client: RunClient;
  readonly speed: EngineSpeed;
  private readonly now: () => number;

  constructor(client: RunClient, options: RunStoreOptions = {}) {
    this.client = client;
    this.speed = options.speed ?? new EngineSpeed();
    this.now = options.now ?? (() => performance.now());
  }

  getSnapshot = (): RunSnapshot => this.snap;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Resolves when the latest run has settled (done, error, stopped, or waiting for the user). */
  whenDone(): Promise<RunSnapshot> {
    const s = this.snap;
    if (isSettled(s.state)) return Promise.resolve(s);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** The last run that finished (kept on screen if a later run crashes the engine). */
  private lastDone: RunSnapshot | null = null;

  private update(patch: Partial<RunSnapshot>): void {
    this.snap = { ...this.snap, ...patch, version: this.snap.version + 1 };
    if (this.snap.state === 'done') this.lastDone = this.snap;
    for (const l of this.listeners) l();
    if (isSettled(this.snap.state)) {
      const w = this.waiters;
      this.waiters = [];
      for (const resolve of w) resolve(this.snap);
    }
  }

  /**
   * Start a run of `scenario`, cancelling the one in progress. A run the
   * resource model expects to take longer than CONFIRM_ABOVE_MS here is held
   * ('waiting') unless `confirmed`.
   */
  start(scenario: Scenario, options: StartOptions = {}): void {
    this.handle?.cancel();
    const prev = this.snap;
    const ghost: GhostRun | null =
      prev.state === 'done' && prev.series && prev.scenario
        ? { runId: prev.runId, scenario: prev.scenario, series: prev.series, events: prev.events }
        : prev.ghost;
    let buffer: SeriesBuffer | null = null;
    let events: EngineEvent[] = [];
    let startedAt = this.now();
    const confirmAboveEvents = options.confirmed ? undefined : (this.speed.eventsPerSecond() * CONFIRM_ABOVE_MS) / 1000;
    const handle = this.client.run(
      scenario,
      {
        onStart: (start) => {
          if (this.handle !== handle) return;
          // Room for the rows the run records (the resource model's count,
          // exact), not a fixed 1024: 1024 rows × 41 091 columns of a
          // 4 096-flow run were 321 MiB for 40 rows of samples (issue 28).
          // A run that records more grows the buffer by doubling.
          buffer = new SeriesBuffer(parseColumns(start.columns), Math.max(1, start.estimate.samples_per_flow));
          startedAt = this.now();
          const estimatedMs = this.speed.estimateMs(start.estimate.engine_events);
          this.update({ series: buffer.series(), progress: 0, estimate: start.estimate, estimatedMs, timeLeftMs: estimatedMs });
        },
        onChunk: (chunk) => {
          if (this.handle !== handle || !buffer) return;
          // A chunk without new rows (slices much shorter than the sample
          // interval) keeps the series object, so nothing drawn from it is
          // rebuilt: series() makes a view per column (41 091 for 4 096 flows).
          const rows = buffer.append(chunk.samples);
          if (chunk.events.length) events = events.concat(parseEvents(chunk.events));
          const progress = chunk.durationNs > 0 ? Math.min(1, chunk.nowNs / chunk.durationNs) : 1;
          this.update({
            ...(rows > 0 ? { series: buffer.series() } : {}),
            events,
            progress,
            timeLeftMs: timeLeftMs(progress, this.now() - startedAt, this.snap.estimatedMs),
          });
        },
      },
      { debug: options.debug, confirmAboveEvents },
    );
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
      estimate: null,
      estimatedMs: null,
      timeLeftMs: null,
      held: null,
      ghost,
    });
    void handle.result.then((r) => {
      if (this.handle !== handle) return;
      this.handle = null;
      if (r.status === 'done') {
        this.speed.record(r.events, r.wallMs);
        this.update({ state: 'done', summary: r.summary, wallMs: r.wallMs, progress: 1, timeLeftMs: 0 });
      } else if (r.status === 'confirm') {
        // Held back: the last finished result stays on screen until the user decides.
        const last = this.lastDone;
        const estimatedMs = this.speed.estimateMs(r.estimate.engine_events);
        this.update({
          state: 'waiting',
          held: scenario,
          estimate: r.estimate,
          estimatedMs,
          timeLeftMs: null,
          ...(last
            ? { scenario: last.scenario, series: last.series, events: last.events, summary: last.summary, wallMs: last.wallMs, progress: 1 }
            : { scenario: null, progress: 0 }),
        });
      } else if (r.status === 'error') {
        // share/resilience: when the engine crashed (a trap or a dead worker;
        // the client restarts it), the last finished result stays on screen.
        const last = r.error.kind === 'trap' ? this.lastDone : null;
        this.update(
          last
            ? { state: 'error', error: r.error, runId: last.runId, scenario: last.scenario, series: last.series, events: last.events, summary: last.summary, wallMs: last.wallMs, progress: 1, timeLeftMs: null }
            : { state: 'error', error: r.error, timeLeftMs: null },
        );
      }
      // 'cancelled' happens when superseded (handled by the newer run) or stopped (handled by stop()).
    });
  }

  /** Run the scenario that is waiting for the user's go-ahead. */
  confirm(): void {
    const s = this.snap;
    if (s.state === 'waiting' && s.held) this.start(s.held, { confirmed: true });
  }

  /**
   * Stop the running run (the user's Stop or Escape): what it has computed so
   * far stays on screen; nothing else starts.
   */
  stop(): void {
    const h = this.handle;
    if (!h || this.snap.state !== 'running') return;
    this.handle = null;
    h.cancel();
    this.update({ state: 'stopped', timeLeftMs: null });
  }
}
