// A time-series line chart: SVG axes and one SVG path per line. All the math
// (scales, decimation, paths, tick labels) is in the tested modules beside
// this file; this component only renders.

import { useMemo, useRef } from 'react';
import { decimateMinMax } from './decimate';
import { formatTick } from './format';
import { linePath } from './path';
import { extentOf, innerSize, linearScale, niceDomain, type Margin } from './scale';
import { useElementWidth } from './useElementWidth';

export interface LineSpec {
  key: string;
  label: string;
  color: string;
  y: Float64Array;
  dashed?: boolean;
}

export interface LineChartProps {
  testId: string;
  title: string;
  yLabel: string;
  xLabel?: string;
  x: Float64Array;
  lines: LineSpec[];
  /** Fixed x range (the run's duration), so the chart fills as the run goes. */
  xDomain: [number, number];
  /** Multiply y values by this for display (bits → megabits). */
  yFactor?: number;
  height?: number;
}

const MARGIN: Margin = { top: 12, right: 16, bottom: 40, left: 64 };

export function LineChart({ testId, title, yLabel, xLabel = 'time (s)', x, lines, xDomain, yFactor = 1, height = 240 }: LineChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const width = useElementWidth(box);
  const inner = innerSize(width, height, MARGIN);

  const model = useMemo(() => {
    const n = x.length;
    const ext = extentOf(lines.map((l) => l.y), n);
    const yDom = niceDomain(ext ? [ext[0] * yFactor, ext[1] * yFactor] : null);
    const sx = linearScale(xDomain, [0, inner.width]);
    const sy = linearScale(yDom, [inner.height, 0]);
    const paths = lines.map((l) => {
      const d = decimateMinMax(x, l.y, { x0: xDomain[0], x1: xDomain[1], pixels: inner.width, count: n });
      if (yFactor !== 1) for (let i = 0; i < d.length; i++) d.y[i] *= yFactor;
      return { key: l.key, color: l.color, dashed: l.dashed, d: linePath(d, sx, sy), points: d.length };
    });
    const xTickCount = Math.max(2, Math.floor(inner.width / 80));
    const yTickCount = Math.max(2, Math.floor(inner.height / 40));
    const xStep = sx.tickStep(xTickCount);
    const yStep = sy.tickStep(yTickCount);
    return {
      sx,
      sy,
      paths,
      xTicks: sx.ticks(xTickCount).map((v) => ({ v, px: sx(v), label: formatTick(v, xStep) })),
      yTicks: sy.ticks(yTickCount).map((v) => ({ v, px: sy(v), label: formatTick(v, yStep) })),
    };
  }, [x, lines, xDomain, yFactor, inner.width, inner.height]);

  const clipId = `clip-${testId}`;
  return (
    <figure className="chart" data-testid={testId}>
      <figcaption>
        <span className="chart-title">{title}</span>
        {lines.length > 1 && (
          <span className="legend">
            {lines.map((l) => (
              <span key={l.key} className="legend-item">
                <span className="swatch" style={{ background: l.color }} />
                {l.label}
              </span>
            ))}
          </span>
        )}
      </figcaption>
      <div ref={box} className="chart-box">
        <svg width={width} height={height} role="img" aria-label={title}>
          <defs>
            <clipPath id={clipId}>
              <rect x={0} y={-1} width={inner.width} height={inner.height + 2} />
            </clipPath>
          </defs>
          <g transform={`translate(${MARGIN.left},${MARGIN.top})`}>
            <g className="axis axis-y">
              {model.yTicks.map((t) => (
                <g key={t.v} transform={`translate(0,${t.px})`}>
                  <line className="grid" x1={0} x2={inner.width} />
                  <text x={-8} dy="0.32em" textAnchor="end">
                    {t.label}
                  </text>
                </g>
              ))}
              <text className="axis-label" transform={`translate(${-MARGIN.left + 14},${inner.height / 2}) rotate(-90)`} textAnchor="middle">
                {yLabel}
              </text>
            </g>
            <g className="axis axis-x" transform={`translate(0,${inner.height})`}>
              <line className="domain" x1={0} x2={inner.width} />
              {model.xTicks.map((t) => (
                <g key={t.v} transform={`translate(${t.px},0)`}>
                  <line y2={5} />
                  <text y={18} textAnchor="middle">
                    {t.label}
                  </text>
                </g>
              ))}
              <text className="axis-label" x={inner.width / 2} y={35} textAnchor="middle">
                {xLabel}
              </text>
            </g>
            <g clipPath={`url(#${clipId})`}>
              {model.paths.map((p) => (
                <path
                  key={p.key}
                  className="line"
                  data-series={p.key}
                  data-points={p.points}
                  d={p.d}
                  fill="none"
                  stroke={p.color}
                  strokeWidth={1.5}
                  strokeDasharray={p.dashed ? '4 3' : undefined}
                />
              ))}
            </g>
          </g>
        </svg>
      </div>
    </figure>
  );
}
