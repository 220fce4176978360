import { describe, expect, it } from 'vitest';
import type { AqmInfo, ParamInfo } from '../engine/types';
import { aqmOfKind, aqmParamRange, aqmParamValue, withAqmParam } from './aqm';

const param = (id: string, def: number, unit = 'ms'): ParamInfo => ({ id, name: id, default: def, min: 0, max: 1000, step: 1, unit, log_scale: false, description: '' });
const CATALOGUE: AqmInfo[] = [
  { kind: 'drop_tail', name: 'Drop-tail', explanation: '', citations: [], params: [] },
  { kind: 'red', name: 'RED', explanation: '', citations: [], params: [param('min_th_pkts', 5), param('max_th_pkts', 15), param('max_p', 0.1), param('weight', 0.002), param('ecn', 0, 'on/off')] },
  { kind: 'codel', name: 'CoDel', explanation: '', citations: [], params: [param('target_ms', 5), param('interval_ms', 100), param('ecn', 0, 'on/off')] },
];
const codel = CATALOGUE[2];

describe('editing the queue discipline', () => {
  it('a new discipline starts from the RFC defaults: nothing written for CoDel, every field for RED', () => {
    expect(aqmOfKind(CATALOGUE, 'codel')).toEqual({ kind: 'codel' });
    expect(aqmOfKind(CATALOGUE, 'red')).toEqual({ kind: 'red', min_th_pkts: 5, max_th_pkts: 15, max_p: 0.1, weight: 0.002, ecn: false });
  });

  it('reads absent parameters as their default, booleans as 0/1', () => {
    expect(aqmParamValue({ kind: 'codel' }, codel.params[0])).toBe(5);
    expect(aqmParamValue({ kind: 'codel', target_ms: 2 }, codel.params[0])).toBe(2);
    expect(aqmParamValue({ kind: 'codel', ecn: true }, codel.params[2])).toBe(1);
  });

  it('setting a parameter back to its default removes it (short links); ECN becomes a boolean', () => {
    const a = withAqmParam({ kind: 'codel' }, codel.params[0], 10);
    expect(a).toEqual({ kind: 'codel', target_ms: 10 });
    expect(withAqmParam(a, codel.params[0], 5)).toEqual({ kind: 'codel' });
    expect(withAqmParam(a, codel.params[2], 1)).toEqual({ kind: 'codel', target_ms: 10, ecn: true });
  });

  it('RED keeps its required fields even at their defaults', () => {
    const red = aqmOfKind(CATALOGUE, 'red');
    expect(withAqmParam(red, CATALOGUE[1].params[0], 5)).toEqual(red);
  });

  it('gives RED’s thresholds the range the engine checks: in the buffer, the minimum below the maximum', () => {
    const red = aqmOfKind(CATALOGUE, 'red');
    const [minTh, maxTh, maxP] = CATALOGUE[1].params;
    // Buffer 40, thresholds 5 and 15 (the catalogue's 0–1000 range otherwise).
    expect(aqmParamRange(red, minTh, 40)).toEqual([0, 14]);
    expect(aqmParamRange(red, maxTh, 40)).toEqual([6, 40]);
    expect(aqmParamRange(red, maxP, 40)).toEqual([0, 1000]);
    // A buffer below the maximum threshold bounds the minimum too.
    expect(aqmParamRange(red, minTh, 10)).toEqual([0, 10]);
    expect(aqmParamRange({ kind: 'codel' }, codel.params[0], 40)).toEqual([0, 1000]);
  });
});
