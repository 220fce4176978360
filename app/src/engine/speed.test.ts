import { describe, expect, it } from 'vitest';
import { EngineSpeed, FALLBACK_EVENTS_PER_S, formatDuration, timeLeftMs, type SpeedStorage } from './speed';

function memoryStorage(): SpeedStorage & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v) };
}

describe('EngineSpeed: the engine’s pace on this machine', () => {
  it('uses the fallback until a run is measured, then the measured rate', () => {
    const s = new EngineSpeed(memoryStorage());
    expect(s.measured()).toBe(false);
    expect(s.eventsPerSecond()).toBe(FALLBACK_EVENTS_PER_S);
    s.record(8e6, 2000);
    expect(s.measured()).toBe(true);
    expect(s.eventsPerSecond()).toBe(4e6);
    expect(s.estimateMs(4e7)).toBe(10_000);
  });

  it('weighs runs by their wall time and lets old ones fade', () => {
    const s = new EngineSpeed(memoryStorage());
    s.record(2e6, 1000); // 2 M/s
    s.record(9e6, 1000); // 9 M/s
    // (0.7·2e6 + 9e6) / (0.7·1000 + 1000) ms
    expect(s.eventsPerSecond()).toBeCloseTo((10.4e6 / 1700) * 1000, 0);
    expect(s.eventsPerSecond()).toBeGreaterThan(5e6); // the newer run counts more
  });

  it('ignores runs too short to measure and nonsense', () => {
    const s = new EngineSpeed(memoryStorage());
    s.record(1e7, 20);
    // The default scenario (0.7 M events) is mostly the page's fixed costs: not a measure of the engine's pace.
    s.record(7e5, 1000);
    s.record(Number.NaN, 500);
    s.record(0, 500);
    expect(s.measured()).toBe(false);
  });

  it('remembers the measurement across page loads', () => {
    const storage = memoryStorage();
    new EngineSpeed(storage).record(6e6, 1000);
    expect(new EngineSpeed(storage).eventsPerSecond()).toBe(6e6);
    storage.data.set('sawtooth.engine-speed.v1', '{"events":"x"}');
    expect(new EngineSpeed(storage).measured()).toBe(false);
  });
});

describe('timeLeftMs', () => {
  it('starts from the estimate and moves to the measured pace', () => {
    expect(timeLeftMs(0, 1000, 60_000)).toBe(59_000);
    // At 10 % after 10 s the pace says 90 s more, whatever the estimate said.
    expect(timeLeftMs(0.1, 10_000, 60_000)).toBeCloseTo(90_000);
    expect(timeLeftMs(0.5, 10_000, 60_000)).toBeCloseTo(10_000);
    // In between, between the two.
    const mid = timeLeftMs(0.05, 5000, 60_000)!;
    expect(mid).toBeGreaterThan(55_000);
    expect(mid).toBeLessThan(95_000);
    expect(timeLeftMs(1, 10_000, 60_000)).toBe(0);
    expect(timeLeftMs(0, 1000, null)).toBeNull();
  });
});

describe('formatDuration', () => {
  it('reads like a person', () => {
    expect(formatDuration(2000)).toBe('a few seconds');
    expect(formatDuration(42_000)).toBe('about 40 s');
    expect(formatDuration(4 * 60_000)).toBe('about 4 min');
    expect(formatDuration(3 * 3_600_000)).toBe('about 3.0 h');
  });
});
