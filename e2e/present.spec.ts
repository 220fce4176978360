import AxeBuilder from '@axe-core/playwright';
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { watchConsole } from './support/console';
import { startParentPage, type ParentPage } from './support/parentPage';

// Presentation mode and exports for slides (issue 14): full screen with the
// projector profile and big type, keyboard shortcuts for playback, a guided
// lab one screen at a time; the playback as a WebM video of the requested
// size and length, and slide-sized PNGs.

async function done(page: Page): Promise<string> {
  return page.evaluate(() => window.sawtooth!.whenDone());
}

async function axe(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations.map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}

const playT = (page: Page) => page.getByTestId('playback').getAttribute('data-play-t').then(Number);

test('presentation mode: projector colours, big type, the charts fill the screen, shortcuts play, pause, step and reset; axe passes', async ({ page }) => {
  const problems = watchConsole(page);
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('./?v=2&alg=reno&rtt=30&dur=3&seed=1');
  expect(await done(page)).toBe('done');
  const labFont = await page.evaluate(() => parseFloat(getComputedStyle(document.querySelector('.axis text')!).fontSize));

  // The header's Present button, by keyboard, from further down the page.
  await page.evaluate(() => window.scrollTo(0, 400));
  await page.getByTestId('present').focus({ preventScroll: true } as never);
  await page.evaluate(() => window.scrollTo(0, 400));
  await page.keyboard.press('Enter');
  const html = page.locator('html');
  await expect(html).toHaveAttribute('data-present', '1');
  await expect(html).toHaveAttribute('data-profile', 'projector');
  await expect(html).toHaveAttribute('data-fit-columns', /\d/);
  await expect(page.getByTestId('present-bar')).toBeVisible();
  await expect(page.getByTestId('playback')).toBeVisible();
  await expect(page.getByTestId('share-panel')).toBeHidden();
  // Big type, and nothing scrolls.
  const fit = await page.evaluate(() => {
    const s = document.scrollingElement!;
    return { sw: s.scrollWidth, sh: s.scrollHeight, tick: parseFloat(getComputedStyle(document.querySelector('.axis text')!).fontSize) };
  });
  expect(fit.sw).toBeLessThanOrEqual(1280);
  expect(fit.sh).toBeLessThanOrEqual(720);
  expect(fit.tick).toBeGreaterThan(labFont);
  // Thick lines.
  expect(await page.locator('[data-testid="chart-cwnd"] path.line').first().evaluate((p) => parseFloat(getComputedStyle(p).strokeWidth))).toBeGreaterThanOrEqual(3);

  // Shortcuts: Space plays and pauses, → and ← step, Home resets to 0 s and plays
  // (at 0.1× real time, so every state is there long enough to read).
  await page.getByTestId('speed').fill('0');
  await expect(page.getByTestId('speed')).toHaveAttribute('aria-valuetext', '0.1× real time');
  await page.locator('body').click({ position: { x: 2, y: 2 } });
  await page.keyboard.press(' ');
  await expect(page.getByTestId('playback')).toHaveAttribute('data-status', 'playing');
  await page.waitForFunction(() => Number(document.querySelector('[data-testid="playback"]')!.getAttribute('data-play-t')) > 0.02);
  await page.keyboard.press(' ');
  await expect(page.getByTestId('playback')).toHaveAttribute('data-status', 'paused');
  const paused = await playT(page);
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => playT(page)).toBeGreaterThan(paused);
  const stepped = await playT(page);
  await page.keyboard.press('ArrowLeft');
  await expect.poll(() => playT(page)).toBeLessThan(stepped);
  await page.keyboard.press('Home');
  await expect(page.getByTestId('playback')).toHaveAttribute('data-status', 'playing');
  await expect.poll(() => playT(page)).toBeLessThan(paused);
  await page.keyboard.press('k');
  await expect(page.getByTestId('playback')).toHaveAttribute('data-status', 'paused');

  // The shortcuts are listed; axe finds nothing in the projector theme, with the list open.
  await page.locator('.present-keys summary').click();
  await expect(page.getByTestId('present-keys')).toContainText('Space');
  expect(await axe(page)).toEqual([]);

  // Exit goes back to the page as it was, scrolled where it was.
  await page.getByTestId('present-exit').click();
  await expect(html).not.toHaveAttribute('data-present', '1');
  await expect(page.getByTestId('share-panel')).toBeVisible();
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(400);
  expect(problems).toEqual([]);
});

test('a presentation link opens in presentation mode; an embed in the projector theme passes axe', async ({ page }) => {
  const problems = watchConsole(page);
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.goto('./?v=2&alg=cubic&dur=2&seed=1&present=1&charts=cwnd,queues&controls=rtt');
  expect(await done(page)).toBe('done');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'projector');
  await expect(page.locator('[data-control-id]:visible')).toHaveCount(1);
  // Space on the page plays; in the RTT field it is typed.
  await page.locator('[data-control-id="rtt"]').getByRole('textbox').focus();
  await page.keyboard.press('k');
  await expect(page.getByTestId('playback')).not.toHaveAttribute('data-status', 'playing');
  expect(await axe(page)).toEqual([]);
  // Esc in the field is the field's; on the page it leaves presentation mode, and with it
  // the projector theme that present=1 implied (the link chose no theme=).
  await page.keyboard.press('Escape');
  await expect(page.locator('html')).toHaveAttribute('data-present', '1');
  await expect(page.getByTestId('present-keys')).toContainText('Esc');
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press('Escape');
  await expect(page.locator('html')).not.toHaveAttribute('data-present', '1');
  await expect(page.locator('html')).not.toHaveAttribute('data-theme', 'projector');

  await page.setViewportSize({ width: 960, height: 540 });
  await page.goto('./?v=2&alg=reno&dur=2&seed=1&embed=1&theme=projector&controls=rtt,window,playback');
  expect(await done(page)).toBe('done');
  expect(await axe(page)).toEqual([]);
  expect(problems).toEqual([]);
});

test('a guided lab in presentation mode: question → prediction → run → one screen per chart → what the runs show → paper', async ({ page }) => {
  const problems = watchConsole(page);
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('./?lab=txqueuelen&present=1');
  await expect(page.getByTestId('guided-lab')).toHaveAttribute('data-lab-state', 'idle');
  const stepper = page.getByTestId('lab-stepper');
  const guide = page.locator('.lab-guide');
  await expect(stepper).toHaveAttribute('data-step', 'question');
  await expect(guide.locator('h3').first()).toBeVisible();
  await expect(page.getByTestId('lab-prediction')).toBeHidden();
  await expect(page.getByTestId('lab-run')).toBeHidden();
  // Lab 3 draws three charts: the first on the run's screen, the others on screens of their own.
  await expect(page.locator('.stepper-screen')).toHaveCount(7);
  expect(await page.locator('.stepper-screen').evaluateAll((bs) => bs.map((b) => b.getAttribute('data-screen')))).toEqual([
    'question',
    'prediction',
    'run',
    'chart-local_congestion_events',
    'chart-mean_outstanding_kbytes',
    'shows',
    'paper',
  ]);

  await page.keyboard.press('ArrowRight');
  await expect(stepper).toHaveAttribute('data-step', 'prediction');
  await expect(page.getByTestId('lab-prediction')).toBeVisible();
  await expect(guide.locator('h3').first()).toBeHidden();
  // Typing a prediction does not turn the page.
  await page.getByTestId('lab-prediction').fill('');
  await page.getByTestId('lab-prediction').pressSequentially('no change');
  await expect(stepper).toHaveAttribute('data-step', 'prediction');

  await page.getByTestId('screen-next').click();
  await expect(stepper).toHaveAttribute('data-step', 'run');
  await expect(page.getByTestId('lab-run')).toBeVisible();
  await expect(page.getByTestId('lab-prediction')).toBeHidden();
  await expect(page.getByTestId('paper-table')).toBeHidden();
  // One chart, the first, with its paper values.
  await expect(page.locator('figure.lab-chart:visible')).toHaveCount(1);
  await expect(page.getByTestId('lab-chart-total_throughput_mbps')).toBeVisible();

  // Each further chart alone on its screen, filling it.
  await page.locator('body').click({ position: { x: 2, y: 2 } });
  await page.keyboard.press('PageDown');
  await expect(stepper).toHaveAttribute('data-step', 'chart-local_congestion_events');
  await expect(page.locator('figure.lab-chart:visible')).toHaveCount(1);
  await expect(page.getByTestId('lab-chart-local_congestion_events')).toBeVisible();
  await expect(page.getByTestId('lab-run')).toBeHidden();
  const chart = (await page.getByTestId('lab-chart-local_congestion_events').boundingBox())!;
  expect(chart.height).toBeGreaterThan(720 * 0.6);
  expect(chart.width).toBeGreaterThan(1280 * 0.9);
  await page.keyboard.press('n');
  await expect(stepper).toHaveAttribute('data-step', 'chart-mean_outstanding_kbytes');
  await page.keyboard.press('n');
  await expect(stepper).toHaveAttribute('data-step', 'shows');
  await expect(page.getByTestId('sim-claims')).toBeVisible();
  await expect(page.locator('figure.lab-chart:visible')).toHaveCount(0);

  await page.keyboard.press('ArrowRight');
  await expect(stepper).toHaveAttribute('data-step', 'paper');
  await expect(page.getByTestId('paper-table')).toBeVisible();
  await expect(page.getByTestId('lab-run')).toBeHidden();
  // The paper's table may take more than one page (lab 3 compares nine values); its last page ends the deck.
  const next = page.getByTestId('screen-next');
  await expect(async () => {
    if (await next.isEnabled()) await page.keyboard.press('ArrowRight');
    await expect(next).toBeDisabled({ timeout: 500 });
  }).toPass({ timeout: 20_000 });
  await expect(stepper).toHaveAttribute('data-step', 'paper');
  await expect(stepper).toHaveAttribute('data-page', (await stepper.getAttribute('data-pages'))!);
  expect(await axe(page)).toEqual([]);

  // Back, page by page, to the screen before.
  await expect(async () => {
    await page.keyboard.press('p');
    await expect(stepper).toHaveAttribute('data-step', 'shows', { timeout: 500 });
  }).toPass({ timeout: 20_000 });
  await page.locator('.stepper-screen[data-screen="question"]').click();
  await expect(stepper).toHaveAttribute('data-step', 'question');
  await expect(page.getByTestId('screen-previous')).toBeDisabled();
  expect(problems).toEqual([]);
});

// ------------------------------------------------------------ presentation screens fit the room (issue 24)
//
// The rule, at 1920×1080 and 1280×720, on every screen (and every page of a
// screen) of every guided lab, before and after its sweep: the document and
// the screen's area never scroll, no element inside scrolls or leaves the
// window; every text of a result chart (ticks, axis titles, labels, its
// title and legend) is at least 0.6 of the body text (the root font size)
// and at least 18 px at 1080p; no chart title, legend or legend entry is
// cut (its content wider or taller than its box) and no chart text leaves
// its drawing.

const LAB_IDS: string[] = (JSON.parse(readFileSync(new URL('../engine-wasm/core/labs/labs.json', import.meta.url), 'utf8')) as { labs: { id: string }[] }).labs.map((l) => l.id);
const ROOM_SIZES = [
  { width: 1920, height: 1080 },
  { width: 1280, height: 720 },
];
/** Chart text against the body text, and its least size at 1080p. */
const CHART_TEXT_EM = 0.6;
const CHART_TEXT_MIN_PX_1080 = 18;

/** What breaks the rule on the screen shown (nothing: []). */
async function screenProblems(page: Page, minChartPx: number): Promise<string[]> {
  return page.evaluate(
    ({ em, minPx }) => {
      const out: string[] = [];
      const shown = (el: Element) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
      const name = (el: Element) => `${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\s+/).join('.') : ''} "${(el.textContent ?? '').trim().slice(0, 40)}"`;
      const doc = document.scrollingElement!;
      if (doc.scrollHeight > doc.clientHeight + 1 || doc.scrollWidth > doc.clientWidth + 1) out.push(`the document scrolls: ${doc.scrollWidth}×${doc.scrollHeight} in ${doc.clientWidth}×${doc.clientHeight}`);
      const screen = document.querySelector('[data-testid="lab-screen"]') ?? document.querySelector('[data-testid="lab-stepper"]')!;
      if (screen.scrollHeight > screen.clientHeight + 1 || screen.scrollWidth > screen.clientWidth + 1)
        out.push(`the screen overflows: ${screen.scrollWidth}×${screen.scrollHeight} in ${screen.clientWidth}×${screen.clientHeight}`);
      const all = Array.from(document.querySelectorAll('.app *')).filter(shown);
      for (const el of all) {
        const cs = getComputedStyle(el);
        if ((/auto|scroll/.test(cs.overflowY) && el.scrollHeight > el.clientHeight + 1) || (/auto|scroll/.test(cs.overflowX) && el.scrollWidth > el.clientWidth + 1)) out.push(`scrolls: ${name(el)}`);
        // (A chart's drawing is checked by its text below; screen-reader text is not drawn.)
        if (el.closest('.sr-only, svg *, .present-keys dl')) continue;
        const r = el.getBoundingClientRect();
        if (r.width > 0 && r.height > 0 && (r.left < -1 || r.top < -1 || r.right > innerWidth + 1 || r.bottom > innerHeight + 1)) out.push(`outside the window: ${name(el)}`);
      }
      const body = parseFloat(getComputedStyle(document.documentElement).fontSize);
      for (const t of Array.from(document.querySelectorAll('.lab-chart svg text'))) {
        if (!shown(t)) continue;
        const px = parseFloat(getComputedStyle(t).fontSize);
        if (px < em * body - 0.01 || px < minPx - 0.01) out.push(`chart text ${px} px beside ${body} px body text: ${name(t)}`);
        const svg = t.closest('svg')!.getBoundingClientRect();
        const b = t.getBoundingClientRect();
        if (b.width > 0 && (b.left < svg.left - 1 || b.right > svg.right + 1 || b.top < svg.top - 1 || b.bottom > svg.bottom + 1)) out.push(`chart text cut: ${name(t)}`);
      }
      for (const el of Array.from(document.querySelectorAll('.lab-chart-title, .lab-legend, .lab-legend .legend-item'))) {
        if (!shown(el)) continue;
        const px = parseFloat(getComputedStyle(el).fontSize);
        if (px < em * body - 0.01 || px < minPx - 0.01) out.push(`chart text ${px} px beside ${body} px body text: ${name(el)}`);
        if (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1) out.push(`cut: ${name(el)} (${el.scrollWidth}×${el.scrollHeight} in ${el.clientWidth}×${el.clientHeight})`);
        const fig = el.closest('figure')!.getBoundingClientRect();
        const r = el.getBoundingClientRect();
        if (r.left < fig.left - 1 || r.right > fig.right + 1 || r.bottom > fig.bottom + 1) out.push(`outside its chart: ${name(el)}`);
      }
      return out;
    },
    { em: CHART_TEXT_EM, minPx: minChartPx },
  );
}

/** From the first screen to the last by keyboard, each page of each screen checked; the screens and pages seen. */
async function walkScreens(page: Page, size: { width: number; height: number }, when: string): Promise<string[]> {
  const stepper = page.getByTestId('lab-stepper');
  await page.locator('.stepper-screen[data-screen="question"]').click();
  await expect(stepper).toHaveAttribute('data-step', 'question');
  const minPx = size.height >= 1080 ? CHART_TEXT_MIN_PX_1080 : 0;
  const seen: string[] = [];
  const where = async () => `${await stepper.getAttribute('data-step')} ${(await stepper.getAttribute('data-page')) ?? 1}/${(await stepper.getAttribute('data-pages')) ?? 1}`;
  for (let guard = 0; guard < 60; guard++) {
    const at = await where();
    seen.push(at);
    await expect.poll(() => screenProblems(page, minPx), { message: `${size.width}×${size.height}, ${when}, screen ${at}`, timeout: 5000 }).toEqual([]);
    if (await page.getByTestId('screen-next').isDisabled()) break;
    await page.keyboard.press('ArrowRight');
    await expect.poll(where).not.toBe(at);
  }
  return seen;
}

for (const id of LAB_IDS) {
  test(`lab ${id} in presentation mode: every screen fits 1920×1080 and 1280×720 without scrolling, chart text sized with the body text, nothing cut`, async ({ page }) => {
    test.setTimeout(180_000);
    const problems = watchConsole(page);
    await page.setViewportSize(ROOM_SIZES[1]);
    await page.goto(`./?lab=${id}&present=1`);
    await expect(page.getByTestId('guided-lab')).toHaveAttribute('data-lab-state', 'idle');
    // Before the sweep: the paper's values already drawn, the tables waiting.
    const before = await walkScreens(page, ROOM_SIZES[1], 'before the sweep');
    expect(before[0]).toBe('question 1/1');
    expect(before.at(-1)).toMatch(/^paper /);

    // After it, with every result on the charts and every sentence and table filled.
    await page.locator('.stepper-screen[data-screen="run"]').click();
    await page.getByTestId('lab-run').click();
    await expect(page.getByTestId('guided-lab')).toHaveAttribute('data-lab-state', 'done', { timeout: 150_000 });
    for (const size of ROOM_SIZES) {
      await page.setViewportSize(size);
      const seen = await walkScreens(page, size, 'after the sweep');
      // One screen per chart beyond the first, every page of a paged screen in order.
      const charts = await page.locator('figure.lab-chart').count();
      expect(new Set(seen.map((s) => s.split(' ')[0])).size).toBe(4 + charts);
      for (const [i, s] of seen.entries()) {
        const [step, pg] = s.split(' ');
        const [n, of] = pg.split('/').map(Number);
        if (n > 1) expect(seen[i - 1]).toBe(`${step} ${n - 1}/${of}`);
      }
    }
    expect(problems).toEqual([]);
  });
}

test('a paged screen: → and ← turn its pages, every row on one page with the table’s header, Back from the next screen comes to its last page', async ({ page }) => {
  test.setTimeout(120_000);
  const problems = watchConsole(page);
  await page.setViewportSize({ width: 1280, height: 720 });
  // Lab 8 compares 33 of the paper's values and says much about its runs: more than one 720p screen holds.
  await page.goto('./?lab=ten-into-one&present=1');
  await expect(page.getByTestId('guided-lab')).toHaveAttribute('data-lab-state', 'idle');
  const stepper = page.getByTestId('lab-stepper');
  await page.locator('.stepper-screen[data-screen="run"]').click();
  await page.getByTestId('lab-run').click();
  await expect(page.getByTestId('guided-lab')).toHaveAttribute('data-lab-state', 'done', { timeout: 100_000 });

  // The paper's values: a screen opens on its first page.
  await page.locator('.stepper-screen[data-screen="paper"]').click();
  await expect(stepper).toHaveAttribute('data-step', 'paper');
  await expect(stepper).toHaveAttribute('data-page', '1');
  await expect.poll(async () => Number(await stepper.getAttribute('data-pages'))).toBeGreaterThan(1);
  const pages = Number(await stepper.getAttribute('data-pages'));
  const rows = page.getByTestId('paper-table').locator('tbody tr');
  const all = await rows.evaluateAll((rs) => rs.map((r) => r.getAttribute('data-key')!));
  expect(all.length).toBeGreaterThan(20);
  // Every row on exactly one page, in order; the table's header on each.
  const shownRows: string[] = [];
  for (let p = 1; p <= pages; p++) {
    await expect(stepper).toHaveAttribute('data-page', String(p));
    await expect(page.getByTestId('paper-table').locator('thead')).toBeVisible();
    await expect(page.locator('.stepper-screen[aria-current="step"]')).toContainText(`(${p}/${pages})`);
    await expect.poll(() => screenProblems(page, 0)).toEqual([]);
    shownRows.push(...(await rows.evaluateAll((rs) => rs.filter((r) => r.getClientRects().length > 0).map((r) => r.getAttribute('data-key')!))));
    if (p < pages) await page.keyboard.press('ArrowRight');
  }
  expect(shownRows).toEqual(all);
  await expect(page.getByTestId('screen-next')).toBeDisabled();
  await page.keyboard.press('ArrowLeft');
  await expect(stepper).toHaveAttribute('data-page', String(pages - 1));

  // Back from a screen's first page: the screen before, on its last page.
  await page.locator('.stepper-screen[data-screen="paper"]').click();
  await expect(stepper).toHaveAttribute('data-page', '1');
  await page.getByTestId('screen-previous').click();
  await expect(stepper).toHaveAttribute('data-step', 'shows');
  const showsPages = await stepper.getAttribute('data-pages');
  expect(Number(showsPages)).toBeGreaterThan(1);
  await expect(stepper).toHaveAttribute('data-page', showsPages!);
  await page.keyboard.press('PageUp');
  await expect(stepper).toHaveAttribute('data-page', String(Number(showsPages) - 1));
  expect(problems).toEqual([]);
});

test('the lab page in presentation mode: no chart title or legend cut at 1920×1080 or 1280×720, chart text sized with the body text', async ({ page }) => {
  const problems = watchConsole(page);
  for (const size of ROOM_SIZES) {
    await page.setViewportSize(size);
    await page.goto('./?v=2&alg=reno&rtt=30&dur=3&seed=1&present=1');
    expect(await done(page)).toBe('done');
    await expect
      .poll(
        () =>
          page.evaluate((minPx) => {
            const out: string[] = [];
            const shown = (el: Element) => el.getClientRects().length > 0;
            const doc = document.scrollingElement!;
            if (doc.scrollHeight > doc.clientHeight + 1 || doc.scrollWidth > doc.clientWidth + 1) out.push('the document scrolls');
            const body = parseFloat(getComputedStyle(document.documentElement).fontSize);
            for (const t of Array.from(document.querySelectorAll('.chart .axis text'))) {
              const px = parseFloat(getComputedStyle(t).fontSize);
              if (shown(t) && (px < 0.6 * body - 0.01 || px < minPx - 0.01)) out.push(`tick ${px} px beside ${body} px`);
            }
            for (const el of Array.from(document.querySelectorAll('.chart .chart-title, .chart figcaption .legend, .chart figcaption .legend-item, .chart-legend, .chart-legend .legend-item'))) {
              if (!shown(el)) continue;
              const text = (el.textContent ?? '').trim().slice(0, 40);
              if (el.scrollWidth > el.clientWidth + 1) out.push(`cut: "${text}" (${el.scrollWidth} in ${el.clientWidth})`);
              const fig = (el.closest('figure') ?? document.documentElement).getBoundingClientRect();
              const r = el.getBoundingClientRect();
              if (r.left < fig.left - 1 || r.right > fig.right + 1 || r.right > innerWidth + 1) out.push(`outside: "${text}"`);
            }
            return out;
          }, size.height >= 1080 ? CHART_TEXT_MIN_PX_1080 : 0),
        { message: `${size.width}×${size.height}` },
      )
      .toEqual([]);
  }
  expect(problems).toEqual([]);
});

let parent: ParentPage;
test.beforeAll(async () => {
  parent = await startParentPage();
});
test.afterAll(async () => {
  await parent.close();
});

test('the playback as WebM at the chosen size and speed, and slide-sized PNGs', async ({ page }) => {
  const problems = watchConsole(page);
  await page.goto('./?v=2&alg=reno&rtt=30&dur=2&seed=1');
  expect(await done(page)).toBe('done');
  // 1920×1080 at 2× real time: a 2 s run plays for 1 s.
  await page.getByTestId('slide-size').selectOption({ label: '1920 × 1080' });
  await page.getByTestId('slide-speed').selectOption('2');
  await expect(page.getByTestId('export-video')).toContainText('1 s');
  const [video] = await Promise.all([page.waitForEvent('download', { timeout: 30_000 }), page.getByTestId('export-video').click()]);
  expect(video.suggestedFilename()).toMatch(/^sawtooth-reno-rtt30-seed1-playback-1920x1080-2x\.webm$/);
  const webm = readFileSync((await video.path())!).toString('base64');

  const [png] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-throughput-slide-png').click()]);
  expect(png.suggestedFilename()).toBe('sawtooth-reno-rtt30-seed1-throughput-1920x1080.png');
  const pngBytes = readFileSync((await png.path())!);
  // PNG signature, then IHDR's width and height.
  expect(pngBytes.subarray(1, 4).toString()).toBe('PNG');
  expect([pngBytes.readUInt32BE(16), pngBytes.readUInt32BE(20)]).toEqual([1920, 1080]);

  // Decode the video in a page of its own (the app's CSP allows no blob: media).
  await page.goto(parent.set('<!doctype html><html lang="en"><head><title>check</title></head><body></body></html>'));
  const info = await page.evaluate(async (b64) => {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const v = document.createElement('video');
    v.muted = true;
    v.src = URL.createObjectURL(new Blob([bytes], { type: 'video/webm' }));
    document.body.append(v);
    await new Promise((resolve, reject) => {
      v.onloadedmetadata = resolve;
      v.onerror = () => reject(new Error(`video error ${v.error?.code}`));
    });
    const duration = v.duration;
    // A frame from the middle is a chart, not a blank: many distinct colours.
    v.currentTime = duration / 2;
    await new Promise((resolve) => (v.onseeked = resolve));
    const c = document.createElement('canvas');
    c.width = 480;
    c.height = 270;
    const ctx = c.getContext('2d')!;
    ctx.drawImage(v, 0, 0, 480, 270);
    const data = ctx.getImageData(0, 0, 480, 270).data;
    const colours = new Set<number>();
    for (let i = 0; i < data.length; i += 16) colours.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
    return { width: v.videoWidth, height: v.videoHeight, duration, colours: colours.size };
  }, webm);
  expect(info.width).toBe(1920);
  expect(info.height).toBe(1080);
  expect(info.duration).toBeGreaterThan(0.95);
  expect(info.duration).toBeLessThan(1.05);
  expect(info.colours).toBeGreaterThan(20);
  expect(problems).toEqual([]);
});

test('a slide PNG carries the legend (each flow in its colour) and the scenario caption above the chart', async ({ page }) => {
  const problems = watchConsole(page);
  await page.goto('./?v=2&hosts=1,1&alg=reno,scalable&rtt=30&rate=100M&buf=40&mtu=1500&dur=2&seed=1');
  expect(await done(page)).toBe('done');
  await page.getByTestId('slide-size').selectOption({ label: '1920 × 1080' });
  const [png] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-cwnd-slide-png').click()]);
  const b64 = readFileSync((await png.path())!).toString('base64');
  await page.goto(parent.set('<!doctype html><html lang="en"><head><title>check</title></head><body></body></html>'));
  // The band above the chart's panel (the top 12 %): the caption and the legend only. Count pixels
  // near each flow's colour there (Okabe–Ito blue and vermilion: the legend's swatches) and dark text pixels.
  const band = await page.evaluate(async (data) => {
    const img = new Image();
    img.src = `data:image/png;base64,${data}`;
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.width;
    c.height = img.height;
    const ctx = c.getContext('2d')!;
    ctx.drawImage(img, 0, 0);
    const h = Math.round(img.height * 0.12);
    const px = ctx.getImageData(0, 0, img.width, h).data;
    const near = (i: number, [r, g, b]: number[]) => Math.abs(px[i] - r) + Math.abs(px[i + 1] - g) + Math.abs(px[i + 2] - b) < 40;
    let blue = 0;
    let vermilion = 0;
    let ink = 0;
    for (let i = 0; i < px.length; i += 4) {
      if (near(i, [0x00, 0x72, 0xb2])) blue++;
      if (near(i, [0xd5, 0x5e, 0x00])) vermilion++;
      if (px[i] + px[i + 1] + px[i + 2] < 120) ink++;
    }
    return { width: img.width, height: img.height, blue, vermilion, ink };
  }, b64);
  expect([band.width, band.height]).toEqual([1920, 1080]);
  expect(band.blue).toBeGreaterThan(50);
  expect(band.vermilion).toBeGreaterThan(50);
  // Caption and legend labels: text across the band.
  expect(band.ink).toBeGreaterThan(2000);
  expect(problems).toEqual([]);
});
