// Peak RSS of Chromium's processes while the lab page runs an uploaded scenario.
// node scripts/bench-memory-chromium.mjs <scenario.json> <base url of a served production build>
// (issue 28: what a large in-budget run costs in the browser, beside `/usr/bin/time` natively).
import { chromium } from 'playwright';
import { readFileSync, readdirSync } from 'node:fs';
const [file, base] = process.argv.slice(2);
// A tag on this browser's command line: only its process tree is sampled
// (other Chromiums on a shared machine are not ours).
const tag = `--sawtooth-bench=${process.pid}-${Date.now()}`;
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', tag] });
const page = await browser.newPage();
const ours = () => {
  const all = [];
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      all.push({ pid: Number(pid), ppid: Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]), cmd: readFileSync(`/proc/${pid}/cmdline`, 'utf8') });
    } catch {}
  }
  const mine = new Set(all.filter((p) => p.cmd.includes(tag)).map((p) => p.pid));
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of all) if (!mine.has(p.pid) && mine.has(p.ppid)) { mine.add(p.pid); grew = true; }
  }
  return all.filter((p) => mine.has(p.pid));
};
const sample = () => {
  let renderer = 0, total = 0;
  for (const p of ours()) {
    try {
      const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p.pid}/status`, 'utf8'))?.[1] ?? 0);
      total += kb;
      if (p.cmd.includes('--type=renderer')) renderer = Math.max(renderer, kb);
    } catch {}
  }
  return { renderer, total };
};
await page.goto(`${base}/`);
await page.waitForFunction(() => document.documentElement.getAttribute('data-run-state') === 'done', null, { timeout: 120e3 });
const idle = sample();
await page.getByTestId('upload-scenario').setInputFiles(file);
const t0 = Date.now();
// RSS every 250 ms on a timer of its own: the loop below waits on the page,
// whose main thread may be busy for seconds.
let maxR = 0, maxT = 0;
const sampler = setInterval(() => { const p = sample(); maxR = Math.max(maxR, p.renderer); maxT = Math.max(maxT, p.total); }, 250);
let crashed = false;
page.on('crash', () => { crashed = true; });
let state = '', started = false, sawRunning = false;
while (Date.now() - t0 < 900e3 && !crashed) {
  state = (await page.locator('html').getAttribute('data-run-state').catch(() => '')) ?? '';
  const gate = page.getByTestId('run-gate-start');
  if (!started && (await gate.count().catch(() => 0))) { await gate.click().catch(() => {}); started = true; }
  if (state === 'running') sawRunning = true;
  if (sawRunning && (state === 'done' || state === 'error')) break;
  await new Promise((r) => setTimeout(r, 250));
}
const wall_s = (Date.now() - t0) / 1e3;
// The finished run is drawn at rest (SVG lines, the data tables rendered in
// the background) after it reports done: keep sampling for a while.
await new Promise((r) => setTimeout(r, 15e3));
clearInterval(sampler);
const status = crashed ? '' : await page.getByTestId('run-status').textContent().catch(() => '');
console.log(JSON.stringify({ state: crashed ? 'crashed' : state, wall_s, idle_renderer_MB: idle.renderer / 1024, peak_renderer_MB: maxR / 1024, peak_all_chromium_MB: maxT / 1024, status }));
await browser.close();
