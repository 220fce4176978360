import { describe, expect, it } from 'vitest';
import { defaultMockScenario } from '../engine/testing/mockEngine';
import { parseNumericField, RTT_FIELD } from './fields';
import { scenarioFromUrl } from './params';

describe('scenarioFromUrl', () => {
  const d = defaultMockScenario();

  it('returns a copy of the defaults without parameters', () => {
    const r = scenarioFromUrl('', d);
    expect(r).toEqual({ scenario: d, errors: [] });
    expect(r.scenario).not.toBe(d);
  });

  it('applies seed and rtt', () => {
    const r = scenarioFromUrl('?seed=42&rtt=120', d);
    expect(r.scenario.seed).toBe(42);
    expect(r.scenario.rtt_ms).toBe(120);
    expect(r.errors).toEqual([]);
    expect(d.seed).toBe(1);
  });

  it('reports and ignores bad values', () => {
    const r = scenarioFromUrl('?seed=-1&rtt=fast', d);
    expect(r.scenario.seed).toBe(1);
    expect(r.scenario.rtt_ms).toBe(30);
    expect(r.errors).toHaveLength(2);
    expect(r.errors[0]).toMatch(/seed=-1/);
    expect(scenarioFromUrl('?seed=1.5', d).errors).toHaveLength(1);
    expect(scenarioFromUrl('?seed=', d).errors).toHaveLength(1);
  });

  it('takes a whole scenario document, with seed applied on top', () => {
    const s = { ...d, duration_ms: 5000 };
    const r = scenarioFromUrl(`?scenario=${encodeURIComponent(JSON.stringify(s))}&seed=9`, d);
    expect(r.scenario).toEqual({ ...s, seed: 9 });
    const bad = scenarioFromUrl('?scenario=%7Bnope', d);
    expect(bad.scenario).toEqual(d);
    expect(bad.errors[0]).toMatch(/not a JSON object/);
  });
});

describe('parseNumericField', () => {
  it('accepts numbers in range', () => {
    expect(parseNumericField('30', RTT_FIELD)).toEqual({ ok: true, value: 30 });
    expect(parseNumericField(' 0.5 ', RTT_FIELD)).toEqual({ ok: true, value: 0.5 });
    expect(parseNumericField('500', RTT_FIELD)).toEqual({ ok: true, value: 500 });
  });

  it('names the field, value and range when rejecting', () => {
    expect(parseNumericField('1500', RTT_FIELD)).toEqual({
      ok: false,
      error: { field: 'rtt_ms', value: '1500', message: 'must be between 0 and 1000 ms' },
    });
    expect(parseNumericField('-1', RTT_FIELD)).toMatchObject({ ok: false, error: { message: 'must be between 0 and 1000 ms' } });
    expect(parseNumericField('12abc', RTT_FIELD)).toMatchObject({ ok: false, error: { message: 'must be a number between 0 and 1000 ms' } });
    expect(parseNumericField('Infinity', RTT_FIELD)).toMatchObject({ ok: false });
    expect(parseNumericField('0x10', RTT_FIELD)).toMatchObject({ ok: false });
    expect(parseNumericField('', RTT_FIELD)).toMatchObject({ ok: false, error: { value: '' } });
  });
});
