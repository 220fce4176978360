// Where everything goes on a slide-sized image (a video frame, a slide
// PNG): the same type and grid rules as the fitted views (frameLayout.ts),
// with the charts' plots, marker lane and margins placed in pixels. Pure;
// slideDraw.ts draws it.

import { BASE_LANE_H, chartMargins } from '../charts/chartSizing';
import type { Scenario } from '../engine/types';
import { formatBitrate } from '../charts/format';
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
  charts: SlideChartBox[];
}

export function slideLayout(size: Size, charts: number, withHeader: boolean): SlideLayout {
  const n = Math.max(1, charts);
  const fontPx = fitFontPx(size, n);
  const pad = Math.round(fontPx * 0.6);
  const headerH = withHeader ? Math.round(fontPx * 1.8) : 0;
  const area: Rect = { x: pad, y: pad + headerH, width: size.width - 2 * pad, height: size.height - 2 * pad - headerH };
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
  return { size, fontPx, header: withHeader ? { x: pad, y: pad, width: size.width - 2 * pad, height: headerH } : null, charts: boxes };
}

/** One line naming the scenario for a slide's header: algorithms, RTT, bottleneck rate, seed. */
export function scenarioCaption(s: Scenario): string {
  const algs = [...new Set(s.hosts.flatMap((h) => h.flows.map((f) => f.algorithm)))].join(', ');
  const flows = s.hosts.reduce((k, h) => k + h.flows.length, 0);
  return `${algs}${flows > 1 ? ` (${flows} flows)` : ''} · RTT ${s.rtt_ms} ms · ${formatBitrate(s.bottleneck.rate_bps)} · seed ${s.seed}`;
}

/** The header's clock: "t = 3.20 s of 10 s". */
export function clockText(t: number, duration: number): string {
  return `t = ${t.toFixed(2)} s of ${Number(duration.toFixed(3))} s`;
}
