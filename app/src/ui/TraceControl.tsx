// The bottleneck's trace (issue 25): a constant rate (the rate slider), a
// built-in delivery-opportunity trace, or a Mahimahi trace file uploaded
// from disk. The engine reads the file (Mahimahi's format and its rules);
// its refusals are shown here, naming the field and the file's line, and
// the scenario's own errors about the trace (or the MTU it allows) too.

import { useContext, useId, useState } from 'react';
import type { TraceRead } from '../engine/protocol';
import type { Scenario, ValidationError } from '../engine/types';
import { BUILTIN_TRACES, choiceValue, describeTrace, fetchBuiltinTrace, traceChoice } from '../lab/traceSource';
import { FieldErrorsContext } from './FieldErrors';

export interface TraceControlProps {
  scenario: Scenario;
  onChange(f: (s: Scenario) => Scenario): void;
  /** The engine's reading of a trace file (client.readTrace). */
  readTrace(text: string, name: string): Promise<TraceRead>;
}

type Status = { kind: 'idle' } | { kind: 'loading'; what: string } | { kind: 'refused'; what: string; errors: ValidationError[] } | { kind: 'failed'; message: string };

const describeError = (e: ValidationError) => (e.value ? `${e.field} = ${e.value}: ${e.message}` : `${e.field}: ${e.message}`);

export function TraceControl({ scenario: s, onChange, readTrace }: TraceControlProps) {
  const uid = useId();
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const trace = s.bottleneck.trace;
  const choice = traceChoice(trace);
  // The scenario's errors about the trace, or about the MTU a trace allows.
  const scenarioErrors = useContext(FieldErrorsContext).filter((e) => e.field.startsWith('bottleneck.trace') || (trace && e.field === 'mtu_bytes'));

  const setTrace = (t: Scenario['bottleneck']['trace']) =>
    onChange((x) => {
      const bottleneck = { ...x.bottleneck };
      if (t) bottleneck.trace = t;
      else delete bottleneck.trace;
      return { ...x, bottleneck };
    });

  const read = async (what: string, text: () => Promise<string>, name: string) => {
    setStatus({ kind: 'loading', what });
    try {
      const r = await readTrace(await text(), name);
      if (r.trace) {
        setStatus({ kind: 'idle' });
        setTrace(r.trace);
      } else setStatus({ kind: 'refused', what, errors: r.errors });
    } catch (e) {
      setStatus({ kind: 'failed', message: String((e as { message?: string })?.message ?? e) });
    }
  };

  const onSelect = (value: string) => {
    if (value === '') {
      setStatus({ kind: 'idle' });
      setTrace(undefined);
      return;
    }
    const b = BUILTIN_TRACES.find((x) => x.id === value);
    if (b) void read(b.name, () => fetchBuiltinTrace(b), b.id);
  };

  const onFile = (file: File | undefined) => {
    if (!file) return;
    void read(file.name, () => file.text(), file.name);
  };

  return (
    <div className="trace" data-testid="trace-control" data-control-id="trace" data-trace={choiceValue(choice)}>
      <label htmlFor={`${uid}-select`} className="qc-label">
        Link rate from
      </label>
      <select id={`${uid}-select`} value={choiceValue(choice)} onChange={(e) => onSelect(e.currentTarget.value)} data-testid="trace-select">
        <option value="">the rate above (constant)</option>
        {BUILTIN_TRACES.map((b) => (
          <option key={b.id} value={b.id} title={b.description}>
            trace: {b.name}
          </option>
        ))}
        {choice.kind === 'file' && <option value="file">trace file: {choice.name}</option>}
      </select>
      <label className="trace-upload small">
        Upload a Mahimahi trace…{' '}
        <input
          type="file"
          accept=".trace,.txt,.down,.up,.pps,text/plain"
          data-testid="trace-upload"
          onChange={(e) => {
            onFile(e.currentTarget.files?.[0]);
            e.currentTarget.value = '';
          }}
        />
      </label>
      {trace && (
        <p className="muted small" data-testid="trace-summary" data-trace-name={trace.name ?? ''} data-opportunities={trace.opportunities_ms.length}>
          {describeTrace(trace)}. {choice.kind === 'builtin' ? choice.trace.description : ''}
        </p>
      )}
      {!trace && (
        <p className="muted small">
          Or a delivery-opportunity trace in Mahimahi&apos;s format: one line per millisecond timestamp at which a 1504-byte packet may leave.
        </p>
      )}
      {status.kind === 'loading' && (
        <p className="muted small" role="status" data-testid="trace-status">
          Reading {status.what}…
        </p>
      )}
      {(status.kind === 'refused' || status.kind === 'failed' || scenarioErrors.length > 0) && (
        <ul className="field-error trace-errors" role="alert" data-testid="trace-errors">
          {status.kind === 'refused' && status.errors.map((e, i) => <li key={`r${i}`}>{`${status.what}: ${describeError(e)}`}</li>)}
          {status.kind === 'failed' && <li>{status.message}</li>}
          {scenarioErrors.map((e, i) => (
            <li key={`s${i}`}>{describeError(e)}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
