import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';

// Accessibility and resilience (issue 6): axe-core finds no serious or
// critical violation on the lab page or in embed mode (light, dark, reduced
// motion); every control is reachable and operable by keyboard with a
// visible focus and a label; each chart has a text summary and a data table;
// a crashed worker is reported, the last result kept, and the engine restarted.

async function done(page: Page): Promise<string> {
  return page.evaluate(() => window.sawtooth!.whenDone());
}

async function axe(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}

for (const scheme of ['light', 'dark'] as const) {
  test(`axe: no serious or critical violations on the lab page (${scheme})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
    await page.goto('./?seed=1&dur=3');
    expect(await done(page)).toBe('done');
    // With the data tables open too.
    for (const d of await page.locator('details.chart-table').all()) await d.locator('summary').click();
    expect(await axe(page)).toEqual([]);
  });

  test(`axe: no serious or critical violations in embed mode (${scheme})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize({ width: 800, height: 500 });
    await page.goto('./?seed=1&dur=3&embed=1&charts=cwnd,throughput&controls=rtt,window&profile=projector');
    expect(await done(page)).toBe('done');
    expect(await axe(page)).toEqual([]);
  });
}

test('a notice and the share panel pass axe too', async ({ page }) => {
  await page.goto('./?seed=1&dur=2&rtt=fast');
  expect(await done(page)).toBe('done');
  await expect(page.getByTestId('url-notice')).toBeVisible();
  await page.getByTestId('copy-link').click();
  await page.getByTestId('copy-embed').click();
  expect(await axe(page)).toEqual([]);
});

interface Focused {
  tag: string;
  type: string | null;
  name: string;
  outline: string;
  boxShadow: string;
  testId: string | null;
  controlId: string | null;
}

test('keyboard only: every control from the first to the last is reachable, labelled and shows focus', async ({ page }) => {
  await page.goto('./?seed=1&dur=2');
  expect(await done(page)).toBe('done');

  await page.locator('body').focus();
  const seen: Focused[] = [];
  for (let i = 0; i < 600; i++) {
    await page.keyboard.press('Tab');
    const f = await page.evaluate((): Focused | 'again' | null => {
      const el = document.activeElement as HTMLElement | null;
      if (!el || el === document.body) return null;
      if (el.dataset.kbSeen) return 'again';
      el.dataset.kbSeen = '1';
      const cs = getComputedStyle(el);
      // For hidden inputs styled through their label (segmented toggles), the label shows the focus.
      const ring = cs.opacity === '0' && el.closest('label') ? getComputedStyle(el.closest('label')!) : cs;
      const byId = el.getAttribute('aria-labelledby')?.split(' ').map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
      const label = el.getAttribute('aria-label') ?? byId ?? ((el as HTMLInputElement).labels?.[0]?.textContent || null) ?? el.getAttribute('title') ?? el.textContent ?? '';
      return {
        tag: el.tagName.toLowerCase(),
        type: el.getAttribute('type'),
        name: label.trim(),
        outline: `${ring.outlineStyle} ${ring.outlineWidth}`,
        boxShadow: ring.boxShadow,
        testId: el.getAttribute('data-testid'),
        controlId: el.closest('[data-control-id]')?.getAttribute('data-control-id') ?? null,
      };
    });
    if (f === null || f === 'again') break; // went round once
    seen.push(f);
  }
  expect(seen.length).toBeGreaterThan(20);

  // Every enabled, visible control was reached (radio groups: one stop per group).
  const missed = await page.evaluate(() => {
    const cands = Array.from(document.querySelectorAll<HTMLElement>('button, input, select, textarea, summary, a[href], [tabindex]'));
    const seenRadio = new Set(cands.filter((e) => e instanceof HTMLInputElement && e.type === 'radio' && e.dataset.kbSeen).map((e) => (e as HTMLInputElement).name));
    return cands
      .filter((e) => {
        if ((e as HTMLButtonElement).disabled || e.tabIndex < 0 || e.closest('[inert]')) return false;
        const r = e.getBoundingClientRect();
        const visible = r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== 'hidden';
        if (!visible && !(e instanceof HTMLInputElement && e.type === 'radio')) return false;
        if (e.closest('details:not([open])') && e.tagName !== 'SUMMARY') return false;
        if (e instanceof HTMLInputElement && e.type === 'radio' && seenRadio.has(e.name)) return false;
        return !e.dataset.kbSeen;
      })
      .map((e) => e.outerHTML.slice(0, 120));
  });
  expect(missed).toEqual([]);

  for (const f of seen) {
    expect(f.name, `${f.tag} ${f.testId ?? ''} has a label`).not.toBe('');
    const visible = !f.outline.startsWith('none') || f.boxShadow !== 'none';
    expect(visible, `${f.tag} ${f.name} shows focus (${f.outline})`).toBe(true);
  }
  // From the first control (the topology picker) to the last (the share panel).
  expect(seen.find((f) => f.controlId)?.controlId).toBe('topology');
  expect(seen.some((f) => f.testId === 'copy-link')).toBe(true);
  expect(seen.some((f) => f.testId === 'upload-scenario')).toBe(true);
});

test('keyboard only: the first Tab offers a skip link to the charts', async ({ page }) => {
  await page.goto('./?seed=1&dur=2');
  expect(await done(page)).toBe('done');
  await page.locator('body').focus();
  await page.keyboard.press('Tab');
  const skip = page.getByTestId('skip-to-charts');
  await expect(skip).toBeFocused();
  await expect(skip).toHaveText('Skip to the charts');
  expect((await skip.boundingBox())!.x).toBeGreaterThanOrEqual(0); // shown while focused
  await page.keyboard.press('Enter');
  expect(await page.evaluate(() => document.activeElement?.id)).toBe('lab-charts');
  // The next stop is inside the charts, not the first control.
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => !!document.activeElement?.closest('[data-testid="charts"]'))).toBe(true);
});

test('keyboard only: a slider and a button are operable', async ({ page }) => {
  await page.goto('./?seed=1&dur=2');
  expect(await done(page)).toBe('done');
  const before = await page.evaluate(() => window.sawtooth!.scenario()!.rtt_ms);
  // Reach the RTT slider with Tab, then move it with the arrow keys.
  await page.locator('body').focus();
  let onSlider = false;
  for (let i = 0; i < 100 && !onSlider; i++) {
    await page.keyboard.press('Tab');
    onSlider = await page.evaluate(() => {
      const el = document.activeElement as HTMLInputElement | null;
      return !!el && el.type === 'range' && !!el.closest('[data-control-id="rtt"]');
    });
  }
  expect(onSlider).toBe(true);
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(
    (b) => window.sawtooth!.scenario()!.rtt_ms > b && document.documentElement.dataset.runState === 'done',
    before,
  );
  // Reach "Copy link" and press Enter.
  let onCopy = false;
  for (let i = 0; i < 200 && !onCopy; i++) {
    await page.keyboard.press('Tab');
    onCopy = await page.evaluate(() => document.activeElement?.getAttribute('data-testid') === 'copy-link');
  }
  expect(onCopy).toBe(true);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('share-link')).toHaveValue(/rtt=/);
});

test("keyboard only: a guided lab's Run keeps the focus on a button that acts when it becomes disabled", async ({ page }) => {
  await page.goto('./?lab=dctcp-threshold');
  const lab = page.getByTestId('guided-lab');
  await expect(lab).toHaveAttribute('data-lab-state', 'idle');
  await page.getByTestId('lab-run').focus();
  await page.keyboard.press('Enter');
  await expect(lab).toHaveAttribute('data-lab-state', 'done', { timeout: 60_000 });
  // Every run is done, so Run is disabled: the focus is on Clear results, not lost to the page.
  await expect(page.getByTestId('lab-run')).toBeDisabled();
  await expect(page.getByTestId('lab-clear')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(lab).toHaveAttribute('data-lab-state', 'idle');
});

test('each chart has a text summary and a data-table alternative', async ({ page }) => {
  await page.goto('./?seed=1&dur=2');
  expect(await done(page)).toBe('done');
  const charts = page.locator('[data-testid^="chart-"][data-series-ids]');
  const n = await charts.count();
  expect(n).toBeGreaterThanOrEqual(2);
  for (let i = 0; i < n; i++) {
    const chart = charts.nth(i);
    const summary = chart.locator('[data-chart-summary]');
    await expect(summary).toHaveCount(1);
    expect((await summary.textContent())!.length).toBeGreaterThan(30);
    const details = chart.locator('details.chart-table');
    await details.locator('summary').click();
    const table = details.locator('table');
    await expect(table).toBeVisible();
    expect(await table.locator('tbody tr').count()).toBeGreaterThan(10);
    expect(await table.locator('thead th').count()).toBeGreaterThanOrEqual(2);
  }
  // The throughput chart's values are a trailing average (its data-average-ms): its text says so.
  const averageMs = Number(await page.getByTestId('chart-throughput').getAttribute('data-average-ms'));
  expect(averageMs).toBeGreaterThan(0);
  await expect(page.getByTestId('chart-throughput').locator('[data-chart-summary]')).toContainText(`(${averageMs} ms trailing average)`);
  // The cwnd table shows the page's numbers.
  const first = await page.evaluate(() => window.sawtooth!.series()!.flows[0].cwnd_pkts[0]);
  const cell = await page.getByTestId('chart-cwnd').locator('details.chart-table tbody tr').first().locator('td').first().textContent();
  expect(Number(cell)).toBeCloseTo(first, 3);
  // The smoothed RTT is no measurement before the flow's first RTT sample (the column holds 0 there):
  // the delay table and summary leave it out instead of reading 0 ms.
  const srtt = await page.evaluate(() => Array.from(window.sawtooth!.series()!.flows[0].srtt_ms));
  expect(srtt[0]).toBe(0);
  const measured = srtt.filter((v) => v > 0);
  const delayRow = page.getByTestId('chart-delay').locator('details.chart-table tbody tr').first().locator('td').first();
  await expect(delayRow).toHaveText('—');
  await expect(page.getByTestId('chart-delay').locator('[data-chart-summary]')).toContainText(`flow 0 smoothed RTT (ms) between ${Number(Math.min(...measured).toPrecision(4))}`);
});

test('a worker that crashes on the first run is reported and the engine restarted', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('./?seed=1&dur=2&debug=crash');
  // The first run crashes the worker (debug=crash): reported, not a blank page.
  expect(await done(page)).toBe('error');
  expect(await page.evaluate(() => window.sawtooth!.error()?.kind)).toBe('trap');
  await expect(page.getByTestId('run-error')).toContainText(/restarted/i);

  // A new run works in a fresh worker.
  const rtt = page.locator('[data-control-id="rtt"]').getByRole('textbox').first();
  await rtt.fill('45');
  await rtt.press('Enter');
  await page.waitForFunction(() => window.sawtooth!.scenario()?.rtt_ms === 45 && document.documentElement.dataset.runState === 'done');
  expect(await page.evaluate(() => window.sawtooth!.summary()!.total_throughput_bps)).toBeGreaterThan(0);
  await expect(page.getByTestId('run-error')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('a worker killed mid-run: the page says so, keeps the last result and restarts the engine', async ({ page }) => {
  await page.goto('./?seed=1&dur=2');
  expect(await done(page)).toBe('done');
  const last = await page.evaluate(() => ({ summary: window.sawtooth!.summary(), scenario: window.sawtooth!.scenario(), n: window.sawtooth!.series()!.length }));
  const counts = JSON.parse((await page.getByTestId('chart-cwnd').getAttribute('data-point-counts'))!);
  expect(counts['f0.cwnd_pkts']).toBe(last.n);

  // A long run, then the engine worker dies while it is running.
  const dur = page.locator('[data-control-id="duration"]').getByRole('textbox').first();
  await dur.fill('600');
  await dur.press('Enter');
  // On a loaded machine the measured engine speed can put this run past the
  // run gate, which then asks first: confirm it, as a user would.
  const gate = page.getByRole('button', { name: /^Run it/ });
  await page.waitForFunction(() => document.documentElement.dataset.runState === 'running' || document.querySelector('[data-testid="run-gate-memory"]') !== null);
  if (await gate.isVisible()) await gate.click();
  await page.waitForFunction(() => document.documentElement.dataset.runState === 'running' && (window.sawtooth!.series()?.length ?? 0) > 0);
  const workers = page.workers();
  expect(workers.length).toBeGreaterThan(0);
  await workers[workers.length - 1].evaluate(() => {
    setTimeout(() => {
      throw new Error('forced crash from the test');
    }, 0);
  });

  // Reported, with the last result still on screen.
  await expect(page.locator('html')).toHaveAttribute('data-run-state', 'error');
  expect(await page.evaluate(() => window.sawtooth!.error()?.kind)).toBe('trap');
  await expect(page.getByTestId('run-error')).toContainText(/stopped unexpectedly/);
  await expect(page.getByTestId('run-error')).toContainText(/restarted/i);
  expect(await page.evaluate(() => window.sawtooth!.summary())).toEqual(last.summary);
  expect(await page.evaluate(() => window.sawtooth!.series()!.length)).toBe(last.n);
  const after = JSON.parse((await page.getByTestId('chart-cwnd').getAttribute('data-point-counts'))!);
  expect(after['f0.cwnd_pkts']).toBe(last.n);

  // The engine is restarted: the next run completes.
  await dur.fill('3');
  await dur.press('Enter');
  await page.waitForFunction(() => window.sawtooth!.scenario()?.duration_ms === 3000 && document.documentElement.dataset.runState === 'done');
  expect(await page.evaluate(() => window.sawtooth!.summary()!.total_throughput_bps)).toBeGreaterThan(0);
  await expect(page.getByTestId('run-error')).toHaveCount(0);
});
