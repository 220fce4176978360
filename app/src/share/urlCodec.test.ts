import { describe, expect, it } from 'vitest';
import type { Flow, Host, Scenario } from '../engine/types';
import { BYTE_UNITS, formatSeconds, formatWithUnits, parseSeconds, parseWithUnits, RATE_UNITS } from './numbers';
import { engineDefaults } from './testing/defaults';
import { canonicalJson, decodeScenario, encodeScenario, fromBase64Url, toBase64Url } from './urlCodec';

/** A small seeded generator (mulberry32), so failures reproduce. */
function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  const pick = <T,>(xs: readonly T[]): T => xs[int(0, xs.length - 1)];
  // Awkward doubles: thirds, tiny and huge values, -0, values near suffixes.
  const real = (): number =>
    pick([
      () => next() * 1000,
      () => int(0, 100000),
      () => 1 / int(1, 97),
      () => 0.1 + 0.2,
      () => next() * 1e-6,
      () => int(1, 999) * 1e9,
      () => 1.5e9 + int(0, 3),
      () => 0,
      () => Number.MAX_SAFE_INTEGER,
      () => 123456.789,
    ])();
  const u32 = (): number => pick([() => int(0, 100), () => int(0, 4294967295), () => 0, () => 4294967295, () => int(1, 512) * 1024 * 1024])();
  return { next, int, pick, real, u32 };
}

const ALGS = ['reno', 'cubic', 'scalable', 'highspeed', 'bbr', 'h-tcp', 'fast_at', 'v1.2'];
const ODD_ALGS = ['my algo', '<script>', 'a,b', 'x(y)', 'ünïcode', ''];

function randomScenario(seed: number): Scenario {
  const r = rng(seed);
  const odd = r.next() < 0.1;
  const flow = (): Flow => {
    const params: Record<string, number> = {};
    const np = r.int(0, 3);
    for (let i = 0; i < np; i++) params[r.pick(['a', 'b', 'beta', 'alpha', 'low_window', 'k'])] = r.real();
    if (odd && r.next() < 0.5) params[r.pick(['bad key', 'x;y', 'a=b'])] = 1;
    return {
      algorithm: odd && r.next() < 0.5 ? r.pick(ODD_ALGS) : r.pick(ALGS),
      params,
      window_bytes: r.u32(),
      start_ms: r.next() < 0.6 ? 0 : r.real(),
      stop_ms: r.next() < 0.6 ? null : r.real(),
      extra_delay_ms: r.next() < 0.6 ? 0 : r.real(),
    };
  };
  const host = (): Host => ({
    nic_bps: r.next() < 0.5 ? 1e9 : r.real(),
    txqueuelen_pkts: r.u32(),
    flows: Array.from({ length: r.int(1, r.next() < 0.2 ? 8 : 3) }, flow),
  });
  const nh = r.int(1, r.next() < 0.2 ? 6 : 2);
  return {
    version: 2,
    seed: r.u32(),
    duration_ms: r.pick([20000, 1500, r.real()]),
    sample_interval_ms: r.next() < 0.5 ? 10 : r.real(),
    mtu_bytes: r.pick([9000, 1500, r.u32()]),
    rtt_ms: r.real(),
    loss_rate: r.next() < 0.5 ? 0 : r.next() * 0.01,
    profile: r.pick(['linux-2.4', 'sawtooth-1', 'linux-6']),
    mechanisms: {},
    tcp: {
      initial_cwnd_pkts: r.pick([2, 10, r.u32()]),
      initial_ssthresh_pkts: r.next() < 0.5 ? null : r.u32(),
      delayed_ack: r.next() < 0.5,
      sack: r.next() < 0.5,
    },
    bottleneck: {
      rate_bps: r.pick([1e9, 100e6, 2.5e9, r.real()]),
      buffer_pkts: r.u32(),
      aqm:
        r.next() < 0.6
          ? { kind: 'drop_tail' }
          : { kind: 'red', min_th_pkts: r.real(), max_th_pkts: r.real(), max_p: r.next(), weight: r.next() * 0.01, ecn: r.next() < 0.5 },
    },
    hosts: Array.from({ length: nh }, host),
  };
}

describe('unit suffixes', () => {
  it('format and parse exactly', { timeout: 60_000 }, () => {
    expect(formatWithUnits(1e9, RATE_UNITS)).toBe('1G');
    expect(formatWithUnits(2.5e9, RATE_UNITS)).toBe('2.5G');
    expect(formatWithUnits(100e6, RATE_UNITS)).toBe('100M');
    expect(formatWithUnits(16 * 1024 * 1024, BYTE_UNITS)).toBe('16M');
    expect(formatWithUnits(65536, BYTE_UNITS)).toBe('64K');
    expect(parseWithUnits('16M', BYTE_UNITS)).toBe(16777216);
    expect(parseWithUnits('16m', BYTE_UNITS)).toBe(16777216);
    expect(parseWithUnits('1G', RATE_UNITS)).toBe(1e9);
    expect(parseWithUnits('1g', RATE_UNITS)).toBeNull();
    expect(parseWithUnits('0x10', RATE_UNITS)).toBeNull();
    expect(parseWithUnits('Infinity', RATE_UNITS)).toBeNull();
    expect(parseWithUnits('1e400', RATE_UNITS)).toBeNull();
    expect(formatSeconds(20000)).toBe('20');
    expect(formatSeconds(1500)).toBe('1.5');
    expect(parseSeconds('1500ms')).toBe(1500);
    expect(parseSeconds('20s')).toBe(20000);
    const r = rng(3);
    for (let i = 0; i < 5000; i++) {
      const x = r.real() * r.pick([1, 1e3, 1e6, 1e9, 1024, 1024 ** 3]);
      expect(parseWithUnits(formatWithUnits(x, RATE_UNITS), RATE_UNITS)).toBe(x);
      expect(parseWithUnits(formatWithUnits(x, BYTE_UNITS), BYTE_UNITS)).toBe(x);
      expect(parseSeconds(formatSeconds(x))).toBe(x);
    }
  });

  it('base64url round-trips any text', () => {
    for (const t of ['', 'a', '{"x":"ünïcode ✓ 🚀"}', 'x'.repeat(100000)]) expect(fromBase64Url(toBase64Url(t))).toBe(t);
    expect(fromBase64Url('not base64!')).toBeNull();
  });
});

describe('scenario links', () => {
  const d = engineDefaults();

  it('the default scenario is a short, readable link', () => {
    expect(encodeScenario(d, d)).toBe('v=2&prof=linux-2.4&alg=reno&rtt=30&rate=1G&buf=1000&txq=100&win=16M&mtu=9000&dur=20&seed=1');
  });

  it('a two-flow comparison reads like the issue', () => {
    const s = structuredClone(d);
    s.seed = 7;
    s.hosts = [
      { ...s.hosts[0], flows: [s.hosts[0].flows[0]] },
      { ...s.hosts[0], flows: [{ ...s.hosts[0].flows[0], algorithm: 'scalable', params: { a: 0.01, b: 0.125 } }] },
    ];
    const q = encodeScenario(s, d);
    expect(q).toBe('v=2&hosts=1,1&prof=linux-2.4&alg=reno,scalable(a=0.01;b=0.125)&rtt=30&rate=1G&buf=1000&txq=100&win=16M&mtu=9000&dur=20&seed=7');
    expect(decodeScenario(q, d)).toEqual({ scenario: s, notices: [], fromUrl: true });
  });

  it('says what is wrong with a per-host or per-flow list: its values, its count, or both', () => {
    const d = engineDefaults();
    expect(decodeScenario('?v=2&nic=1G,100M', d).notices[0]).toContain('expected one value (the scenario has one host)');
    expect(decodeScenario('?v=2&hosts=1,1,1&nic=1G,100M', d).notices[0]).toContain('expected one value or 3 (one per host: the scenario has 3 hosts)');
    const both = decodeScenario('?v=2&start=-,500', d).notices[0];
    expect(both).toContain('expected times in ms; expected one value (the scenario has one flow)');
  });

  it('round-trips 1500 random scenarios exactly (property test)', { timeout: 60_000 }, () => {
    let readable = 0;
    for (let seed = 1; seed <= 1500; seed++) {
      const s = randomScenario(seed);
      const q = encodeScenario(s, d);
      const back = decodeScenario(q, d);
      expect(back.notices, `seed ${seed}: ${q}`).toEqual([]);
      expect(canonicalJson(back.scenario), `seed ${seed}: ${q}`).toBe(canonicalJson(s));
      // Exact, including -0 and key sets.
      expect(back.scenario, `seed ${seed}: ${q}`).toEqual(s);
      if (!q.includes('sc=')) readable++;
      // Through a real URL too (what the browser hands the page).
      const url = new URL(`https://example.org/sub/dir/?${q}`);
      expect(decodeScenario(url.search, d).scenario).toEqual(s);
    }
    // Most scenarios use the readable form; odd ids take the blob.
    expect(readable).toBeGreaterThan(1250);
  });

  it('reads legacy links (no v, ?seed= and ?rtt=, ?scenario=JSON)', () => {
    expect(decodeScenario('?seed=42&rtt=120', d).scenario).toEqual({ ...d, seed: 42, rtt_ms: 120 });
    const s = { ...d, duration_ms: 5000 };
    const r = decodeScenario(`?scenario=${encodeURIComponent(JSON.stringify(s))}&seed=9`, d);
    expect(r).toEqual({ scenario: { ...s, seed: 9 }, notices: [], fromUrl: true });
  });

  it('changes the layout with hosts= and keeps per-flow values by position', () => {
    const r = decodeScenario('?hosts=2,1&alg=cubic&win=1M,2M,4M&stop=-,500,-', d);
    expect(r.notices).toEqual([]);
    expect(r.scenario.hosts.map((h) => h.flows.length)).toEqual([2, 1]);
    expect(r.scenario.hosts.flatMap((h) => h.flows.map((f) => [f.algorithm, f.window_bytes, f.stop_ms]))).toEqual([
      ['cubic', 1048576, null],
      ['cubic', 2097152, 500],
      ['cubic', 4194304, null],
    ]);
    // alg with several entries and no hosts=: one host with that many flows.
    expect(decodeScenario('?alg=reno,cubic,bbr', d).scenario.hosts[0].flows.map((f) => f.algorithm)).toEqual(['reno', 'cubic', 'bbr']);
  });

  it('ignores what it cannot read, naming it, and keeps the rest', () => {
    const r = decodeScenario('?rtt=fast&seed=-1&win=1,2&alg=reno;drop&mtu=1500&zzz=1&v=2', d);
    expect(r.scenario).toEqual({ ...d, mtu_bytes: 1500 });
    expect(r.notices).toHaveLength(5);
    expect(r.notices.join('\n')).toMatch(/rtt="fast"/);
    expect(r.notices.join('\n')).toMatch(/seed="-1"/);
    expect(r.notices.join('\n')).toMatch(/win="1,2": expected one value \(the scenario has one flow\)/);
    expect(r.notices.join('\n')).toMatch(/alg=/);
    expect(r.notices.join('\n')).toMatch(/unknown parameter "zzz"/);
  });

  it('says what is wrong with a queue discipline or probe in a link, keeping the rest', () => {
    const notice = (q: string) => {
      const r = decodeScenario(`?rtt=50&${q}`, d);
      expect(r.scenario.rtt_ms, q).toBe(50);
      expect(r.notices, q).toHaveLength(1);
      return r.notices[0];
    };
    expect(notice('aqm=codel(foo=1)')).toMatch(/codel has no field foo; its fields: target_ms, interval_ms, ecn/);
    expect(notice('aqm=codel(ecn=2)')).toMatch(/codel's ecn must be 1 or 0/);
    expect(notice('aqm=pie(alpha=1;alpha=2)')).toMatch(/pie's alpha is given twice/);
    expect(notice('aqm=red(min=5;max=15)')).toMatch(/red needs all of min, max, p, w, ecn; missing p, w, ecn/);
    expect(notice('probe=interval=5')).toMatch(/probe has no field interval; its fields: interval_ms, size_bytes/);
    expect(notice('aqm=sfq')).toMatch(/expected droptail, red/);
    expect(notice('win=8G')).toMatch(/expected window sizes in bytes from 64K to 512M/);
    expect(decodeScenario('?aqm=red(min=5;max=15;p=0.1;w=0.002;ecn=1)', d).scenario.bottleneck.aqm).toEqual({
      kind: 'red', min_th_pkts: 5, max_th_pkts: 15, max_p: 0.1, weight: 0.002, ecn: true,
    });
  });

  it('an unknown link version uses the defaults', () => {
    const r = decodeScenario('?v=3&rtt=10', d);
    expect(r.scenario).toEqual(d);
    expect(r.notices[0]).toMatch(/link versions 1 and 2/);
  });

  it('hostile input is only ever quoted as text, shortened', () => {
    const payloads = [
      '?alg=<script>alert(1)</script>',
      '?rtt=javascript:alert(1)',
      '?scenario=<img src=x onerror=alert(1)>',
      '?sc=%3Csvg%20onload%3Dalert(1)%3E',
      '?%3Cscript%3E=1',
      `?rtt=${'9'.repeat(5000)}x`,
      '?hosts=99999999',
      '?hosts=64,64,64,64,64,64,64,64,64,64,64,64,64,64,64,64,64,64,64,64,64,64,64,64,64,64,64,64,64,64,64,64,64,64,64,64,64,64,64,64,64,64,64,64,64,64,64,64,64,64,64,64,64,64,64,64,64,64,64,64,64,64,64,64,64',
      '?__proto__=1&constructor=2',
      `?${'a=1&'.repeat(30000)}`,
    ];
    for (const p of payloads) {
      const r = decodeScenario(p, d);
      expect(r.notices.length, p).toBeGreaterThan(0);
      for (const n of r.notices) expect(n.length, p).toBeLessThan(400);
      expect(({} as Record<string, unknown>).x).toBeUndefined();
    }
    expect(decodeScenario('?hosts=99999999', d).scenario).toEqual(d);
    // A document is passed on as data (the engine names its problems); nothing is polluted.
    const doc = decodeScenario('?scenario=%7B%22__proto__%22%3A%7B%22x%22%3A1%7D%7D', d);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    expect(Object.getPrototypeOf(doc.scenario)).toBe(Object.prototype);
  });

  it('a document with a key given twice, or nested deeper than a scenario, is ignored with a notice', () => {
    // Issue 28: a link nested 36 000 deep overflowed the stack of the engine
    // check and left the page loading for ever.
    const deep = decodeScenario(`?v=2&sc=${toBase64Url(`{"version":2,"hosts":${'['.repeat(36_000)}${']'.repeat(36_000)}}`)}`, d);
    expect(deep.scenario).toEqual(d);
    expect(deep.notices).toHaveLength(1);
    expect(deep.notices[0]).toMatch(/^Ignored sc=".*": the document is nested more than 64 levels deep, far deeper than any scenario; using the default scenario\.$/);
    const twice = decodeScenario(`?scenario=${encodeURIComponent('{"version": 2, "rtt_ms": 30, "rtt_ms": 300}')}`, d);
    expect(twice.scenario).toEqual(d);
    expect(twice.notices[0]).toMatch(/the document gives rtt_ms more than once in the same object; give each key once; using the default scenario\.$/);
  });

  it('never throws on random garbage', { timeout: 60_000 }, () => {
    const r = rng(11);
    const alphabet = 'abcv=&,;()%?#<>"\'-_.0123456789:/ \u0000é🚀';
    for (let i = 0; i < 3000; i++) {
      let t = '';
      const n = r.int(0, 80);
      for (let j = 0; j < n; j++) t += alphabet[r.int(0, alphabet.length - 1)];
      const keys = ['v', 'alg', 'hosts', 'win', 'rtt', 'aqm', 'stop', 'sc', 'scenario', 'seed', 'nic'];
      const q = `${r.pick(keys)}=${t}&${r.pick(keys)}=${t.slice(0, 5)}`;
      const out = decodeScenario(q, d);
      expect(out.scenario.hosts === undefined || Array.isArray(out.scenario.hosts)).toBe(true);
    }
  });
});
