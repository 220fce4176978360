// Which mechanism a lab's result depends on: the lab's headline numbers with
// its testbed profile as a whole and with each switch turned back, one at a
// time (the engine's ablation variants, run on the lab's worker pool).

import { useEffect, useState, useSyncExternalStore } from 'react';
import type { AblationVariant, HeadlineValue } from '../engine/generated/ablation';
import type { Lab, PaperValue } from '../engine/generated/labs';
import { AblationStore } from './ablationStore';
import { assumedOutside, rangeText, valueText } from './bandData';
import type { LabsEnv } from './env';
import { formatAt, formatValue, unitSuffix } from './format';
import { quantity, seriesLabel } from './tables';

/** The column heading of a headline value, from its published value where there is one. */
export function headlineHeading(lab: Lab, h: HeadlineValue, paper: readonly PaperValue[]): { title: string; paper: string } {
  const v = h.key ? paper.find((p) => p.key === h.key) : undefined;
  if (!v) return { title: `${seriesLabel(lab, h.series)}: ${quantity(lab, { metric: h.metric, group: null, series: h.series, relation: 'value', relative_to: null })}`, paper: '' };
  const at = v.x !== undefined || v.x_range !== undefined ? ` at ${formatAt(v.x !== undefined ? String(v.x) : `${v.x_range![0]}..${v.x_range![1]}`, lab.sweep)}` : '';
  const title = `${seriesLabel(lab, v.series)}: ${quantity(lab, { metric: v.metric, group: v.group ?? null, series: v.series, relation: v.relation, relative_to: v.relative_to ?? null, relative_to_x: v.relative_to_x ?? null })}${at}`;
  const unit = unitSuffix(h.unit) ? ` ${unitSuffix(h.unit)}` : '';
  const stated = v.value !== undefined ? formatValue(v.value, h.unit) : v.value_range ? `${formatValue(v.value_range[0], h.unit)} to ${formatValue(v.value_range[1], h.unit)}` : '';
  return { title, paper: `paper ${stated}${unit}` };
}

/** A variant in words: the whole profile, a switch turned back, or a stated unknown at one end of its range. */
export function variantText(v: AblationVariant): string {
  return v.index === 0 ? v.label : `${v.label}: ${v.profile_value} → ${v.turned_back_to}`;
}

/** A turned-back value beside the whole profile's: the change in the value's own unit. */
export function changeText(v: number | null, whole: number | null, unit: string): string {
  if (v === null || whole === null) return '';
  const d = v - whole;
  const scale = unit === 'fraction' ? 100 : 1;
  if (Math.abs(d * scale) < 0.05) return 'no change';
  const text = formatValue(Math.abs(d * scale));
  const suffix = unit === 'fraction' || unit === '%' ? ' points' : '';
  return `${d > 0 ? '+' : '−'}${text}${suffix}`;
}

interface PanelProps {
  lab: Lab;
  quick: boolean;
  paper: readonly PaperValue[];
  /** The lab's own sweep, or the band of its unknowns, is running (they share the worker pool). */
  sweepRunning: boolean;
  onRunningChange: (running: boolean) => void;
}

export function AblationPanel({ env, ...props }: PanelProps & { env: LabsEnv }) {
  const { lab, quick } = props;
  const [store, setStore] = useState<AblationStore | null>(null);
  useEffect(() => {
    const s = new AblationStore(lab.id, quick, { service: env.service, pool: env.pool });
    setStore(s);
    void s.load();
    return () => s.dispose();
  }, [lab, quick, env]);
  if (!store) return null;
  return <AblationBody store={store} {...props} />;
}

function AblationBody({ store, lab, quick, paper, sweepRunning, onRunningChange }: PanelProps & { store: AblationStore }) {
  const s = useSyncExternalStore(store.subscribe, store.getSnapshot);
  const running = s.state === 'running' || s.state === 'loading';
  useEffect(() => onRunningChange(running), [running, onRunningChange]);
  const switches = s.variants.filter((v) => v.switch !== null).length;
  const whole = s.rows[0] ?? null;
  const template = s.rows.find((r) => r !== null) ?? null;
  const hasRank = s.rows.some((r) => r?.spearman !== null && r?.spearman !== undefined);
  const missing = s.rows.filter((r) => r === null).length;
  // Columns no finished variant has a value for (an x this scale skips) are left out.
  const shown = template ? template.headline.map((_, i) => i).filter((i) => s.rows.some((r) => r?.headline[i]?.simulated != null)) : [];
  let status: string;
  switch (s.state) {
    case 'running':
    case 'loading':
      status = `${s.done} of ${s.total} runs finished${s.current !== null ? ` · now: ${s.variants[s.current]?.label ?? ''}` : ''}${s.failed ? ` · ${s.failed} failed` : ''}`;
      break;
    case 'done':
      status = `All ${s.variants.length} variants finished${s.failed ? ` (${s.failed} runs failed; their rows use the rest)` : ''}.`;
      break;
    case 'cancelled':
      status = `Cancelled: ${s.variants.length - missing} of ${s.variants.length} variants finished.`;
      break;
    case 'error':
      status = s.message ?? 'The ablation failed.';
      break;
    default:
      status = s.total ? `${s.variants.length} sweeps, ${s.total} runs in all.` : 'Preparing…';
  }
  return (
    <section className="lab-ablation" aria-labelledby="ablation-title" data-testid="ablation-panel" data-state={s.state}>
      <h3 id="ablation-title">Which mechanism does the result depend on?</h3>
      <p className="hint">
        This lab runs on the <code>{lab.base.profile}</code> testbed profile. The ablation runs the {quick ? 'quick' : 'faithful'} sweep once with the profile as a
        whole and once with each of its {switches} switches turned back to the plain model (<code>sawtooth-1</code>), one at a time. A switch whose row moves
        far from the first row is one the result depends on.
      </p>
      {lab.unknowns.length > 0 && (
        <div className="hint" data-testid="stated-unknowns">
          {lab.unknowns.map((u) => (
            <p key={u.id} data-unknown={u.id}>
              <strong>Stated unknown: {u.name}.</strong> {u.why_unknown} The ablation also runs the lab at both ends of the plausible range, {rangeText(u)}, so the rows show the band it spans ({u.range_source})
              {assumedOutside(u) && ` The assumed ${valueText(u, u.assumed)} lies outside that range: it was fixed before the range was derived, and is kept rather than moved to whichever end brings the results closer to the paper.`}
            </p>
          ))}
        </div>
      )}
      {s.variants.length === 1 && (
        <p className="hint" data-testid="ablation-nothing">
          This profile sets every switch as the plain model does, so there is nothing to turn back: the one row is the lab as it runs.
        </p>
      )}
      <div className="lab-buttons">
        <button type="button" onClick={() => void store.run()} disabled={running || sweepRunning || (missing === 0 && s.variants.length > 0)} data-testid="ablation-run">
          {missing > 0 && missing < s.variants.length ? `Run the remaining ${missing} variants` : 'Run the ablation'}
        </button>
        <button type="button" onClick={() => store.cancel()} disabled={!running} data-testid="ablation-cancel">
          Cancel
        </button>
      </div>
      {sweepRunning && !running && <p className="hint">Waits for the lab’s sweep or band to finish (they share the workers).</p>}
      <progress className="lab-progress" max={Math.max(1, s.total)} value={s.done} aria-label="Ablation progress" aria-valuetext={status} />
      <p className="lab-status" role="status" aria-live="polite" data-testid="ablation-status">
        {status}
      </p>
      {template && (
        <div className="table-scroll">
          <table className="ablation-table" data-testid="ablation-table">
            <caption className="sr-only">Headline numbers with the profile as a whole and with each switch turned back</caption>
            <thead>
              <tr>
                <th scope="col">Variant</th>
                {shown.map((i) => {
                  const h = template.headline[i];
                  const head = headlineHeading(lab, h, paper);
                  return (
                    <th scope="col" key={i}>
                      {head.title}
                      {head.paper && <span className="muted small"> ({head.paper})</span>}
                    </th>
                  );
                })}
                <th scope="col">Published values that agree</th>
                <th scope="col">Orderings held</th>
                <th scope="col">Findings held</th>
                {hasRank && <th scope="col">Ranking (Spearman ρ)</th>}
              </tr>
            </thead>
            <tbody>
              {s.variants.map((v) => {
                const r = s.rows[v.index];
                return (
                  <tr key={v.index} data-switch={v.switch ?? (v.unknown ? `unknown:${v.unknown.id}` : 'profile')} className={v.index === 0 ? 'whole' : v.unknown ? 'unknown' : undefined}>
                    <th scope="row">{variantText(r ? r.variant : v)}</th>
                    {shown.map((i) => {
                      const h = template.headline[i];
                      const val = r?.headline[i]?.simulated ?? null;
                      const change = r && v.index !== 0 ? changeText(val, whole?.headline[i]?.simulated ?? null, h.unit) : '';
                      return (
                        <td key={i} className="num" data-value={val ?? ''}>
                          {r ? formatValue(val, h.unit) : ''}
                          {change && <span className="muted small"> ({change})</span>}
                        </td>
                      );
                    })}
                    <td className="num">{r ? `${r.values_within_tolerance} / ${r.values_compared}` : ''}</td>
                    <td className="num">{r ? `${r.orderings_held} / ${r.orderings_total}` : ''}</td>
                    <td className="num">{r ? `${r.findings_held} / ${r.findings_decided}` : ''}</td>
                    {hasRank && <td className="num">{r?.spearman !== null && r?.spearman !== undefined ? r.spearman.toFixed(2) : ''}</td>}
                  </tr>
                );
              })}
            </tbody>
          </table>
          <p className="hint" data-testid="ablation-legend">
            A published value agrees within ±10 %, inside the range the paper states, or, for an effect (a gain or a difference), with the paper’s sign and within a factor of 1.5. An ordering is
            one the paper’s numbers imply (one series above another at a swept value, or a value rising with it); it holds when the simulated numbers keep it. A finding is one of the paper’s
            statements, checked as the lab lists it under “What the paper found”.
          </p>
        </div>
      )}
    </section>
  );
}
