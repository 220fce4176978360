// Everything a time chart draws, computed from its spec, the visible time
// window and the playback cursor: y domain, decimated lines (for canvas or
// SVG), constant lines, ticks, marker bins, and the public data attributes.
// Pure: the TimeChart component only renders this.

import type { EngineEvent } from '../engine/types';
import { decimateMinMax, type Decimated } from './decimate';
import { formatTick } from './format';
import { binMarkers, type MarkerBin, type MarkerCounts } from './markers';
import { linearScale, niceDomain, type LinearScale } from './scale';
import { isMeasured, type ChartSpec, type SeriesSpec } from './specs';
import { lowerBound, upperBound, type Domain } from './timeLink';

export interface RunView {
  spec: ChartSpec;
  x: Float64Array;
  /** Samples computed so far. */
  computed: number;
}

export interface ModelInput {
  run: RunView | null;
  /** The previous run, drawn faintly. */
  ghost?: RunView | null;
  events: readonly EngineEvent[];
  view: Domain;
  /** Playback cursor: samples and events after it are not drawn. */
  tShown: number;
  width: number;
  height: number;
  /** Type scale of the chart (chartSizing.ts): ticks keep their spacing relative to their labels. */
  tickScale?: number;
}

export interface DrawnLine {
  id: string;
  color: string;
  dash?: number[];
  width: number;
  ghost: boolean;
  /** Decimated points, y in display units. */
  points: Decimated;
}

export interface ConstantLine {
  id: string;
  label: string;
  color: string;
  dash?: number[];
  width: number;
  /** Display value. */
  value: number;
  /** Above the axis: drawn as an arrow label at the top edge. */
  offScale: boolean;
}

export interface Tick {
  v: number;
  px: number;
  label: string;
}

export interface ChartModel {
  sx: LinearScale;
  sy: LinearScale;
  xDomain: Domain;
  yDomain: Domain;
  lines: DrawnLine[];
  constants: ConstantLine[];
  xTicks: Tick[];
  yTicks: Tick[];
  markers: MarkerBin[];
  markerCounts: MarkerCounts;
  /** Series ids of the current run, in drawing order. */
  seriesIds: string[];
  ghostSeriesIds: string[];
  /** Samples shown per series (constant lines: 2). */
  pointCounts: Record<string, number>;
  /** Decimated vertices drawn per series. */
  drawnCounts: Record<string, number>;
}

const isConstant = (s: SeriesSpec): s is SeriesSpec & { y: number } => typeof s.y === 'number';

/** Sample index range [i0, i1) covering a view, with one sample of margin each side (lines reach the edges). */
export function sampleRange(x: Float64Array, n: number, view: Domain): [number, number] {
  const i0 = Math.max(0, lowerBound(x, view[0], n) - 1);
  const i1 = Math.min(n, upperBound(x, view[1], n) + 1);
  return [i0, i1];
}

function extendExtent(ext: [number, number], ys: Float64Array, i0: number, i1: number, f: number): void {
  for (let i = i0; i < i1; i++) {
    const v = ys[i] * f;
    if (v < ext[0]) ext[0] = v;
    if (v > ext[1]) ext[1] = v;
  }
}

/**
 * The y axis for a chart: what is computed in the visible window (not only
 * up to the playback cursor, so the axis holds still during playback), plus
 * the ghost. Independent of the cursor, so it is computed once per run
 * update, not once per frame.
 */
export function chartYDomain(input: Pick<ModelInput, 'run' | 'ghost' | 'view'>): Domain {
  return chartYExtent(input).domain;
}

/**
 * The y axis (as chartYDomain) and, when the chart's cap (`maxY`, the
 * throughput axis) cuts off data in the view, the axis top they run past,
 * so the chart can say so; else null.
 */
export function chartYExtent(input: Pick<ModelInput, 'run' | 'ghost' | 'view'>): { domain: Domain; clippedAbove: number | null } {
  const { run, ghost, view } = input;
  const spec = run?.spec ?? ghost?.spec ?? null;
  const yFactor = spec?.yFactor ?? 1;
  const ext: [number, number] = [Infinity, -Infinity];
  const layers: { rv: RunView; ghost: boolean }[] = [];
  if (ghost && ghost.computed > 0) layers.push({ rv: ghost, ghost: true });
  if (run) layers.push({ rv: run, ghost: false });
  for (const { rv, ghost: g } of layers) {
    const [i0, i1] = sampleRange(rv.x, rv.computed, view);
    for (const s of rv.spec.series) {
      if ((g && !s.main) || s.softExtent) continue;
      if (isConstant(s)) {
        const v = s.y * (s.scale ?? 1) * yFactor;
        if (Number.isFinite(v)) {
          ext[0] = Math.min(ext[0], v);
          ext[1] = Math.max(ext[1], v);
        }
        continue;
      }
      extendExtent(ext, s.y as Float64Array, Math.max(i0, s.measuredFrom ?? 0), i1, (s.scale ?? 1) * yFactor);
    }
  }
  const dataExt: [number, number] | null = ext[0] <= ext[1] ? [ext[0], ext[1]] : null;
  // Soft lines (ssthresh, advertised window, buffer limits) stretch the axis
  // only when they are within 3× of the data (else they would flatten it).
  const soft: number[] = [];
  if (run) {
    const [i0, i1] = sampleRange(run.x, run.computed, view);
    for (const s of run.spec.series) {
      if (!s.softExtent) continue;
      const f = (s.scale ?? 1) * yFactor;
      if (isConstant(s)) {
        if (Number.isFinite(s.y)) soft.push(s.y * f);
      } else {
        const e: [number, number] = [Infinity, -Infinity];
        extendExtent(e, s.y as Float64Array, i0, i1, f);
        if (e[0] <= e[1]) soft.push(e[1]);
      }
    }
  }
  let top = dataExt ? dataExt[1] : -Infinity;
  const bottom = dataExt ? dataExt[0] : Infinity;
  for (const v of soft) if (v > top && (!dataExt || v <= Math.max(dataExt[1], 0) * 3)) top = v;
  if (spec?.maxY !== undefined && Number.isFinite(spec.maxY) && top > spec.maxY) top = spec.maxY;
  const domain = niceDomain(top >= bottom ? [Math.min(bottom, top), top] : null);
  return { domain, clippedAbove: dataExt && dataExt[1] > domain[1] ? domain[1] : null };
}

/**
 * Decimate samples [from, to) of one series into pixel columns of `view`.
 * The columns depend on the view and the computed samples only (not on
 * `to`), so a line drawn in pieces as playback advances matches one drawn
 * at once.
 */
export function decimateSeries(rv: RunView, s: SeriesSpec, view: Domain, width: number, yFactor: number, from: number, to: number, ghost = false): DrawnLine {
  const [c0, c1] = sampleRange(rv.x, rv.computed, view);
  const x0 = c0 < c1 ? Math.min(view[0], rv.x[c0]) : view[0];
  const x1 = c0 < c1 ? Math.max(view[1], rv.x[c1 - 1]) : view[1];
  const f = (s.scale ?? 1) * yFactor;
  const d = decimateMinMax(rv.x, s.y as Float64Array, { x0, x1, pixels: width, count: to, start: Math.max(from, s.measuredFrom ?? 0) });
  if (f !== 1) for (let i = 0; i < d.length; i++) d.y[i] *= f;
  return { id: s.id, color: s.color, dash: s.dash, width: ghost ? Math.max(1, s.width) : s.width, ghost, points: d };
}

export function buildChartModel(input: ModelInput & { yDomain?: Domain; withLines?: boolean }): ChartModel {
  const { run, ghost, view, tShown } = input;
  const width = Math.max(1, input.width);
  const height = Math.max(1, input.height);
  const spec = run?.spec ?? ghost?.spec ?? null;
  const yFactor = spec?.yFactor ?? 1;
  const layers: { rv: RunView; ghost: boolean }[] = [];
  if (ghost && ghost.computed > 0) layers.push({ rv: ghost, ghost: true });
  if (run) layers.push({ rv: run, ghost: false });
  const yDomain = input.yDomain ?? chartYDomain(input);

  const sx = linearScale(view, [0, width]);
  const sy = linearScale(yDomain, [height, 0]);

  const lines: DrawnLine[] = [];
  const constants: ConstantLine[] = [];
  const pointCounts: Record<string, number> = {};
  const drawnCounts: Record<string, number> = {};
  const seriesIds: string[] = [];
  const ghostSeriesIds: string[] = [];
  for (const { rv, ghost: g } of layers) {
    const n = g ? rv.computed : upperBound(rv.x, tShown, rv.computed);
    const shown = Math.max(0, upperBound(rv.x, view[1], n) - lowerBound(rv.x, view[0], n));
    const [i0, i1] = sampleRange(rv.x, n, view);
    for (const s of rv.spec.series) {
      if (g && !s.main) continue;
      if (isConstant(s)) {
        if (g) continue;
        seriesIds.push(s.id);
        pointCounts[s.id] = 2;
        const value = s.y * (s.scale ?? 1) * yFactor;
        if (Number.isFinite(value)) {
          constants.push({ id: s.id, label: s.label, color: s.color, dash: s.dash, width: s.width, value, offScale: value > yDomain[1] });
        }
        continue;
      }
      if (g) ghostSeriesIds.push(s.id);
      else {
        seriesIds.push(s.id);
        pointCounts[s.id] = shown;
      }
      // Ghost lines are drawn by the chart on their own (they change rarely).
      if (input.withLines === false || g) continue;
      const line = decimateSeries(rv, s, view, width, yFactor, i0, i1, g);
      lines.push(line);
      if (!g) drawnCounts[s.id] = line.points.length;
    }
  }

  const { bins, counts } = binMarkers(input.events, { t0: view[0], t1: view[1], pixels: width, tMax: run ? tShown : -Infinity });

  const k = input.tickScale ?? 1;
  const xTickCount = Math.max(2, Math.floor(width / (80 * k)));
  const yTickCount = Math.max(2, Math.floor(height / (40 * k)));
  const xStep = sx.tickStep(xTickCount);
  const yStep = sy.tickStep(yTickCount);
  return {
    sx,
    sy,
    xDomain: view,
    yDomain,
    lines,
    constants,
    xTicks: sx.ticks(xTickCount).map((v) => ({ v, px: sx(v), label: formatTick(v, xStep) })),
    yTicks: sy.ticks(yTickCount).map((v) => ({ v, px: sy(v), label: formatTick(v, yStep) })),
    markers: bins,
    markerCounts: counts,
    seriesIds,
    ghostSeriesIds,
    pointCounts,
    drawnCounts,
  };
}

export interface HoverValue {
  id: string;
  label: string;
  color: string;
  /** Display value (NaN: none, e.g. an infinite ssthresh). */
  value: number;
}

/** The values of a run's series at sample `index` (constants included), in display units. */
export function valuesAt(spec: ChartSpec, index: number): HoverValue[] {
  return spec.series.map((s) => {
    const raw = typeof s.y === 'number' ? s.y : isMeasured(s, index) && index >= 0 && index < s.y.length ? s.y[index] : NaN;
    return { id: s.id, label: s.label, color: s.color, value: raw * (s.scale ?? 1) * spec.yFactor };
  });
}

/** A read-out value: "1,234", "12.3", "0.052", or "∞"/"–" for missing. */
export function formatReadout(v: number, missing = '–'): string {
  if (!Number.isFinite(v)) return missing;
  // Whole numbers (packets in a queue, a window in packets) without decimals: "35", not "35.0".
  if (Number.isInteger(v)) return v.toLocaleString('en-US');
  const a = Math.abs(v);
  const digits = a >= 100 ? 0 : a >= 10 ? 1 : a >= 1 ? 2 : 3;
  return v.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}
