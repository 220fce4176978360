// The engine worker's logic, independent of the Worker global so that it can
// be unit-tested with a mock engine. worker.ts wires it to `self`.

import { isFatal, toEngineError, type EngineError } from './errors';
import type { EngineInfo, FromWorker, RunDebug, RunReply, ToWorker } from './protocol';
import type { RawEngine } from './raw';
import { aqmCatalogue, catalogue, defaultScenario, EngineRunError, estimateResources, profiles, readTrace, Simulation, validateScenario } from './simulation';
import type { ResourceEstimate, Scenario } from './types';

export interface RunnerDeps {
  /** Instantiate the wasm engine. */
  load: () => Promise<RawEngine>;
  post: (msg: FromWorker, transfer?: Transferable[]) => void;
  /** Let queued messages (a cancel, a newer run) be delivered. */
  yieldToEvents: () => Promise<void>;
  /** Wall clock in ms (performance.now). */
  now: () => number;
  /** Target wall time of one slice, ms (default 25). */
  sliceBudgetMs?: number;
  /** Simulated time of the first slice, ns (default 20 ms). */
  firstSliceNs?: number;
  /** Kill the worker from outside the run (debug 'crash'); worker.ts throws an uncaught error. */
  crash?: () => void;
  /** End the worker without a word (debug 'exit'); worker.ts closes itself. */
  exit?: () => void;
}

const MIN_SLICE_NS = 1e6; // 1 ms of simulated time

export class Runner {
  private engine: Promise<RawEngine> | null = null;
  private current: number | null = null;
  private poisoned: EngineError | null = null;
  private readonly deps: RunnerDeps;

  constructor(deps: RunnerDeps) {
    this.deps = deps;
  }

  /** Load the engine and announce it (or the failure to load it). */
  async start(): Promise<void> {
    try {
      const engine = await this.loadEngine();
      const info: EngineInfo = { defaultScenario: defaultScenario(engine), catalogue: catalogue(engine), aqms: aqmCatalogue(engine), profiles: profiles(engine) };
      this.deps.post({ type: 'ready', info });
    } catch (e) {
      const error: EngineError = e instanceof EngineRunError ? e.error : { kind: 'load', message: String((e as Error)?.message ?? e) };
      this.poisoned = error;
      this.deps.post({ type: 'load-error', error });
    }
  }

  handle({ id, call }: ToWorker): void {
    switch (call.type) {
      case 'run':
        this.current = id;
        void this.run(id, call.scenario, call.debug, call.confirmAboveEvents);
        break;
      case 'cancel':
        if (this.current === id) this.current = null;
        break;
      case 'validate':
        void this.validate(id, call.scenario);
        break;
      case 'readTrace':
        void this.readTrace(id, call.text, call.name);
        break;
    }
  }

  private reply(id: number, reply: RunReply, transfer?: Transferable[]): void {
    this.deps.post({ type: 'reply', id, reply }, transfer);
  }

  /** Validate without running; does not touch the run in progress. */
  private async validate(id: number, scenario: Scenario): Promise<void> {
    if (this.poisoned) {
      this.deps.post({ type: 'error', id, error: this.poisoned, fatal: true });
      return;
    }
    try {
      const engine = await this.loadEngine();
      this.reply(id, { type: 'validated', errors: validateScenario(engine, scenario) });
    } catch (e) {
      this.fail(id, e instanceof EngineRunError ? e.error : toEngineError(e));
    }
  }

  /** Read a Mahimahi trace file; does not touch the run in progress. */
  private async readTrace(id: number, text: string, name: string): Promise<void> {
    if (this.poisoned) {
      this.deps.post({ type: 'error', id, error: this.poisoned, fatal: true });
      return;
    }
    try {
      const engine = await this.loadEngine();
      this.reply(id, { type: 'traceRead', ...readTrace(engine, text, name) });
    } catch (e) {
      this.fail(id, e instanceof EngineRunError ? e.error : toEngineError(e));
    }
  }

  private loadEngine(): Promise<RawEngine> {
    this.engine ??= this.deps.load();
    return this.engine;
  }

  private fail(id: number, error: EngineError): void {
    const fatal = error.kind === 'load' || isFatal(error);
    if (fatal) this.poisoned = error;
    this.deps.post({ type: 'error', id, error, fatal });
  }

  private async run(id: number, scenario: Scenario, debug?: RunDebug, confirmAboveEvents?: number): Promise<void> {
    const { post, now, yieldToEvents } = this.deps;
    const budget = this.deps.sliceBudgetMs ?? 25;
    if (this.poisoned) {
      post({ type: 'error', id, error: this.poisoned, fatal: true });
      return;
    }
    let engine: RawEngine;
    try {
      engine = await this.loadEngine();
    } catch (e) {
      this.fail(id, { kind: 'load', message: String((e as Error)?.message ?? e) });
      return;
    }
    if (this.current !== id) {
      this.reply(id, { type: 'cancelled' });
      return;
    }

    const wallStart = now();
    let sim: Simulation | null = null;
    try {
      if (debug === 'trap') {
        if (!engine.debug_trap) throw new EngineRunError({ kind: 'internal', message: 'this engine has no debug_trap()' });
        engine.debug_trap();
      }
      const json = JSON.stringify(scenario);
      // The browser's budget, before the engine allocates anything: a run
      // whose recording and the page's copies of it would not fit in the
      // renderer is refused, naming the field to change and the limit
      // (issue 28; the resource model's `browser_refusal`, words as
      // validation's). An invalid scenario gets its validation errors first.
      let early: ResourceEstimate | null = null;
      try {
        early = estimateResources(engine, json);
      } catch (e) {
        // Unreadable: create() below names the problem. Anything else (a trap) is reported as such.
        if (!(e instanceof EngineRunError && e.error.kind === 'validation')) throw e;
      }
      if (early?.browser_refusal && validateScenario(engine, json).length === 0) {
        throw new EngineRunError({ kind: 'validation', errors: [early.browser_refusal] });
      }
      sim = Simulation.create(engine, json);
      // Valid (create validated it), so the resource model can read it.
      const estimate = early ?? estimateResources(engine, json);
      if (confirmAboveEvents !== undefined && estimate.engine_events > confirmAboveEvents) {
        if (this.current === id) this.current = null;
        this.reply(id, { type: 'confirm', estimate });
        return;
      }
      const durationNs = sim.durationNs;
      this.reply(id, { type: 'started', columns: sim.layout.names, flowCount: sim.flowCount, durationNs, estimate });
      if (debug === 'crash') this.deps.crash?.();
      if (debug === 'exit') {
        this.deps.exit?.();
        return;
      }

      let step = Math.max(MIN_SLICE_NS, this.deps.firstSliceNs ?? 20e6);
      let done = false;
      let stuck = 0;
      while (!done) {
        if (this.current !== id) {
          this.reply(id, { type: 'cancelled' });
          return;
        }
        const t0 = now();
        const before = sim.nowNs;
        const target = Math.min(before + step, durationNs);
        done = sim.advance(target);
        const chunk = sim.drain();
        const nowNs = sim.nowNs;
        this.reply(id, { type: 'chunk', samples: chunk.samples, rows: chunk.rows, events: chunk.events, nowNs, durationNs }, [
          chunk.samples.buffer as ArrayBuffer,
          chunk.events.buffer as ArrayBuffer,
        ]);
        if (!done) {
          stuck = nowNs <= before && target >= durationNs ? stuck + 1 : 0;
          if (stuck > 3) throw new EngineRunError({ kind: 'internal', message: 'the engine stopped advancing before the end of the run' });
          // Aim each slice at the wall-time budget so the page stays live.
          const dt = now() - t0;
          if (dt < budget / 2) step *= 2;
          else if (dt > budget * 2) step = Math.max(MIN_SLICE_NS, step / 2);
          await yieldToEvents();
        }
      }
      const summary = sim.summary();
      if (this.current === id) this.current = null;
      this.reply(id, { type: 'done', summary, wallMs: now() - wallStart, events: sim.processedEvents });
    } catch (e) {
      if (this.current === id) this.current = null;
      this.fail(id, e instanceof EngineRunError ? e.error : toEngineError(e));
    } finally {
      sim?.free();
    }
  }
}
