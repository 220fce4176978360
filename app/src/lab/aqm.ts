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

/**
 * The range parameter `p` may take in this scenario. RED's thresholds lie
 * in the buffer and the minimum below the maximum (the engine's rule,
 * core/src/aqm/settings.rs), so the controls refuse what the engine
 * would, with the same range; every other parameter keeps its catalogue
 * range.
 */
export function aqmParamRange(aqm: Aqm, p: ParamInfo, bufferPkts: number): [number, number] {
  if (aqm.kind !== 'red') return [p.min, p.max];
  if (p.id === 'min_th_pkts') return [p.min, Math.max(p.min, Math.min(bufferPkts, aqm.max_th_pkts - 1))];
  if (p.id === 'max_th_pkts') return [Math.min(bufferPkts, Math.max(p.min, aqm.min_th_pkts + 1)), Math.max(p.min, Math.min(p.max, bufferPkts))];
  return [p.min, p.max];
}
