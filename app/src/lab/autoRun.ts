// The one place an edit starts a run: the lab page's scenario is followed,
// and every change of it (not of the view: zoom, selected flow, cwnd unit)
// starts a run of the new scenario; the run store cancels the stale one.
// Components only render and edit the LabStore.

import type { RunDebug } from '../engine/protocol';
import type { Scenario } from '../engine/types';
import type { LabStore } from './labStore';
import type { StartOptions } from './runStore';

/** What AutoRun needs of the run store. */
export interface RunStarter {
  start(scenario: Scenario, options?: StartOptions): void;
}

export class AutoRun {
  /** The scenario of the last run started, as JSON: equal edits (a slider let go where it was) do not re-run. */
  private lastKey: string | null = null;

  constructor(
    private readonly lab: Pick<LabStore, 'getSnapshot' | 'subscribe'>,
    private readonly runs: RunStarter,
  ) {}

  /**
   * Follow the scenario: start a run now unless this scenario was the last
   * one started, then on every change. `onStart` is told of each run
   * started (the page restarts its playback clock); `firstDebug` applies to
   * the first run only (the page's ?debug= link parameter). Returns the
   * function that stops following.
   */
  attach(onStart: () => void, firstDebug?: RunDebug): () => void {
    let debug = this.lastKey === null ? firstDebug : undefined;
    const follow = () => {
      const scenario = this.lab.getSnapshot().scenario;
      const key = JSON.stringify(scenario);
      if (key === this.lastKey) return;
      this.lastKey = key;
      this.runs.start(scenario, { debug });
      debug = undefined;
      onStart();
    };
    follow();
    return this.lab.subscribe(follow);
  }
}
