// An example of what an instructor's grading script or a course's CI can do
// with Sawtooth, using ONLY its public, documented test surface
// (docs/TEST-SURFACE.md):
//
//   - scenario links (?v=1&alg=…&rtt=…&seed=…),
//   - <html data-run-state="idle|running|done|error">,
//   - the read-only window.sawtooth object (scenario, summary, series, whenDone),
//   - the data attributes of each chart <figure data-testid="chart-ID">:
//     data-series-ids, data-point-counts, data-x-domain, data-y-domain,
//     data-marker-counts (JSON values).
//
// Nothing here depends on the page's markup, CSS classes or wording.
// Copy this file into your own Playwright project and point baseURL at a
// Sawtooth deployment.

import { expect, test, type Page } from '@playwright/test';

interface ChartData {
  seriesIds: string[];
  pointCounts: Record<string, number>;
  xDomain: [number, number];
  yDomain: [number, number];
  markerCounts: Record<string, number>;
}

async function chartData(page: Page, id: string): Promise<ChartData> {
  const chart = page.locator(`[data-testid="chart-${id}"]`);
  const json = async (name: string) => JSON.parse((await chart.getAttribute(name)) ?? 'null');
  return {
    seriesIds: await json('data-series-ids'),
    pointCounts: await json('data-point-counts'),
    xDomain: await json('data-x-domain'),
    yDomain: await json('data-y-domain'),
    markerCounts: await json('data-marker-counts'),
  };
}

/** Open a scenario link and wait until its run is finished and drawn. */
async function runLink(page: Page, query: string): Promise<void> {
  await page.goto(`./?${query}`);
  const state = await page.evaluate(() => window.sawtooth!.whenDone());
  expect(state).toBe('done');
  await expect(page.locator('html')).toHaveAttribute('data-run-state', 'done');
}

// Lab: Standard TCP (Reno) against Scalable TCP on one 100 Mb/s bottleneck.
const LAB = 'v=1&hosts=1,1&alg=reno,scalable&rtt=40&rate=100M&buf=300&txq=100&win=8M&mtu=1500&dur=10&seed=7';

test('grading: the link runs the intended experiment', async ({ page }) => {
  await runLink(page, LAB);
  const s = await page.evaluate(() => window.sawtooth!.scenario()!);
  expect(s.seed).toBe(7);
  expect(s.rtt_ms).toBe(40);
  expect(s.duration_ms).toBe(10_000);
  expect(s.bottleneck.rate_bps).toBe(100e6);
  expect(s.hosts.flatMap((h) => h.flows.map((f) => f.algorithm))).toEqual(['reno', 'scalable']);
});

test('grading: the charts show both flows over the whole run', async ({ page }) => {
  await runLink(page, LAB);
  const series = await page.evaluate(() => {
    const r = window.sawtooth!.series()!;
    return { length: r.length, tEnd: r.t[r.length - 1], maxCwnd: r.flows.map((f) => Math.max(...f.cwnd_pkts.filter(Number.isFinite))) };
  });
  const cwnd = await chartData(page, 'cwnd');
  expect(cwnd.seriesIds).toEqual(expect.arrayContaining(['f0.cwnd_pkts', 'f1.cwnd_pkts']));
  // Every sample of the run is shown (the view is the whole run).
  expect(cwnd.pointCounts['f0.cwnd_pkts']).toBe(series.length);
  expect(cwnd.pointCounts['f1.cwnd_pkts']).toBe(series.length);
  expect(cwnd.xDomain[0]).toBeCloseTo(0, 6);
  expect(cwnd.xDomain[1]).toBeCloseTo(series.tEnd, 1);
  // The y axis covers the largest window of either flow.
  expect(cwnd.yDomain[1]).toBeGreaterThanOrEqual(Math.max(...series.maxCwnd) * 0.999);

  const tput = await chartData(page, 'throughput');
  expect(tput.seriesIds).toEqual(expect.arrayContaining(['f0.throughput_bps', 'f1.throughput_bps']));
});

test('grading: a 300-packet buffer at 100 Mb/s makes both flows lose packets', async ({ page }) => {
  await runLink(page, LAB);
  const cwnd = await chartData(page, 'cwnd');
  expect(cwnd.markerCounts.network_loss + cwnd.markerCounts.fast_retransmit).toBeGreaterThan(0);
  const summary = await page.evaluate(() => window.sawtooth!.summary()!);
  expect(summary.flows).toHaveLength(2);
  for (const f of summary.flows) expect(f.drops + f.fast_retransmits).toBeGreaterThan(0);
  // The two flows share the link: shares add up to one, utilisation is high.
  expect(summary.flows[0].share + summary.flows[1].share).toBeCloseTo(1, 6);
  expect(summary.utilisation).toBeGreaterThan(0.5);
});

test('grading: Scalable TCP takes more than its fair share from Reno', async ({ page }) => {
  await runLink(page, LAB);
  const summary = await page.evaluate(() => window.sawtooth!.summary()!);
  const [reno, scalable] = summary.flows;
  expect(reno.algorithm).toBe('reno');
  expect(scalable.algorithm).toBe('scalable');
  expect(scalable.mean_throughput_bps).toBeGreaterThan(reno.mean_throughput_bps);
  expect(summary.jain_index).toBeLessThan(1);
});

test('grading: the same link and seed always give the same numbers', async ({ page }) => {
  await runLink(page, LAB);
  const a = await page.evaluate(() => window.sawtooth!.summary());
  await runLink(page, LAB);
  const b = await page.evaluate(() => window.sawtooth!.summary());
  expect(b).toEqual(a);
});
