import { expect, test, type Page } from '@playwright/test';

// What students read (issue 16): papers are cited by author, title,
// institution and year; no internal seed file name, "seed 00N", "SPEC" or
// scenario JSON key appears anywhere on the lab page, the guided-lab list or
// any guided lab (closed sections opened first, so their text counts too).

const FORBIDDEN: [string, RegExp][] = [
  ['a seed file number', /\bseeds? 00\d/i],
  ['a seed file name', /\b\d{3}_[0-9a-f]{16}(\.txt)?\b/],
  ['the internal spec', /\bSPEC\b/],
  ['a scenario JSON key', /\b(buffer_pkts|duration_ms|rtt_ms|window_bytes|txqueuelen_pkts|initial_ssthresh_pkts|initial_cwnd_pkts|sample_interval_ms|rate_bps|nic_bps|mtu_bytes|start_ms|extra_delay_ms|start_jitter_ms|min_th_pkts|max_th_pkts)\b/],
  // Issue 24 item 7: what a student trips over.
  ['a repository file name', /\bdocs\/[\w-]+\.md\b|\(\w+\.md\)/],
  // (not the last of a list: "5, 3 and 1 drops")
  ['one of something in the plural', /(?<![\d.,]|\band |\bor |, )\b1 (packets|events|local congestion events|drops|timeouts|fast retransmits|marks)\b/],
  ['a range from a value to itself', /(?<![\d.,])(\d[\d.,]*\s?[kMG]?b\/s) to \1(?![\d.,])/],
  ['an algorithm name in lower case', /\b(standard tcp|scalable tcp|highspeed tcp)\b/],
  ['a question that does not read', /\bWhat is the \w+s\?/],
];

async function visibleText(page: Page): Promise<string> {
  await page.evaluate(() => document.querySelectorAll('details').forEach((d) => ((d as HTMLDetailsElement).open = true)));
  // The text and the accessible names a screen reader reads out.
  return page.evaluate(() => [document.body.innerText, ...Array.from(document.querySelectorAll('[aria-label]')).map((e) => e.getAttribute('aria-label'))].join('\n'));
}

function problems(text: string): string[] {
  const out: string[] = [];
  for (const [what, re] of FORBIDDEN) {
    const m = re.exec(text);
    if (m) out.push(`${what}: “…${text.slice(Math.max(0, m.index - 60), m.index + m[0].length + 40).replace(/\s+/g, ' ')}…”`);
  }
  return out;
}

test('the lab page and every guided lab cite papers by name and show no internal names', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto('./');
  await expect(page.locator('html')).toHaveAttribute('data-run-state', 'done', { timeout: 30_000 });
  expect(problems(await visibleText(page)), 'lab page').toEqual([]);

  await page.goto('./?view=labs');
  const cards = page.locator('.lab-list li');
  await expect(cards).toHaveCount(18);
  const listText = await visibleText(page);
  expect(problems(listText), 'guided-lab list').toEqual([]);
  expect(listText).toContain('Long (Sandia, 2003)');
  const ids = await cards.evaluateAll((els) => els.map((e) => e.getAttribute('data-lab-id')!));

  for (const id of ids) {
    await page.goto(`./?lab=${id}`);
    const lab = page.getByTestId('guided-lab');
    await expect(lab).toHaveAttribute('data-lab-state', 'idle', { timeout: 20_000 });
    // The paper table (with its sources) is there before any run.
    await expect(page.getByTestId('paper-table').or(page.locator('.lab-paper p.muted'))).toBeVisible();
    const text = await visibleText(page);
    expect(problems(text), `lab ${id}`).toEqual([]);
    // The header cites the paper in full: authors, title, publisher, year.
    await expect(page.locator('.lab-sources cite').first()).toBeVisible();
  }
});
