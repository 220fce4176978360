#!/usr/bin/env node
// Guided-lab sweeps, browser vs native, side by side in one run (issue 12:
// "a guided lab's sweep in the browser within 1.5× of `sawtooth sweep`
// natively on the same number of cores"). For each lab:
//   native:  `sawtooth sweep <lab> [--quick] --jobs <workers>` (wall time of
//            the process, CSV discarded);
//   browser: the production build in Chromium, ?lab=<lab>; from the click on
//            Run to window.sawtooth.lab().state === 'done' (the pool's
//            workers have loaded the engine before the click, as they have
//            when a student reads the guide first).
// Each is timed BENCH_SWEEP_REPS times (default 3), browser and native in
// turn; reported: best against best (noise only ever adds time) and the
// median ratio of the pairs run back to back (the cores are shared), and
// where the CPU time went: the native process's, and the browser's by
// thread (the workers that run the engine, the page's main thread, V8's
// compilers and GC with the raster threads), which does not depend on the
// machine's load the way wall time does.
// Usage: node scripts/bench-sweep.mjs   (the lab wasm package must exist:
// bash scripts/build-wasm.sh; builds the CLI in release and the app into a
// temp dir). Env: BENCH_SWEEP_LABS (two-to-one,txqueuelen-two-to-one),
// BENCH_SWEEP_FULL=1 (the faithful scale instead of --quick), BENCH_SWEEP_REPS,
// BENCH_SWEEP_NO_BUILD=1 (use the CLI binary as it is: the wasm and the CLI
// must then come from the same engine sources), BENCH_SWEEP_CLI (another CLI
// binary, not built), BENCH_SWEEP_DIST (serve this built app instead),
// BENCH_SWEEP_PORT (4392), SAWTOOTH_CHROMIUM (/usr/bin/chromium).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { build, preview } from 'vite';

const root = resolve(fileURLToPath(import.meta.url), '../..');
const labs = (process.env.BENCH_SWEEP_LABS ?? 'two-to-one,txqueuelen-two-to-one').split(',').filter(Boolean);
const quick = process.env.BENCH_SWEEP_FULL !== '1';
const reps = Math.max(1, Number(process.env.BENCH_SWEEP_REPS ?? 3));
const port = Number(process.env.BENCH_SWEEP_PORT ?? 4392);
const progress = (m) => process.env.BENCH_SWEEP_VERBOSE && console.error(`[bench-sweep] ${m}`);

// ---- CPU time by thread, where it goes (Linux /proc; empty elsewhere).
// Chromium's renderer threads, by name: DedicatedWorker (the pool's workers
// and the lab service worker, where the engine runs), the page's main
// thread (named after the process), ThreadPoolForeground (V8's background
// compilers and GC, raster), Compositor. CPU time is what the threads
// used, so it does not depend on how loaded the machine was.
const TICK_MS = 10;
function rendererThreadTicks() {
  const ticks = new Map();
  let pids = [];
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return ticks;
  }
  for (const pid of pids) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!cmd.includes('--type=renderer')) continue;
      for (const tid of readdirSync(`/proc/${pid}/task`)) {
        const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
        const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        ticks.set(`${pid}.${tid}`, { name, ticks: Number(fields[11]) + Number(fields[12]) });
      }
    } catch {
      // the process or thread ended meanwhile
    }
  }
  return ticks;
}
const THREAD_GROUPS = [
  ['workers', (n) => n.startsWith('DedicatedWorker')],
  ['page', (n) => n === 'chromium' || n.startsWith('CrRendererMain')],
  ['V8 and raster pool', (n) => n.startsWith('ThreadPool')],
];
/** CPU ms by thread group between two snapshots. */
function cpuByGroup(before, after) {
  const out = Object.fromEntries([...THREAD_GROUPS.map(([g]) => [g, 0]), ['other', 0]]);
  for (const [id, { name, ticks }] of after) {
    const d = ticks - (before.get(id)?.ticks ?? 0);
    if (d <= 0) continue;
    const group = THREAD_GROUPS.find(([, match]) => match(name))?.[0] ?? 'other';
    out[group] += d * TICK_MS;
  }
  return out;
}
/** A native child's CPU time (user + system), read by /usr/bin/time where there is one. */
const gnuTime = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;

// ---- native: the CLI in release, from this tree
const cli = process.env.BENCH_SWEEP_CLI ?? join(root, 'engine-wasm/target/release/sawtooth');
if (process.env.BENCH_SWEEP_NO_BUILD === '1' || process.env.BENCH_SWEEP_CLI) {
  if (!existsSync(cli)) throw new Error(`BENCH_SWEEP_NO_BUILD=1 but there is no ${cli}`);
} else {
  progress('building the CLI');
  execFileSync('cargo', ['build', '--release', '-q', '-p', 'sawtooth-cli'], { cwd: join(root, 'engine-wasm'), stdio: 'inherit' });
}

// A prebuilt app (BENCH_SWEEP_DIST) is served as it is, e.g. an older commit's build for a before/after.
const prebuilt = process.env.BENCH_SWEEP_DIST;
const outDir = prebuilt ?? mkdtempSync(join(tmpdir(), 'sawtooth-bench-sweep-'));
let server;
let browser;
try {
  progress('building the app');
  if (!prebuilt) await build({ configFile: join(root, 'vite.config.ts'), build: { outDir, emptyOutDir: true }, logLevel: 'warn' });
  server = await preview({ configFile: join(root, 'vite.config.ts'), preview: { port, strictPort: true, host: '127.0.0.1' }, build: { outDir }, logLevel: 'warn' });
  browser = await chromium.launch({
    executablePath: process.env.SAWTOOTH_CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-timer-throttling', '--disable-renderer-backgrounding'],
  });

  /** One browser sweep in a fresh context (no results restored from sessionStorage): [ms, workers, runs]. */
  const browserSweep = async (lab) => {
    const ctx = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    try {
      const page = await ctx.newPage();
      const errors = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(`http://127.0.0.1:${port}/?lab=${lab}${quick ? '' : '&quick=0'}`);
      await page.waitForFunction(() => window.sawtooth?.lab()?.state === 'idle', null, { timeout: 60_000 });
      // Let the pool's workers finish loading the engine (they start with the view).
      await page.waitForTimeout(1500);
      const cpu0 = rendererThreadTicks();
      const t0 = Date.now();
      await page.getByTestId('lab-run').click();
      // Polls the view's attribute, not window.sawtooth.lab(), which copies every point's scenario.
      await page.waitForFunction(() => ['done', 'error', 'cancelled'].includes(document.querySelector('[data-testid=guided-lab]')?.getAttribute('data-lab-state')), null, {
        timeout: 30 * 60_000,
        polling: 20,
      });
      const ms = Date.now() - t0;
      const cpu = cpuByGroup(cpu0, rendererThreadTicks());
      const s = await page.evaluate(() => window.sawtooth.lab());
      // How much of the sweep the workers spent inside the engine's calls:
      // each point's time in its worker, kept with the results for this tab.
      const pointMs = await page.evaluate(() => {
        let sum = 0;
        for (let i = 0; i < sessionStorage.length; i++) {
          const saved = JSON.parse(sessionStorage.getItem(sessionStorage.key(i)) ?? 'null');
          for (const r of saved?.results ?? []) sum += r.wallMs ?? 0;
        }
        return sum;
      });
      cpu.busy = pointMs / (ms * s.workers);
      if (s.state !== 'done' || s.failed > 0) throw new Error(`${lab}: the browser sweep ended ${s.state} with ${s.failed} failed points (${errors.join('; ')})`);
      return [ms, s.workers, s.total, cpu];
    } finally {
      await ctx.close();
    }
  };

  const rows = [];
  for (const lab of labs) {
    let workers = 0;
    let runs = 0;
    const b = [];
    const n = [];
    const browserCpu = [];
    const nativeCpu = [];
    // Native and browser alternate, so that both see the same load on shared cores.
    for (let i = 0; i < reps; i++) {
      progress(`${lab}: browser ${i + 1}/${reps}`);
      const [ms, w, count, cpu] = await browserSweep(lab);
      b.push(ms);
      browserCpu.push(cpu);
      workers = w;
      runs = count;
      progress(`${lab}: native ${i + 1}/${reps}`);
      const t0 = process.hrtime.bigint();
      const args = ['sweep', lab, ...(quick ? ['--quick'] : []), '--jobs', String(workers)];
      const r = gnuTime
        ? spawnSync(gnuTime, ['-f', 'cpu %U %S', cli, ...args], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' })
        : spawnSync(cli, args, { stdio: ['ignore', 'ignore', 'inherit'] });
      if (r.status !== 0) throw new Error(`${lab}: sawtooth sweep exited ${r.status} ${r.stderr ?? ''}`);
      n.push(Number(process.hrtime.bigint() - t0) / 1e6);
      const m = gnuTime ? /cpu ([\d.]+) ([\d.]+)/.exec(r.stderr) : null;
      if (m) nativeCpu.push((Number(m[1]) + Number(m[2])) * 1000);
    }
    const paired = b.map((ms, i) => ms / n[i]).sort((x, y) => x - y);
    const medianOf = (xs) => [...xs].sort((x, y) => x - y)[Math.floor((xs.length - 1) / 2)];
    const busy = medianOf(browserCpu.map((c) => c.busy));
    for (const c of browserCpu) delete c.busy;
    const cpu = Object.fromEntries(Object.keys(browserCpu[0]).map((g) => [g, medianOf(browserCpu.map((c) => c[g]))]));
    rows.push({ lab, runs, workers, native: Math.min(...n), browser: Math.min(...b), nativeAll: n, browserAll: b, pairedMedian: paired[Math.floor((paired.length - 1) / 2)], cpu, busy, nativeCpu: nativeCpu.length ? medianOf(nativeCpu) : null });
  }
  const s = (ms) => `${(ms / 1000).toFixed(2)} s`;
  console.log(`guided-lab sweeps, ${quick ? 'quick' : 'faithful'} scale, best of ${reps}; ${cpus().length} cores, load average ${loadavg()[0].toFixed(2)} at the end`);
  for (const r of rows) {
    console.log(
      `${r.lab}: ${r.runs} runs on ${r.workers} workers — native ${s(r.native)}, browser ${s(r.browser)}, browser/native ${(r.browser / r.native).toFixed(2)}× best to best, ${r.pairedMedian.toFixed(2)}× median of the paired runs ` +
        `(native ${r.nativeAll.map(s).join(', ')}; browser ${r.browserAll.map(s).join(', ')})`,
    );
    const total = Object.values(r.cpu).reduce((a, x) => a + x, 0);
    console.log(
      `  CPU time (median): native ${r.nativeCpu === null ? 'n/a' : s(r.nativeCpu)}; browser ${s(total)} = ` +
        Object.entries(r.cpu)
          .map(([g, ms]) => `${g} ${s(ms)}`)
          .join(', ') +
        (r.nativeCpu ? `; the workers alone ${(r.cpu.workers / r.nativeCpu).toFixed(2)}× native` : '') +
        `; the workers were inside a point ${(100 * r.busy).toFixed(0)} % of the sweep`,
    );
  }
} finally {
  await browser?.close();
  await new Promise((res) => (server ? server.httpServer.close(res) : res()));
  if (!prebuilt) rmSync(outDir, { recursive: true, force: true });
}
