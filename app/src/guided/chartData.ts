// Result-chart math for the guided labs, as plain functions: which lines a
// metric gives (one per series, or per series and client), the engine's
// seed aggregates (mean, min, max over seeds: labs/aggregate.rs) and the
// papers' values placed on the same axes, the band of the lab's stated
// unknowns (bandData.ts), the scales (d3) and the gain over Standard TCP.
// The React components only draw what these return.

import { area as d3area, line as d3line, scaleLinear, scaleLog, scalePoint, symbol as d3symbol, symbolCircle, symbolCross, symbolSquare, symbolStar, symbolTriangle, symbolWye } from 'd3';
import type { ChartMetric, Lab, PaperValue, Series, SweepAggregates, SweepPoint, SweepValue } from '../engine/generated/labs';
import { PER_GROUP_METRICS } from '../engine/generated/metrics';
import { textWidth } from '../charts/chartSizing';
import { OKABE_ITO } from '../charts/palette';
import { bandCells, type BandCell } from './bandData';
import { formatX, isFraction, METRICS, xKey } from './format';

// ------------------------------------------------------------------ lines

export interface LineDef {
  /** `series` or `series#group`. */
  id: string;
  series: string;
  /** Position of the series in the lab (colour, symbol): the same at every scale. */
  seriesIndex: number;
  /** Which client/group (group metrics), or null. */
  group: number | null;
  label: string;
  color: string;
  /** SVG stroke-dasharray, or undefined for solid. */
  dash: string | undefined;
  /** Index into SYMBOLS. */
  symbol: number;
  /** Hollow marks (second and later groups). */
  hollow: boolean;
}

export const SYMBOLS = [symbolCircle, symbolSquare, symbolTriangle, symbolWye, symbolCross, symbolStar] as const;
export const SYMBOL_NAMES = ['circle', 'square', 'triangle', 'Y', 'cross', 'star'] as const;

export function symbolPath(i: number, size = 48): string {
  return d3symbol(SYMBOLS[i % SYMBOLS.length], size)() ?? '';
}

export function isGroupMetric(m: ChartMetric): boolean {
  return PER_GROUP_METRICS.includes(m);
}

function seriesStyle(seriesIndex: number, group: number | null) {
  const color = OKABE_ITO[seriesIndex % OKABE_ITO.length];
  const dash = group !== null && group > 0 ? '2 3' : seriesIndex >= OKABE_ITO.length ? '7 4' : undefined;
  return { color, dash, symbol: seriesIndex % SYMBOLS.length, hollow: group !== null && group > 0 };
}

/** The lines of a chart of `metric` for the series that were run. */
export function lineDefs(lab: Lab, metric: ChartMetric, seriesRun: readonly string[]): LineDef[] {
  const out: LineDef[] = [];
  lab.series.forEach((s, seriesIndex) => {
    if (!seriesRun.includes(s.id)) return;
    if (isGroupMetric(metric)) {
      s.flows.forEach((f, g) => {
        out.push({ id: `${s.id}#${g}`, series: s.id, seriesIndex, group: g, label: `${s.label}: ${f.label}`, ...seriesStyle(seriesIndex, g) });
      });
    } else {
      out.push({ id: s.id, series: s.id, seriesIndex, group: null, label: s.label, ...seriesStyle(seriesIndex, null) });
    }
  });
  return out;
}

// ------------------------------------------------------------------ the engine's aggregates on the axes

/** One drawn point: a line at one swept value, the engine's seed aggregate there. */
export interface AggPoint {
  line: string;
  x: SweepValue;
  xKey: string;
  /** Position of x among the values run (category axes). */
  xi: number;
  /** Mean over the runs with a value; null if none has one (e.g. never reached). */
  mean: number | null;
  min: number | null;
  max: number | null;
  /** Values of the runs, in seed order. */
  values: (number | null)[];
  /** Point indices of those runs (drill-down). */
  runs: number[];
  seeds: number[];
}

/** The swept values run, in sweep order. */
export function valuesRun(points: readonly SweepPoint[]): SweepValue[] {
  const seen = new Set<string>();
  const out: SweepValue[] = [];
  for (const p of points) {
    const k = xKey(p.x);
    if (!seen.has(k)) {
      seen.add(k);
      out.push(p.x);
    }
  }
  return out;
}

export function seriesRun(points: readonly SweepPoint[]): string[] {
  return [...new Set(points.map((p) => p.series))];
}

function lineId(series: string, group: number | null): string {
  return group === null ? series : `${series}#${group}`;
}

/** The engine's seed aggregates of `metric` for the drawn lines, placed on the swept values run (line order, then x). */
export function placeAggregates(aggregates: SweepAggregates | null, metric: ChartMetric, lines: readonly LineDef[], points: readonly SweepPoint[]): AggPoint[] {
  if (!aggregates) return [];
  const xs = valuesRun(points).map(xKey);
  const order = new Map(lines.map((l, i) => [l.id, i]));
  const out: AggPoint[] = [];
  for (const a of aggregates.at_x) {
    const line = lineId(a.series, a.group);
    if (a.metric !== metric || !order.has(line)) continue;
    const k = xKey(a.x);
    out.push({ line, x: a.x, xKey: k, xi: xs.indexOf(k), mean: a.mean, min: a.min, max: a.max, values: a.values, runs: a.runs, seeds: a.seeds });
  }
  return out.sort((a, b) => order.get(a.line)! - order.get(b.line)! || a.xi - b.xi);
}

// ------------------------------------------------------------------ paper values on the chart

export interface PaperMark {
  key: string;
  line: string;
  /** A point at x, a segment over [x0, x1], or a level over the whole sweep. */
  kind: 'point' | 'range' | 'all';
  x?: number;
  x0?: number;
  x1?: number;
  value: number;
  valueRange: [number, number] | null;
  source: PaperValue['source'];
  note: string | null;
}

/** The papers' absolute values of `metric` for the drawn lines. */
export function paperMarks(metric: ChartMetric, lines: readonly LineDef[], values: readonly PaperValue[]): PaperMark[] {
  const out: PaperMark[] = [];
  for (const v of values) {
    if (v.metric !== metric || v.relation !== 'value') continue;
    const line = lines.find((l) => l.series === v.series && (l.group ?? undefined) === (v.group ?? undefined));
    if (!line) continue;
    // A range with no number of its own has no point to draw (no middle value is invented); the table states it.
    const value = v.value;
    if (value === undefined) continue;
    const base = { key: v.key, line: line.id, value, valueRange: v.value_range ?? null, source: v.source, note: v.note ?? null };
    if (v.x !== undefined) out.push({ ...base, kind: 'point', x: v.x });
    else if (v.x_range) out.push({ ...base, kind: 'range', x0: v.x_range[0], x1: v.x_range[1] });
    else out.push({ ...base, kind: 'all' });
  }
  return out;
}

// ------------------------------------------------------------------ scales

export interface Tick {
  pos: number;
  label: string;
}

export interface XScale {
  kind: 'log' | 'linear' | 'point';
  /** Pixel position of a swept value (its index among the values run, for point scales). */
  pos(x: SweepValue, xi: number): number;
  /** Pixel position of a number on a numeric axis (paper ranges); null on point scales. */
  num(v: number): number | null;
  ticks: Tick[];
  range: [number, number];
  /** Distance between neighbouring categories (point scales). */
  step: number | null;
}

/** Keep ticks at least `gap` px apart (the first always, the last when it fits). */
export function thinTicks(ticks: Tick[], gap: number): Tick[] {
  const out: Tick[] = [];
  for (const t of ticks) {
    if (out.length === 0 || t.pos - out[out.length - 1].pos >= gap) out.push(t);
  }
  const last = ticks[ticks.length - 1];
  if (last && out[out.length - 1] !== last) {
    if (out.length > 1 && last.pos - out[out.length - 2].pos >= gap) out[out.length - 1] = last;
  }
  return out;
}

export function makeXScale(lab: Lab, values: readonly SweepValue[], range: [number, number], tickGap = 44, categorical = false): XScale {
  const nums = !categorical && values.every((v): v is number => typeof v === 'number');
  const axis = lab.sweep.axis;
  if (nums && values.length > 1) {
    const lo = Math.min(...values);
    const hi = Math.max(...values);
    const log = lab.sweep.log_scale && lo > 0;
    const s = log ? scaleLog().domain([lo, hi]).range(range) : scaleLinear().domain([lo, hi]).range(range);
    const ticks = thinTicks(
      [...values].sort((a, b) => a - b).map((v) => ({ pos: s(v), label: formatX(axis, v, true) })),
      tickGap,
    );
    return {
      kind: log ? 'log' : 'linear',
      pos: (x) => (typeof x === 'number' ? s(x) : NaN),
      num: (v) => (log && v <= 0 ? null : s(v)),
      ticks,
      range,
      step: null,
    };
  }
  const keys = values.map((_, i) => String(i));
  // Bars need half a step on each side (a group of bars is 0.8 of a step wide).
  const p = scalePoint<string>()
    .domain(keys)
    .range(range)
    .padding(values.length > 1 && !categorical ? 0.3 : 0.5);
  const ticks = thinTicks(
    values.map((v, i) => ({ pos: p(String(i)) ?? 0, label: formatX(axis, v, true) })),
    tickGap,
  );
  return { kind: 'point', pos: (_x, xi) => p(String(xi)) ?? NaN, num: () => null, ticks, range, step: values.length > 1 ? p.step() : range[1] - range[0] };
}

export interface YScale {
  domain: [number, number];
  pos(v: number): number;
  /** The value at a pixel position (a sketch point dragged there). */
  invert(px: number): number;
  ticks: Tick[];
}

export function makeYScale(metric: ChartMetric, values: readonly number[], range: [number, number], count = 5): YScale {
  const info = METRICS[metric];
  const finite = values.filter((v) => Number.isFinite(v));
  let top = finite.length ? Math.max(...finite) : 1;
  if (info.minTop !== undefined) top = Math.max(top, info.minTop);
  if (top <= 0) top = 1;
  const s = scaleLinear().domain([0, top]).range(range).nice(count);
  const fmt = s.tickFormat(count, isFraction(info.unit) ? '.0%' : undefined);
  const d = s.domain() as [number, number];
  return { domain: d, pos: (v) => s(v), invert: (px) => s.invert(px), ticks: s.ticks(count).map((t) => ({ pos: s(t), label: fmt(t) })) };
}

/**
 * How far an x tick label at `pos` moves from its tick so that it stays
 * inside a chart `width` wide (the last label of a chart whose right margin
 * is narrower than half the label), px; 0 for most ticks.
 */
export function tickLabelShift(pos: number, label: string, fontPx: number, width: number): number {
  const half = textWidth(label, fontPx) / 2;
  if (2 * half >= width) return width / 2 - pos;
  return Math.min(Math.max(pos, half), width - half) - pos;
}

// ------------------------------------------------------------------ chart model

export interface ChartGeometry {
  width: number;
  height: number;
  margin: { top: number; right: number; bottom: number; left: number };
  /** Least space between x tick labels, px (default 44: the lab page's type). */
  tickGap?: number;
}

/** Where a result chart draws its axes and marks, px: the lab page's at scale 1, everything grown with the type. */
export interface ResultFrame {
  /** Tick labels' font size, px (labs.css: 11 px × the scale). */
  tickPx: number;
  margin: { top: number; right: number; bottom: number; left: number };
  tickGap: number;
  /** Tick mark length, and the x tick labels' baseline below the axis. */
  tickLength: number;
  xLabelY: number;
  /** The x-axis title's baseline above the chart's bottom edge; the y-axis title's centre from its left edge. */
  xTitleUp: number;
  yTitleX: number;
  /** Space between the y tick labels and the plot. */
  yLabelGap: number;
  /** A reference line's label: right of the line, below the plot's top. */
  referenceLabelX: number;
  referenceLabelY: number;
  /** Area of a mark's symbol (lines; bars), of a paper point's diamond radius (alone; a range's ends), of an error bar's cap half-width. */
  markArea: number;
  barMarkArea: number;
  diamond: number;
  rangeDiamond: number;
  cap: number;
}

/**
 * A result chart's frame at type scale `scale` (1: the lab page, 11 px tick
 * labels; presentation mode scales the type with the window). Lengths grow
 * with the scale, symbol areas with its square. Bars leave room above the
 * plot for the marks over the tallest bars and their "never" labels.
 */
export function resultChartFrame(scale: number, bars = false): ResultFrame {
  const s = Math.max(0.5, scale);
  return {
    tickPx: 11 * s,
    margin: { top: (bars ? 30 : 14) * s, right: 18 * s, bottom: 46 * s, left: 62 * s },
    tickGap: 44 * s,
    tickLength: 5 * s,
    xLabelY: 17 * s,
    xTitleUp: 6 * s,
    yTitleX: 14 * s,
    yLabelGap: 6 * s,
    referenceLabelX: 4 * s,
    referenceLabelY: 10 * s,
    markArea: 54 * s * s,
    barMarkArea: 40 * s * s,
    diamond: 7 * s,
    rangeDiamond: 5 * s,
    cap: 4 * s,
  };
}

export interface DrawnMark extends AggPoint {
  px: number;
  py: number | null;
  /** Min/max bar over seeds (only with more than one value). */
  bar: { y0: number; y1: number } | null;
}

export interface DrawnPaper extends PaperMark {
  px0: number;
  px1: number;
  py: number;
}

export interface ResultChartModel {
  metric: ChartMetric;
  lines: LineDef[];
  marks: DrawnMark[];
  /** SVG path per line through its drawn marks, in x order. */
  paths: { line: string; d: string }[];
  paper: DrawnPaper[];
  x: XScale;
  y: YScale;
  /** Vertical reference lines (e.g. the Linux default txqueuelen). */
  references: { px: number; label: string }[];
  /** Marks with a value (what data-point-count reports). */
  pointCount: number;
  /** Lines with at least one drawn mark, in drawing order. */
  seriesIds: string[];
  /** Grouped bars (one per line at each swept value), when asked for. */
  bars: DrawnBar[] | null;
  /** The band of the stated unknowns, per line with at least one cell (none until the range ends have run). */
  bands: DrawnBand[];
  /** The student's sketch of one line (predict, then run), or null. */
  sketch: DrawnSketch | null;
}

/** A sketch as the chart draws it: a point per swept value on the chart's axes, joined by a dashed line. */
export interface DrawnSketch {
  line: string;
  points: { i: number; x: SweepValue; px: number; py: number; value: number }[];
  /** SVG path through the points, in x order. */
  d: string;
}

/** What a chart is given of a sketch: a line and one value per swept value of `xs`. */
export interface SketchInput {
  line: string;
  xs: readonly SweepValue[];
  values: readonly number[];
}

export interface DrawnBand {
  line: string;
  /** SVG path of the shading: an area between the cells' lo and hi (a rectangle for a lone cell or a bar). */
  d: string;
  /** The cells it spans, in x order. */
  cells: BandCell[];
}

/** Half the width of the band drawn at a lone swept value (no neighbour to join). */
export const LONE_BAND_HALF_WIDTH = 5;

function rectPath(x0: number, x1: number, y0: number, y1: number): string {
  return `M${x0},${y0}H${x1}V${y1}H${x0}Z`;
}

/**
 * The band's shading for each line: over the line's marks in x order, an
 * area through every run of neighbouring marks that have a cell (a gap
 * where a range end has no value breaks it), a small rectangle for a lone
 * one; with bars, a rectangle over each bar.
 */
export function drawBands(cells: readonly BandCell[], lines: readonly LineDef[], marks: readonly DrawnMark[], y: YScale, bars: readonly DrawnBar[] | null): DrawnBand[] {
  const cellOf = new Map(cells.map((c) => [`${c.line}@${c.xKey}`, c]));
  const out: DrawnBand[] = [];
  const gen = d3area<{ px: number; cell: BandCell }>()
    .x((p) => p.px)
    .y0((p) => y.pos(p.cell.lo))
    .y1((p) => y.pos(p.cell.hi));
  for (const l of lines) {
    const mine = marks.filter((m) => m.line === l.id && Number.isFinite(m.px)).sort((a, b) => a.px - b.px);
    const used: BandCell[] = [];
    const parts: string[] = [];
    if (bars) {
      for (const b of bars) {
        const c = b.line === l.id ? cellOf.get(`${b.line}@${b.mark.xKey}`) : undefined;
        if (!c) continue;
        used.push(c);
        parts.push(rectPath(b.x, b.x + Math.max(1, b.width - 1), y.pos(c.hi), y.pos(c.lo)));
      }
    } else {
      let run: { px: number; cell: BandCell }[] = [];
      const flush = () => {
        if (run.length === 1) parts.push(rectPath(run[0].px - LONE_BAND_HALF_WIDTH, run[0].px + LONE_BAND_HALF_WIDTH, y.pos(run[0].cell.hi), y.pos(run[0].cell.lo)));
        else if (run.length > 1) parts.push(gen(run) ?? '');
        run = [];
      };
      for (const m of mine) {
        const c = cellOf.get(`${m.line}@${m.xKey}`);
        if (!c) {
          flush();
          continue;
        }
        used.push(c);
        run.push({ px: m.px, cell: c });
      }
      flush();
    }
    if (used.length) out.push({ line: l.id, d: parts.join(''), cells: used });
  }
  return out;
}

export interface DrawnBar {
  line: string;
  /** The mark it draws (value, runs). */
  mark: DrawnMark;
  x: number;
  width: number;
  /** Top of the bar (the value, or the top of the axis for "never"). */
  y: number;
  /** No run reached a value (e.g. never reached the maximum rate). */
  never: boolean;
}

/** The Linux default interface queue, marked on txqueuelen axes (Long 2003). */
export const DEFAULT_TXQUEUELEN = 100;

export function buildResultChart(o: {
  lab: Lab;
  metric: ChartMetric;
  points: readonly SweepPoint[];
  /** The engine's seed aggregates of the results so far (null: none asked for yet). */
  aggregates: SweepAggregates | null;
  paper: readonly PaperValue[];
  geometry: ChartGeometry;
  /** Limit to these series (e.g. the ones a derived metric applies to). */
  onlySeries?: readonly string[];
  /** Grouped bars over a category axis instead of lines. */
  bars?: boolean;
  /** The engine's seed aggregates of the runs at each end of the stated unknowns' ranges (the band; absent or empty: none). */
  bandEnds?: readonly SweepAggregates[];
  /** The student's sketch, drawn on the same axes (its values stretch the y axis like the data's). */
  sketch?: SketchInput | null;
  /** The y axis reaches at least this (the top a sketch starts on before any run). */
  yAtLeast?: number;
}): ResultChartModel {
  const { lab, metric, points, geometry: g } = o;
  const run = seriesRun(points).filter((s) => !o.onlySeries || o.onlySeries.includes(s));
  const lines = lineDefs(lab, metric, run);
  const agg = placeAggregates(o.aggregates, metric, lines, points);
  const values = valuesRun(points);
  const xr: [number, number] = [g.margin.left, g.width - g.margin.right];
  const yr: [number, number] = [g.height - g.margin.bottom, g.margin.top];
  const x = makeXScale(lab, values, xr, g.tickGap ?? 44, o.bars === true);
  const marksPaper = paperMarks(metric, lines, o.paper);
  const cells = o.bandEnds?.length ? bandCells(agg, o.bandEnds.map((e) => placeAggregates(e, metric, lines, points))) : [];
  const yValues: number[] = [];
  for (const a of agg) if (a.max !== null) yValues.push(a.max);
  for (const c of cells) yValues.push(c.hi);
  for (const p of marksPaper) yValues.push(p.valueRange ? p.valueRange[1] : p.value);
  if (o.sketch) for (const v of o.sketch.values) yValues.push(v);
  if (o.yAtLeast !== undefined) yValues.push(o.yAtLeast);
  const y = makeYScale(metric, yValues, yr);
  const marks: DrawnMark[] = agg.map((a) => ({
    ...a,
    px: x.pos(a.x, a.xi),
    py: a.mean === null ? null : y.pos(a.mean),
    bar: a.min !== null && a.max !== null && a.values.filter((v) => v !== null).length > 1 ? { y0: y.pos(a.min), y1: y.pos(a.max) } : null,
  }));
  const gen = d3line<DrawnMark>()
    .x((m) => m.px)
    .y((m) => m.py ?? 0)
    .defined((m) => m.py !== null && Number.isFinite(m.px));
  const paths = lines.map((l) => ({ line: l.id, d: gen(marks.filter((m) => m.line === l.id).sort((a, b) => a.px - b.px)) ?? '' }));
  const paper: DrawnPaper[] = [];
  for (const p of marksPaper) {
    let px0: number | null = null;
    let px1: number | null = null;
    if (p.kind === 'point') {
      const i = values.findIndex((v) => typeof v === 'number' && Math.abs(v - p.x!) <= 1e-9 * Math.max(1, Math.abs(v)));
      px0 = px1 = x.kind === 'point' ? (i >= 0 ? x.pos(values[i], i) : null) : x.num(p.x!);
      if (px0 !== null && (px0 < xr[0] - 0.5 || px0 > xr[1] + 0.5)) px0 = px1 = null;
    } else if (p.kind === 'range') {
      if (x.kind !== 'point') {
        const a = x.num(p.x0!);
        const b = x.num(p.x1!);
        if (a !== null && b !== null) {
          px0 = Math.max(xr[0], Math.min(a, b));
          px1 = Math.min(xr[1], Math.max(a, b));
          if (px1 < px0) px0 = px1 = null;
        }
      }
    } else {
      px0 = xr[0];
      px1 = xr[1];
    }
    if (px0 !== null && px1 !== null) paper.push({ ...p, px0, px1, py: y.pos(p.value) });
  }
  const references: { px: number; label: string }[] = [];
  if (lab.sweep.axis === 'txqueuelen_pkts' && x.kind !== 'point') {
    const nums = values as number[];
    if (nums.length && DEFAULT_TXQUEUELEN >= Math.min(...nums) && DEFAULT_TXQUEUELEN <= Math.max(...nums)) {
      references.push({ px: x.num(DEFAULT_TXQUEUELEN)!, label: `Linux default (${DEFAULT_TXQUEUELEN})` });
    }
  }
  const drawn = marks.filter((m) => m.py !== null);
  let bars: DrawnBar[] | null = null;
  if (o.bars) {
    bars = [];
    const band = (x.step ?? 0) * 0.8;
    const width = lines.length > 0 ? band / lines.length : 0;
    const top = y.pos(y.domain[1]);
    for (const m of marks) {
      const li = lines.findIndex((l) => l.id === m.line);
      if (li < 0 || m.runs.length === 0) continue;
      bars.push({ line: m.line, mark: m, x: m.px - band / 2 + li * width, width, y: m.py ?? top, never: m.py === null });
    }
  }
  return {
    metric,
    lines,
    marks,
    paths,
    paper,
    x,
    y,
    references,
    pointCount: drawn.length,
    seriesIds: lines.filter((l) => drawn.some((m) => m.line === l.id)).map((l) => l.id),
    bars,
    bands: drawBands(cells, lines, marks, y, bars),
    sketch: o.sketch ? drawSketch(o.sketch, values, x, y) : null,
  };
}

/** A sketch on the chart's axes: its points at the swept values the chart shows (others left out), in x order. */
export function drawSketch(sketch: SketchInput, values: readonly SweepValue[], x: XScale, y: YScale): DrawnSketch {
  const keys = values.map(xKey);
  const points: DrawnSketch['points'] = [];
  sketch.xs.forEach((xv, i) => {
    const xi = keys.indexOf(xKey(xv));
    const v = sketch.values[i];
    if (xi < 0 || v === undefined || !Number.isFinite(v)) return;
    const px = x.pos(xv, xi);
    if (!Number.isFinite(px)) return;
    points.push({ i, x: xv, px, py: y.pos(v), value: v });
  });
  points.sort((a, b) => a.px - b.px);
  const d = points.length ? points.map((p, k) => `${k === 0 ? 'M' : 'L'}${p.px},${p.py}`).join('') : '';
  return { line: sketch.line, points, d };
}

// ------------------------------------------------------------------ derived tables

/**
 * For each series, the Standard TCP series it is compared with: all its
 * flows run Reno and it changes the scenario the same way (same clients,
 * same RTT). Null for the baselines themselves.
 */
export function standardBaselines(lab: Lab): Map<string, string | null> {
  const isReno = (s: Series) => s.flows.every((f) => f.algorithm === 'reno');
  const key = (s: Series) => JSON.stringify(Object.entries(s.set ?? {}).sort(([a], [b]) => a.localeCompare(b)));
  const out = new Map<string, string | null>();
  for (const s of lab.series) {
    if (isReno(s)) {
      out.set(s.id, null);
      continue;
    }
    const base = lab.series.find((b) => isReno(b) && key(b) === key(s) && b.flows.length === s.flows.length);
    out.set(s.id, base ? base.id : null);
  }
  return out;
}

export interface GainCell {
  series: string;
  baseline: string;
  /** 100 × (mean / baseline mean − 1). */
  gainPct: number | null;
  mean: number | null;
  baselineMean: number | null;
}

export interface GainRow {
  x: SweepValue;
  xKey: string;
  cells: GainCell[];
}

/** Percent gain in total throughput over the matching Standard TCP series, at every swept value. */
export function gainOverStandard(lab: Lab, points: readonly SweepPoint[], aggregates: SweepAggregates | null): GainRow[] {
  const run = seriesRun(points);
  const lines = lineDefs(lab, 'total_throughput_mbps', run);
  const agg = placeAggregates(aggregates, 'total_throughput_mbps', lines, points);
  const mean = (series: string, k: string) => agg.find((a) => a.line === series && a.xKey === k)?.mean ?? null;
  const bases = standardBaselines(lab);
  return valuesRun(points).map((x) => {
    const k = xKey(x);
    const cells: GainCell[] = [];
    for (const s of run) {
      const b = bases.get(s);
      if (!b || !run.includes(b)) continue;
      const m = mean(s, k);
      const bm = mean(b, k);
      cells.push({ series: s, baseline: b, mean: m, baselineMean: bm, gainPct: m !== null && bm !== null && bm > 0 ? 100 * (m / bm - 1) : null });
    }
    return { x, xKey: k, cells };
  });
}

/** Series with both Standard and other flows (where relative fairness is defined). */
export function mixedSeries(lab: Lab): string[] {
  return lab.series.filter((s) => s.flows.some((f) => f.standard) && s.flows.some((f) => !f.standard)).map((s) => s.id);
}

/** The engine's mean of a metric over a series' finished runs (ranking table); null when it has none. */
export function seriesMean(aggregates: SweepAggregates | null, metric: ChartMetric, series: string): number | null {
  return aggregates?.series.find((m) => m.metric === metric && m.series === series)?.mean ?? null;
}
