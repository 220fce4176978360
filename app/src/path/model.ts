// The path model: what the path view shows at one playback time, read from
// the run's recorded columns and event log only. Per host, its interface
// queue and NIC ring; per flow, the data it has outstanding; the bottleneck
// queue against its buffer; the drops, ECN marks and local back-offs of a
// short window before the time shown. Pure functions: the view renders this.
//
// The sample shown is the last one at or before the playback time (the same
// samples the charts draw up to their cursor): columns hold the state at the
// sample instant (docs/TEST-SURFACE.md §3.1).

import { upperBound } from '../charts/timeLink';
import type { RunSeries } from '../engine/columns';
import type { Mechanisms, MechanismOverrides, Scenario } from '../engine/types';
import { bottleneckRateBps, mssBytes } from '../model/path';
import type { EventIndex } from './events';

/** Linux `tcp_ca_state` names, by the `f<i>.state` code. */
export const STATE_NAMES = ['Open', 'Disorder', 'CWR', 'Recovery', 'Loss'] as const;

/** The recent-events window: 100 ms, or two samples where samples are further apart. */
export function eventWindowS(s: Scenario): number {
  return Math.max(0.1, (2 * s.sample_interval_ms) / 1000);
}

/** The NIC transmit ring the run's profile models (docs/profiles.md), or null when it models none. */
export type RingSize = { unit: 'descriptors' | 'packets'; size: number } | null;

/** The ring as the engine resolves it: the scenario's overrides over the profile's switches. */
export function ringSize(profile: Pick<Mechanisms, 'nic_ring_pkts' | 'nic_ring_descriptors'> | null, overrides: MechanismOverrides | undefined): RingSize {
  const descriptors = overrides?.nic_ring_descriptors ?? profile?.nic_ring_descriptors ?? 0;
  const pkts = overrides?.nic_ring_pkts ?? profile?.nic_ring_pkts ?? 0;
  if (descriptors > 0) return { unit: 'descriptors', size: descriptors };
  if (pkts > 0) return { unit: 'packets', size: pkts };
  return null;
}

/**
 * A host's NIC ring as the view can show it (`data-ring` is its `state`):
 * `none` when the profile models no ring (whatever the run recorded: at
 * most the frame on the wire), `not-recorded` when it models one but the run
 * (from an engine before `h<h>.ring_pkts`) has no column, `recorded` with
 * the column's value at the sample (`pkts`: frames in the driver's ring, the
 * one on the wire included; null before the first sample or where NaN).
 * One value, so a reading without a ring, or a ring both recorded and not,
 * cannot be represented.
 */
export type HostRing =
  | { state: 'none' }
  | { state: 'not-recorded'; size: NonNullable<RingSize> }
  | { state: 'recorded'; size: NonNullable<RingSize>; pkts: number | null };

export interface HostModel {
  index: number;
  nicBps: number;
  txqueuelenPkts: number;
  /** `h<h>.ifq_pkts` at the sample (null before the first sample). */
  ifqPkts: number | null;
  /** The NIC transmit ring: none, modelled but not recorded, or recorded with its reading. */
  ring: HostRing;
  /** Flow numbers on this host. */
  flows: number[];
  /** local_congestion events of the host's flows in the window. */
  localBackoffs: number;
  /** 1 at a local back-off, fading to 0 over the flash window. */
  backoffFlash: number;
}

export interface FlowModel {
  index: number;
  host: number;
  algorithm: string;
  /** The flow has started (its state column is a number). */
  active: boolean;
  /** `f<i>.outstanding_bytes`: sent and not yet cumulatively acknowledged. */
  outstandingBytes: number | null;
  /** The same in packets (÷ MSS). */
  outstandingPkts: number | null;
  /** `f<i>.outstanding_captured_bytes`: handed to the NIC driver and not yet acknowledged. */
  capturedBytes: number | null;
  cwndPkts: number | null;
  throughputBps: number | null;
  srttMs: number | null;
  /** `f<i>.state` code, null before the flow starts. */
  state: number | null;
  stateName: string | null;
  drops: number;
  marks: number;
  backoffs: number;
  timeouts: number;
  fastRetransmits: number;
}

export interface BottleneckModel {
  rateBps: number;
  bufferPkts: number;
  aqm: Scenario['bottleneck']['aqm']['kind'];
  /** The discipline can mark CE (ECN on, or step marking). */
  canMark: boolean;
  /** The scenario has random loss: a network_loss may be the link's, not the queue's. */
  randomLoss: boolean;
  /** `q.bottleneck_pkts` (the one on the wire included: a full drop-tail queue reads buffer + 1). */
  pkts: number | null;
  /** `q.bottleneck_delay_ms`. */
  delayMs: number | null;
  drops: number;
  marks: number;
  dropFlash: number;
  markFlash: number;
}

export interface PathModel {
  /** The playback time shown, s. */
  t: number;
  /** The sample shown (-1: none yet). */
  row: number;
  sampleT: number | null;
  /** The recent-events window, s: events with t − window < t_s ≤ t. */
  windowS: number;
  bottleneck: BottleneckModel;
  hosts: HostModel[];
  flows: FlowModel[];
  rttMs: number;
  mss: number;
}

export interface PathInput {
  series: RunSeries | null;
  scenario: Scenario;
  events: EventIndex;
  t: number;
  /** The profile's ring switches (ringSize). */
  ring?: RingSize;
  /** How long a flash lasts, s of simulated time (at least the window; the view lengthens it at high playback speeds). */
  flashS?: number;
}

const at = (col: Float64Array | undefined, row: number): number | null => {
  if (!col || row < 0 || row >= col.length) return null;
  const v = col[row];
  return Number.isFinite(v) ? v : null;
};

/** 1 at an event, fading linearly to 0 `span` seconds later. */
export function flash(last: number | null, t: number, span: number): number {
  if (last === null || !(span > 0)) return 0;
  const age = t - last;
  return age < 0 ? 0 : Math.max(0, 1 - age / span);
}

/** The path at time `t`: O(hosts + flows) plus binary searches, whatever the length of the run. */
export function buildPathModel(input: PathInput): PathModel {
  const { series, scenario: s, events, t } = input;
  const n = series ? series.length : 0;
  const row = series ? upperBound(series.t, t, n) - 1 : -1;
  const windowS = eventWindowS(s);
  const flashS = Math.max(windowS, input.flashS ?? 0);
  const from = t - windowS;
  const mss = mssBytes(s.mtu_bytes);
  const aqm = s.bottleneck.aqm;
  const canMark = aqm.kind === 'step_mark' || aqm.kind === 'dualpi2' || ('ecn' in aqm && aqm.ecn === true);

  const flows: FlowModel[] = [];
  const hosts: HostModel[] = s.hosts.map((h, hi) => {
    const ids: number[] = [];
    for (const f of h.flows) {
      const i = flows.length;
      ids.push(i);
      const col = series?.flows[i];
      const state = at(col?.state, row);
      const outstanding = at(col?.outstanding_bytes, row);
      flows.push({
        index: i,
        host: hi,
        algorithm: f.algorithm,
        active: state !== null,
        outstandingBytes: outstanding,
        outstandingPkts: outstanding === null ? null : outstanding / mss,
        capturedBytes: at(col?.outstanding_captured_bytes, row),
        cwndPkts: at(col?.cwnd_pkts, row),
        throughputBps: at(col?.throughput_bps, row),
        srttMs: at(col?.srtt_ms, row),
        state,
        stateName: state === null ? null : (STATE_NAMES[state] ?? `state ${state}`),
        drops: events.count('network_loss', from, t, i),
        marks: events.count('ecn_mark', from, t, i),
        backoffs: events.count('local_congestion', from, t, i),
        timeouts: events.count('timeout', from, t, i),
        fastRetransmits: events.count('fast_retransmit', from, t, i),
      });
    }
    const ringCol = (series?.hosts[hi] as { ring_pkts?: Float64Array } | undefined)?.ring_pkts;
    const size = input.ring ?? null;
    const ring: HostRing =
      size === null
        ? { state: 'none' }
        : !!ringCol && ringCol.length >= n && n > 0
          ? { state: 'recorded', size, pkts: at(ringCol, row) }
          : { state: 'not-recorded', size };
    let lastBackoff: number | null = null;
    for (const i of ids) {
      const l = events.last('local_congestion', t, i);
      if (l !== null && (lastBackoff === null || l > lastBackoff)) lastBackoff = l;
    }
    return {
      index: hi,
      nicBps: h.nic_bps,
      txqueuelenPkts: h.txqueuelen_pkts,
      ifqPkts: at(series?.hosts[hi]?.ifq_pkts, row),
      ring,
      flows: ids,
      localBackoffs: ids.reduce((a, i) => a + flows[i].backoffs, 0),
      backoffFlash: flash(lastBackoff, t, flashS),
    };
  });

  return {
    t,
    row,
    sampleT: row >= 0 && series ? series.t[row] : null,
    windowS,
    bottleneck: {
      // A trace-driven link at its mean rate.
      rateBps: bottleneckRateBps(s),
      bufferPkts: s.bottleneck.buffer_pkts,
      aqm: aqm.kind,
      canMark,
      randomLoss: s.loss_rate > 0,
      pkts: at(series?.bottleneck_queue_pkts, row),
      delayMs: at(series?.bottleneck_delay_ms, row),
      drops: events.count('network_loss', from, t),
      marks: events.count('ecn_mark', from, t),
      dropFlash: flash(events.last('network_loss', t), t, flashS),
      markFlash: flash(events.last('ecn_mark', t), t, flashS),
    },
    hosts,
    flows,
    rttMs: s.rtt_ms,
    mss,
  };
}

/** A fraction of a queue's limit for a bar, 0…1 (a full drop-tail queue counts the one on the wire: limit + 1). */
export function fill(pkts: number | null, limit: number): number {
  if (pkts === null || !(limit > 0)) return 0;
  return Math.max(0, Math.min(1, pkts / limit));
}

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** A count of packets, whole or to one decimal: "812", "1.5". */
export function formatPkts(v: number): string {
  const r = Math.round(v * 10) / 10;
  return Number.isInteger(r) ? r.toLocaleString('en-US') : r.toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
}

/** A queue against its limit: "812 of 1,000 packets"; a full one reads the limit + 1 (the packet on the wire counts). */
export function queueText(pkts: number | null, limit: number): string {
  if (pkts === null) return `not known (limit ${limit.toLocaleString('en-US')} packets)`;
  const over = pkts > limit ? ' (full, and one on the wire)' : '';
  return `${formatPkts(pkts)} of ${limit.toLocaleString('en-US')} ${limit === 1 ? 'packet' : 'packets'}${over}`;
}

/** "100 ms", "0.25 s". */
export function formatWindow(s: number): string {
  return s < 1 ? `${Math.round(s * 1000)} ms` : `${Number(s.toFixed(2))} s`;
}

/**
 * The text alternative (the panel's aria-live summary): the queues against
 * their limits and the recent events, in one or two sentences.
 */
function ringText(r: HostRing): string {
  switch (r.state) {
    case 'none':
      return 'no NIC ring modelled';
    case 'not-recorded':
      return 'NIC ring not recorded';
    case 'recorded':
      return r.pkts === null ? 'NIC ring not known' : `NIC ring ${plural(r.pkts, 'packet')}`;
  }
}

/**
 * What a flow's line says when it has no state to show: a flow that starts
 * later than the sample shown, or no sample at all (before a run's first
 * sample, or after a run that failed), when nothing is known of any flow.
 */
export function idleFlowText(sampled: boolean): string {
  return sampled ? 'not started' : 'no sample yet';
}

export function pathSummary(m: PathModel): string {
  if (m.row < 0) return 'No sample yet: the path fills in once the run has its first sample.';
  const b = m.bottleneck;
  const parts: string[] = [];
  parts.push(
    `At ${m.sampleT!.toFixed(2)} s: bottleneck queue ${queueText(b.pkts, b.bufferPkts)}` + (b.delayMs !== null ? `, queueing delay ${b.delayMs.toFixed(1)} ms` : ''),
  );
  for (const h of m.hosts) {
    const ring = ringText(h.ring);
    parts.push(`host ${h.index} interface queue ${queueText(h.ifqPkts, h.txqueuelenPkts)}, ${ring}`);
  }
  const events: string[] = [plural(b.drops, 'drop')];
  if (b.canMark || b.marks > 0) events.push(plural(b.marks, 'ECN mark'));
  const backoffs = m.hosts.reduce((a, h) => a + h.localBackoffs, 0);
  events.push(plural(backoffs, 'local back-off'));
  const list = events.length > 1 ? `${events.slice(0, -1).join(', ')} and ${events[events.length - 1]}` : events[0];
  return `${parts.join('; ')}. ${list} in the last ${formatWindow(m.windowS)}.`;
}
