import { describe, expect, it } from 'vitest';
import type { Scenario, ValidationError } from '../engine/types';
import { MAX_NOTICES, parseFieldPath, sanitizeScenario } from './sanitize';
import { engineDefaults } from './testing/defaults';

/** A validator with a few of the engine's rules and its error format. */
async function validate(s: Scenario): Promise<ValidationError[]> {
  const e: ValidationError[] = [];
  if (typeof s !== 'object' || s === null || (s as { version?: unknown }).version !== 2)
    return [{ field: 'version', value: '(missing)', message: 'is required; this engine reads version 2' }];
  if (!Array.isArray(s.hosts)) return [{ field: '(document)', value: '', message: 'missing field `hosts`' }];
  if (!(s.rtt_ms >= 0 && s.rtt_ms <= 1000)) e.push({ field: 'rtt_ms', value: String(s.rtt_ms), message: 'must be between 0 and 1000 ms' });
  s.hosts.forEach((h, hi) =>
    h.flows.forEach((f, fi) => {
      if (!(f.window_bytes >= 65536)) e.push({ field: `hosts[${hi}].flows[${fi}].window_bytes`, value: String(f.window_bytes), message: 'must be between 65536 and 536870912 bytes' });
      for (const k of Object.keys(f.params))
        if (k !== 'a') e.push({ field: `hosts[${hi}].flows[${fi}].params.${k}`, value: String(f.params[k]), message: `is not a parameter of ${f.algorithm}; known: a` });
    }),
  );
  return e;
}

describe('sanitizeScenario', () => {
  const d = engineDefaults();

  it('passes a valid scenario through', async () => {
    expect(await sanitizeScenario(d, d, validate)).toEqual({ scenario: d, notices: [], errors: [] });
  });

  it('resets each rejected field to its default, naming field, value and rule', async () => {
    const s = structuredClone(d);
    s.rtt_ms = 5000;
    s.hosts.push({ ...structuredClone(d.hosts[0]), flows: [{ ...d.hosts[0].flows[0], window_bytes: 12, params: { zz: 3, a: 1 } }] });
    const r = await sanitizeScenario(s, d, validate);
    expect(r.scenario.rtt_ms).toBe(30);
    expect(r.scenario.hosts[1].flows[0].window_bytes).toBe(16777216);
    expect(r.scenario.hosts[1].flows[0].params).toEqual({ a: 1 });
    expect(r.notices).toEqual([
      'Ignored rtt_ms = 5000: must be between 0 and 1000 ms in the link; using 30.',
      'Ignored hosts[1].flows[0].window_bytes = 12: must be between 65536 and 536870912 bytes in the link; using 16777216.',
      "Ignored hosts[1].flows[0].params.zz = 3: is not a parameter of reno; known: a in the link; using the algorithm's default.",
    ]);
    expect(r.errors).toHaveLength(3);
  });

  it('falls back to the whole default scenario when a field cannot be repaired', async () => {
    const r = await sanitizeScenario({ nope: 1 } as unknown as Scenario, d, validate, 'the upload');
    expect(r.scenario).toEqual(d);
    expect(r.notices[0]).toMatch(/^Ignored the scenario in the upload: version = \(missing\): is required/);
  });

  it('lists at most MAX_NOTICES problems and counts the rest, whatever the link holds', async () => {
    const s = structuredClone(d);
    s.hosts[0].flows[0].params = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`p${i}`, i]));
    const r = await sanitizeScenario(s, d, validate);
    expect(r.scenario.hosts[0].flows[0].params).toEqual({});
    expect(r.notices).toHaveLength(MAX_NOTICES + 1);
    expect(r.notices[MAX_NOTICES]).toBe(`… and ${5000 - MAX_NOTICES} more problems of the same kind, not listed.`);
    expect(r.errors).toHaveLength(5000);
  });

  it('parses engine field paths', () => {
    expect(parseFieldPath('hosts[0].flows[12].params.beta')).toEqual(['hosts', 0, 'flows', 12, 'params', 'beta']);
    expect(parseFieldPath('(document)')).toBeNull();
    expect(parseFieldPath('a[b]')).toBeNull();
  });
});
