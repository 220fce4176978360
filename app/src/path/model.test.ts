import { describe, expect, it } from 'vitest';
import { parseColumns, SeriesBuffer, type RunSeries } from '../engine/columns';
import { FLOW_COLUMNS } from '../engine/generated/constants';
import { DEFAULT_SCENARIO } from '../engine/generated/defaults';
import type { EngineEvent, Scenario } from '../engine/types';
import { EventIndex } from './events';
import { buildPathModel, eventWindowS, fill, flash, formatPkts, idleFlowText, pathSummary, queueText, ringSize } from './model';

/** Two hosts with one flow each (two-to-one), MTU 1500 (MSS 1448), buffer 100, txqueuelen 50. */
function twoToOne(): Scenario {
  const s = structuredClone(DEFAULT_SCENARIO);
  s.mtu_bytes = 1500;
  s.bottleneck.buffer_pkts = 100;
  s.hosts = [0, 1].map(() => ({ ...structuredClone(DEFAULT_SCENARIO.hosts[0]), txqueuelen_pkts: 50 }));
  return s;
}

/**
 * A run's columns through the app's own column parser (as the engine names
 * them): row i at t = (i + 1) × 10 ms; every value a function of (column, i).
 */
function recorded(s: Scenario, rows: number, value: (column: string, i: number) => number, extra: string[] = []): RunSeries {
  const flows = s.hosts.reduce((a, h) => a + h.flows.length, 0);
  const names = ['t_s'];
  for (let f = 0; f < flows; f++) for (const c of FLOW_COLUMNS) names.push(`f${f}.${c}`);
  names.push('q.bottleneck_pkts', 'q.bottleneck_delay_ms');
  s.hosts.forEach((_, h) => names.push(`h${h}.ifq_pkts`));
  names.push(...extra);
  const chunk = new Float64Array(names.length * rows);
  names.forEach((name, c) => {
    for (let i = 0; i < rows; i++) chunk[c * rows + i] = name === 't_s' ? (i + 1) * 0.01 : value(name, i);
  });
  const buf = new SeriesBuffer(parseColumns(names), rows);
  buf.append(chunk);
  return buf.series();
}

const columns = (name: string, i: number): number => {
  if (name === 'q.bottleneck_pkts') return Math.min(101, i * 3);
  if (name === 'q.bottleneck_delay_ms') return i * 0.25;
  if (name === 'h0.ifq_pkts') return i % 51;
  if (name === 'h1.ifq_pkts') return 0;
  if (name.endsWith('.outstanding_bytes')) return (10 + i) * 1448;
  if (name.endsWith('.outstanding_captured_bytes')) return (5 + i) * 1448;
  if (name.endsWith('.cwnd_pkts')) return 12 + i;
  if (name.endsWith('.throughput_bps')) return 5e6 * (name.startsWith('f1') ? 2 : 1);
  if (name.endsWith('.srtt_ms')) return 30 + i / 10;
  if (name.endsWith('.state')) return name.startsWith('f1') && i < 5 ? NaN : i >= 40 ? 3 : 0;
  return 0;
};

const ev = (t_s: number, flow: number, kind: EngineEvent['kind']): EngineEvent => ({ t_s, flow, kind });

describe('path model', () => {
  const s = twoToOne();
  const series = recorded(s, 100, columns);
  const log: EngineEvent[] = [
    ev(0.05, 1, 'local_congestion'),
    ev(0.3, 0, 'network_loss'),
    ev(0.35, 1, 'network_loss'),
    ev(0.4, 0, 'network_loss'),
    ev(0.4, 0, 'fast_retransmit'),
    ev(0.4, 0, 'entered_recovery'),
    ev(0.42, 0, 'local_congestion'),
    ev(0.5, 1, 'ecn_mark'),
  ];
  const events = new EventIndex().update(log, 1);

  it('reads the last sample at or before the playback time, as the charts do', () => {
    const m = buildPathModel({ series, scenario: s, events, t: 0.405 });
    expect(m.row).toBe(39); // t = 0.40
    expect(m.sampleT).toBeCloseTo(0.4, 12);
    expect(m.bottleneck.pkts).toBe(series.bottleneck_queue_pkts[39]);
    expect(m.bottleneck.delayMs).toBe(series.bottleneck_delay_ms[39]);
    expect(m.hosts.map((h) => h.ifqPkts)).toEqual([series.hosts[0].ifq_pkts[39], series.hosts[1].ifq_pkts[39]]);
    expect(m.flows[0].outstandingBytes).toBe(series.flows[0].outstanding_bytes[39]);
    expect(m.flows[0].outstandingPkts).toBe(49);
    expect(m.flows[0].capturedBytes).toBe(44 * 1448);
    expect(m.flows[1].throughputBps).toBe(10e6);
    // Exactly at a sample's time, that sample is shown.
    expect(buildPathModel({ series, scenario: s, events, t: series.t[40] }).row).toBe(40);
  });

  it('knows the limits: buffer, txqueuelen, hosts and their flows', () => {
    const m = buildPathModel({ series, scenario: s, events, t: 1 });
    expect(m.bottleneck.bufferPkts).toBe(100);
    expect(m.bottleneck.pkts).toBe(101); // full: the buffer plus the one on the wire
    expect(m.hosts.map((h) => [h.index, h.txqueuelenPkts, h.flows])).toEqual([
      [0, 50, [0]],
      [1, 50, [1]],
    ]);
    expect(m.flows.map((f) => f.host)).toEqual([0, 1]);
    expect(m.mss).toBe(1448);
  });

  it('before the first sample shows nothing recorded', () => {
    const m = buildPathModel({ series, scenario: s, events, t: 0.005 });
    expect(m.row).toBe(-1);
    expect(m.sampleT).toBeNull();
    expect(m.bottleneck.pkts).toBeNull();
    expect(m.hosts[0].ifqPkts).toBeNull();
    expect(m.flows[0].outstandingBytes).toBeNull();
    expect(pathSummary(m)).toMatch(/No sample yet/);
    const none = buildPathModel({ series: null, scenario: s, events: new EventIndex(), t: 3 });
    expect(none.row).toBe(-1);
    expect(none.flows).toHaveLength(2);
  });

  it('flow state: a name while active, null before the flow starts', () => {
    const early = buildPathModel({ series, scenario: s, events, t: 0.02 });
    expect(early.flows[1].active).toBe(false);
    expect(early.flows[1].stateName).toBeNull();
    expect(early.flows[0].stateName).toBe('Open');
    const later = buildPathModel({ series, scenario: s, events, t: 0.45 });
    expect(later.flows[0].state).toBe(3);
    expect(later.flows[0].stateName).toBe('Recovery');
  });

  it('a flow without state: "not started" only when a sample says so, not before any sample (or after a failed run)', () => {
    const early = buildPathModel({ series, scenario: s, events, t: 0.02 });
    expect(idleFlowText(early.row >= 0)).toBe('not started');
    const none = buildPathModel({ series: null, scenario: s, events: new EventIndex(), t: 0 });
    expect(none.flows[0].active).toBe(false);
    expect(idleFlowText(none.row >= 0)).toBe('no sample yet');
  });

  it('counts drops, marks and local back-offs in the window before the time shown (t − w < t_s ≤ t)', () => {
    expect(eventWindowS(s)).toBe(0.1);
    const inWindow = (t: number, kind: string, flow?: number) => log.filter((e) => e.kind === kind && (flow === undefined || e.flow === flow) && e.t_s > t - 0.1 && e.t_s <= t).length;
    const m = buildPathModel({ series, scenario: s, events, t: 0.415 });
    expect(m.windowS).toBe(0.1);
    expect(m.bottleneck.drops).toBe(2); // 0.35 (f1), 0.40 (f0); 0.30 is more than 100 ms back
    expect(m.bottleneck.drops).toBe(inWindow(0.415, 'network_loss'));
    expect(m.flows[0].drops).toBe(1);
    expect(m.flows[1].drops).toBe(1);
    expect(m.flows[0].fastRetransmits).toBe(1);
    expect(m.bottleneck.marks).toBe(0);
    expect(m.hosts[0].localBackoffs).toBe(0); // 0.42 is after the time shown
    const m2 = buildPathModel({ series, scenario: s, events, t: 0.51 });
    expect(m2.bottleneck.drops).toBe(0); // 0.40 is more than 100 ms back
    expect(m2.bottleneck.marks).toBe(1);
    expect(m2.flows[1].marks).toBe(1);
    expect(m2.hosts[0].localBackoffs).toBe(1);
    expect(m2.hosts[1].localBackoffs).toBe(0);
    expect(buildPathModel({ series, scenario: s, events, t: 0.1 }).hosts[1].localBackoffs).toBe(1);
    // An event at the time shown counts; one exactly a window back does not.
    expect(buildPathModel({ series, scenario: s, events, t: 0.35 }).flows[1].drops).toBe(1);
    expect(buildPathModel({ series, scenario: s, events, t: 0.25 + 0.1 }).bottleneck.drops).toBe(inWindow(0.35, 'network_loss'));
  });

  it('flashes at the latest event and fades over the flash window', () => {
    expect(flash(null, 1, 0.1)).toBe(0);
    expect(flash(1, 1, 0.1)).toBe(1);
    expect(flash(1, 1.05, 0.1)).toBeCloseTo(0.5, 12);
    expect(flash(1, 1.2, 0.1)).toBe(0);
    const m = buildPathModel({ series, scenario: s, events, t: 0.45 });
    expect(m.bottleneck.dropFlash).toBeCloseTo(0.5, 9); // last drop at 0.40
    expect(m.hosts[0].backoffFlash).toBeCloseTo(1 - 0.03 / 0.1, 9); // 0.42
    expect(m.hosts[1].backoffFlash).toBe(0);
    // A longer flash (fast playback) fades more slowly; the counts keep their window.
    const slow = buildPathModel({ series, scenario: s, events, t: 0.45, flashS: 1 });
    expect(slow.bottleneck.dropFlash).toBeCloseTo(0.95, 9);
    expect(slow.bottleneck.drops).toBe(m.bottleneck.drops);
  });

  it('the window widens with sparse samples', () => {
    expect(eventWindowS({ ...s, sample_interval_ms: 100 })).toBe(0.2);
  });

  it('ECN marking: from the discipline', () => {
    expect(buildPathModel({ series, scenario: s, events, t: 1 }).bottleneck.canMark).toBe(false);
    const red = { ...s, bottleneck: { ...s.bottleneck, aqm: { kind: 'red' as const, min_th_pkts: 5, max_th_pkts: 15, max_p: 0.1, weight: 0.002, ecn: true } } };
    expect(buildPathModel({ series, scenario: red, events, t: 1 }).bottleneck.canMark).toBe(true);
    const step = { ...s, bottleneck: { ...s.bottleneck, aqm: { kind: 'step_mark' as const } } };
    expect(buildPathModel({ series, scenario: step, events, t: 1 }).bottleneck.canMark).toBe(true);
    expect(buildPathModel({ series, scenario: { ...s, loss_rate: 1e-4 }, events, t: 1 }).bottleneck.randomLoss).toBe(true);
  });

  it('the NIC ring: read when a run carries h<h>.ring_pkts (engines before it did not)', () => {
    const m = buildPathModel({ series, scenario: s, events, t: 0.4, ring: { unit: 'descriptors', size: 256 } });
    expect(m.hosts[0].ring).toEqual({ state: 'not-recorded', size: { unit: 'descriptors', size: 256 } });
    expect(pathSummary(m)).toContain('host 0 interface queue 39 of 50 packets, NIC ring not recorded');
    const ringCol = new Float64Array(100).map((_, i) => 7 + i);
    const patched = { ...series, hosts: series.hosts.map((h) => ({ ...h, ring_pkts: ringCol })) };
    const r = buildPathModel({ series: patched, scenario: s, events, t: 0.4, ring: { unit: 'descriptors', size: 256 } });
    expect(r.hosts[0].ring).toEqual({ state: 'recorded', size: { unit: 'descriptors', size: 256 }, pkts: 46 });
    expect(pathSummary(r)).toContain('NIC ring 46 packets');
    // Before the first sample: recorded, no reading yet.
    expect(buildPathModel({ series: patched, scenario: s, events, t: 0, ring: { unit: 'packets', size: 128 } }).hosts[0].ring).toEqual({
      state: 'recorded',
      size: { unit: 'packets', size: 128 },
      pkts: null,
    });
    // A profile without a ring: none, whatever the run recorded (at most the frame on the wire).
    expect(buildPathModel({ series: patched, scenario: s, events, t: 0.4 }).hosts[0].ring).toEqual({ state: 'none' });
  });

  it('resolves the ring the engine models: overrides over the profile, descriptors first', () => {
    const linux24 = { nic_ring_pkts: 0, nic_ring_descriptors: 256 };
    expect(ringSize(linux24, {})).toEqual({ unit: 'descriptors', size: 256 });
    expect(ringSize({ nic_ring_pkts: 0, nic_ring_descriptors: 0 }, {})).toBeNull();
    expect(ringSize({ nic_ring_pkts: 0, nic_ring_descriptors: 0 }, { nic_ring_pkts: 128 })).toEqual({ unit: 'packets', size: 128 });
    expect(ringSize(linux24, { nic_ring_descriptors: 0, nic_ring_pkts: 64 })).toEqual({ unit: 'packets', size: 64 });
    expect(ringSize(null, undefined)).toBeNull();
  });

  it('the text alternative names the queues against their limits and the recent events', () => {
    const m = buildPathModel({ series, scenario: s, events, t: 0.415, ring: { unit: 'descriptors', size: 256 } });
    expect(pathSummary(m)).toBe(
      'At 0.41 s: bottleneck queue 101 of 100 packets (full, and one on the wire), queueing delay 10.0 ms; ' +
        'host 0 interface queue 40 of 50 packets, NIC ring not recorded; host 1 interface queue 0 of 50 packets, NIC ring not recorded. ' +
        '2 drops and 0 local back-offs in the last 100 ms.',
    );
    // Marks are named where the discipline marks (or a mark happened); singular and plural.
    expect(pathSummary(buildPathModel({ series, scenario: s, events, t: 0.51 }))).toMatch(/ 0 drops, 1 ECN mark and 1 local back-off in the last 100 ms\.$/);
    const red = { ...s, bottleneck: { ...s.bottleneck, aqm: { kind: 'red' as const, min_th_pkts: 5, max_th_pkts: 15, max_p: 0.1, weight: 0.002, ecn: true } } };
    const at = pathSummary(buildPathModel({ series, scenario: red, events, t: 0.255 }));
    expect(at).toContain('At 0.25 s: bottleneck queue 72 of 100 packets, queueing delay 6.0 ms; host 0 interface queue 24 of 50 packets, no NIC ring modelled');
    expect(at).toMatch(/0 drops, 0 ECN marks and 0 local back-offs in the last 100 ms\.$/);
  });

  it('formats counts and fills', () => {
    expect(formatPkts(812)).toBe('812');
    expect(formatPkts(1000)).toBe('1,000');
    expect(formatPkts(1.25)).toBe('1.3');
    expect(queueText(1001, 1000)).toBe('1,001 of 1,000 packets (full, and one on the wire)');
    expect(queueText(0, 1)).toBe('0 of 1 packet');
    expect(queueText(null, 100)).toBe('not known (limit 100 packets)');
    expect(fill(50, 100)).toBe(0.5);
    expect(fill(101, 100)).toBe(1);
    expect(fill(null, 100)).toBe(0);
    expect(fill(3, 0)).toBe(0);
  });
});

describe('event index', () => {
  it('grows with the run and starts again for a new one', () => {
    const idx = new EventIndex();
    const a = [ev(0.1, 0, 'network_loss'), ev(0.2, 0, 'entered_loss')];
    idx.update(a, 1);
    expect(idx.size).toBe(2);
    expect(idx.count('network_loss', 0, 1)).toBe(1);
    // The log grows (a new array with the same prefix, as RunStore makes it).
    const b = [...a, ev(0.3, 1, 'network_loss'), ev(0.3, 1, 'timeout')];
    idx.update(b, 1);
    expect(idx.count('network_loss', 0, 1)).toBe(2);
    expect(idx.count('network_loss', 0, 1, 1)).toBe(1);
    expect(idx.count('timeout', 0.2, 0.3)).toBe(1);
    expect(idx.last('network_loss', 0.25)).toBe(0.1);
    expect(idx.last('network_loss', 0.05)).toBeNull();
    expect(idx.last('network_loss', 1, 1)).toBe(0.3);
    expect(idx.last('ecn_mark', 1)).toBeNull();
    // A new run.
    idx.update([ev(0.5, 0, 'ecn_mark')], 2);
    expect(idx.count('network_loss', 0, 1)).toBe(0);
    expect(idx.count('ecn_mark', 0, 1)).toBe(1);
    expect(idx.count('ecn_mark', 1, 0)).toBe(0);
  });

  it('answers in binary searches: 200 000 events, a window of 100 ms', () => {
    const log: EngineEvent[] = [];
    for (let i = 0; i < 200_000; i++) log.push(ev(i * 1e-4, i % 4, i % 3 === 0 ? 'network_loss' : 'entered_open'));
    const idx = new EventIndex().update(log, 'big');
    const t0 = performance.now();
    let total = 0;
    for (let k = 0; k < 1000; k++) total += idx.count('network_loss', 10 - 0.1, 10);
    expect(performance.now() - t0).toBeLessThan(50);
    expect(total / 1000).toBe(log.filter((e) => e.kind === 'network_loss' && e.t_s > 9.9 && e.t_s <= 10).length);
  });
});
