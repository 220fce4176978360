import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { watchConsole } from './support/console';
import type { LabHookSnapshot } from '../app/src/guided/testHooks';

// Results from the CLI in the page (issue 27): a sweep file written by
// `sawtooth sweep` opens in the guided lab and is shown exactly as the
// same sweep run in the page (charts, paper comparison, checked sentences,
// findings); a file of another lab, scale or engine build, or a damaged
// one, is refused with the reason and changes nothing.
// The CLI must be built from the same sources as the page's engine
// (`npm test` builds both); SAWTOOTH_CLI points at another build.

const CLI = process.env.SAWTOOTH_CLI ?? fileURLToPath(new URL('../engine-wasm/target/debug/sawtooth', import.meta.url));
const LAB = 'back-to-back';
const lab = (page: Page) => page.getByTestId('guided-lab');
// Made on first use (not when Playwright lists the tests) and removed after them.
let dir: string | undefined;
test.afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The CLI's quick sweep of `id` as a file (and, once, its comparison), made once per id. */
const made = new Map<string, string>();
function sweepFile(id: string): string {
  let path = made.get(id);
  if (!path) {
    dir ??= mkdtempSync(join(tmpdir(), 'sawtooth-open-'));
    path = join(dir, `${id}-quick.csv`);
    execFileSync(CLI, ['sweep', id, '--quick', '--out', path]);
    made.set(id, path);
  }
  return path;
}

async function snapshot(page: Page): Promise<LabHookSnapshot> {
  return (await page.evaluate(() => window.sawtooth!.lab()))!;
}

/** What the page shows: every chart's marks, the paper table's simulated values, the checked sentences. */
async function shown(page: Page) {
  const marks = await page.locator('[data-testid^="lab-chart-"] a.mark').evaluateAll((els) =>
    els.map((el) => [el.closest('figure')!.getAttribute('data-metric'), el.getAttribute('data-line'), el.getAttribute('data-x'), el.getAttribute('data-y')].join(' ')),
  );
  const paper = await page.locator('[data-testid="paper-table"] tr[data-key]').evaluateAll((els) => els.map((el) => [el.getAttribute('data-key'), el.getAttribute('data-simulated')]));
  const claims = await page.locator('[data-testid="sim-claims"] li[data-claim-id]').evaluateAll((els) => els.map((el) => [el.getAttribute('data-holds'), el.textContent]));
  return { marks, paper, claims };
}

/** A result without the engine's flags (the file does not carry them). */
function unflagged(r: unknown): unknown {
  const { flags: _flags, ...rest } = r as Record<string, unknown>;
  return rest;
}

test('a sweep file from `sawtooth sweep` opens as the same sweep run in the page, with the CSV’s numbers', async ({ page }) => {
  test.setTimeout(120_000);
  const problems = watchConsole(page);
  const path = sweepFile(LAB);
  const text = readFileSync(path, 'utf8');

  // The sweep run in the page first.
  await page.goto(`./?lab=${LAB}`);
  await expect(lab(page)).toHaveAttribute('data-lab-state', 'idle', { timeout: 20_000 });
  await page.getByTestId('lab-run').click();
  await expect(lab(page)).toHaveAttribute('data-lab-state', 'done', { timeout: 90_000 });
  const ran = await snapshot(page);
  const ranShown = await shown(page);
  expect(ran.imported).toBeNull();
  await page.getByTestId('lab-clear').click();
  await expect(lab(page)).toHaveAttribute('data-lab-state', 'idle');
  expect((await snapshot(page)).completed).toBe(0);

  // The same sweep from the CLI's file, through the file input.
  await page.getByTestId('open-results-input').setInputFiles(path);
  await expect(lab(page)).toHaveAttribute('data-lab-state', 'done', { timeout: 30_000 });
  await expect(page.getByTestId('open-results')).toHaveAttribute('data-state', 'opened');
  await expect(page.getByTestId('open-results-status')).toContainText(`Opened ${LAB}-quick.csv: ${ran.total} runs`);
  await expect(page.getByTestId('imported-note')).toContainText('computed by the CLI (quick scale');
  await expect(page.getByTestId('lab-status')).toContainText(`opened from ${LAB}-quick.csv`);
  const opened = await snapshot(page);
  expect(opened.imported).toMatchObject({ file: `${LAB}-quick.csv`, quick: true, series: [], runs: ran.total });
  expect(opened).toMatchObject({ completed: ran.total, failed: 0, total: ran.total });

  // Exactly what the page's own run gave: every result, the comparison, the findings, and what is drawn.
  expect(opened.points.map((p) => unflagged(p.result))).toEqual(ran.points.map((p) => unflagged(p.result)));
  expect(opened.comparisons).toEqual(ran.comparisons);
  expect(opened.findings).toEqual(ran.findings);
  expect(opened.ranking).toEqual(ran.ranking);
  const openedShown = await shown(page);
  expect(openedShown).toEqual(ranShown);
  expect(openedShown.marks.length).toBeGreaterThan(0);
  expect(openedShown.paper.length).toBeGreaterThan(0);
  expect(openedShown.claims.length).toBeGreaterThan(0);

  // And the CSV's own numbers: each run's exact record, and its row (six decimals).
  const lines = text.trimEnd().split('\n');
  const cols = lines[0].split(',');
  const rows = lines.slice(1).filter((l) => !l.startsWith('#'));
  const records = lines.filter((l) => l.startsWith('# point ')).map((l) => JSON.parse(l.slice(l.indexOf('{'))) as Record<string, unknown>);
  expect(records.length).toBe(opened.total);
  expect(rows.length).toBe(opened.total);
  opened.points.forEach((p, i) => {
    const r = p.result!;
    expect(r.total_throughput_mbps).toBe(Number(records[i].total_throughput_mbps));
    expect(r.utilisation).toBe(Number(records[i].utilisation));
    const row = Object.fromEntries(cols.map((c, k) => [c, rows[i].split(',')[k]]));
    expect(`${row.series}|${row.seed}`).toBe(`${p.series}|${p.seed}`);
    expect(r.total_throughput_mbps).toBeCloseTo(Number(row.total_throughput_mbps), 5);
  });
  // The paper table's simulated values are the CLI's comparison's.
  const compare = execFileSync(CLI, ['sweep', LAB, '--quick', '--compare']).toString().trim().split('\n');
  const head = compare[0].split(',');
  const sim = new Map(
    compare.slice(1).map((l) => {
      const cells = l.split(',');
      return [cells[head.indexOf('key')], cells[head.indexOf('simulated')]];
    }),
  );
  for (const [key, value] of openedShown.paper) {
    if (!value || !sim.get(key!)) continue;
    expect(Number(value)).toBeCloseTo(Number(sim.get(key!)), 5);
  }
  expect(problems).toEqual([]);
});

test('a file of another lab, scale or engine, or a damaged one, is refused with the reason and changes nothing', async ({ page }) => {
  test.setTimeout(120_000);
  const problems = watchConsole(page);
  const text = readFileSync(sweepFile(LAB), 'utf8');
  const lines = text.trimEnd().split('\n');
  const n = lines.length;
  const other = readFileSync(sweepFile('dctcp-threshold'), 'utf8');
  const edit = (no: number, f: (l: string) => string) => lines.map((l, i) => (i + 1 === no ? f(l) : l)).join('\n') + '\n';

  await page.goto(`./?lab=${LAB}`);
  await expect(lab(page)).toHaveAttribute('data-lab-state', 'idle', { timeout: 20_000 });
  const input = page.getByTestId('open-results-input');
  const error = page.getByTestId('open-results-error');
  // What a refused file leaves on screen: nothing opened (the faithful scale's results computed ahead stay).
  let unchanged: Record<string, unknown> = { completed: 0, imported: null, state: 'idle' };
  const refuse = async (name: string, body: string, line: number | null, ...words: string[]) => {
    await input.setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(body) });
    await expect(page.getByTestId('open-results')).toHaveAttribute('data-state', 'refused');
    await expect(error).toHaveAttribute('data-line', line === null ? '' : String(line));
    for (const w of words) await expect(error).toContainText(w);
    await expect(error).toContainText(`${name} was not opened`);
    expect(await snapshot(page)).toMatchObject(unchanged);
  };

  await refuse('other-lab.csv', other, other.trimEnd().split('\n').length, 'holds lab 14 (dctcp-threshold', 'not lab 1 (back-to-back');
  const foreign = edit(n, (l) => l.replace(/engine=\S+/, 'engine=0.0.1+0000000000000000').replace(/results=\S+/, 'results=0000000000000000'));
  await refuse('old-engine.csv', foreign, n, 'written by engine 0.0.1+0000000000000000 (results stamp 0000000000000000)', 'run the sweep again');
  const row = lines[2];
  const damaged = edit(3, (l) => l.replace(/,(\d)(\d*)\.(\d)/, (_m, a: string, b: string, c: string) => `,${a}${b}.${(Number(c) + 1) % 10}`));
  expect(damaged.split('\n')[2]).not.toBe(row);
  await refuse('damaged.csv', damaged, 3, 'this CSV row differs from the exact record of run 1');
  await refuse('duplicated.csv', edit(2, (l) => `${l}\n${l}`), 3, 'repeats line 2');
  await refuse('cut.csv', lines.slice(0, n - 4).join('\n') + '\n', n - 4, 'cut short');
  const rowsOnly = lines.filter((l) => !l.startsWith('#'));
  await refuse('rows-only.csv', rowsOnly.join('\n'), rowsOnly.length, 'without its closing');
  await refuse('notes.txt', 'just some notes\n', 1, 'not a sweep file');

  // Dropped on the drop zone, the same checks.
  const dt = await page.evaluateHandle((body) => {
    const d = new DataTransfer();
    d.items.add(new File([body], 'dropped.csv', { type: 'text/csv' }));
    return d;
  }, edit(n, (l) => l.replace('digest=', 'digest=0')));
  await page.getByTestId('open-results-drop').dispatchEvent('drop', { dataTransfer: dt });
  await expect(error).toContainText('dropped.csv was not opened');
  await expect(error).toContainText('does not match its digest');

  // The faithful scale refuses the quick file.
  await page.goto(`./?lab=${LAB}&quick=0`);
  // The faithful results computed ahead are on screen; the refused file changes nothing.
  await expect(lab(page)).toHaveAttribute('data-lab-state', 'done', { timeout: 20_000 });
  unchanged = { state: 'done', imported: { ahead: true, runs: 840 } }; // 14 windows × 6 series × 10 runs
  await refuse('quick.csv', text, n, 'holds the quick scale', 'shows the faithful scale');
  expect(problems).toEqual([]);
});
