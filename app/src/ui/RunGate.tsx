// A run that is not going on its own: one held back because it would take
// over a minute here (start it, or make it quicker), or one the user stopped
// (run it to the end). Issue 11.

import { formatDuration } from '../engine/speed';
import type { RunSnapshot } from '../lab/runStore';
import { formatBytesShort, formatCount, quickerRun } from '../lab/runAdvice';

export interface RunGateProps {
  snap: RunSnapshot;
  /** Engine events per second measured here, and whether it is a measurement or the first guess. */
  eventsPerSecond: number;
  measured: boolean;
  onStart(): void;
  onResume(): void;
}

export function RunGate({ snap, eventsPerSecond, measured, onStart, onResume }: RunGateProps) {
  if (snap.state === 'waiting' && snap.held && snap.estimate && snap.estimatedMs !== null) {
    const e = snap.estimate;
    return (
      <div className="run-gate" role="region" aria-label="Long run" data-testid="run-gate" data-state="waiting" data-estimated-ms={Math.round(snap.estimatedMs)}>
        <strong>This run would take {formatDuration(snap.estimatedMs)} on this machine.</strong>
        <p>
          The engine expects about {formatCount(e.engine_events)} events ({formatCount(e.data_packets + e.ack_packets)} packets) and runs about {formatCount(eventsPerSecond)} events a
          second here{measured ? '' : ' (a first guess until a run has been timed in this browser)'}; it will record {formatBytesShort(e.recorded_bytes)} and
          hold at most <span data-testid="run-gate-memory" data-bytes={e.browser_bytes_max}>{formatBytesShort(e.browser_bytes_max)}</span> in this tab's memory (the page's limit is{' '}
          {formatBytesShort(e.browser_budget_bytes)}).
          {snap.series ? ' The last finished run stays on screen until you start this one.' : ''}
        </p>
        <ul>
          {quickerRun(snap.held).map((a) => (
            <li key={a.field} data-field={a.field}>
              {a.text}
            </li>
          ))}
        </ul>
        <button type="button" className="primary" onClick={onStart} data-testid="run-gate-start">
          Run it ({formatDuration(snap.estimatedMs)})
        </button>
      </div>
    );
  }
  if (snap.state === 'stopped' && snap.scenario) {
    const t = snap.series && snap.series.length > 0 ? snap.series.t[snap.series.length - 1] : 0;
    return (
      <div className="run-gate" role="region" aria-label="Stopped run" data-testid="run-gate" data-state="stopped">
        <strong>
          Stopped at {t.toFixed(1)} s of {snap.scenario.duration_ms / 1000} s.
        </strong>{' '}
        What it computed is shown; the summary needs the whole run.{' '}
        <button type="button" onClick={onResume} data-testid="run-gate-resume">
          Run it again to the end
        </button>
      </div>
    );
  }
  return null;
}
