import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { DELIBERATE_CRASH, watchConsole } from './support/console';
import type { LabHookSnapshot } from '../app/src/guided/testHooks';

// Guided labs (issue 7): a lab opened by link runs its sweep across the
// worker pool, draws exactly what the engine measured, shows the paper's
// values beside it, cancels, survives a trapped point and a dead worker,
// and opens any point's run in the lab page. Tests wait on the page's state
// (data-lab-state, window.sawtooth.lab()), never on time.

const CLI = fileURLToPath(new URL('../engine-wasm/target/debug/sawtooth', import.meta.url));
/** The guided labs' ids, in order, from the engine's catalogue (engine-wasm/core/labs/labs.json). */
const LAB_IDS: string[] = (JSON.parse(readFileSync(new URL('../engine-wasm/core/labs/labs.json', import.meta.url), 'utf8')) as { labs: { id: string }[] }).labs.map((l) => l.id);

const watch = (page: Page) => watchConsole(page, { allow: DELIBERATE_CRASH });

const lab = (page: Page) => page.getByTestId('guided-lab');

async function labState(page: Page, state: string, timeout = 20_000): Promise<void> {
  await expect(lab(page)).toHaveAttribute('data-lab-state', state, { timeout });
}

async function hook(page: Page): Promise<LabHookSnapshot> {
  const s = await page.evaluate(() => window.sawtooth!.lab());
  expect(s).not.toBeNull();
  return s!;
}

async function runToDone(page: Page, timeout = 55_000): Promise<LabHookSnapshot> {
  await labState(page, 'idle');
  await page.getByTestId('lab-run').click();
  await labState(page, 'done', timeout);
  return hook(page);
}

interface DrawnMark {
  series: string;
  x: unknown;
  y: number | null;
  runs: number[];
}

async function drawnMarks(page: Page, chart: string): Promise<DrawnMark[]> {
  return page
    .getByTestId(`lab-chart-${chart}`)
    .locator('a.mark')
    .evaluateAll((els) =>
      els.map((el) => ({
        series: el.getAttribute('data-series')!,
        x: JSON.parse(el.getAttribute('data-x')!),
        y: el.getAttribute('data-y') === '' ? null : Number(el.getAttribute('data-y')),
        runs: JSON.parse(el.getAttribute('data-runs')!),
      })),
    );
}

test('the guided labs are one click from the lab page, and every lab opens by link', async ({ page }) => {
  const problems = watch(page);
  await page.goto('./?seed=1&dur=2');
  expect(await page.evaluate(() => window.sawtooth!.whenDone())).toBe('done');
  expect(await page.evaluate(() => window.sawtooth!.lab())).toBeNull();
  await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Guided labs' }).click();
  const list = page.getByTestId('guided-labs');
  await expect(list).toHaveAttribute('data-lab-state', 'list');
  const cards = list.locator('.lab-list > li');
  await expect(cards).toHaveCount(18);
  await expect(cards.first()).toContainText('Lab 1');
  await cards.nth(2).getByRole('link').click();
  await expect(page).toHaveURL(/\?lab=txqueuelen$/);
  await labState(page, 'idle');
  await expect(page.getByRole('heading', { level: 2 })).toContainText('txqueuelen');

  // Each lab: its guide, its charts (with the paper's values already drawn
  // where the paper gives numbers), the paper table and the model's differences.
  // Every lab the engine ships, in its order (a new lab is checked without editing this test).
  const ids = LAB_IDS;
  expect(ids.length).toBeGreaterThanOrEqual(14);
  for (const [i, id] of ids.entries()) {
    await page.goto(`./?lab=${i % 2 === 0 ? id : i + 1}`);
    await labState(page, 'idle');
    const s = await hook(page);
    expect(s.id).toBe(id);
    expect(s.number).toBe(i + 1);
    expect(s.quick).toBe(true);
    expect(s.total).toBeGreaterThan(0);
    expect(s.completed).toBe(0);
    await expect(page.getByTestId('model-differences').locator('li').first()).toBeVisible();
    await expect(lab(page).locator('figure.lab-chart').first()).toBeVisible();
    await expect(lab(page).locator('.lab-guide')).toContainText('The question');
    // The paper's values are listed before any run, each with its source.
    if ((s.comparisons ?? []).length > 0) {
      await expect(page.getByTestId('paper-table').locator('tbody tr')).toHaveCount(s.comparisons!.length);
      // Cited by name and place in the paper, never by the seed file.
      await expect(page.getByTestId('paper-table').locator('tbody tr').first()).toContainText(s.comparisons![0].source.at);
      await expect(page.getByTestId('paper-table').locator('tbody tr').first()).not.toContainText(/seed 00/i);
    }
  }
  expect(problems).toEqual([]);
});

test('lab 3 by link: the drawn points are the engine’s results, the paper beside them, and a point opens its run', async ({ page }) => {
  expect(existsSync(CLI), `${CLI} is built by scripts/test.sh`).toBe(true);
  const problems = watch(page);
  await page.goto('./?lab=txqueuelen');
  const s = await runToDone(page);
  expect(s).toMatchObject({ id: 'txqueuelen', quick: true, state: 'done', failed: 0 });
  expect(s.completed).toBe(s.total);
  expect(s.total).toBe(33);
  expect(s.workers).toBeGreaterThanOrEqual(1);

  // The chart draws one mark per run (one seed), at the engine's value.
  const chart = page.getByTestId('lab-chart-total_throughput_mbps');
  await expect(chart).toHaveAttribute('data-lab-id', 'txqueuelen');
  await expect(chart).toHaveAttribute('data-point-count', '33');
  expect(JSON.parse((await chart.getAttribute('data-series-ids'))!)).toEqual(['reno', 'highspeed', 'scalable']);
  const marks = await drawnMarks(page, 'total_throughput_mbps');
  expect(marks).toHaveLength(33);
  for (const m of marks) {
    expect(m.runs).toHaveLength(1);
    const p = s.points[m.runs[0]];
    expect(p.series).toBe(m.series);
    expect(p.x).toEqual(m.x);
    expect(m.y).toBe(p.result!.total_throughput_mbps);
  }
  // The default txqueuelen is marked; the paper's values are drawn.
  await expect(chart.locator('[data-reference="Linux default (100)"]')).toHaveCount(1);
  expect(Number(await chart.getAttribute('data-paper-count'))).toBe(6);
  // The text alternative lists every drawn point.
  await expect(chart.locator('details.chart-table tbody tr')).toHaveCount(33);

  // The same runs natively (the CLI) give the same numbers.
  for (const i of [0, 16, 32]) {
    const p = s.points[i];
    const native = JSON.parse(execFileSync(CLI, ['run', '-'], { input: JSON.stringify(p.scenario) }).toString());
    expect(p.result!.total_throughput_mbps).toBe(native.total_throughput_bps / 1e6);
    expect(p.result!.drops).toBe(native.flows.reduce((a: number, f: { drops: number }) => a + f.drops, 0));
  }

  // Paper beside simulation: every published value, the simulated one and the difference, with the source.
  const rows = page.getByTestId('paper-table').locator('tbody tr');
  await expect(rows).toHaveCount(s.comparisons!.length);
  const table = await rows.evaluateAll((trs) =>
    trs.map((tr) => ({
      key: tr.getAttribute('data-key'),
      paper: Number(tr.getAttribute('data-paper')),
      simulated: Number(tr.getAttribute('data-simulated')),
      difference: Number(tr.getAttribute('data-difference')),
      text: tr.textContent ?? '',
    })),
  );
  for (const c of s.comparisons!) {
    const row = table.find((r) => r.key === c.key)!;
    expect(row.paper).toBe(c.paper);
    expect(row.simulated).toBe(c.simulated);
    expect(row.difference).toBeCloseTo(c.simulated! - c.paper!, 9);
    expect(row.text).toContain(`Long (Sandia, 2003), ${c.source.at}`);
  }
  // Beside the charts, the page says how many published values the runs reproduce, from the same comparison.
  const judged = s.comparisons!.filter((c) => c.within_tolerance !== null);
  const note = page.getByTestId('fidelity-note');
  await expect(note).toHaveAttribute('data-compared', String(judged.length));
  await expect(note).toHaveAttribute('data-within', String(judged.filter((c) => c.within_tolerance).length));
  const at100 = s.points.find((p) => p.series === 'reno' && p.x === 100)!;
  const reno100 = s.comparisons!.find((c) => c.key === 'txqueuelen:reno:100:total_throughput_mbps')!;
  expect(reno100.paper).toBe(828);
  expect(reno100.simulated).toBe(at100.result!.total_throughput_mbps);
  await expect(rows.and(page.locator('[data-key="txqueuelen:reno:100:total_throughput_mbps"]'))).toContainText('828 Mb/s');
  await expect(page.getByTestId('lab-findings')).toHaveAttribute('open', '');
  // The paper's findings, judged by the engine on the same runs: each listed with its standing, and the note agrees only when all hold.
  expect(s.findings!.length).toBeGreaterThan(0);
  for (const f of s.findings!) await expect(page.locator(`[data-testid="paper-findings"] li[data-finding="${f.id}"]`)).toHaveAttribute('data-status', f.status);
  const broken = s.findings!.filter((f) => f.status === 'broken');
  await expect(note).toHaveAttribute('data-findings-broken', String(broken.length));
  await expect(note).toHaveAttribute('data-agrees', String(broken.length === 0 && judged.every((c) => c.within_tolerance)));
  for (const f of broken) await expect(note.locator(`[data-finding="${f.id}"]`)).toContainText(f.text.replace(/\.$/, ''));

  // No accessibility violations, light and dark.
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });

  // Keyboard: the chart is one tab stop; arrows move between its points.
  const first = chart.locator('a.mark[tabindex="0"]');
  await first.focus();
  const x0 = JSON.parse((await first.getAttribute('data-x'))!);
  await page.keyboard.press('ArrowRight');
  const focusedX = await page.evaluate(() => JSON.parse(document.activeElement!.getAttribute('data-x')!));
  expect(focusedX).toBeGreaterThan(x0);
  // A sighted keyboard user sees the focused point's value (the mouse has its tooltip), and it goes with the focus.
  const readout = chart.getByTestId('mark-readout');
  const focusedLabel = await page.evaluate(() => document.activeElement!.getAttribute('aria-label')!);
  await expect(readout).toBeVisible();
  const shown = (await readout.textContent())!;
  expect(shown.length).toBeGreaterThan(0);
  expect(focusedLabel.startsWith(shown)).toBe(true);
  await page.keyboard.press('Tab');
  await expect(readout).toHaveCount(0);
  // How each finding was checked is on the page, not only in a tooltip.
  for (const f of s.findings!.filter((x) => (x.status === 'held' || x.status === 'broken') && x.note))
    await expect(page.locator(`[data-testid="paper-findings"] li[data-finding="${f.id}"] [data-testid="finding-rule"]`)).toContainText(f.note!);

  // Drill-down: the point for Standard TCP at txqueuelen 100 opens that run in the lab page.
  const mark = chart.locator(`a.mark[data-series="reno"][data-x="100"]`);
  await mark.click();
  await expect(page).not.toHaveURL(/lab=/);
  // A full navigation: the new document installs window.sawtooth when its script runs.
  await page.waitForFunction(() => window.sawtooth !== undefined);
  expect(await page.evaluate(() => window.sawtooth!.whenDone())).toBe('done');
  const opened = await page.evaluate(() => window.sawtooth!.scenario());
  expect(opened).toEqual(at100.scenario);
  const summary = await page.evaluate(() => window.sawtooth!.summary());
  expect(summary!.total_throughput_bps / 1e6).toBe(at100.result!.total_throughput_mbps);

  // Back: the sweep's results are still there (kept for the tab).
  await page.goBack();
  await labState(page, 'done');
  const back = await hook(page);
  expect(back.completed).toBe(33);
  await expect(page.getByTestId('lab-chart-total_throughput_mbps')).toHaveAttribute('data-point-count', '33');
  expect(problems).toEqual([]);
});

test('parallel streams: means over seeds with min/max, gain over Standard, and a chooser for the runs behind a point', async ({ page }) => {
  const problems = watch(page);
  await page.goto('./?lab=parallel-streams');
  const s = await runToDone(page);
  expect(s.completed).toBe(45);
  const marks = await drawnMarks(page, 'total_throughput_mbps');
  expect(marks).toHaveLength(15);
  for (const m of marks) {
    // Three seeds behind each point; the mark is their mean.
    expect(m.runs).toHaveLength(3);
    const vals = m.runs.map((i) => s.points[i].result!.total_throughput_mbps);
    expect(m.y).toBeCloseTo(vals.reduce((a, b) => a + b, 0) / 3, 9);
  }
  const gain = page.getByTestId('gain-table');
  await expect(gain.locator('tbody tr')).toHaveCount(5);
  const g16 = await gain.locator('tbody tr[data-x="16"] td[data-series="scalable"]').getAttribute('data-gain');
  const mean = (series: string, x: number) => {
    const v = s.points.filter((p) => p.series === series && p.x === x).map((p) => p.result!.total_throughput_mbps);
    return v.reduce((a, b) => a + b, 0) / v.length;
  };
  expect(Number(g16)).toBeCloseTo(100 * (mean('scalable', 16) / mean('reno', 16) - 1), 9);

  // A point with several runs offers them all (Enter on the focused point:
  // points of different series may overlap on screen).
  await page.getByTestId('lab-chart-total_throughput_mbps').locator('a.mark[data-series="highspeed"][data-x="4"]').focus();
  await page.keyboard.press('Enter');
  const chooser = page.getByTestId('run-chooser');
  await expect(chooser.getByRole('link')).toHaveCount(3);
  await expect(chooser.getByRole('link').first()).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(chooser).toHaveCount(0);
  expect(problems).toEqual([]);
});

test('a trapped point and a dead worker are reported for their points; the sweep goes on', async ({ page }) => {
  const problems = watch(page);
  await page.goto('./?lab=txqueuelen&debug=trap:2,crash:5');
  const s = await runToDone(page);
  expect(s.failed).toBe(2);
  expect(s.completed).toBe(s.total - 2);
  expect(s.points[2]).toMatchObject({ status: 'error', result: null });
  expect(s.points[2].error).toMatch(/trapped/);
  expect(s.points[5].error).toMatch(/stopped unexpectedly/);
  await expect(page.getByTestId('point-errors').locator('li')).toHaveCount(2);
  await expect(page.getByTestId('lab-chart-total_throughput_mbps')).toHaveAttribute('data-point-count', String(s.total - 2));
  expect(problems).toEqual([]);
});

test('cancel stops the sweep, starts a fresh pool, and the rest can run later', async ({ page }) => {
  const problems = watch(page);
  // Lab 9 at quick scale: a few long runs (60 s simulated each).
  await page.goto('./?lab=rtt-fairness');
  await labState(page, 'idle');
  const before = await hook(page);
  await page.getByTestId('lab-run').click();
  await labState(page, 'running');
  await page.waitForFunction(() => window.sawtooth!.lab()!.points.some((p) => p.status === 'running'));
  await page.getByTestId('lab-cancel').click();
  await labState(page, 'cancelled');
  const after = await hook(page);
  expect(after.poolGeneration).toBe(before.poolGeneration + 1);
  expect(after.points.filter((p) => p.status === 'running')).toHaveLength(0);
  expect(after.completed).toBeLessThan(after.total);
  await expect(page.getByTestId('lab-status')).toContainText('Cancelled');
  await expect(page.getByTestId('lab-run')).toBeEnabled();
  await expect(page.getByTestId('lab-cancel')).toBeDisabled();
  expect(problems).toEqual([]);
});

/** The exact records of a sweep file: run index → result (floats as the engine's shortest decimal strings). */
function records(text: string): Map<number, Record<string, unknown>> {
  const out = new Map<number, Record<string, unknown>>();
  for (const line of text.split('\n')) {
    const m = /^# point (\d+) (.*)$/.exec(line);
    if (m) out.set(Number(m[1]), JSON.parse(m[2]) as Record<string, unknown>);
  }
  return out;
}

test('the faithful scale by link shows the results computed ahead at once, the shipped file’s numbers', async ({ page }) => {
  const problems = watch(page);
  await page.goto('./?lab=parallel-streams&quick=0');
  await labState(page, 'done');
  const s = await hook(page);
  expect(s.quick).toBe(false);
  // Three series × five stream counts × ten seeds.
  expect(s.total).toBe(150);
  await expect(lab(page)).toHaveAttribute('data-quick', '0');
  const snap = (await page.evaluate(() => window.sawtooth!.lab()))!;
  expect(snap.imported).toMatchObject({ ahead: true, runs: 150, quick: false });
  await expect(page.getByTestId('imported-note')).toHaveAttribute('data-ahead', 'true');
  await expect(page.getByTestId('imported-note')).toContainText('Computed ahead');
  await expect(page.getByTestId('ahead-problem')).toHaveCount(0);
  const shipped = records(readFileSync(fileURLToPath(new URL('../public/results/parallel-streams.csv', import.meta.url)), 'utf8'));
  expect(shipped.size).toBe(150);
  for (const p of snap.points) {
    expect(p.result!.total_throughput_mbps).toBe(Number(shipped.get(p.index)!.total_throughput_mbps));
  }
  // The quick scale runs in the page and never shows them.
  await page.goto('./?lab=parallel-streams');
  await labState(page, 'idle');
  expect((await page.evaluate(() => window.sawtooth!.lab()))!.imported).toBeNull();
  expect(problems).toEqual([]);
});

test('the results computed ahead, run again in the page, are the same bit for bit', async ({ page }) => {
  test.setTimeout(180_000);
  const problems = watch(page);
  await page.goto('./?lab=bufferbloat-aqm&quick=0');
  await labState(page, 'done');
  const ahead = (await page.evaluate(() => window.sawtooth!.lab()))!;
  expect(ahead.imported?.ahead).toBe(true);
  await page.getByTestId('ahead-rerun').click();
  await labState(page, 'running');
  await labState(page, 'done', 150_000);
  const live = (await page.evaluate(() => window.sawtooth!.lab()))!;
  expect(live.imported).toBeNull();
  expect(live.points).toHaveLength(ahead.points.length);
  // The file carries no flags (section 8.7); everything else is the same.
  const strip = (r: unknown) => {
    const { flags: _flags, ...rest } = r as Record<string, unknown>;
    return rest;
  };
  for (const [i, p] of live.points.entries()) expect(strip(p.result)).toEqual(strip(ahead.points[i].result));
  expect(problems).toEqual([]);
});

test('the ablation: the lab with its profile as a whole and each switch turned back, numbers identical to the native CLI', async ({ page }) => {
  expect(existsSync(CLI), `${CLI} is built by scripts/test.sh`).toBe(true);
  const problems = watch(page);
  await page.goto('./?lab=back-to-back-30ms');
  await labState(page, 'idle');
  const panel = page.getByTestId('ablation-panel');
  await expect(panel).toHaveAttribute('data-state', 'idle');
  await expect(page.getByTestId('ablation-status')).toContainText('16 sweeps');
  await page.getByTestId('ablation-run').click();
  // While it runs, the lab's own sweep waits (they share the workers).
  await expect(page.getByTestId('lab-run')).toBeDisabled();
  await expect(panel).toHaveAttribute('data-state', 'done', { timeout: 120_000 });
  await expect(page.getByTestId('lab-run')).toBeEnabled();

  interface Row {
    variant: { switch: string | null };
    headline: { simulated: number | null }[];
  }
  const [native] = JSON.parse(execFileSync(CLI, ['ablation', '--labs', 'back-to-back-30ms', '--json']).toString()) as Row[][];
  const rows = page.getByTestId('ablation-table').locator('tbody tr');
  await expect(rows).toHaveCount(native.length);
  for (const [i, n] of native.entries()) {
    const row = rows.nth(i);
    await expect(row).toHaveAttribute('data-switch', n.variant.switch ?? 'profile');
    const values = await row.locator('td[data-value]').evaluateAll((tds) => tds.map((td) => Number(td.getAttribute('data-value'))));
    expect(values).toEqual(n.headline.map((h) => h.simulated));
  }
  // Without the NIC ring the gains change: the result depends on that mechanism.
  const whole = native[0].headline[0].simulated!;
  const noRing = native.find((r) => r.variant.switch === 'nic_ring')!.headline[0].simulated!;
  expect(Math.abs(noRing - whole)).toBeGreaterThan(10);
  await expect(rows.filter({ hasText: 'NIC transmit ring' })).toContainText('→ none');
  expect(problems).toEqual([]);
});

/** The seed mean a claim's value reference names (`series@x|a..b|*:metric[group]`), from the points on the page. */
function meanOf(s: LabHookSnapshot, ref: string): number {
  const m = /^(.+)@([^:]+):([a-z_]+)(?:\[(\d+)\])?$/.exec(ref);
  expect(m, ref).not.toBeNull();
  const [, series, at, metric, group] = m!;
  const inRange = (x: number) => {
    if (at === '*') return true;
    const [a, b] = at.split('..').map(Number);
    return b === undefined ? Math.abs(x - a) < 1e-9 : x >= a && x <= b;
  };
  const perX = new Map<number, number[]>();
  for (const p of s.points) {
    if (p.series !== series || typeof p.x !== 'number' || !inRange(p.x)) continue;
    const field = (p.result as unknown as Record<string, number | number[]>)[metric];
    const v = group === undefined ? (field as number) : (field as number[])[Number(group)];
    perX.set(p.x, [...(perX.get(p.x) ?? []), v]);
  }
  const means = [...perX.values()].map((vs) => vs.reduce((a, b) => a + b, 0) / vs.length);
  expect(means.length, ref).toBeGreaterThan(0);
  return means.reduce((a, b) => a + b, 0) / means.length;
}

test('lab 2: what this simulation shows is filled from the runs on the page, and every sentence holds', async ({ page }) => {
  const problems = watch(page);
  await page.goto('./?lab=back-to-back-30ms');
  await labState(page, 'idle');
  const list = page.getByTestId('sim-claims');
  // Before the runs: nothing is asserted about them.
  await expect(list.locator('li')).toHaveCount(0);
  await expect(list).toContainText('appear here as the runs');
  const s = await runToDone(page);
  await expect(list).toHaveAttribute('data-waiting', '0');
  const items = list.locator('li[data-claim-id]');
  expect(await items.count()).toBeGreaterThan(0);
  expect(await items.evaluateAll((els) => els.map((e) => e.getAttribute('data-holds')))).toEqual(Array(await items.count()).fill('true'));
  await expect(list).not.toContainText('do not show');
  // Every number in the sentences is the seed mean of the engine's results.
  const values = await list.locator('.claim-value').evaluateAll((els) => els.map((e) => ({ ref: e.getAttribute('data-ref')!, value: e.getAttribute('data-value')!, text: e.textContent! })));
  expect(values.length).toBeGreaterThan(0);
  for (const v of values) {
    expect(Number(v.value), v.ref).toBeCloseTo(meanOf(s, v.ref), 9);
    expect(v.text).toMatch(/\d/);
  }
  expect(problems).toEqual([]);
});

test('lab 9 at quick scale: the series give identical results, and the page says why', async ({ page }) => {
  const problems = watch(page);
  await page.goto('./?lab=rtt-fairness');
  await expect(page.getByTestId('no-congestion-note')).toHaveCount(0);
  const s = await runToDone(page, 120_000);
  expect(s.points.every((p) => p.result!.drops === 0)).toBe(true);
  // Every series' result is the same at each RTT: the second flow's algorithm never acts.
  for (const p of s.points) {
    const first = s.points.find((q) => q.x === p.x && q.seed === p.seed)!;
    expect(p.result!.group_throughput_mbps).toEqual(first.result!.group_throughput_mbps);
  }
  await expect(page.getByTestId('no-congestion-note')).toBeVisible();
  // What this simulation shows says so too, as a sentence these runs bear out.
  await expect(page.getByTestId('sim-claims').locator('[data-claim-id="every-pairing-alike"]')).toHaveAttribute('data-holds', 'true');
  expect(problems).toEqual([]);
});

test('a chart with many series: the legend picks which series are drawn', async ({ page }) => {
  const problems = watch(page);
  await page.goto('./?lab=two-to-one');
  const s = await runToDone(page, 90_000);
  const chart = page.getByTestId(`lab-chart-group_throughput_mbps`);
  const ids = async () => JSON.parse((await chart.getAttribute('data-series-ids'))!) as string[];
  const before = await ids();
  const series = [...new Set(s.points.map((p) => p.series))];
  expect(series.length).toBeGreaterThan(3);
  const toggles = chart.locator('.lab-legend .legend-toggle');
  const first = series[0];
  const toggle = chart.locator(`.legend-item[data-line^="${first}"] .legend-toggle`).first();
  await expect(toggles.first()).toHaveAttribute('aria-pressed', 'true');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-pressed', 'false');
  await expect.poll(ids).toEqual(before.filter((id) => id.split('#')[0] !== first));
  await toggle.click();
  await expect.poll(ids).toEqual(before);
  expect(problems).toEqual([]);
});

test('lab 4: the band of the stated unknown, run on request at each end of its range, spans every line’s value', async ({ page }) => {
  // The lab's quick sweep, then the same sweep twice more (one per end of the switch buffer's range).
  test.setTimeout(900_000);
  const problems = watch(page);
  await page.goto('./?lab=two-to-one');
  const charts = page.locator('figure.lab-chart');
  // The band is offered, and runs only when asked.
  await expect(page.getByTestId('band-control')).toHaveAttribute('data-band-state', 'idle');
  await runToDone(page, 240_000);
  await expect(charts.first()).toHaveAttribute('data-band-state', 'idle');
  await expect(charts.first()).toHaveAttribute('data-band-series', '[]');
  const run = page.getByTestId('band-run');
  const label = (await run.textContent())!;
  const range = /^Show the band of .+ \((\d+(?:\.\d+)?–\d+(?:\.\d+)? packets)\)$/.exec(label);
  expect(range, label).not.toBeNull();
  // Keyboard: the button is reached and pressed like any other.
  await run.focus();
  await page.keyboard.press('Enter');
  await expect(charts.first()).toHaveAttribute('data-band-state', 'running');
  // It holds the workers: the lab's sweep and the ablation wait.
  await expect(page.getByTestId('ablation-run')).toBeDisabled();
  await expect(charts.first()).toHaveAttribute('data-band-state', 'done', { timeout: 800_000 });
  await expect(page.getByTestId('band-status')).toContainText('The band is drawn');

  interface Cell {
    x: unknown;
    lo: number;
    hi: number;
    assumed: number;
    ends: (number | null)[];
  }
  let spread = 0;
  const count = await charts.count();
  expect(count).toBeGreaterThan(0);
  for (let c = 0; c < count; c++) {
    const chart = charts.nth(c);
    const metric = await chart.getAttribute('data-metric');
    await expect(chart).toHaveAttribute('data-band-state', 'done');
    const lines = JSON.parse((await chart.getAttribute('data-series-ids'))!) as string[];
    // Every line drawn has its band, named in the legend with the unknown's range.
    expect(JSON.parse((await chart.getAttribute('data-band-series'))!), metric!).toEqual(lines);
    await expect(chart.locator('[data-band-note]')).toContainText(range![1]);
    const marks = await chart.locator('a.mark').evaluateAll((els) =>
      els.map((el) => ({ line: el.getAttribute('data-line')!, x: el.getAttribute('data-x')!, y: el.getAttribute('data-y') === '' ? null : Number(el.getAttribute('data-y')) })),
    );
    for (const line of lines) {
      const cells = JSON.parse((await chart.locator(`path[data-band="${line}"]`).getAttribute('data-band-cells'))!) as Cell[];
      expect(cells.length, `${metric} ${line}`).toBeGreaterThan(0);
      let inside = 0;
      for (const cell of cells) {
        // The line's value there is the run at the assumed value, as drawn.
        const m = marks.find((k) => k.line === line && k.x === JSON.stringify(cell.x));
        expect(m, `${metric} ${line} at ${JSON.stringify(cell.x)}`).toBeDefined();
        expect(m!.y).toBe(cell.assumed);
        // The range ends ran here: the band is over their values and the line's.
        const values = [cell.assumed, ...cell.ends.filter((v): v is number => v !== null)];
        expect(values.length).toBeGreaterThan(1);
        expect(cell.lo).toBe(Math.min(...values));
        expect(cell.hi).toBe(Math.max(...values));
        if (cell.lo <= m!.y! && m!.y! <= cell.hi) inside++;
        spread = Math.max(spread, cell.hi - cell.lo);
      }
      expect(inside, `${metric} ${line}`).toBe(cells.length);
    }
    if (c === 0) {
      // The data table gives each range end's own value, named by the end (not a low–high that mixes in the assumed value).
      const table = chart.locator('details.chart-table');
      await table.locator('summary').click();
      await expect(table.locator('thead th').filter({ hasText: /^At the ends of the plausible range/ })).toHaveCount(1);
      await expect(table.locator('tbody td').filter({ hasText: / at \d+ packets, .* at \d+ packets$/ }).first()).toBeVisible();
      // It lists the points that have a value, as the chart draws them (no rows of dashes for pairs without one).
      if (metric !== 'time_to_max_rate_s') await expect(table.locator('tbody tr')).toHaveCount(marks.filter((k) => k.y !== null).length);
    }
  }
  // The unknown matters somewhere: the band has a width.
  expect(spread).toBeGreaterThan(0);
  expect(problems).toEqual([]);
});

test('on a phone, a result chart’s data table scrolls in its own box; the page never scrolls sideways', async ({ page }) => {
  const problems = watch(page);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('./?lab=two-to-one&pred=skip');
  await runToDone(page);
  const details = page.getByTestId('lab-chart-group_throughput_mbps').locator('details.chart-table');
  await details.locator('summary').click();
  const box = details.locator('.table-scroll');
  await expect(box).toBeVisible();
  // The table is wider than the phone: it scrolls inside its box, which is a keyboard-reachable region.
  expect(await box.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
  await expect(box).toHaveAttribute('tabindex', '0');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  expect(problems).toEqual([]);
});
