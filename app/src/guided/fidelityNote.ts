// What the page says about the paper beside the simulation, derived from the
// engine's comparison and findings (so it stays true as the model changes):
// how many published values the runs so far reproduce, which do not, which
// of the paper's findings they break, and what the model is still missing.
// The page says the simulation agrees only when values and findings hold.

import type { Comparison, FindingOutcome, Lab } from '../engine/generated/labs';

export interface FidelitySummary {
  /** Published values with a simulated counterpart (ranks excluded). */
  compared: number;
  within: number;
  /** The rows that do not agree, largest relative miss first. */
  misses: Comparison[];
  /** Findings these runs decide (held or broken), and those broken. */
  findingsDecided: number;
  broken: FindingOutcome[];
  /** Values and decided findings all hold (false when nothing is decided). */
  agrees: boolean;
  /** The lab's "Still missing: …" model differences (the mechanism the docs name). */
  missing: string[];
}

const STILL_MISSING = /^Still missing:\s*/;

export function fidelitySummary(lab: Lab, comparisons: readonly Comparison[] | null, findings: readonly FindingOutcome[] | null = null): FidelitySummary {
  const rows = (comparisons ?? []).filter((c) => c.within_tolerance !== null);
  const miss = (c: Comparison) => Math.abs((c.difference ?? 0) / (c.paper || 1));
  const misses = rows.filter((c) => c.within_tolerance === false).sort((a, b) => miss(b) - miss(a));
  const decided = (findings ?? []).filter((f) => f.status === 'held' || f.status === 'broken');
  const broken = decided.filter((f) => f.status === 'broken');
  return {
    compared: rows.length,
    within: rows.length - misses.length,
    misses,
    findingsDecided: decided.length,
    broken,
    agrees: rows.length + decided.length > 0 && misses.length === 0 && broken.length === 0,
    missing: lab.guide.model_differences.filter((d) => STILL_MISSING.test(d)).map((d) => d.replace(STILL_MISSING, '')),
  };
}

/**
 * Every series gave exactly the same result at every (x, seed) run so far
 * (at least one such pair run): the algorithms the series differ in never
 * acted differently, so their lines lie on top of each other.
 */
export function seriesIndistinguishable(results: readonly ({ series: string; x: unknown; seed: number; group_throughput_mbps: number[] } | null)[]): boolean {
  const byRun = new Map<string, { series: string; key: string }[]>();
  for (const r of results) {
    if (!r) continue;
    const k = `${JSON.stringify(r.x)}|${r.seed}`;
    const list = byRun.get(k) ?? [];
    list.push({ series: r.series, key: JSON.stringify(r.group_throughput_mbps) });
    byRun.set(k, list);
  }
  let compared = false;
  for (const list of byRun.values()) {
    if (new Set(list.map((e) => e.series)).size < 2) continue;
    compared = true;
    if (new Set(list.map((e) => e.key)).size > 1) return false;
  }
  return compared;
}
