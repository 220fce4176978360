// The topology picker: four radio cards with a small diagram each.

import { useId, type ReactElement } from 'react';
import { TOPOLOGIES, type Topology } from '../lab/topology';

function Diagram({ t }: { t: Topology }) {
  const host = (x: number, y: number, k: string) => <rect key={k} x={x} y={y} width={14} height={10} rx={2} className="d-host" />;
  const link = (x1: number, y1: number, x2: number, y2: number, k: string) => <line key={k} x1={x1} y1={y1} x2={x2} y2={y2} className="d-link" />;
  const sw = <rect key="sw" x={44} y={17} width={12} height={12} rx={6} className="d-switch" />;
  const rx = <rect key="rx" x={72} y={18} width={14} height={10} rx={2} className="d-rx" />;
  const parts: ReactElement[] = [];
  if (t === 'back_to_back') parts.push(host(6, 18, 'h'), link(20, 23, 72, 23, 'l'), rx);
  if (t === 'two_to_one') parts.push(host(6, 6, 'h0'), host(6, 30, 'h1'), link(20, 11, 44, 23, 'a'), link(20, 35, 44, 23, 'b'), sw, link(56, 23, 72, 23, 'c'), rx);
  if (t === 'parallel') parts.push(host(6, 18, 'h'), link(20, 19, 72, 19, 'a'), link(20, 23, 72, 23, 'b'), link(20, 27, 72, 27, 'c'), rx);
  if (t === 'custom')
    parts.push(
      host(6, 2, 'h0'),
      host(6, 18, 'h1'),
      host(6, 34, 'h2'),
      link(20, 7, 44, 23, 'a'),
      link(20, 23, 44, 23, 'b'),
      link(20, 39, 44, 23, 'c'),
      sw,
      link(56, 23, 72, 23, 'd'),
      rx,
    );
  return (
    <svg width={92} height={46} aria-hidden="true" className="topo-diagram">
      {parts}
    </svg>
  );
}

export function TopologyPicker({ value, onChange }: { value: Topology; onChange(t: Topology): void }) {
  const name = useId();
  return (
    <fieldset className="topology" data-testid="topology" data-control-id="topology">
      <legend>Topology</legend>
      <div className="topo-cards">
        {TOPOLOGIES.map((t) => (
          <label key={t.id} className={`topo-card${value === t.id ? ' selected' : ''}`} title={t.description}>
            <input type="radio" name={name} value={t.id} checked={value === t.id} onChange={() => onChange(t.id)} data-testid={`topology-${t.id}`} />
            <Diagram t={t.id} />
            <span className="topo-name">{t.name}</span>
          </label>
        ))}
      </div>
      <p className="hint">{TOPOLOGIES.find((t) => t.id === value)?.description}</p>
    </fieldset>
  );
}
