// A slider with a typed field, unit, reset and errors. The slider steps
// through the control's ladder (log scales where the range spans decades);
// the typed field takes any value in range, with units ("16M", "1 Gb/s",
// "1/50"). Invalid text shows an error naming the field and range and is not
// applied; errors the engine reports for the field show here too.

import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { formatValidationError } from '../engine/errors';
import type { ValidationError } from '../engine/types';
import { controlText, parseControl, type ControlSpec } from '../lab/controls';
import { nearestIndex } from '../lab/ladder';
import { unitFor, valueText } from '../lab/units';
import { useFieldErrors } from './FieldErrors';
import { Tip } from './Tip';
import type { GlossaryId } from '../lab/glossary';

export interface QuantityControlProps {
  spec: ControlSpec;
  value: number;
  onChange(value: number): void;
  /** Engine field path when it differs from spec.field (per-flow controls). */
  field?: string;
  label?: string;
  testId?: string;
  disabled?: boolean;
  /** Several items with different values (the slider shows the first). */
  mixed?: boolean;
  glossary?: GlossaryId;
  /** Extra content after the unit (a mode toggle). */
  extra?: ReactNode;
  /** Unit text override. */
  unit?: string;
}

export function QuantityControl(props: QuantityControlProps) {
  const { spec, value, onChange, disabled, mixed } = props;
  const field = props.field ?? spec.field;
  const label = props.label ?? spec.label;
  const testId = props.testId ?? spec.id;
  const id = useId();
  const [text, setText] = useState(() => controlText(value, spec));
  const [error, setError] = useState<ValidationError | null>(null);
  const focused = useRef(false);
  const engineErrors = useFieldErrors(field);

  // Follow outside changes (slider, preset, link) unless the student is typing.
  useEffect(() => {
    if (focused.current) {
      const r = parseControl(text, spec, field);
      if (r.ok && r.value === value) return;
    }
    setText(controlText(value, spec));
    setError(null);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [value, spec]);

  const index = nearestIndex(spec.ladder, value, spec.log);
  const commitText = (t: string) => {
    setText(t);
    const r = parseControl(t, spec, field);
    if (r.ok) {
      setError(null);
      if (r.value !== value) onChange(r.value);
    } else setError(r.error);
  };
  const shown = error ? [error] : engineErrors;
  const unitLabel = props.unit ?? (spec.kind === 'bytes' || spec.kind === 'rate' ? '' : spec.unit);
  const unit = unitFor(value, unitLabel);
  const defaultUnit = unitFor(spec.defaultValue, unitLabel);

  return (
    <div className={`qc${shown.length ? ' has-error' : ''}`} data-testid={testId} data-control-id={testId} data-field={field}>
      <div className="qc-head">
        <label htmlFor={`${id}-range`}>{label}</label>
        {props.glossary ? <Tip id={props.glossary} /> : spec.help ? <Tip text={spec.help} label={label} /> : null}
        {mixed && <span className="qc-mixed">(flows differ)</span>}
      </div>
      <div className="qc-row">
        <input
          id={`${id}-range`}
          type="range"
          min={0}
          max={spec.ladder.length - 1}
          step={1}
          value={index}
          disabled={disabled}
          aria-label={`${label} slider`}
          aria-valuetext={valueText(value, spec.kind, spec.unit)}
          onChange={(e) => {
            const v = spec.ladder[Number(e.currentTarget.value)];
            setText(controlText(v, spec));
            setError(null);
            if (v !== value) onChange(v);
          }}
        />
        <input
          type="text"
          inputMode="decimal"
          spellCheck={false}
          className={shown.length ? 'invalid' : undefined}
          value={text}
          disabled={disabled}
          aria-label={`${label} value`}
          aria-invalid={shown.length ? true : undefined}
          aria-describedby={shown.length ? `${id}-error` : undefined}
          onFocus={() => (focused.current = true)}
          onBlur={() => {
            focused.current = false;
            if (!error) setText(controlText(value, spec));
          }}
          onChange={(e) => commitText(e.currentTarget.value)}
        />
        <span className="unit">{unit}</span>
        <button
          type="button"
          className="reset"
          aria-label={`Reset ${label} to ${controlText(spec.defaultValue, spec)}${defaultUnit ? ` ${defaultUnit}` : ''}`}
          title={`Reset to ${controlText(spec.defaultValue, spec)}`}
          disabled={disabled || (value === spec.defaultValue && !error)}
          onClick={() => {
            setError(null);
            setText(controlText(spec.defaultValue, spec));
            onChange(spec.defaultValue);
          }}
        >
          ↺
        </button>
        {props.extra}
      </div>
      {shown.length > 0 && (
        <p id={`${id}-error`} className="field-error" role="alert" data-testid={`${testId}-error`}>
          {shown.map(formatValidationError).join('; ')}
        </p>
      )}
    </div>
  );
}
