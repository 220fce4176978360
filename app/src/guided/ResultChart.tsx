// One result chart of a guided lab: the simulated points (the engine's mean
// over seeds, min/max bars), lines per series (or per client), the papers' values on the
// same axes, reference lines, a legend, and a data table as the text
// alternative; for labs with stated unknowns, once asked for, a shaded band
// per line over the runs at each end of the unknowns' ranges. Every mark
// opens its run in the lab page (drill-down); with several seeds a chooser
// lists the runs. Arrow keys move between marks.

import { useContext, useEffect, useId, useMemo, useRef, useState, type CSSProperties, type KeyboardEvent, type MouseEvent } from 'react';
import type { Lab, Paper, PaperValue, StatedUnknown, SweepAggregates, SweepPoint, SweepValue } from '../engine/generated/labs';
import { sourceCite } from './cite';
import { ChartSizingContext, lineWidthScale } from '../charts/chartSizing';
import { useElementSize } from '../charts/useElementWidth';
import { bandLegendText, bandRangeWords, type BandCell } from './bandData';
import type { BandState } from './bandStore';
import { buildResultChart, resultChartFrame, symbolPath, tickLabelShift, type DrawnMark, type LineDef, type ResultChartModel } from './chartData';
import { formatValue, formatX, METRICS, withUnit } from './format';
import type { ChartPlan } from './presentation';
import { SketchLayer } from './SketchLayer';

export interface ResultChartProps {
  lab: Lab;
  plan: ChartPlan;
  points: readonly SweepPoint[];
  /** The engine's seed aggregates of the results so far. */
  aggregates: SweepAggregates | null;
  paper: readonly PaperValue[];
  /** The paper catalogue, for citations. */
  papers: readonly Paper[];
  /** Link that opens point `index` in the lab page. */
  drillHref: (index: number) => string;
  /** Height of the chart's drawing, px (ignored where the chart fills its box: presentation mode). */
  height?: number;
  /** The lab's stated unknowns and the runs at the ends of their ranges (null: the lab states none). */
  band?: ChartBand | null;
  /** The student's sketch of one line (predict, then run; the lab's first chart), or null. */
  sketch?: ChartSketch | null;
}

/** A sketch on the chart: editable while predicting, drawn dashed beside the results once committed. */
export interface ChartSketch {
  line: string;
  xs: readonly SweepValue[];
  values: readonly number[];
  /** The y axis reaches at least this (before any run, the top the sketch starts on). */
  yAtLeast?: number;
  /** While predicting: move point i to a value. */
  onMove?: (i: number, value: number) => void;
}

/** What a chart needs of the stated unknowns' band (bandStore.ts runs it). */
export interface ChartBand {
  state: BandState;
  unknowns: readonly StatedUnknown[];
  /** The engine's seed aggregates of each finished range end. */
  ends: readonly SweepAggregates[];
  /** Each of those ends by its value ("295 packets"), in the same order. */
  endLabels: readonly string[];
}

/** The range ends' values at one line and swept value: "12.2 % at 295 packets, 19.9 % at 417 packets". */
function endsText(cell: BandCell, labels: readonly string[], unit: string): string {
  return cell.ends.map((v, i) => `${v === null ? '—' : formatValue(v, unit)} at ${labels[i] ?? '?'}`).join(', ');
}

function markLabel(lab: Lab, line: LineDef, m: DrawnMark, metric: ResultChartProps['plan']['metric'], band: { cell: BandCell; words: string; labels: readonly string[] } | null): string {
  const info = METRICS[metric];
  const at = formatX(lab.sweep.axis, m.x);
  const v = m.mean === null ? (metric === 'time_to_max_rate_s' ? 'never reached' : 'no value') : withUnit(m.mean, info.unit);
  const n = m.runs.length;
  const spread = n > 1 && m.min !== null && m.max !== null ? `, mean of ${n} runs (${formatValue(m.min, info.unit)} to ${formatValue(m.max, info.unit)})` : '';
  const across = band ? `; at the ends of ${band.words}: ${endsText(band.cell, band.labels, info.unit)}` : '';
  return `${line.label} at ${at}: ${v}${spread}${across}`;
}

const cellKey = (line: string, xKey: string) => `${line}@${xKey}`;

export function ResultChart({ lab, plan, points, aggregates, paper, papers, drillHref, height: fixedHeight = 250, band = null, sketch = null }: ResultChartProps) {
  const boxRef = useRef<HTMLDivElement>(null);
  // The lab page: a fixed height, type at scale 1. Presentation mode: the box CSS gives, type scaled to the screen.
  const sizing = useContext(ChartSizingContext);
  const box = useElementSize(boxRef, { width: 560, height: fixedHeight });
  const width = Math.max(280, box.width);
  const height = sizing.fill ? Math.max(120, box.height) : fixedHeight;
  const frame = useMemo(() => resultChartFrame(sizing.scale, plan.bars), [sizing.scale, plan.bars]);
  const margin = frame.margin;
  const lineWidth = 2 * lineWidthScale(sizing);
  const uid = useId();
  // Series the reader has hidden with the legend (charts with many lines).
  const [hidden, setHidden] = useState<ReadonlySet<string>>(() => new Set());
  const allSeries = useMemo(() => [...new Set(points.map((p) => p.series))].filter((s) => !plan.onlySeries || plan.onlySeries.includes(s)), [points, plan.onlySeries]);
  const shown = useMemo(() => (hidden.size ? allSeries.filter((s) => !hidden.has(s)) : plan.onlySeries), [allSeries, hidden, plan.onlySeries]);
  const model: ResultChartModel = useMemo(
    () =>
      buildResultChart({
        lab,
        metric: plan.metric,
        points,
        aggregates,
        paper,
        geometry: { width, height, margin, tickGap: frame.tickGap },
        onlySeries: shown,
        bars: plan.bars,
        bandEnds: band?.ends,
        sketch: sketch ? { line: sketch.line, xs: sketch.xs, values: sketch.values } : null,
        yAtLeast: sketch?.yAtLeast,
      }),
    [lab, plan, points, aggregates, paper, width, height, margin, frame.tickGap, shown, band, sketch],
  );
  const allLines = useMemo(
    () => (hidden.size ? buildResultChart({ lab, metric: plan.metric, points, aggregates: null, paper: [], geometry: { width, height, margin, tickGap: frame.tickGap }, onlySeries: plan.onlySeries, bars: plan.bars }).lines : model.lines),
    [hidden.size, lab, plan, points, width, height, margin, frame.tickGap, model.lines],
  );
  const toggleSeries = (series: string) =>
    setHidden((h) => {
      const next = new Set(h);
      if (next.has(series)) next.delete(series);
      // Never hide the last series.
      else if (allSeries.filter((s) => !next.has(s)).length > 1) next.add(series);
      return next;
    });
  const info = METRICS[plan.metric];
  const lineById = useMemo(() => new Map(model.lines.map((l) => [l.id, l])), [model.lines]);
  const cellOf = useMemo(() => new Map(model.bands.flatMap((b) => b.cells.map((c) => [cellKey(c.line, c.xKey), c] as const))), [model.bands]);
  const bandWords = band ? bandRangeWords(band.unknowns) : '';
  const focusable = useMemo(() => model.marks.filter((m) => m.runs.length > 0 && (m.py !== null || model.bars)), [model]);
  const [active, setActive] = useState(0);
  /** The focused mark (its key), whose value shows beside it: a sighted keyboard user has no hover tooltip (screen readers have the aria-label). Text and place are taken at each render, so they follow new results and a resize. */
  const [focusedKey, setFocusedKey] = useState<string | null>(null);
  const [chooser, setChooser] = useState<DrawnMark | null>(null);
  const markRefs = useRef(new Map<string, { focus(): void }>());
  const keyOf = (m: DrawnMark) => `${m.line}@${m.xKey}`;
  const activeIdx = Math.min(active, Math.max(0, focusable.length - 1));

  const focusMark = (i: number) => {
    const m = focusable[i];
    if (!m) return;
    setActive(i);
    markRefs.current.get(keyOf(m))?.focus();
  };

  const onKeyDown = (e: KeyboardEvent<SVGGElement>) => {
    const cur = focusable[activeIdx];
    if (!cur) return;
    const sameLine = focusable.map((m, i) => ({ m, i })).filter(({ m }) => m.line === cur.line);
    const pos = sameLine.findIndex(({ i }) => i === activeIdx);
    let next: number | null = null;
    if (e.key === 'ArrowRight') next = sameLine[Math.min(sameLine.length - 1, pos + 1)].i;
    else if (e.key === 'ArrowLeft') next = sameLine[Math.max(0, pos - 1)].i;
    else if (e.key === 'ArrowUp' || e.key === 'ArrowDown') {
      const lines = model.lines.map((l) => l.id).filter((id) => focusable.some((m) => m.line === id));
      const li = lines.indexOf(cur.line) + (e.key === 'ArrowDown' ? 1 : -1);
      const target = lines[Math.max(0, Math.min(lines.length - 1, li))];
      const cands = focusable.map((m, i) => ({ m, i })).filter(({ m }) => m.line === target);
      if (cands.length) next = cands.reduce((a, b) => (Math.abs(b.m.px - cur.px) < Math.abs(a.m.px - cur.px) ? b : a)).i;
    } else if (e.key === 'Home') next = sameLine[0].i;
    else if (e.key === 'End') next = sameLine[sameLine.length - 1].i;
    if (next !== null) {
      e.preventDefault();
      focusMark(next);
    }
  };

  const open = (m: DrawnMark, e: MouseEvent) => {
    if (m.runs.length > 1) {
      e.preventDefault();
      setChooser(m);
    }
  };

  const x0 = margin.left;
  const x1 = width - margin.right;
  const yBottom = height - margin.bottom;
  const yTop = margin.top;
  const hasBars = model.marks.some((m) => m.bar !== null);
  const paperLines = new Set(model.paper.map((p) => p.line));
  // The sketched line's colour and name (from every line of the chart: it may be one the legend hides).
  const sketchLine = model.sketch ? (lineById.get(model.sketch.line) ?? allLines.find((l) => l.id === model.sketch!.line) ?? null) : null;
  const barOf = new Map(model.bars?.map((b) => [b.mark, b]) ?? []);
  /** A mark's words and where it is drawn. */
  const markPlace = (m: DrawnMark) => {
    const cell = cellOf.get(cellKey(m.line, m.xKey));
    const label = markLabel(lab, lineById.get(m.line)!, m, plan.metric, cell && band ? { cell, words: bandWords, labels: band.endLabels } : null);
    const cy = m.py ?? (model.bars ? model.y.pos(model.y.domain[1]) : 0);
    const bar = barOf.get(m);
    return { label, cx: bar ? bar.x + bar.width / 2 : m.px, cy };
  };
  // The focused mark's value, read at each render (it follows new results and a resize); centred above the mark and
  // kept inside the chart (the box is at most 160 px wide).
  const focusedMark = focusedKey === null ? undefined : focusable.find((m) => keyOf(m) === focusedKey);
  const focusedPlace = focusedMark ? markPlace(focusedMark) : null;
  const readout = focusedPlace && {
    text: focusedPlace.label,
    x: Math.min(Math.max(focusedPlace.cx, 80), Math.max(80, width - 80)),
    y: model.bars ? focusedPlace.cy - 2 * frame.cap : focusedPlace.cy,
  };

  return (
    <figure
      className="lab-chart"
      data-testid={`lab-chart-${plan.id}`}
      data-lab-id={lab.id}
      data-metric={plan.metric}
      data-point-count={model.pointCount}
      data-series-ids={JSON.stringify(model.seriesIds)}
      data-paper-count={model.paper.length}
      data-band-state={band ? band.state : undefined}
      data-band-series={band ? JSON.stringify(model.bands.map((b) => b.line)) : undefined}
      data-sketch-line={model.sketch ? model.sketch.line : undefined}
      aria-labelledby={`${uid}-title`}
      style={sizing.scale !== 1 ? ({ '--chart-scale': sizing.scale } as CSSProperties) : undefined}
    >
      <figcaption id={`${uid}-title`} className="lab-chart-title">
        {plan.title}
      </figcaption>
      <div ref={boxRef} className="lab-chart-box">
        <svg width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="group" aria-labelledby={`${uid}-title`} aria-describedby={`${uid}-help`}>
          <defs>
            <pattern id={`${uid}-hatch`} width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
              <line x1="0" y1="0" x2="0" y2="6" stroke="#7a8794" strokeWidth="2" />
            </pattern>
          </defs>
          {/* y grid and axis */}
          <g className="lab-axis y" aria-hidden="true">
            {model.y.ticks.map((t) => (
              <g key={t.label} transform={`translate(0,${t.pos})`}>
                <line x1={x0} x2={x1} className="grid" />
                <text x={x0 - frame.yLabelGap} dy="0.32em" textAnchor="end">
                  {t.label}
                </text>
              </g>
            ))}
            <text transform={`translate(${frame.yTitleX},${(yTop + yBottom) / 2}) rotate(-90)`} textAnchor="middle" className="axis-title">
              {info.axis}
            </text>
          </g>
          <g className="lab-axis x" aria-hidden="true">
            <line x1={x0} x2={x1} y1={yBottom} y2={yBottom} className="domain" />
            {model.x.ticks.map((t) => (
              <g key={`${t.label}@${t.pos}`} transform={`translate(${t.pos},${yBottom})`}>
                <line y2={frame.tickLength} />
                <text x={tickLabelShift(t.pos, t.label, frame.tickPx, width)} y={frame.xLabelY} textAnchor="middle">
                  {t.label}
                </text>
              </g>
            ))}
            <text x={(x0 + x1) / 2} y={height - frame.xTitleUp} textAnchor="middle" className="axis-title">
              {lab.sweep.label}
              {lab.sweep.log_scale && model.x.kind === 'log' ? ' (log scale)' : ''}
            </text>
          </g>
          {/* the band of the stated unknowns, behind everything drawn from the runs */}
          {model.bands.length > 0 && (
            <g className="lab-bands" aria-hidden="true">
              {model.bands.map((b) => (
                <path
                  key={b.line}
                  d={b.d}
                  fill={lineById.get(b.line)!.color}
                  data-band={b.line}
                  data-band-cells={JSON.stringify(b.cells.map((c) => ({ x: c.x, lo: c.lo, hi: c.hi, assumed: c.assumed, ends: c.ends })))}
                />
              ))}
            </g>
          )}
          {model.references.map((r) => (
            <g key={r.label} className="lab-reference" data-reference={r.label}>
              <line x1={r.px} x2={r.px} y1={yTop} y2={yBottom} />
              <text x={r.px + frame.referenceLabelX} y={yTop + frame.referenceLabelY}>
                {r.label}
              </text>
            </g>
          ))}
          {/* simulated lines */}
          {!model.bars && (
            <g className="lab-lines" aria-hidden="true">
              {model.paths.map((p) => {
                const l = lineById.get(p.line)!;
                return p.d ? <path key={p.line} d={p.d} fill="none" stroke={l.color} strokeWidth={lineWidth} strokeDasharray={l.dash} data-line={p.line} /> : null;
              })}
            </g>
          )}
          {model.bars && (
            <g className="lab-bars" aria-hidden="true">
              {model.bars.map((b) => {
                const l = lineById.get(b.line)!;
                return (
                  <rect
                    key={`${b.line}@${b.mark.xKey}`}
                    x={b.x}
                    y={b.y}
                    width={Math.max(1, b.width - 1)}
                    height={Math.max(0, yBottom - b.y)}
                    fill={b.never ? `url(#${uid}-hatch)` : l.color}
                    stroke={l.color}
                    strokeDasharray={l.dash}
                    opacity={b.never ? 0.8 : 0.9}
                    data-line={b.line}
                    data-never={b.never ? '' : undefined}
                  />
                );
              })}
            </g>
          )}
          {/* min/max over seeds */}
          <g className="lab-errorbars" aria-hidden="true">
            {model.marks.map((m) =>
              m.bar ? (
                <g key={keyOf(m)} stroke={lineById.get(m.line)!.color}>
                  <line x1={m.px} x2={m.px} y1={m.bar.y0} y2={m.bar.y1} />
                  <line x1={m.px - frame.cap} x2={m.px + frame.cap} y1={m.bar.y0} y2={m.bar.y0} />
                  <line x1={m.px - frame.cap} x2={m.px + frame.cap} y1={m.bar.y1} y2={m.bar.y1} />
                </g>
              ) : null,
            )}
          </g>
          {/* the papers' values */}
          <g className="lab-paper">
            {model.paper.map((p) => {
              const l = lineById.get(p.line)!;
              const title = `Paper: ${l.label} ${withUnit(p.value, info.unit)}${p.kind === 'all' ? ' over the sweep' : ''} (${sourceCite({ papers: [...papers] }, p.source)})`;
              if (p.kind === 'point')
                return (
                  <path key={p.key} d={diamond(p.px0, p.py, frame.diamond)} className="paper-point" stroke={l.color} data-paper-key={p.key} data-paper-value={p.value}>
                    <title>{title}</title>
                  </path>
                );
              return (
                <g key={p.key} className={p.kind === 'range' ? 'paper-range' : 'paper-level'} stroke={l.color} data-paper-key={p.key} data-paper-value={p.value}>
                  <title>{title}</title>
                  <line x1={p.px0} x2={p.px1} y1={p.py} y2={p.py} />
                  {p.kind === 'range' && (
                    <>
                      <path d={diamond(p.px0, p.py, frame.rangeDiamond)} className="paper-point" />
                      <path d={diamond(p.px1, p.py, frame.rangeDiamond)} className="paper-point" />
                    </>
                  )}
                </g>
              );
            })}
          </g>
          {/* the student's sketch (predict, then run) */}
          {model.sketch && sketchLine && (
            <SketchLayer
              sketch={model.sketch}
              line={sketchLine}
              axis={lab.sweep.axis}
              metric={plan.metric}
              y={model.y}
              plot={{ x0, x1, yTop, yBottom }}
              lineWidth={lineWidth}
              radius={Math.sqrt(frame.markArea / Math.PI)}
              onMove={sketch?.onMove}
            />
          )}
          {/* simulated marks: each opens its run */}
          <g className="lab-marks" onKeyDown={onKeyDown}>
            {focusable.map((m, i) => {
              const l = lineById.get(m.line)!;
              const { label, cx, cy } = markPlace(m);
              return (
                <a
                  key={keyOf(m)}
                  ref={(el) => {
                    if (el) markRefs.current.set(keyOf(m), el);
                    else markRefs.current.delete(keyOf(m));
                  }}
                  href={drillHref(m.runs[0])}
                  className="mark"
                  tabIndex={i === activeIdx ? 0 : -1}
                  aria-label={`${label}. ${m.runs.length > 1 ? 'Choose a run to open in the lab page' : 'Open this run in the lab page'}`}
                  aria-haspopup={m.runs.length > 1 ? 'dialog' : undefined}
                  onFocus={() => {
                    setActive(i);
                    setFocusedKey(keyOf(m));
                  }}
                  onBlur={() => setFocusedKey(null)}
                  onClick={(e) => open(m, e)}
                  data-series={l.series}
                  data-line={m.line}
                  data-x={JSON.stringify(m.x)}
                  data-y={m.mean === null ? '' : String(m.mean)}
                  data-runs={JSON.stringify(m.runs)}
                >
                  <title>{label}</title>
                  <path
                    d={symbolPath(l.symbol, model.bars ? frame.barMarkArea : frame.markArea)}
                    transform={`translate(${cx},${model.bars ? cy - 2 * frame.cap : cy})`}
                    fill={l.hollow ? undefined : l.color}
                    className={l.hollow ? 'hollow' : undefined}
                    stroke={l.color}
                    strokeWidth={1.6}
                  />
                  {model.bars && m.mean === null && (
                    <text x={cx} y={cy - 4 * frame.cap} textAnchor="middle" className="never-label">
                      never
                    </text>
                  )}
                </a>
              );
            })}
          </g>
        </svg>
        {readout && (
          <div className="lab-mark-readout" style={{ left: readout.x, top: readout.y }} aria-hidden="true" data-testid="mark-readout">
            {readout.text}
          </div>
        )}
        {chooser && (
          <RunChooser
            lab={lab}
            mark={chooser}
            line={lineById.get(chooser.line)!}
            metric={plan.metric}
            points={points}
            drillHref={drillHref}
            onClose={() => {
              const k = keyOf(chooser);
              setChooser(null);
              markRefs.current.get(k)?.focus();
            }}
          />
        )}
      </div>
      <p id={`${uid}-help`} className="sr-only">
        Use the arrow keys to move between points; Enter opens the run in the lab page.
      </p>
      <Legend
        lines={allLines.filter((l) => hidden.has(l.series) || model.seriesIds.includes(l.id) || model.bars)}
        hasPaper={model.paper.length > 0}
        hasBars={hasBars}
        paperLines={paperLines}
        picker={allSeries.length > 3 ? { hidden, toggle: toggleSeries } : null}
        bandNote={band && model.bands.length > 0 ? bandLegendText(band.unknowns) : null}
        sketch={sketchLine && model.sketch && model.sketch.points.length > 0 ? sketchLine : null}
      />
      <ChartDataTable lab={lab} model={model} metric={plan.metric} title={plan.title} points={points} paper={model.paper} drillHref={drillHref} lineById={lineById} cellOf={cellOf} bandWords={bandWords} endLabels={band?.endLabels ?? []} />
    </figure>
  );
}

function diamond(x: number, y: number, r: number): string {
  return `M${x},${y - r}L${x + r},${y}L${x},${y + r}L${x - r},${y}Z`;
}

interface SeriesPicker {
  hidden: ReadonlySet<string>;
  toggle(series: string): void;
}

/** The legend; with many series each entry is a toggle that shows or hides its series (all of its lines). */
function Legend(props: { lines: LineDef[]; hasPaper: boolean; hasBars: boolean; paperLines: Set<string>; picker: SeriesPicker | null; bandNote: string | null; sketch: LineDef | null }) {
  const { lines, hasPaper, hasBars, paperLines, picker, bandNote, sketch } = props;
  const swatch = (l: LineDef) => (
    <svg width="30" height="14" viewBox="0 0 30 14" aria-hidden="true">
      <line x1="1" x2="29" y1="7" y2="7" stroke={l.color} strokeWidth="2" strokeDasharray={l.dash} />
      <path d={symbolPath(l.symbol, 40)} transform="translate(15,7)" fill={l.hollow ? undefined : l.color} className={l.hollow ? 'hollow' : undefined} stroke={l.color} strokeWidth="1.5" />
    </svg>
  );
  return (
    <ul className={picker ? 'lab-legend picker' : 'lab-legend'} aria-label={picker ? 'Legend: click a series to hide or show it' : 'Legend'}>
      {lines.map((l) => (
        <li key={l.id} className="legend-item" data-line={l.id} data-hidden={picker?.hidden.has(l.series) ? '1' : undefined}>
          {picker ? (
            <button type="button" className="legend-toggle" aria-pressed={!picker.hidden.has(l.series)} onClick={() => picker.toggle(l.series)}>
              {swatch(l)}
              {l.label}
            </button>
          ) : (
            <>
              {swatch(l)}
              {l.label}
            </>
          )}
          {paperLines.has(l.id) ? <span className="sr-only"> (with paper values)</span> : null}
        </li>
      ))}
      {hasPaper && (
        <li className="legend-item">
          <svg width="16" height="14" viewBox="0 0 16 14" aria-hidden="true">
            <path d={diamond(8, 7, 5)} className="paper-point" stroke="currentColor" />
          </svg>
          paper’s value (a line: over a range of the sweep)
        </li>
      )}
      {hasBars && (
        <li className="legend-item">
          <svg width="12" height="14" viewBox="0 0 12 14" aria-hidden="true">
            <line x1="6" x2="6" y1="1" y2="13" stroke="#46566a" />
            <line x1="2" x2="10" y1="1" y2="1" stroke="#46566a" />
            <line x1="2" x2="10" y1="13" y2="13" stroke="#46566a" />
          </svg>
          min–max over seeds
        </li>
      )}
      {sketch && (
        <li className="legend-item sketch-note" data-sketch-note="">
          <svg width="30" height="14" viewBox="0 0 30 14" aria-hidden="true">
            <line x1="1" x2="29" y1="7" y2="7" stroke={sketch.color} strokeWidth="2" strokeDasharray="7 5" />
            <circle cx="15" cy="7" r="3.5" className="sketch-point" stroke={sketch.color} />
          </svg>
          your sketch of {sketch.label}
        </li>
      )}
      {bandNote && (
        <li className="legend-item band-note" data-band-note="">
          <svg width="22" height="14" viewBox="0 0 22 14" aria-hidden="true">
            <rect x="1" y="2" width="20" height="10" className="band-swatch" />
          </svg>
          {bandNote}
        </li>
      )}
    </ul>
  );
}

function RunChooser(props: {
  lab: Lab;
  mark: DrawnMark;
  line: LineDef;
  metric: ResultChartProps['plan']['metric'];
  points: readonly SweepPoint[];
  drillHref: (index: number) => string;
  onClose: () => void;
}) {
  const { lab, mark, line, metric, drillHref, onClose } = props;
  const info = METRICS[metric];
  const uid = useId();
  const firstLink = useRef<HTMLAnchorElement>(null);
  useEffect(() => firstLink.current?.focus(), []);
  return (
    <div
      className="run-chooser"
      role="dialog"
      aria-labelledby={`${uid}-t`}
      data-testid="run-chooser"
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.stopPropagation();
          onClose();
        }
      }}
    >
      <p id={`${uid}-t`} className="run-chooser-title">
        {line.label} at {formatX(lab.sweep.axis, mark.x)}: {mark.runs.length} runs
      </p>
      <ul>
        {mark.runs.map((idx, k) => (
          <li key={idx}>
            <a href={drillHref(idx)} ref={k === 0 ? firstLink : undefined} data-point-index={idx}>
              Seed {mark.seeds[k]}: {withUnit(mark.values[k], info.unit)}
            </a>
          </li>
        ))}
      </ul>
      <button type="button" className="small" onClick={onClose}>
        Close
      </button>
    </div>
  );
}

function ChartDataTable(props: {
  lab: Lab;
  model: ResultChartModel;
  metric: ResultChartProps['plan']['metric'];
  title: string;
  points: readonly SweepPoint[];
  paper: ResultChartModel['paper'];
  drillHref: (index: number) => string;
  lineById: Map<string, LineDef>;
  cellOf: ReadonlyMap<string, BandCell>;
  bandWords: string;
  endLabels: readonly string[];
}) {
  const { lab, model, metric, title, drillHref, lineById, cellOf, bandWords, endLabels } = props;
  const banded = cellOf.size > 0;
  const info = METRICS[metric];
  // Lines with no value for this metric (Standard TCP's share of a pair without Standard TCP) are not drawn, nor listed;
  // a time never reached is a value ("never reached").
  const rows = model.marks.filter((m) => m.runs.length > 0 && (m.mean !== null || metric === 'time_to_max_rate_s'));
  const multi = rows.some((m) => m.runs.length > 1);
  const paperAt = (m: DrawnMark): string => {
    const x = typeof m.x === 'number' ? m.x : null;
    const vals = props.paper.filter(
      (p) => p.line === m.line && (p.kind === 'all' || (x !== null && p.kind === 'point' && Math.abs(p.x! - x) < 1e-9 * Math.max(1, x)) || (x !== null && p.kind === 'range' && x >= p.x0! && x <= p.x1!)),
    );
    // A value the paper gives at this point and over a range around it reads once.
    return [...new Set(vals.map((p) => withUnit(p.value, info.unit)))].join(', ');
  };
  return (
    <details className="chart-table lab-table">
      <summary>Data table</summary>
      {/* Scrolls inside its box on a narrow screen, as the paper table does, instead of widening the page. */}
      <div className="table-scroll" tabIndex={0} role="region" aria-label={`${title}: data table`}>
        <table>
          <caption>{title}: simulated values (one row per line and swept value) beside the paper’s</caption>
          <thead>
            <tr>
              <th scope="col">Series</th>
              <th scope="col">{lab.sweep.label}</th>
              <th scope="col">Simulated{multi ? ' (mean)' : ''}</th>
              {multi && <th scope="col">Min – max</th>}
              {banded && <th scope="col">At the ends of {bandWords}</th>}
              <th scope="col">Paper</th>
              <th scope="col">Runs (open in the lab page)</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((m) => (
              <tr key={`${m.line}@${m.xKey}`} data-line={m.line} data-x={JSON.stringify(m.x)}>
                <th scope="row">{lineById.get(m.line)?.label}</th>
                <td>{formatX(lab.sweep.axis, m.x)}</td>
                <td>{m.mean === null ? (metric === 'time_to_max_rate_s' ? 'never reached' : '—') : withUnit(m.mean, info.unit)}</td>
                {multi && <td>{m.runs.length > 1 ? `${formatValue(m.min, info.unit)} – ${formatValue(m.max, info.unit)}` : ''}</td>}
                {banded && <td>{bandCellText(cellOf.get(cellKey(m.line, m.xKey)), endLabels, info.unit)}</td>}
                <td>{paperAt(m)}</td>
                <td>
                  {m.runs.map((idx, k) => (
                    <a key={idx} href={drillHref(idx)} className="run-link">
                      seed {m.seeds[k]}
                    </a>
                  ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}

function bandCellText(c: BandCell | undefined, labels: readonly string[], unit: string): string {
  return c ? endsText(c, labels, unit) : '';
}
