import { describe, expect, it } from 'vitest';
import type { RunSummary, Scenario } from '../engine/types';
import { comparisonKey, cutsTrend, onlyAlgorithm, startPredictionFromLink, startPredictionText, startVerdict, windowCuts, withAlgorithm } from './startPrediction';

const flow = (algorithm: string) => ({ algorithm, params: algorithm === 'scalable' ? { a: 0.01 } : {}, window_bytes: 16777216, start_ms: 0, stop_ms: null, extra_delay_ms: 0 });
const scenario = (algorithm: string, rtt = 30): Scenario => ({ version: 2, seed: 1, duration_ms: 20000, rtt_ms: rtt, hosts: [{ nic_bps: 1e9, txqueuelen_pkts: 100, flows: [flow(algorithm)] }] }) as unknown as Scenario;

describe('the Start-here prediction', () => {
  it('reads its answers from the link, and ignores anything else with a notice', () => {
    expect(startPredictionFromLink(null)).toEqual({ prediction: { kind: 'none' }, notice: null });
    expect(startPredictionFromLink('more')).toEqual({ prediction: { kind: 'committed', choice: 'more' }, notice: null });
    expect(startPredictionFromLink('skip')).toEqual({ prediction: { kind: 'skipped' }, notice: null });
    for (const [bad, why] of [
      ['maybe', /“maybe” is not one of the answers \(more, same, fewer, skip\)/],
      ['more~reno:1,2', /no sketch/],
      ['MORE', /choice must be/],
      ['', /empty/],
    ] as const) {
      const r = startPredictionFromLink(bad);
      expect(r.prediction).toEqual({ kind: 'none' });
      expect(r.notice).toMatch(/^Ignored pred=/);
      expect(r.notice).toMatch(why);
    }
    for (const p of [{ kind: 'committed', choice: 'fewer' }, { kind: 'skipped' }] as const) expect(startPredictionFromLink(startPredictionText(p)).prediction).toEqual(p);
    expect(startPredictionText({ kind: 'none' })).toBeNull();
  });

  it('counts the window’s cuts: fast recoveries, timeouts and local congestion events', () => {
    const summary = { flows: [{ fast_retransmits: 5, timeouts: 1, local_congestion_events: 2 }] } as unknown as RunSummary;
    expect(windowCuts(summary)).toBe(8);
    expect(windowCuts(summary, 1)).toBeNull();
  });

  it('compares two runs only when everything but the algorithm is the same', () => {
    expect(comparisonKey(scenario('reno'))).toBe(comparisonKey(scenario('scalable')));
    expect(comparisonKey(scenario('reno'))).not.toBe(comparisonKey(scenario('scalable', 40)));
    const two = { ...scenario('reno'), hosts: [{ ...scenario('reno').hosts[0], flows: [flow('reno'), flow('reno')] }] } as Scenario;
    expect(comparisonKey(two)).toBeNull();
    expect(onlyAlgorithm(two)).toBeNull();
    const switched = withAlgorithm(scenario('reno'), 'scalable');
    expect(onlyAlgorithm(switched)).toBe('scalable');
    expect(switched.hosts[0].flows[0].params).toEqual({});
    expect(withAlgorithm(scenario('scalable'), 'reno').hosts[0].flows[0].params).toEqual({});
  });

  it('more, about as often (a quarter, or one cut) or less often', () => {
    expect(cutsTrend(3, 48)).toBe('more');
    expect(cutsTrend(48, 3)).toBe('fewer');
    expect(cutsTrend(1, 2)).toBe('same');
    expect(cutsTrend(0, 0)).toBe('same');
    expect(cutsTrend(20, 25)).toBe('same');
    expect(cutsTrend(20, 26)).toBe('same');
    expect(cutsTrend(20, 27)).toBe('more');
  });

  it('the verdict in one sentence with both counts', () => {
    expect(startVerdict('more', 3, 48, 20)).toEqual({ status: 'right', answer: 'more', sentence: 'Right: in 20 s, Scalable TCP’s window was cut 48 times, Standard TCP’s 3 times.' });
    expect(startVerdict('fewer', 1, 12, 5)).toEqual({
      status: 'wrong',
      answer: 'more',
      sentence: 'You expected Scalable TCP’s window to be cut less often; in 5 s, Scalable TCP’s window was cut 12 times, Standard TCP’s 1 time: more often.',
    });
  });
});
