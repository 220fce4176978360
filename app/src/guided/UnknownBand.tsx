// The control that runs the band of a lab's stated unknowns (bandStore.ts)
// on request, with its progress and status in words; the result charts
// draw the band once its runs are in.

import { useEffect, useId, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import type { Lab } from '../engine/generated/labs';
import { bandButtonText, valueText } from './bandData';
import { BandStore, type BandSnapshot } from './bandStore';
import type { LabsEnv } from './env';
import type { ChartBand } from './ResultChart';

const IDLE: BandSnapshot = { state: 'idle', ends: [], current: null, done: 0, total: 0, failed: 0, message: null };
const noSubscribe = () => () => {};
const idle = () => IDLE;

/** The lab's band store (null for a lab without stated unknowns), disposed when the lab is left. */
export function useBandStore(lab: Lab, quick: boolean, env: LabsEnv): { store: BandStore | null; snap: BandSnapshot; chart: ChartBand | null } {
  const [store, setStore] = useState<BandStore | null>(null);
  useEffect(() => {
    if (lab.unknowns.length === 0) {
      setStore(null);
      return;
    }
    const s = new BandStore(lab, quick, { service: env.service, pool: env.pool });
    setStore(s);
    return () => s.dispose();
  }, [lab, quick, env]);
  const snap = useSyncExternalStore(store?.subscribe ?? noSubscribe, store?.getSnapshot ?? idle);
  const { state, ends } = snap;
  const chart = useMemo(
    () => {
      if (!lab.unknowns.length) return null;
      const done = ends.filter((e) => e.aggregates);
      // Each finished end named by its value ("295 packets"), as the table and the marks' labels read it.
      const endLabels = done.map((e) => {
        const u = lab.unknowns.find((x) => x.id === e.unknown);
        return u ? valueText(u, e.value) : String(e.value);
      });
      return { state, unknowns: lab.unknowns, ends: done.map((e) => e.aggregates!), endLabels };
    },
    [lab.unknowns, state, ends],
  );
  return { store, snap, chart };
}

interface BandControlProps {
  lab: Lab;
  quick: boolean;
  store: BandStore;
  snap: BandSnapshot;
  /** Runs in the lab's sweep at this scale. */
  points: number;
  /** The lab's own sweep has results to draw the band around. */
  anyResults: boolean;
  /** Why it cannot start now (another sweep holds the workers), or null. */
  blocked: string | null;
}

export function BandControl({ lab, quick, store, snap: s, points, anyResults, blocked }: BandControlProps) {
  const statusId = useId();
  const running = s.state === 'running';
  // The button pressed disables itself: keyboard focus moves on to Cancel rather than being lost.
  const cancelRef = useRef<HTMLButtonElement>(null);
  const pressed = useRef(false);
  useEffect(() => {
    if (running && pressed.current) cancelRef.current?.focus();
    pressed.current = false;
  }, [running]);
  const start = () => {
    pressed.current = true;
    void store.run();
  };
  const sweeps = 2 * lab.unknowns.length;
  const missing = s.ends.length ? s.ends.filter((e) => e.aggregates === null).length : sweeps;
  const now = s.current !== null ? s.ends[s.current] : null;
  const nowUnknown = now ? lab.unknowns.find((u) => u.id === now.unknown) : undefined;
  let status: string;
  switch (s.state) {
    case 'running':
      status = s.total ? `${s.done} of ${s.total} runs finished${nowUnknown && now ? ` · now: ${nowUnknown.name} at ${valueText(nowUnknown, now.value)}` : ''}${s.failed ? ` · ${s.failed} failed` : ''}` : 'Preparing the band…';
      break;
    case 'done':
      status = `The band is drawn on the charts: ${s.ends.length} sweeps, ${s.total} runs${s.failed ? ` (${s.failed} failed; the band uses the rest)` : ''}.${anyResults ? '' : ' It appears around the lines once the lab’s own sweep has run.'}`;
      break;
    case 'cancelled':
      status = `Cancelled: ${s.ends.length - missing} of ${s.ends.length} sweeps of the band finished. Run again to do the rest.`;
      break;
    case 'error':
      status = s.message ?? 'The band could not be run.';
      break;
    default:
      status = `Runs the ${quick ? 'quick' : 'faithful'} sweep again at each end of the range: ${sweeps} more sweeps, ${sweeps * points} runs.`;
  }
  return (
    <div className="lab-band" data-testid="band-control" data-band-state={s.state}>
      <div className="lab-buttons">
        <button type="button" onClick={start} disabled={running || blocked !== null || missing === 0} aria-describedby={statusId} data-testid="band-run">
          {bandButtonText(lab.unknowns)}
        </button>
        {running && (
          <button type="button" ref={cancelRef} onClick={() => store.cancel()} data-testid="band-cancel">
            Cancel the band
          </button>
        )}
      </div>
      {blocked && !running && missing > 0 && <p className="hint">{blocked}</p>}
      {running && <progress className="lab-progress" max={Math.max(1, s.total)} value={s.done} aria-label="Band progress" aria-valuetext={status} />}
      <p id={statusId} className={s.state === 'error' ? 'lab-status error' : 'lab-status'} role="status" aria-live="polite" data-testid="band-status">
        {status}
      </p>
      <details className="hint">
        <summary>Why a band?</summary>
        {lab.unknowns.map((u) => (
          <p key={u.id}>
            {u.why_unknown} The lines assume {valueText(u, u.assumed)}; the band spans the lowest to the highest value with that and with {valueText(u, u.range[0])} and{' '}
            {valueText(u, u.range[1])}, the ends of the plausible range ({u.range_source}).
          </p>
        ))}
      </details>
    </div>
  );
}
