// A time chart's geometry at any size: margins and marker lanes that grow
// with the type (fitted views scale it to the frame), the plot that fills a
// given box, and a y-axis title that fits beside the plot (shortened to the
// unit, or left out, rather than running into the chart's heading).

import { createContext } from 'react';

export interface ChartSizing {
  /** Charts fill the box CSS gives them (fitted views) instead of a fixed plot height. */
  fill: boolean;
  /** Scale of type, margins and marker lanes (1: the lab page). */
  scale: number;
  /** Line width factor for the canvas (the projector profile's thick lines; SVG lines follow CSS). */
  lineScale: number;
  /** The dark theme is shown: dark neutral colours are drawn light (palette.onDark). */
  dark?: boolean;
}

export const DEFAULT_SIZING: ChartSizing = { fill: false, scale: 1, lineScale: 1 };

/** The projector profile's larger chart type (and margins to hold it). */
export const PROJECTOR_TYPE_SCALE = 1.2;

export const ChartSizingContext = createContext<ChartSizing>(DEFAULT_SIZING);

export interface Margins {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

const BASE: Margins = { top: 10, right: 18, bottom: 34, left: 64 };
/** Height of one marker lane at scale 1, px. */
export const BASE_LANE_H = 11;
/** Tick and axis-title type at scale 1, px (styles.css multiplies by --chart-scale). */
export const BASE_TICK_PX = 11;
export const BASE_AXIS_TITLE_PX = 11.5;

/** Line width factor: the profile's (projector: thick), and thicker as type grows past 4/3 of the lab page's. */
export function lineWidthScale(s: Pick<ChartSizing, 'scale' | 'lineScale'>): number {
  return s.lineScale * Math.max(1, s.scale * 0.75);
}

export function chartMargins(scale: number): Margins {
  return { top: BASE.top * scale, right: BASE.right * scale, bottom: BASE.bottom * scale, left: BASE.left * scale };
}

export interface PlotLayout {
  plotHeight: number;
  laneHeight: number;
  /** One lane per marker kind, or all kinds in one lane (small charts). */
  stackedLanes: boolean;
  /** Height of the lanes band under the plot (0 without lanes). */
  lanesHeight: number;
}

/** Smallest plot drawn, px. */
export const MIN_PLOT_H = 10;

function lanesBand(kinds: number, laneHeight: number, scale: number): number {
  return kinds > 0 ? kinds * laneHeight + 6 * scale : 0;
}

/**
 * The plot and lanes in a box `boxHeight` high (fitted views), or around a
 * fixed plot height (the lab page: `plotHeight` given, lanes stacked).
 * Lanes stack one per kind while the plot stays at least 2.5× their band;
 * otherwise every kind shares one lane (the shapes tell them apart).
 */
export function plotLayout(o: { boxHeight?: number; plotHeight?: number; scale: number; laneKinds: number }): PlotLayout {
  const laneHeight = BASE_LANE_H * o.scale;
  const m = chartMargins(o.scale);
  if (o.boxHeight === undefined) {
    return { plotHeight: o.plotHeight ?? 190, laneHeight, stackedLanes: true, lanesHeight: lanesBand(o.laneKinds, laneHeight, o.scale) };
  }
  const room = o.boxHeight - m.top - m.bottom;
  const stacked = lanesBand(o.laneKinds, laneHeight, o.scale);
  if (room - stacked >= 2.5 * stacked) return { plotHeight: Math.floor(room - stacked), laneHeight, stackedLanes: true, lanesHeight: stacked };
  const single = lanesBand(Math.min(1, o.laneKinds), laneHeight, o.scale);
  return { plotHeight: Math.max(MIN_PLOT_H, Math.floor(room - single)), laneHeight, stackedLanes: false, lanesHeight: single };
}

/** Estimated width of text in the page's sans-serif, px (generous: wide faces such as DejaVu Sans, semi-bold, average about 0.6 em). */
export function textWidth(text: string, fontPx: number): number {
  return text.length * 0.64 * fontPx;
}

/**
 * The y-axis title drawn beside a plot `plotHeight` high: the first of the
 * candidates (the full title, then the unit) that fits in the plot's height
 * and the margin above it; '' when none does.
 */
export function fitAxisTitle(candidates: readonly string[], plotHeight: number, marginTop: number, fontPx: number): string {
  const room = plotHeight + 2 * marginTop;
  return candidates.find((c) => c !== '' && textWidth(c, fontPx) <= room) ?? '';
}
