import { expect, test, type Page } from '@playwright/test';
import { watchConsole } from './support/console';
import { startParentPage, type ParentPage } from './support/parentPage';

// Embeds that fit (issue 14): in embed mode the page fills its frame at any
// size, for any choice of charts and controls; nothing is clipped or
// overlaps, nothing scrolls, type follows the frame, and the charts and
// controls still work. The embed builder's code, pasted into a page, shows
// what its preview showed.

interface R {
  x: number;
  y: number;
  w: number;
  h: number;
}

interface FitReport {
  vw: number;
  vh: number;
  scrollW: number;
  scrollH: number;
  fontPx: number;
  columns: string | null;
  charts: { id: string; box: R; heading: R; headingCut: boolean; titles: { text: string; r: R }[]; drawing: R }[];
  controls: { id: string; box: R }[];
}

/** Boxes of everything that must fit, measured in the page once its layout has settled. */
async function measure(page: Page): Promise<FitReport> {
  return page.evaluate(async () => {
    // Let the layout observers run (two frames).
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const rect = (el: Element): R => {
      const b = el.getBoundingClientRect();
      return { x: b.x, y: b.y, w: b.width, h: b.height };
    };
    const scroller = document.scrollingElement ?? document.documentElement;
    return {
      vw: window.innerWidth,
      vh: window.innerHeight,
      scrollW: scroller.scrollWidth,
      scrollH: scroller.scrollHeight,
      fontPx: parseFloat(getComputedStyle(document.documentElement).fontSize),
      columns: document.documentElement.getAttribute('data-fit-columns'),
      charts: Array.from(document.querySelectorAll('[data-testid="charts"] > figure.chart')).map((f) => ({
        id: f.getAttribute('data-testid')!,
        box: rect(f),
        heading: rect(f.querySelector('.chart-title')!),
        headingCut: ((t: HTMLElement) => t.scrollWidth > t.clientWidth + 1)(f.querySelector('.chart-title') as HTMLElement),
        titles: Array.from(f.querySelectorAll('.axis-label')).map((t) => ({ text: t.textContent ?? '', r: rect(t) })),
        drawing: rect(f.querySelector('.chart-svg')!),
      })),
      controls: Array.from(document.querySelectorAll('.lab-builder [data-control-id]')).map((c) => ({ id: c.getAttribute('data-control-id')!, box: rect(c) })),
    };
  });
}

const EPS = 0.5;
const inside = (a: R, b: R) => a.x >= b.x - EPS && a.y >= b.y - EPS && a.x + a.w <= b.x + b.w + EPS && a.y + a.h <= b.y + b.h + EPS;
const overlap = (a: R, b: R) => a.x < b.x + b.w - EPS && b.x < a.x + a.w - EPS && a.y < b.y + b.h - EPS && b.y < a.y + a.h - EPS;

function expectFits(r: FitReport, charts: string[], controls: string[]): void {
  const view: R = { x: 0, y: 0, w: r.vw, h: r.vh };
  // No scrollbars: nothing reaches past the frame.
  expect(r.scrollW, 'scroll width').toBeLessThanOrEqual(r.vw);
  expect(r.scrollH, 'scroll height').toBeLessThanOrEqual(r.vh);
  expect(r.charts.map((c) => c.id)).toEqual(charts.map((c) => `chart-${c}`));
  expect(r.controls.map((c) => c.id).sort()).toEqual([...controls].sort());
  for (const c of r.charts) {
    expect(inside(c.box, view), `${c.id} inside the frame`).toBe(true);
    expect(c.box.w, `${c.id} width`).toBeGreaterThan(100);
    expect(c.box.h, `${c.id} height`).toBeGreaterThan(80);
    // The drawing, heading and axis titles lie inside the chart's box…
    expect(inside(c.drawing, c.box), `${c.id} drawing inside its box`).toBe(true);
    expect(inside(c.heading, c.box), `${c.id} heading inside its box`).toBe(true);
    expect(c.headingCut, `${c.id} heading shown whole, not cut`).toBe(false);
    expect(c.titles.length, `${c.id} has its time axis title`).toBeGreaterThanOrEqual(1);
    for (const t of c.titles) {
      expect(inside(t.r, c.box), `${c.id} axis title "${t.text}" inside its box`).toBe(true);
      // …and no axis title runs into the heading.
      expect(overlap(t.r, c.heading), `${c.id} axis title "${t.text}" clear of the heading`).toBe(false);
    }
    if (c.titles.length === 2) expect(overlap(c.titles[0].r, c.titles[1].r), `${c.id} axis titles clear of each other`).toBe(false);
  }
  for (let i = 0; i < r.charts.length; i++)
    for (let j = i + 1; j < r.charts.length; j++) expect(overlap(r.charts[i].box, r.charts[j].box), `${r.charts[i].id} and ${r.charts[j].id} apart`).toBe(false);
  for (const k of r.controls) {
    expect(inside(k.box, view), `control ${k.id} inside the frame`).toBe(true);
    for (const c of r.charts) expect(overlap(k.box, c.box), `control ${k.id} clear of ${c.id}`).toBe(false);
  }
}

const SIZES = [
  { name: '480×270', width: 480, height: 270 },
  { name: '960×540', width: 960, height: 540 },
  { name: '1280×720', width: 1280, height: 720 },
  { name: '1920×1080', width: 1920, height: 1080 },
  { name: '1024×768 (4:3)', width: 1024, height: 768 },
];

const CHOICES = [
  // The case: every chart, three controls.
  { query: 'charts=cwnd,outstanding,throughput,queues&controls=rtt,window,txqueuelen', charts: ['cwnd', 'outstanding', 'throughput', 'queues'], controls: ['rtt', 'window', 'txqueuelen'], slider: 'rtt', playback: false },
  { query: 'charts=cwnd,throughput&controls=rtt,playback', charts: ['cwnd', 'throughput'], controls: ['rtt'], slider: 'rtt', playback: true },
  { query: 'charts=queues,delay&controls=buffer,bottleneck-rate', charts: ['queues', 'delay'], controls: ['buffer', 'bottleneck-rate'], slider: 'buffer', playback: false },
];

for (const size of SIZES) {
  test(`embeds fill a ${size.name} frame: nothing clipped, overlapping or scrolling; sliders, hover, zoom and playback work`, async ({ page }) => {
    const problems = watchConsole(page);
    await page.setViewportSize({ width: size.width, height: size.height });
    const fonts: number[] = [];
    for (const choice of CHOICES) {
      await page.goto(`./?v=2&alg=reno&rtt=30&dur=3&seed=1&embed=1&theme=projector&${choice.query}`);
      expect(await page.evaluate(() => window.sawtooth!.whenDone())).toBe('done');
      await expect(page.locator('html')).toHaveAttribute('data-fit-columns', /\d/);
      const report = await measure(page);
      expectFits(report, choice.charts, choice.controls);
      fonts.push(report.fontPx);

      // A slider still re-runs the simulation.
      const before = await page.evaluate(() => window.sawtooth!.runId());
      const old = await page.evaluate(() => window.sawtooth!.scenario()!);
      await page.locator(`[data-control-id="${choice.slider}"] input[type="range"]`).first().press('ArrowRight');
      expect(await page.evaluate((id) => window.sawtooth!.whenDone(id), before)).toBe('done');
      expect(await page.evaluate(() => window.sawtooth!.scenario()!)).not.toEqual(old);
      expectFits(await measure(page), choice.charts, choice.controls);

      // Hover reads values; dragging across a chart zooms every chart.
      const overlay = page.locator(`[data-testid="chart-${choice.charts[0]}"] rect.overlay`);
      const box = (await overlay.boundingBox())!;
      await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.5);
      await expect(page.getByTestId(`chart-${choice.charts[0]}`)).toHaveAttribute('data-cursor-t', /\d/);
      await page.mouse.move(box.x + box.width * 0.2, box.y + box.height * 0.5);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width * 0.6, box.y + box.height * 0.5, { steps: 4 });
      await page.mouse.up();
      await expect(page.getByTestId('charts')).not.toHaveAttribute('data-x-view', '[0,3]');

      if (choice.playback) {
        // The playback bar (controls=playback) plays the run.
        await expect(page.getByTestId('playback')).toBeVisible();
        await page.getByTestId('play').click();
        await page.waitForFunction(() => Number(document.querySelector('[data-testid="playback"]')!.getAttribute('data-play-t')) > 0);
        await page.getByTestId('play').click();
        await expect(page.getByTestId('playback')).toHaveAttribute('data-status', 'paused');
      } else {
        await expect(page.getByTestId('playback')).toBeHidden();
      }
    }
    // Type follows the frame: never below 11 px, larger in larger frames.
    for (const f of fonts) expect(f).toBeGreaterThanOrEqual(11);
    if (size.width >= 1920) expect(Math.min(...fonts)).toBeGreaterThan(16);
    expect(problems).toEqual([]);
  });
}

test('type grows with the frame', async ({ page }) => {
  const font = async (w: number, h: number) => {
    await page.setViewportSize({ width: w, height: h });
    await page.goto('./?v=2&alg=reno&dur=2&seed=1&embed=1&charts=cwnd,throughput');
    expect(await page.evaluate(() => window.sawtooth!.whenDone())).toBe('done');
    await expect(page.locator('html')).toHaveAttribute('data-fit-columns', /\d/);
    return page.evaluate(() => parseFloat(getComputedStyle(document.querySelector('.axis text')!).fontSize));
  };
  const small = await font(960, 540);
  const large = await font(1920, 1080);
  expect(large).toBeGreaterThan(small * 1.5);
});

test('frame= keeps the shape the embed was made for, scaled up to a larger window and centred', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('./?v=2&alg=reno&dur=2&seed=1&embed=1&charts=cwnd,throughput&frame=960x540');
  expect(await page.evaluate(() => window.sawtooth!.whenDone())).toBe('done');
  await expect(page.locator('html')).toHaveAttribute('data-fit-columns', /\d/);
  const app = (await page.locator('.app').boundingBox())!;
  // 960×540 scaled by 4/3 fills the width; the spare height is split above and below.
  expect([Math.round(app.width), Math.round(app.height)]).toEqual([1280, 720]);
  expect(Math.round(app.x)).toBe(0);
  expect(Math.round(app.y)).toBe(90);
  const r = await measure(page);
  const frame: R = { x: app.x, y: app.y, w: app.width, h: app.height };
  for (const c of r.charts) expect(inside(c.box, frame), `${c.id} inside the frame`).toBe(true);
});

let parent: ParentPage;
test.beforeAll(async () => {
  parent = await startParentPage();
});
test.afterAll(async () => {
  await parent.close();
});

/** What an embed shows: its charts, controls, theme, frame size, playback and scenario. */
async function embedShows(frame: import('@playwright/test').Frame) {
  await frame.waitForFunction(() => window.sawtooth !== undefined);
  expect(await frame.evaluate(() => window.sawtooth!.whenDone())).toBe('done');
  return frame.evaluate(() => ({
    charts: Array.from(document.querySelectorAll('[data-testid="charts"] > figure.chart')).map((f) => f.getAttribute('data-testid')),
    controls: Array.from(document.querySelectorAll('.lab-builder [data-control-id]')).map((c) => c.getAttribute('data-control-id')),
    theme: document.documentElement.getAttribute('data-theme'),
    embed: document.documentElement.getAttribute('data-embed'),
    playbackShown: getComputedStyle(document.querySelector('[data-testid="playback"]')!).display !== 'none',
    speed: document.querySelector('[data-testid="playback"] output')?.textContent ?? null,
    size: [window.innerWidth, window.innerHeight],
    scenario: window.sawtooth!.scenario(),
  }));
}

test('every control at 960×540: the side column scrolls inside the frame, and the document never does', async ({ page }) => {
  const problems = watchConsole(page);
  await page.setViewportSize({ width: 960, height: 540 });
  await page.goto('./?v=2&alg=reno&dur=2&seed=1&embed=1&controls=rtt,bottleneck-rate,buffer,window,txqueuelen,nic-rate,loss,mtu,flows,duration,playback&charts=cwnd,path');
  expect(await page.evaluate(() => window.sawtooth!.whenDone())).toBe('done');
  await expect(page.locator('html')).toHaveAttribute('data-controls-at', 'side');
  const r = await measure(page);
  expect(r.scrollH, 'scroll height').toBeLessThanOrEqual(r.vh);
  expect(r.scrollW, 'scroll width').toBeLessThanOrEqual(r.vw);
  // The last control is reached by scrolling the column, and then lies inside the frame.
  const column = page.locator('.lab-builder');
  const last = page.locator('[data-control-id="duration"]');
  await last.scrollIntoViewIfNeeded();
  const c = (await column.boundingBox())!;
  const k = (await last.boundingBox())!;
  expect(k.y).toBeGreaterThanOrEqual(c.y - 0.5);
  expect(k.y + k.height).toBeLessThanOrEqual(Math.min(c.y + c.height, 540) + 0.5);
  expect(await page.evaluate(() => (document.scrollingElement ?? document.documentElement).scrollTop)).toBe(0);
  expect(problems).toEqual([]);
});

test('the embed builder’s code, pasted into a page, embeds what its preview showed', async ({ page }) => {
  const problems = watchConsole(page);
  // The host page too stays quiet: no warning about the frame's own attributes.
  const frameWarnings: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'warning' && /allow/i.test(m.text())) frameWarnings.push(m.text());
  });
  await page.setViewportSize({ width: 1400, height: 1000 });
  await page.goto('./?v=2&alg=cubic&rtt=40&dur=2&seed=4');
  expect(await page.evaluate(() => window.sawtooth!.whenDone())).toBe('done');
  // Keyboard: the builder opens from its summary and every option is a form control.
  await page.getByTestId('embed-builder').locator('summary').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('embed-builder')).toHaveAttribute('open', '');
  await page.getByTestId('eb-chart-cwnd').uncheck();
  await page.getByTestId('eb-chart-outstanding').uncheck();
  await page.getByTestId('eb-chart-queues').check();
  await page.getByTestId('eb-chart-throughput').check();
  await page.getByTestId('eb-control-buffer').check();
  await page.getByTestId('eb-control-playback').check();
  await page.getByTestId('eb-theme-dark').check();
  await page.getByTestId('eb-autoplay').check();
  await page.getByTestId('eb-speed').selectOption('5');
  // A width typed key by key is taken as typed, not clamped at its first digit;
  // one out of range is named with its range, and leaving the box takes the nearest.
  const width = page.getByTestId('eb-width');
  await width.fill('');
  await width.pressSequentially('800');
  await expect(page.getByTestId('eb-width-range')).toHaveCount(0);
  await expect(page.getByTestId('embed-code')).toHaveValue(/ width="800" /);
  await width.pressSequentially('0');
  await expect(page.getByTestId('eb-width-range')).toHaveText(/Width must be a whole number of pixels from 320 to 3840/);
  await expect(page.getByTestId('embed-code')).toHaveValue(/ width="800" /);
  await width.press('Enter');
  await expect(width).toHaveValue('3840');
  await expect(page.getByTestId('embed-code')).toHaveValue(/ width="3840" /);
  await page.getByTestId('eb-preset').selectOption({ label: '1280 × 720' });

  const code = await page.getByTestId('embed-code').inputValue();
  const link = await page.getByTestId('embed-link').inputValue();
  expect(code).toMatch(/^<iframe src="[^"]+" width="1280" height="720" title="[^"]+"/);
  // The preview is a real iframe of exactly that link.
  const preview = page.getByTestId('embed-preview');
  await expect(preview).toHaveAttribute('src', link);
  const previewFrame = (await (await preview.elementHandle())!.contentFrame())!;
  const shown = await embedShows(previewFrame);
  expect(shown).toMatchObject({
    charts: ['chart-throughput', 'chart-queues'],
    controls: ['rtt', 'buffer'],
    theme: 'dark',
    embed: '1',
    playbackShown: true,
    speed: '5×',
    size: [1280, 720],
  });
  expect(shown.scenario).toEqual(await page.evaluate(() => window.sawtooth!.scenario()));

  // Pasted into another site's page, the snippet embeds the same.
  await page.goto(parent.set(`<!doctype html><html lang="en"><head><title>Slides</title></head><body style="margin:0">${code}</body></html>`));
  const pasted = (await (await page.locator('iframe').elementHandle())!.contentFrame())!;
  expect(await embedShows(pasted)).toEqual(shown);

  // Responsive: the frame keeps its shape at the page's width.
  await page.goto('./?v=2&alg=cubic&rtt=40&dur=2&seed=4');
  expect(await page.evaluate(() => window.sawtooth!.whenDone())).toBe('done');
  await page.getByTestId('copy-embed').click();
  await page.getByTestId('eb-size-responsive').check();
  await page.getByTestId('eb-aspect').selectOption('4:3');
  const responsive = await page.getByTestId('embed-code').inputValue();
  expect(responsive).toContain('aspect-ratio:4/3');
  await page.goto(parent.set(`<!doctype html><html lang="en"><head><title>Slides</title></head><body style="margin:0"><div style="width:800px">${responsive}</div></body></html>`));
  const box = (await page.locator('iframe').boundingBox())!;
  expect(Math.round(box.width)).toBe(800);
  expect(Math.round(box.height)).toBe(600);
  const frame = (await (await page.locator('iframe').elementHandle())!.contentFrame())!;
  expect((await embedShows(frame)).size).toEqual([800, 600]);
  expect(problems).toEqual([]);
  expect(frameWarnings).toEqual([]);
});
