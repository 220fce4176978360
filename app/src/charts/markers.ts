// Event markers on the time axis: the engine's congestion events binned per
// pixel column so thousands of drops stay a handful of shapes. Every bin
// keeps the number of events it stands for, so the totals equal the engine's
// event log.

import type { EngineEvent, EventKind } from '../engine/types';

/** The kinds drawn as markers, in lane order, with their shape. */
export const MARKER_KINDS = [
  { kind: 'network_loss', label: 'network loss', shape: 'triangle' },
  { kind: 'local_congestion', label: 'local congestion (txqueuelen)', shape: 'diamond' },
  { kind: 'fast_retransmit', label: 'fast retransmit', shape: 'circle' },
  { kind: 'timeout', label: 'timeout', shape: 'cross' },
  { kind: 'ecn_mark', label: 'ECN mark', shape: 'square' },
] as const satisfies readonly { kind: EventKind; label: string; shape: string }[];

export type MarkerKind = (typeof MARKER_KINDS)[number]['kind'];
export type MarkerShape = (typeof MARKER_KINDS)[number]['shape'];

export function isMarkerKind(k: EventKind): k is MarkerKind {
  return MARKER_KINDS.some((m) => m.kind === k);
}

export interface MarkerBin {
  kind: MarkerKind;
  flow: number;
  /** Time of the first event in the bin. */
  t: number;
  /** Pixel column. */
  px: number;
  count: number;
}

export type MarkerCounts = Record<MarkerKind, number>;

const KIND_INDEX = Object.fromEntries(MARKER_KINDS.map((m, i) => [m.kind, i])) as Record<MarkerKind, number>;

export function emptyCounts(): MarkerCounts {
  return { network_loss: 0, local_congestion: 0, fast_retransmit: 0, timeout: 0, ecn_mark: 0 };
}

/** Events of each marker kind with t0 ≤ t ≤ min(t1, tMax). */
export function countMarkers(events: readonly EngineEvent[], t0: number, t1: number, tMax = Infinity): MarkerCounts {
  const c = emptyCounts();
  const hi = Math.min(t1, tMax);
  for (const e of events) if (e.t_s >= t0 && e.t_s <= hi && isMarkerKind(e.kind)) c[e.kind]++;
  return c;
}

/**
 * Bin events into pixel columns of a view [t0, t1] that is `pixels` wide,
 * one bin per (kind, flow, column); only events up to `tMax` (the playback
 * cursor). Returns the bins and the per-kind totals.
 */
export function binMarkers(
  events: readonly EngineEvent[],
  opts: { t0: number; t1: number; pixels: number; tMax?: number },
): { bins: MarkerBin[]; counts: MarkerCounts } {
  const { t0, t1 } = opts;
  const pixels = Math.max(1, Math.floor(opts.pixels));
  const hi = Math.min(t1, opts.tMax ?? Infinity);
  const span = t1 - t0;
  const counts = emptyCounts();
  const map = new Map<number, MarkerBin>();
  const bins: MarkerBin[] = [];
  // The engine logs events in time order: visit only those in the window.
  const [from, to] = isTimeOrdered(events) ? [firstAtOrAfter(events, t0), firstAfter(events, hi)] : [0, events.length];
  for (let i = from; i < to; i++) {
    const e = events[i];
    if (!(e.t_s >= t0 && e.t_s <= hi) || !isMarkerKind(e.kind)) continue;
    counts[e.kind]++;
    const px = span > 0 ? Math.min(pixels - 1, Math.floor(((e.t_s - t0) / span) * pixels)) : 0;
    const key = (KIND_INDEX[e.kind] * 4096 + e.flow) * pixels + px;
    const b = map.get(key);
    if (b) b.count++;
    else {
      const nb: MarkerBin = { kind: e.kind, flow: e.flow, t: e.t_s, px, count: 1 };
      map.set(key, nb);
      bins.push(nb);
    }
  }
  return { bins, counts };
}

const ordered = new WeakMap<readonly EngineEvent[], boolean>();
function isTimeOrdered(events: readonly EngineEvent[]): boolean {
  let r = ordered.get(events);
  if (r === undefined) {
    r = true;
    for (let i = 1; i < events.length && r; i++) if (events[i].t_s < events[i - 1].t_s) r = false;
    ordered.set(events, r);
  }
  return r;
}
function firstAtOrAfter(events: readonly EngineEvent[], t: number): number {
  let lo = 0;
  let hi = events.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (events[mid].t_s < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
function firstAfter(events: readonly EngineEvent[], t: number): number {
  let lo = 0;
  let hi = events.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (events[mid].t_s <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The marker kinds a run has at all (lanes are shown only for these). */
export function kindsPresent(events: readonly EngineEvent[]): MarkerKind[] {
  const seen = new Set<EventKind>();
  for (const e of events) seen.add(e.kind);
  return MARKER_KINDS.filter((m) => seen.has(m.kind)).map((m) => m.kind);
}

/** SVG path of a marker shape of size `r` centred on (0, 0). */
export function markerPath(shape: MarkerShape, r: number): string {
  const f = (v: number) => Math.round(v * 100) / 100;
  switch (shape) {
    case 'triangle':
      return `M${f(-r)},${f(-r * 0.8)}L${f(r)},${f(-r * 0.8)}L0,${f(r * 0.9)}Z`;
    case 'diamond':
      return `M0,${f(-r)}L${f(r)},0L0,${f(r)}L${f(-r)},0Z`;
    case 'circle':
      return `M${f(-r)},0A${f(r)},${f(r)} 0 1,0 ${f(r)},0A${f(r)},${f(r)} 0 1,0 ${f(-r)},0Z`;
    case 'cross': {
      const w = r * 0.35;
      return `M${f(-r)},${f(-r + w)}L${f(-r + w)},${f(-r)}L0,${f(-w)}L${f(r - w)},${f(-r)}L${f(r)},${f(-r + w)}L${f(w)},0L${f(r)},${f(r - w)}L${f(r - w)},${f(r)}L0,${f(w)}L${f(-r + w)},${f(r)}L${f(-r)},${f(r - w)}L${f(-w)},0Z`;
    }
    case 'square':
      return `M${f(-r * 0.8)},${f(-r * 0.8)}H${f(r * 0.8)}V${f(r * 0.8)}H${f(-r * 0.8)}Z`;
  }
}
