// How fast the engine runs on this machine, measured from the runs it has
// finished, so the page can say how long a run will take before starting it
// and how long is left while it runs (issue 11).
//
// Speed is counted in engine events (what `processed_events` counts and the
// resource model estimates), per second of wall time, including the worker's
// slicing and the page's drawing: the time a student actually waits.

/**
 * Until this browser has finished a run: a deliberately low guess, about a
 * fifth of what the WebAssembly engine processes in Node on the 2-core
 * reference machine (14–19 M events/s, `node scripts/bench-wasm.mjs`,
 * BENCHMARKS.md), since in the page it shares the CPU with drawing; the
 * first estimate errs long, never short.
 */
export const FALLBACK_EVENTS_PER_S = 3e6;

/** Runs shorter than this are dominated by start-up costs and say little about speed. */
const MIN_WALL_MS = 100;
/**
 * Nor do runs of fewer engine events: the page's first frames, the worker's
 * start and the charts' last draw cost about the same for any run, so the
 * default scenario's 0.7 M events measured about a tenth of the engine's
 * pace, and a 27 M-event run was then held as "about 65 s" and took 6.5 s.
 */
export const MIN_MEASURED_EVENTS = 2e6;
/** Each new run's weight against what was measured before (an exponential average by wall time). */
const KEEP = 0.7;

const STORAGE_KEY = 'sawtooth.engine-speed.v1';

export interface SpeedStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

interface Totals {
  events: number;
  wallMs: number;
}

export class EngineSpeed {
  private totals: Totals | null = null;
  private readonly storage: SpeedStorage | null;

  constructor(storage: SpeedStorage | null = browserStorage()) {
    this.storage = storage;
    this.totals = load(storage);
  }

  /** Engine events per second of wall time on this machine (the fallback until a run has been measured). */
  eventsPerSecond(): number {
    const t = this.totals;
    return t && t.wallMs > 0 && t.events > 0 ? (t.events / t.wallMs) * 1000 : FALLBACK_EVENTS_PER_S;
  }

  /** True once a run on this machine has been measured. */
  measured(): boolean {
    return this.totals !== null;
  }

  /** A finished run: `events` processed in `wallMs`. */
  record(events: number, wallMs: number): void {
    if (!(events >= MIN_MEASURED_EVENTS) || !(wallMs >= MIN_WALL_MS) || !Number.isFinite(events) || !Number.isFinite(wallMs)) return;
    const t = this.totals;
    this.totals = t ? { events: t.events * KEEP + events, wallMs: t.wallMs * KEEP + wallMs } : { events, wallMs };
    try {
      this.storage?.setItem(STORAGE_KEY, JSON.stringify(this.totals));
    } catch {
      // Storage full or denied: the measurement still holds for this tab.
    }
  }

  /** Wall time, ms, for a run of about `events` engine events. */
  estimateMs(events: number): number {
    return (events / this.eventsPerSecond()) * 1000;
  }
}

function browserStorage(): SpeedStorage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

function load(storage: SpeedStorage | null): Totals | null {
  try {
    const raw = storage?.getItem(STORAGE_KEY);
    if (!raw) return null;
    const t = JSON.parse(raw) as Partial<Totals>;
    return typeof t.events === 'number' && typeof t.wallMs === 'number' && t.events > 0 && t.wallMs > 0 ? { events: t.events, wallMs: t.wallMs } : null;
  } catch {
    return null;
  }
}

/**
 * Time left of a run: early on, the estimate less the time spent; once a
 * tenth is done, the pace so far (which knows this scenario and this machine
 * better than any model).
 */
export function timeLeftMs(progress: number, elapsedMs: number, estimatedMs: number | null): number | null {
  if (progress >= 1) return 0;
  if (progress >= 0.1 || estimatedMs === null) {
    if (progress <= 0) return null;
    return (elapsedMs * (1 - progress)) / progress;
  }
  const byEstimate = Math.max(0, estimatedMs - elapsedMs);
  if (progress <= 0) return byEstimate;
  // Blend towards the measured pace as progress grows from 0 to 10 %.
  const w = progress / 0.1;
  return (1 - w) * byEstimate + (w * elapsedMs * (1 - progress)) / progress;
}

/** "about 3 min", "about 40 s", "a few seconds". */
export function formatDuration(ms: number): string {
  const s = ms / 1000;
  if (s < 5) return 'a few seconds';
  if (s < 90) return `about ${Math.round(s / 5) * 5} s`;
  const min = s / 60;
  if (min < 90) return `about ${Math.round(min)} min`;
  const h = min / 60;
  return `about ${h < 10 ? h.toFixed(1) : Math.round(h)} h`;
}
