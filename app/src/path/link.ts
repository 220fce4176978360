// The link between the switch and the receiver, as the path view draws it:
// packets and ACKs as dots moving along it, aggregated so that a dot stands
// for several packets on a fast link and the marks stay few.
//
// Where the dots come from. The run records, per flow, the payload
// delivered in order in each sample interval (`f<i>.throughput_bps`); its
// running sum is the number of packets delivered so far, C(t), which only
// grows. A dot is drawn for every `perDot`-th packet: packet m reaches the
// receiver when C passes m, and its ACK travels back for one propagation
// delay. At time t, the dots in flight towards the receiver are the packets
// m with C(t) < m ≤ C(t) + r·d (r: the recent delivery rate, d: the one-way
// delay), and the ACKs on their way back are those with C(t) − r·d < m ≤
// C(t). The dots move as C grows, so they follow playback (pause, step,
// scrub) exactly and stand still when the flow stalls; while playing faster
// than the eye can follow, they keep their number and spacing but drift at
// a visible pace (drawnDelivered). The counts shown as numbers elsewhere
// are the recorded columns; the dots are only a picture of the recorded
// delivery rate.

import { flowColor } from '../charts/palette';
import { upperBound } from '../charts/timeLink';
import type { RunSeries } from '../engine/columns';
import type { Scenario } from '../engine/types';
import { capacityPps, mssBytes } from '../model/path';

/** Most lanes drawn: more flows share lanes (per host, then one lane). */
export const MAX_LANES = 8;
/** Dots per lane and direction at the link's capacity (more only in a burst, never more than MAX_DOTS_PER_LANE). */
export const DOTS_AT_CAPACITY = 18;
export const MAX_DOTS_PER_LANE = 36;

/**
 * Packets delivered in order so far, per flow, at every sample (prefix sums
 * of the throughput column × the interval ÷ the payload bits per packet).
 * Grows with the run: only new rows are added.
 */
export class DeliveryIndex {
  private key: unknown = undefined;
  private rows = 0;
  private bitsPerPacket = 1;
  private prefix: Float64Array[] = [];

  update(series: RunSeries, mss: number, key: unknown): this {
    if (key !== this.key || series.length < this.rows || series.flows.length !== this.prefix.length || mss * 8 !== this.bitsPerPacket) {
      this.key = key;
      this.rows = 0;
      this.bitsPerPacket = mss * 8;
      this.prefix = series.flows.map(() => new Float64Array(Math.max(64, series.length)));
    }
    const n = series.length;
    if (n === this.rows) return this;
    const t = series.t;
    this.prefix = this.prefix.map((p, f) => {
      let out = p;
      if (out.length < n) {
        out = new Float64Array(Math.max(n, out.length * 2));
        out.set(p.subarray(0, this.rows));
      }
      const thr = series.flows[f].throughput_bps;
      let acc = this.rows > 0 ? out[this.rows - 1] : 0;
      for (let i = this.rows; i < n; i++) {
        const dt = t[i] - (i > 0 ? t[i - 1] : 0);
        const v = thr[i];
        if (Number.isFinite(v) && v > 0 && dt > 0) acc += (v * dt) / this.bitsPerPacket;
        out[i] = acc;
      }
      return out;
    });
    this.rows = n;
    return this;
  }

  /**
   * Packets of flow `f` delivered by time `t`: the sum to the last sample at
   * or before t, plus the part of the next sample's interval up to t (that
   * sample's rate; nothing past the last sample).
   */
  delivered(series: RunSeries, f: number, t: number): number {
    const n = Math.min(this.rows, series.length);
    const j = upperBound(series.t, t, n);
    const base = j > 0 ? this.prefix[f][j - 1] : 0;
    if (j >= n) return base;
    const t0 = j > 0 ? series.t[j - 1] : 0;
    const v = series.flows[f].throughput_bps[j];
    return Number.isFinite(v) && v > 0 && t > t0 ? base + ((t - t0) * v) / this.bitsPerPacket : base;
  }
}

/** One lane of the link: the flows it stands for, its colour and its one-way delay. */
export interface Lane {
  id: string;
  label: string;
  flows: number[];
  color: string;
  /** One-way propagation delay, s (half the base RTT plus half the flows' mean extra delay). */
  oneWayS: number;
}

/** The lanes: one per flow (up to MAX_LANES flows), else one per host (up to MAX_LANES hosts), else one for all. */
export function pathLanes(s: Scenario): Lane[] {
  const flows: { host: number; extra: number }[] = [];
  s.hosts.forEach((h, hi) => h.flows.forEach((f) => flows.push({ host: hi, extra: f.extra_delay_ms })));
  const oneWay = (ids: number[]) => (s.rtt_ms + ids.reduce((a, i) => a + flows[i].extra, 0) / Math.max(1, ids.length)) / 2000;
  if (flows.length <= MAX_LANES) {
    return flows.map((_, i) => ({ id: `f${i}`, label: `flow ${i}`, flows: [i], color: flowColor(i), oneWayS: oneWay([i]) }));
  }
  if (s.hosts.length <= MAX_LANES) {
    let first = 0;
    return s.hosts.map((h, hi) => {
      const ids = h.flows.map((_, k) => first + k);
      first += h.flows.length;
      return { id: `h${hi}`, label: `host ${hi}'s ${ids.length === 1 ? 'flow' : `${ids.length} flows`}`, flows: ids, color: flowColor(ids[0]), oneWayS: oneWay(ids) };
    });
  }
  const all = flows.map((_, i) => i);
  return [{ id: 'all', label: `all ${all.length} flows`, flows: all, color: '#7a8794', oneWayS: oneWay(all) }];
}

/** The smallest of 1, 2, 5, 10, 20, 50, … that is at least x. */
export function niceCeil(x: number): number {
  if (!(x > 1)) return 1;
  const p = 10 ** Math.floor(Math.log10(x));
  for (const m of [1, 2, 5, 10]) if (m * p >= x - 1e-9 * p) return m * p;
  return 10 * p;
}

/**
 * Packets per dot for a run: enough that a lane carrying the whole path's
 * capacity shows about DOTS_AT_CAPACITY dots each way (1, 2, 5, 10, …).
 * Fixed for the run, so a dot keeps its meaning as the rate changes.
 */
export function packetsPerDot(s: Scenario, lanes: Lane[]): number {
  const d = lanes.reduce((m, l) => Math.max(m, l.oneWayS), 0);
  return niceCeil((capacityPps(s) * d) / DOTS_AT_CAPACITY);
}

export interface LaneDots {
  /** Packets on the way to the receiver: 0 at the switch, 1 at the receiver. */
  forward: number[];
  /** ACKs on the way back: 0 at the receiver, 1 back at the switch. */
  back: number[];
}

/**
 * The dots of one lane: `c` packets delivered so far, `ratePps` the recent
 * delivery rate, `oneWayS` the propagation delay, a dot per `perDot`
 * packets, at most `max` each way (those nearest the receiver).
 */
export function laneDots(c: number, ratePps: number, oneWayS: number, perDot: number, max = MAX_DOTS_PER_LANE): LaneDots {
  const forward: number[] = [];
  const back: number[] = [];
  const span = ratePps * oneWayS;
  if (!(span > 0) || !(perDot > 0) || !Number.isFinite(c)) return { forward, back };
  for (let m = (Math.floor(c / perDot) + 1) * perDot; m - c < span && forward.length < max; m += perDot) forward.push(1 - (m - c) / span);
  for (let m = Math.floor(c / perDot) * perDot; c - m < span && back.length < max; m -= perDot) back.push((c - m) / span);
  return { forward, back };
}

export interface LaneFrame {
  lane: Lane;
  /** Packets per second delivered over the recent window (the lane's flows together). */
  ratePps: number;
  dots: LaneDots;
}

/** How far back the delivery rate that spaces the dots is taken: two base RTTs, at least 10 samples (a steadier picture than the raw samples). */
export function rateWindowS(s: Scenario): number {
  return Math.max((2 * s.rtt_ms) / 1000, (10 * s.sample_interval_ms) / 1000);
}

/** Dot spacings a stream drifts per second of wall time when it moves too fast to follow (below). */
export const VISIBLE_DRIFT_PER_S = 1.5;
/** A stream moving more than this many dot spacings per 60 Hz frame cannot be followed by eye (it strobes). */
export const MAX_SPACINGS_PER_FRAME = 0.5;

/**
 * The delivered count the dots are drawn at. Paused (or slow enough to
 * follow), the exact one: every dot where its packet is. Playing faster than
 * the eye can follow (a 1 Gb/s link moves hundreds of dots per frame even at
 * 0.1×), the dots keep their number and spacing (the recorded rate) but
 * drift at VISIBLE_DRIFT_PER_S of wall time instead of strobing: `t / speed`
 * is wall time while playing.
 */
export function drawnDelivered(c: number, perDot: number, ratePps: number, o: { playing: boolean; speed: number; t: number }): number {
  const perFrame = ((o.speed / 60) * ratePps) / perDot;
  if (!o.playing || !(perFrame >= MAX_SPACINGS_PER_FRAME) || !(o.speed > 0)) return c;
  const wall = o.t / o.speed;
  const phase = (wall * VISIBLE_DRIFT_PER_S) % 1;
  return (Math.floor(c / perDot) + phase) * perDot;
}

export interface LaneFrame {
  lane: Lane;
  /** Packets per second delivered over the recent window (the lane's flows together). */
  ratePps: number;
  /** The dots drift at a visible pace instead of their true one (drawnDelivered). */
  slowed: boolean;
  dots: LaneDots;
}

/**
 * Every lane's dots at time `t`: bounded by lanes × 2 × MAX_DOTS_PER_LANE
 * whatever the rate. `playback`: while playing, streams too fast to follow
 * drift at a visible pace (drawnDelivered); without it, the exact positions.
 */
export function linkFrame(
  series: RunSeries,
  s: Scenario,
  index: DeliveryIndex,
  lanes: Lane[],
  t: number,
  perDot: number,
  playback: { playing: boolean; speed: number } = { playing: false, speed: 1 },
): LaneFrame[] {
  const w = rateWindowS(s);
  const from = Math.max(0, t - w);
  return lanes.map((lane) => {
    let now = 0;
    let before = 0;
    for (const f of lane.flows) {
      if (f >= series.flows.length) continue;
      now += index.delivered(series, f, t);
      before += index.delivered(series, f, from);
    }
    const ratePps = t > from ? Math.max(0, (now - before) / (t - from)) : 0;
    const drawn = drawnDelivered(now, perDot, ratePps, { ...playback, t });
    return { lane, ratePps, slowed: drawn !== now, dots: laneDots(drawn, ratePps, lane.oneWayS, perDot) };
  });
}

/** MSS of the scenario's MTU (re-exported for the view). */
export const scenarioMss = (s: Scenario) => mssBytes(s.mtu_bytes);
