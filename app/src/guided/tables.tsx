// The guided labs' tables: the papers' values beside the simulated ones
// (from the engine's comparison), the [a, b] ranking, the gain of parallel
// streams over Standard TCP, and the points that failed.

import type { Comparison, FindingOutcome, Lab, Paper, PaperValue, PointResult, SweepAggregates, SweepPoint } from '../engine/generated/labs';
import { sourceCite } from './cite';
import { fidelitySummary, seriesIndistinguishable } from './fidelityNote';
import { gainOverStandard, seriesMean } from './chartData';
import { formatAt, formatValue, formatX, METRICS, unitAfter, unitSuffix } from './format';
import type { RankRow } from './protocol';
import type { PointState } from './sweepStore';

export function seriesLabel(lab: Lab, id: string): string {
  return lab.series.find((s) => s.id === id)?.label ?? id;
}

function signed(v: number, text: string): string {
  return v > 0 ? `+${text}` : v < 0 ? `−${text.replace(/^-/, '')}` : text;
}

/** Paper value, simulated value and their difference as display text. */
export function comparisonCells(c: Comparison): { paper: string; simulated: string; difference: string } {
  const fractionUnit = c.unit === 'fraction';
  const percentUnit = c.unit === '%';
  const fmt = (v: number) => (c.unit === 'rank' ? String(Math.round(v * 100) / 100) : formatValue(v, c.unit));
  const unit = unitSuffix(c.unit) ? ` ${unitSuffix(c.unit)}` : '';
  // A value and its unit ("1 packet", "3 packets"); a range whose ends read the same is that one value.
  const valued = (v: number) => `${fmt(v)}${unitAfter(fmt(v), c.unit)}`;
  const rangeText = !c.paper_range
    ? ''
    : fmt(c.paper_range[0]) === fmt(c.paper_range[1])
      ? valued(c.paper_range[0])
      : `${fmt(c.paper_range[0])} to ${valued(c.paper_range[1])}`;
  const paper = c.paper === null ? rangeText : `${valued(c.paper)}${rangeText ? ` (${rangeText})` : ''}`;
  if (c.simulated === null) return { paper, simulated: '', difference: '' };
  const simulated = valued(c.simulated);
  if (c.difference === null || c.paper === null) {
    const inside = c.agreement === 'inside_range';
    return { paper, simulated, difference: inside ? 'inside the paper’s stated range' : 'outside the paper’s stated range' };
  }
  const d = c.difference;
  let difference: string;
  if (fractionUnit) difference = `${signed(d, formatValue(Math.abs(d) * 100))} points`;
  else if (percentUnit) difference = `${signed(d, formatValue(Math.abs(d)))} points`;
  else if (c.unit === 'rank') difference = d === 0 ? 'same place' : `${Math.abs(d)} place${Math.abs(d) === 1 ? '' : 's'} ${d > 0 ? 'lower' : 'higher'}`;
  else {
    difference = `${signed(d, formatValue(Math.abs(d)))}${unit}`;
    if (c.relation === 'value' && c.paper !== 0) difference += ` (${signed(d, formatValue(Math.abs((100 * d) / c.paper)))}%)`;
  }
  if (c.agreement === 'inside_range') difference += ', inside the paper’s stated range';
  else if (c.agreement === 'effect_within_factor') difference += ', the paper’s effect within a factor of 1.5';
  return { paper, simulated, difference };
}

/** What a published value measures, in words (the paper table's first column). */
export function quantity(lab: Lab, c: Pick<Comparison, 'metric' | 'group' | 'series' | 'relation' | 'relative_to'> & { relative_to_x?: number | null }): string {
  const m = METRICS[c.metric];
  let q = c.metric === 'rank' ? 'Rank (combined throughput, ties by Standard TCP’s)' : m.label;
  if (c.group !== null) {
    const flow = lab.series.find((s) => s.id === c.series)?.flows[c.group];
    if (flow) q = `${q}: ${flow.label}`;
  }
  if (c.relation === 'value' || !c.relative_to) return q;
  // An effect across the sweep names the setting it starts from.
  const x = c.relative_to_x ?? null;
  const base =
    x === null ? seriesLabel(lab, c.relative_to) : c.relative_to === c.series ? `${lab.sweep.label} = ${formatX(lab.sweep.axis, x)}` : `${seriesLabel(lab, c.relative_to)} at ${formatX(lab.sweep.axis, x)}`;
  return c.relation === 'difference' ? `${q}, minus ${base}` : `${q}, % change ${x !== null && c.relative_to === c.series ? 'from' : 'over'} ${base}`;
}

/** Below the result charts: said when the series' results are identical, so the charts show one line. */
export function NoCongestionNote(props: { lab: Lab; results: readonly (PointResult | null)[] }) {
  if (props.lab.series.length < 2 || !seriesIndistinguishable(props.results)) return null;
  return (
    <p className="fidelity-note differs" role="note" data-testid="no-congestion-note">
      Every series has given exactly the same result so far: the algorithms they compare have not acted differently in these runs, so their lines lie on
      top of each other. Usually the flows running them have not met a congestion event yet and are still in slow start, where all algorithms grow alike.
    </p>
  );
}

const FINDING_STATUS: Record<FindingOutcome['status'], string> = {
  held: 'held in these runs',
  broken: 'broken in these runs',
  pending: 'waiting for runs',
  not_run_here: 'not run at this scale',
  not_checked: 'not checked',
};

/** Whether the runs on screen bear a finding out, beside the finding, and how the finding's words were read into a check (visible, not a tooltip: keyboard and touch users need it too). */
export function FindingBadge(props: { status: FindingOutcome['status'] | null; note: string | null }) {
  const status = props.status ?? 'pending';
  const rule = (status === 'held' || status === 'broken') && props.note ? props.note : null;
  return (
    <>
      <span className={`finding-status ${status}`} data-testid="finding-status">
        [{FINDING_STATUS[status]}
        {status === 'not_checked' && props.note ? `: ${props.note}` : ''}]
      </span>
      {rule && (
        <span className="finding-rule muted small" data-testid="finding-rule">
          How it is checked: {rule}
        </span>
      )}
    </>
  );
}

/**
 * A quantity's name inside a sentence: its first letter lowercased, unless
 * the first word is a name ("Standard TCP’s share", "BBR’s share", "HighSpeed").
 */
export function sentenceCase(q: string): string {
  const first = q.split(/[\s’']/)[0];
  const isName = /^[A-Z][A-Za-z]* TCP/.test(q) || /[A-Z]/.test(first.slice(1));
  return isName ? q : `${q.charAt(0).toLowerCase()}${q.slice(1)}`;
}

/**
 * "all 9 published values these runs …" / "the one published value …", and
 * "3 of the 9 …" / "the one …" for part of them, in agreement with the count.
 */
export function countOf(total: number, noun: string, tail: string): { one: boolean; all: string; some: (n: number) => string } {
  const one = total === 1;
  return {
    one,
    all: one ? `the one ${noun} ${tail}` : `all ${total} ${noun}s ${tail}`,
    some: (n: number) => (one ? `the one ${noun} ${tail}` : `${n} of the ${total} ${noun}s ${tail}`),
  };
}

/** A broken finding as a plain sentence. */
export function brokenFindingText(f: FindingOutcome): string {
  const found = f.text.replace(/\.$/, '');
  return `The paper found: “${found}.” These runs do not bear it out${f.detail ? ` (${f.detail})` : ''}.`;
}

/** Below the result charts: how the runs so far compare with the paper (values and findings), from the engine. */
export function FidelityNote(props: { lab: Lab; comparisons: Comparison[] | null; findings: FindingOutcome[] | null; anyResults: boolean }) {
  const { lab, comparisons, findings, anyResults } = props;
  if (!anyResults || comparisons === null) return null;
  const s = fidelitySummary(lab, comparisons, findings);
  if (s.compared === 0 && s.findingsDecided === 0) return null;
  const label = (c: Comparison) => {
    const q = quantity(lab, c);
    return `${seriesLabel(lab, c.series)}: ${sentenceCase(q)}, ${formatAt(c.at, lab.sweep)}`;
  };
  const values = s.compared ? countOf(s.compared, 'published value', 'these runs can be compared with') : null;
  const findingsOf = s.findingsDecided ? countOf(s.findingsDecided, 'finding', 'from the paper that these runs decide') : null;
  return (
    <div
      className={s.agrees ? 'fidelity-note' : 'fidelity-note differs'}
      data-testid="fidelity-note"
      data-within={s.within}
      data-compared={s.compared}
      data-findings-decided={s.findingsDecided}
      data-findings-broken={s.broken.length}
      data-agrees={s.agrees}
      role="note"
    >
      {s.agrees ? (
        <p>
          The simulation agrees with the paper here: {[values && `${values.all} ${values.one ? 'agrees' : 'agree'} (within ±10 %, inside the range the paper gives, or the paper’s effect within a factor of 1.5)`, findingsOf && `${findingsOf.all} ${findingsOf.one ? 'holds' : 'hold'}`].filter(Boolean).join(', and ')}.
        </p>
      ) : (
        <>
          <p>
            <strong>
              The simulation differs from the paper here:
              {s.misses.length > 0 && values && ` ${values.some(s.misses.length)} ${s.misses.length === 1 ? 'does' : 'do'} not agree`}
              {s.misses.length > 0 && s.broken.length > 0 && ';'}
              {s.broken.length > 0 && findingsOf && ` ${findingsOf.some(s.broken.length)} ${s.broken.length === 1 ? 'is' : 'are'} broken`}.
            </strong>
          </p>
          {s.broken.length > 0 && (
            <ul data-testid="broken-findings">
              {s.broken.map((f) => (
                <li key={f.id} data-finding={f.id}>
                  {brokenFindingText(f)}
                </li>
              ))}
            </ul>
          )}
          <ul>
            {s.misses.slice(0, 4).map((c) => {
              const cells = comparisonCells(c);
              return (
                <li key={c.key} data-key={c.key}>
                  {label(c)}: simulated {cells.simulated}, paper {cells.paper} ({cells.difference}).
                </li>
              );
            })}
            {s.misses.length > 4 && <li>… and {s.misses.length - 4} more in the table below.</li>}
          </ul>
          {s.missing.length > 0 ? (
            s.missing.map((m, i) => (
              <p key={i}>
                <strong>What the model is still missing:</strong> {m}
              </p>
            ))
          ) : (
            <p>The list “Where the simulator differs from the testbed” at the end of this page names the model’s known differences.</p>
          )}
        </>
      )}
    </div>
  );
}

export function PaperTable(props: { lab: Lab; comparisons: Comparison[] | null; paper: readonly PaperValue[]; papers: readonly Paper[]; anyResults: boolean; running: boolean }) {
  const { lab, comparisons, paper, papers, anyResults, running } = props;
  if (comparisons === null) return <p className="muted">Asking the engine for the paper’s values…</p>;
  if (comparisons.length === 0) return <p className="muted">The papers give no number for this lab; their findings are listed above.</p>;
  const notes = new Map(paper.map((v) => [v.key, v.note]));
  return (
    <div className="table-scroll">
      <table className="lab-table paper-table" data-testid="paper-table">
        <caption>The papers’ published values beside this simulation’s (difference = simulated − paper)</caption>
        <thead>
          <tr>
            <th scope="col">Series</th>
            <th scope="col">Quantity</th>
            <th scope="col">At</th>
            <th scope="col">Paper</th>
            <th scope="col">Simulated</th>
            <th scope="col">Difference</th>
            <th scope="col">Source</th>
          </tr>
        </thead>
        <tbody>
          {comparisons.map((c) => {
            const cells = comparisonCells(c);
            const note = notes.get(c.key);
            const missing = c.simulated === null ? (running || !anyResults ? 'not run yet' : c.points === 0 ? 'not run at this scale' : 'undefined in these runs') : null;
            return (
              <tr
                key={c.key}
                data-key={c.key}
                data-paper={c.paper}
                data-simulated={c.simulated ?? ''}
                data-difference={c.difference ?? ''}
                data-points={c.points}
              >
                <th scope="row">{seriesLabel(lab, c.series)}</th>
                <td>{quantity(lab, c)}</td>
                <td>{formatAt(c.at, lab.sweep)}</td>
                <td className="num">{cells.paper}</td>
                <td className="num">
                  {missing ? <span className="muted">{missing}</span> : cells.simulated}
                  {c.points > 1 && !missing ? <span className="muted small"> ({c.metric === 'rank' ? 'from' : 'mean of'} {c.points} runs)</span> : null}
                </td>
                <td className="num">{cells.difference}</td>
                <td className="source">
                  {sourceCite({ papers: [...papers] }, c.source)}
                  {note ? <span className="note"> {note}</span> : null}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

export function RankingTable(props: { lab: Lab; ranking: RankRow[] | null; aggregates: SweepAggregates | null; paper: readonly PaperValue[] }) {
  const { lab, ranking, aggregates, paper } = props;
  if (!ranking || ranking.length === 0) return <p className="muted">The ranking appears as results come in.</p>;
  const paperRank = new Map(paper.filter((v) => v.metric === 'rank').map((v) => [v.series, v.value]));

  return (
    <div className="table-scroll">
      <table className="lab-table ranking-table" data-testid="ranking-table">
        <caption>Series ranked as the paper ranked them: by mean combined throughput, ties (within 1%) broken by Standard TCP’s throughput</caption>
        <thead>
          <tr>
            <th scope="col">Simulated rank</th>
            <th scope="col">Series</th>
            <th scope="col">Combined throughput</th>
            <th scope="col">Standard TCP’s throughput</th>
            <th scope="col">Standard TCP’s share</th>
            <th scope="col">Paper’s rank</th>
          </tr>
        </thead>
        <tbody>
          {ranking.map(([id, combined, standard], i) => (
            <tr key={id} data-series={id} data-rank={i + 1} data-paper-rank={paperRank.get(id) ?? ''}>
              <td className="num">{i + 1}</td>
              <th scope="row">{seriesLabel(lab, id)}</th>
              <td className="num">{formatValue(combined)} Mb/s</td>
              <td className="num">{formatValue(standard)} Mb/s</td>
              <td className="num">{formatValue(seriesMean(aggregates, 'standard_share', id), METRICS.standard_share.unit)}</td>
              <td className="num">{paperRank.get(id) ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function GainTable(props: { lab: Lab; points: readonly SweepPoint[]; aggregates: SweepAggregates | null }) {
  const { lab, points, aggregates } = props;
  const rows = gainOverStandard(lab, points, aggregates);
  const series = [...new Set(rows.flatMap((r) => r.cells.map((c) => c.series)))];
  if (series.length === 0) return null;
  return (
    <div className="table-scroll">
      <table className="lab-table gain-table" data-testid="gain-table">
        <caption>Total throughput, and the gain over Standard TCP with the same number of streams (and clients, and RTT)</caption>
        <thead>
          <tr>
            <th scope="col">{lab.sweep.label}</th>
            {series.map((s) => (
              <th scope="col" key={s}>
                {seriesLabel(lab, s)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.xKey} data-x={r.xKey}>
              <th scope="row">{formatX(lab.sweep.axis, r.x)}</th>
              {series.map((s) => {
                const c = r.cells.find((x) => x.series === s);
                return (
                  <td key={s} className="num" data-series={s} data-gain={c?.gainPct ?? ''}>
                    {c && c.mean !== null ? `${formatValue(c.mean)} Mb/s` : '—'}
                    {c && c.gainPct !== null ? <span className={c.gainPct >= 0 ? 'gain up' : 'gain down'}> ({c.gainPct >= 0 ? '+' : '−'}{formatValue(Math.abs(c.gainPct))}%)</span> : null}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function PointErrors(props: { lab: Lab; points: readonly SweepPoint[]; states: readonly PointState[] }) {
  const failed = props.states.map((s, i) => ({ s, i })).filter(({ s }) => s.status === 'error');
  if (failed.length === 0) return null;
  return (
    <div className="point-errors" data-testid="point-errors" role="alert">
      <p>
        {failed.length} run{failed.length === 1 ? '' : 's'} failed (the others are unaffected; “Run” tries the missing ones again):
      </p>
      <ul>
        {failed.map(({ s, i }) => {
          const p = props.points[i];
          return (
            <li key={i} data-point-index={i}>
              {seriesLabel(props.lab, p.series)}, {formatX(props.lab.sweep.axis, p.x)}, random seed {p.seed}: {s.error}
              {s.crashed ? ' — its worker was replaced.' : ''}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

/**
 * Runs the engine flagged (retransmissions, timeouts or an idle link far
 * beyond an ordinary transfer: `flags.rs`): listed with the engine's own
 * sentences and a link to open each run on the lab page, so a broken run
 * is never read as an ordinary point of the sweep.
 */
export function FlaggedPoints(props: { lab: Lab; points: readonly SweepPoint[]; states: readonly PointState[]; drillHref: (index: number) => string }) {
  const flagged = props.states
    .map((s, i) => ({ flags: s.status === 'done' ? (s.result?.flags ?? []) : [], i }))
    .filter(({ flags }) => flags.length > 0);
  if (flagged.length === 0) return null;
  const n = flagged.length;
  return (
    <details className="flagged-points" data-testid="flagged-points" data-count={n} open={n <= 5}>
      <summary>
        {n} run{n === 1 ? '' : 's'} of this sweep went wrong (the engine flagged {n === 1 ? 'it' : 'them'}); {n === 1 ? 'its values are' : 'their values are'} in the charts, but read {n === 1 ? 'it' : 'them'} as a warning:
      </summary>
      <ul>
        {flagged.map(({ flags, i }) => {
          const p = props.points[i];
          return (
            <li key={i} data-point-index={i} data-kinds={flags.map((f) => f.kind).join(' ')}>
              {seriesLabel(props.lab, p.series)}, {formatX(props.lab.sweep.axis, p.x)}, random seed {p.seed}: {flags.map((f) => f.text).join(' ')}{' '}
              <a href={props.drillHref(i)}>Open this run</a>
            </li>
          );
        })}
      </ul>
    </details>
  );
}
