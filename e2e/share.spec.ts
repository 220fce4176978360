import { readFileSync, writeFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { watchConsole as watch } from './support/console';
import { parseCsv } from '../app/src/share/csv';

// Share links, exports, uploads and hostile input (issue 6). Tests wait on the
// page's state (data-run-state, window.sawtooth.whenDone()), never on time.


async function done(page: Page): Promise<string> {
  return page.evaluate(() => window.sawtooth!.whenDone());
}

/** Wait until the page shows a finished run of a scenario with these values. */
async function waitForScenario(page: Page, want: { rtt_ms?: number; seed?: number }): Promise<void> {
  await page.waitForFunction((w) => {
    const s = window.sawtooth;
    const st = document.documentElement.dataset.runState;
    if (!s || (st !== 'done' && st !== 'error')) return false;
    const sc = s.scenario();
    return sc !== null && (w.rtt_ms === undefined || sc.rtt_ms === w.rtt_ms) && (w.seed === undefined || sc.seed === w.seed);
  }, want);
}

async function download(page: Page, testId: string): Promise<{ name: string; text: string; bytes: Buffer }> {
  const [d] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testId).click()]);
  const path = await d.path();
  const bytes = readFileSync(path);
  return { name: d.suggestedFilename(), text: bytes.toString('utf8'), bytes };
}

const LINK = './?v=1&hosts=1,1&alg=reno,scalable&rtt=40&rate=100M&buf=200&txq=100&win=4M&mtu=1500&dur=4&loss=0.0005&seed=7';

test('a link restores the same scenario and the same result, seed included', async ({ page, context }) => {
  const problems = watch(page);
  await page.goto(LINK);
  expect(await done(page)).toBe('done');
  const scenario = await page.evaluate(() => window.sawtooth!.scenario()!);
  const summary = await page.evaluate(() => window.sawtooth!.summary()!);
  expect(scenario.seed).toBe(7);
  expect(scenario.hosts.map((h) => h.flows.map((f) => f.algorithm))).toEqual([['reno'], ['scalable']]);
  expect(scenario.bottleneck.rate_bps).toBe(100e6);
  expect(scenario.hosts[0].flows[0].window_bytes).toBe(4 * 1024 * 1024);
  expect(scenario.loss_rate).toBe(0.0005);
  await expect(page.getByTestId('url-notice')).toHaveCount(0);

  // "Copy link" gives a readable, versioned link to the same scenario.
  await page.getByTestId('copy-link').click();
  const link = await page.getByTestId('share-link').inputValue();
  expect(link).toMatch(/\?v=2&/);
  expect(link).toContain('prof=sawtooth-1'); // a v=1 link keeps the profile of its time
  expect(link).toContain('alg=reno,scalable');
  expect(link).toContain('seed=7');

  // Opened elsewhere, it runs the same scenario to the same result.
  const other = await context.newPage();
  await other.goto(link);
  expect(await done(other)).toBe('done');
  expect(await other.evaluate(() => window.sawtooth!.scenario())).toEqual(scenario);
  expect(await other.evaluate(() => window.sawtooth!.summary())).toEqual(summary);

  // The seed is part of the result: another seed, another (random-loss) run.
  await other.goto(link.replace('seed=7', 'seed=8'));
  expect(await done(other)).toBe('done');
  const summary8 = await other.evaluate(() => window.sawtooth!.summary()!);
  expect(summary8.total_throughput_bps).not.toBe(summary.total_throughput_bps);
  await other.close();

  // The address bar follows the scenario: a reload restores it.
  await page.waitForFunction(() => location.search.startsWith('?v=2&'));
  await page.reload();
  expect(await done(page)).toBe('done');
  expect(await page.evaluate(() => window.sawtooth!.scenario())).toEqual(scenario);
  expect(problems).toEqual([]);
});

test('the embed code is an iframe of the same scenario in embed mode', async ({ page }) => {
  await page.goto('./?seed=3&rtt=25');
  expect(await done(page)).toBe('done');
  await page.getByTestId('copy-embed').click();
  const code = await page.getByTestId('embed-code').inputValue();
  expect(code).toMatch(/^<iframe src="[^"]+" width="\d+" height="\d+" title="[^"]+"/);
  const src = /src="([^"]+)"/.exec(code)![1].replace(/&amp;/g, '&');
  const url = new URL(src);
  expect(url.searchParams.get('embed')).toBe('1');
  expect(url.searchParams.get('seed')).toBe('3');
  expect(url.searchParams.get('rtt')).toBe('25');
  expect(url.searchParams.get('charts')).toBeTruthy();
});

test('exported CSVs parse and match the page', async ({ page }) => {
  await page.goto('./?v=1&alg=cubic&rtt=30&rate=100M&buf=100&dur=3&seed=2');
  expect(await done(page)).toBe('done');
  const series = await page.evaluate(() => {
    const s = window.sawtooth!.series()!;
    return { length: s.length, t: Array.from(s.t), cwnd: Array.from(s.flows[0].cwnd_pkts), q: Array.from(s.bottleneck_queue_pkts) };
  });

  const csv = await download(page, 'export-series-csv');
  expect(csv.name).toMatch(/^sawtooth-cubic-rtt30-seed2-series\.csv$/);
  // The status line says what was saved (not the previous action's message).
  await expect(page.getByTestId('share-status')).toHaveText(`Sample series saved as ${csv.name}.`);
  const rows = parseCsv(csv.text);
  const head = rows[0];
  expect(head[0]).toBe('t_s');
  expect(rows.length - 1).toBe(series.length);
  const ci = head.indexOf('f0.cwnd_pkts');
  const qi = head.indexOf('q.bottleneck_pkts');
  expect(ci).toBeGreaterThan(0);
  for (let r = 0; r < series.length; r++) {
    expect(Number(rows[r + 1][0])).toBe(series.t[r]);
    expect(Number(rows[r + 1][ci])).toBe(series.cwnd[r]);
    expect(Number(rows[r + 1][qi])).toBe(series.q[r]);
  }

  const summary = await page.evaluate(() => window.sawtooth!.summary()!);
  const sum = parseCsv((await download(page, 'export-summary-csv')).text);
  expect(sum[0]).toEqual(['scope', 'index', 'metric', 'value']);
  const metric = (scope: string, name: string) => sum.find((r) => r[0] === scope && r[2] === name)?.[3];
  expect(Number(metric('run', 'total_throughput_bps'))).toBe(summary.total_throughput_bps);
  expect(Number(metric('run', 'jain_index'))).toBe(summary.jain_index);
  expect(metric('flow', 'algorithm')).toBe('cubic');

  const events = parseCsv((await download(page, 'export-events-csv')).text);
  expect(events[0]).toEqual(['t_s', 'flow', 'kind']);
  // Exactly the page's event log.
  const log = await page.evaluate(() => window.sawtooth!.events());
  expect(events.slice(1)).toEqual(log.map((e) => [String(e.t_s), String(e.flow), e.kind]));
  // A buffer of 100 packets at 100 Mb/s: CUBIC fills it and loses packets.
  expect(events.length).toBeGreaterThan(1);
  for (const e of events.slice(1)) {
    expect(Number.isFinite(Number(e[0]))).toBe(true);
    expect(e[1]).toBe('0');
  }
  expect(events.slice(1).filter((e) => e[2] === 'network_loss').length).toBeGreaterThan(0);
});

test('chart exports: the SVG holds the chart and its series, the PNG is an image', async ({ page }) => {
  await page.goto('./?seed=1&dur=3');
  expect(await done(page)).toBe('done');
  const chart = page.getByTestId('chart-cwnd');
  const ids = (await chart.getAttribute('data-series-ids')) ?? '';
  expect(ids).toContain('f0.cwnd_pkts');

  const svg = await download(page, 'export-cwnd-svg');
  expect(svg.name).toMatch(/-cwnd\.svg$/);
  expect(svg.text).toMatch(/^<\?xml[^>]*>\s*<svg[^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  expect(svg.text).toContain('<title>');
  expect(svg.text).toContain('f0.cwnd_pkts');
  // The drawn line itself: a long path.
  const paths = [...svg.text.matchAll(/<path[^>]* d="(M[^"]+)"/g)].map((m) => m[1]);
  expect(Math.max(...paths.map((d) => (d.match(/L/g) ?? []).length))).toBeGreaterThan(50);
  // It is well-formed XML that a browser renders.
  const parsed = await page.evaluate((text) => {
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    return { error: doc.querySelector('parsererror') !== null, root: doc.documentElement.nodeName };
  }, svg.text);
  expect(parsed).toEqual({ error: false, root: 'svg' });
  // Pasted into slides it reads on its own: the title, the scenario and a key for each flow and line style, drawn above the chart.
  const header = await page.evaluate((text) => {
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    const svgEl = doc.documentElement;
    return {
      title: doc.querySelector('[data-export="title"]')?.textContent,
      caption: doc.querySelector('[data-export="caption"]')?.textContent,
      legend: Array.from(doc.querySelectorAll('[data-export="legend-entry"] text')).map((t) => t.textContent),
      height: Number(svgEl.getAttribute('height')),
      chartY: Number(svgEl.querySelector(':scope > svg')?.getAttribute('y')),
    };
  }, svg.text);
  expect(header.title).toBe('Congestion window');
  expect(header.caption).toMatch(/Standard TCP .*RTT \d+ ms.*seed 1$/);
  expect(header.legend).toEqual(expect.arrayContaining(['flow 0 · Standard TCP (Reno)', 'cwnd', 'ssthresh']));
  expect(header.chartY).toBeGreaterThan(30);
  const onPage = (await chart.locator('svg.chart-svg').first().boundingBox())!;
  expect(header.height).toBeCloseTo(Math.round(onPage.height) + header.chartY, 0);

  const png = await download(page, 'export-cwnd-png');
  expect(png.name).toMatch(/-cwnd\.png$/);
  expect(png.bytes.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  expect(png.bytes.length).toBeGreaterThan(2000);
  // The PNG is the SVG with its header, at twice the size (its IHDR height).
  expect(png.bytes.readUInt32BE(20)).toBe(Math.round(header.height * 2));
});

test('scenario JSON: download, upload, and an invalid upload names the field and range', async ({ page }, info) => {
  await page.goto('./?seed=4&rtt=50&dur=2');
  expect(await done(page)).toBe('done');
  const file = await download(page, 'download-scenario');
  await expect(page.getByTestId('share-status')).toHaveText(`Scenario saved as ${file.name}.`);
  const scenario = JSON.parse(file.text);
  expect(scenario).toEqual(await page.evaluate(() => window.sawtooth!.scenario()));

  // A valid upload replaces the scenario and runs it.
  scenario.rtt_ms = 90;
  scenario.seed = 11;
  const good = info.outputPath('good.json');
  writeFileSync(good, JSON.stringify(scenario));
  await page.getByTestId('upload-scenario').setInputFiles(good);
  await waitForScenario(page, { rtt_ms: 90, seed: 11 });
  expect(await done(page)).toBe('done');

  // An invalid one: the engine's errors name the field and its range; the
  // rejected field takes its default and the rest is used.
  scenario.hosts[0].flows[0].window_bytes = 12;
  scenario.rtt_ms = 70;
  const bad = info.outputPath('bad.json');
  writeFileSync(bad, JSON.stringify(scenario));
  await page.getByTestId('upload-scenario').setInputFiles(bad);
  const errors = page.getByTestId('upload-errors');
  await expect(errors).toContainText('hosts[0].flows[0].window_bytes = 12');
  await expect(errors).toContainText('must be between 65536 and 536870912');
  await waitForScenario(page, { rtt_ms: 70 });
  expect(await page.evaluate(() => window.sawtooth!.scenario()!.hosts[0].flows[0].window_bytes)).toBe(16 * 1024 * 1024);

  // Not JSON at all: nothing changes.
  const junk = info.outputPath('junk.json');
  writeFileSync(junk, '<script>alert(1)</script>');
  await page.getByTestId('upload-scenario').setInputFiles(junk);
  await expect(errors).toContainText('is not JSON');
  expect(await page.evaluate(() => window.sawtooth!.scenario()!.rtt_ms)).toBe(70);
});

test('a 979 KB upload with 90 000 unknown parameters is checked off the page: 20 listed, the rest counted, the engine never reported silent', async ({ page }, info) => {
  // Issue 28: such a file blocked the page for about 11 s (every rejected
  // field rendered) and was then reported as "the engine stopped
  // responding". It is now read, parsed and checked in a worker of its own.
  const problems = watch(page);
  await page.goto('./?seed=4&rtt=50&dur=2');
  expect(await done(page)).toBe('done');
  const scenario = await page.evaluate(() => window.sawtooth!.scenario()!);
  scenario.rtt_ms = 60;
  scenario.hosts[0].flows[0].params = Object.fromEntries(Array.from({ length: 90_000 }, (_, i) => [`p${String(i).padStart(5, '0')}`, 1]));
  const text = JSON.stringify(scenario);
  expect(text.length).toBeGreaterThan(970_000);
  expect(text.length).toBeLessThan(1_000_000);
  const hostile = info.outputPath('hostile.json');
  writeFileSync(hostile, text);
  await page.getByTestId('upload-scenario').setInputFiles(hostile);
  const errors = page.getByTestId('upload-errors');
  await expect(errors).toContainText('The engine rejected 90 000 fields of the upload; their defaults were used. The first 20 are listed:');
  await expect(errors.locator('li')).toHaveCount(21);
  await expect(errors.locator('li').first()).toHaveText('hosts[0].flows[0].params.p00000 = 1: is not a parameter of reno; known: a, b, hystart');
  await expect(errors.locator('li').last()).toHaveText('… and 89 980 more problems, not listed.');
  await expect(page.getByTestId('share-status')).toHaveText('Loaded hostile.json with defaults for the fields listed.');
  // The rest of the file is used, without the unknown parameters.
  await waitForScenario(page, { rtt_ms: 60 });
  expect(await done(page)).toBe('done');
  expect(await page.evaluate(() => window.sawtooth!.scenario()!.hosts[0].flows[0].params)).toEqual({});
  await expect(page.getByText(/stopped responding/)).toHaveCount(0);

  // Nested deeper than any scenario: refused before anything is built from it.
  const deep = info.outputPath('deep.json');
  writeFileSync(deep, `{"version": 2, "hosts": ${'['.repeat(300_000)}${']'.repeat(300_000)}}`);
  await page.getByTestId('upload-scenario').setInputFiles(deep);
  await expect(errors).toContainText('deep.json is nested more than 64 levels deep, far deeper than any scenario. Nothing was loaded.');
  await expect(page.getByTestId('share-status')).toHaveText('The upload was not loaded.');
  expect(await page.evaluate(() => window.sawtooth!.scenario()!.rtt_ms)).toBe(60);
  expect(problems).toEqual([]);
});

test('a malformed link falls back to defaults with a notice naming what was ignored', async ({ page }) => {
  const problems = watch(page);
  await page.goto('./?v=1&rtt=fast&alg=reno;;cubic&seed=-3&win=12&dur=2&bogus=1');
  expect(await done(page)).toBe('done');
  const notice = page.getByTestId('url-notice');
  await expect(notice).toBeVisible();
  await expect(notice).toContainText('rtt="fast"');
  await expect(notice).toContainText('alg=');
  await expect(notice).toContainText('seed="-3"');
  await expect(notice).toContainText('unknown parameter "bogus"');
  // win=12 parses but the engine rejects it: named with its range.
  await expect(notice).toContainText('window_bytes = 12: must be between 65536 and 536870912');
  const s = await page.evaluate(() => window.sawtooth!.scenario()!);
  expect(s.rtt_ms).toBe(20); // the engine's default
  expect(s.seed).toBe(1);
  expect(s.duration_ms).toBe(2000); // the good parameter is kept
  expect(s.hosts[0].flows[0].window_bytes).toBe(16 * 1024 * 1024);
  // An unknown link version: the defaults.
  await page.goto('./?v=9&rtt=77');
  expect(await done(page)).toBe('done');
  await expect(page.getByTestId('url-notice')).toContainText('link versions 1 and 2');
  expect(await page.evaluate(() => window.sawtooth!.scenario()!.rtt_ms)).toBe(20);
  expect(problems).toEqual([]);
});

test('a bad queue-discipline, probe or view field in a link is named, and the rest of the link is kept', async ({ page }) => {
  const problems = watch(page);
  // The engine rejects CoDel's target and the probe's interval: each takes its
  // own default, rtt=50 stays, and the sample interval is not blamed.
  await page.goto('./?v=2&rtt=50&dur=2&aqm=codel(target_ms=-5;ecn=1)&probe=interval_ms=0&controls=rtt,bar&view=bogus');
  expect(await done(page)).toBe('done');
  const notice = page.getByTestId('url-notice');
  await expect(notice).toContainText("bottleneck.aqm.target_ms = -5");
  await expect(notice).toContainText("using codel's default");
  await expect(notice).toContainText("using the probe's default");
  await expect(notice).toContainText('controls=bar');
  await expect(notice).toContainText('Ignored view=');
  await expect(notice).not.toContainText('sample_interval_ms');
  const s = await page.evaluate(() => window.sawtooth!.scenario()!);
  expect(s.rtt_ms).toBe(50);
  expect(s.bottleneck.aqm).toEqual({ kind: 'codel', ecn: true });
  expect(s.probe).toEqual({});
  // A control's reset returns to the engine's default scenario, as the page opened on.
  const rtt = page.locator('[data-control-id="rtt"]');
  await rtt.getByRole('button', { name: /^Reset RTT to 20 ms$/ }).click();
  await expect.poll(() => page.evaluate(() => window.sawtooth!.scenario()!.rtt_ms)).toBe(20);
  expect(problems).toEqual([]);
});

test('a hostile link is shown as text, runs nothing it carries, and the CSP holds', async ({ page }) => {
  const problems = watch(page);
  await page.addInitScript(() => {
    (window as unknown as { __csp: string[] }).__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => (window as unknown as { __csp: string[] }).__csp.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  const payloads = {
    alg: '<script>window.__pwned=1</script>',
    rtt: 'javascript:window.__pwned=2',
    scenario: '<img src=x onerror="window.__pwned=3">',
    charts: '"><svg onload=window.__pwned=4>',
    '<svg onload=window.__pwned=5>': '1',
    sc: 'PHNjcmlwdD53aW5kb3cuX19wd25lZD02PC9zY3JpcHQ-',
  };
  const q = Object.entries(payloads)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join('&');
  await page.goto(`./?${q}`);
  expect(await done(page)).toBe('done');
  const notice = page.getByTestId('url-notice');
  await expect(notice).toBeVisible();
  // The payloads appear as text (quoted), never as elements.
  await expect(notice).toContainText('<script>window.__pwned=1</script>');
  await expect(notice).toContainText('javascript:window.__pwned=2');
  expect(await notice.locator('script, img, svg, iframe, a').count()).toBe(0);
  expect(await page.locator('body script, body img[src="x"], body [onload], body [onerror]').count()).toBe(0);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  // The default scenario ran.
  const s = await page.evaluate(() => window.sawtooth!.scenario()!);
  expect(s.rtt_ms).toBe(20); // the engine's default
  expect(s.hosts[0].flows[0].algorithm).toBe('reno');
  // The page carries a strict CSP and nothing violated it.
  const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
  expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval'");
  expect(csp).toContain("object-src 'none'");
  expect(csp).not.toContain("'unsafe-eval'");
  expect(await page.evaluate(() => (window as unknown as { __csp: string[] }).__csp)).toEqual([]);
  // The address bar no longer carries the payload.
  await page.waitForFunction(() => location.search.startsWith('?v=2&'));
  expect(decodeURIComponent(page.url())).not.toContain('<script>');
  expect(problems).toEqual([]);
});
