import { expect, test, type Locator, type Page } from '@playwright/test';
import { watchConsole } from './support/console';

// Polish that works (issue 16), at 1280×720 and 1440×900: every "?" tip opens
// by click, keyboard focus and hover, lies inside the viewport and is not
// covered or clipped, and closes on Escape and on an outside click; the page
// never scrolls sideways; the limit-line labels of two flows do not overlap;
// the formulas are typeset without scrolling to them and fit their boxes.
// Tests wait on the page's ready markers (whenDone, data-run-state,
// data-render, the formulas' .katex, the tips' data-open-by), never on sleeps.

const VIEWPORTS = [
  { width: 1280, height: 720 },
  { width: 1440, height: 900 },
];

/** Two flows on two hosts sharing a 100 Mb/s bottleneck, windows of `win` (TEST-SURFACE §1). */
const twoFlows = (win: string) => `?v=2&hosts=1,1&alg=reno,cubic&rtt=40&rate=100M&buf=300&txq=100&win=${win}&mtu=1500&dur=5&seed=7`;


async function open(page: Page, query: string): Promise<void> {
  await page.goto(`./${query}`);
  expect(await page.evaluate(() => window.sawtooth!.whenDone())).toBe('done');
  await expect(page.locator('html')).toHaveAttribute('data-run-state', 'done');
  // Lines become SVG paths once the finished run has painted (deferred).
  await expect(page.locator('figure.chart[data-render="canvas"]')).toHaveCount(0);
}

async function noSideScroll(page: Page): Promise<void> {
  const m = await page.evaluate(() => ({ sw: document.documentElement.scrollWidth, cw: document.documentElement.clientWidth }));
  expect(m.sw, `page scrolls sideways: scrollWidth ${m.sw} > clientWidth ${m.cw}`).toBeLessThanOrEqual(m.cw);
}

/** The tip a "?" button describes (aria-describedby → role=tooltip). */
async function tipOf(page: Page, button: Locator): Promise<Locator> {
  const id = await button.getAttribute('aria-describedby');
  expect(id, 'the tip button names its tip').toBeTruthy();
  const tip = page.locator(`[id="${id}"]`);
  await expect(tip).toHaveAttribute('role', 'tooltip');
  return tip;
}

/** Somewhere to put the pointer that is on no control and no tip: the page's left padding. */
const restPoint = (page: Page) => ({ x: 3, y: Math.floor(page.viewportSize()!.height / 2) });

async function expectClosed(button: Locator, tip: Locator): Promise<void> {
  await expect(tip).toBeHidden();
  await expect(button).toHaveAttribute('aria-expanded', 'false');
}

/** The tip is open, fully inside the viewport, on top at its centre and inner corners, and no overflow box clips it. */
async function expectOnScreen(button: Locator, tip: Locator, what: string): Promise<void> {
  await expect(tip, `${what}: the tip opens`).toBeVisible();
  await expect(button).toHaveAttribute('aria-expanded', 'true');
  const r = await tip.evaluate((el) => {
    const rect = el.getBoundingClientRect();
    const vw = document.documentElement.clientWidth;
    const vh = document.documentElement.clientHeight;
    const inset = 9; // past the rounded corners
    const points: [string, number, number][] = [
      ['centre', rect.left + rect.width / 2, rect.top + rect.height / 2],
      ['top left', rect.left + inset, rect.top + inset],
      ['top right', rect.right - inset, rect.top + inset],
      ['bottom left', rect.left + inset, rect.bottom - inset],
      ['bottom right', rect.right - inset, rect.bottom - inset],
    ];
    const covered = points
      .filter(([, x, y]) => {
        const hit = document.elementFromPoint(x, y);
        return !hit || !el.contains(hit);
      })
      .map(([name, x, y]) => `${name} (${Math.round(x)},${Math.round(y)}) shows ${document.elementFromPoint(x, y)?.outerHTML.slice(0, 60) ?? 'nothing'}`);
    const clippedBy: string[] = [];
    for (let a = el.parentElement; a && a !== document.body && a !== document.documentElement; a = a.parentElement) {
      const cs = getComputedStyle(a);
      if (cs.overflowX === 'visible' && cs.overflowY === 'visible') continue;
      const ar = a.getBoundingClientRect();
      if (rect.left < ar.left - 0.5 || rect.top < ar.top - 0.5 || rect.right > ar.right + 0.5 || rect.bottom > ar.bottom + 0.5) clippedBy.push(`${a.tagName}.${a.className}`);
    }
    return { left: rect.left, top: rect.top, right: rect.right, bottom: rect.bottom, width: rect.width, vw, vh, covered, clippedBy };
  });
  expect(r.width, `${what}: the tip has a size`).toBeGreaterThan(40);
  expect(r.left, `${what}: left edge inside the viewport`).toBeGreaterThanOrEqual(0);
  expect(r.top, `${what}: top edge inside the viewport`).toBeGreaterThanOrEqual(0);
  expect(r.right, `${what}: right edge inside the viewport`).toBeLessThanOrEqual(r.vw);
  expect(r.bottom, `${what}: bottom edge inside the viewport`).toBeLessThanOrEqual(r.vh);
  expect(r.covered, `${what}: nothing covers the tip`).toEqual([]);
  expect(r.clippedBy, `${what}: no overflow box clips the tip`).toEqual([]);
}

for (const viewport of VIEWPORTS) {
  test.describe(`${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport });

    test('every “?” tip opens by click, keyboard and hover, on screen, and closes on Escape and outside clicks', async ({ page }) => {
      const problems = watchConsole(page);
      await open(page, '?seed=1');
      const buttons = page.getByRole('button', { name: /^(What is .+\?|How to read the charts)$/ });
      const shown: { index: number; name: string }[] = [];
      const count = await buttons.count();
      for (let i = 0; i < count; i++) if (await buttons.nth(i).isVisible()) shown.push({ index: i, name: (await buttons.nth(i).getAttribute('aria-label'))! });
      const names = shown.map((s) => s.name);
      // The tips the student found clipped are among them: the sidebar's and the chart toolbar's.
      for (const n of ['What is RTT?', 'What is txqueuelen?', 'What is window?', 'What is BDP?', 'How to read the charts']) expect(names).toContain(n);
      expect(names.length).toBeGreaterThanOrEqual(8);

      for (const { index, name } of shown) {
        const button = buttons.nth(index);
        const tip = await tipOf(page, button);
        await expectClosed(button, tip);

        await test.step(`${name}: click`, async () => {
          await button.click();
          await expectOnScreen(button, tip, `${name} (click)`);
          // A click pins it: it stays open once the pointer has left.
          await page.mouse.move(restPoint(page).x, restPoint(page).y);
          await expect(tip).not.toHaveAttribute('data-open-by', /hover/);
          await expect(tip).toBeVisible();
          await expectOnScreen(button, tip, `${name} (click, pointer gone)`);
          await page.keyboard.press('Escape');
          await expectClosed(button, tip);
          await expect(button, 'Escape returns focus to the button').toBeFocused();
        });

        await test.step(`${name}: keyboard`, async () => {
          await page.locator('body').evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
          await button.focus();
          await expectOnScreen(button, tip, `${name} (focus)`);
          await page.keyboard.press('Escape');
          await expectClosed(button, tip);
          await expect(button).toBeFocused();
          await page.keyboard.press('Enter');
          await expectOnScreen(button, tip, `${name} (Enter)`);
          await page.keyboard.press('Enter');
          await expectClosed(button, tip);
          // Tab away closes it; Tab back opens it.
          await page.keyboard.press('Shift+Tab');
          await expect(button).not.toBeFocused();
          await page.keyboard.press('Tab');
          await expect(button).toBeFocused();
          await expectOnScreen(button, tip, `${name} (Tab)`);
          await page.keyboard.press('Escape');
          await expectClosed(button, tip);
          await page.locator('body').evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
        });

        await test.step(`${name}: hover`, async () => {
          await page.mouse.move(restPoint(page).x, restPoint(page).y);
          await button.hover();
          await expect(tip).toHaveAttribute('data-open-by', /hover/);
          await expectOnScreen(button, tip, `${name} (hover)`);
          // A click on a tip opened by hover keeps it open (pinned) …
          await button.click();
          await expectOnScreen(button, tip, `${name} (hover, then click)`);
          await page.mouse.move(restPoint(page).x, restPoint(page).y);
          await expect(tip).not.toHaveAttribute('data-open-by', /hover/);
          await expect(tip).toBeVisible();
          // … until a click outside it.
          await page.mouse.click(restPoint(page).x, restPoint(page).y);
          await expectClosed(button, tip);
          // Hover again; Escape closes it.
          await button.hover();
          await expectOnScreen(button, tip, `${name} (hover again)`);
          await page.keyboard.press('Escape');
          await expectClosed(button, tip);
          await page.mouse.move(restPoint(page).x, restPoint(page).y);
        });
      }
      await noSideScroll(page);
      expect(problems).toEqual([]);
    });

    test('no horizontal scroll, one flow and two', async ({ page }) => {
      const problems = watchConsole(page);
      for (const q of ['?seed=1', twoFlows('16M'), '?v=2&hosts=2,1&alg=reno,bbr,cubic&rate=100M&dur=3&seed=2']) {
        await open(page, q);
        await expect(page.getByTestId('summary-table')).toBeVisible();
        await noSideScroll(page);
        // The per-flow table's last column is inside the page (or inside the table's own scroll box).
        const t = await page.getByTestId('summary-table').evaluate((table) => {
          const last = table.querySelector('thead th:last-child')!.getBoundingClientRect();
          let box: Element | null = table.parentElement;
          while (box && getComputedStyle(box).overflowX === 'visible') box = box.parentElement;
          return { right: last.right, vw: document.documentElement.clientWidth, scrollBox: !!box && box !== document.documentElement && box !== document.body };
        });
        expect(t.right <= t.vw || t.scrollBox, `last column at ${t.right} of ${t.vw}`).toBe(true);
      }
      expect(problems).toEqual([]);
    });

    test('two flows: the limit-line labels do not overlap', async ({ page }) => {
      const problems = watchConsole(page);
      // Windows on the axis (1 MB, both at one height) and above it (64 MB, both at the top edge).
      for (const win of ['1M', '64M']) {
        await open(page, twoFlows(win));
        const outstanding = page.getByTestId('chart-outstanding');
        // Both flows' advertised windows are labelled.
        await expect(outstanding.locator('svg.chart-svg .limits text').filter({ hasText: /^flow 0 advertised window/ })).toHaveCount(1);
        await expect(outstanding.locator('svg.chart-svg .limits text').filter({ hasText: /^flow 1 advertised window/ })).toHaveCount(1);
        for (const id of ['cwnd', 'outstanding', 'throughput', 'queues']) {
          const boxes = await page.getByTestId(`chart-${id}`).evaluate((fig) =>
            Array.from(fig.querySelectorAll('svg.chart-svg .limits text')).map((t) => {
              const r = t.getBoundingClientRect();
              return { id: t.getAttribute('data-label-for') ?? t.getAttribute('data-series') ?? '', text: t.textContent ?? '', left: r.left, top: r.top, right: r.right, bottom: r.bottom };
            }),
          );
          for (const b of boxes) expect(b.bottom - b.top, `${b.id} label is drawn`).toBeGreaterThan(4);
          for (let i = 0; i < boxes.length; i++)
            for (let j = i + 1; j < boxes.length; j++) {
              const a = boxes[i];
              const b = boxes[j];
              const overlap = a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
              expect(overlap, `${id} (win=${win}): “${a.text}” overlaps “${b.text}”`).toBe(false);
            }
        }
      }
      expect(problems).toEqual([]);
    });

    test('formulas are typeset without scrolling to them and fit their boxes', async ({ page }) => {
      const problems = watchConsole(page);
      // BBR's rules are the longest; FAST's has a piece that cannot break.
      for (const alg of ['reno', 'bbr', 'fast', 'cubic', 'highspeed']) {
        await open(page, `?v=2&alg=${alg}&dur=2&seed=1`);
        await expect(page.getByTestId('explainer')).toHaveAttribute('data-algorithm', alg);
        const formulas = page.locator('[data-testid^="formula-"]');
        await expect(formulas).toHaveCount(2);
        // Typeset without the explainer ever coming into view (it is below the fold).
        for (const f of await formulas.all()) await expect(f.locator('.katex'), 'typeset (KaTeX)').toHaveCount(1);
        const r = await page.evaluate(() => {
          const explainer = document.querySelector('[data-testid="explainer"]')!.getBoundingClientRect();
          const out = Array.from(document.querySelectorAll<HTMLElement>('[data-testid^="formula-"]')).map((f) => {
            const visible = f.cloneNode(true) as HTMLElement;
            visible.querySelectorAll('.katex-mathml').forEach((m) => m.remove());
            const host = f.querySelector<HTMLElement>('.katex-host');
            const html = f.querySelector('.katex .katex-html');
            /** Boxes that overflow sideways and do not scroll. */
            const spill = [f, host].filter((b): b is HTMLElement => !!b && b.scrollWidth > b.clientWidth + 1 && !/auto|scroll/.test(getComputedStyle(b).overflowX));
            return {
              id: f.dataset.testid,
              katex: !!f.querySelector('.katex') && !!html,
              raw: f.querySelectorAll('code').length,
              text: (visible.textContent ?? '').trim(),
              spill: spill.map((b) => `${b.className} ${b.scrollWidth}>${b.clientWidth}`),
              hostOverflow: host ? host.scrollWidth - host.clientWidth : NaN,
              boxOverflow: f.scrollWidth - f.clientWidth,
            };
          });
          return { scrollY: window.scrollY, explainerTop: explainer.top, vh: window.innerHeight, formulas: out };
        });
        expect(r.scrollY, 'the page was not scrolled').toBe(0);
        expect(r.explainerTop, 'the explainer is below the fold').toBeGreaterThan(r.vh);
        for (const f of r.formulas) {
          expect(f.katex, `${alg} ${f.id} is typeset`).toBe(true);
          expect(f.raw, `${alg} ${f.id} shows no raw LaTeX`).toBe(0);
          expect(f.text, `${alg} ${f.id} shows no raw LaTeX`).not.toMatch(/\\[a-zA-Z]+/);
          expect(f.spill, `${alg} ${f.id} overflows a box that does not scroll`).toEqual([]);
          // At these widths every formula fits (it wraps, or is scaled down a little): nothing to scroll.
          expect(f.hostOverflow, `${alg} ${f.id} fits its box`).toBeLessThanOrEqual(1);
          expect(f.boxOverflow, `${alg} ${f.id} fits its box`).toBeLessThanOrEqual(1);
        }
        await noSideScroll(page);
      }
      expect(problems).toEqual([]);
    });
  });
}
