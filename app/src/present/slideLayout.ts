// Where everything goes on a slide-sized image (a video frame, a slide
// PNG): the same type and grid rules as the fitted views (frameLayout.ts),
// with the charts' plots, marker lane and margins placed in pixels. Pure;
// slideDraw.ts draws it.

import { BASE_LANE_H, chartMargins } from '../charts/chartSizing';
import type { Scenario } from '../engine/types';
import { formatBitrate } from '../charts/format';
import { flowColor, flowDash } from '../charts/palette';
import type { ChartSpec } from '../charts/specs';
import { chartScaleFor, chooseGrid, fitFontPx, type Size } from './frameLayout';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface SlideChartBox {
  /** The chart's panel. */
  box: Rect;
  /** Baseline of its title. */
  titleY: number;
  plot: Rect;
  /** The marker lane under the plot (every kind in one lane). */
  lane: Rect;
  /** Type scale of ticks, margins and markers (chartSizing.ts). */
  scale: number;
}

export interface SlideLayout {
  size: Size;
  fontPx: number;
  /** Band across the top (the scenario and the playback time), or null. */
  header: Rect | null;
  /** Band under the header for the legend (flows, line styles), or null. */
  legend: Rect | null;
  charts: SlideChartBox[];
}

export function slideLayout(size: Size, charts: number, withHeader: boolean, withLegend = false): SlideLayout {
  const n = Math.max(1, charts);
  const fontPx = fitFontPx(size, n);
  const pad = Math.round(fontPx * 0.6);
  const headerH = withHeader ? Math.round(fontPx * 1.8) : 0;
  const legendH = withLegend ? Math.round(fontPx * 1.5) : 0;
  const top = pad + headerH + legendH;
  const area: Rect = { x: pad, y: top, width: size.width - 2 * pad, height: size.height - pad - top };
  const grid = chooseGrid({ area, charts: n, gap: pad, fontPx });
  const scale = chartScaleFor(fontPx);
  const m = chartMargins(scale);
  const laneH = BASE_LANE_H * scale;
  const inner = Math.round(fontPx * 0.5);
  const titleH = Math.round(fontPx * 1.6);
  const boxes: SlideChartBox[] = [];
  for (let i = 0; i < n; i++) {
    const row = Math.floor(i / grid.columns);
    const col = i % grid.columns;
    const span = i === n - 1 ? grid.lastSpan : 1;
    const box: Rect = {
      x: area.x + col * (grid.cellWidth + pad),
      y: area.y + row * (grid.cellHeight + pad),
      width: grid.cellWidth * span + pad * (span - 1),
      height: grid.cellHeight,
    };
    const plotX = box.x + inner + m.left;
    const plotY = box.y + titleH + m.top;
    const plotW = Math.max(10, box.width - 2 * inner - m.left - m.right);
    const plotH = Math.max(10, box.height - titleH - m.top - m.bottom - laneH - 6 * scale - inner);
    boxes.push({
      box,
      titleY: box.y + Math.round(fontPx * 1.2),
      plot: { x: plotX, y: plotY, width: plotW, height: plotH },
      lane: { x: plotX, y: plotY + plotH + 6 * scale, width: plotW, height: laneH },
      scale,
    });
  }
  return {
    size,
    fontPx,
    header: withHeader ? { x: pad, y: pad, width: size.width - 2 * pad, height: headerH } : null,
    legend: withLegend ? { x: pad, y: pad + headerH, width: size.width - 2 * pad, height: legendH } : null,
    charts: boxes,
  };
}

/** One entry of a slide's legend: a line swatch (in its colour, or the ink colour) and its label. */
export interface SlideLegendEntry {
  label: string;
  color?: string;
  dash?: number[];
  width: number;
}

/**
 * The legend of a slide or video frame, so the audience can tell the lines
 * apart: each flow in its colour ("flow 0 · Standard TCP"), then the line
 * styles of the charts drawn (once each). `names` maps algorithm ids to the
 * catalogue's names.
 */
export function slideLegend(s: Scenario, names: Record<string, string>, charts: readonly Pick<ChartSpec, 'styles'>[]): SlideLegendEntry[] {
  const out: SlideLegendEntry[] = [];
  let i = 0;
  for (const h of s.hosts)
    for (const f of h.flows) {
      out.push({ label: `flow ${i} · ${names[f.algorithm] ?? f.algorithm}`, color: flowColor(i), dash: flowDash(i), width: 2.5 });
      i++;
    }
  const seen = new Set<string>();
  for (const c of charts)
    for (const st of c.styles) {
      if (seen.has(st.label)) continue;
      seen.add(st.label);
      out.push({ label: st.label, color: st.color, dash: st.dash, width: st.width });
    }
  return out;
}

/**
 * One line naming the scenario for a slide's header: the algorithms (by
 * name), the bottleneck's rate, the RTT, the buffer and the seed.
 */
export function scenarioCaption(s: Scenario, names: Record<string, string> = {}): string {
  const algs = [...new Set(s.hosts.flatMap((h) => h.flows.map((f) => names[f.algorithm] ?? f.algorithm)))].join(', ');
  const flows = s.hosts.reduce((k, h) => k + h.flows.length, 0);
  const buf = s.bottleneck.buffer_pkts;
  return `${algs}${flows > 1 ? ` (${flows} flows)` : ''} · ${s.bottleneck.trace ? `trace ${s.bottleneck.trace.name ?? ''}`.trim() : formatBitrate(s.bottleneck.rate_bps)} bottleneck · RTT ${s.rtt_ms} ms · buffer ${buf.toLocaleString('en-US')} ${buf === 1 ? 'packet' : 'packets'} · seed ${s.seed}`;
}

/** The header's clock: "t = 3.20 s of 10 s". */
export function clockText(t: number, duration: number): string {
  return `t = ${t.toFixed(2)} s of ${Number(duration.toFixed(3))} s`;
}
