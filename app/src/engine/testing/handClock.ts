// A hand-driven clock for the worker client's heartbeat (ClientTimers): the
// watchdog runs when the test ticks, never on its own.

import type { ClientTimers } from '../workerClient';

export interface HandClock {
  timers: ClientTimers;
  /** The watchdogs armed now. */
  checks: (() => void)[];
  now(): number;
  /** Move the clock and run the watchdog once. */
  tick(ms: number): void;
}

export function handClock(): HandClock {
  let clock = 0;
  const checks: (() => void)[] = [];
  const c: HandClock = {
    timers: { now: () => clock, setInterval: (f) => checks.push(f), clearInterval: () => checks.splice(0) },
    checks,
    now: () => clock,
    tick: (ms) => {
      clock += ms;
      for (const f of [...checks]) f();
    },
  };
  return c;
}
