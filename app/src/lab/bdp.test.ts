import { describe, expect, it } from 'vitest';
import { defaultMockScenario } from '../engine/testing/mockEngine';
import { bdpPackets, bdpPayloadBytes, bufferFromBdpFraction, mssBytes } from '../model/path';
import { analyseWindow } from './bdp';

describe('BDP', () => {
  it('counts wire bytes per packet (MTU + 38)', () => {
    // 1 Gb/s × 30 ms = 3.75 MB on the wire = 415.7 jumbo packets.
    expect(bdpPackets(1e9, 30, 9000)).toBeCloseTo(3.75e6 / 9038, 6);
    expect(bdpPayloadBytes(1e9, 30, 9000)).toBeCloseTo((3.75e6 / 9038) * 8948, 3);
    expect(mssBytes(1500)).toBe(1448);
    expect(bdpPackets(1e9, 0, 1500)).toBe(0);
    expect(bufferFromBdpFraction(0.5, 1e9, 30, 9000)).toBe(207);
    expect(bufferFromBdpFraction(0.001, 1e9, 1, 9000)).toBe(1);
  });

  it('a 16 MB window back-to-back at 30 ms overflows BDP + txqueuelen (local congestion)', () => {
    const a = analyseWindow(defaultMockScenario());
    expect(a.queueAt).toBe('ifq');
    expect(a.windowPkts).toBeCloseTo(16 * 2 ** 20 / 8948, 6);
    expect(a.capacityPkts).toBeCloseTo(3.75e6 / 9038 + 100, 6);
    expect(a.verdict).toBe('overflows_ifq');
  });

  it('small windows are window-limited; fitting windows are fine; two hosts queue at the bottleneck', () => {
    const s = defaultMockScenario();
    s.hosts[0].flows[0].window_bytes = 1 << 20;
    const small = analyseWindow(s);
    expect(small.verdict).toBe('window_limited');
    expect(small.windowCapBps).toBeCloseTo((2 ** 20 * 8) / 0.03, 0);
    s.hosts[0].flows[0].window_bytes = 4 << 20; // 468.8 pkts: between 415.7 and 515.7
    expect(analyseWindow(s).verdict).toBe('fits');
    const two = { ...s, hosts: [s.hosts[0], { ...s.hosts[0], flows: [{ ...s.hosts[0].flows[0], window_bytes: 16 << 20 }] }] };
    const a = analyseWindow(two);
    expect(a.queueAt).toBe('bottleneck');
    expect(a.capacityPkts).toBeCloseTo(3.75e6 / 9038 + 1000, 6);
    expect(a.verdict).toBe('overflows_buffer');
  });
});
