// The MTU: standard or jumbo frames. A trace-driven bottleneck delivers
// opportunities of 1504 bytes (Mahimahi's), so the engine takes a frame of
// at most 1500 bytes there (LIMITS.trace_mtu_bytes): while a trace is
// chosen, jumbo frames are offered disabled, saying why, instead of starting
// a run the engine refuses.

import { useId } from 'react';
import { LIMITS } from '../engine/generated/defaults';
import { formatValidationError } from '../engine/errors';
import { mssBytes } from '../model/path';
import { useFieldErrors } from './FieldErrors';

const MTUS = [1500, 9000] as const;

/** Is `mtu` a frame the bottleneck can carry (any, unless it follows a trace)? */
export function mtuAllowed(mtu: number, withTrace: boolean): boolean {
  return !withTrace || (mtu >= LIMITS.trace_mtu_bytes[0] && mtu <= LIMITS.trace_mtu_bytes[1]);
}

export function MtuControl({ mtu, withTrace, onChange }: { mtu: number; withTrace: boolean; onChange(mtu: number): void }) {
  const id = useId();
  const errors = useFieldErrors('mtu_bytes');
  const refused = MTUS.some((m) => !mtuAllowed(m, withTrace));
  return (
    <div className="radio-row" role="radiogroup" aria-label="MTU" aria-describedby={refused ? `${id}-why` : undefined} data-testid="mtu" data-control-id="mtu">
      <span className="qc-label">MTU</span>
      {MTUS.map((m) => (
        <label key={m} className="radio">
          <input type="radio" name="mtu" value={m} checked={mtu === m} disabled={!mtuAllowed(m, withTrace) && mtu !== m} onChange={() => onChange(m)} data-testid={`mtu-${m}`} />
          {m} {m === 9000 ? '(jumbo)' : ''}
        </label>
      ))}
      {mtu !== 1500 && mtu !== 9000 && <span className="muted">{mtu} (from link)</span>}
      <span className="muted">MSS {mssBytes(mtu)} B</span>
      {refused && (
        <span id={`${id}-why`} className="muted small" data-testid="mtu-trace-note">
          With a trace, frames of {LIMITS.trace_mtu_bytes[0]} to {LIMITS.trace_mtu_bytes[1]} bytes: each delivery opportunity carries 1504 bytes.
        </span>
      )}
      {errors.length > 0 && (
        <p className="field-error" role="alert" data-testid="mtu-error">
          {errors.map(formatValidationError).join('; ')}
        </p>
      )}
    </div>
  );
}
