#!/usr/bin/env node
// How soon a guided lab shows its faithful results computed ahead (issue 27):
// for every lab, open `?lab=<id>&quick=0` in Chromium on the production build
// and time from the page's `load` event to `data-lab-state="done"` (the
// shipped file fetched, checked by the engine in the lab service's worker,
// compared with the paper and drawn). Prints a Markdown table.
// Usage: node scripts/bench-ahead.mjs (builds the app into a temp dir;
// BENCH_AHEAD_DIST=<dir> uses a build as it is). Needs public/results/
// (scripts/faithful-results.sh).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright';
import { build, preview } from 'vite';

const root = resolve(fileURLToPath(import.meta.url), '../..');
let outDir = process.env.BENCH_AHEAD_DIST;
if (!outDir) {
  outDir = mkdtempSync(join(tmpdir(), 'sawtooth-bench-ahead-'));
  await build({ configFile: join(root, 'vite.config.ts'), build: { outDir, emptyOutDir: true }, logLevel: 'warn' });
}
const port = 4700 + Math.floor(Math.random() * 200);
const server = await preview({ configFile: join(root, 'vite.config.ts'), preview: { port, strictPort: true, host: '127.0.0.1' }, build: { outDir }, logLevel: 'warn' });
const base = `http://127.0.0.1:${port}/`;
const cli = join(root, 'engine-wasm/target/release/sawtooth');
const labs = execFileSync(cli, ['labs'], { encoding: 'utf8' })
  .trim()
  .split('\n')
  .slice(1)
  .map((line) => {
    const [number, id] = line.split(',');
    return { number: Number(number), id, runs: Number(line.split(',').slice(-3)[0]) };
  });

const browser = await chromium.launch({
  executablePath: process.env.SAWTOOTH_CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
});
console.log(`faithful results computed ahead, from the page's load event to \`data-lab-state="done"\`; production build, Chromium, ${cpus().length} cores, load average ${loadavg()[0].toFixed(2)} at the start`);
console.log('');
console.log('| lab | runs | file | shown after |');
console.log('|---|---|---|---|');
let worst = 0;
for (const lab of labs) {
  const page = await browser.newPage();
  await page.goto(`${base}?lab=${lab.id}&quick=0`, { waitUntil: 'load' });
  const t0 = await page.evaluate(() => performance.timing.loadEventEnd - performance.timing.navigationStart);
  await page.waitForFunction(() => document.querySelector('[data-testid="guided-lab"]')?.getAttribute('data-lab-state') === 'done', null, { timeout: 60_000 });
  const t1 = await page.evaluate(() => performance.now());
  const ahead = await page.evaluate(() => window.sawtooth?.lab()?.imported?.ahead ?? false);
  const ms = t1 - t0;
  worst = Math.max(worst, ms);
  const kb = statSync(join(root, 'public/results', `${lab.id}.csv`)).size / 1024;
  console.log(`| ${lab.number} ${lab.id} | ${lab.runs} | ${kb.toFixed(0)} KiB | ${ahead ? `${(ms / 1000).toFixed(2)} s` : 'not shown'} |`);
  await page.close();
}
console.log('');
console.log(`worst: ${(worst / 1000).toFixed(2)} s`);
await browser.close();
await server.close();
