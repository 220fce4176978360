import { formatMbps } from '../charts/format';
import type { RunSummary } from '../engine/types';

export function SummaryPanel({ summary, running, progress }: { summary: RunSummary | null; running: boolean; progress: number }) {
  return (
    <section className="summary" aria-label="Summary">
      <div className="big-number">
        <span className="label">Mean throughput</span>
        <span
          className="value"
          data-testid="summary-throughput"
          data-bps={summary ? summary.total_throughput_bps : undefined}
        >
          {summary ? formatMbps(summary.total_throughput_bps) : '—'}
        </span>
        <span className="unit">Mb/s</span>
      </div>
      <div className="run-status" data-testid="run-status" aria-live="polite">
        {running ? `Simulating… ${Math.round(progress * 100)}%` : summary ? 'Done' : ''}
      </div>
      {summary && summary.flows.length > 0 && (
        <table className="flows">
          <thead>
            <tr>
              <th>flow</th>
              <th>algorithm</th>
              <th>Mb/s</th>
              <th>share</th>
              <th>drops</th>
              <th>local congestion</th>
              <th>retransmits</th>
            </tr>
          </thead>
          <tbody>
            {summary.flows.map((f) => (
              <tr key={f.flow}>
                <td>{f.flow}</td>
                <td>{f.algorithm}</td>
                <td>{formatMbps(f.mean_throughput_bps)}</td>
                <td>{(f.share * 100).toFixed(0)}%</td>
                <td>{f.drops}</td>
                <td>{f.local_congestion_events}</td>
                <td>{f.retransmits}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
