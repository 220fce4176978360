// Parsing and validation of typed numeric fields, reported in the engine's
// own error format (field, value, rule).

import type { ValidationError } from '../engine/types';
import { LIMITS } from '../engine/generated/defaults';

export interface NumericField {
  /** Scenario path of the field, as the engine names it ("rtt_ms"). */
  field: string;
  min: number;
  max: number;
  unit: string;
}

export type FieldResult = { ok: true; value: number } | { ok: false; error: ValidationError };

export const RTT_FIELD: NumericField = { field: 'rtt_ms', min: LIMITS.rtt_ms[0], max: LIMITS.rtt_ms[1], unit: 'ms' };

export function rangeText(f: NumericField): string {
  return `between ${f.min} and ${f.max}${f.unit ? ` ${f.unit}` : ''}`;
}

export function parseNumericField(text: string, f: NumericField): FieldResult {
  const t = text.trim();
  if (t === '') return { ok: false, error: { field: f.field, value: '', message: `is required: a number ${rangeText(f)}` } };
  const v = Number(t);
  if (!Number.isFinite(v) || !/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(t)) {
    return { ok: false, error: { field: f.field, value: t, message: `must be a number ${rangeText(f)}` } };
  }
  if (v < f.min || v > f.max) return { ok: false, error: { field: f.field, value: t, message: `must be ${rangeText(f)}` } };
  return { ok: true, value: v };
}
