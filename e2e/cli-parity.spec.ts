import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, test } from '@playwright/test';

// The page and the native CLI run the same engine: for the same scenario and
// seed they must report the same numbers. `npm test` builds the CLI before
// the e2e step (engine-wasm/target/debug/sawtooth).
const CLI = resolve(process.cwd(), 'engine-wasm/target/debug/sawtooth');

test.beforeAll(() => {
  expect(existsSync(CLI), `${CLI} is built by scripts/test.sh`).toBe(true);
});

test('the page shows what the native CLI prints for the same scenario and seed', async ({ page }) => {
  await page.goto('./?seed=3&rtt=40');
  expect(await page.evaluate(() => window.sawtooth!.whenDone())).toBe('done');
  const { scenario, summary } = await page.evaluate(() => ({
    scenario: window.sawtooth!.scenario(),
    summary: window.sawtooth!.summary(),
  }));
  expect(scenario!.seed).toBe(3);
  expect(scenario!.rtt_ms).toBe(40);

  const native = JSON.parse(execFileSync(CLI, ['run', '-'], { input: JSON.stringify(scenario) }).toString());
  expect(summary!.total_throughput_bps).toBe(native.total_throughput_bps);
  expect(summary!.flows.map((f) => f.mean_throughput_bps)).toEqual(native.flows.map((f: { mean_throughput_bps: number }) => f.mean_throughput_bps));
  expect(summary!.bottleneck_drops).toBe(native.bottleneck_drops);
});

test('a Reno cwnd trace rises in slow start and drops at the first congestion event', async ({ page }) => {
  await page.goto('./?seed=1&alg=reno&rtt=30&dur=5&dt=10');
  expect(await page.evaluate(() => window.sawtooth!.whenDone())).toBe('done');
  const trace = await page.evaluate(() => {
    const s = window.sawtooth!.series()!;
    const sc = window.sawtooth!.scenario()!;
    return { cwnd: Array.from(s.flows[0].cwnd_pkts), samples: s.length, expected: Math.round(sc.duration_ms / sc.sample_interval_ms) };
  });
  // One sample per interval over the whole run.
  expect(trace.samples).toBe(trace.expected);
  // Slow start: cwnd at least doubles from its initial value before the peak.
  const peakAt = trace.cwnd.indexOf(Math.max(...trace.cwnd.slice(0, 100)));
  expect(trace.cwnd[peakAt]).toBeGreaterThan(4 * trace.cwnd[0]);
  for (let i = 1; i <= peakAt; i++) expect(trace.cwnd[i]).toBeGreaterThanOrEqual(trace.cwnd[i - 1]);
  // Then the first congestion event cuts it.
  const after = trace.cwnd.slice(peakAt);
  expect(Math.min(...after)).toBeLessThan(0.7 * trace.cwnd[peakAt]);
  // The chart reports one point per sample for the flow's cwnd series.
  const counts = JSON.parse((await page.getByTestId('chart-cwnd').getAttribute('data-point-counts')) ?? '{}');
  expect(counts['f0.cwnd_pkts']).toBe(trace.samples);
});
