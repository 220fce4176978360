// One guided lab's sweep at one scale: the points (from the engine), the
// state of each (pending, running, done, failed), the results as they
// arrive, and the paper comparison recomputed by the engine as results come
// in (at most every COMPARE_EVERY_MS while the sweep runs), with the lab's
// sentences about its runs checked against them and the seed aggregates
// its result charts draw. Subscribe
// with useSyncExternalStore. Results are kept for the browser
// tab (sessionStorage), so coming back from a drill-down, a reload or a
// reopened tab shows them again: the first finished point is written at
// once, later ones at most SAVE_EVERY_MS later, and whatever is pending is
// written when the page is hidden or unloaded and when the store is disposed.

import { engineErrorText } from '../engine/errors';
import type { ChartMetric, ClaimOutcome, FindingOutcome, SweepAggregates } from '../engine/generated/labs';
import type { Comparison, Lab, PointResult, SweepFileOutcome, SweepPoint } from '../engine/generated/labs';
import { aggregateMetrics } from './presentation';
import { pointCost, runOrder, type PointStatus } from './progress';
import type { SweepOutcome, SweepPool } from './pool';
import type { PointDebug, RankRow } from './protocol';
import type { LabService } from './service';

export type LabRunState = 'loading' | 'idle' | 'running' | 'done' | 'cancelled' | 'error';

export interface PointState {
  status: PointStatus;
  result: PointResult | null;
  /** Why the point failed, as text (the engine's error). */
  error: string | null;
  /** The point's worker died or trapped. */
  crashed: boolean;
  wallMs: number | null;
  startedAt: number | null;
  cost: number;
}

/** Where the results on screen came from when a sweep file from the CLI was opened (issue 27). */
export interface ImportedFrom {
  /** The file's name. */
  file: string;
  /** The file's scale (always the lab's on screen: another is refused). */
  quick: boolean;
  /** The sweep's series filter (`sawtooth sweep --series`); empty: every series. */
  series: string[];
  /** The engine build that wrote it (the page's own, or one whose results stamp for the lab is the page's: another is refused). */
  engine: string;
  /** Its results stamp for the lab (a hash of the lab's committed digests in that engine). */
  stamp: string;
  /** Runs the file held. */
  runs: number;
  /** Computed ahead and shipped with the site (public/results/), not opened by the user. */
  ahead: boolean;
}

/** What opening a file gave: how many runs it put on screen, or why it was refused (the line from 1, where there is one). */
export type OpenFileOutcome = { ok: true; runs: number } | { ok: false; line: number | null; message: string };

export interface SweepSnapshot {
  lab: Lab;
  quick: boolean;
  state: LabRunState;
  /** Why the sweep (or loading it) failed. */
  message: string | null;
  points: SweepPoint[];
  pointStates: PointState[];
  /** Results by point index (null: not finished). */
  results: (PointResult | null)[];
  comparisons: Comparison[] | null;
  ranking: RankRow[] | null;
  /** What the lab's text says these runs show, each sentence checked against them (null: not asked yet). */
  claims: ClaimOutcome[] | null;
  /** The papers' findings judged on these runs (null: not asked yet). */
  findings: FindingOutcome[] | null;
  /** The engine's seed aggregates of these results, for the result charts and tables (null: not asked yet). */
  aggregates: SweepAggregates | null;
  startedAt: number | null;
  finishedAt: number | null;
  /** Results restored from this tab's earlier visit. */
  restored: boolean;
  /** The results were opened from a sweep file the CLI wrote (null: run here, or none). */
  imported: ImportedFrom | null;
  /** Why the faithful results shipped with the site were not shown (null: shown, or not asked). */
  aheadProblem: AheadProblem | null;
}

/**
 * Why the faithful results computed ahead are not on screen: the file could not be fetched, or the engine refused
 * it (another engine's results, a damaged file); `reason` in the fetch's or the engine's words.
 */
export interface AheadProblem {
  kind: 'fetch' | 'refused';
  reason: string;
}

export interface SweepStoreDeps {
  service: LabService;
  pool: SweepPool;
  now: () => number;
  storage?: Storage | null;
  debug?: ReadonlyMap<number, PointDebug>;
  /** Calls back before the next frame is drawn (requestAnimationFrame where there is one). */
  frame?: (cb: () => void) => void;
  /** The papers state findings for this lab: judge them on every refresh (one more engine call). */
  hasFindings?: boolean;
  /** Tells when the page is hidden or unloaded (default: the browser's page; null: none). */
  page?: PageLifecycle | null;
  /**
   * The lab's faithful results computed ahead and shipped with the site (the text of public/results/<lab>.csv), or
   * null where there are none. Asked at the faithful scale when this tab has no results of its own.
   */
  ahead?: (labId: string) => Promise<string | null>;
}

/** When the page goes out of sight or away, the store writes its pending save. */
export interface PageLifecycle {
  /** Call `cb` when the page is hidden or unloaded; returns a function that stops the calls. */
  onHide(cb: () => void): () => void;
}

/**
 * The browser's page: `pagehide` (a reload, a closed tab, navigating away)
 * and `visibilitychange` to hidden (a tab switched away from, a minimised
 * window, a mobile browser about to discard the page, where `pagehide` may
 * never come). Null where there is no page (Node, a worker).
 */
export function browserPage(
  win: EventTarget | undefined = typeof window === 'undefined' ? undefined : window,
  doc: (EventTarget & { visibilityState: DocumentVisibilityState }) | undefined = typeof document === 'undefined' ? undefined : document,
): PageLifecycle | null {
  if (!win || !doc) return null;
  return {
    onHide(cb) {
      const onVisibility = () => {
        if (doc.visibilityState === 'hidden') cb();
      };
      win.addEventListener('pagehide', cb);
      doc.addEventListener('visibilitychange', onVisibility);
      return () => {
        win.removeEventListener('pagehide', cb);
        doc.removeEventListener('visibilitychange', onVisibility);
      };
    },
  };
}

const STORAGE_PREFIX = 'sawtooth.labs.v1';
/**
 * Finished points are written to storage at most this often (each write is
 * every result so far, as JSON): the first at once, later ones when this
 * has passed since the last write. A write still pending is made at once
 * when the page is hidden or unloaded and when the store is disposed, so a
 * finished point survives a reload or a closed tab.
 */
export const SAVE_EVERY_MS = 2000;
/**
 * While a sweep runs, the paper comparison and the charts' seed aggregates
 * (up to four engine calls over every result so far, on the service worker,
 * which shares the cores with the pool) are recomputed at most this often;
 * the final ones come when it ends. The result charts update with them.
 */
export const COMPARE_EVERY_MS = 500;
/**
 * Subscribers hear of point progress at most this often, and then with the
 * next frame. Drawing the charts per point, or even per frame, kept the
 * page's thread busy most of a small-run sweep (measured: 1.25 s of a
 * 1.57 s sweep), and that thread shares the cores with the pool's workers.
 */
export const PROGRESS_EVERY_MS = 250;
/**
 * While a sweep runs, the page spends at most about 1/DRAW_BUDGET_FACTOR of
 * its time redrawing: the wait before the next progress or results redraw is
 * at least this many times what the last one took (from the notification to
 * the end of the frame that showed it). A faithful sweep's charts and tables
 * grow with its points, and the page's thread shares the cores with the
 * pool's workers (measured on 700 points: 4.6 s of the page's CPU time).
 */
export const DRAW_BUDGET_FACTOR = 10;
/** Bounds the wait for a frame where frames stall (a hidden tab). */
const NOTIFY_FALLBACK_MS = 100;

function defaultFrame(cb: () => void): void {
  // Whichever comes first: the next frame, or the fallback timer.
  let fired = false;
  const once = () => {
    if (fired) return;
    fired = true;
    cb();
  };
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(once);
  setTimeout(once, NOTIFY_FALLBACK_MS);
}

/** A short hash of a string (FNV-1a, 32 bits, hex). */
export function fingerprint(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}

interface Saved {
  fingerprint: string;
  results: { index: number; result: PointResult; wallMs: number | null }[];
  imported?: ImportedFrom | null;
}

export class SweepStore {
  private snap: SweepSnapshot;
  private listeners = new Set<() => void>();
  private readonly deps: SweepStoreDeps;
  private handle: { cancel(): void } | null = null;
  private compareBusy = false;
  private compareDirty = false;
  private compareWaiters: (() => void)[] = [];
  private print = '';
  /** When results were last written (-Infinity: never, so the first is written at once whatever the clock). */
  private lastSave = -Infinity;
  /** Results not yet written, and the timer that will write them. */
  private saveDirty = false;
  private saveTimer: ReturnType<typeof setTimeout> | null = null;
  private stopPage: (() => void) | null = null;
  private disposed = false;
  /** A notification of point progress is scheduled (setSoon). */
  private notifyPending = false;
  private lastNotify = -Infinity;
  private compareTimer: ReturnType<typeof setTimeout> | null = null;
  /** What the page took to draw the last progress notification and the last new results (ms). */
  private progressDrawMs = 0;
  private resultsDrawMs = 0;
  /** What the charts and tables draw, aggregated by the engine with each comparison. */
  private readonly metrics: ChartMetric[];

  constructor(lab: Lab, quick: boolean, deps: SweepStoreDeps) {
    this.deps = deps;
    this.metrics = aggregateMetrics(lab);
    this.snap = {
      lab,
      quick,
      state: 'loading',
      message: null,
      points: [],
      pointStates: [],
      results: [],
      comparisons: null,
      ranking: null,
      claims: null,
      findings: null,
      aggregates: null,
      startedAt: null,
      finishedAt: null,
      restored: false,
      imported: null,
      aheadProblem: null,
    };
    const page = deps.page === undefined ? browserPage() : deps.page;
    this.stopPage = page?.onHide(() => this.flushSave()) ?? null;
  }

  getSnapshot = (): SweepSnapshot => this.snap;

  subscribe = (l: () => void): (() => void) => {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  };

  private set(patch: Partial<SweepSnapshot>): void {
    if (this.disposed) return;
    this.snap = { ...this.snap, ...patch };
    this.notifyPending = false;
    this.lastNotify = this.deps.now();
    for (const l of this.listeners) l();
  }

  /**
   * Point progress: the snapshot changes now, subscribers hear of it with
   * a frame at least PROGRESS_EVERY_MS after they last did. A sweep of small
   * runs finishes points far faster than the page can redraw its charts,
   * and drawing per point made the page, not the engine, the bottleneck.
   */
  private setSoon(patch: Partial<SweepSnapshot>): void {
    if (this.disposed) return;
    this.snap = { ...this.snap, ...patch };
    if (this.notifyPending) return;
    this.notifyPending = true;
    const every = Math.max(PROGRESS_EVERY_MS, DRAW_BUDGET_FACTOR * this.progressDrawMs);
    const wait = Math.max(0, this.lastNotify + every - this.deps.now());
    setTimeout(() => {
      (this.deps.frame ?? defaultFrame)(() => {
        if (!this.notifyPending || this.disposed) return;
        this.notifyPending = false;
        this.lastNotify = this.deps.now();
        for (const l of this.listeners) l();
        this.timeDraw(this.lastNotify, (ms) => (this.progressDrawMs = ms), true);
      });
    }, wait);
  }

  /**
   * Time a redraw that started at `t0`: a task queued from inside a frame
   * runs once that frame has rendered what the listeners changed (React's
   * update, then style, layout and paint); outside one, wait for the frame.
   */
  private timeDraw(t0: number, record: (ms: number) => void, inFrame: boolean): void {
    const done = () => setTimeout(() => record(Math.max(0, this.deps.now() - t0)), 0);
    if (inFrame) done();
    else (this.deps.frame ?? defaultFrame)(done);
  }

  private get key(): string {
    return `${STORAGE_PREFIX}:${this.snap.lab.id}:${this.snap.quick ? 'quick' : 'full'}`;
  }

  /**
   * Fetch the sweep's points, restore this tab's results, compare with the
   * paper; idle (or done) once the comparison and the charts' aggregates of
   * what was restored are in.
   */
  async load(): Promise<void> {
    const { lab, quick } = this.snap;
    let points: SweepPoint[];
    try {
      points = await this.deps.service.points(lab.id, quick);
    } catch (e) {
      this.set({ state: 'error', message: `Could not expand the lab’s sweep: ${(e as Error).message}` });
      return;
    }
    this.print = fingerprint(JSON.stringify(points));
    const pointStates: PointState[] = points.map((p) => ({ status: 'pending', result: null, error: null, crashed: false, wallMs: null, startedAt: null, cost: pointCost(p.scenario) }));
    const results: (PointResult | null)[] = points.map(() => null);
    let restored = false;
    let imported: ImportedFrom | null = null;
    const saved = this.readSaved();
    if (saved && saved.fingerprint === this.print) {
      for (const r of saved.results) {
        if (r.index >= 0 && r.index < points.length) {
          pointStates[r.index] = { ...pointStates[r.index], status: 'done', result: r.result, wallMs: r.wallMs };
          results[r.index] = r.result;
          restored = true;
        }
      }
      if (restored) imported = saved.imported ?? null;
    }
    const complete = results.every((r) => r !== null);
    this.set({ points, pointStates, results, restored, imported });
    if (!restored && !quick && this.deps.ahead && (await this.showAhead())) return;
    await this.refreshComparisons();
    this.set({ state: complete && points.length > 0 ? 'done' : 'idle' });
  }

  /**
   * Show the faithful results computed ahead (issue 27), checked by the engine as any sweep file is; true when they
   * are on screen. Where they cannot be (none shipped, or from an engine whose results differ), the sweep stays to
   * run here and `aheadProblem` says why.
   */
  private async showAhead(): Promise<boolean> {
    const id = this.snap.lab.id;
    let text: string | null;
    try {
      text = (await this.deps.ahead?.(id)) ?? null;
    } catch (e) {
      text = null;
      this.set({ aheadProblem: { kind: 'fetch', reason: (e as Error).message } });
    }
    if (text === null) return false;
    const out = await this.applyFile(`results/${id}.csv`, text, true);
    if (!out.ok) this.set({ aheadProblem: { kind: 'refused', reason: out.message } });
    return out.ok;
  }

  private readSaved(): Saved | null {
    try {
      const text = this.deps.storage?.getItem(this.key);
      return text ? (JSON.parse(text) as Saved) : null;
    } catch {
      return null;
    }
  }

  /**
   * Keep the results for the tab: now if forced or SAVE_EVERY_MS has passed
   * since the last write, else with a timer when it has (one write for all
   * the results that finish meanwhile).
   */
  private save(force = false): void {
    if (!this.deps.storage || this.disposed) return;
    this.saveDirty = true;
    const wait = this.lastSave + SAVE_EVERY_MS - this.deps.now();
    if (force || wait <= 0) {
      this.writeSave();
    } else if (this.saveTimer === null) {
      this.saveTimer = setTimeout(() => {
        this.saveTimer = null;
        this.flushSave();
      }, wait);
    }
  }

  /** Write a pending save now (the page is being hidden or unloaded, or the store disposed). */
  private flushSave(): void {
    if (this.saveDirty && !this.disposed) this.writeSave();
  }

  private writeSave(): void {
    const st = this.deps.storage;
    if (this.saveTimer !== null) clearTimeout(this.saveTimer);
    this.saveTimer = null;
    this.saveDirty = false;
    if (!st) return;
    this.lastSave = this.deps.now();
    const results: Saved['results'] = [];
    this.snap.pointStates.forEach((p, index) => {
      if (p.result) results.push({ index, result: p.result, wallMs: p.wallMs });
    });
    try {
      if (results.length === 0) st.removeItem(this.key);
      else st.setItem(this.key, JSON.stringify({ fingerprint: this.print, results, imported: this.snap.imported } satisfies Saved));
    } catch {
      // Storage full or unavailable: the results stay on the page only.
    }
  }

  /** Run every point without a result (all of them the first time). */
  run(): void {
    const s = this.snap;
    if (s.state === 'running' || s.state === 'loading' || s.points.length === 0) return;
    const todo = s.points.map((_, i) => i).filter((i) => s.pointStates[i].status !== 'done');
    if (todo.length === 0) return;
    const seriesIdx = new Map(s.lab.series.map((x, i) => [x.id, i]));
    const xKeys: string[] = [];
    const seeds: number[] = [];
    for (const p of s.points) {
      const k = JSON.stringify(p.x);
      if (!xKeys.includes(k)) xKeys.push(k);
      if (!seeds.includes(p.seed)) seeds.push(p.seed);
    }
    const keyed = todo.map((i) => {
      const p = s.points[i];
      return { x: xKeys.indexOf(JSON.stringify(p.x)), series: seriesIdx.get(p.series) ?? 0, seed: seeds.indexOf(p.seed), cost: s.pointStates[i].cost };
    });
    const order = runOrder(keyed).map((k) => todo[k]);
    const pointStates = s.pointStates.map((p) => (p.status === 'done' ? p : { ...p, status: 'pending' as const, error: null, crashed: false, startedAt: null }));
    this.set({ state: 'running', message: null, pointStates, startedAt: this.deps.now(), finishedAt: null });
    this.handle = this.deps.pool.run(
      { lab: s.lab.id, quick: s.quick, order, debug: this.deps.debug, cost: (i) => s.pointStates[i].cost },
      {
        started: (i) => this.patchPoint(i, { status: 'running', startedAt: this.deps.now() }),
        result: (i, result, wallMs) => {
          const results = this.snap.results.slice();
          results[i] = result;
          this.patchPoint(i, { status: 'done', result, wallMs }, { results });
          this.save();
          this.compareSoon();
        },
        failed: (i, error, crashed) => this.patchPoint(i, { status: 'error', error: engineErrorText(error), crashed }),
        finished: (o) => void this.finished(o),
      },
    );
  }

  private patchPoint(i: number, patch: Partial<PointState>, extra: Partial<SweepSnapshot> = {}): void {
    const pointStates = this.snap.pointStates.slice();
    pointStates[i] = { ...pointStates[i], ...patch };
    this.setSoon({ pointStates, ...extra });
  }

  /**
   * Refresh the comparison (and with it the charts) within COMPARE_EVERY_MS,
   * or longer when drawing the last results took the page long
   * (DRAW_BUDGET_FACTOR), once for all the results that arrive meanwhile.
   */
  private compareSoon(): void {
    if (this.compareTimer !== null || this.disposed) return;
    this.compareTimer = setTimeout(
      () => {
        this.compareTimer = null;
        if (!this.disposed) void this.refreshComparisons();
      },
      Math.max(COMPARE_EVERY_MS, DRAW_BUDGET_FACTOR * this.resultsDrawMs),
    );
  }

  private async finished(o: SweepOutcome): Promise<void> {
    this.handle = null;
    // The final comparison below covers every result.
    if (this.compareTimer !== null) clearTimeout(this.compareTimer);
    this.compareTimer = null;
    const pointStates = this.snap.pointStates.map((p) => (p.status === 'running' ? { ...p, status: 'pending' as const, startedAt: null } : p));
    this.set({ pointStates, finishedAt: this.deps.now() });
    this.save(true);
    // The final comparison is on screen before the sweep says it is done.
    await this.refreshComparisons();
    if (o.status === 'done') this.set({ state: 'done' });
    else if (o.status === 'cancelled') this.set({ state: 'cancelled' });
    else this.set({ state: 'error', message: engineErrorText(o.error) });
  }

  cancel(): void {
    if (this.snap.state !== 'running') return;
    this.handle?.cancel();
  }

  /** Forget the results (this tab's copy too). */
  clear(): void {
    if (this.snap.state === 'running') this.cancel();
    const pointStates = this.snap.pointStates.map((p) => ({ ...p, status: 'pending' as const, result: null, error: null, crashed: false, wallMs: null, startedAt: null }));
    this.set({ pointStates, results: this.snap.points.map(() => null), state: 'idle', restored: false, imported: null, startedAt: null, finishedAt: null, message: null });
    this.save(true);
    void this.refreshComparisons();
  }

  /**
   * Open a sweep file that `sawtooth sweep` or `sawtooth merge` wrote (its name and text): the engine reads and
   * checks it in the service's worker, and its runs replace the results on screen, as if the sweep had run here;
   * the comparison, sentences, findings and charts follow as at the end of a run. Refused (nothing changes) while
   * a sweep runs, or when the engine refuses the file (another lab, scale or engine build, or damage).
   */
  async openFile(name: string, text: string): Promise<OpenFileOutcome> {
    const s = this.snap;
    if (s.state === 'running' || s.state === 'loading') {
      return { ok: false, line: null, message: 'a sweep is running here: wait for it to finish, or cancel it, then open the file' };
    }
    return this.applyFile(name, text, false);
  }

  /** Put a sweep file's runs on screen once the engine has checked it (`ahead`: shipped with the site). */
  private async applyFile(name: string, text: string, ahead: boolean): Promise<OpenFileOutcome> {
    const s = this.snap;
    let out: SweepFileOutcome;
    try {
      out = await this.deps.service.openFile(s.lab.id, s.quick, text);
    } catch (e) {
      return { ok: false, line: null, message: `the engine could not read the file (${e instanceof Error ? e.message : String(e)})` };
    }
    if (out.status === 'refused') return { ok: false, line: out.line, message: out.message };
    const now = this.snap;
    if (this.disposed || now.state === 'running' || (now.state === 'loading' && !ahead)) {
      return { ok: false, line: null, message: 'a sweep started here while the file was read: open it again once it has finished' };
    }
    // The engine checked the file against its own expansion of this sweep; the page's points come from the same one.
    const wrong = out.indices.findIndex((i, k) => {
      const p = now.points[i];
      const r = out.results[k];
      return !p || !r || p.series !== r.series || p.seed !== r.seed || JSON.stringify(p.x) !== JSON.stringify(r.x);
    });
    if (wrong >= 0 || out.indices.length !== out.results.length) {
      return { ok: false, line: null, message: `run ${wrong} of the file is not the page's run at that place in the sweep` };
    }
    const pointStates = now.pointStates.map((p): PointState => ({ ...p, status: 'pending', result: null, error: null, crashed: false, wallMs: null, startedAt: null }));
    const results: (PointResult | null)[] = now.points.map(() => null);
    out.indices.forEach((i, k) => {
      pointStates[i] = { ...pointStates[i], status: 'done', result: out.results[k] };
      results[i] = out.results[k];
    });
    const imported: ImportedFrom = { file: name, quick: out.quick, series: out.series, engine: out.engine, stamp: out.results_stamp, runs: out.indices.length, ahead };
    this.set({ pointStates, results, imported, aheadProblem: null, restored: false, state: 'idle', message: null, startedAt: null, finishedAt: null });
    // Results shipped with the site are fetched again on the next visit; a faithful sweep's records (about 1 MB) would
    // crowd this tab's storage (about 5 MB for every lab).
    if (!ahead) this.save(true);
    // As at the end of a run: the comparison is on screen before the sweep says it is done.
    await this.refreshComparisons();
    if (results.every((r) => r !== null) && results.length > 0) this.set({ state: 'done' });
    return { ok: true, runs: out.indices.length };
  }

  /** Ask the engine for the comparison (ranking, sentences, the charts' aggregates) of the results so far; one request at a time. */
  refreshComparisons(): Promise<void> {
    const done = new Promise<void>((resolve) => this.compareWaiters.push(resolve));
    if (this.compareBusy) {
      this.compareDirty = true;
      return done;
    }
    void this.compareLoop();
    return done;
  }

  private async compareLoop(): Promise<void> {
    this.compareBusy = true;
    do {
      this.compareDirty = false;
      const waiters = this.compareWaiters.splice(0);
      const results = this.snap.results.filter((r): r is PointResult => r !== null);
      const { lab, quick } = this.snap;
      const id = lab.id;
      try {
        const [comparisons, ranking, claims, findings, aggregates] = await Promise.all([
          this.deps.service.compare(id, results),
          lab.ranking ? this.deps.service.rank(id, results) : Promise.resolve(null),
          lab.guide.simulator.length ? this.deps.service.claims(id, quick, results) : Promise.resolve([]),
          this.deps.hasFindings ? this.deps.service.findings(id, quick, results) : Promise.resolve([]),
          this.deps.service.aggregates(id, quick, this.metrics, results),
        ]);
        const t0 = this.deps.now();
        this.set({ comparisons, ranking, claims, findings, aggregates });
        this.timeDraw(t0, (ms) => (this.resultsDrawMs = ms), false);
      } catch (e) {
        this.set({ message: `The comparison with the paper failed: ${(e as Error).message}` });
      }
      for (const w of waiters) w();
    } while (this.compareDirty && !this.disposed);
    this.compareBusy = false;
    for (const w of this.compareWaiters.splice(0)) w();
  }

  dispose(): void {
    // What finished is kept before the sweep is stopped; nothing is written after.
    this.flushSave();
    this.stopPage?.();
    this.stopPage = null;
    if (this.saveTimer !== null) clearTimeout(this.saveTimer);
    this.saveTimer = null;
    if (this.snap.state === 'running') this.handle?.cancel();
    if (this.compareTimer !== null) clearTimeout(this.compareTimer);
    this.compareTimer = null;
    this.disposed = true;
    this.listeners.clear();
  }
}

/** ?debug=trap:3,crash:5 — make those points trap or kill their worker (tests). */
export function parsePointDebug(value: string | null): Map<number, PointDebug> {
  const out = new Map<number, PointDebug>();
  if (!value) return out;
  for (const part of value.split(',')) {
    const m = /^(trap|crash):(\d+)$/.exec(part.trim());
    if (m) out.set(Number(m[2]), m[1] as PointDebug);
  }
  return out;
}
