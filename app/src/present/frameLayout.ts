// Layout math for the fitted views (embed mode, presentation mode): how big
// the type is, where the chosen controls go, and how the charts share the
// space left, all from the frame's size and what is shown. Pure; the hook
// (useFitLayout.ts) measures and applies it, CSS (fit.css) draws it.

export interface Size {
  width: number;
  height: number;
}

/** Smallest and largest root font size of a fitted view, px. */
export const MIN_FONT_PX = 11;
export const MAX_FONT_PX = 32;

/**
 * Root font size: about 1/36 of the frame's height (1/64 of its width when
 * that is less), smaller as more charts share the frame, so that a chart's
 * type keeps its proportion to the chart. 1280×720 with one chart: 20 px;
 * with four: 15 px; 1920×1080 with four: 23 px.
 */
export function fitFontPx(frame: Size, charts: number): number {
  const base = Math.min(frame.width / 64, frame.height / 36);
  const density = Math.pow(Math.max(1, charts), -0.2);
  const px = Math.round(base * density * 2) / 2;
  return Math.min(MAX_FONT_PX, Math.max(MIN_FONT_PX, px));
}

/**
 * Scale of a chart's drawing (tick labels, margins, marker lanes) relative
 * to the lab page's (11 px tick labels): tick labels are 0.8 of the root
 * font in a fitted view, never under 10 px.
 */
export function chartScaleFor(fontPx: number): number {
  return Math.max(10, fontPx * 0.8) / 11;
}

export type ControlsPlace = 'none' | 'top' | 'side';

/** Width of one control in the band above the charts, in root ems. */
const CONTROL_EM = 19;
/** Height of one row of controls in that band, in root ems. */
const CONTROL_ROW_EM = 4.2;

/**
 * Where the chosen controls go: none; a band above the charts (rows of
 * controls side by side); or, when that band would take more than 30 % of
 * a wide frame's height, a column beside the charts.
 */
export function placeControls(frame: Size, fontPx: number, controls: number): ControlsPlace {
  if (controls <= 0) return 'none';
  const perRow = Math.max(1, Math.floor(frame.width / (CONTROL_EM * fontPx)));
  const band = Math.ceil(controls / perRow) * CONTROL_ROW_EM * fontPx;
  return band > frame.height * 0.3 && frame.width >= frame.height * 1.3 ? 'side' : 'top';
}

/** Width of the side column of controls, px: 30 % of the frame, between 14 and 24 ems. */
export function sideWidth(frame: Size, fontPx: number): number {
  return Math.round(Math.min(24 * fontPx, Math.max(14 * fontPx, frame.width * 0.3)));
}

export interface Grid {
  columns: number;
  rows: number;
  /** Columns the last chart spans, so that the last row is filled (3 charts in 2 columns: 2). */
  lastSpan: number;
  /** One cell (a chart's box), px. */
  cellWidth: number;
  cellHeight: number;
}

export interface GridInput {
  /** The area the charts share, px. */
  area: Size;
  charts: number;
  /** Space between charts, px. */
  gap: number;
  /** Root font size, px (the chart's caption and margins follow it). */
  fontPx: number;
}

/** Plot width ÷ height that time series read best at (wide, like the lab page's charts). */
const TARGET_ASPECT = 2.2;

/**
 * What of a chart's box is not plot, px: the caption line, padding, axes
 * and marker lanes (an estimate from the font size, for choosing the grid;
 * the chart itself measures what it gets).
 */
export function chartChrome(fontPx: number): { width: number; height: number } {
  const s = chartScaleFor(fontPx);
  return { width: Math.round(82 * s + fontPx), height: Math.round(fontPx * 2.2 + 44 * s + 18 * s) };
}

function cells(n: number, size: number, gap: number): number {
  return (size - (n - 1) * gap) / n;
}

/**
 * The grid for `charts` charts in `area`: the number of columns whose plots
 * come closest to a wide time-series shape (a plot narrower than that
 * counts double), avoiding plots shorter than
 * three lines of text (they would hide the lines), with the last chart
 * spanning what its row leaves free.
 */
export function chooseGrid({ area, charts, gap, fontPx }: GridInput): Grid {
  const n = Math.max(1, Math.floor(charts));
  const chrome = chartChrome(fontPx);
  const minPlotH = 3 * fontPx;
  const minPlotW = 6 * fontPx;
  let best: { score: number; columns: number } | null = null;
  for (let columns = 1; columns <= n; columns++) {
    const rows = Math.ceil(n / columns);
    // Columns that leave a whole row empty are never better than fewer columns.
    if (columns > 1 && Math.ceil(n / (columns - 1)) === rows) continue;
    const plotW = cells(columns, area.width, gap) - chrome.width;
    const plotH = cells(rows, area.height, gap) - chrome.height;
    const aspect = Math.max(1e-3, plotW) / Math.max(1e-3, plotH);
    // Plots taller than the target read worse than wider ones (time runs across).
    let score = aspect < TARGET_ASPECT ? 2 * Math.log(TARGET_ASPECT / aspect) : Math.log(aspect / TARGET_ASPECT);
    if (plotH < minPlotH) score += 10 + (minPlotH - plotH) / fontPx;
    if (plotW < minPlotW) score += 10 + (minPlotW - plotW) / fontPx;
    if (!best || score < best.score - 1e-9) best = { score, columns };
  }
  const columns = best!.columns;
  const rows = Math.ceil(n / columns);
  const inLast = n - (rows - 1) * columns;
  return {
    columns,
    rows,
    lastSpan: columns - inLast + 1,
    cellWidth: Math.max(0, Math.floor(cells(columns, area.width, gap))),
    cellHeight: Math.max(0, Math.floor(cells(rows, area.height, gap))),
  };
}

/**
 * The box a fitted view lays itself out in: the window, or with a frame
 * size asked for (frame=WxH, the size of the iframe an embed was made for),
 * that shape scaled to the largest box the window holds, up as well as
 * down, so a 1280×720 embed fills a 1920×1080 screen as it fills its frame.
 */
export function frameBox(window: Size, frame: Size | null): Size {
  if (!frame) return { width: window.width, height: window.height };
  const k = Math.min(window.width / frame.width, window.height / frame.height);
  return { width: Math.floor(frame.width * k), height: Math.floor(frame.height * k) };
}

/** A frame too small for the keys of markers and line styles (the charts keep the room). */
export function isCompact(box: Size): boolean {
  return box.width < 720 || box.height < 400;
}

export interface FitLayout {
  box: Size;
  compact: boolean;
  fontPx: number;
  chartScale: number;
  controls: ControlsPlace;
  /** Width of the side column of controls, px (0 unless controls is 'side'). */
  sideWidth: number;
}

/** The frame-level decisions of a fitted view (the grid follows once the charts' area is known). */
export function fitLayout(window: Size, frame: Size | null, charts: number, controls: number): FitLayout {
  const box = frameBox(window, frame);
  const fontPx = fitFontPx(box, charts);
  const place = placeControls(box, fontPx, controls);
  return { box, compact: isCompact(box), fontPx, chartScale: chartScaleFor(fontPx), controls: place, sideWidth: place === 'side' ? sideWidth(box, fontPx) : 0 };
}
