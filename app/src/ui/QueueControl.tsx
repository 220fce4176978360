// The bottleneck's queue discipline (drop-tail, RED, CoDel, FQ-CoDel, PIE,
// DCTCP's step marking) with its parameters, and the latency probe. Kinds,
// parameters, defaults and ranges come from the engine's AQM catalogue.

import { useId, useMemo } from 'react';
import { LIMITS, PROBE_DEFAULTS } from '../engine/generated/defaults';
import type { AqmInfo, ParamInfo, Scenario } from '../engine/types';
import { aqmInfo, aqmOfKind, aqmParamRange, aqmParamValue, withAqmParam } from '../lab/aqm';
import { paramSpec, type ControlSpec, type LinkableControlId } from '../lab/controls';
import { QuantityControl } from './QuantityControl';

export interface QueueControlProps {
  scenario: Scenario;
  aqms: readonly AqmInfo[];
  show(id: LinkableControlId): boolean;
  onChange(f: (s: Scenario) => Scenario): void;
}

const PROBE_INTERVAL: ParamInfo = {
  id: 'interval_ms',
  name: 'Probe interval',
  default: PROBE_DEFAULTS.interval_ms,
  min: LIMITS.probe_interval_ms[0],
  max: LIMITS.probe_interval_ms[1],
  step: 1,
  unit: 'ms',
  log_scale: true,
  description: 'Time between two pings.',
};

export function QueueControl({ scenario: s, aqms, show, onChange }: QueueControlProps) {
  const uid = useId();
  const aqm = s.bottleneck.aqm;
  const info = aqmInfo(aqms, aqm.kind);
  const setAqm = (f: (a: Scenario['bottleneck']['aqm']) => Scenario['bottleneck']['aqm']) =>
    onChange((x) => ({ ...x, bottleneck: { ...x.bottleneck, aqm: f(x.bottleneck.aqm) } }));
  // One spec per parameter and scenario (a new spec resets a control's text), in this scenario's range.
  const buffer = s.bottleneck.buffer_pkts;
  const specs = useMemo(() => {
    const out = new Map<string, ControlSpec>();
    for (const p of info?.params ?? []) {
      const base = paramSpec(p, `bottleneck.aqm.${p.id}`);
      const [min, max] = aqmParamRange(aqm, p, buffer);
      if (min === base.min && max === base.max) out.set(p.id, base);
      else {
        const inRange = base.ladder.filter((v) => v >= min && v <= max);
        out.set(p.id, { ...base, min, max, ladder: [...new Set([min, ...inRange, max])] });
      }
    }
    return out;
  }, [info, aqm, buffer]);
  const renderParam = (p: ParamInfo) => {
    const value = aqmParamValue(aqm, p);
    const field = `bottleneck.aqm.${p.id}`;
    if (p.unit === 'on/off') {
      return (
        <label key={p.id} className="check" data-testid={`aqm-param-${p.id}`} title={p.description}>
          <input type="checkbox" checked={value !== 0} onChange={(e) => setAqm((a) => withAqmParam(a, p, e.currentTarget.checked ? 1 : 0))} />
          {p.name}
        </label>
      );
    }
    return (
      <QuantityControl
        key={`${aqm.kind}-${p.id}`}
        spec={specs.get(p.id) ?? paramSpec(p, field)}
        value={value}
        field={field}
        label={`${info?.name ?? aqm.kind} ${p.name}`}
        testId={`aqm-param-${p.id}`}
        onChange={(v) => setAqm((a) => withAqmParam(a, p, v))}
      />
    );
  };
  return (
    <fieldset data-testid="queue-control">
      <legend>Bottleneck queue</legend>
      {show('aqm') && aqms.length > 0 && (
        <div className="aqm" data-control-id="aqm">
          <label htmlFor={`${uid}-kind`} className="qc-label">
            Queue management
          </label>
          <select id={`${uid}-kind`} value={aqm.kind} onChange={(e) => onChange((x) => ({ ...x, bottleneck: { ...x.bottleneck, aqm: aqmOfKind(aqms, e.currentTarget.value) } }))} data-testid="aqm-kind">
            {aqms.map((a) => (
              <option key={a.kind} value={a.kind}>
                {a.name}
              </option>
            ))}
          </select>
          {info && (
            <p className="muted small" data-testid="aqm-explanation">
              {info.explanation} <span className="cite">({info.citations.map((c) => c.label).join('; ')})</span>
            </p>
          )}
          {info?.params.map(renderParam)}
        </div>
      )}
      {show('probe') && (
        <div className="probe" data-control-id="probe">
          <label className="check" title="A small ping through the bottleneck queue at a fixed interval: the classic bufferbloat measurement.">
            <input
              type="checkbox"
              checked={!!s.probe}
              onChange={(e) => onChange((x) => ({ ...x, probe: e.currentTarget.checked ? {} : undefined }))}
              data-testid="probe-toggle"
            />
            Latency probe (ping through the bottleneck)
          </label>
          {s.probe && (
            <QuantityControl
              spec={paramSpec(PROBE_INTERVAL, 'probe.interval_ms')}
              value={s.probe.interval_ms ?? PROBE_DEFAULTS.interval_ms}
              field="probe.interval_ms"
              testId="probe-interval"
              onChange={(v) => onChange((x) => ({ ...x, probe: v === PROBE_DEFAULTS.interval_ms ? { ...x.probe, interval_ms: undefined } : { ...x.probe, interval_ms: v } }))}
            />
          )}
        </div>
      )}
    </fieldset>
  );
}
