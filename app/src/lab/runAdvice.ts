// What to tell a student about a run that will be long, or that crashed:
// which settings drive its cost, named as the controls are labelled (issue 11).

import type { ResourceEstimate, Scenario } from '../engine/types';

export interface Advice {
  /** The scenario field (for data attributes and tests). */
  field: string;
  /** What to change, in the words of the page's controls. */
  text: string;
}

function flowCount(s: Scenario): number {
  return s.hosts.reduce((n, h) => n + h.flows.length, 0);
}

function seconds(ms: number): string {
  return ms >= 60_000 ? `${Math.round(ms / 60_000)} min` : `${Math.round(ms / 1000)} s`;
}

/**
 * Ways to make a long run quicker, most effective first. The engine's work
 * grows with the packets simulated: duration × rate, and with the number of
 * flows sharing the link (each flow's ACKs and timers).
 */
export function quickerRun(s: Scenario): Advice[] {
  const out: Advice[] = [];
  const flows = flowCount(s);
  if (s.duration_ms > 60_000) out.push({ field: 'duration_ms', text: `Shorten the Duration (now ${seconds(s.duration_ms)}): the time a run takes grows in proportion to it.` });
  if (s.bottleneck.rate_bps > 1e9) out.push({ field: 'bottleneck.rate_bps', text: `Lower the Bottleneck rate (now ${s.bottleneck.rate_bps / 1e9} Gb/s): each second simulates that many more packets.` });
  if (flows > 8) out.push({ field: 'hosts', text: `Use fewer flows or Parallel streams (now ${flows}).` });
  if (out.length === 0) out.push({ field: 'duration_ms', text: 'Shorten the Duration: the time a run takes grows in proportion to it.' });
  return out;
}

/**
 * The setting most likely behind a crash: recording near the engine's limit
 * points at the sample interval (dt=) and the flows; otherwise the sheer
 * size of the run. Null when nothing about the scenario stands out.
 */
export function crashSuspect(s: Scenario, estimate: ResourceEstimate | null): Advice | null {
  if (!estimate) return null;
  if (estimate.recorded_bytes > estimate.budget_bytes / 4) {
    return {
      field: 'sample_interval_ms',
      text: `This scenario records ${formatBytesShort(estimate.recorded_bytes)} of samples (${flowCount(s)} flows every ${s.sample_interval_ms} ms): sample less often (dt= in the link) or use fewer flows.`,
    };
  }
  if (s.duration_ms > 600_000) return { field: 'duration_ms', text: `This is a long run (Duration ${seconds(s.duration_ms)}): try a shorter one.` };
  return null;
}

export function formatBytesShort(bytes: number): string {
  if (bytes >= 2 ** 30) return `${(bytes / 2 ** 30).toFixed(1)} GB`;
  if (bytes >= 2 ** 20) return `${Math.round(bytes / 2 ** 20)} MB`;
  if (bytes >= 2 ** 10) return `${Math.round(bytes / 2 ** 10)} KB`;
  return `${bytes} bytes`;
}

/** "1.2 billion", "340 million", "52 000". */
export function formatCount(n: number): string {
  if (n >= 1e9) return `${(n / 1e9).toFixed(1)} billion`;
  if (n >= 1e6) return `${Math.round(n / 1e6)} million`;
  return Math.round(n).toLocaleString('en-GB').replace(/,/g, ' ');
}
