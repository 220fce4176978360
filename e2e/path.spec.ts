import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { watchConsole } from './support/console';

// The path view (docs/TEST-SURFACE.md §4.4): its numbers are the engine's
// recorded columns at the sample the playback shows (the last at or before
// data-play-t) and the event log in the window before it; it follows pause,
// scrub, step and the keyboard; it fits a phone. Tests wait on state, never
// on sleeps.

/** Two hosts into one 1 Gb/s bottleneck with a 100-packet buffer: slow start overfills it. */
const TWO_TO_ONE = '?v=2&hosts=1,1&alg=reno,reno&rate=1G&rtt=30&mtu=9000&buf=100&dur=5&seed=1';

async function open(page: Page, query: string): Promise<void> {
  await page.goto(`./${query}`);
  expect(await page.evaluate(() => window.sawtooth!.whenDone())).toBe('done');
}

interface Recorded {
  row: number;
  sampleT: number;
  bottleneck: number;
  delay: number;
  buffer: number;
  ifq: number[];
  txq: number[];
  outstanding: number[];
  captured: number[];
  cwnd: number[];
  throughput: number[];
  state: number[];
  windowS: number;
  drops: number;
  marks: number;
  backoffs: number[];
}

/** What the engine recorded at the sample shown at playback time `t`, read through window.sawtooth. */
function recordedAt(page: Page, t: number): Promise<Recorded> {
  return page.evaluate((t) => {
    const s = window.sawtooth!.series()!;
    const sc = window.sawtooth!.scenario()!;
    let row = -1;
    while (row + 1 < s.length && s.t[row + 1] <= t) row++;
    const windowS = Math.max(0.1, (2 * sc.sample_interval_ms) / 1000);
    const recent = window.sawtooth!.events().filter((e) => e.t_s > t - windowS && e.t_s <= t);
    let flow = 0;
    const hostFlows = sc.hosts.map((h) => h.flows.map(() => flow++));
    return {
      row,
      sampleT: s.t[row],
      bottleneck: s.bottleneck_queue_pkts[row],
      delay: s.bottleneck_delay_ms[row],
      buffer: sc.bottleneck.buffer_pkts,
      ifq: s.hosts.map((h) => h.ifq_pkts[row]),
      txq: sc.hosts.map((h) => h.txqueuelen_pkts),
      outstanding: s.flows.map((f) => f.outstanding_bytes[row]),
      captured: s.flows.map((f) => f.outstanding_captured_bytes[row]),
      cwnd: s.flows.map((f) => f.cwnd_pkts[row]),
      throughput: s.flows.map((f) => f.throughput_bps[row]),
      state: s.flows.map((f) => f.state[row]),
      windowS,
      drops: recent.filter((e) => e.kind === 'network_loss').length,
      marks: recent.filter((e) => e.kind === 'ecn_mark').length,
      backoffs: hostFlows.map((ids) => recent.filter((e) => e.kind === 'local_congestion' && ids.includes(e.flow)).length),
    };
  }, t);
}

/** What the path view shows: its data attributes (docs/TEST-SURFACE.md §4.4). */
function shown(page: Page) {
  return page.getByTestId('path-view').evaluate((el) => {
    const n = (e: Element, a: string) => Number(e.getAttribute(a));
    const hosts = Array.from(el.querySelectorAll('[data-testid^="path-host-"]'));
    const flows = Array.from(el.querySelectorAll('[data-testid^="path-flow-"]'));
    return {
      playT: n(el, 'data-play-t'),
      row: n(el, 'data-row'),
      sampleT: n(el, 'data-t'),
      bottleneck: n(el, 'data-bottleneck-pkts'),
      delay: n(el, 'data-bottleneck-delay-ms'),
      buffer: n(el, 'data-buffer-pkts'),
      windowS: n(el, 'data-window-s'),
      drops: n(el, 'data-drops'),
      marks: n(el, 'data-ecn-marks'),
      ifq: hosts.map((h) => n(h, 'data-ifq-pkts')),
      txq: hosts.map((h) => n(h, 'data-txqueuelen-pkts')),
      ring: hosts.map((h) => h.getAttribute('data-ring')),
      backoffs: hosts.map((h) => n(h, 'data-local-congestion')),
      outstanding: flows.map((f) => n(f, 'data-outstanding-bytes')),
      captured: flows.map((f) => n(f, 'data-captured-bytes')),
      cwnd: flows.map((f) => n(f, 'data-cwnd-pkts')),
      throughput: flows.map((f) => n(f, 'data-throughput-bps')),
      state: flows.map((f) => n(f, 'data-state')),
      summary: el.querySelector('[data-testid="path-summary"]')!.textContent ?? '',
      text: (el as HTMLElement).innerText,
    };
  });
}

/** The path view shows exactly what was recorded at its playback time. */
async function expectRecorded(page: Page): Promise<{ view: Awaited<ReturnType<typeof shown>>; rec: Recorded }> {
  const view = await shown(page);
  const rec = await recordedAt(page, view.playT);
  expect(view.row).toBe(rec.row);
  expect(view.sampleT).toBe(rec.sampleT);
  expect(view.bottleneck).toBe(rec.bottleneck);
  expect(view.delay).toBe(rec.delay);
  expect(view.buffer).toBe(rec.buffer);
  expect(view.ifq).toEqual(rec.ifq);
  expect(view.txq).toEqual(rec.txq);
  expect(view.outstanding).toEqual(rec.outstanding);
  expect(view.captured).toEqual(rec.captured);
  expect(view.cwnd).toEqual(rec.cwnd);
  expect(view.throughput).toEqual(rec.throughput);
  expect(view.state).toEqual(rec.state);
  expect(view.windowS).toBe(rec.windowS);
  expect(view.drops).toBe(rec.drops);
  expect(view.marks).toBe(rec.marks);
  expect(view.backoffs).toEqual(rec.backoffs);
  return { view, rec };
}

test('two-to-one, paused and scrubbed to a full bottleneck: the path view shows the recorded values; step and keys move it', async ({ page }) => {
  const problems = watchConsole(page);
  await open(page, TWO_TO_ONE);
  const path = page.getByTestId('path-view');
  await expect(path.getByRole('heading', { name: 'Path' })).toBeVisible();
  const bar = page.getByTestId('playback');

  // Live at the end of the run: the last sample.
  const last = await page.evaluate(() => window.sawtooth!.series()!.length - 1);
  await expect(path).toHaveAttribute('data-row', String(last));
  await expectRecorded(page);

  // Pause, then scrub to half a sample after the first sample with a full
  // bottleneck queue (its buffer's packets waiting; the one on the wire, when
  // caught at the sample, makes buffer + 1).
  await page.getByTestId('play').click();
  await page.getByTestId('play').click();
  await expect(bar).toHaveAttribute('data-status', 'paused');
  const full = await page.evaluate(() => {
    const s = window.sawtooth!.series()!;
    const buffer = window.sawtooth!.scenario()!.bottleneck.buffer_pkts;
    const i = s.bottleneck_queue_pkts.findIndex((v) => v >= buffer);
    return { i, t: s.t[i], half: window.sawtooth!.scenario()!.sample_interval_ms / 2000 };
  });
  expect(full.i).toBeGreaterThan(0);
  await page.getByTestId('scrub').fill(String(full.t + full.half));
  await expect(bar).toHaveAttribute('data-status', 'paused');
  await expect(path).toHaveAttribute('data-row', String(full.i));
  const { view, rec } = await expectRecorded(page);
  expect(rec.bottleneck).toBeGreaterThanOrEqual(100);
  const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`;
  expect(view.text).toContain(`${rec.bottleneck} of 100 packets`);
  expect(view.text).toContain(plural(rec.drops, 'drop'));
  expect(view.text).toContain(`${rec.ifq[0]} of ${rec.txq[0]} packets`);
  // The text alternative, announced while paused.
  expect(view.summary).toContain(`At ${rec.sampleT.toFixed(2)} s: bottleneck queue ${rec.bottleneck} of 100 packets`);
  expect(view.summary).toContain(`host 0 interface queue ${rec.ifq[0]} of ${rec.txq[0]} packets`);
  expect(view.summary).toContain(`${plural(rec.drops, 'drop')}`);
  expect(view.summary).toContain('in the last 100 ms.');
  await expect(page.getByTestId('path-summary')).toHaveAttribute('aria-live', 'polite');

  // Just after the first drop: counted, and flashing at the switch.
  const firstDrop = await page.evaluate(() => window.sawtooth!.events().find((e) => e.kind === 'network_loss')!.t_s);
  await page.getByTestId('scrub').fill(String(Math.ceil((firstDrop + 0.002) / 0.005) * 0.005));
  const dropped = (await expectRecorded(page)).rec;
  expect(dropped.drops).toBeGreaterThan(0);
  const flash = Number(await page.getByTestId('path-bottleneck').getAttribute('data-drop-flash'));
  expect(flash).toBeGreaterThan(0);
  expect(flash).toBeLessThanOrEqual(1);
  await expect(page.getByTestId('path-bottleneck')).toContainText(plural(dropped.drops, 'drop'));
  await page.getByTestId('scrub').fill(String(full.t + full.half));
  await expect(path).toHaveAttribute('data-row', String(full.i));

  // Step forward: one step of the playback bar; the view moves with it.
  const before = await shown(page);
  await page.getByTestId('step').click();
  await expect(path).not.toHaveAttribute('data-row', String(before.row));
  const stepped = (await expectRecorded(page)).view;
  expect(stepped.playT).toBeCloseTo(Number(await bar.getAttribute('data-play-t')), 9);
  expect(stepped.row).toBeGreaterThan(before.row);

  // Step back, then the keyboard on the focused diagram.
  await page.getByTestId('step-back').click();
  await expect(path).toHaveAttribute('data-row', String(before.row));
  await expectRecorded(page);
  await page.getByRole('group', { name: /Path diagram/ }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(path).toHaveAttribute('data-row', String(stepped.row));
  await expect(bar).toHaveAttribute('data-status', 'paused');
  await expectRecorded(page);
  await page.keyboard.press('ArrowLeft');
  await expect(path).toHaveAttribute('data-row', String(before.row));

  // Scrub elsewhere: the counts follow (a time with no events in its window reads 0).
  await page.getByTestId('scrub').fill('4.5');
  await expect(path).toHaveAttribute('data-play-t', /^4\.5/);
  await expectRecorded(page);
  expect(problems).toEqual([]);
});

test('playing: the path view moves with the playback and stops where it is paused', async ({ page }) => {
  const problems = watchConsole(page);
  await open(page, TWO_TO_ONE);
  const bar = page.getByTestId('playback');
  await page.getByTestId('speed').focus();
  for (let i = 0; i < 2; i++) await page.keyboard.press('ArrowLeft'); // 1× → 0.25×
  await page.getByTestId('restart').click();
  await expect(bar).toHaveAttribute('data-status', 'playing');
  await page.waitForFunction(() => Number(document.querySelector('[data-testid="path-view"]')!.getAttribute('data-row')) > 20);
  await page.getByTestId('play').click();
  await expect(bar).toHaveAttribute('data-status', 'paused');
  const { view } = await expectRecorded(page);
  expect(view.playT).toBe(Number(await bar.getAttribute('data-play-t')));
  expect(view.row).toBeGreaterThan(20);
  expect(problems).toEqual([]);
});

test('the NIC ring: recorded under linux-2.4 (frames in its 256 descriptors), none under ns-2', async ({ page }) => {
  await open(page, '?v=2&prof=linux-2.4&dur=1&seed=1');
  const host = page.getByTestId('path-host-0');
  await expect(host).toHaveAttribute('data-ring', 'recorded');
  await expect(host).toContainText('256 descriptors');
  const row = Number(await page.getByTestId('path-view').getAttribute('data-row'));
  const recorded = await page.evaluate((r) => window.sawtooth!.series()!.hosts[0].ring_pkts![r], row);
  expect(Number(await host.getAttribute('data-ring-pkts'))).toBe(recorded);
  await expect(page.getByTestId('path-summary')).toContainText('NIC ring');
  await expect(page.getByTestId('path-summary')).not.toContainText('not recorded');
  await open(page, '?v=2&prof=ns-2&dur=1&seed=1');
  await expect(page.getByTestId('path-host-0')).toHaveAttribute('data-ring', 'none');
  await expect(page.getByTestId('path-summary')).toContainText('no NIC ring modelled');
});

test('a phone (390×844): the path view stacks top to bottom and nothing scrolls sideways', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await open(page, TWO_TO_ONE);
  const path = page.getByTestId('path-view');
  await path.scrollIntoViewIfNeeded();
  const box = await path.evaluate((el) => {
    const vw = document.documentElement.clientWidth;
    const out = Array.from(el.querySelectorAll('*'))
      .map((e) => ({ e, r: e.getBoundingClientRect() }))
      .filter(({ r }) => r.width > 0 && (r.left < -0.5 || r.right > vw + 0.5))
      .map(({ e }) => (e as HTMLElement).className || e.tagName);
    const r = (id: string) => document.querySelector(`[data-testid="${id}"]`)!.getBoundingClientRect();
    return {
      out,
      scrolls: el.scrollWidth > el.clientWidth,
      stacked: r('path-host-1').bottom <= r('path-bottleneck').top && r('path-bottleneck').bottom <= r('path-receiver').top,
    };
  });
  expect(box.out).toEqual([]);
  expect(box.scrolls).toBe(false);
  expect(box.stacked).toBe(true);
  // The page as a whole, the scenario upload's file input included (issue 24 item 7): no sideways scroll.
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
});

for (const scheme of ['light', 'dark'] as const) {
  test(`axe: the path view has no serious or critical violations (${scheme})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await open(page, TWO_TO_ONE);
    // Paused just after the first drop: badges and flashes on.
    const firstDrop = await page.evaluate(() => window.sawtooth!.events().find((e) => e.kind === 'network_loss')!.t_s);
    await page.getByTestId('scrub').fill(String(Math.ceil((firstDrop + 0.002) / 0.005) * 0.005));
    await expect(page.getByTestId('path-bottleneck')).not.toHaveAttribute('data-drop-flash', '0.000');
    const results = await new AxeBuilder({ page }).include('[data-testid="path-view"]').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);
    expect(serious).toEqual([]);
  });
}

/** The path view as a cell of a fitted view: inside the window, its content inside it, nothing scrolls. */
async function expectFitted(page: Page): Promise<void> {
  const box = await page.getByTestId('path-view').evaluate((el) => {
    const vw = window.innerWidth;
    const vh = window.innerHeight;
    const r = el.getBoundingClientRect();
    const inner = el.querySelector('.path-inner')!.getBoundingClientRect();
    const canvas = el.querySelector('canvas')!.getBoundingClientRect();
    return {
      inViewport: r.left >= -0.5 && r.top >= -0.5 && r.right <= vw + 0.5 && r.bottom <= vh + 0.5,
      contentInside: inner.left >= r.left - 0.5 && inner.top >= r.top - 0.5 && inner.right <= r.right + 0.5 && inner.bottom <= r.bottom + 0.5,
      scale: Number(el.getAttribute('data-fit-scale')),
      canvasWidth: canvas.width,
      docScrolls: document.documentElement.scrollWidth > vw || document.documentElement.scrollHeight > vh,
      width: r.width,
    };
  });
  expect(box.inViewport).toBe(true);
  expect(box.contentInside).toBe(true);
  expect(box.scale).toBeGreaterThan(0.3);
  expect(box.scale).toBeLessThanOrEqual(1);
  expect(box.canvasWidth).toBeGreaterThan(50);
  expect(box.docScrolls).toBe(false);
}

test('charts=path in an embed: the path view is a chart of the grid, fits it, and plays in step with the playback', async ({ page }) => {
  const problems = watchConsole(page);
  for (const [w, h] of [
    [960, 540],
    [480, 270],
    [1920, 1080],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    await open(page, `${TWO_TO_ONE}&embed=1&charts=path&controls=playback`);
    await expect(page.getByTestId('path-view')).toBeVisible();
    // Only the path view: no time chart.
    await expect(page.locator('figure.chart')).toHaveCount(0);
    await expectFitted(page);
  }
  // With a chart beside it: both in the grid, no overlap.
  await page.setViewportSize({ width: 1280, height: 720 });
  await open(page, `${TWO_TO_ONE}&embed=1&charts=cwnd,path&controls=playback`);
  await expect(page.getByTestId('chart-cwnd')).toBeVisible();
  await expectFitted(page);
  const overlap = await page.evaluate(() => {
    const a = document.querySelector('[data-testid="path-view"]')!.getBoundingClientRect();
    const b = document.querySelector('[data-testid="chart-cwnd"]')!.getBoundingClientRect();
    return a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  });
  expect(overlap).toBe(false);

  // Playback: play from 0 s slowly, pause; the path view shows the bar's time and its recorded sample.
  const bar = page.getByTestId('playback');
  await page.getByTestId('speed').focus();
  for (let i = 0; i < 2; i++) await page.keyboard.press('ArrowLeft');
  await page.getByTestId('restart').click();
  await expect(bar).toHaveAttribute('data-status', 'playing');
  await page.waitForFunction(() => Number(document.querySelector('[data-testid="path-view"]')!.getAttribute('data-row')) > 20);
  await page.getByTestId('play').click();
  await expect(bar).toHaveAttribute('data-status', 'paused');
  const { view } = await expectRecorded(page);
  expect(view.playT).toBe(Number(await bar.getAttribute('data-play-t')));
  // The chart's cursor and the path view agree on the time shown.
  const counts = JSON.parse((await page.getByTestId('chart-cwnd').getAttribute('data-point-counts')) ?? '{}') as Record<string, number>;
  expect(counts['f0.cwnd_pkts']).toBe(view.row + 1);
  // Step: both move.
  await page.getByTestId('step').click();
  await expect(page.getByTestId('path-view')).not.toHaveAttribute('data-row', String(view.row));
  await expectRecorded(page);
  expect(problems).toEqual([]);
});

test('charts=path in presentation mode: shown in the grid with the playback bar, following it', async ({ page }) => {
  const problems = watchConsole(page);
  for (const [w, h] of [
    [1280, 720],
    [1920, 1080],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    await open(page, `${TWO_TO_ONE}&present=1&charts=path,throughput`);
    await expect(page.locator('html')).toHaveAttribute('data-present', '1');
    await expect(page.getByTestId('path-view').getByRole('heading', { name: 'Path' })).toBeVisible();
    await expectFitted(page);
  }
  // The presentation shortcuts drive it: Home plays from 0 s, Space pauses.
  const bar = page.getByTestId('playback');
  await page.keyboard.press('Home');
  await expect(bar).toHaveAttribute('data-status', 'playing');
  await page.waitForFunction(() => Number(document.querySelector('[data-testid="path-view"]')!.getAttribute('data-row')) > 5);
  await page.keyboard.press('Space');
  await expect(bar).toHaveAttribute('data-status', 'paused');
  const { view } = await expectRecorded(page);
  expect(view.playT).toBe(Number(await bar.getAttribute('data-play-t')));
  expect(problems).toEqual([]);
});

test('without charts=path, embeds and presentation mode leave the path view out', async ({ page }) => {
  await open(page, `${TWO_TO_ONE}&embed=1&charts=cwnd`);
  await expect(page.getByTestId('path-view')).toHaveCount(0);
  await open(page, `${TWO_TO_ONE}&present=1`);
  await expect(page.getByTestId('path-view')).toHaveCount(0);
});

for (const scheme of ['light', 'dark'] as const) {
  test(`axe: charts=path in an embed has no serious or critical violations (${scheme})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize({ width: 960, height: 540 });
    await open(page, `${TWO_TO_ONE}&embed=1&charts=path,cwnd&controls=playback,rtt`);
    const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);
    expect(serious).toEqual([]);
  });
}
