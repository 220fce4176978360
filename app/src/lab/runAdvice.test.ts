import { describe, expect, it } from 'vitest';
import { defaultMockScenario } from '../engine/testing/mockEngine';
import type { ResourceEstimate, Scenario } from '../engine/types';
import { crashSuspect, formatBytesShort, formatCount, quickerRun } from './runAdvice';

const MB = 2 ** 20;
const estimate = (recorded_bytes: number): ResourceEstimate => ({
  samples_per_flow: 0,
  columns: 0,
  sample_bytes: recorded_bytes,
  events: 0,
  event_bytes: 0,
  event_bytes_max: 0,
  recorded_bytes,
  recorded_bytes_max: recorded_bytes,
  budget_bytes: 256 * MB,
  data_packets: 3e8,
  ack_packets: 1e8,
  probe_packets: 0,
  probe_bytes: 0,
  engine_events: 1e9,
  in_flight_packets_max: 0,
  in_flight_bytes_max: 0,
  in_flight_budget_bytes: 2 ** 30,
  browser: {
    engine_recording_bytes: recorded_bytes,
    engine_packets_bytes: 0,
    engine_chunk_bytes: recorded_bytes,
    chunks_bytes: recorded_bytes,
    series_bytes: recorded_bytes,
    averages_bytes: 0,
    delivery_index_bytes: 0,
    ghost_bytes: recorded_bytes,
    total_bytes: 5 * recorded_bytes,
  },
  browser_bytes_max: 5 * recorded_bytes,
  browser_budget_bytes: 2 * 2 ** 30,
  browser_refusal: null,
});

function withFlows(s: Scenario, n: number): Scenario {
  const flow = s.hosts[0].flows[0];
  return { ...s, hosts: [{ ...s.hosts[0], flows: Array.from({ length: n }, () => ({ ...flow })) }] };
}

describe('quickerRun: what makes a long run quicker, in the controls’ words', () => {
  it('names the duration, a fast bottleneck and many flows when they drive the cost', () => {
    const s = withFlows({ ...defaultMockScenario(), duration_ms: 3_600_000, bottleneck: { rate_bps: 100e9, buffer_pkts: 1000, aqm: { kind: 'drop_tail' } } }, 16);
    const advice = quickerRun(s);
    expect(advice.map((a) => a.field)).toEqual(['duration_ms', 'bottleneck.rate_bps', 'hosts']);
    expect(advice[0].text).toContain('Duration (now 60 min)');
    expect(advice[1].text).toContain('Bottleneck rate (now 100 Gb/s)');
    expect(advice[2].text).toContain('(now 16)');
    // Never a JSON key in the text.
    for (const a of advice) expect(a.text).not.toMatch(/_ms|_bps|hosts\[/);
  });

  it('falls back to the duration when nothing stands out', () => {
    expect(quickerRun(defaultMockScenario()).map((a) => a.field)).toEqual(['duration_ms']);
  });
});

describe('crashSuspect: the setting most likely behind a crash', () => {
  it('points at the sampling when the run records a lot', () => {
    const s = withFlows({ ...defaultMockScenario(), sample_interval_ms: 1 }, 64);
    const suspect = crashSuspect(s, estimate(200 * MB))!;
    expect(suspect.field).toBe('sample_interval_ms');
    expect(suspect.text).toContain('200 MB');
    expect(suspect.text).toContain('64 flows every 1 ms');
  });

  it('points at a very long duration, and at nothing for an ordinary run', () => {
    expect(crashSuspect({ ...defaultMockScenario(), duration_ms: 3_600_000 }, estimate(MB))!.field).toBe('duration_ms');
    expect(crashSuspect(defaultMockScenario(), estimate(MB))).toBeNull();
    expect(crashSuspect(defaultMockScenario(), null)).toBeNull();
  });
});

describe('formats', () => {
  it('bytes and counts read like a person', () => {
    expect(formatBytesShort(4.6 * 2 ** 30)).toBe('4.6 GB');
    expect(formatBytesShort(300 * 1024)).toBe('300 KB');
    expect(formatCount(1.23e9)).toBe('1.2 billion');
    expect(formatCount(3.4e8)).toBe('340 million');
    expect(formatCount(52_000)).toBe('52 000');
  });
});
