// One flow's settings: algorithm (from the catalogue) and its parameters,
// start time, and in a custom dumbbell its own window and extra delay.

import { useId } from 'react';
import { flowColor } from '../charts/palette';
import type { AlgorithmInfo, Flow } from '../engine/types';
import { CONTROLS, extraDelaySpec, paramSpec, startTimeSpec } from '../lab/controls';
import { QuantityControl } from './QuantityControl';

export interface FlowCardProps {
  index: number;
  host: number;
  /** Engine path of the flow: "hosts[0].flows[1]". */
  path: string;
  flow: Flow;
  catalogue: AlgorithmInfo[];
  durationS: number;
  /** Show the per-flow window and extra delay (custom dumbbell). */
  advanced: boolean;
  selected: boolean;
  canCopy: boolean;
  canRemove: boolean;
  onChange(f: Flow): void;
  onSelect(): void;
  onCopyToAll(): void;
  onRemove(): void;
}

/** Parameters shown before "more parameters" (the papers vary Scalable's a and b). */
const UP_FRONT = 2;

export function FlowCard(p: FlowCardProps) {
  const uid = useId();
  const info = p.catalogue.find((a) => a.id === p.flow.algorithm);
  const set = (patch: Partial<Flow>) => p.onChange({ ...p.flow, ...patch });
  const setParam = (id: string, v: number, def: number) => {
    const params = { ...p.flow.params };
    if (v === def) delete params[id];
    else params[id] = v;
    set({ params });
  };
  const label = `Flow ${p.index}`;
  const params = info?.params ?? [];
  const renderParam = (q: AlgorithmInfo['params'][number]) => {
    const value = p.flow.params[q.id] ?? q.default;
    const field = `${p.path}.params.${q.id}`;
    if (q.unit === 'on/off') {
      return (
        <label key={q.id} className="check" data-testid={`flow${p.index}-param-${q.id}`} title={q.description}>
          <input type="checkbox" checked={value !== 0} onChange={(e) => setParam(q.id, e.currentTarget.checked ? 1 : 0, q.default)} />
          {q.name}
        </label>
      );
    }
    return (
      <QuantityControl
        key={q.id}
        spec={paramSpec(q, field)}
        value={value}
        field={field}
        label={`${label} ${q.name}`}
        testId={`flow${p.index}-param-${q.id}`}
        onChange={(v) => setParam(q.id, v, q.default)}
      />
    );
  };
  return (
    <section
      className={`flow-card${p.selected ? ' selected' : ''}`}
      style={{ borderLeftColor: flowColor(p.index) }}
      data-testid={`flow-${p.index}`}
      aria-labelledby={`${uid}-h`}
      onFocusCapture={p.onSelect}
      onClick={p.onSelect}
    >
      <div className="flow-head">
        <h4 id={`${uid}-h`}>
          <span className="flow-dot" style={{ background: flowColor(p.index) }} aria-hidden="true" />
          {label} <span className="muted">host {p.host}</span>
        </h4>
        <label className="sr-only" htmlFor={`${uid}-alg`}>
          {label} algorithm
        </label>
        <select id={`${uid}-alg`} value={p.flow.algorithm} onChange={(e) => set({ algorithm: e.currentTarget.value, params: {} })} data-testid={`flow${p.index}-algorithm`}>
          {p.catalogue.map((a) => (
            <option key={a.id} value={a.id}>
              {a.name}
            </option>
          ))}
          {!info && <option value={p.flow.algorithm}>{p.flow.algorithm} (unknown)</option>}
        </select>
      </div>
      {params.slice(0, UP_FRONT).map(renderParam)}
      {params.length > UP_FRONT && (
        <details className="more">
          <summary>More {info?.name ?? ''} parameters ({params.length - UP_FRONT})</summary>
          {params.slice(UP_FRONT).map(renderParam)}
        </details>
      )}
      <QuantityControl
        spec={startTimeSpec(`${p.path}.start_ms`, p.durationS)}
        value={p.flow.start_ms / 1000}
        field={`${p.path}.start_ms`}
        label={`${label} start time`}
        testId={`flow${p.index}-start`}
        onChange={(v) => set({ start_ms: Math.round(v * 1000) })}
      />
      {p.advanced && (
        <>
          <QuantityControl
            spec={CONTROLS.window}
            value={p.flow.window_bytes}
            field={`${p.path}.window_bytes`}
            label={`${label} window`}
            testId={`flow${p.index}-window`}
            onChange={(v) => set({ window_bytes: v })}
          />
          <QuantityControl
            spec={extraDelaySpec(`${p.path}.extra_delay_ms`)}
            value={p.flow.extra_delay_ms}
            field={`${p.path}.extra_delay_ms`}
            label={`${label} extra delay`}
            testId={`flow${p.index}-extra-delay`}
            onChange={(v) => set({ extra_delay_ms: v })}
          />
        </>
      )}
      {(p.canCopy || p.canRemove) && (
        <div className="flow-actions">
          {p.canCopy && (
            <button type="button" className="small" onClick={p.onCopyToAll}>
              Copy to all flows
            </button>
          )}
          {p.canRemove && (
            <button type="button" className="small" onClick={p.onRemove} aria-label={`Remove ${label}`}>
              Remove
            </button>
          )}
        </div>
      )}
    </section>
  );
}
