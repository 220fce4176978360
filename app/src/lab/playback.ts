// The playback clock: which simulated time the charts show. Pure state
// transitions; the page advances it from requestAnimationFrame.
//
//   live     the charts follow the engine as it computes (the default, and
//            what a slider change shows: the new run grows at once)
//   playing  the cursor advances at `speed` × real time, waiting for the
//            engine when it catches up with it
//   paused   the cursor stays (pause, step, scrub)

export type PlaybackStatus = 'live' | 'playing' | 'paused';

export interface Playback {
  status: PlaybackStatus;
  /** Cursor in simulated seconds (ignored while live). */
  t: number;
  /** Simulated seconds per real second. */
  speed: number;
}

export const MIN_SPEED = 0.1;
export const MAX_SPEED = 100;
export const SPEEDS = [0.1, 0.25, 0.5, 1, 2, 5, 10, 25, 50, 100];

export const INITIAL_PLAYBACK: Playback = { status: 'live', t: 0, speed: 1 };

/** What has been computed: `frontier` seconds of a `duration`-second run; `done` when complete. */
export interface Computed {
  frontier: number;
  duration: number;
  done: boolean;
}

/** The simulated time the charts show. */
export function shownTime(p: Playback, c: Computed): number {
  return p.status === 'live' ? c.frontier : Math.min(p.t, c.frontier);
}

export function clampSpeed(speed: number): number {
  return Math.min(MAX_SPEED, Math.max(MIN_SPEED, Number.isFinite(speed) ? speed : 1));
}

/** Advance a playing clock by `wallMs` of real time. */
export function tick(p: Playback, wallMs: number, c: Computed): Playback {
  if (p.status !== 'playing') return p;
  const t = p.t + (Math.max(0, wallMs) / 1000) * p.speed;
  if (c.done && t >= c.duration) return { ...p, status: 'paused', t: c.duration };
  // Waiting for the engine: hold at what has been computed.
  return { ...p, t: Math.min(t, Math.max(c.frontier, p.t)) };
}

/** Play: from the start when at the end (or live over a finished run), else from the cursor. */
export function play(p: Playback, c: Computed): Playback {
  const at = shownTime(p, c);
  const atEnd = c.done && at >= c.duration - 1e-9;
  return { ...p, status: 'playing', t: atEnd ? 0 : at };
}

export function pause(p: Playback, c: Computed): Playback {
  return { ...p, status: 'paused', t: shownTime(p, c) };
}

export function restart(p: Playback): Playback {
  return { ...p, status: 'playing', t: 0 };
}

/** Step forward (or back, negative) by `dt` seconds and pause. */
export function step(p: Playback, c: Computed, dt: number): Playback {
  const t = Math.min(c.frontier, Math.max(0, shownTime(p, c) + dt));
  return { ...p, status: 'paused', t };
}

export function scrub(p: Playback, c: Computed, t: number): Playback {
  return { ...p, status: 'paused', t: Math.min(c.duration, Math.max(0, t)) };
}

/** Follow the engine again (the "live" button). */
export function goLive(p: Playback): Playback {
  return { ...p, status: 'live' };
}

export function setSpeed(p: Playback, speed: number): Playback {
  return { ...p, speed: clampSpeed(speed) };
}

/** A new run started (a slider moved): live stays live, playing replays from 0, paused keeps its time. */
export function onNewRun(p: Playback): Playback {
  if (p.status === 'playing') return { ...p, t: 0 };
  return p;
}

/** One step: a hundredth of what is on screen, at least one sample. */
export function stepSize(viewSpanS: number, sampleIntervalS: number): number {
  return Math.max(sampleIntervalS, viewSpanS / 100);
}
