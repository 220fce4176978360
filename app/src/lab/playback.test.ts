import { describe, expect, it } from 'vitest';
import { INITIAL_PLAYBACK, onNewRun, pause, play, restart, scrub, setSpeed, shownTime, step, stepSize, tick, type Computed } from './playback';

const running: Computed = { frontier: 5, duration: 20, done: false };
const finished: Computed = { frontier: 20, duration: 20, done: true };

describe('playback clock', () => {
  it('live follows what the engine has computed', () => {
    expect(shownTime(INITIAL_PLAYBACK, running)).toBe(5);
    expect(shownTime(INITIAL_PLAYBACK, finished)).toBe(20);
    expect(tick(INITIAL_PLAYBACK, 1000, running)).toBe(INITIAL_PLAYBACK);
  });
  it('plays at speed × real time and stops at the end', () => {
    let p = play(INITIAL_PLAYBACK, finished); // live at the end: from 0
    expect(p).toMatchObject({ status: 'playing', t: 0 });
    p = setSpeed(p, 10);
    p = tick(p, 500, finished);
    expect(p.t).toBeCloseTo(5);
    p = tick(p, 2000, finished);
    expect(p).toMatchObject({ status: 'paused', t: 20 });
    expect(setSpeed(p, 1000).speed).toBe(100);
    expect(setSpeed(p, 0).speed).toBe(0.1);
  });
  it('waits for the engine when it catches up', () => {
    const p = tick({ status: 'playing', t: 4, speed: 100 }, 1000, running);
    expect(p).toMatchObject({ status: 'playing', t: 5 });
  });
  it('pauses, steps, scrubs and restarts', () => {
    let p = pause({ status: 'playing', t: 3, speed: 1 }, finished);
    expect(p).toMatchObject({ status: 'paused', t: 3 });
    p = step(p, finished, 0.5);
    expect(p.t).toBeCloseTo(3.5);
    p = step(p, running, 10);
    expect(p.t).toBe(5);
    p = step(p, running, -10);
    expect(p.t).toBe(0);
    expect(scrub(p, finished, 99).t).toBe(20);
    expect(scrub(p, finished, 7)).toMatchObject({ status: 'paused', t: 7 });
    expect(restart(p)).toMatchObject({ status: 'playing', t: 0 });
    expect(play({ status: 'paused', t: 7, speed: 1 }, finished)).toMatchObject({ status: 'playing', t: 7 });
    expect(stepSize(20, 0.01)).toBeCloseTo(0.2);
    expect(stepSize(0.5, 0.01)).toBe(0.01);
  });
  it('a new run replays from the start when playing, else keeps the mode', () => {
    expect(onNewRun({ status: 'playing', t: 9, speed: 2 })).toEqual({ status: 'playing', t: 0, speed: 2 });
    expect(onNewRun({ status: 'paused', t: 9, speed: 2 })).toEqual({ status: 'paused', t: 9, speed: 2 });
    expect(onNewRun(INITIAL_PLAYBACK)).toBe(INITIAL_PLAYBACK);
  });
});
