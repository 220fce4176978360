// Labels of a chart's limit lines (advertised window, capacity, buffer,
// txqueuelen), kept apart: two flows with the same window put their labels
// at the same height, and several limits above the axis all go to its top
// edge. spreadLabels nudges such labels apart vertically, as little as it can,
// inside the plot. Pure: TimeChart renders the result.

import { formatReadout, type ConstantLine } from './chartModel';
import type { LinearScale } from './scale';

export interface SpreadOptions {
  /** Least space between two labels, px. */
  gap?: number;
  /** Top of the band the labels must stay in, px. */
  min: number;
  /** Bottom of that band, px. */
  max: number;
}

/**
 * Tops for labels of heights `heights` that want their tops at `desired`
 * (one column: they would all overlap if at the same height), in the input
 * order. Labels keep their vertical order (ties: input order) and do not
 * overlap (at least `gap` apart); a group of labels that would overlap is
 * moved as a block centred on where its labels want to be (each label moves
 * as little as it can), then kept inside [min, max]. When the labels cannot
 * all fit in the band, they start at `min` and run past `max` (no overlap
 * comes first).
 */
export function spreadLabels(desired: readonly number[], heights: number | readonly number[], opts: SpreadOptions): number[] {
  const n = desired.length;
  const gap = opts.gap ?? 2;
  const h = (i: number) => (typeof heights === 'number' ? heights : heights[i] ?? 0);
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => desired[a] - desired[b] || a - b);
  interface Cluster {
    members: number[];
    /** Offsets of the members' tops from the cluster's top. */
    offsets: number[];
    height: number;
    top: number;
  }
  const fit = (c: Cluster) => {
    // The top that puts the members, on average, where they want to be; then inside the band.
    let sum = 0;
    for (let k = 0; k < c.members.length; k++) sum += desired[c.members[k]] - c.offsets[k];
    const ideal = sum / c.members.length;
    c.top = Math.max(opts.min, Math.min(ideal, opts.max - c.height));
  };
  const clusters: Cluster[] = [];
  for (const i of order) {
    const c: Cluster = { members: [i], offsets: [0], height: h(i), top: 0 };
    fit(c);
    clusters.push(c);
    // Merge with the cluster above while they overlap.
    while (clusters.length > 1) {
      const b = clusters[clusters.length - 1];
      const a = clusters[clusters.length - 2];
      if (a.top + a.height + gap <= b.top + 1e-9) break;
      const shift = a.height + gap;
      a.members.push(...b.members);
      a.offsets.push(...b.offsets.map((o) => o + shift));
      a.height = shift + b.height;
      fit(a);
      clusters.pop();
    }
  }
  const tops = new Array<number>(n).fill(0);
  for (const c of clusters) c.members.forEach((m, k) => (tops[m] = c.top + c.offsets[k]));
  return tops;
}

/** True when two boxes [top, top + height) overlap (for tests and checks). */
export function overlaps(aTop: number, aHeight: number, bTop: number, bHeight: number): boolean {
  return aTop < bTop + bHeight && bTop < aTop + aHeight;
}

export interface LimitLabel {
  id: string;
  text: string;
  color: string;
  /** Above the y axis: the label stands for a line that is not drawn. */
  offScale: boolean;
  /** Text baseline, px from the plot's top (right-aligned at the plot's right edge). */
  y: number;
}

/** Height of a limit label's box (10.5 px text) and its ascent above the baseline, px. */
export const LIMIT_LABEL_H = 12;
const ASCENT = 9;

/** Limit labels' type at scale 1, px (styles.css). */
export const LIMIT_LABEL_PX = 10.5;

/**
 * "name value unit" (with ↑ above the axis); where that is wider than the
 * plot, the name's last word ("txqueuelen 100 packets", so that two limits
 * of one value still say which is which); then just the value.
 */
export function limitText(c: Pick<ConstantLine, 'label' | 'value' | 'offScale'>, unit: string, plotW = Infinity, fontPx = LIMIT_LABEL_PX): string {
  const value = `${c.offScale ? '↑ ' : ''}${formatReadout(c.value)} ${unit}`;
  const fits = (text: string) => text.length * 0.58 * fontPx <= plotW - 8;
  const full = `${c.label} ${value}`;
  if (fits(full)) return full;
  const short = `${c.label.split(' ').pop()} ${value}`;
  return fits(short) ? short : value;
}

/**
 * The labels of a chart's limit lines: just above their line (below it when
 * the line is at the top of the plot); those above the axis at the top edge
 * with an arrow and their value; all nudged apart by spreadLabels inside the
 * plot of height `plotH`.
 */
export function layoutLimitLabels(constants: readonly ConstantLine[], sy: LinearScale, plotH: number, unit: string, scale = 1, plotW = Infinity): LimitLabel[] {
  // `scale`: the chart's type scale (fitted views draw larger labels);
  // `plotW`: a label wider than the plot is shortened to its value (small embeds).
  const h = LIMIT_LABEL_H * scale;
  const tops = constants.map((c) => {
    if (c.offScale) return 1;
    const ly = sy(c.value);
    return ly - 3 - h >= 0 ? ly - 3 - h : ly + 3;
  });
  const placed = spreadLabels(tops, h, { min: 0, max: Math.max(h, plotH), gap: 1 });
  return constants.map((c, i) => ({
    id: c.id,
    color: c.color,
    offScale: c.offScale,
    text: limitText(c, unit, plotW, LIMIT_LABEL_PX * scale),
    y: placed[i] + ASCENT * scale,
  }));
}
