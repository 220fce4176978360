// The path's derived quantities (capacity, MSS, wire size, BDP): their one
// home in the app. The constants are the engine's (generated from
// engine-wasm/core/src/net.rs), and capacityBps is Scenario::capacity_bps,
// so the sidebar, the charts, the summary and the lab texts agree.

import { ETHERNET_OVERHEAD_BYTES, TCP_IP_HEADER_BYTES, TRACE_OPPORTUNITY_BYTES, TRACE_TUN_HEADER_BYTES } from '../engine/generated/constants';
import type { LinkTrace, Scenario } from '../engine/types';

export { ETHERNET_OVERHEAD_BYTES, TCP_IP_HEADER_BYTES, TRACE_OPPORTUNITY_BYTES };

/** Payload per segment: MTU less IP, TCP and timestamp headers. */
export const mssBytes = (mtu: number) => mtu - TCP_IP_HEADER_BYTES;
/** Bytes of line time per full-size packet (framing included). */
export const wireBytes = (mtu: number) => mtu + ETHERNET_OVERHEAD_BYTES;

/** A trace's mean rate at 1504 bytes per opportunity (Mahimahi's capacity), b/s; 0 for an empty one. */
export function traceMeanBps(t: LinkTrace): number {
  const ms = t.opportunities_ms;
  const period = ms.length ? ms[ms.length - 1] : 0;
  return period > 0 ? (ms.length * TRACE_OPPORTUNITY_BYTES * 8 * 1000) / period : 0;
}

/** Wire bytes per byte of trace opportunity for full-size packets: (MTU + 38) / (MTU + 4). */
function wirePerOpportunityByte(mtu: number): number {
  return wireBytes(mtu) / (mtu + TRACE_TUN_HEADER_BYTES);
}

/**
 * The bottleneck's rate in b/s of wire time (Scenario::bottleneck_rate_bps):
 * `rate_bps`, or a trace's mean opportunity rate in wire terms.
 */
export function bottleneckRateBps(s: Scenario): number {
  const t = s.bottleneck.trace;
  return t ? traceMeanBps(t) * wirePerOpportunityByte(s.mtu_bytes) : s.bottleneck.rate_bps;
}

/** A trace's opportunities at or before `tMs` ms, the trace repeating with its last line as period. */
export function traceOpportunitiesThrough(t: LinkTrace, tMs: number): number {
  const ms = t.opportunities_ms;
  const period = ms.length ? ms[ms.length - 1] : 0;
  if (!(period > 0) || !(tMs >= 0)) return 0;
  const cycles = Math.floor(tMs / period);
  const rest = tMs - cycles * period;
  let lo = 0;
  let hi = ms.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ms[mid] <= rest) lo = mid + 1;
    else hi = mid;
  }
  return cycles * ms.length + lo;
}

/**
 * The path's capacity over the run (Scenario::capacity_bps): the bottleneck
 * rate, or the senders' NICs together when slower (b/s of wire time). A
 * trace-driven link counts its opportunities within the run's duration,
 * after time 0.
 */
export function capacityBps(s: Scenario): number {
  const nicSum = s.hosts.reduce((a, h) => a + h.nic_bps, 0);
  const t = s.bottleneck.trace;
  const bottleneck = t
    ? s.duration_ms >= 1
      ? (((traceOpportunitiesThrough(t, Math.floor(s.duration_ms)) - traceOpportunitiesThrough(t, 0)) * TRACE_OPPORTUNITY_BYTES * 8 * 1000) / s.duration_ms) *
        wirePerOpportunityByte(s.mtu_bytes)
      : 0
    : s.bottleneck.rate_bps;
  return Math.min(bottleneck, nicSum);
}

/** Full-size packets per second at the path's capacity. */
export function capacityPps(s: Scenario): number {
  return capacityBps(s) / (wireBytes(s.mtu_bytes) * 8);
}

/** Packets in flight that fill a path of `rateBps` and `rttMs` (at least 0). */
export function bdpPackets(rateBps: number, rttMs: number, mtu: number): number {
  return Math.max(0, (rateBps * (rttMs / 1000)) / 8 / wireBytes(mtu));
}

/** The BDP as payload bytes (what a window of that size holds). */
export function bdpPayloadBytes(rateBps: number, rttMs: number, mtu: number): number {
  return bdpPackets(rateBps, rttMs, mtu) * mssBytes(mtu);
}

/** A buffer of `fraction` × BDP, in whole packets (at least 1). */
export function bufferFromBdpFraction(fraction: number, rateBps: number, rttMs: number, mtu: number): number {
  return Math.max(1, Math.round(fraction * bdpPackets(rateBps, rttMs, mtu)));
}
