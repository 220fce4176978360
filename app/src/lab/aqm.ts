// Editing the bottleneck's queue discipline from the engine's AQM catalogue:
// reading a parameter (with the discipline's default when the scenario
// leaves it out), switching the kind, setting a parameter. RED's fields are
// required by the engine; the newer disciplines' fields are optional and
// left out when equal to the default, so links stay short.

import type { Aqm, AqmInfo, ParamInfo } from '../engine/types';

type AqmFields = Record<string, number | boolean | string | undefined>;

/** The kind's catalogue entry, if the catalogue knows it. */
export function aqmInfo(catalogue: readonly AqmInfo[], kind: string): AqmInfo | undefined {
  return catalogue.find((a) => a.kind === kind);
}

/** A parameter's value as a number (a boolean as 0 or 1), its default when absent. */
export function aqmParamValue(aqm: Aqm, p: ParamInfo): number {
  const v = (aqm as AqmFields)[p.id];
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'number') return v;
  return p.default;
}

/** The discipline `kind`, with RED's required fields at their catalogue defaults. */
export function aqmOfKind(catalogue: readonly AqmInfo[], kind: string): Aqm {
  const info = aqmInfo(catalogue, kind);
  const aqm: AqmFields = { kind };
  if (kind === 'red' && info) for (const p of info.params) aqm[p.id] = p.unit === 'on/off' ? p.default !== 0 : p.default;
  return aqm as Aqm;
}

/** `aqm` with parameter `p` set to `v` (an on/off parameter as a boolean). */
export function withAqmParam(aqm: Aqm, p: ParamInfo, v: number): Aqm {
  const next: AqmFields = { ...(aqm as AqmFields) };
  if (aqm.kind !== 'red' && v === p.default) delete next[p.id];
  else next[p.id] = p.unit === 'on/off' ? v !== 0 : v;
  return next as Aqm;
}
