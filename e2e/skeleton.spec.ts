import { expect, test, type Page } from '@playwright/test';
import { watchConsole } from './support/console';


/** Wait until the page shows a finished run (of the given RTT, when given). */
async function waitForRun(page: Page, rtt?: number): Promise<string> {
  await page.waitForFunction(
    (want) => {
      const state = document.documentElement.dataset.runState;
      const s = window.sawtooth;
      if (!s || (state !== 'done' && state !== 'error')) return false;
      // An engine that failed to load has no scenario: stop waiting at once.
      if (state === 'error' && s.scenario() === null) return true;
      return want === null || s.scenario()?.rtt_ms === want;
    },
    rtt ?? null,
    { timeout: 60_000 },
  );
  return (await page.evaluate(() => document.documentElement.dataset.runState)) ?? '';
}

test('runs the default scenario and draws it', async ({ page }) => {
  const problems = watchConsole(page);
  await page.goto('./?seed=1');
  const final = await page.evaluate(() => window.sawtooth!.whenDone());
  expect(final).toBe('done');
  await expect(page.locator('html')).toHaveAttribute('data-run-state', 'done');

  // The cwnd chart draws a real line.
  const path = page.getByTestId('chart-cwnd').locator('path.line').first();
  const d = (await path.getAttribute('d')) ?? '';
  expect(d.startsWith('M')).toBe(true);
  expect((d.match(/L/g) ?? []).length).toBeGreaterThan(50);
  const box = await path.boundingBox();
  expect(box!.width).toBeGreaterThan(100);
  expect(box!.height).toBeGreaterThan(10);
  const tput = (await page.getByTestId('chart-throughput').locator('path.line').first().getAttribute('d')) ?? '';
  expect((tput.match(/L/g) ?? []).length).toBeGreaterThan(50);

  // The summary number is the engine's, and positive.
  const summary = await page.evaluate(() => window.sawtooth!.summary());
  expect(summary).not.toBeNull();
  expect(summary!.total_throughput_bps).toBeGreaterThan(0);
  const shown = page.getByTestId('summary-throughput');
  await expect(shown).toHaveText((summary!.total_throughput_bps / 1e6).toFixed(1));
  expect(Number(await shown.getAttribute('data-bps'))).toBe(summary!.total_throughput_bps);

  // The samples cover the whole run.
  const extent = await page.evaluate(() => {
    const s = window.sawtooth!.series()!;
    const sc = window.sawtooth!.scenario()!;
    return { last: s.t[s.length - 1], duration: sc.duration_ms / 1000, flows: s.flows.length, maxCwnd: Math.max(...s.flows[0].cwnd_pkts) };
  });
  expect(extent.last).toBeCloseTo(extent.duration, 1);
  expect(extent.flows).toBe(1);
  expect(extent.maxCwnd).toBeGreaterThan(2);

  // Issue 24: the first run shows the saw-tooth: at least three window cuts
  // (fast recoveries, timeouts, local back-offs) in its first 20 s, and a
  // utilisation visibly below the link.
  const cuts = await page.evaluate(
    () => window.sawtooth!.events().filter((e) => ['fast_retransmit', 'timeout', 'local_congestion'].includes(e.kind) && e.t_s <= 20).length,
  );
  expect(cuts).toBeGreaterThanOrEqual(3);
  expect(summary!.utilisation).toBeLessThan(0.9);
  // The cuts are drawn on the cwnd chart.
  const markers = JSON.parse((await page.getByTestId('chart-cwnd').getAttribute('data-marker-counts')) ?? '{}') as Record<string, number>;
  expect(markers.fast_retransmit + markers.timeout + markers.local_congestion).toBe(cuts);

  expect(problems).toEqual([]);
});

test('the same seed gives the same result', async ({ page }) => {
  await page.goto('./?seed=7');
  await page.evaluate(() => window.sawtooth!.whenDone());
  const a = await page.evaluate(() => window.sawtooth!.summary());
  await page.reload();
  await page.evaluate(() => window.sawtooth!.whenDone());
  const b = await page.evaluate(() => window.sawtooth!.summary());
  expect(b).toEqual(a);
});

test('moving the RTT slider re-runs the scenario and changes the result', async ({ page }) => {
  const problems = watchConsole(page);
  await page.goto('./?seed=1');
  expect(await waitForRun(page, 20)).toBe('done');
  const before = await page.evaluate(() => window.sawtooth!.summary()!.total_throughput_bps);
  const cwndBefore = await page.getByTestId('chart-cwnd').locator('path.line').first().getAttribute('d');

  await page.getByLabel('RTT slider').fill('200');
  expect(await waitForRun(page, 200)).toBe('done');
  await expect(page.getByLabel('RTT value')).toHaveValue('200');
  const after = await page.evaluate(() => window.sawtooth!.summary()!.total_throughput_bps);
  expect(after).toBeGreaterThan(0);
  expect(after).not.toBe(before);
  await expect(page.getByTestId('summary-throughput')).toHaveText((after / 1e6).toFixed(1));
  const cwndAfter = await page.getByTestId('chart-cwnd').locator('path.line').first().getAttribute('d');
  expect(cwndAfter).not.toBe(cwndBefore);

  // The typed field re-runs too.
  await page.getByLabel('RTT value').fill('80');
  expect(await waitForRun(page, 80)).toBe('done');
  await expect(page.getByLabel('RTT slider')).toHaveValue('80');

  expect(problems).toEqual([]);
});

test('an invalid RTT shows an error naming the field and range, not a blank chart', async ({ page }) => {
  const problems = watchConsole(page);
  await page.goto('./?seed=1');
  expect(await waitForRun(page, 20)).toBe('done');

  for (const bad of ['1500', '-5', 'fast']) {
    await page.getByLabel('RTT value').fill(bad);
    const err = page.getByTestId('rtt-error');
    await expect(err).toBeVisible();
    await expect(err).toContainText('rtt_ms');
    await expect(err).toContainText('between 0 and 1000 ms');
    await expect(page.getByLabel('RTT value')).toHaveAttribute('aria-invalid', 'true');
  }
  // No run was started with the bad value; the last result stays on screen.
  await expect(page.locator('html')).toHaveAttribute('data-run-state', 'done');
  expect(await page.evaluate(() => window.sawtooth!.scenario()!.rtt_ms)).toBe(20);
  const d = (await page.getByTestId('chart-cwnd').locator('path.line').first().getAttribute('d')) ?? '';
  expect(d.length).toBeGreaterThan(100);

  // A valid value clears the error and runs.
  await page.getByLabel('RTT value').fill('60');
  await expect(page.getByTestId('rtt-error')).toHaveCount(0);
  expect(await waitForRun(page, 60)).toBe('done');
  expect(problems).toEqual([]);
});

// Issue 6: a field the engine rejects in a link is ignored with a notice
// naming it and its range, and takes its default (e2e/share.spec.ts has more).
test('a scenario link with a field the engine rejects: a notice names it, its default is used', async ({ page }) => {
  const problems = watchConsole(page);
  const scenario = await (async () => {
    await page.goto('./');
    await page.evaluate(() => window.sawtooth!.whenDone());
    return page.evaluate(() => window.sawtooth!.scenario()!);
  })();
  scenario.hosts[0].flows[0].window_bytes = 12;
  await page.goto(`./?scenario=${encodeURIComponent(JSON.stringify(scenario))}`);
  expect(await page.evaluate(() => window.sawtooth!.whenDone())).toBe('done');
  const notice = page.getByTestId('url-notice');
  await expect(notice).toBeVisible();
  await expect(notice).toContainText('hosts[0].flows[0].window_bytes = 12');
  await expect(notice).toContainText('must be between 65536 and 536870912');
  expect(await page.evaluate(() => window.sawtooth!.scenario()!.hosts[0].flows[0].window_bytes)).toBe(16 * 1024 * 1024);
  expect(problems).toEqual([]);
});

test('a wasm trap is reported and the engine recovers on the next run', async ({ page }) => {
  await page.goto('./?seed=1&debug=trap');
  expect(await page.evaluate(() => window.sawtooth!.whenDone())).toBe('error');
  expect(await page.evaluate(() => window.sawtooth!.error()?.kind)).toBe('trap');
  await expect(page.getByTestId('run-error')).toContainText('crashed inside the engine');
  await expect(page.getByTestId('run-error')).toContainText('the engine has been restarted');

  await page.getByLabel('RTT slider').fill('40');
  expect(await waitForRun(page, 40)).toBe('done');
  await expect(page.getByTestId('run-error')).toHaveCount(0);
  expect(await page.evaluate(() => window.sawtooth!.summary()!.total_throughput_bps)).toBeGreaterThan(0);
});
