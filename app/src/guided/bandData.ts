// The band of a lab's stated unknowns on a result chart, as plain
// functions: at each line and swept value, the lowest and highest of the
// plotted value (the engine's mean over seeds) over the run at the assumed
// value and the runs at each end of each unknown's plausible range. Every
// number is one the engine aggregated from simulator runs; nothing here
// interpolates or invents one. chartData.ts places and draws the cells.

import type { StatedUnknown, SweepValue, UnknownSetting } from '../engine/generated/labs';

/** A value placed on a chart's line at a swept value (chartData's AggPoint has these fields). */
export interface PlacedMean {
  line: string;
  x: SweepValue;
  xKey: string;
  xi: number;
  mean: number | null;
}

/** One line at one swept value: the band's extent there, and the values it spans. */
export interface BandCell {
  line: string;
  x: SweepValue;
  xKey: string;
  xi: number;
  lo: number;
  hi: number;
  /** The drawn line's value (the run at the assumed value). */
  assumed: number;
  /** Each range end's value, in the order the ends were given (null: no value there, or not run). */
  ends: (number | null)[];
}

/**
 * The band's cells: one wherever the line is drawn (the assumed run has a
 * value) and at least one range end has a value at the same line and
 * swept value; `lo` and `hi` are the least and greatest of those values.
 * In the order of `assumed`.
 */
export function bandCells(assumed: readonly PlacedMean[], ends: readonly (readonly PlacedMean[])[]): BandCell[] {
  const byEnd = ends.map((placed) => new Map(placed.map((p) => [`${p.line}@${p.xKey}`, p.mean])));
  const out: BandCell[] = [];
  for (const a of assumed) {
    if (a.mean === null || !Number.isFinite(a.mean)) continue;
    const key = `${a.line}@${a.xKey}`;
    const at = byEnd.map((m) => {
      const v = m.get(key);
      return v === undefined || v === null || !Number.isFinite(v) ? null : v;
    });
    const values = [a.mean, ...at.filter((v): v is number => v !== null)];
    if (values.length < 2) continue;
    out.push({ line: a.line, x: a.x, xKey: a.xKey, xi: a.xi, lo: Math.min(...values), hi: Math.max(...values), assumed: a.mean, ends: at });
  }
  return out;
}

/** The unit of each setting a stated unknown can vary, in words. */
const SETTING_UNITS: Record<UnknownSetting, { one: string; many: string }> = {
  bottleneck_buffer_pkts: { one: 'packet', many: 'packets' },
};

function plain(v: number): string {
  return Number.isInteger(v) ? String(v) : String(Number(v.toPrecision(4)));
}

/** "295–417 packets". */
export function rangeText(u: StatedUnknown): string {
  return `${plain(u.range[0])}–${plain(u.range[1])} ${SETTING_UNITS[u.setting].many}`;
}

/** "116 packets". */
export function valueText(u: StatedUnknown, v: number): string {
  const unit = SETTING_UNITS[u.setting];
  return `${plain(v)} ${v === 1 ? unit.one : unit.many}`;
}

/** Does the value a lab assumes lie outside the unknown's plausible range? */
export function assumedOutside(u: StatedUnknown): boolean {
  return u.assumed < u.range[0] || u.assumed > u.range[1];
}

/** The band's control: "Show the band of the switch's egress buffer (295–417 packets)". */
export function bandButtonText(unknowns: readonly StatedUnknown[]): string {
  return `Show the band of ${joinWords(unknowns.map((u) => `${u.name} (${rangeText(u)})`))}`;
}

/** The legend's note: what the shading spans, naming each unknown and its range. */
export function bandLegendText(unknowns: readonly StatedUnknown[]): string {
  const each = unknowns.map((u) => `${u.name} at ${rangeText(u)} (its plausible range) or ${valueText(u, u.assumed)} (assumed: the lines)`);
  return `shaded band: lowest to highest value with ${joinWords(each)}`;
}

/** "the plausible range of the switch's egress buffer" (marks' labels, the data table). */
export function bandRangeWords(unknowns: readonly StatedUnknown[]): string {
  return `the plausible range${unknowns.length > 1 ? 's' : ''} of ${joinWords(unknowns.map((u) => u.name))}`;
}

function joinWords(parts: readonly string[]): string {
  if (parts.length <= 1) return parts.join('');
  return `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}
