// A linked time-series chart. Lines are drawn on a canvas while a run
// streams or plays back, and as SVG paths at rest (crisp, exportable);
// axes, limits, event markers, the hover cursor and the brush are SVG. All
// the math is in chartModel.ts and the modules beside it; this component
// renders and turns pointer and keyboard input into linked-view changes.
//
// Public test surface on the <figure>: data-series-ids, data-point-counts,
// data-x-domain, data-y-domain, data-marker-counts (JSON), see dataAttributes.ts;
// the throughput chart's data-average-ms.

import { memo, useContext, useId, useLayoutEffect, useMemo, useRef, useState, type CSSProperties, type KeyboardEvent, type PointerEvent, type ReactNode } from 'react';
import type { EngineEvent } from '../engine/types';
import { drawLines } from './canvasDraw';
import { BASE_AXIS_TITLE_PX, ChartSizingContext, chartMargins, fitAxisTitle, lineWidthScale, plotLayout } from './chartSizing';
import { buildChartModel, chartYExtent, decimateSeries, formatReadout, sampleRange, valuesAt, type RunView } from './chartModel';
import { chartDataAttributes } from './dataAttributes';
import { layoutLimitLabels } from './labels';
import { MARKER_KINDS, markerPath, type MarkerKind } from './markers';
import { flowColor, onDark } from './palette';
import { linePath } from './path';
import { CHART_FLOWS_MAX, type ChartSpec } from './specs';
import { brushDomain, nearestSample, panBy, upperBound, zoomAt, type Domain } from './timeLink';
import { useElementSize } from './useElementWidth';

export type RenderMode = 'auto' | 'svg' | 'canvas';

export interface TimeChartProps {
  spec: ChartSpec;
  run: RunView | null;
  ghost: RunView | null;
  runId: number;
  events: readonly EngineEvent[];
  /** Marker lanes shown (the kinds the run has). */
  laneKinds: MarkerKind[];
  view: Domain;
  bounds: Domain;
  minSpan: number;
  tShown: number;
  /** Lines on canvas (streaming or playing) rather than SVG. */
  animating: boolean;
  renderMode: RenderMode;
  hoverT: number | null;
  onHover(t: number | null): void;
  onView(d: Domain): void;
  height?: number;
  /** Rendered inside the figure after the drawing (text alternatives, data tables). */
  children?: ReactNode;
}

/** Size a canvas to the plot at device resolution and clear it; the context draws in CSS pixels. */
function prepare(c: HTMLCanvasElement, w: number, h: number): CanvasRenderingContext2D | null {
  const dpr = Math.min(2, window.devicePixelRatio || 1);
  const pw = Math.round(w * dpr);
  const ph = Math.round(h * dpr);
  if (c.width !== pw) c.width = pw;
  if (c.height !== ph) c.height = ph;
  const ctx = c.getContext('2d');
  if (!ctx) return null;
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.clearRect(0, 0, pw, ph);
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  return ctx;
}

function TimeChartImpl(props: TimeChartProps) {
  const { spec, run, ghost, events, laneKinds, view, bounds, minSpan, tShown, hoverT, onHover, onView } = props;
  const box = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  // Fitted views (embed, presentation) give the chart a box to fill and a
  // type scale; the lab page gives it a plot height (chartSizing.ts).
  const sizing = useContext(ChartSizingContext);
  const s = sizing.scale;
  const M = useMemo(() => chartMargins(s), [s]);
  const tone = sizing.dark ? onDark : (c: string) => c;
  // Lines thicken with the type in big fitted views (and in the projector profile).
  const widthScale = lineWidthScale(sizing);
  const boxSize = useElementSize(box, { width: 640, height: 240 });
  const width = boxSize.width;
  const layout = plotLayout(sizing.fill ? { boxHeight: boxSize.height, scale: s, laneKinds: laneKinds.length } : { plotHeight: props.height, scale: s, laneKinds: laneKinds.length });
  const plotH = layout.plotHeight;
  const lanesH = layout.lanesHeight;
  const LANE_H = layout.laneHeight;
  const plotW = Math.max(10, width - M.left - M.right);
  const totalH = M.top + plotH + lanesH + M.bottom;
  const yTitle = fitAxisTitle([spec.yLabel, spec.unit], plotH, M.top, BASE_AXIS_TITLE_PX * s);
  const uid = useId().replace(/:/g, '');
  const [brush, setBrush] = useState<{ a: number; b: number } | null>(null);

  const yExtent = useMemo(() => chartYExtent({ run, ghost, view }), [run, ghost, view]);
  const yDomain = yExtent.domain;
  // At rest the lines become SVG paths (crisp, exportable).
  const useCanvas = props.renderMode === 'canvas' || (props.renderMode === 'auto' && props.animating);
  const model = useMemo(
    () => buildChartModel({ run, ghost, events, view, tShown, width: plotW, height: plotH, yDomain, withLines: !useCanvas, tickScale: s }),
    [run, ghost, events, view, tShown, plotW, plotH, yDomain, useCanvas, s],
  );

  // The ghost (previous run) is static: SVG paths, rasterised off the main
  // thread, rebuilt only when it, the view or the axes change. The current
  // run is drawn on the canvas incrementally (only the samples since the
  // last frame) while the run id, view, axes and size stay the same.
  const drawn = useRef<{ key: string; n: number } | null>(null);
  const seriesKey = useMemo(() => (run ? run.spec.series.map((x) => x.id).join(',') : ''), [run]);
  const ghostPaths = useMemo(() => {
    if (!ghost || ghost.computed === 0) return [];
    const [i0, i1] = sampleRange(ghost.x, ghost.computed, view);
    return ghost.spec.series
      .filter((x) => x.main && typeof x.y !== 'number')
      .map((x) => {
        // Faint: half the horizontal resolution is plenty.
        const l = decimateSeries(ghost, x, view, Math.max(1, Math.round(plotW / 2)), ghost.spec.yFactor, i0, i1, true);
        return { ...l, d: linePath(l.points, model.sx, model.sy) };
      });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ghost, view, yDomain, plotW, plotH]);
  useLayoutEffect(() => {
    const c = canvasRef.current;
    if (!c) return;
    if (!useCanvas || !run) {
      prepare(c, plotW, plotH);
      drawn.current = null;
      return;
    }
    const key = `${props.runId}|${seriesKey}|${view[0]}|${view[1]}|${yDomain[0]}|${yDomain[1]}|${plotW}|${plotH}|${widthScale}|${sizing.dark}`;
    const n = upperBound(run.x, tShown, run.computed);
    const prev = drawn.current;
    let from: number;
    let ctx: CanvasRenderingContext2D | null;
    if (prev && prev.key === key && n >= prev.n) {
      if (n === prev.n) return;
      ctx = c.getContext('2d');
      from = Math.max(0, prev.n - 1);
    } else {
      ctx = prepare(c, plotW, plotH);
      from = sampleRange(run.x, n, view)[0];
    }
    if (!ctx) return;
    const to = sampleRange(run.x, n, view)[1];
    if (to > from) {
      const lines = run.spec.series.filter((x) => typeof x.y !== 'number').map((x) => decimateSeries(run, x, view, plotW, run.spec.yFactor, from, to));
      drawLines(ctx, sizing.dark ? lines.map((l) => ({ ...l, color: onDark(l.color) })) : lines, model.sx, model.sy, undefined, widthScale);
    }
    drawn.current = { key, n };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [run, tShown, view, yDomain, plotW, plotH, useCanvas, seriesKey, props.runId, widthScale, sizing.dark]);

  const paths = useMemo(
    () => (useCanvas ? [] : model.lines.filter((l) => !l.ghost).map((l) => ({ ...l, d: linePath(l.points, model.sx, model.sy) }))),
    [model, useCanvas],
  );

  // Hover read-out at the sample nearest the cursor (not past the playback cursor).
  const hover = useMemo(() => {
    if (hoverT === null || !run) return null;
    const t = Math.min(hoverT, tShown);
    const i = nearestSample(run.x, t, run.computed);
    if (i < 0) return null;
    return { t: run.x[i], values: valuesAt(spec, i).filter((v) => typeof spec.series.find((s) => s.id === v.id)?.y !== 'number') };
  }, [hoverT, run, tShown, spec]);

  const toPx = (e: PointerEvent<SVGRectElement>) => {
    const r = e.currentTarget.getBoundingClientRect();
    return Math.max(0, Math.min(plotW, e.clientX - r.left));
  };
  const onPointerDown = (e: PointerEvent<SVGRectElement>) => {
    if (e.button !== 0) return;
    e.currentTarget.setPointerCapture?.(e.pointerId);
    const px = toPx(e);
    setBrush({ a: px, b: px });
  };
  const onPointerMove = (e: PointerEvent<SVGRectElement>) => {
    const px = toPx(e);
    if (brush) setBrush({ a: brush.a, b: px });
    onHover(model.sx.invert(px));
  };
  const onPointerUp = (e: PointerEvent<SVGRectElement>) => {
    if (!brush) return;
    const d = brushDomain(brush.a, toPx(e), plotW, view, bounds, minSpan);
    setBrush(null);
    if (d) onView(d);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    const span = view[1] - view[0];
    const center = hoverT ?? (view[0] + view[1]) / 2;
    let handled = true;
    if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
      const dir = e.key === 'ArrowLeft' ? -1 : 1;
      if (e.shiftKey) onView(panBy(view, dir * 0.25, bounds, minSpan));
      else onHover(Math.min(view[1], Math.max(view[0], center + dir * span * 0.01)));
    } else if (e.key === '+' || e.key === '=') onView(zoomAt(view, center, 0.5, bounds, minSpan));
    else if (e.key === '-' || e.key === '_') onView(zoomAt(view, center, 2, bounds, minSpan));
    else if (e.key === '0' || e.key === 'Home') onView(bounds);
    else if (e.key === 'Escape') onHover(null);
    else handled = false;
    if (handled) e.preventDefault();
  };

  const attrs = chartDataAttributes(model, props.runId);
  // Labels of the limit lines, nudged apart (two flows' windows at one height, several limits above the axis).
  const limitLabels = useMemo(() => layoutLimitLabels(model.constants, model.sy, plotH, spec.unit, s, plotW), [model.constants, model.sy, plotH, spec.unit, s, plotW]);
  const cursorPx = hover ? model.sx(hover.t) : null;
  const laneY = (k: MarkerKind) => M.top + plotH + 6 * s + (layout.stackedLanes ? laneKinds.indexOf(k) : 0) * LANE_H + LANE_H / 2;
  const helpId = `${uid}-help`;

  return (
    <figure
      className="chart"
      data-testid={spec.testId}
      data-chart={spec.id}
      data-render={useCanvas ? 'canvas' : 'svg'}
      data-cursor-t={hover ? hover.t.toFixed(6) : undefined}
      data-average-ms={spec.averageMs}
      {...attrs}
      tabIndex={0}
      aria-label={`${spec.title} chart`}
      aria-describedby={helpId}
      onKeyDown={onKeyDown}
      style={{ '--chart-scale': s } as CSSProperties}
    >
      <figcaption>
        <span className="chart-title">{spec.title}</span>
        <span className="legend" aria-hidden="true">
          {spec.styles.map((s) => (
            <span key={s.label} className="legend-item">
              <svg width="22" height="8" className="legend-line">
                <line x1="1" x2="21" y1="4" y2="4" stroke={s.color ? tone(s.color) : 'var(--ink-soft)'} strokeWidth={s.width} strokeDasharray={s.dash?.join(' ')} />
              </svg>
              {s.label}
            </span>
          ))}
        </span>
        {spec.flowsNotDrawn ? (
          <span className="chart-note" data-flows-not-drawn={spec.flowsNotDrawn}>
            lines of the first {CHART_FLOWS_MAX} of {CHART_FLOWS_MAX + spec.flowsNotDrawn} flows
          </span>
        ) : null}
      </figcaption>
      <p id={helpId} className="sr-only">
        Drag across the chart to zoom every chart to that time range; double-click or press 0 to reset. With the chart focused, left and right arrows move the
        cursor, shift+arrows pan, plus and minus zoom.
      </p>
      <div ref={box} className="chart-box" style={sizing.fill ? undefined : { height: totalH }}>
        <canvas
          ref={canvasRef}
          className="chart-canvas"
          aria-hidden="true"
          style={{ left: M.left, top: M.top, width: plotW, height: plotH }}
        />
        <svg width={width} height={totalH} className="chart-svg" role="img" aria-label={`${spec.title}: ${model.seriesIds.length} series`}>
          <defs>
            <clipPath id={`${uid}-clip`}>
              <rect x={0} y={-2} width={plotW} height={plotH + 4} />
            </clipPath>
          </defs>
          <g transform={`translate(${M.left},${M.top})`}>
            <g className="axis axis-y">
              {model.yTicks.map((t) => (
                <g key={t.v} transform={`translate(0,${t.px})`}>
                  <line className="grid" x1={0} x2={plotW} />
                  <text x={-8 * s} dy="0.32em" textAnchor="end">
                    {t.label}
                  </text>
                </g>
              ))}
              {yTitle && (
                <text className="axis-label" transform={`translate(${-M.left + 14 * s},${plotH / 2}) rotate(-90)`} textAnchor="middle">
                  {yTitle}
                </text>
              )}
            </g>
            <g className="series" clipPath={`url(#${uid}-clip)`}>
              {[...ghostPaths, ...paths].map((p) => (
                <path
                  key={`${p.ghost ? 'g' : 'c'}-${p.id}`}
                  className={p.ghost ? 'ghost-line' : 'line'}
                  data-series={p.id}
                  data-points={p.points.length}
                  d={p.d}
                  fill="none"
                  stroke={tone(p.color)}
                  strokeWidth={p.width * widthScale}
                  strokeOpacity={p.ghost ? 0.28 : undefined}
                  strokeDasharray={!p.ghost && p.dash ? p.dash.join(' ') : undefined}
                  strokeLinejoin="round"
                />
              ))}
            </g>
            <g className="limits">
              {model.constants.map((c) =>
                c.offScale ? null : (
                  <line
                    key={c.id}
                    className="limit"
                    data-series={c.id}
                    x1={0}
                    x2={plotW}
                    y1={model.sy(c.value)}
                    y2={model.sy(c.value)}
                    stroke={tone(c.color)}
                    strokeWidth={c.width}
                    strokeDasharray={c.dash?.join(' ')}
                  />
                ),
              )}
              {limitLabels.map((l) => (
                <text
                  key={`label-${l.id}`}
                  className={l.offScale ? 'offscale limit-label' : 'limit-label'}
                  data-series={l.offScale ? l.id : undefined}
                  data-label-for={l.id}
                  x={plotW - 4}
                  y={l.y}
                  textAnchor="end"
                  fill={tone(l.color)}
                >
                  {l.text}
                </text>
              ))}
              {yExtent.clippedAbove !== null && (
                // The capped axis (throughput) cuts off bursts: say so where they leave the plot.
                <text className="limit-label clip-note" data-clipped-above={yExtent.clippedAbove} x={4} y={Math.round(10.5 * s)} textAnchor="start">
                  ↑ values above {formatReadout(yExtent.clippedAbove)} {spec.unit} are cut off
                </text>
              )}
            </g>
          </g>
          {laneKinds.length > 0 && (
            <g className="markers" transform={`translate(${M.left},0)`}>
              {laneKinds.map((k) => (
                <line key={k} className="lane" x1={0} x2={plotW} y1={laneY(k)} y2={laneY(k)} />
              ))}
              {model.markers.map((b) => {
                const shape = MARKER_KINDS.find((m) => m.kind === b.kind)!.shape;
                return (
                  <path
                    key={`${b.kind}-${b.flow}-${b.px}`}
                    className={`marker marker-${b.kind}`}
                    data-count={b.count}
                    transform={`translate(${b.px + 0.5},${laneY(b.kind)})`}
                    d={markerPath(shape, 4 * s)}
                    fill={shape === 'cross' ? flowColor(b.flow) : flowColor(b.flow)}
                    fillOpacity={shape === 'circle' ? 0.85 : 1}
                  />
                );
              })}
            </g>
          )}
          <g className="axis axis-x" transform={`translate(${M.left},${M.top + plotH + lanesH})`}>
            <line className="domain" x1={0} x2={plotW} />
            {model.xTicks.map((t) => (
              <g key={t.v} transform={`translate(${t.px},0)`}>
                <line y2={5 * s} />
                <text y={17 * s} textAnchor="middle">
                  {t.label}
                </text>
              </g>
            ))}
            <text className="axis-label" x={plotW / 2} y={31 * s} textAnchor="middle">
              time (s)
            </text>
          </g>
          <g transform={`translate(${M.left},${M.top})`}>
            {cursorPx !== null && <line className="cursor" x1={cursorPx} x2={cursorPx} y1={0} y2={plotH + lanesH} />}
            {brush && Math.abs(brush.b - brush.a) > 1 && (
              <rect className="brush" x={Math.min(brush.a, brush.b)} y={0} width={Math.abs(brush.b - brush.a)} height={plotH + lanesH} />
            )}
            <rect
              className="overlay"
              x={0}
              y={0}
              width={plotW}
              height={plotH + lanesH}
              onPointerDown={onPointerDown}
              onPointerMove={onPointerMove}
              onPointerUp={onPointerUp}
              onPointerCancel={() => setBrush(null)}
              onPointerLeave={() => {
                if (!brush) onHover(null);
              }}
              onDoubleClick={() => onView(bounds)}
            />
          </g>
        </svg>
        {hover && cursorPx !== null && (
          <div
            className={`chart-tip${cursorPx > plotW * 0.6 ? ' left' : ''}`}
            style={{ left: M.left + cursorPx, top: M.top }}
            data-testid={`${spec.testId}-tip`}
            aria-hidden="true"
          >
            <div className="tip-time">t = {hover.t.toFixed(2)} s</div>
            {hover.values.slice(0, 10).map((v) => (
              <div key={v.id} className="tip-row" data-series={v.id} data-value={Number.isFinite(v.value) ? v.value : ''}>
                <span className="swatch" style={{ background: v.color }} />
                <span className="tip-label">{v.label}</span>
                <span className="tip-value">
                  {formatReadout(v.value, v.id.includes('ssthresh') ? '∞' : '–')} {spec.unit}
                </span>
              </div>
            ))}
            {hover.values.length > 10 && <div className="tip-more">+{hover.values.length - 10} more</div>}
          </div>
        )}
      </div>
      {props.children}
    </figure>
  );
}

export const TimeChart = memo(TimeChartImpl);
