import { createServer, type Server } from 'node:http';
import { expect, test, type Frame, type Page } from '@playwright/test';

// Embed mode (issue 6): a slide deck puts Sawtooth in an <iframe> with
// ?embed=1&charts=…&controls=…&profile=projector. The frame shows only what
// the URL asks, fills the frame without scrollbars, and posts
// sawtooth:ready and sawtooth:summary to the parent.

// The parent page is served by its own server on this machine (another
// port: another origin, so the frame is cross-origin as on a real slide
// deck; a loopback address, so Chrome's private-network rules allow it).
let parentServer: Server | null = null;
let parentHtml = '';
let parentOrigin = '';

test.beforeAll(async () => {
  parentServer = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(parentHtml);
  });
  await new Promise<void>((r) => parentServer!.listen(0, '127.0.0.1', r));
  const a = parentServer.address();
  parentOrigin = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`;
});

test.afterAll(async () => {
  parentServer?.closeAllConnections();
  await new Promise<void>((r) => (parentServer ? parentServer.close(() => r()) : r()));
});

interface Posted {
  data: { type: string; version?: number; summary?: { total_throughput_bps: number } };
  origin: string;
}

/** A parent page (served by the test) holding one iframe of `src`. */
async function openParent(page: Page, src: string, width = 720, height = 460): Promise<Frame> {
  parentHtml = `<!doctype html><html><head><title>Slides</title></head><body style="margin:0">
<iframe id="lab" title="Sawtooth" src="${src.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}" width="${width}" height="${height}" style="border:0;display:block"></iframe>
<script>
  window.posted = [];
  window.addEventListener('message', (e) => window.posted.push({ data: e.data, origin: e.origin }));
</script></body></html>`;
  await page.goto(`${parentOrigin}/slides.html`);
  const handle = await page.locator('#lab').elementHandle();
  const frame = await handle!.contentFrame();
  await frame!.waitForFunction(() => window.sawtooth !== undefined);
  return frame!;
}

function appUrl(baseURL: string | undefined, query: string): string {
  return new URL(`./?${query}`, baseURL).href;
}

test('embed mode shows only the charts and controls asked for, fills its frame and posts ready and summaries', async ({ page, baseURL }) => {
  const frame = await openParent(page, appUrl(baseURL, 'seed=5&rtt=40&dur=3&embed=1&charts=cwnd,throughput&controls=rtt,window&profile=projector'));
  expect(await frame.evaluate(() => window.sawtooth!.whenDone())).toBe('done');

  // Only the requested charts, in the page's order.
  const charts = await frame.locator('[data-testid^="chart-"][data-series-ids]:visible').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')));
  expect(charts).toEqual(['chart-cwnd', 'chart-throughput']);
  // Only the requested controls.
  const controls = await frame.locator('[data-control-id]:visible').evaluateAll((els) => els.map((e) => e.getAttribute('data-control-id')));
  expect(controls.sort()).toEqual(['rtt', 'window']);
  // No page chrome: no share panel, no notices.
  await expect(frame.getByTestId('share-panel')).toHaveCount(0);
  await expect(frame.getByTestId('url-notice')).toHaveCount(0);

  // Projector profile, embed marker.
  await expect(frame.locator('html')).toHaveAttribute('data-profile', 'projector');
  await expect(frame.locator('html')).toHaveAttribute('data-embed', '1');

  // Fills the frame, no scrollbars: the charts are sized to the frame once drawn.
  await frame.waitForFunction(() => {
    const figs = Array.from(document.querySelectorAll('[data-testid^="chart-"][data-series-ids]'));
    return figs.length > 0 && figs.every((f) => f.getBoundingClientRect().bottom <= window.innerHeight);
  });
  const fit = await frame.evaluate(() => {
    const el = document.scrollingElement ?? document.documentElement;
    const root = document.getElementById('root')!.getBoundingClientRect();
    return {
      vw: window.innerWidth,
      vh: window.innerHeight,
      sw: el.scrollWidth,
      sh: el.scrollHeight,
      overflow: getComputedStyle(document.body).overflow,
      rootW: Math.round(root.width),
      rootH: Math.round(root.height),
    };
  });
  expect(fit.vw).toBe(720);
  expect(fit.vh).toBe(460);
  expect(fit.sw).toBeLessThanOrEqual(fit.vw);
  expect(fit.sh).toBeLessThanOrEqual(fit.vh);
  expect(fit.overflow).toBe('hidden');
  expect(fit.rootW).toBe(720);
  expect(fit.rootH).toBe(460);
  // The charts are drawn inside the frame.
  for (const id of ['chart-cwnd', 'chart-throughput']) {
    const box = await frame.getByTestId(id).boundingBox();
    expect(box!.width).toBeGreaterThan(200);
    expect(box!.height).toBeGreaterThan(80);
    expect(box!.y + box!.height).toBeLessThanOrEqual(460 + 1);
  }

  // The parent got ready and the run's summary.
  const summary = await frame.evaluate(() => window.sawtooth!.summary()!);
  await page.waitForFunction(() => (window as unknown as { posted: Posted[] }).posted.some((m) => m.data?.type === 'sawtooth:summary'));
  const posted = await page.evaluate(() => (window as unknown as { posted: Posted[] }).posted);
  expect(posted[0].data).toEqual({ type: 'sawtooth:ready', version: 1 });
  const summaries = posted.filter((m) => m.data.type === 'sawtooth:summary');
  expect(summaries).toHaveLength(1);
  expect(summaries[0].data.summary).toEqual(summary);
  expect(summaries[0].origin).toBe(new URL(baseURL!).origin);

  // A control in the frame re-runs and posts a new summary.
  const rtt = frame.locator('[data-control-id="rtt"]').getByRole('textbox').first();
  await rtt.fill('80');
  await rtt.press('Enter');
  await page.waitForFunction(() => (window as unknown as { posted: Posted[] }).posted.filter((m) => m.data?.type === 'sawtooth:summary').length === 2);
  expect(await frame.evaluate(() => window.sawtooth!.scenario()!.rtt_ms)).toBe(80);
});

test('embed messages go only to the origin named by ?origin=', async ({ page, baseURL }) => {
  const frame = await openParent(page, appUrl(baseURL, 'seed=1&dur=2&embed=1&charts=cwnd&origin=https%3A%2F%2Fother.example'));
  expect(await frame.evaluate(() => window.sawtooth!.whenDone())).toBe('done');
  // Messages from the frame arrive in order: once this sentinel is in, any
  // summary posted before it would be too.
  await frame.evaluate(() => window.parent.postMessage({ type: 'test:sentinel' }, '*'));
  await page.waitForFunction(() => (window as unknown as { posted: Posted[] }).posted.some((m) => m.data?.type === 'test:sentinel'));
  const types = await page.evaluate(() => (window as unknown as { posted: Posted[] }).posted.map((m) => m.data.type));
  expect(types).toEqual(['test:sentinel']);

  // Named correctly, they arrive.
  const frame2 = await openParent(page, appUrl(baseURL, `seed=1&dur=2&embed=1&charts=cwnd&origin=${encodeURIComponent(parentOrigin)}`));
  expect(await frame2.evaluate(() => window.sawtooth!.whenDone())).toBe('done');
  await page.waitForFunction(() => (window as unknown as { posted: Posted[] }).posted.some((m) => m.data?.type === 'sawtooth:summary'));
});

test('embed mode with unknown chart names shows a notice inside the frame', async ({ page, baseURL }) => {
  const frame = await openParent(page, appUrl(baseURL, 'seed=1&dur=2&embed=1&charts=cwnd,<b>bogus</b>,nope'));
  expect(await frame.evaluate(() => window.sawtooth!.whenDone())).toBe('done');
  await expect(frame.getByTestId('url-notice')).toContainText('nope');
  expect(await frame.locator('[data-testid="url-notice"] b').count()).toBe(0);
  const charts = await frame.locator('[data-testid^="chart-"][data-series-ids]').count();
  expect(charts).toBe(1);
});
