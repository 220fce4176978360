// The whole scenario in the page URL: compact, versioned, readable.
//
//   ?v=1&alg=reno,scalable&rtt=30&rate=1G&buf=1000&txq=100&win=16M&mtu=9000&dur=20&seed=7
//
// Link format version 2 (docs/TEST-SURFACE.md has the full table):
//
//   v       link format version (2; v=1 links, made before testbed
//           profiles, run on the `sawtooth-1` profile and keep their
//           results; a link without v reads on today's defaults)
//   prof    testbed profile id (docs/profiles.md), e.g. linux-2.4
//   seed    random seed (0..4294967295)
//   dur     duration: seconds, or with a unit ("20", "20s", "1500ms")
//   dt      sample interval, ms
//   mtu     MTU, bytes
//   rtt     two-way propagation delay, ms
//   loss    random loss probability per data packet
//   icwnd   initial cwnd, packets
//   ssth    initial ssthresh, packets, or "inf"
//   dack    delayed ACKs, 1 or 0
//   sack    SACK, 1 or 0
//   rate    bottleneck rate, b/s (k, M, G, T: powers of 1000)
//   buf     bottleneck buffer, packets
//   aqm     "droptail", "red(min=5;max=15;p=0.1;w=0.002;ecn=1)", or another
//           queue discipline by its kind with any of its fields:
//           "codel", "fq_codel(target_ms=5;flows=1024)", "pie(ecn=1)",
//           "step_mark(threshold_pkts=20)" (booleans 1 or 0)
//   probe   the latency probe: "1" (its defaults) or "interval_ms=100;size_bytes=84"
//   hosts   flows on each host ("2,1": two hosts with 2 and 1 flows); absent: one host
//   nic     per host: NIC rate, b/s (suffixes as rate)
//   txq     per host: txqueuelen, packets
//   alg     per flow: algorithm id, optionally with parameters "scalable(a=0.01;b=0.125)"
//   win     per flow: window, bytes (K, M, G: powers of 1024)
//   start   per flow: start time, ms
//   stop    per flow: stop time, ms, or "-" (run to the end)
//   xdelay  per flow: extra two-way delay, ms
//   sc      fallback: the whole scenario as base64url JSON (when the readable
//           form cannot express it exactly); readable parameters apply on top
//   scenario  legacy: the whole scenario as URL-encoded JSON
//
// "Per host" and "per flow" parameters take one value for all, or a comma
// list with one value per host / flow (flows in host order).
//
// Decoding never throws and never trusts the text: anything it cannot read
// exactly is ignored and reported in `notices` (plain strings; the page
// renders them as text, never as HTML). Range checks are the engine's
// (see sanitize.ts), so the rules live in one place.

import type { Aqm, Flow, Host, LatencyProbe, Scenario } from '../engine/types';
import { LIMITS } from '../engine/generated/defaults';
import { jsonShapeProblem, shapeProblemText } from './duplicateKeys';
import {
  BYTE_UNITS,
  formatNumber,
  formatSeconds,
  formatWithUnits,
  parseNumber,
  parseSeconds,
  parseU32,
  parseWithUnits,
  RATE_UNITS,
} from './numbers';

export const LINK_VERSION = 2;
/** Profile of link format 1 and scenario format 1 (before profiles). */
export const LEGACY_PROFILE = 'sawtooth-1';

/** Parameters that describe the scenario (the rest of a URL is view options). */
export const SCENARIO_PARAMS = [
  'v',
  'prof',
  'seed',
  'dur',
  'dt',
  'mtu',
  'rtt',
  'loss',
  'icwnd',
  'ssth',
  'dack',
  'sack',
  'rate',
  'buf',
  'aqm',
  'probe',
  'hosts',
  'nic',
  'txq',
  'alg',
  'win',
  'start',
  'stop',
  'xdelay',
  'sc',
  'scenario',
] as const;

/** Parameters of the page, not of the scenario (see view.ts). */
export const VIEW_PARAMS = ['embed', 'charts', 'controls', 'profile', 'theme', 'autoplay', 'speed', 'present', 'frame', 'origin', 'debug', 'sw', 'render', 'view', 'lab', 'quick', 'pred'] as const;

/** Longest query string read at all (a link is a few hundred characters). */
export const MAX_QUERY_LENGTH = 100_000;
/** Longest single value quoted back in a notice. */
const QUOTE_MAX = 40;

const ID_RE = /^[A-Za-z0-9_.-]{1,40}$/;
const MAX_HOSTS = 64;
const MAX_FLOWS_PER_HOST = 64;

export interface DecodedScenario {
  scenario: Scenario;
  /** What was ignored and why, one sentence each. */
  notices: string[];
  /** True when the URL carried any scenario parameter. */
  fromUrl: boolean;
}

/** Text shortened for a notice, control characters removed (still plain text). */
export function clip(text: string, max = 160): string {
  // eslint-disable-next-line no-control-regex
  const clean = text.replace(/[\u0000-\u001f\u007f]/g, '?');
  return clean.length > max ? `${clean.slice(0, max)}…` : clean;
}

/** A value quoted in a notice: shortened, control characters removed. Text only. */
export function quote(text: string): string {
  // eslint-disable-next-line no-control-regex
  const clean = text.replace(/[\u0000-\u001f\u007f]/g, '?');
  return JSON.stringify(clean.length > QUOTE_MAX ? `${clean.slice(0, QUOTE_MAX)}…` : clean);
}

// ------------------------------------------------------------------ encode

function allEqual<T>(xs: T[], eq: (a: T, b: T) => boolean = Object.is): boolean {
  return xs.every((x) => eq(x, xs[0]));
}

function list<T>(xs: T[], fmt: (x: T) => string): string {
  return allEqual(xs) ? fmt(xs[0]) : xs.map(fmt).join(',');
}

function flowsOf(s: Scenario): Flow[] {
  return s.hosts.flatMap((h) => h.flows);
}

function paramsText(params: Record<string, number>): string {
  const keys = Object.keys(params).sort();
  if (keys.length === 0) return '';
  return `(${keys.map((k) => `${k}=${formatNumber(params[k])}`).join(';')})`;
}

const PROBE_FIELDS = ['interval_ms', 'size_bytes'] as const;

/** RED's fields in a link, all required (`red(min=…;max=…;p=…;w=…;ecn=0|1)`). */
const RED_FIELDS = ['min', 'max', 'p', 'w', 'ecn'] as const;

/** The optional fields of each newer queue discipline (scenario.rs `Aqm`), for links. */
const AQM_FIELDS: Record<string, readonly string[]> = {
  codel: ['target_ms', 'interval_ms', 'ecn'],
  fq_codel: ['target_ms', 'interval_ms', 'quantum_bytes', 'flows', 'ecn'],
  pie: ['target_ms', 't_update_ms', 'alpha', 'beta', 'max_burst_ms', 'ecn'],
  step_mark: ['threshold_pkts'],
  dualpi2: ['target_ms', 't_update_ms', 'alpha', 'beta', 'step_thresh_ms', 'coupling', 'c_protection_pct', 'drop_overload'],
};

/** "k=v;k=v" of an object's defined fields (booleans as 1/0), in `order`. */
function fieldsText(o: Record<string, unknown>, order: readonly string[]): string {
  return order
    .filter((k) => o[k] !== undefined && o[k] !== null)
    .map((k) => `${k}=${typeof o[k] === 'boolean' ? (o[k] ? 1 : 0) : formatNumber(o[k] as number)}`)
    .join(';');
}

/** Why a link value was refused, when more can be said than what was expected. */
class Refused {
  constructor(readonly reason: string) {}
}

/** Parse "k=v;k=v" with keys from `allowed` ("ecn" a boolean, the rest numbers), or say what is wrong with it. */
function parseFields(text: string, allowed: readonly string[], owner: string): Record<string, number | boolean> | Refused {
  const out: Record<string, number | boolean> = {};
  if (text === '') return out;
  for (const part of text.split(';')) {
    const eq = part.indexOf('=');
    const k = part.slice(0, eq);
    if (eq <= 0) return new Refused(`expected field=value in ${owner}, got "${part}"`);
    if (!allowed.includes(k)) return new Refused(`${owner} has no field ${k}; its fields: ${allowed.join(', ')}`);
    if (k in out) return new Refused(`${owner}'s ${k} is given twice`);
    const bool = k === 'ecn' || k === 'drop_overload';
    const v = bool ? parseBool(part.slice(eq + 1)) : parseNumber(part.slice(eq + 1));
    if (v === null) return new Refused(`${owner}'s ${k} must be ${bool ? '1 or 0' : 'a number'}`);
    out[k] = v;
  }
  return out;
}

function aqmText(aqm: Aqm): string {
  if (aqm.kind === 'drop_tail') return 'droptail';
  if (aqm.kind !== 'red') {
    const fields = fieldsText(aqm as Record<string, unknown>, AQM_FIELDS[aqm.kind]);
    return fields ? `${aqm.kind}(${fields})` : aqm.kind;
  }
  return `red(min=${formatNumber(aqm.min_th_pkts)};max=${formatNumber(aqm.max_th_pkts)};p=${formatNumber(aqm.max_p)};w=${formatNumber(aqm.weight)};ecn=${aqm.ecn ? 1 : 0})`;
}

/** Characters left unescaped in values, for readability (all legal in a query). */
function encodeValue(v: string): string {
  return encodeURIComponent(v).replace(/%2C/g, ',').replace(/%3B/g, ';').replace(/%3A/g, ':').replace(/%3D/g, '=');
}

/** JSON with object keys sorted at every level (key order carries no meaning). */
export function canonicalJson(x: unknown): string {
  return JSON.stringify(x, (_k, v: unknown) => {
    if (!isPlainObject(v)) return v;
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) out[k] = v[k];
    return out;
  });
}

function sameJson(a: unknown, b: unknown): boolean {
  return canonicalJson(a) === canonicalJson(b);
}

/** UTF-8 JSON as base64url (no padding). */
export function toBase64Url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function fromBase64Url(text: string): string | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null;
  try {
    const bin = atob(text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4));
    const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

function readablePairs(s: Scenario, d: Scenario): [string, string][] | null {
  const flows = flowsOf(s);
  if (s.hosts.length === 0 || s.hosts.some((h) => h.flows.length === 0)) return null;
  if (flows.some((f) => !ID_RE.test(f.algorithm) || Object.keys(f.params).some((k) => !ID_RE.test(k)))) return null;
  // Single-switch overrides travel in the whole-document fallback.
  if (!ID_RE.test(s.profile) || Object.keys(s.mechanisms ?? {}).length > 0) return null;
  const out: [string, string][] = [['v', String(LINK_VERSION)]];
  const dflows = flowsOf(d);
  if (s.hosts.length > 1) out.push(['hosts', s.hosts.map((h) => String(h.flows.length)).join(',')]);
  // The headline fields are always written, so a link keeps its meaning
  // even if the engine's defaults change; the rest only when not default.
  out.push(['prof', s.profile]);
  out.push(['alg', list(flows.map((f) => f.algorithm + paramsText(f.params)), (x) => x)]);
  out.push(['rtt', formatNumber(s.rtt_ms)]);
  out.push(['rate', formatWithUnits(s.bottleneck.rate_bps, RATE_UNITS)]);
  out.push(['buf', formatNumber(s.bottleneck.buffer_pkts)]);
  out.push(['txq', list(s.hosts.map((h) => h.txqueuelen_pkts), formatNumber)]);
  out.push(['win', list(flows.map((f) => f.window_bytes), (x) => formatWithUnits(x, BYTE_UNITS))]);
  out.push(['mtu', formatNumber(s.mtu_bytes)]);
  out.push(['dur', formatSeconds(s.duration_ms)]);
  const nics = s.hosts.map((h) => h.nic_bps);
  if (!(allEqual(nics) && Object.is(nics[0], d.hosts[0]?.nic_bps))) out.push(['nic', list(nics, (x) => formatWithUnits(x, RATE_UNITS))]);
  if (!Object.is(s.sample_interval_ms, d.sample_interval_ms)) out.push(['dt', formatNumber(s.sample_interval_ms)]);
  if (!Object.is(s.loss_rate, d.loss_rate)) out.push(['loss', formatNumber(s.loss_rate)]);
  if (s.tcp.initial_cwnd_pkts !== d.tcp.initial_cwnd_pkts) out.push(['icwnd', formatNumber(s.tcp.initial_cwnd_pkts)]);
  if (s.tcp.initial_ssthresh_pkts !== d.tcp.initial_ssthresh_pkts)
    out.push(['ssth', s.tcp.initial_ssthresh_pkts === null ? 'inf' : formatNumber(s.tcp.initial_ssthresh_pkts)]);
  if (s.tcp.delayed_ack !== d.tcp.delayed_ack) out.push(['dack', s.tcp.delayed_ack ? '1' : '0']);
  if (s.tcp.sack !== d.tcp.sack) out.push(['sack', s.tcp.sack ? '1' : '0']);
  if (!sameJson(s.bottleneck.aqm, d.bottleneck.aqm)) out.push(['aqm', aqmText(s.bottleneck.aqm)]);
  if (s.probe) out.push(['probe', fieldsText(s.probe as Record<string, unknown>, PROBE_FIELDS) || '1']);
  const df = dflows[0];
  const starts = flows.map((f) => f.start_ms);
  if (!(allEqual(starts) && Object.is(starts[0], df?.start_ms))) out.push(['start', list(starts, formatNumber)]);
  const stops = flows.map((f) => f.stop_ms);
  if (!(allEqual(stops) && stops[0] === (df?.stop_ms ?? null))) out.push(['stop', list(stops, (x) => (x === null ? '-' : formatNumber(x)))]);
  const xd = flows.map((f) => f.extra_delay_ms);
  if (!(allEqual(xd) && Object.is(xd[0], df?.extra_delay_ms))) out.push(['xdelay', list(xd, formatNumber)]);
  out.push(['seed', formatNumber(s.seed)]);
  return out;
}

function pairsToQuery(pairs: [string, string][]): string {
  return pairs.map(([k, v]) => `${k}=${encodeValue(v)}`).join('&');
}

/**
 * The query string (without "?") for `scenario`, readable where possible.
 * Guaranteed: decodeScenario(encodeScenario(s, d), d).scenario equals s.
 */
export function encodeScenario(scenario: Scenario, defaults: Scenario): string {
  const pairs = readablePairs(scenario, defaults);
  if (pairs) {
    const query = pairsToQuery(pairs);
    const back = decodeScenario(query, defaults);
    if (back.notices.length === 0 && sameJson(back.scenario, scenario)) return query;
  }
  return pairsToQuery([
    ['v', String(LINK_VERSION)],
    ['sc', toBase64Url(JSON.stringify(scenario))],
    ['seed', formatNumber(scenario.seed)],
  ]);
}

// ------------------------------------------------------------------ decode

type Notes = string[];

function ignored(notes: Notes, key: string, value: string, why: string): void {
  notes.push(`Ignored ${key}=${quote(value)}: ${why}.`);
}

function splitList(text: string): string[] {
  return text.split(',');
}

function parseBool(text: string): boolean | null {
  if (text === '1' || text === 'true') return true;
  if (text === '0' || text === 'false') return false;
  return null;
}

function isPlainObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** Parse "id" or "id(k=v;k=v)". */
function parseAlgToken(text: string): { algorithm: string; params: Record<string, number> } | null {
  const m = /^([A-Za-z0-9_.-]{1,40})(?:\((.*)\))?$/.exec(text);
  if (!m) return null;
  const params: Record<string, number> = {};
  if (m[2] !== undefined && m[2] !== '') {
    for (const part of m[2].split(';')) {
      const eq = part.indexOf('=');
      if (eq <= 0) return null;
      const k = part.slice(0, eq);
      const v = parseNumber(part.slice(eq + 1));
      if (!ID_RE.test(k) || v === null || Object.hasOwn(params, k)) return null;
      params[k] = v;
    }
  }
  // Sorted like the engine's BTreeMap, so equal scenarios serialise equally.
  const sorted: Record<string, number> = {};
  for (const k of Object.keys(params).sort()) sorted[k] = params[k];
  return { algorithm: m[1], params: sorted };
}

function parseAqm(text: string): Aqm | Refused | null {
  if (text === 'droptail' || text === 'drop_tail') return { kind: 'drop_tail' };
  const other = /^(codel|fq_codel|pie|step_mark|dualpi2)(?:\((.*)\))?$/.exec(text);
  if (other) {
    const fields = parseFields(other[2] ?? '', AQM_FIELDS[other[1]], other[1]);
    return fields instanceof Refused ? fields : ({ kind: other[1], ...fields } as Aqm);
  }
  const m = /^red\((.*)\)$/.exec(text);
  if (!m) return null;
  // RED has no defaults to fall back on: its thresholds depend on the link.
  const fields = parseFields(m[1], RED_FIELDS, 'red');
  if (fields instanceof Refused) return fields;
  const missing = RED_FIELDS.filter((k) => !(k in fields));
  if (missing.length > 0) return new Refused(`red needs all of ${RED_FIELDS.join(', ')}; missing ${missing.join(', ')}`);
  const num = (k: string) => fields[k] as number;
  return { kind: 'red', min_th_pkts: num('min'), max_th_pkts: num('max'), max_p: num('p'), weight: num('w'), ecn: fields.ecn as boolean };
}

/** A whole scenario document from the fallback or legacy parameter. */
function parseDocument(text: string, key: string, notes: Notes): Scenario | null {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    ignored(notes, key, text, 'not a scenario document (JSON); using the default scenario');
    return null;
  }
  if (!isPlainObject(doc)) {
    ignored(notes, key, text, 'not a scenario document (a JSON object); using the default scenario');
    return null;
  }
  // A key given twice (JSON.parse would keep the last without a word), or
  // nesting no scenario has (it would overflow the stack of the checks below).
  const shape = jsonShapeProblem(text);
  if (shape) {
    ignored(notes, key, text, `the document ${shapeProblemText(shape, clip)}; using the default scenario`);
    return null;
  }
  // Scenario format 1 (before profiles) migrates as the engine does
  // (scenario.rs migrate_v1): same fields, the `sawtooth-1` profile.
  if (doc.version === 1) return { ...doc, version: 2, profile: doc.profile ?? LEGACY_PROFILE, mechanisms: doc.mechanisms ?? {} } as unknown as Scenario;
  // Its fields are checked by the engine (sanitize.ts), which names each one.
  return doc as unknown as Scenario;
}

/** Rebuild the hosts for a new layout, keeping flows and hosts by position. */
function relayout(s: Scenario, counts: number[], d: Scenario): Host[] {
  const flows = flowsOf(s);
  const hostTemplate = d.hosts[0];
  const flowTemplate = d.hosts[0]?.flows[0];
  let k = 0;
  return counts.map((n, h) => {
    const src = s.hosts[h] ?? hostTemplate;
    const hostFlows: Flow[] = [];
    for (let i = 0; i < n; i++, k++) hostFlows.push(structuredClone(flows[k] ?? flowTemplate));
    return { ...structuredClone({ ...src, flows: [] }), flows: hostFlows };
  });
}

/**
 * Read a scenario from a query string, on top of `defaults`. Never throws;
 * whatever cannot be read is ignored and named in `notices`.
 */
export function decodeScenario(search: string, defaults: Scenario): DecodedScenario {
  const notes: Notes = [];
  let s: Scenario = structuredClone(defaults);
  const raw = search.startsWith('?') ? search.slice(1) : search;
  if (raw.length > MAX_QUERY_LENGTH) {
    notes.push(`Ignored the whole link: ${raw.length} characters is longer than ${MAX_QUERY_LENGTH}; using the default scenario.`);
    return { scenario: s, notices: notes, fromUrl: false };
  }
  let params: URLSearchParams;
  try {
    params = new URLSearchParams(raw);
  } catch {
    notes.push('Ignored the link parameters: they could not be read; using the default scenario.');
    return { scenario: s, notices: notes, fromUrl: false };
  }

  // One value per parameter: a repeated parameter is ambiguous.
  const values = new Map<string, string>();
  const known = new Set<string>([...SCENARIO_PARAMS, ...VIEW_PARAMS]);
  for (const [k, v] of params) {
    if (!known.has(k)) {
      notes.push(`Ignored unknown parameter ${quote(k)}.`);
      continue;
    }
    if (values.has(k)) {
      if (values.get(k) !== v) notes.push(`Ignored a second ${k}=${quote(v)}: the first value is used.`);
      continue;
    }
    values.set(k, v);
  }
  const fromUrl = SCENARIO_PARAMS.some((k) => values.has(k));

  const v = values.get('v');
  if (v !== undefined && v !== '1' && v !== String(LINK_VERSION)) {
    ignored(notes, 'v', v, `this page reads link versions 1 and ${LINK_VERSION}; the link's scenario parameters were not used`);
    return { scenario: s, notices: notes, fromUrl };
  }
  // Link format 1 predates testbed profiles: its scenarios keep the
  // engine's results of that time (the `sawtooth-1` profile).
  // (A hand-written link without v reads on today's defaults.)
  if (v === '1') s = { ...s, profile: LEGACY_PROFILE, mechanisms: {} };

  // A whole document first; readable parameters apply on top.
  const sc = values.get('sc');
  const legacy = values.get('scenario');
  if (sc !== undefined) {
    const json = fromBase64Url(sc);
    if (json === null) ignored(notes, 'sc', sc, 'not base64url-encoded UTF-8; using the default scenario');
    else s = parseDocument(json, 'sc', notes) ?? s;
  } else if (legacy !== undefined) {
    s = parseDocument(legacy, 'scenario', notes) ?? s;
  }
  if (sc !== undefined && legacy !== undefined) ignored(notes, 'scenario', legacy, 'the link also has sc=, which is used');
  // A document that is not shaped like a scenario cannot take the readable
  // parameters; the engine reports its problems.
  const shaped = Array.isArray(s.hosts) && s.hosts.every((h) => isPlainObject(h) && Array.isArray(h.flows)) && isPlainObject(s.tcp) && isPlainObject(s.bottleneck);

  const get = (k: string) => values.get(k);
  const scalar = <T>(key: string, parse: (t: string) => T | Refused | null, apply: (x: T) => void, what: string) => {
    const t = get(key);
    if (t === undefined) return;
    const x = parse(t);
    if (x === null) ignored(notes, key, t, `expected ${what}`);
    else if (x instanceof Refused) ignored(notes, key, t, x.reason);
    else if (!shaped && key !== 'seed') ignored(notes, key, t, 'the scenario document it would change is not valid');
    else apply(x);
  };

  scalar('seed', parseU32, (x) => (s = { ...s, seed: x }), 'an integer between 0 and 4294967295');
  scalar('prof', (t) => (ID_RE.test(t) ? t : null), (x) => (s = { ...s, profile: x }), 'a profile id, like linux-2.4');
  scalar('dur', parseSeconds, (x) => (s.duration_ms = x), 'a duration in seconds, like 20 or 1500ms');
  scalar('dt', parseNumber, (x) => (s.sample_interval_ms = x), 'a number of milliseconds');
  scalar('mtu', parseU32, (x) => (s.mtu_bytes = x), 'a whole number of bytes');
  scalar('rtt', parseNumber, (x) => (s.rtt_ms = x), 'a number of milliseconds');
  scalar('loss', parseNumber, (x) => (s.loss_rate = x), 'a probability, like 0.001');
  scalar('icwnd', parseU32, (x) => (s.tcp = { ...s.tcp, initial_cwnd_pkts: x }), 'a whole number of packets');
  scalar(
    'ssth',
    (t) => (t === 'inf' ? ('inf' as const) : parseU32(t)),
    (x) => (s.tcp = { ...s.tcp, initial_ssthresh_pkts: x === 'inf' ? null : x }),
    'a whole number of packets or inf',
  );
  scalar('dack', parseBool, (x) => (s.tcp = { ...s.tcp, delayed_ack: x }), '1 or 0');
  scalar('sack', parseBool, (x) => (s.tcp = { ...s.tcp, sack: x }), '1 or 0');
  scalar('rate', (t) => parseWithUnits(t, RATE_UNITS), (x) => (s.bottleneck = { ...s.bottleneck, rate_bps: x }), 'a rate in b/s, like 1G or 100M');
  scalar('buf', parseU32, (x) => (s.bottleneck = { ...s.bottleneck, buffer_pkts: x }), 'a whole number of packets');
  scalar('aqm', parseAqm, (x) => (s.bottleneck = { ...s.bottleneck, aqm: x }), 'droptail, red(min=…;max=…;p=…;w=…;ecn=0|1), codel, fq_codel, pie, step_mark or dualpi2, optionally with (field=value;…)');
  scalar('probe', (t) => (t === '1' ? {} : parseFields(t, PROBE_FIELDS, 'probe')), (x) => (s = { ...s, probe: x as LatencyProbe }), '1 or interval_ms=…;size_bytes=…');

  if (!shaped) {
    for (const k of ['hosts', 'nic', 'txq', 'alg', 'win', 'start', 'stop', 'xdelay']) {
      const t = get(k);
      if (t !== undefined) ignored(notes, k, t, 'the scenario document it would change is not valid');
    }
    return { scenario: s, notices: notes, fromUrl };
  }

  // Layout: hosts=2,1 or the number of algorithms on one host.
  const hostsText = get('hosts');
  const algText = get('alg');
  const algs = algText === undefined ? null : splitList(algText).map(parseAlgToken);
  if (algText !== undefined && algs!.some((a) => a === null)) {
    ignored(notes, 'alg', algText, 'expected algorithm ids, like reno,cubic or scalable(a=0.01;b=0.125)');
  }
  const goodAlgs = algs && algs.every((a) => a !== null) ? (algs as { algorithm: string; params: Record<string, number> }[]) : null;
  let counts: number[] | null = null;
  if (hostsText !== undefined) {
    const c = splitList(hostsText).map(parseU32);
    if (c.length > MAX_HOSTS || c.some((n) => n === null || n < 1 || n > MAX_FLOWS_PER_HOST)) {
      ignored(notes, 'hosts', hostsText, `expected the number of flows on each host, like 2,1 (at most ${MAX_HOSTS} hosts of ${MAX_FLOWS_PER_HOST} flows)`);
    } else counts = c as number[];
  } else if (goodAlgs && goodAlgs.length > 1 && goodAlgs.length !== flowsOf(s).length) {
    if (goodAlgs.length > MAX_FLOWS_PER_HOST) ignored(notes, 'alg', algText!, `at most ${MAX_FLOWS_PER_HOST} flows on one host (use hosts=)`);
    else counts = [goodAlgs.length];
  }
  if (counts) s = { ...s, hosts: relayout(s, counts, defaults) };

  const hosts = s.hosts;
  const flows = flowsOf(s);
  const perList = <T>(key: string, n: number, parse: (t: string) => T | null, apply: (xs: T[]) => void, what: string, unit: string) => {
    const t = get(key);
    if (t === undefined) return;
    const items = splitList(t).map(parse);
    const problems: string[] = [];
    if (items.some((x) => x === null)) problems.push(`expected ${what}`);
    if (items.length !== 1 && items.length !== n) problems.push(n === 1 ? `expected one value (the scenario has one ${unit})` : `expected one value or ${n} (one per ${unit}: the scenario has ${n} ${unit}s)`);
    if (problems.length) ignored(notes, key, t, problems.join('; '));
    else apply(items.length === 1 ? Array.from({ length: n }, () => items[0] as T) : (items as T[]));
  };
  perList('nic', hosts.length, (t) => parseWithUnits(t, RATE_UNITS), (xs) => hosts.forEach((h, i) => (h.nic_bps = xs[i])), 'rates in b/s, like 1G', 'host');
  perList('txq', hosts.length, parseU32, (xs) => hosts.forEach((h, i) => (h.txqueuelen_pkts = xs[i])), 'whole numbers of packets', 'host');
  if (goodAlgs) {
    if (goodAlgs.length !== 1 && goodAlgs.length !== flows.length) {
      ignored(notes, 'alg', algText!, `expected one algorithm or ${flows.length} (one per flow)`);
    } else {
      flows.forEach((f, i) => {
        const a = goodAlgs.length === 1 ? goodAlgs[0] : goodAlgs[i];
        f.algorithm = a.algorithm;
        f.params = { ...a.params };
      });
    }
  }
  perList('win', flows.length, (t) => {
    const x = parseWithUnits(t, BYTE_UNITS);
    return x !== null && Number.isInteger(x) && x >= 0 && x <= 4294967295 ? x : null;
  }, (xs) => flows.forEach((f, i) => (f.window_bytes = xs[i])), `window sizes in bytes from ${formatWithUnits(LIMITS.window_bytes[0], BYTE_UNITS)} to ${formatWithUnits(LIMITS.window_bytes[1], BYTE_UNITS)}, like 16M or 65536`, 'flow');
  perList('start', flows.length, parseNumber, (xs) => flows.forEach((f, i) => (f.start_ms = xs[i])), 'times in ms', 'flow');
  perList(
    'stop',
    flows.length,
    (t) => (t === '-' ? ('-' as const) : parseNumber(t)),
    (xs) => flows.forEach((f, i) => (f.stop_ms = xs[i] === '-' ? null : (xs[i] as number))),
    'times in ms or -',
    'flow',
  );
  perList('xdelay', flows.length, parseNumber, (xs) => flows.forEach((f, i) => (f.extra_delay_ms = xs[i])), 'delays in ms', 'flow');

  return { scenario: s, notices: notes, fromUrl };
}
