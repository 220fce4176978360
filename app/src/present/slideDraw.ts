// Draws charts on a slide-sized canvas (video frames, slide PNGs) from the
// same chart model as the page (charts/chartModel.ts): axes, ticks, titles
// that fit, limit lines with their labels, the lines up to the playback
// time, and the event markers. Layout from slideLayout.ts.

import { buildChartModel, type RunView } from '../charts/chartModel';
import { BASE_AXIS_TITLE_PX, BASE_TICK_PX, fitAxisTitle } from '../charts/chartSizing';
import { drawLines } from '../charts/canvasDraw';
import { layoutLimitLabels, LIMIT_LABEL_PX } from '../charts/labels';
import { MARKER_KINDS, markerPath } from '../charts/markers';
import { flowColor, onDark } from '../charts/palette';
import type { ChartSpec } from '../charts/specs';
import type { EngineEvent } from '../engine/types';
import type { SlideChartBox, SlideLayout, SlideLegendEntry } from './slideLayout';
import type { SlideTheme } from './slideThemes';

export interface SlideChart {
  spec: ChartSpec;
  x: Float64Array;
  /** Samples in the run. */
  count: number;
}

export interface SlideContent {
  charts: SlideChart[];
  events: readonly EngineEvent[];
  /** The run's duration, s (the x axis). */
  duration: number;
  /** Draw dash patterns (a still image; video frames draw dashed lines solid and lighter, as the page does while playing). */
  dashes?: boolean;
  /** Header texts (left: the scenario; right: the clock), when the layout has a header. */
  header?: { left: string; right: string };
  /** The legend's entries, drawn in the layout's legend band. */
  legend?: readonly SlideLegendEntry[];
}

/** The legend in one line across its band: a line swatch and a label per entry; what does not fit is left out with "…". */
function drawLegend(ctx: CanvasRenderingContext2D, band: { x: number; y: number; width: number; height: number }, entries: readonly SlideLegendEntry[], fontPx: number, th: SlideTheme): void {
  const tone = th.dark ? onDark : (c: string) => c;
  const px = fontPx * 0.85;
  ctx.font = font(px, 500);
  ctx.textAlign = 'left';
  ctx.textBaseline = 'middle';
  const y = band.y + band.height / 2;
  const swatch = px * 1.8;
  const gap = px * 0.4;
  const sep = px * 1.2;
  const ellipsis = ctx.measureText('…').width;
  let x = band.x;
  const right = band.x + band.width;
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i];
    const w = swatch + gap + ctx.measureText(e.label).width;
    const last = i === entries.length - 1;
    if (x + w > right - (last ? 0 : ellipsis + sep)) {
      ctx.fillStyle = th.ink;
      ctx.fillText('…', x, y);
      break;
    }
    ctx.save();
    ctx.strokeStyle = e.color ? tone(e.color) : th.ink;
    ctx.lineWidth = Math.max(1.5, e.width * (px / 12));
    ctx.setLineDash((e.dash ?? []).map((d) => d * (px / 12)));
    ctx.beginPath();
    ctx.moveTo(x, y);
    ctx.lineTo(x + swatch, y);
    ctx.stroke();
    ctx.restore();
    ctx.fillStyle = th.ink;
    ctx.fillText(e.label, x + swatch + gap, y);
    x += w + sep;
  }
  ctx.textBaseline = 'alphabetic';
}

const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';

function font(px: number, weight = 400): string {
  return `${weight} ${px.toFixed(1)}px ${FONT}`;
}

function drawChart(ctx: CanvasRenderingContext2D, b: SlideChartBox, c: SlideChart, content: SlideContent, t: number, fontPx: number, th: SlideTheme): void {
  const { box, plot, lane, scale: s } = b;
  const tone = th.dark ? onDark : (c: string) => c;
  ctx.fillStyle = th.panel;
  ctx.strokeStyle = th.border;
  ctx.lineWidth = Math.max(1, s);
  ctx.beginPath();
  ctx.roundRect(box.x, box.y, box.width, box.height, fontPx * 0.4);
  ctx.fill();
  ctx.stroke();

  const run: RunView = { spec: c.spec, x: c.x, computed: c.count };
  const view: [number, number] = [0, content.duration];
  // The axes are the whole run's (they hold still while the lines grow).
  const model = buildChartModel({ run, ghost: null, events: content.events, view, tShown: t, width: plot.width, height: plot.height, withLines: true, tickScale: s });

  ctx.fillStyle = th.ink;
  ctx.font = font(fontPx, 650);
  ctx.textAlign = 'left';
  ctx.textBaseline = 'alphabetic';
  ctx.fillText(c.spec.title, box.x + fontPx * 0.5, b.titleY);

  // Grid and y ticks.
  const tickPx = BASE_TICK_PX * s;
  ctx.font = font(tickPx);
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  for (const tk of model.yTicks) {
    const y = plot.y + tk.px;
    ctx.strokeStyle = th.grid;
    ctx.lineWidth = 1;
    ctx.beginPath();
    ctx.moveTo(plot.x, y);
    ctx.lineTo(plot.x + plot.width, y);
    ctx.stroke();
    ctx.fillStyle = th.muted;
    ctx.fillText(tk.label, plot.x - 8 * s, y);
  }
  // The y title, rotated, only as long as fits beside the plot.
  const titlePx = BASE_AXIS_TITLE_PX * s;
  const yTitle = fitAxisTitle([c.spec.yLabel, c.spec.unit], plot.height, 10 * s, titlePx);
  if (yTitle) {
    ctx.save();
    ctx.translate(plot.x - 64 * s + 14 * s, plot.y + plot.height / 2);
    ctx.rotate(-Math.PI / 2);
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.font = font(titlePx, 600);
    ctx.fillStyle = th.ink;
    ctx.fillText(yTitle, 0, 0);
    ctx.restore();
  }

  // x axis under the marker lane.
  const axisY = lane.y + lane.height;
  ctx.strokeStyle = th.axis;
  ctx.lineWidth = Math.max(1, s);
  ctx.beginPath();
  ctx.moveTo(plot.x, axisY);
  ctx.lineTo(plot.x + plot.width, axisY);
  ctx.stroke();
  ctx.font = font(tickPx);
  ctx.fillStyle = th.muted;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'alphabetic';
  for (const tk of model.xTicks) {
    const x = plot.x + tk.px;
    ctx.beginPath();
    ctx.moveTo(x, axisY);
    ctx.lineTo(x, axisY + 5 * s);
    ctx.stroke();
    ctx.fillText(tk.label, x, axisY + 17 * s);
  }
  ctx.font = font(titlePx, 600);
  ctx.fillStyle = th.ink;
  ctx.fillText('time (s)', plot.x + plot.width / 2, axisY + 31 * s);

  // Limit lines and their labels, then the lines, clipped to the plot.
  ctx.save();
  ctx.beginPath();
  ctx.rect(plot.x, plot.y - 2, plot.width, plot.height + 4);
  ctx.clip();
  ctx.translate(plot.x, plot.y);
  for (const k of model.constants) {
    if (k.offScale) continue;
    const y = model.sy(k.value);
    ctx.strokeStyle = tone(k.color);
    ctx.lineWidth = k.width * th.lineScale;
    ctx.setLineDash((k.dash ?? []).map((d) => d * s));
    ctx.beginPath();
    ctx.moveTo(0, y);
    ctx.lineTo(plot.width, y);
    ctx.stroke();
  }
  ctx.setLineDash([]);
  const lines = th.dark ? model.lines.map((l) => ({ ...l, color: onDark(l.color) })) : model.lines;
  drawLines(ctx, lines, model.sx, model.sy, 0.28, th.lineScale * Math.max(1, s * 0.8), content.dashes);
  ctx.font = font(LIMIT_LABEL_PX * s, 600);
  ctx.textAlign = 'right';
  ctx.textBaseline = 'alphabetic';
  ctx.lineJoin = 'round';
  for (const l of layoutLimitLabels(model.constants, model.sy, plot.height, c.spec.unit, s, plot.width)) {
    ctx.strokeStyle = th.panel;
    ctx.lineWidth = 3 * s;
    ctx.strokeText(l.text, plot.width - 4 * s, l.y);
    ctx.fillStyle = tone(l.color);
    ctx.fillText(l.text, plot.width - 4 * s, l.y);
  }
  ctx.restore();

  // Event markers, every kind in the one lane (the shapes tell them apart).
  const cy = lane.y + lane.height / 2;
  for (const m of model.markers) {
    const shape = MARKER_KINDS.find((k) => k.kind === m.kind)!.shape;
    ctx.save();
    ctx.translate(plot.x + m.px + 0.5, cy);
    ctx.fillStyle = tone(flowColor(m.flow));
    ctx.fill(new Path2D(markerPath(shape, 4 * s)));
    ctx.restore();
  }
}

/** One frame: every chart at playback time `t` (s). */
export function drawSlide(ctx: CanvasRenderingContext2D, layout: SlideLayout, content: SlideContent, t: number, theme: SlideTheme): void {
  const { width, height } = layout.size;
  ctx.save();
  ctx.fillStyle = theme.background;
  ctx.fillRect(0, 0, width, height);
  if (layout.header && content.header) {
    const h = layout.header;
    const y = h.y + h.height * 0.7;
    ctx.font = font(layout.fontPx, 600);
    ctx.fillStyle = theme.ink;
    ctx.textAlign = 'left';
    ctx.fillText(content.header.left, h.x, y, h.width * (content.header.right ? 0.7 : 1));
    ctx.textAlign = 'right';
    ctx.font = font(layout.fontPx, 650);
    if (content.header.right) ctx.fillText(content.header.right, h.x + h.width, y);
  }
  if (layout.legend && content.legend?.length) drawLegend(ctx, layout.legend, content.legend, layout.fontPx, theme);
  layout.charts.forEach((b, i) => {
    const c = content.charts[i];
    if (c) drawChart(ctx, b, c, content, t, layout.fontPx, theme);
  });
  ctx.restore();
}
