// CSV exports of a run: the sampled series, the events and the summary.
// RFC 4180: comma-separated, CRLF line ends, fields quoted when needed.
// Numbers are written at full precision (JavaScript's shortest exact form);
// NaN (an infinite ssthresh, a flow not started) is written as an empty field.

import type { RunSeries } from '../engine/columns';
import type { EngineEvent, RunSummary } from '../engine/types';

export function csvField(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '';
  const s = String(v);
  // Quote text that a spreadsheet could take as a formula, too (CSV injection).
  const guarded = /^[=+\-@\t\r]/.test(s) && !/^-?\d/.test(s) ? `'${s}` : s;
  return /[",\r\n]/.test(guarded) ? `"${guarded.replace(/"/g, '""')}"` : guarded;
}

function rows(lines: unknown[][]): string {
  return lines.map((l) => l.map(csvField).join(',')).join('\r\n') + '\r\n';
}

/** Column names in the engine's own naming (t_s, f0.cwnd_pkts, …, q.bottleneck_pkts, h0.ifq_pkts). */
export function seriesColumns(series: RunSeries): { name: string; values: Float64Array }[] {
  const cols: { name: string; values: Float64Array }[] = [{ name: 't_s', values: series.t }];
  series.flows.forEach((f, i) => {
    for (const k of Object.keys(f) as (keyof typeof f)[]) cols.push({ name: `f${i}.${k}`, values: f[k] });
  });
  if (series.bottleneck_queue_pkts.length === series.length) cols.push({ name: 'q.bottleneck_pkts', values: series.bottleneck_queue_pkts });
  if (series.bottleneck_delay_ms.length === series.length) cols.push({ name: 'q.bottleneck_delay_ms', values: series.bottleneck_delay_ms });
  series.hosts.forEach((h, i) => cols.push({ name: `h${i}.ifq_pkts`, values: h.ifq_pkts }));
  series.hosts.forEach((h, i) => h.ring_pkts && cols.push({ name: `h${i}.ring_pkts`, values: h.ring_pkts }));
  if (series.probe_rtt_ms.length === series.length && series.length > 0) cols.push({ name: 'probe.rtt_ms', values: series.probe_rtt_ms });
  if (series.link_capacity_bps.length === series.length && series.length > 0) cols.push({ name: 'link.capacity_bps', values: series.link_capacity_bps });
  return cols;
}

export function seriesCsv(series: RunSeries): string {
  const cols = seriesColumns(series);
  const out: unknown[][] = [cols.map((c) => c.name)];
  for (let r = 0; r < series.length; r++) out.push(cols.map((c) => c.values[r]));
  return rows(out);
}

export function eventsCsv(events: readonly EngineEvent[]): string {
  return rows([['t_s', 'flow', 'kind'], ...events.map((e) => [e.t_s, e.flow, e.kind])]);
}

/** The summary as key,value rows: run totals, then per flow and per host. */
export function summaryCsv(summary: RunSummary): string {
  const out: unknown[][] = [['scope', 'index', 'metric', 'value']];
  for (const [k, v] of Object.entries(summary)) {
    if (k === 'flows' || k === 'hosts') continue;
    out.push(['run', '', k, v]);
  }
  summary.flows.forEach((f, i) => {
    for (const [k, v] of Object.entries(f)) if (k !== 'flow') out.push(['flow', f.flow ?? i, k, v]);
  });
  summary.hosts.forEach((h, i) => {
    for (const [k, v] of Object.entries(h)) if (k !== 'host') out.push(['host', h.host ?? i, k, v]);
  });
  return rows(out);
}

/** Parse CSV text (RFC 4180) into rows of strings; for tests and checks. */
export function parseCsv(text: string): string[][] {
  const out: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      out.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || row.length) {
    row.push(field);
    out.push(row);
  }
  return out;
}
