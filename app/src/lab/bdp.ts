// The bandwidth-delay product and what a window does with it: the read-out
// beside the window and buffer controls ("window above BDP + txqueuelen"),
// computed before running.

import type { Scenario } from '../engine/types';
import { bdpPackets, bottleneckRateBps, capacityBps, mssBytes, wireBytes } from '../model/path';

export type WindowVerdict =
  /** The windows are below the BDP: throughput is capped at window/RTT. */
  | 'window_limited'
  /** Fits BDP + the queues: no congestion expected. */
  | 'fits'
  /** The excess lands in the senders' interface queue and overflows it: local congestion (CWR). */
  | 'overflows_ifq'
  /** The excess overflows the bottleneck buffer: network losses. */
  | 'overflows_buffer';

export interface WindowAnalysis {
  rateBps: number;
  rttMs: number;
  mss: number;
  bdpPkts: number;
  bdpBytes: number;
  /** Sum of the flows' windows (each capped by nothing else), packets and bytes. */
  windowPkts: number;
  windowBytes: number;
  /** Largest txqueuelen among the hosts whose NIC is the narrowest point. */
  txqueuelenPkts: number;
  bufferPkts: number;
  /** Where a standing queue forms: a host's interface queue (NIC ≤ bottleneck) or the bottleneck. */
  queueAt: 'ifq' | 'bottleneck';
  /** The packets the path can hold before something overflows: BDP + that queue. */
  capacityPkts: number;
  /** Throughput the windows allow at most (b/s of payload), min(capacity, window/RTT). */
  windowCapBps: number;
  verdict: WindowVerdict;
}

/**
 * What the windows of a scenario do on its path. With one host whose NIC is
 * no faster than the bottleneck (back-to-back, parallel streams), the queue
 * builds in that host's interface queue (txqueuelen); with several hosts or a
 * faster NIC it builds in the bottleneck buffer.
 */
export function analyseWindow(s: Scenario): WindowAnalysis {
  const mss = mssBytes(s.mtu_bytes);
  const rateBps = capacityBps(s);
  const rttMs = s.rtt_ms;
  const bdpPkts = bdpPackets(rateBps, rttMs, s.mtu_bytes);
  const windowBytes = s.hosts.reduce((a, h) => a + h.flows.reduce((b, f) => b + f.window_bytes, 0), 0);
  const windowPkts = windowBytes / mss;
  const queueAt: 'ifq' | 'bottleneck' = s.hosts.length === 1 && s.hosts[0].nic_bps <= bottleneckRateBps(s) ? 'ifq' : 'bottleneck';
  const txqueuelenPkts = s.hosts.reduce((a, h) => Math.max(a, h.txqueuelen_pkts), 0);
  const bufferPkts = s.bottleneck.buffer_pkts;
  const capacityPkts = bdpPkts + (queueAt === 'ifq' ? txqueuelenPkts : bufferPkts);
  const rttS = rttMs / 1000;
  const payloadRate = rateBps * (mss / wireBytes(s.mtu_bytes));
  const windowCapBps = rttS > 0 ? Math.min(payloadRate, (windowBytes * 8) / rttS) : payloadRate;
  let verdict: WindowVerdict;
  if (windowPkts < bdpPkts) verdict = 'window_limited';
  else if (windowPkts <= capacityPkts) verdict = 'fits';
  else verdict = queueAt === 'ifq' ? 'overflows_ifq' : 'overflows_buffer';
  return {
    rateBps,
    rttMs,
    mss,
    bdpPkts,
    bdpBytes: bdpPkts * mss,
    windowPkts,
    windowBytes,
    txqueuelenPkts,
    bufferPkts,
    queueAt,
    capacityPkts,
    windowCapBps,
    verdict,
  };
}
