import { expect, test } from '@playwright/test';
import { serveUnderSubPath, type StaticSite } from './support/staticServer';

// Static hosting (issue 6): the built site works from any static host under a
// sub-path, and keeps working offline after the first visit (sw.js).

let site: StaticSite | null = null;
test.afterEach(async () => {
  await site?.close();
  site = null;
});

test('the build runs under a sub-path and offline after the first visit', async ({ page, context }) => {
  site = await serveUnderSubPath('/courses/tcp/sawtooth/');
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));

  await page.goto(`${site.url}?seed=5&rtt=40`);
  expect(await page.evaluate(() => window.sawtooth!.whenDone())).toBe('done');
  const first = await page.evaluate(() => window.sawtooth!.summary());
  expect(first!.total_throughput_bps).toBeGreaterThan(0);
  // Every request stayed under the sub-path (relative asset, worker and wasm URLs).
  expect(site.requests.length).toBeGreaterThan(3);
  for (const r of site.requests) expect(r.startsWith('/courses/tcp/sawtooth/')).toBe(true);
  expect(site.requests.some((r) => r.endsWith('.wasm'))).toBe(true);

  // The service worker has precached the site and controls the page.
  await page.evaluate(async () => {
    const reg = await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise((r) => navigator.serviceWorker.addEventListener('controllerchange', r, { once: true }));
    }
    return reg.scope;
  });
  expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toBe(`${site.url}sw.js`);

  // Really offline: the server is gone and the browser is offline.
  await site.close();
  site = null;
  await context.setOffline(true);
  await page.reload();
  expect(await page.evaluate(() => window.sawtooth!.whenDone())).toBe('done');
  expect(await page.evaluate(() => window.sawtooth!.summary())).toEqual(first);
  await expect(page.getByTestId('chart-cwnd').locator('path').first()).toBeVisible();

  // Another scenario offline too (a fresh run in the cached engine).
  await page.goto(`${new URL(page.url()).origin}/courses/tcp/sawtooth/?seed=6&rtt=80`);
  expect(await page.evaluate(() => window.sawtooth!.whenDone())).toBe('done');
  expect(await page.evaluate(() => window.sawtooth!.scenario()!.rtt_ms)).toBe(80);
  await context.setOffline(false);
  expect(problems).toEqual([]);
});
