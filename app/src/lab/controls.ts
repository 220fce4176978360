// The scenario builder's numeric controls as data: the engine field each one
// sets, its range (the engine's own limits, generated from scenario/limits.rs, so a
// value the engine accepts is never refused here), unit, slider ladder and
// default. Parsing of the typed
// field reports problems in the engine's own format (field, value, rule), so
// the page shows one kind of error whatever caught it.

import type { ParamInfo, ValidationError } from '../engine/types';
import { decadeLadder, isLogLadder, linearLadder, mantissaLadder, OCTAVE_MANTISSAS, paramLadder, steppedLadder, type Ladder } from './ladder';
import { formatValue, parseQuantity, trimNumber, type UnitKind } from './units';
import { DEFAULT_SCENARIO, LIMITS } from '../engine/generated/defaults';

// A control's reset value is the engine's default scenario's (generated from
// scenario.rs), so "Reset" and "Reset everything" agree and the two cannot
// drift apart when the engine's default changes.
const DEFAULT_HOST = DEFAULT_SCENARIO.hosts[0];
const DEFAULT_FLOW = DEFAULT_HOST.flows[0];

export interface ControlSpec {
  /** Stable id (data-testid and label prefix). */
  id: string;
  label: string;
  /**
   * Engine field path, as the engine names it in errors ("rtt_ms",
   * "hosts[*].txqueuelen_pkts" for a control that sets every host).
   */
  field: string;
  kind: UnitKind;
  /** Unit shown after the typed field ("ms", "packets"). */
  unit: string;
  min: number;
  max: number;
  ladder: Ladder;
  /** Compare by log distance on the slider. */
  log: boolean;
  defaultValue: number;
  /** Whole numbers only. */
  integer?: boolean;
  help?: string;
}

function spec(s: Omit<ControlSpec, 'log'> & { log?: boolean }): ControlSpec {
  return { ...s, log: s.log ?? isLogLadder(s.ladder) };
}

const RATE_LADDER = decadeLadder(LIMITS.nic_bps[0], LIMITS.nic_bps[1]);

/**
 * The control ids a link's `controls=` may list (docs/TEST-SURFACE.md
 * section 9, "yes" under `controls=`); the others come with their group.
 * The scenario builder asks for each by one of these ids.
 */
export const LINKABLE_CONTROL_IDS = [
  'topology', 'streams', 'rtt', 'bottleneck-rate', 'buffer', 'mtu', 'loss', 'nic-rate', 'txqueuelen', 'window',
  'flows', 'ssthresh', 'icwnd', 'tcp-options', 'aqm', 'probe', 'trace', 'profile', 'duration', 'seed',
] as const;
export type LinkableControlId = (typeof LINKABLE_CONTROL_IDS)[number];

export const CONTROLS = {
  rtt: spec({
    id: 'rtt',
    label: 'RTT',
    field: 'rtt_ms',
    kind: 'ms',
    unit: 'ms',
    min: LIMITS.rtt_ms[0],
    max: LIMITS.rtt_ms[1],
    ladder: linearLadder(LIMITS.rtt_ms[0], LIMITS.rtt_ms[1], 1),
    log: false,
    defaultValue: DEFAULT_SCENARIO.rtt_ms,
    help: 'Two-way propagation delay, split evenly between the data and the ACK direction.',
  }),
  bottleneckRate: spec({
    id: 'bottleneck-rate',
    label: 'Bottleneck rate',
    field: 'bottleneck.rate_bps',
    kind: 'rate',
    unit: 'b/s',
    min: LIMITS.rate_bps[0],
    max: LIMITS.rate_bps[1],
    ladder: decadeLadder(LIMITS.rate_bps[0], LIMITS.rate_bps[1]),
    defaultValue: DEFAULT_SCENARIO.bottleneck.rate_bps,
  }),
  bufferPkts: spec({
    id: 'buffer',
    label: 'Bottleneck buffer',
    field: 'bottleneck.buffer_pkts',
    kind: 'packets',
    unit: 'packets',
    min: LIMITS.buffer_pkts[0],
    max: LIMITS.buffer_pkts[1],
    ladder: steppedLadder([
      [1, 10, 1],
      [10, 100, 5],
      [100, 1000, 25],
      [1000, 10000, 250],
      [10000, 100000, 2500],
      [100000, LIMITS.buffer_pkts[1], 25000],
    ]),
    defaultValue: DEFAULT_SCENARIO.bottleneck.buffer_pkts,
    integer: true,
  }),
  bufferBdp: spec({
    id: 'buffer-bdp',
    label: 'Bottleneck buffer',
    field: 'bottleneck.buffer_pkts',
    kind: 'plain',
    unit: '× BDP',
    min: 0.01,
    max: 20,
    ladder: decadeLadder(0.01, 20),
    defaultValue: 1,
  }),
  lossRate: spec({
    id: 'loss',
    label: 'Random loss',
    field: 'loss_rate',
    kind: 'plain',
    unit: 'per packet',
    min: LIMITS.loss_rate[0],
    max: LIMITS.loss_rate[1],
    ladder: [0, ...mantissaLadder(1e-8, LIMITS.loss_rate[1], [1, 2, 5], 10)],
    log: true,
    defaultValue: DEFAULT_SCENARIO.loss_rate,
  }),
  nicRate: spec({
    id: 'nic-rate',
    label: 'NIC rate',
    field: 'hosts[*].nic_bps',
    kind: 'rate',
    unit: 'b/s',
    min: LIMITS.nic_bps[0],
    max: LIMITS.nic_bps[1],
    ladder: RATE_LADDER,
    defaultValue: DEFAULT_HOST.nic_bps,
  }),
  txqueuelen: spec({
    id: 'txqueuelen',
    label: 'txqueuelen',
    field: 'hosts[*].txqueuelen_pkts',
    kind: 'packets',
    unit: 'packets',
    min: LIMITS.txqueuelen_pkts[0],
    max: LIMITS.txqueuelen_pkts[1],
    ladder: steppedLadder([
      [1, 10, 1],
      [10, 300, 5],
      [300, 1000, 25],
      [1000, 10000, 250],
      [10000, LIMITS.txqueuelen_pkts[1], 2500],
    ]),
    defaultValue: DEFAULT_HOST.txqueuelen_pkts,
    integer: true,
  }),
  window: spec({
    id: 'window',
    label: 'Window',
    field: 'hosts[*].flows[*].window_bytes',
    kind: 'bytes',
    unit: 'bytes',
    min: LIMITS.window_bytes[0],
    max: LIMITS.window_bytes[1],
    ladder: mantissaLadder(LIMITS.window_bytes[0], LIMITS.window_bytes[1], OCTAVE_MANTISSAS, 2),
    defaultValue: DEFAULT_FLOW.window_bytes,
    integer: true,
    help: 'Socket buffer size: the receiver advertises it as its window; the usable window is min(cwnd, window).',
  }),
  streams: spec({
    id: 'streams',
    label: 'Parallel streams',
    field: 'hosts[0].flows',
    kind: 'plain',
    unit: 'streams',
    min: 1,
    max: 16,
    ladder: linearLadder(1, 16, 1),
    log: false,
    defaultValue: 2,
    integer: true,
  }),
  initialSsthresh: spec({
    id: 'ssthresh',
    label: 'Initial ssthresh',
    field: 'tcp.initial_ssthresh_pkts',
    kind: 'packets',
    unit: 'packets',
    min: LIMITS.initial_ssthresh_pkts[0],
    max: LIMITS.initial_ssthresh_pkts[1],
    ladder: mantissaLadder(LIMITS.initial_ssthresh_pkts[0], LIMITS.initial_ssthresh_pkts[1], [1, 1.5, 2, 3, 5, 7], 10),
    defaultValue: 100,
    integer: true,
  }),
  initialCwnd: spec({
    id: 'icwnd',
    label: 'Initial cwnd',
    field: 'tcp.initial_cwnd_pkts',
    kind: 'packets',
    unit: 'packets',
    min: LIMITS.initial_cwnd_pkts[0],
    max: LIMITS.initial_cwnd_pkts[1],
    ladder: linearLadder(LIMITS.initial_cwnd_pkts[0], LIMITS.initial_cwnd_pkts[1], 1),
    log: false,
    defaultValue: DEFAULT_SCENARIO.tcp.initial_cwnd_pkts,
    integer: true,
  }),
  duration: spec({
    id: 'duration',
    label: 'Duration',
    field: 'duration_ms',
    kind: 's',
    unit: 's',
    min: 1,
    max: LIMITS.duration_ms[1] / 1000,
    ladder: steppedLadder([
      [1, 10, 1],
      [10, 60, 5],
      [60, 600, 30],
      [600, 3600, 300],
    ]),
    defaultValue: DEFAULT_SCENARIO.duration_ms / 1000,
  }),
  seed: spec({
    id: 'seed',
    label: 'Seed',
    field: 'seed',
    kind: 'plain',
    unit: '',
    min: 0,
    max: 4_294_967_295,
    ladder: linearLadder(0, 100, 1),
    log: false,
    defaultValue: DEFAULT_SCENARIO.seed,
    integer: true,
  }),
} satisfies Record<string, ControlSpec>;

/** Per-flow start time: 0 to the run's duration (seconds on the control, ms in the scenario). */
export function startTimeSpec(field: string, durationS: number): ControlSpec {
  const step = durationS <= 20 ? 0.1 : durationS <= 200 ? 1 : 10;
  return spec({
    id: 'start',
    label: 'Start time',
    field,
    kind: 's',
    unit: 's',
    min: 0,
    max: durationS,
    ladder: linearLadder(0, durationS, step),
    log: false,
    defaultValue: 0,
  });
}

export function extraDelaySpec(field: string): ControlSpec {
  return spec({
    id: 'extra-delay',
    label: 'Extra delay',
    field,
    kind: 'ms',
    unit: 'ms',
    min: LIMITS.extra_delay_ms[0],
    max: LIMITS.extra_delay_ms[1],
    ladder: linearLadder(LIMITS.extra_delay_ms[0], LIMITS.extra_delay_ms[1], 1),
    log: false,
    defaultValue: 0,
  });
}

/** A control for an algorithm parameter, from its catalogue entry. */
export function paramSpec(p: ParamInfo, field: string): ControlSpec {
  const ladder = paramLadder(p);
  return spec({
    id: `param-${p.id}`,
    label: p.name,
    field,
    kind: 'plain',
    unit: p.unit,
    min: p.min,
    max: p.max,
    ladder,
    log: p.log_scale,
    defaultValue: p.default,
    integer: Number.isInteger(p.step) && Number.isInteger(p.min),
    help: p.description,
  });
}

/** "between 0 and 500 ms", "between 64 KB and 512 MB". */
export function rangeText(c: ControlSpec): string {
  if (c.kind === 'bytes' || c.kind === 'rate') return `between ${formatValue(c.min, c.kind)} and ${formatValue(c.max, c.kind)}`;
  const unit = c.unit && c.kind !== 'plain' ? ` ${c.unit}` : c.unit && !/^(fraction|on\/off)$/.test(c.unit) ? ` ${c.unit}` : '';
  return `between ${trimNumber(c.min, 10)} and ${trimNumber(c.max, 10)}${unit}`;
}

export type ParseResult = { ok: true; value: number } | { ok: false; error: ValidationError };

/** Read a typed value in the control's unit; errors name the field, the value and the range. */
/**
 * A rate or size typed as a bare number is read in b/s or bytes; when the
 * same number in mega-units is in range (a student typing 50 into a box
 * showing "100 Mb/s"), the refusal says how to type it.
 */
function bareNumberHint(t: string, v: number, c: ControlSpec): string {
  if ((c.kind !== 'rate' && c.kind !== 'bytes') || !/^[0-9.]+$/.test(t)) return '';
  const mega = c.kind === 'rate' ? v * 1e6 : v * 2 ** 20;
  if (mega < c.min || mega > c.max) return '';
  return c.kind === 'rate' ? ` (a number alone is in b/s: type ${t}M for ${t} Mb/s)` : ` (a number alone is in bytes: type ${t}M for ${t} MB)`;
}

export function parseControl(text: string, c: ControlSpec, field = c.field): ParseResult {
  const t = text.trim();
  if (t === '') return { ok: false, error: { field, value: '', message: `is required: a number ${rangeText(c)}` } };
  const v = parseQuantity(t, c.kind);
  if (v === null) return { ok: false, error: { field, value: t, message: `must be a number ${rangeText(c)}` } };
  // A bare number was read in the control's unit, which the engine field's
  // name may not carry (Duration's seconds set duration_ms): say which.
  const shown = c.kind !== 'plain' && c.unit && /^[-+0-9.e]+$/i.test(t) ? `${t} ${c.unit}` : t;
  if (v < c.min * (1 - 1e-12) || v > c.max * (1 + 1e-12)) return { ok: false, error: { field, value: shown, message: `must be ${rangeText(c)}${bareNumberHint(t, v, c)}` } };
  if (c.integer && Math.abs(v - Math.round(v)) > 1e-9) return { ok: false, error: { field, value: shown, message: `must be a whole number ${rangeText(c)}` } };
  return { ok: true, value: c.integer ? Math.round(v) : v };
}

/** The text the typed field shows for a value. */
export function controlText(v: number, c: ControlSpec): string {
  if (c.kind === 'bytes' || c.kind === 'rate') return formatValue(v, c.kind);
  return trimNumber(v, 8);
}

/** Does an engine error field (e.g. "hosts[1].txqueuelen_pkts") belong to a control field ("hosts[*].txqueuelen_pkts")? */
export function fieldMatches(pattern: string, field: string): boolean {
  if (pattern === field) return true;
  const re = new RegExp(`^${pattern.replace(/[.+?^${}()|\\]/g, '\\$&').replace(/\[\*\]/g, '\\[\\d+\\]').replace(/\[(\d+)\]/g, '\\[$1\\]')}$`);
  return re.test(field);
}
