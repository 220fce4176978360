// A slider with a typed numeric field beside it. Valid values (from either)
// are reported through onChange; an invalid typed value shows an error that
// names the field and its range, and is not reported.

import { useEffect, useId, useState } from 'react';
import { formatValidationError } from '../engine/errors';
import type { ValidationError } from '../engine/types';
import { parseNumericField, type NumericField } from '../lab/fields';

export interface NumberControlProps {
  label: string;
  spec: NumericField;
  step: number;
  value: number;
  onChange(value: number): void;
  testId: string;
  disabled?: boolean;
}

export function NumberControl({ label, spec, step, value, onChange, testId, disabled }: NumberControlProps) {
  const id = useId();
  const [text, setText] = useState(String(value));
  const [error, setError] = useState<ValidationError | null>(null);

  // Follow outside changes of the value (e.g. a URL parameter or a preset).
  useEffect(() => {
    setText((t) => (Number(t) === value ? t : String(value)));
    setError(null);
  }, [value]);

  const commitText = (t: string) => {
    setText(t);
    const r = parseNumericField(t, spec);
    if (r.ok) {
      setError(null);
      if (r.value !== value) onChange(r.value);
    } else {
      setError(r.error);
    }
  };

  return (
    <div className="control" data-testid={testId}>
      <label htmlFor={`${id}-range`}>{label}</label>
      <input
        id={`${id}-range`}
        type="range"
        min={spec.min}
        max={spec.max}
        step={step}
        value={Math.min(spec.max, Math.max(spec.min, value))}
        disabled={disabled}
        aria-label={`${label} slider`}
        onChange={(e) => {
          const v = Number(e.currentTarget.value);
          setText(String(v));
          setError(null);
          if (v !== value) onChange(v);
        }}
      />
      <input
        type="text"
        inputMode="decimal"
        className={error ? 'invalid' : undefined}
        value={text}
        disabled={disabled}
        aria-label={`${label} value`}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) => commitText(e.currentTarget.value)}
      />
      <span className="unit">{spec.unit}</span>
      {error && (
        <p id={`${id}-error`} className="field-error" role="alert" data-testid={`${testId}-error`}>
          {formatValidationError(error)}
        </p>
      )}
    </div>
  );
}
