import { EVENT_KINDS, type EngineEvent, type EventKind } from './types';

/** The engine's event kind numbers: 0 network loss, 1 local congestion, ... */
export function eventKindName(code: number): EventKind {
  return Number.isInteger(code) && code >= 0 && code < EVENT_KINDS.length ? EVENT_KINDS[code] : 'unknown';
}

/** Parse drain_events() output: flat triples [t_s, flow, kind]. */
export function parseEvents(flat: Float64Array): EngineEvent[] {
  if (flat.length % 3 !== 0) throw new Error(`event buffer of ${flat.length} values is not made of triples`);
  const out: EngineEvent[] = new Array(flat.length / 3);
  for (let i = 0, j = 0; i < flat.length; i += 3, j++) {
    out[j] = { t_s: flat[i], flow: flat[i + 1], kind: eventKindName(flat[i + 2]) };
  }
  return out;
}
