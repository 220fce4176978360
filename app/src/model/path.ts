// The path's derived quantities (capacity, MSS, wire size, BDP): their one
// home in the app. The constants are the engine's (generated from
// engine-wasm/core/src/net.rs), and capacityBps is Scenario::capacity_bps,
// so the sidebar, the charts, the summary and the lab texts agree.

import { ETHERNET_OVERHEAD_BYTES, TCP_IP_HEADER_BYTES } from '../engine/generated/constants';
import type { Scenario } from '../engine/types';

export { ETHERNET_OVERHEAD_BYTES, TCP_IP_HEADER_BYTES };

/** Payload per segment: MTU less IP, TCP and timestamp headers. */
export const mssBytes = (mtu: number) => mtu - TCP_IP_HEADER_BYTES;
/** Bytes of line time per full-size packet (framing included). */
export const wireBytes = (mtu: number) => mtu + ETHERNET_OVERHEAD_BYTES;

/** The bottleneck rate, or the senders' NICs together when slower (b/s of wire time). */
export function capacityBps(s: Scenario): number {
  const nicSum = s.hosts.reduce((a, h) => a + h.nic_bps, 0);
  return Math.min(s.bottleneck.rate_bps, nicSum);
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
