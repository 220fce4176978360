import { describe, expect, it, vi } from 'vitest';
import * as engineErrors from '../engine/errors';
import type { Scenario, ValidationError } from '../engine/types';
import { MAX_NOTICES, capNotices, parseFieldPath, sanitizeScenario } from './sanitize';
import { engineDefaults } from './testing/defaults';

/** A validator with a few of the engine's rules and its error format. */
async function validate(s: Scenario): Promise<ValidationError[]> {
  const e: ValidationError[] = [];
  if (typeof s !== 'object' || s === null || (s as { version?: unknown }).version !== 2)
    return [{ field: 'version', value: '(missing)', message: 'is required; this engine reads version 2' }];
  if (!Array.isArray(s.hosts)) return [{ field: '(document)', value: '', message: 'missing field `hosts`' }];
  if (!(s.rtt_ms >= 0 && s.rtt_ms <= 1000)) e.push({ field: 'rtt_ms', value: String(s.rtt_ms), message: 'must be between 0 and 1000 ms' });
  const aqm = s.bottleneck.aqm as Record<string, unknown>;
  if (typeof aqm.target_ms === 'number' && !(aqm.target_ms > 0)) e.push({ field: 'bottleneck.aqm.target_ms', value: String(aqm.target_ms), message: 'must be above 0 ms' });
  if (typeof aqm.max_p === 'number' && !(aqm.max_p <= 1)) e.push({ field: 'bottleneck.aqm.max_p', value: String(aqm.max_p), message: 'must be between 0 and 1' });
  if (s.probe?.interval_ms !== undefined && !(s.probe.interval_ms >= 1)) e.push({ field: 'probe.interval_ms', value: String(s.probe.interval_ms), message: 'must be between 1 and 60000 ms' });
  const ssthresh = s.tcp.initial_ssthresh_pkts;
  if (ssthresh !== null && ssthresh !== undefined && !(ssthresh >= 2)) e.push({ field: 'tcp.initial_ssthresh_pkts', value: String(ssthresh), message: 'must be between 2 and 10000000 packets' });
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

  it('quotes a long engine message whole, and the link’s own value shortened', async () => {
    const message = `needs about 3.1 GB in the browser, above its 2 GiB budget: choose fewer flows (${'x'.repeat(150)}) or a shorter duration_ms`;
    const long = async (): Promise<ValidationError[]> => [{ field: 'duration_ms', value: '9'.repeat(200), message }];
    const r = await sanitizeScenario(d, d, long);
    expect(r.notices[0]).toContain(message);
    expect(r.notices[0]).not.toContain('9'.repeat(61));
  });

  it('passes a valid scenario through', async () => {
    expect(await sanitizeScenario(d, d, validate)).toEqual({ scenario: d, notices: [], unlisted: 0, errors: [], replaced: false });
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

  it("drops a queue discipline's or the probe's bad field, keeping the rest of the scenario", async () => {
    const s = structuredClone(d);
    s.rtt_ms = 50;
    s.bottleneck.aqm = { kind: 'codel', target_ms: -5, ecn: true };
    s.probe = { interval_ms: 0 };
    const r = await sanitizeScenario(s, d, validate);
    expect(r.replaced).toBe(false);
    expect(r.scenario.rtt_ms).toBe(50);
    expect(r.scenario.bottleneck.aqm).toEqual({ kind: 'codel', ecn: true });
    expect(r.scenario.probe).toEqual({});
    expect(r.notices).toEqual([
      "Ignored bottleneck.aqm.target_ms = -5: must be above 0 ms in the link; using codel's default.",
      "Ignored probe.interval_ms = 0: must be between 1 and 60000 ms in the link; using the probe's default.",
    ]);
  });

  it("gives RED, whose fields are all required, the default scenario's queue discipline", async () => {
    const s = structuredClone(d);
    s.rtt_ms = 50;
    s.bottleneck.aqm = { kind: 'red', min_th_pkts: 5, max_th_pkts: 15, max_p: 2, weight: 0.002, ecn: false };
    const r = await sanitizeScenario(s, d, validate);
    expect(r.scenario.rtt_ms).toBe(50);
    expect(r.scenario.bottleneck.aqm).toEqual(d.bottleneck.aqm);
    expect(r.notices).toEqual(['Ignored bottleneck.aqm.max_p = 2: must be between 0 and 1 in the link; using the default queue discipline (drop_tail).']);
  });

  it('says what a null default means', async () => {
    const s = structuredClone(d);
    s.tcp.initial_ssthresh_pkts = 0;
    const r = await sanitizeScenario(s, d, validate);
    expect(r.notices).toEqual(['Ignored tcp.initial_ssthresh_pkts = 0: must be between 2 and 10000000 packets in the link; using no initial ssthresh (infinite).']);
  });

  it('falls back to the whole default scenario when a field cannot be repaired', async () => {
    const r = await sanitizeScenario({ nope: 1 } as unknown as Scenario, d, validate, 'the upload');
    expect(r.scenario).toEqual(d);
    expect(r.replaced).toBe(true);
    expect(r.notices[0]).toMatch(/^Ignored the scenario in the upload: version = \(missing\): is required/);
  });

  it('lists at most MAX_NOTICES problems and counts the rest, whatever the link holds', async () => {
    const s = structuredClone(d);
    s.hosts[0].flows[0].params = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`p${i}`, i]));
    const r = await sanitizeScenario(s, d, validate);
    expect(r.scenario.hosts[0].flows[0].params).toEqual({});
    expect(r.notices).toHaveLength(MAX_NOTICES);
    expect(r.unlisted).toBe(5000 - MAX_NOTICES);
    expect(capNotices(r.notices, r.unlisted)[MAX_NOTICES]).toBe('… and 4 980 more problems, not listed.');
    expect(r.errors).toHaveLength(5000);
  });

  it('writes only the notices it lists, and asks the engine twice, however many fields it rejects', async () => {
    // Issue 28: 90 000 unknown parameters made 90 000 sentences (and the
    // engine was asked to list them all again). Counted, not timed.
    const format = vi.spyOn(engineErrors, 'formatValidationError');
    let asked = 0;
    let reported = 0;
    const counting = async (x: Scenario) => {
      asked++;
      const e = await validate(x);
      reported += e.length;
      return e;
    };
    const s = structuredClone(d);
    s.hosts[0].flows[0].params = Object.fromEntries(Array.from({ length: 90_000 }, (_, i) => [`p${i}`, 1]));
    format.mockClear();
    const r = await sanitizeScenario(s, d, counting, 'the upload');
    expect(format.mock.calls.length).toBe(MAX_NOTICES);
    expect(asked).toBe(2);
    expect(reported).toBe(90_000);
    expect(r.scenario.hosts[0].flows[0].params).toEqual({});
    expect(r.notices).toHaveLength(MAX_NOTICES);
    expect(r.unlisted).toBe(90_000 - MAX_NOTICES);
    format.mockRestore();
  });

  it('stops at the first field it cannot repair', async () => {
    const format = vi.spyOn(engineErrors, 'formatValidationError');
    const many = Array.from({ length: 50_000 }, (_, i): ValidationError => ({ field: `(document ${i})`, value: '', message: 'unreadable' }));
    format.mockClear();
    const r = await sanitizeScenario(d, d, async (x) => (x === d ? many : []));
    expect(format.mock.calls.length).toBe(5);
    expect(r.replaced).toBe(true);
    expect(r.notices).toEqual(['Ignored the scenario in the link: (document 0): unreadable; (document 1): unreadable; (document 2): unreadable; (document 3): unreadable; (document 4): unreadable (and 49 995 more); using the default scenario.']);
    format.mockRestore();
  });

  it('parses engine field paths', () => {
    expect(parseFieldPath('hosts[0].flows[12].params.beta')).toEqual(['hosts', 0, 'flows', 12, 'params', 'beta']);
    expect(parseFieldPath('rtt_ms')).toEqual(['rtt_ms']);
    expect(parseFieldPath('_a9[0][1].B')).toEqual(['_a9', 0, 1, 'B']);
    for (const bad of ['(document)', 'a[b]', '', 'a.', 'a..b', '.a', 'a[]', 'a[1', 'a]', '9a', 'a.9', 'a b', 'a[1]x', 'a[-1]', 'é']) expect(parseFieldPath(bad)).toBeNull();
  });
});

describe('capNotices', () => {
  it('keeps MAX_NOTICES lines and counts the rest, listed or not', () => {
    const some = Array.from({ length: 25 }, (_, i) => `n${i}`);
    expect(capNotices(some.slice(0, 3))).toEqual(['n0', 'n1', 'n2']);
    expect(capNotices(some.slice(0, 3), 1)).toEqual(['n0', 'n1', 'n2', '… and 1 more problem, not listed.']);
    const capped = capNotices(some, 89_980);
    expect(capped).toHaveLength(MAX_NOTICES + 1);
    expect(capped[MAX_NOTICES]).toBe('… and 89 985 more problems, not listed.');
  });
});
