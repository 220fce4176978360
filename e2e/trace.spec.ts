// Trace-driven bottlenecks (issue 25), through the public surface
// (docs/TEST-SURFACE.md section 9.1): choose a built-in Mahimahi trace, let
// the run finish, and check the flow never gets more than the trace offers;
// upload a bad trace file and read the engine's refusal.

import { expect, test, type Page } from '@playwright/test';
import type {} from '../docs/sawtooth-test-surface';

async function open(page: Page, query: string): Promise<void> {
  await page.goto(`./?${query}`);
  expect(await page.evaluate(() => window.sawtooth!.whenDone())).toBe('done');
}

test('a built-in trace drives the bottleneck: throughput stays under the trace capacity', async ({ page }) => {
  // One Reno flow, 40 ms, a buffer of a little over a BDP at 12 Mb/s, 5 s.
  await open(page, 'v=2&alg=reno&rtt=40&rate=100M&buf=60&mtu=1500&dur=5&seed=1');
  const before = await page.evaluate(() => window.sawtooth!.runId());
  await page.getByTestId('trace-select').selectOption('constant-12mbps');
  expect(await page.evaluate((id) => window.sawtooth!.whenDone(id), before)).toBe('done');
  await expect(page.getByTestId('trace-control')).toHaveAttribute('data-trace', 'constant-12mbps');
  await expect(page.getByTestId('trace-summary')).toHaveAttribute('data-opportunities', '1000');
  // A trace carries frames of at most 1500 bytes: jumbo frames are offered disabled, saying why, not run and refused.
  await expect(page.getByTestId('mtu-9000')).toBeDisabled();
  await expect(page.getByTestId('mtu-trace-note')).toContainText('576 to 1500 bytes');

  const r = await page.evaluate(() => {
    const s = window.sawtooth!;
    const series = s.series()!;
    return {
      trace: s.scenario()!.bottleneck.trace ?? null,
      summary: s.summary()!,
      capacity: Array.from(series.link_capacity_bps),
      throughput: Array.from(series.flows[0].throughput_bps),
    };
  });
  expect(r.trace?.name).toBe('constant-12mbps');
  expect(r.trace?.opportunities_ms.length).toBe(1000);
  // One opportunity a millisecond: 1504 bytes/ms, 12.032 Mb/s, in every interval.
  const traceBps = 1504 * 8 * 1000;
  expect(r.capacity.length).toBe(r.throughput.length);
  for (const c of r.capacity) expect(c).toBeCloseTo(traceBps, 3);
  // The flow's payload stays under the trace: at most 1448 bytes per opportunity.
  expect(r.summary.total_throughput_bps).toBeLessThan(traceBps);
  expect(r.summary.total_throughput_bps).toBeLessThanOrEqual(1448 * 8 * 1000);
  expect(r.summary.total_throughput_bps).toBeGreaterThan(0.8 * 1448 * 8 * 1000);
  // Per second, too (in-order bursts after a recovery average out).
  const perSecond = (xs: number[]) => Array.from({ length: Math.floor(xs.length / 100) }, (_, k) => xs.slice(k * 100, k * 100 + 100).reduce((a, b) => a + b, 0) / 100);
  for (const bps of perSecond(r.throughput)) expect(bps).toBeLessThan(traceBps);
  // The throughput chart draws the trace's capacity instead of a constant line.
  const ids = JSON.parse((await page.getByTestId('chart-throughput').getAttribute('data-series-ids'))!) as string[];
  expect(ids).toContain('link.capacity_bps');
  expect(ids).not.toContain('capacity_bps');
  // The rate slider is the trace's now.
  await expect(page.locator('[data-control-id="bottleneck-rate"] input[type="range"]')).toBeDisabled();

  // Back to the constant rate.
  const traced = await page.evaluate(() => window.sawtooth!.runId());
  await page.getByTestId('trace-select').selectOption('');
  expect(await page.evaluate((id) => window.sawtooth!.whenDone(id), traced)).toBe('done');
  expect(await page.evaluate(() => window.sawtooth!.scenario()!.bottleneck.trace ?? null)).toBeNull();
  expect(await page.evaluate(() => window.sawtooth!.series()!.link_capacity_bps.length)).toBe(0);
});

test('an unordered trace file is refused, naming the field and the line', async ({ page }) => {
  await open(page, 'v=2&alg=reno&dur=1&seed=1');
  await page.getByTestId('trace-upload').setInputFiles({ name: 'bad.trace', mimeType: 'text/plain', buffer: Buffer.from('1\n2\n5\n4\n') });
  const errors = page.getByTestId('trace-errors');
  await expect(errors).toContainText('bottleneck.trace.opportunities_ms[3]');
  await expect(errors).toContainText('line 4 of the file');
  await expect(errors).toContainText('non-decreasing');
  await expect(page.getByTestId('trace-control')).toHaveAttribute('data-trace', '');
  expect(await page.evaluate(() => window.sawtooth!.scenario()!.bottleneck.trace ?? null)).toBeNull();

  // A good file is taken, named by the file.
  const before = await page.evaluate(() => window.sawtooth!.runId());
  await page.getByTestId('trace-upload').setInputFiles({ name: 'two.trace', mimeType: 'text/plain', buffer: Buffer.from('1\n1\n') });
  expect(await page.evaluate((id) => window.sawtooth!.whenDone(id), before)).toBe('done');
  await expect(page.getByTestId('trace-control')).toHaveAttribute('data-trace', 'file');
  await expect(page.getByTestId('trace-summary')).toHaveAttribute('data-trace-name', 'two.trace');
  await expect(page.getByTestId('trace-errors')).toHaveCount(0);
});
