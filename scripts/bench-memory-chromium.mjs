// Peak RSS of Chromium's processes while the lab page runs an uploaded scenario.
// node scripts/bench-memory-chromium.mjs <scenario.json> <base url of a served production build>
// (issue 28: what a large in-budget run costs in the browser, beside `/usr/bin/time` natively).
import { chromium } from 'playwright';
import { readFileSync, readdirSync } from 'node:fs';
const [file, base] = process.argv.slice(2);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'] });
const page = await browser.newPage();
const sample = () => {
  let renderer = 0, total = 0;
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!cmd.includes('chromium')) continue;
      const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
      total += kb;
      if (cmd.includes('--type=renderer')) renderer = Math.max(renderer, kb);
    } catch {}
  }
  return { renderer, total };
};
await page.goto(`${base}/`);
await page.waitForFunction(() => document.documentElement.getAttribute('data-run-state') === 'done', null, { timeout: 120e3 });
const idle = sample();
const runId = await page.locator('html').getAttribute('data-run-id');
await page.getByTestId('upload-scenario').setInputFiles(file);
const t0 = Date.now();
let maxR = 0, maxT = 0, state = '', started = false, sawRunning = false;
while (Date.now() - t0 < 900e3) {
  const p = sample(); maxR = Math.max(maxR, p.renderer); maxT = Math.max(maxT, p.total);
  state = (await page.locator('html').getAttribute('data-run-state').catch(() => '')) ?? '';
  const id = await page.locator('html').getAttribute('data-run-id').catch(() => runId);
  const gate = page.getByTestId('run-gate-start');
  if (!started && (await gate.count().catch(() => 0))) { await gate.click().catch(() => {}); started = true; }
  if (state === 'running') sawRunning = true;
  if (sawRunning && (state === 'done' || state === 'error')) break;
  await new Promise((r) => setTimeout(r, 250));
}
const status = await page.getByTestId('share-status').textContent().catch(() => '');
console.log(JSON.stringify({ state, wall_s: (Date.now() - t0) / 1e3, idle_renderer_MB: idle.renderer / 1024, peak_renderer_MB: maxR / 1024, peak_all_chromium_MB: maxT / 1024, status }));
await browser.close();
