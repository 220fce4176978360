import { describe, expect, it } from 'vitest';
import { bottleneckRateBps, capacityBps, traceMeanBps, traceOpportunitiesThrough } from '../model/path';
import { DEFAULT_SCENARIO } from '../engine/generated/defaults';
import type { Scenario } from '../engine/types';
import { BUILTIN_TRACES, choiceValue, describeTrace, fetchBuiltinTrace, traceChoice } from './traceSource';

const withTrace = (ms: number[], name?: string, duration_ms = 10_000): Scenario => ({
  ...DEFAULT_SCENARIO,
  duration_ms,
  bottleneck: { ...DEFAULT_SCENARIO.bottleneck, trace: { ...(name ? { name } : {}), opportunities_ms: ms } },
});

describe('trace-driven bottleneck in the app', () => {
  it('one opportunity a millisecond is 12.032 Mb/s, 12.304 Mb/s of wire time at MTU 1500 (Scenario::bottleneck_rate_bps)', () => {
    const s = withTrace([1]);
    expect(traceMeanBps(s.bottleneck.trace!)).toBe(12_032_000);
    expect(bottleneckRateBps(s)).toBeCloseTo(1538 * 8 * 1000, 6);
    expect(capacityBps(s)).toBeCloseTo(1538 * 8 * 1000, 6);
  });

  it('counts opportunities across repetitions, a first line at 0 falling with the last of the cycle before', () => {
    const t = { opportunities_ms: [2, 2, 5] };
    expect([1, 2, 5, 7, 10].map((x) => traceOpportunitiesThrough(t, x))).toEqual([0, 2, 3, 5, 6]);
    const z = { opportunities_ms: [0, 3] };
    expect([0, 3, 6].map((x) => traceOpportunitiesThrough(z, x))).toEqual([1, 3, 5]);
  });

  it('capacity counts the opportunities within the run (Scenario::capacity_bps)', () => {
    const onOff = [...Array.from({ length: 100 }, (_, i) => i + 1), 1000];
    expect(capacityBps(withTrace(onOff, undefined, 10))).toBeCloseTo(1538 * 8 * 1000, 6);
    expect(capacityBps(withTrace(onOff, undefined, 2000))).toBeCloseTo((202 * 1538 * 8) / 2, 6);
    expect(capacityBps(withTrace([5, 10], undefined, 3))).toBe(0);
  });

  it('a built-in trace is chosen by its id; anything else is a file', () => {
    const b = BUILTIN_TRACES[0];
    const lines = Array.from({ length: b.lines }, (_, i) => i + 1);
    expect(choiceValue(traceChoice(undefined))).toBe('');
    expect(choiceValue(traceChoice({ name: b.id, opportunities_ms: lines }))).toBe(b.id);
    expect(traceChoice({ name: 'mine.trace', opportunities_ms: [1] })).toEqual({ kind: 'file', name: 'mine.trace' });
    expect(describeTrace({ opportunities_ms: [1, 1, 3] })).toContain('3 delivery opportunities every 3 ms');
  });

  it('fetches a built-in trace relative to the page', async () => {
    const b = BUILTIN_TRACES[0];
    const seen: string[] = [];
    const fake = (async (u: string) => {
      seen.push(u);
      return new Response('1\n');
    }) as unknown as typeof fetch;
    expect(await fetchBuiltinTrace(b, fake, 'https://example.org/app/index.html')).toBe('1\n');
    expect(seen).toEqual([`https://example.org/app/${b.file}`]);
  });

  it('lists the built-in traces the generator wrote, with their lines and mean', () => {
    const files = import.meta.glob<string>('../../../public/traces/*.trace', { query: '?raw', import: 'default', eager: true });
    expect(Object.keys(files).length).toBe(BUILTIN_TRACES.length);
    for (const b of BUILTIN_TRACES) {
      const text = files[`../../../public/${b.file}`];
      const ms = text.trim().split('\n').map(Number);
      expect(ms.length).toBe(b.lines);
      expect(ms[ms.length - 1]).toBe(b.period_ms);
      expect(Math.round(traceMeanBps({ opportunities_ms: ms }))).toBe(b.mean_bps);
    }
  });
});

describe('the throughput chart of a trace-driven run', async () => {
  const { buildChartSpecs } = await import('../charts/specs');
  const n = 4;
  const col = (v: number) => new Float64Array(n).fill(v);
  const flow = { cwnd_pkts: col(1), cwnd_bytes: col(1), ssthresh_pkts: col(1), outstanding_bytes: col(1), outstanding_avg_bytes: col(1), outstanding_wavg_bytes: col(1), throughput_bps: col(5e6), srtt_ms: col(1), state: col(0), outstanding_captured_bytes: col(1) };
  const base = { length: n, t: col(1), flows: [flow], bottleneck_queue_pkts: col(0), bottleneck_delay_ms: col(0), probe_rtt_ms: new Float64Array(0), hosts: [{ ifq_pkts: col(0) }] };
  it('draws the link capacity column instead of the constant capacity, and caps the axis on its highest value', () => {
    const cap = Float64Array.from([12_032_000, 24_064_000, 0, 6_016_000]);
    const specs = buildChartSpecs({ ...base, link_capacity_bps: cap }, withTrace([1]), { cwndUnit: 'packets' });
    const tput = specs.find((s) => s.id === 'throughput')!;
    const ids = tput.series.map((x) => x.id);
    expect(ids).toContain('link.capacity_bps');
    expect(ids).not.toContain('capacity_bps');
    expect(tput.maxY).toBeCloseTo(24.064 * 1.25, 6);
    const plain = buildChartSpecs({ ...base, link_capacity_bps: new Float64Array(0) }, DEFAULT_SCENARIO, { cwndUnit: 'packets' });
    expect(plain.find((s) => s.id === 'throughput')!.series.map((x) => x.id)).toContain('capacity_bps');
  });
});

describe('a trace in a share link', async () => {
  const { decodeScenario, encodeScenario, MAX_QUERY_LENGTH } = await import('../share/urlCodec');
  it('travels in the whole-document fallback, and every built-in trace fits a link', () => {
    const files = import.meta.glob<string>('../../../public/traces/*.trace', { query: '?raw', import: 'default', eager: true });
    for (const b of BUILTIN_TRACES) {
      const ms = files[`../../../public/${b.file}`].trim().split('\n').map(Number);
      const s = withTrace(ms, b.id);
      const query = encodeScenario(s, DEFAULT_SCENARIO);
      expect(query.length, b.id).toBeLessThan(MAX_QUERY_LENGTH);
      const back = decodeScenario(query, DEFAULT_SCENARIO);
      expect(back.notices).toEqual([]);
      expect(back.scenario.bottleneck.trace).toEqual(s.bottleneck.trace);
    }
  });
});
