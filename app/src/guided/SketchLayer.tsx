// The student's sketch on a result chart (predict, then run): before the
// runs, points on the chart's empty axes that can be dragged (mouse, touch)
// or moved with the keyboard (each point is a slider: ↑/↓ move it a step,
// Page Up/Down five, ←/→ select the neighbouring point, Home/End the first
// and last); once results are in, the same curve drawn dashed beside the
// simulated line. Pushing a point past the top of the axis grows the axis.

import { useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import type { Axis, ChartMetric } from '../engine/generated/labs';
import type { DrawnSketch, LineDef, YScale } from './chartData';
import { formatX, METRICS, withUnit } from './format';
import { sketchStep } from './prediction';

export interface SketchLayerProps {
  sketch: DrawnSketch;
  line: LineDef;
  axis: Axis;
  metric: ChartMetric;
  y: YScale;
  /** The plot's box, px. */
  plot: { x0: number; x1: number; yTop: number; yBottom: number };
  lineWidth: number;
  /** Radius of a point, px. */
  radius: number;
  /** While predicting: move point i (its index in the sketch's values) to a value. */
  onMove?: (i: number, value: number) => void;
}

export function SketchLayer({ sketch, line, axis, metric, y, plot, lineWidth, radius, onMove }: SketchLayerProps) {
  const editable = onMove !== undefined;
  const unit = METRICS[metric].unit;
  const [selected, setSelected] = useState(0);
  const refs = useRef(new Map<number, SVGCircleElement>());
  const dragging = useRef<number | null>(null);
  const sel = Math.min(selected, Math.max(0, sketch.points.length - 1));
  const top = y.domain[1];
  const step = sketchStep(top);
  const values = JSON.stringify(sketch.points.slice().sort((a, b) => a.i - b.i).map((p) => p.value));

  const select = (k: number) => {
    const p = sketch.points[k];
    if (!p) return;
    setSelected(k);
    refs.current.get(p.i)?.focus();
  };

  const onKeyDown = (e: KeyboardEvent<SVGGElement>) => {
    if (!onMove) return;
    const p = sketch.points[sel];
    if (!p) return;
    let handled = true;
    if (e.key === 'ArrowUp') onMove(p.i, p.value + step);
    else if (e.key === 'ArrowDown') onMove(p.i, p.value - step);
    else if (e.key === 'PageUp') onMove(p.i, p.value + 5 * step);
    else if (e.key === 'PageDown') onMove(p.i, p.value - 5 * step);
    else if (e.key === 'ArrowRight') select(Math.min(sketch.points.length - 1, sel + 1));
    else if (e.key === 'ArrowLeft') select(Math.max(0, sel - 1));
    else if (e.key === 'Home') select(0);
    else if (e.key === 'End') select(sketch.points.length - 1);
    else handled = false;
    if (handled) {
      e.preventDefault();
      e.stopPropagation();
    }
  };

  const valueAt = (e: PointerEvent<SVGElement>) => {
    const svg = (e.currentTarget as SVGElement).ownerSVGElement;
    const box = svg?.getBoundingClientRect();
    return box ? y.invert(e.clientY - box.top) : NaN;
  };
  const nearest = (e: PointerEvent<SVGElement>) => {
    const svg = (e.currentTarget as SVGElement).ownerSVGElement;
    const box = svg?.getBoundingClientRect();
    if (!box) return 0;
    const px = e.clientX - box.left;
    let best = 0;
    sketch.points.forEach((p, k) => {
      if (Math.abs(p.px - px) < Math.abs(sketch.points[best].px - px)) best = k;
    });
    return best;
  };
  const onPointerDown = (e: PointerEvent<SVGElement>) => {
    if (!onMove || sketch.points.length === 0 || e.button !== 0) return;
    e.preventDefault();
    const k = nearest(e);
    dragging.current = k;
    (e.currentTarget as Element).setPointerCapture?.(e.pointerId);
    select(k);
    onMove(sketch.points[k].i, valueAt(e));
  };
  const onPointerMove = (e: PointerEvent<SVGElement>) => {
    if (!onMove || dragging.current === null) return;
    const p = sketch.points[dragging.current];
    if (p) onMove(p.i, valueAt(e));
  };
  const onPointerUp = (e: PointerEvent<SVGElement>) => {
    dragging.current = null;
    (e.currentTarget as Element).releasePointerCapture?.(e.pointerId);
  };

  return (
    <g
      className={editable ? 'lab-sketch editing' : 'lab-sketch'}
      data-testid="prediction-sketch"
      data-sketch-line={sketch.line}
      data-sketch-values={values}
      data-editable={editable ? 'true' : 'false'}
      role={editable ? 'group' : undefined}
      aria-label={editable ? `Your sketch of ${line.label}: drag a point, or use the arrow keys (up and down move the point, left and right choose another)` : undefined}
      aria-hidden={editable ? undefined : true}
      onKeyDown={onKeyDown}
    >
      {editable && (
        <rect
          className="sketch-surface"
          x={plot.x0}
          y={plot.yTop}
          width={Math.max(0, plot.x1 - plot.x0)}
          height={Math.max(0, plot.yBottom - plot.yTop)}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerCancel={onPointerUp}
        />
      )}
      {sketch.d && <path d={sketch.d} className="sketch-line" fill="none" stroke={line.color} strokeWidth={lineWidth} strokeDasharray="7 5" data-sketch-path="" />}
      {sketch.points.map((p, k) => {
        const text = `${withUnit(p.value, unit)}`;
        return (
          <circle
            key={p.i}
            ref={(el) => {
              if (el) refs.current.set(p.i, el);
              else refs.current.delete(p.i);
            }}
            cx={p.px}
            cy={p.py}
            r={editable ? radius * 1.4 : radius}
            className="sketch-point"
            stroke={line.color}
            data-sketch-index={p.i}
            data-x={JSON.stringify(p.x)}
            data-value={p.value}
            role={editable ? 'slider' : undefined}
            tabIndex={editable ? (k === sel ? 0 : -1) : undefined}
            aria-label={editable ? `Your sketch of ${line.label} at ${formatX(axis, p.x)}` : undefined}
            aria-orientation={editable ? 'vertical' : undefined}
            aria-valuemin={editable ? 0 : undefined}
            aria-valuemax={editable ? top : undefined}
            aria-valuenow={editable ? p.value : undefined}
            aria-valuetext={editable ? text : undefined}
            data-selected={editable && k === sel ? '' : undefined}
            onFocus={() => setSelected(k)}
            onPointerDown={editable ? onPointerDown : undefined}
            onPointerMove={editable ? onPointerMove : undefined}
            onPointerUp={editable ? onPointerUp : undefined}
            onPointerCancel={editable ? onPointerUp : undefined}
          >
            {!editable && <title>{`Your sketch at ${formatX(axis, p.x)}: ${text}`}</title>}
          </circle>
        );
      })}
    </g>
  );
}
