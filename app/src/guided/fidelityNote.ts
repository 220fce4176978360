// What the page says about the paper beside the simulation, derived from the
// engine's comparison (so it stays true as the model changes): how many
// published values the runs so far reproduce within the tolerance, which do
// not, and what the model is still missing for this lab.

import type { Comparison, Lab } from '../engine/generated/labs';

export interface FidelitySummary {
  /** Published values with a simulated counterpart (ranks excluded). */
  compared: number;
  within: number;
  /** The rows outside the tolerance, largest relative miss first. */
  misses: Comparison[];
  /** The lab's "Still missing: …" model differences (the mechanism the docs name). */
  missing: string[];
}

const STILL_MISSING = /^Still missing:\s*/;

export function fidelitySummary(lab: Lab, comparisons: readonly Comparison[] | null): FidelitySummary {
  const rows = (comparisons ?? []).filter((c) => c.within_tolerance !== null);
  const misses = rows
    .filter((c) => c.within_tolerance === false)
    .sort((a, b) => Math.abs((b.difference ?? 0) / (b.paper || 1)) - Math.abs((a.difference ?? 0) / (a.paper || 1)));
  return {
    compared: rows.length,
    within: rows.length - misses.length,
    misses,
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
