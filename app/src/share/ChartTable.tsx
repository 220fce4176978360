// Accessible alternatives for a chart: a one-paragraph text summary (read by
// screen readers in place of the drawing) and a data table in a <details>.

import { useId, useMemo } from 'react';
import { isMeasured, type ChartSpec } from '../charts/specs';
import { firstOf, TABLE_SERIES_MAX } from '../lab/manyFlows';

export interface TableColumn {
  label: string;
  values: ArrayLike<number>;
}

export interface ChartTableProps {
  /** Chart title ("Congestion window"). */
  title: string;
  xLabel: string;
  x: ArrayLike<number>;
  columns: TableColumn[];
  /** Most rows shown (evenly spaced samples; the last sample always included). */
  maxRows?: number;
  /** Series of the chart not in `columns` (a run with many flows, lab/manyFlows.ts). */
  moreSeries?: number;
  /** Number formatting for the cells. */
  format?: (v: number) => string;
  testId?: string;
}

const defaultFormat = (v: number) => (Number.isFinite(v) ? (Math.abs(v) >= 1000 ? v.toFixed(0) : Number(v.toPrecision(4)).toString()) : '—');

/** Row indices for at most `max` evenly spaced rows of `n`, ending with n − 1. */
export function tableRows(n: number, max: number): number[] {
  if (n <= 0) return [];
  if (n <= max) return Array.from({ length: n }, (_, i) => i);
  const out: number[] = [];
  const step = (n - 1) / (max - 1);
  for (let i = 0; i < max; i++) out.push(Math.round(i * step));
  return [...new Set(out)];
}

function range(values: ArrayLike<number>): [number, number] | null {
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (Number.isFinite(v)) {
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
  }
  return lo <= hi ? [lo, hi] : null;
}

/**
 * A chart's main series (those drawn for the previous run too) as table
 * columns in the display unit, samples [0, count): the first
 * TABLE_SERIES_MAX of them, and how many more the chart draws. A column per
 * flow of a 4 096-flow run made tables of half a million cells, rebuilt on
 * every frame of the run (issue 28).
 */
export function chartTableColumns(spec: ChartSpec, count: number, max = TABLE_SERIES_MAX): { columns: TableColumn[]; more: number } {
  const main = spec.series.filter((s) => s.main && typeof s.y !== 'number');
  const { shown, more } = firstOf(main, max);
  const columns = shown.map((s) => {
    const y = s.y as Float64Array;
    const f = (s.scale ?? 1) * spec.yFactor;
    const values = new Float64Array(count);
    for (let i = 0; i < count; i++) values[i] = isMeasured(s, i) ? y[i] * f : NaN;
    return { label: `${s.label} (${spec.unit})`, values };
  });
  return { columns, more };
}

/** "Congestion window over 0–20 s: flow 0 from 2 to 512 (mean 301), …" (and "N more series" when `moreSeries`). */
export function chartSummaryText(title: string, xLabel: string, x: ArrayLike<number>, columns: TableColumn[], format = defaultFormat, moreSeries = 0): string {
  const xr = range(x);
  if (!xr || columns.length === 0) return `${title}: no data yet.`;
  const parts = columns.map((c) => {
    const r = range(c.values);
    if (!r) return `${c.label}: no values`;
    let sum = 0;
    let n = 0;
    for (let i = 0; i < c.values.length; i++) {
      const v = c.values[i];
      if (Number.isFinite(v)) {
        sum += v;
        n++;
      }
    }
    return `${c.label} between ${format(r[0])} and ${format(r[1])} (mean ${format(sum / n)})`;
  });
  const more = moreSeries > 0 ? `; ${moreSeries} more series (in the series CSV export)` : '';
  return `${title}, ${x.length} samples over ${xLabel} ${format(xr[0])} to ${format(xr[1])}: ${parts.join('; ')}${more}.`;
}

export function ChartTable({ title, xLabel, x, columns, maxRows = 200, moreSeries = 0, format = defaultFormat, testId }: ChartTableProps) {
  const id = useId();
  const rows = useMemo(() => tableRows(x.length, maxRows), [x, maxRows]);
  const summary = useMemo(() => chartSummaryText(title, xLabel, x, columns, format, moreSeries), [title, xLabel, x, columns, format, moreSeries]);
  const notes = [rows.length < x.length ? `${rows.length} of ${x.length} samples` : '', moreSeries > 0 ? `the first ${columns.length} of ${columns.length + moreSeries} series` : ''].filter(Boolean);
  return (
    <div className="chart-a11y" data-testid={testId}>
      <p className="sr-only" id={`${id}-summary`} data-chart-summary="">
        {summary}
      </p>
      <details className="chart-table">
        <summary>Data table{notes.length ? ` (${notes.join('; ')})` : ''}</summary>
        <div className="chart-table-scroll" tabIndex={0} role="region" aria-label={`${title} data table`}>
          <table>
            <caption>{title}</caption>
            <thead>
              <tr>
                <th scope="col">{xLabel}</th>
                {columns.map((c) => (
                  <th key={c.label} scope="col">
                    {c.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r}>
                  <th scope="row">{format(x[r])}</th>
                  {columns.map((c) => (
                    <td key={c.label}>{format(c.values[r])}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </div>
  );
}
