import { describe, expect, it } from 'vitest';
import { JUMBO_SCENARIO as DEFAULT_SCENARIO } from '../engine/testing/fixture';
import type { Scenario } from '../engine/types';
import { AutoRun } from './autoRun';
import { LabStore } from './labStore';
import type { StartOptions } from './runStore';

function setup() {
  const lab = new LabStore(structuredClone(DEFAULT_SCENARIO), structuredClone(DEFAULT_SCENARIO));
  const started: { scenario: Scenario; options?: StartOptions }[] = [];
  const auto = new AutoRun(lab, { start: (scenario, options) => started.push({ scenario, options }) });
  return { lab, started, auto };
}

describe('AutoRun: the store, not a component, starts runs', () => {
  it('runs the scenario on attach, and again on each scenario change', () => {
    const { lab, started, auto } = setup();
    let restarts = 0;
    auto.attach(() => restarts++);
    expect(started.map((s) => s.scenario.rtt_ms)).toEqual([30]);
    lab.update((s) => ({ ...s, rtt_ms: 60 }));
    lab.update((s) => ({ ...s, rtt_ms: 90 }));
    expect(started.map((s) => s.scenario.rtt_ms)).toEqual([30, 60, 90]);
    expect(restarts).toBe(3);
  });

  it('view changes and edits back to an equal scenario do not re-run', () => {
    const { lab, started, auto } = setup();
    auto.attach(() => {});
    lab.setView({ selectedFlow: 0, cwndUnit: 'bytes' });
    lab.update((s) => structuredClone(s));
    expect(started).toHaveLength(1);
  });

  it('the debug option applies to the first run only, and a re-attach (React remount) does not re-run', () => {
    const { lab, started, auto } = setup();
    const detach = auto.attach(() => {}, 'trap');
    detach();
    auto.attach(() => {}, 'trap');
    expect(started).toHaveLength(1);
    expect(started[0].options?.debug).toBe('trap');
    lab.update((s) => ({ ...s, rtt_ms: 10 }));
    expect(started[1].options?.debug).toBeUndefined();
  });

  it('stops following once detached', () => {
    const { lab, started, auto } = setup();
    const detach = auto.attach(() => {});
    detach();
    lab.update((s) => ({ ...s, rtt_ms: 77 }));
    expect(started).toHaveLength(1);
  });
});
