import { describe, expect, it } from 'vitest';
import { CONTROLS, parseControl } from './controls';
import { DEFAULT_SCENARIO } from '../engine/generated/defaults';

describe("a control's reset value", () => {
  // The page opens on the engine's default scenario and "Reset everything"
  // returns to it; each control's own reset must land on the same value.
  it("is the engine's default scenario's value", () => {
    const host = DEFAULT_SCENARIO.hosts[0];
    expect({
      rtt: CONTROLS.rtt.defaultValue,
      rate: CONTROLS.bottleneckRate.defaultValue,
      buffer: CONTROLS.bufferPkts.defaultValue,
      loss: CONTROLS.lossRate.defaultValue,
      nic: CONTROLS.nicRate.defaultValue,
      txqueuelen: CONTROLS.txqueuelen.defaultValue,
      window: CONTROLS.window.defaultValue,
      icwnd: CONTROLS.initialCwnd.defaultValue,
      durationS: CONTROLS.duration.defaultValue,
      seed: CONTROLS.seed.defaultValue,
    }).toEqual({
      rtt: DEFAULT_SCENARIO.rtt_ms,
      rate: DEFAULT_SCENARIO.bottleneck.rate_bps,
      buffer: DEFAULT_SCENARIO.bottleneck.buffer_pkts,
      loss: DEFAULT_SCENARIO.loss_rate,
      nic: host.nic_bps,
      txqueuelen: host.txqueuelen_pkts,
      window: host.flows[0].window_bytes,
      icwnd: DEFAULT_SCENARIO.tcp.initial_cwnd_pkts,
      durationS: DEFAULT_SCENARIO.duration_ms / 1000,
      seed: DEFAULT_SCENARIO.seed,
    });
  });

  it('lies within its own range', () => {
    for (const c of Object.values(CONTROLS)) {
      expect(c.defaultValue, c.id).toBeGreaterThanOrEqual(c.min);
      expect(c.defaultValue, c.id).toBeLessThanOrEqual(c.max);
    }
  });
});

describe('a refused rate or size typed as a bare number', () => {
  it('says how to type it in the unit the box shows, when that would be in range', () => {
    const rate = parseControl('50', CONTROLS.bottleneckRate);
    expect(rate.ok).toBe(false);
    if (!rate.ok) expect(rate.error.message).toMatch(/\(a number alone is in b\/s: type 50M for 50 Mb\/s\)$/);
    const win = parseControl('16', CONTROLS.window);
    if (!win.ok) expect(win.error.message).toMatch(/\(a number alone is in bytes: type 16M for 16 MB\)$/);
    expect(win.ok).toBe(false);
    // Typed with its unit, or out of range in any unit, no hint.
    const typed = parseControl('500G', CONTROLS.bottleneckRate);
    if (!typed.ok) expect(typed.error.message).not.toMatch(/number alone/);
    expect(parseControl('50M', CONTROLS.bottleneckRate)).toEqual({ ok: true, value: 50e6 });
  });
});
