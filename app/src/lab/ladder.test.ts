import { describe, expect, it } from 'vitest';
import { CONTROLS, fieldMatches, paramSpec, parseControl, rangeText } from './controls';
import { decadeLadder, linearLadder, mantissaLadder, nearestIndex, OCTAVE_MANTISSAS, paramLadder, steppedLadder } from './ladder';

describe('ladders', () => {
  it('window sizes step four times per doubling, exact at powers of two', () => {
    const l = mantissaLadder(65536, 536870912, OCTAVE_MANTISSAS, 2);
    expect(l[0]).toBe(65536);
    expect(l[1]).toBe(81920);
    expect(l).toContain(16 * 2 ** 20);
    expect(l).toContain(2 ** 20);
    expect(l[l.length - 1]).toBe(536870912);
    expect(l.length).toBe(13 * 4 + 1);
  });
  it('rates have about ten rungs a decade and contain the round values', () => {
    const l = decadeLadder(10e6, 10e9);
    expect(l[0]).toBe(10e6);
    expect(l).toContain(1e9);
    expect(l).toContain(100e6);
    expect(l[l.length - 1]).toBe(10e9);
  });
  it('linear and stepped ladders include both ends', () => {
    expect(linearLadder(0, 1, 0.25)).toEqual([0, 0.25, 0.5, 0.75, 1]);
    expect(linearLadder(0, 1, 0.3)).toEqual([0, 0.3, 0.6, 0.9, 1]);
    const t = steppedLadder([
      [1, 10, 1],
      [10, 300, 5],
    ]);
    expect(t.slice(0, 12)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 15, 20]);
    expect(t).toContain(100);
    expect(t).toContain(250);
  });
  it('finds the nearest rung, by log distance on log ladders', () => {
    const l = [1, 10, 100];
    expect(nearestIndex(l, 4)).toBe(0);
    expect(nearestIndex(l, 4, true)).toBe(1);
    expect(nearestIndex(l, -5)).toBe(0);
    expect(nearestIndex(l, 1e9)).toBe(2);
    expect(nearestIndex(l, 10)).toBe(1);
  });
  it('parameter ladders contain min, max, default and the papers’ values', () => {
    const a = paramLadder({ min: 0.001, max: 0.2, step: 0.001, default: 0.01, log_scale: true });
    for (const v of [0.001, 0.005, 0.01, 0.02, 0.04, 0.08, 0.2]) expect(a).toContain(v);
    const b = paramLadder({ min: 0.01, max: 0.5, step: 0.005, default: 0.125, log_scale: false });
    for (const v of [0.0625, 0.125, 0.25, 0.5]) expect(b.some((x) => Math.abs(x - v) < 0.003)).toBe(true);
    expect(b).toContain(0.125);
  });
});

describe('controls', () => {
  it('names the field and the range in its own units', () => {
    expect(rangeText(CONTROLS.rtt)).toBe('between 0 and 1000 ms');
    expect(rangeText(CONTROLS.window)).toBe('between 64 KB and 512 MB');
    expect(rangeText(CONTROLS.bottleneckRate)).toBe('between 1 Mb/s and 100 Gb/s');
    expect(parseControl('1500', CONTROLS.rtt)).toEqual({ ok: false, error: { field: 'rtt_ms', value: '1500 ms', message: 'must be between 0 and 1000 ms' } });
    expect(parseControl('100000', CONTROLS.duration)).toMatchObject({ ok: false, error: { field: 'duration_ms', value: '100000 s', message: 'must be between 1 and 3600 s' } });
    expect(parseControl('fast', CONTROLS.rtt)).toMatchObject({ ok: false, error: { message: 'must be a number between 0 and 1000 ms' } });
    expect(parseControl('', CONTROLS.rtt)).toMatchObject({ ok: false, error: { value: '' } });
    expect(parseControl('12 KB', CONTROLS.window, 'hosts[0].flows[1].window_bytes')).toMatchObject({
      ok: false,
      error: { field: 'hosts[0].flows[1].window_bytes', message: 'must be between 64 KB and 512 MB' },
    });
    expect(parseControl('2.5', CONTROLS.txqueuelen)).toMatchObject({ ok: false, error: { message: /whole number/ } });
  });
  it('accepts values with units', () => {
    expect(parseControl('16M', CONTROLS.window)).toEqual({ ok: true, value: 16 * 2 ** 20 });
    expect(parseControl('1 Gb/s', CONTROLS.bottleneckRate)).toEqual({ ok: true, value: 1e9 });
    expect(parseControl('250', CONTROLS.txqueuelen)).toEqual({ ok: true, value: 250 });
  });
  it('matches engine error fields to control fields', () => {
    expect(fieldMatches('rtt_ms', 'rtt_ms')).toBe(true);
    expect(fieldMatches('hosts[*].txqueuelen_pkts', 'hosts[1].txqueuelen_pkts')).toBe(true);
    expect(fieldMatches('hosts[*].flows[*].window_bytes', 'hosts[0].flows[3].window_bytes')).toBe(true);
    expect(fieldMatches('hosts[0].flows[1].params.a', 'hosts[0].flows[1].params.a')).toBe(true);
    expect(fieldMatches('hosts[0].flows[1].params.a', 'hosts[0].flows[2].params.a')).toBe(false);
    expect(fieldMatches('rtt_ms', 'rtt_msx')).toBe(false);
  });
  it('builds parameter controls from the catalogue', () => {
    const c = paramSpec({ id: 'a', name: 'Increase a', default: 0.01, min: 0.001, max: 0.2, step: 0.001, unit: 'packets/ACK', log_scale: true, description: '' }, 'x');
    expect(c.log).toBe(true);
    expect(parseControl('1/50', c)).toEqual({ ok: true, value: 0.02 });
    expect(parseControl('0.5', c)).toMatchObject({ ok: false, error: { message: 'must be between 0.001 and 0.2 packets/ACK' } });
  });
});
