import { describe, expect, it } from 'vitest';
import { parseColumns, SeriesBuffer, type RunSeries } from '../engine/columns';
import { FLOW_COLUMNS } from '../engine/generated/constants';
import { JUMBO_SCENARIO as DEFAULT_SCENARIO } from '../engine/testing/fixture';
import type { Scenario } from '../engine/types';
import { DeliveryIndex, DOTS_AT_CAPACITY, drawnDelivered, laneDots, linkFrame, MAX_DOTS_PER_LANE, MAX_LANES, niceCeil, packetsPerDot, pathLanes } from './link';

function scenario(flowsPerHost: number[], mtu = 1500): Scenario {
  const s = structuredClone(DEFAULT_SCENARIO);
  s.mtu_bytes = mtu;
  s.hosts = flowsPerHost.map((n) => ({ ...structuredClone(DEFAULT_SCENARIO.hosts[0]), flows: Array.from({ length: n }, () => structuredClone(DEFAULT_SCENARIO.hosts[0].flows[0])) }));
  return s;
}

/** Rows at t = (i + 1) × 10 ms with each flow's throughput given by `thr(flow, i)`. */
function series(s: Scenario, rows: number, thr: (f: number, i: number) => number): RunSeries {
  const flows = s.hosts.reduce((a, h) => a + h.flows.length, 0);
  const names = ['t_s'];
  for (let f = 0; f < flows; f++) for (const c of FLOW_COLUMNS) names.push(`f${f}.${c}`);
  names.push('q.bottleneck_pkts', 'q.bottleneck_delay_ms');
  s.hosts.forEach((_, h) => names.push(`h${h}.ifq_pkts`));
  const chunk = new Float64Array(names.length * rows);
  names.forEach((name, c) => {
    const m = /^f(\d+)\.throughput_bps$/.exec(name);
    for (let i = 0; i < rows; i++) chunk[c * rows + i] = name === 't_s' ? (i + 1) * 0.01 : m ? thr(Number(m[1]), i) : 0;
  });
  const buf = new SeriesBuffer(parseColumns(names), rows);
  buf.append(chunk);
  return buf.series();
}

const MSS = 1448;
/** 100 packets per second of payload at MSS 1448. */
const PPS100 = 100 * MSS * 8;

describe('delivered packets (the running sum of the throughput column)', () => {
  const s = scenario([1, 1]);
  const run = series(s, 100, (f) => (f === 0 ? PPS100 : 2 * PPS100));

  it('sums the recorded rate over each sample interval, interpolating inside the next one', () => {
    const idx = new DeliveryIndex().update(run, MSS, 1);
    expect(idx.delivered(run, 0, 0)).toBe(0);
    expect(idx.delivered(run, 0, 0.01)).toBeCloseTo(1, 9);
    expect(idx.delivered(run, 0, 0.5)).toBeCloseTo(50, 9);
    expect(idx.delivered(run, 1, 0.5)).toBeCloseTo(100, 9);
    expect(idx.delivered(run, 0, 0.505)).toBeCloseTo(50.5, 9);
    // Past the last sample nothing is guessed.
    expect(idx.delivered(run, 0, 5)).toBeCloseTo(100, 9);
  });

  it('grows with the run and starts again for a new one; NaN and negative rates add nothing', () => {
    const idx = new DeliveryIndex();
    const half = { ...run, length: 50, t: run.t.subarray(0, 50), flows: run.flows.map((f) => ({ ...f, throughput_bps: f.throughput_bps.subarray(0, 50) })) };
    idx.update(half, MSS, 1);
    expect(idx.delivered(half, 0, 1)).toBeCloseTo(50, 9);
    idx.update(run, MSS, 1);
    expect(idx.delivered(run, 0, 1)).toBeCloseTo(100, 9);
    const gaps = series(s, 100, (_, i) => (i % 2 ? NaN : i % 3 ? -5 : PPS100));
    idx.update(gaps, MSS, 2);
    // Rows 0, 6, 12, … (even and divisible by 3) deliver one packet each.
    expect(idx.delivered(gaps, 0, 1)).toBeCloseTo(17, 9);
  });
});

describe('dots', () => {
  it('a dot per perDot packets: forward ones still to arrive, ACKs coming back', () => {
    // 1000 pps over 15 ms: 15 packets on the way each way; a dot per 5.
    const d = laneDots(102, 1000, 0.015, 5);
    expect(d.forward.length).toBe(3); // packets 105, 110, 115
    expect(d.forward[0]).toBeCloseTo(1 - 3 / 15, 12);
    expect(d.forward[2]).toBeCloseTo(1 - 13 / 15, 12);
    expect(d.back.length).toBe(3); // packets 100, 95, 90
    expect(d.back[0]).toBeCloseTo(2 / 15, 12);
    for (const p of [...d.forward, ...d.back]) {
      expect(p).toBeGreaterThan(0);
      expect(p).toBeLessThanOrEqual(1);
    }
  });

  it('move with the delivered count: a step forward moves every dot along, a stall stops them', () => {
    const a = laneDots(102, 1000, 0.015, 5);
    const b = laneDots(103, 1000, 0.015, 5);
    expect(b.forward[0]).toBeGreaterThan(a.forward[0]);
    expect(b.back[0]).toBeGreaterThan(a.back[0]);
    expect(laneDots(103, 0, 0.015, 5)).toEqual({ forward: [], back: [] });
    expect(laneDots(NaN, 1000, 0.015, 5)).toEqual({ forward: [], back: [] });
  });

  it('never more than the cap per lane and direction, however fast the burst', () => {
    const d = laneDots(1e6, 1e9, 0.1, 1);
    expect(d.forward.length).toBe(MAX_DOTS_PER_LANE);
    expect(d.back.length).toBe(MAX_DOTS_PER_LANE);
  });

  it('while playing too fast to follow, keep their number and spacing but drift at a visible pace', () => {
    // Paused: exactly where the packets are.
    expect(drawnDelivered(1234.5, 10, 13_800, { playing: false, speed: 1, t: 3 })).toBe(1234.5);
    // Slow enough to follow (under half a spacing per 60 Hz frame): exact too.
    expect(drawnDelivered(1234.5, 10, 200, { playing: true, speed: 1, t: 3 })).toBe(1234.5);
    // 13 800 packets/s at 1×: 23 spacings a frame. Drawn at a phase of the wall clock (t ÷ speed).
    const a = drawnDelivered(1234.5, 10, 13_800, { playing: true, speed: 1, t: 3.1 });
    expect(Math.floor(a / 10)).toBe(123);
    expect(a % 10).toBeCloseTo(((3.1 * 1.5) % 1) * 10, 9);
    // A frame later (1/60 s of wall time) the dots have moved by 1.5/60 of a spacing, however fast the playback.
    for (const speed of [1, 10, 100]) {
      const before = laneDots(drawnDelivered(5000, 20, 13_800, { playing: true, speed, t: 2 * speed }), 13_800, 0.015, 20);
      const after = laneDots(drawnDelivered(5000, 20, 13_800, { playing: true, speed, t: (2 + 1 / 60) * speed }), 13_800, 0.015, 20);
      expect(after.forward.length).toBe(before.forward.length);
      expect((after.forward[0] - before.forward[0]) * ((13_800 * 0.015) / 20)).toBeCloseTo(1.5 / 60, 9);
    }
  });

  it('packets per dot: a lane at the capacity shows about DOTS_AT_CAPACITY dots, in 1-2-5 steps', () => {
    expect([0.5, 1, 1.2, 2, 3, 7, 10, 11, 240].map(niceCeil)).toEqual([1, 1, 2, 2, 5, 10, 10, 20, 500]);
    // 1 Gb/s at MTU 9000 (13 831 pps), 15 ms each way: 207 packets on the wire → 20 per dot.
    const jumbo = scenario([1], 9000);
    const k = packetsPerDot(jumbo, pathLanes(jumbo));
    expect(k).toBe(20);
    expect((13831 * 0.015) / k).toBeLessThanOrEqual(DOTS_AT_CAPACITY);
    const slow = { ...scenario([1]), bottleneck: { ...jumbo.bottleneck, rate_bps: 1e6 } };
    expect(packetsPerDot(slow, pathLanes(slow))).toBe(1);
  });
});

describe('lanes', () => {
  it('one per flow, up to MAX_LANES flows, with its own delay', () => {
    const s = scenario([1, 1]);
    s.hosts[1].flows[0].extra_delay_ms = 20;
    const lanes = pathLanes(s);
    expect(lanes.map((l) => [l.id, l.flows, l.oneWayS])).toEqual([
      ['f0', [0], 0.015],
      ['f1', [1], 0.025],
    ]);
  });

  it('one per host beyond that, one for all beyond MAX_LANES hosts', () => {
    const perHost = pathLanes(scenario([4, 4, 4]));
    expect(perHost.map((l) => [l.id, l.flows])).toEqual([
      ['h0', [0, 1, 2, 3]],
      ['h1', [4, 5, 6, 7]],
      ['h2', [8, 9, 10, 11]],
    ]);
    const many = pathLanes(scenario(Array.from({ length: MAX_LANES + 1 }, () => 2)));
    expect(many).toHaveLength(1);
    expect(many[0].flows).toHaveLength(2 * (MAX_LANES + 1));
  });
});

describe('a frame of the link', () => {
  it('sums each lane’s flows and spaces their dots by the recent rate; bounded by lanes × 2 × cap', () => {
    const s = scenario([16, 16, 16, 16, 16, 16, 16, 16]); // 128 flows: 8 host lanes
    const run = series(s, 300, (f) => (f % 2 ? 3 * PPS100 : PPS100));
    const lanes = pathLanes(s);
    const idx = new DeliveryIndex().update(run, MSS, 1);
    const frame = linkFrame(run, s, idx, lanes, 2.5, 1);
    expect(frame).toHaveLength(8);
    // Each host: 8 flows at 100 pps and 8 at 300 pps.
    for (const f of frame) expect(f.ratePps).toBeCloseTo(3200, 6);
    const dots = frame.reduce((a, f) => a + f.dots.forward.length + f.dots.back.length, 0);
    expect(dots).toBeLessThanOrEqual(MAX_LANES * 2 * MAX_DOTS_PER_LANE);
  });

  it('work per frame does not grow with the run', () => {
    const s = scenario([1, 1]);
    const run = series(s, 100_000, () => PPS100);
    const lanes = pathLanes(s);
    const idx = new DeliveryIndex().update(run, MSS, 1);
    const t0 = performance.now();
    for (let k = 0; k < 1000; k++) linkFrame(run, s, idx, lanes, 500 + k * 0.01, 1);
    expect(performance.now() - t0).toBeLessThan(200);
  });
});
