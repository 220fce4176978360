import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { watchConsole } from './support/console';
import type { LabHookSnapshot } from '../app/src/guided/testHooks';

// The labs beyond the papers (issue 15): bufferbloat and queue management,
// BBR against CUBIC, DCTCP against K; and issue 25's course labs, RTT fairness
// across algorithms, L4S (TCP Prague and CUBIC through DualPI2 and one PIE
// queue), a cellular-like trace-driven link and BBRv3 against CUBIC. Each opens by link, runs its quick
// sweep in the browser, and draws the engine's numbers, which equal the
// native CLI's for the same sweep.

const CLI = fileURLToPath(new URL('../engine-wasm/target/debug/sawtooth', import.meta.url));
const lab = (page: Page) => page.getByTestId('guided-lab');

async function runToDone(page: Page): Promise<LabHookSnapshot> {
  await expect(lab(page)).toHaveAttribute('data-lab-state', 'idle', { timeout: 20_000 });
  await page.getByTestId('lab-run').click();
  await expect(lab(page)).toHaveAttribute('data-lab-state', 'done', { timeout: 90_000 });
  return (await page.evaluate(() => window.sawtooth!.lab()))!;
}

/** The native quick sweep's CSV rows, keyed by series, x and seed. */
function nativeSweep(id: string): Map<string, Record<string, string>> {
  // The sweep file's `#` lines (each run's exact record, the closing line) are not CSV rows.
  const [head, ...rows] = execFileSync(CLI, ['sweep', id, '--quick'])
    .toString()
    .trim()
    .split('\n')
    .filter((l) => !l.startsWith('#'));
  const cols = head.split(',');
  const out = new Map<string, Record<string, string>>();
  for (const line of rows) {
    const cells = line.split(',');
    const row = Object.fromEntries(cols.map((c, i) => [c, cells[i]]));
    out.set(`${row.series}|${row.x}|${row.seed}`, row);
  }
  return out;
}

const CASES = [
  { id: 'bufferbloat-aqm', number: 12, metric: 'probe_rtt_median_ms', series: ['drop-tail', 'codel', 'fq-codel', 'pie'] },
  { id: 'bbr-vs-cubic', number: 13, metric: 'utilisation', series: ['bbr-cubic', 'cubic-cubic'] },
  { id: 'dctcp-threshold', number: 14, metric: 'mean_queue_pkts', series: ['dctcp', 'reno-drop-tail'] },
  {
    id: 'two-rtts',
    number: 15,
    metric: 'jain_index',
    series: ['reno-shallow', 'reno-deep', 'cubic-shallow', 'cubic-deep', 'bbr-shallow', 'bbr-deep'],
  },
  { id: 'l4s-dualpi2', number: 16, metric: 'utilisation', series: ['dualpi2', 'pie-ecn', 'cubic-pair'] },
  {
    id: 'cellular-trace',
    number: 17,
    metric: 'utilisation',
    series: ['cubic-drop-tail', 'cubic-codel', 'bbr-drop-tail', 'bbr-codel', 'prague-drop-tail', 'prague-codel'],
  },
  { id: 'bbr3-vs-cubic', number: 18, metric: 'jain_index', series: ['bbr3-cubic', 'bbr-cubic', 'bbr3-4cubic', 'bbr-4cubic'] },
] as const;

for (const c of CASES) {
  test(`lab ${c.number} (${c.id}): the drawn points are the engine's, equal to the native sweep, and its sentences hold`, async ({ page }) => {
    const problems = watchConsole(page);
    await page.goto(`./?lab=${c.id}`);
    const s = await runToDone(page);
    expect(s).toMatchObject({ id: c.id, number: c.number, quick: true, failed: 0 });
    expect(s.completed).toBe(s.total);

    const chart = page.getByTestId(`lab-chart-${c.metric}`);
    expect(JSON.parse((await chart.getAttribute('data-series-ids'))!)).toEqual([...c.series]);
    const marks = await chart.locator('a.mark').evaluateAll((els) =>
      els.map((el) => ({ y: Number(el.getAttribute('data-y')), runs: JSON.parse(el.getAttribute('data-runs')!) as number[] })),
    );
    expect(marks.length).toBe(s.total);
    const native = nativeSweep(c.id);
    for (const m of marks) {
      const p = s.points[m.runs[0]];
      const value = (p.result as unknown as Record<string, number>)[c.metric];
      expect(m.y).toBe(value);
      const row = native.get(`${p.series}|${p.x}|${p.seed}`);
      expect(row, `${p.series} ${p.x}`).toBeDefined();
      expect(value).toBeCloseTo(Number(row![c.metric]), 5);
    }
    // The simulator's own sentences are checked against these runs, and hold.
    const list = page.getByTestId('sim-claims');
    await expect(list).toHaveAttribute('data-waiting', '0');
    const items = list.locator('li[data-claim-id]');
    const n = await items.count();
    expect(n).toBeGreaterThan(0);
    expect(await items.evaluateAll((els) => els.map((e) => e.getAttribute('data-holds')))).toEqual(Array(n).fill('true'));
    expect(problems).toEqual([]);
  });
}

test('lab 13: runs the engine flagged are listed beside the results in its own words', async ({ page }) => {
  const problems = watchConsole(page);
  await page.goto('./?lab=bbr-vs-cubic');
  const s = await runToDone(page);
  const flagged = s.points.filter((p) => (p.result?.flags ?? []).length > 0);
  // BBR against CUBIC in half a BDP of buffer retransmits more than 5 % of
  // its segments; CUBIC's pair at 32 BDP leaves the link idle after a loss.
  // (Lab 14's Standard TCP baseline, which once waited for timeouts, shares
  // the link since TCP Small Queues came into linux-6.)
  expect(flagged.length).toBeGreaterThan(0);
  const list = page.getByTestId('flagged-points');
  await expect(list).toHaveAttribute('data-count', String(flagged.length));
  const items = list.locator('li[data-point-index]');
  await expect(items).toHaveCount(flagged.length);
  for (const [k, p] of flagged.entries()) {
    const item = items.nth(k);
    await expect(item).toHaveAttribute('data-point-index', String(p.index));
    for (const f of p.result!.flags!) await expect(item).toContainText(f.text);
    await expect(item.getByRole('link', { name: 'Open this run' })).toHaveAttribute('href', /\?/);
  }
  expect(problems).toEqual([]);
});
