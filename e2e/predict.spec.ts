import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { watchConsole } from './support/console';

// Predict, then run (issue 24): a guided lab asks its question before the
// first run (a choice made from the lab's own series, an optional sketch on
// the first result chart's empty axes), keeps the committed prediction in
// the page's link (pred=), and once the quick sweep is in shows the verdict
// computed from what the chart draws, the sketch dashed beside the results
// and one sentence on the difference; the link reopens the same
// prediction, presentation mode's prediction screen shows it, a malformed
// pred= is ignored with the usual notice. The lab page's Start-here path
// asks its own question before its one thing to try. Everything by keyboard.

// Lab 14: two series, a quick sweep of eight short runs; its question is
// which series keeps the longer bottleneck queue at K = 65.
const LAB = 'dctcp-threshold';
const CHART = 'lab-chart-mean_queue_pkts';
const LEVEL = 0.01;

const lab = (page: Page) => page.getByTestId('guided-lab');

async function axe(page: Page, include: string): Promise<string[]> {
  const results = await new AxeBuilder({ page }).include(include).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations.map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}

async function sketchValues(page: Page): Promise<number[]> {
  return JSON.parse((await page.getByTestId(CHART).getByTestId('prediction-sketch').getAttribute('data-sketch-values'))!) as number[];
}

test('predict by keyboard, run, see the verdict and the dashed sketch; the link brings the same prediction back', async ({ page }) => {
  const problems = watchConsole(page);
  await page.goto(`./?lab=${LAB}`);
  await expect(lab(page)).toHaveAttribute('data-lab-state', 'idle');
  const panel = page.getByTestId('prediction-panel');
  await expect(panel).toHaveAttribute('data-state', 'open');
  // The question is made from the lab's own definition: its two series are the choices.
  await expect(page.getByTestId('prediction-choices')).toContainText('At 65 packets, which will have the highest mean bottleneck queue?');
  await expect(page.getByTestId('prediction-choices').getByRole('radio')).toHaveCount(2);
  await expect(page.getByTestId('lab-run')).toHaveText('Run without predicting');
  await expect(page.getByTestId('prediction-commit')).toBeDisabled();

  // A choice by keyboard: focus the first answer, Space picks it, → moves to the second.
  await page.getByTestId('prediction-choice-dctcp').focus();
  await page.keyboard.press('Space');
  await expect(page.getByTestId('prediction-choice-dctcp')).toBeChecked();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('prediction-choice-reno-drop-tail')).toBeChecked();
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByTestId('prediction-choice-dctcp')).toBeChecked();

  // A sketch of the DCTCP line by keyboard: Enter on "Draw it" puts points on the empty axes and focuses the first.
  await page.getByTestId('prediction-sketch-line').selectOption('dctcp');
  await page.getByTestId('prediction-sketch-start').focus();
  await page.keyboard.press('Enter');
  const sketch = page.getByTestId(CHART).getByTestId('prediction-sketch');
  await expect(sketch).toHaveAttribute('data-editable', 'true');
  await expect(page.getByTestId(CHART)).toHaveAttribute('data-point-count', '0');
  const first = sketch.getByRole('slider').first();
  await expect(first).toBeFocused();
  const start = await sketchValues(page);
  expect(start).toHaveLength(4);
  expect(new Set(start).size).toBe(1);
  // ↓ lowers the selected point, → selects the next one, Page Down lowers it by five steps.
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowRight');
  await expect(sketch.getByRole('slider').nth(1)).toBeFocused();
  await page.keyboard.press('PageDown');
  await page.keyboard.press('End');
  await page.keyboard.press('ArrowUp');
  const drawn = await sketchValues(page);
  expect(drawn[0]).toBeLessThan(start[0]);
  expect(drawn[1]).toBeLessThan(drawn[0]);
  expect(drawn[2]).toBe(start[2]);
  expect(drawn[3]).toBeGreaterThan(start[3]);
  await expect(first).toHaveAttribute('aria-valuenow', String(drawn[0]));

  // Commit by keyboard: the prediction goes into the address, and Run no longer says it skips.
  await page.getByTestId('prediction-commit').focus();
  await page.keyboard.press('Enter');
  await expect(panel).toHaveAttribute('data-state', 'committed');
  await expect(panel).toHaveAttribute('data-choice', 'dctcp');
  await expect(page.getByTestId('prediction-committed')).toContainText('DCTCP, step marking at K');
  await expect(page).toHaveURL(/[?&]pred=dctcp~dctcp:[\d.,]+$/);
  await expect(page.getByTestId('lab-run')).toHaveText('Run the sweep');
  await expect(sketch).toHaveAttribute('data-editable', 'false');

  // Run the quick sweep.
  await page.getByTestId('lab-run').click();
  await expect(lab(page)).toHaveAttribute('data-lab-state', 'done', { timeout: 60_000 });

  // The verdict, against what the chart draws at the last swept value (the marks' data-y: the engine's seed means).
  const marks = await page
    .getByTestId(CHART)
    .locator('a.mark')
    .evaluateAll((els) => els.map((el) => ({ line: el.getAttribute('data-line')!, x: JSON.parse(el.getAttribute('data-x')!), y: Number(el.getAttribute('data-y')) })));
  const atLast = marks.filter((m) => m.x === 65);
  expect(atLast.map((m) => m.line).sort()).toEqual(['dctcp', 'reno-drop-tail']);
  const top = Math.max(...atLast.map((m) => m.y));
  const leaders = atLast.filter((m) => m.y >= top - LEVEL * top).map((m) => m.line);
  const verdict = page.getByTestId('prediction-verdict');
  await expect(verdict).toHaveAttribute('data-verdict', leaders.includes('dctcp') ? 'right' : 'wrong');
  expect(JSON.parse((await verdict.getAttribute('data-answers'))!).sort()).toEqual([...leaders].sort());
  const sentence = page.getByTestId('prediction-sentence');
  await expect(sentence).toContainText('DCTCP, step marking at K');
  await expect(sentence).toContainText('65 packets');
  // The sentence quotes the drawn values as the chart's table does (three significant digits).
  const dctcpAt65 = atLast.find((m) => m.line === 'dctcp')!.y;
  await expect(sentence).toContainText(String(Number(dctcpAt65.toFixed(dctcpAt65 >= 100 ? 0 : dctcpAt65 >= 10 ? 1 : 2))));
  await expect(page.getByTestId('prediction-sketch-verdict')).toHaveAttribute('data-total', '4');
  await expect(page.getByTestId('prediction-sketch-verdict')).toContainText('Your sketch of DCTCP, step marking at K');

  // The sketch, dashed, beside the results, with the values committed.
  await expect(page.getByTestId(CHART)).toHaveAttribute('data-point-count', '8');
  await expect(sketch).toHaveAttribute('data-editable', 'false');
  await expect(sketch.locator('path[data-sketch-path]')).toHaveAttribute('stroke-dasharray', /\d+ \d+/);
  expect(await sketchValues(page)).toEqual(drawn);
  await expect(page.getByTestId(CHART).locator('[data-sketch-note]')).toContainText('your sketch of DCTCP');
  // After the runs the prediction cannot be changed (clearing the results would allow it).
  await expect(page.getByTestId('prediction-change')).toBeDisabled();

  // The link reopens the same prediction (the results come back from this tab's store).
  const href = (await page.getByTestId('prediction-link').getAttribute('href'))!;
  expect(href).toContain(`lab=${LAB}`);
  expect(href).toMatch(/pred=dctcp~dctcp:/);
  const verdictBefore = await verdict.getAttribute('data-verdict');
  await page.goto(href);
  await expect(lab(page)).toHaveAttribute('data-lab-state', /idle|done/);
  await expect(page.getByTestId('prediction-panel')).toHaveAttribute('data-state', 'committed');
  await expect(page.getByTestId('prediction-panel')).toHaveAttribute('data-choice', 'dctcp');
  expect(await sketchValues(page)).toEqual(drawn);
  await expect(page.getByTestId('prediction-verdict')).toHaveAttribute('data-verdict', verdictBefore!);
  await expect(page.getByTestId('url-notice')).toHaveCount(0);

  // To the faithful scale and back: the prediction goes along both ways.
  await page.locator('.lab-scale a').nth(1).click();
  await expect(page).toHaveURL(/quick=0/);
  await expect(page.getByTestId('prediction-panel')).toHaveAttribute('data-choice', 'dctcp');
  await page.locator('.lab-scale a').nth(0).click();
  await expect(page).not.toHaveURL(/quick=0/);
  await expect(page).toHaveURL(/[?&]pred=dctcp~dctcp:/);
  await expect(page.getByTestId('prediction-panel')).toHaveAttribute('data-state', 'committed');
  expect(await sketchValues(page)).toEqual(drawn);

  // In another tab (no results kept), the link shows the prediction committed, and the sketch on the empty axes.
  const other = await page.context().newPage();
  const otherProblems = watchConsole(other);
  await other.goto(new URL(href, page.url()).href);
  await expect(other.getByTestId('guided-lab')).toHaveAttribute('data-lab-state', 'idle');
  await expect(other.getByTestId('prediction-panel')).toHaveAttribute('data-state', 'committed');
  await expect(other.getByTestId('lab-run')).toHaveText('Run the sweep');
  await expect(other.getByTestId(CHART).getByTestId('prediction-sketch')).toHaveAttribute('data-sketch-values', JSON.stringify(drawn));
  await expect(other.getByTestId('prediction-verdict')).toHaveCount(0);
  await other.close();
  expect(otherProblems).toEqual([]);
  expect(problems).toEqual([]);
});

test('a malformed pred= is ignored with a notice; skipping is explicit; presentation mode shows the same choice', async ({ page }) => {
  const problems = watchConsole(page);
  for (const bad of ['nonsense', 'dctcp~nope:1,2,3,4', 'skip~dctcp:1,2,3,4', 'dctcp~dctcp:1,x,3,4', 'DCTCP']) {
    await page.goto(`./?lab=${LAB}&pred=${encodeURIComponent(bad)}`);
    await expect(lab(page)).toHaveAttribute('data-lab-state', 'idle');
    await expect(page.getByTestId('url-notice')).toContainText('Ignored pred=');
    await expect(page.getByTestId('prediction-panel')).toHaveAttribute('data-state', 'open');
    await expect(page.getByTestId('lab-run')).toHaveText('Run without predicting');
  }

  // Skip is a button of its own, and goes into the link.
  await page.getByTestId('prediction-skip').click();
  await expect(page.getByTestId('prediction-panel')).toHaveAttribute('data-state', 'skipped');
  await expect(page).toHaveURL(/[?&]pred=skip$/);
  // Changing it (before any run) opens the question again and takes it out of the link.
  await page.getByTestId('prediction-change').click();
  await expect(page.getByTestId('prediction-panel')).toHaveAttribute('data-state', 'open');
  await expect(page).not.toHaveURL(/pred=/);

  // A sketch with another number of values (drawn at the other scale): the answer is kept, the sketch is not.
  await page.goto(`./?lab=${LAB}&pred=${encodeURIComponent('dctcp~dctcp:1,2')}`);
  await expect(lab(page)).toHaveAttribute('data-lab-state', 'idle');
  await expect(page.getByTestId('url-notice')).toContainText('only the answer is kept');
  await expect(page.getByTestId('prediction-panel')).toHaveAttribute('data-state', 'committed');
  await expect(page.getByTestId('prediction-panel')).toHaveAttribute('data-choice', 'dctcp');

  // Presentation mode: the prediction screen shows the committed choice.
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(`./?lab=${LAB}&present=1&pred=reno-drop-tail`);
  await expect(lab(page)).toHaveAttribute('data-lab-state', 'idle');
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('lab-stepper')).toHaveAttribute('data-step', 'prediction');
  await expect(page.getByTestId('prediction-committed')).toBeVisible();
  await expect(page.getByTestId('prediction-committed')).toContainText('Standard TCP, drop-tail (K not used)');
  const fits = await page.evaluate(() => {
    const s = document.scrollingElement!;
    return s.scrollHeight <= s.clientHeight + 1 && s.scrollWidth <= s.clientWidth + 1;
  });
  expect(fits).toBe(true);
  expect(problems).toEqual([]);
});

test('the prediction panel on a phone, in dark mode: nothing scrolls sideways, the sketch works by touch-sized drag, axe passes', async ({ page }) => {
  const problems = watchConsole(page);
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`./?lab=${LAB}`);
  await expect(lab(page)).toHaveAttribute('data-lab-state', 'idle');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.getByTestId('prediction-choice-reno-drop-tail').check();
  await page.getByTestId('prediction-sketch-start').click();
  // Drag the last point to the top of the plot with the pointer.
  const points = page.getByTestId(CHART).getByTestId('prediction-sketch').getByRole('slider');
  await expect(points).toHaveCount(4);
  const before = await sketchValues(page);
  const box = (await points.last().boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2, box.y - 80, { steps: 4 });
  await page.mouse.up();
  const after = await sketchValues(page);
  expect(after[3]).toBeGreaterThan(before[3]);
  expect(after.slice(0, 3)).toEqual(before.slice(0, 3));
  const wide = await page.evaluate(() => document.scrollingElement!.scrollWidth);
  expect(wide).toBeLessThanOrEqual(390);
  expect(await axe(page, '[data-testid="prediction-panel"]')).toEqual([]);
  expect(await axe(page, `[data-testid="${CHART}"]`)).toEqual([]);
  await page.getByTestId('prediction-commit').click();
  await expect(page.getByTestId('prediction-panel')).toHaveAttribute('data-state', 'committed');
  expect(await axe(page, '[data-testid="prediction-panel"]')).toEqual([]);
  // Lab 4's sketch lines have long names: the select stays within the card.
  await page.goto('./?lab=two-to-one');
  await expect(lab(page)).toHaveAttribute('data-lab-state', 'idle');
  await expect(page.getByTestId('prediction-sketch-line')).toBeVisible();
  expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(390);
  expect(problems).toEqual([]);
});

test('Start here: predict before trying Scalable TCP, switch, and see the verdict; the link keeps the prediction', async ({ page }) => {
  const problems = watchConsole(page);
  await page.goto('./?v=2&alg=reno&dur=5&seed=1');
  expect(await page.evaluate(() => window.sawtooth!.whenDone())).toBe('done');
  const step = page.getByTestId('start-prediction');
  await expect(step).toHaveAttribute('data-state', 'open');
  await expect(step).toContainText('how often would its window be cut in these 5 s?');
  await page.getByTestId('start-prediction-choice-more').focus();
  await page.keyboard.press('Space');
  await page.getByTestId('start-prediction-commit').focus();
  await page.keyboard.press('Enter');
  await expect(step).toHaveAttribute('data-state', 'committed');
  await expect(page).toHaveURL(/[?&]pred=more(&|$)/);

  const before = await page.evaluate(() => window.sawtooth!.runId());
  await page.getByTestId('start-prediction-switch').click();
  expect(await page.evaluate((id) => window.sawtooth!.whenDone(id), before)).toBe('done');
  expect(await page.evaluate(() => window.sawtooth!.scenario()!.hosts[0].flows[0].algorithm)).toBe('scalable');
  const cuts = await page.evaluate(() => {
    const f = window.sawtooth!.summary()!.flows[0];
    return Number(f.fast_retransmits) + Number(f.timeouts) + Number(f.local_congestion_events);
  });
  const verdict = page.getByTestId('start-prediction-verdict');
  await expect(verdict).toHaveAttribute('data-verdict', /right|wrong/);
  await expect(verdict).toContainText(`Scalable TCP’s window was cut ${cuts} time`);
  // The address keeps the prediction as the scenario changes, and "Copy link" carries it.
  await expect(page).toHaveURL(/alg=scalable/);
  await expect(page).toHaveURL(/[?&]pred=more(&|$)/);

  // The link opens the path with the prediction committed; a malformed one is ignored with a notice.
  await page.goto(page.url());
  await expect(page.getByTestId('start-prediction')).toHaveAttribute('data-state', 'committed');
  await page.goto('./?v=2&alg=reno&dur=5&seed=1&pred=maybe');
  await expect(page.getByTestId('url-notice')).toContainText('Ignored pred=maybe');
  await expect(page.getByTestId('start-prediction')).toHaveAttribute('data-state', 'open');
  expect(problems).toEqual([]);
});
