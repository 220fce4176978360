// The run summary: total throughput, utilisation, Jain's index, and per flow
// mean throughput, share, drops, local-congestion events, retransmissions and
// time to 90% of the final rate. Cells carry the engine's raw values
// (data-value) so tests compare them with window.sawtooth.summary().
// The per-flow table sits in its own horizontal scroll box: when its columns
// do not fit (a narrow window), it scrolls there, never the page; the box is
// then a focusable, labelled region so the keyboard can scroll it too.

import { memo, useEffect, useRef, useState, type ReactNode } from 'react';
import { formatMbps } from '../charts/format';
import { flowColor } from '../charts/palette';
import type { RunSummary } from '../engine/types';
import { firstOf, SUMMARY_FLOW_ROWS_MAX } from '../lab/manyFlows';
import { Tip } from './Tip';

const pct = (v: number) => `${(v * 100).toFixed(1)}%`;
const ms = (v: number | null) => (v === null ? '—' : v >= 100 ? v.toFixed(0) : v.toFixed(1));

export const SummaryTable = memo(function SummaryTable({ summary, running }: { summary: RunSummary | null; running: boolean }) {
  return (
    <section className="summary" aria-label="Summary" data-testid="summary">
      {summary?.flags && summary.flags.length > 0 && (
        <div className="run-flags" role="status" data-testid="run-flags">
          <strong>This run went wrong: read its numbers as a warning, not an ordinary result.</strong>
          <ul>
            {summary.flags.map((f, i) => (
              <li key={i} data-kind={f.kind} data-flow={f.flow ?? undefined}>
                {f.text}
              </li>
            ))}
          </ul>
        </div>
      )}
      <div className="big-numbers">
        <div className="big-number">
          <span className="label">Mean throughput</span>
          <span className="value" data-testid="summary-throughput" data-bps={summary ? summary.total_throughput_bps : undefined}>
            {summary ? formatMbps(summary.total_throughput_bps) : '—'}
          </span>
          <span className="unit">Mb/s</span>
        </div>
        <div className="big-number">
          <span className="label">Utilisation</span>
          <span className="value" data-testid="summary-utilisation" data-value={summary?.utilisation}>
            {summary ? pct(summary.utilisation) : '—'}
          </span>
          <span className="unit">of {summary ? formatMbps(summary.capacity_bps, 0) : '—'} Mb/s</span>
        </div>
        <div className="big-number">
          <span className="label">
            Jain’s index <Tip id="jain" />
          </span>
          <span className="value" data-testid="summary-jain" data-value={summary?.jain_index}>
            {summary ? summary.jain_index.toFixed(3) : '—'}
          </span>
        </div>
        <div className="big-number">
          <span className="label">Bottleneck drops</span>
          <span className="value" data-testid="summary-drops" data-value={summary?.bottleneck_drops}>
            {summary ? summary.bottleneck_drops : '—'}
          </span>
        </div>
        {summary?.probe && (
          <div className="big-number" data-testid="summary-probe" data-median={summary.probe.rtt_median_ms ?? undefined} data-p99={summary.probe.rtt_p99_ms ?? undefined}>
            <span className="label">Ping round trip (median / 99th pct.)</span>
            <span className="value">
              {ms(summary.probe.rtt_median_ms)} / {ms(summary.probe.rtt_p99_ms)}
            </span>
            <span className="unit">
              ms · {summary.probe.received} of {summary.probe.sent} back{summary.probe.lost > 0 ? `, ${summary.probe.lost} lost` : ''}
            </span>
          </div>
        )}
      </div>
      {running && !summary && <p className="muted">The summary appears when the run finishes.</p>}
      {summary && summary.flows.length > 0 && (
        <ScrollBox label="Per-flow results">
          <table className="flows-table" data-testid="summary-table">
            <caption className="sr-only">Per-flow results</caption>
            <thead>
              <tr>
                <th scope="col">flow</th>
                <th scope="col">algorithm</th>
                <th scope="col">mean Mb/s</th>
                <th scope="col">share</th>
                <th scope="col">drops</th>
                <th scope="col">
                  local congestion <Tip id="local_congestion" />
                </th>
                <th scope="col">retransmits</th>
                <th scope="col">retx rate</th>
                <th scope="col">fast rtx / timeouts</th>
                <th scope="col">time to 90%</th>
              </tr>
            </thead>
            <tbody>
              {firstOf(summary.flows, SUMMARY_FLOW_ROWS_MAX).shown.map((f) => (
                <tr key={f.flow} data-testid={`summary-flow-${f.flow}`}>
                  <th scope="row">
                    <span className="flow-dot" style={{ background: flowColor(f.flow) }} aria-hidden="true" /> {f.flow}
                  </th>
                  <td className="left">{f.algorithm}</td>
                  <td data-field="mean_throughput_bps" data-value={f.mean_throughput_bps}>
                    {formatMbps(f.mean_throughput_bps)}
                  </td>
                  <td data-field="share" data-value={f.share}>
                    {pct(f.share)}
                  </td>
                  <td data-field="drops" data-value={f.drops}>
                    {f.drops}
                  </td>
                  <td data-field="local_congestion_events" data-value={f.local_congestion_events}>
                    {f.local_congestion_events}
                  </td>
                  <td data-field="retransmits" data-value={f.retransmits}>
                    {f.retransmits}
                  </td>
                  <td data-field="retransmission_rate" data-value={f.retransmission_rate}>
                    {(f.retransmission_rate * 100).toFixed(3)}%
                  </td>
                  <td data-field="fast_retransmits" data-value={f.fast_retransmits}>
                    {f.fast_retransmits} / {f.timeouts}
                  </td>
                  <td data-field="time_to_90pct_s" data-value={f.time_to_90pct_s ?? ''}>
                    {f.time_to_90pct_s === null ? '—' : `${f.time_to_90pct_s.toFixed(2)} s`}
                  </td>
                </tr>
              ))}
            </tbody>
            {summary.flows.length > SUMMARY_FLOW_ROWS_MAX && (
              <tfoot>
                <tr className="more-flows">
                  <td colSpan={10} className="left muted">
                    The first {SUMMARY_FLOW_ROWS_MAX} of {summary.flows.length} flows; the summary CSV export has every flow.
                  </td>
                </tr>
              </tfoot>
            )}
          </table>
        </ScrollBox>
      )}
    </section>
  );
});

/** A horizontal scroll box; focusable (and a named region) only while its content overflows it. */
function ScrollBox({ label, children }: { label: string; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const [overflows, setOverflows] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const check = () => setOverflows(el.scrollWidth > el.clientWidth + 1);
    check();
    if (typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(check);
    ro.observe(el);
    if (el.firstElementChild) ro.observe(el.firstElementChild);
    return () => ro.disconnect();
  }, []);
  return (
    <div
      ref={ref}
      className="table-scroll"
      data-overflows={overflows ? 'true' : undefined}
      {...(overflows ? { tabIndex: 0, role: 'region', 'aria-label': label } : {})}
    >
      {children}
    </div>
  );
}
