#!/usr/bin/env node
// The faithful time of every guided lab natively (issue 12): `sawtooth sweep
// <lab> --jobs <cores>` at the paper's scale, one lab after another, wall
// time and CPU time (user + system, read by /usr/bin/time where there is
// one). The CSV goes nowhere; only the times are printed, as a Markdown table.
// Usage: node scripts/bench-labs.mjs (builds the CLI in release).
// Env: BENCH_LABS (comma-separated lab ids; default: all), BENCH_LABS_QUICK=1
// (the quick scale instead), BENCH_LABS_JOBS (default: the number of cores),
// BENCH_LABS_NO_BUILD=1 (use the CLI binary as it is).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(import.meta.url), '../..');
const cli = join(root, 'engine-wasm/target/release/sawtooth');
if (process.env.BENCH_LABS_NO_BUILD !== '1') {
  execFileSync('cargo', ['build', '--release', '-q', '-p', 'sawtooth-cli'], { cwd: join(root, 'engine-wasm'), stdio: 'inherit' });
}
const quick = process.env.BENCH_LABS_QUICK === '1';
const jobs = Number(process.env.BENCH_LABS_JOBS ?? cpus().length);
const gnuTime = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;

// `sawtooth labs`: number,id,title,runs_quick,runs_full,simulated_s_quick,simulated_s_full (titles may be quoted).
const listing = execFileSync(cli, ['labs'], { encoding: 'utf8' }).trim().split('\n').slice(1);
const labs = listing.map((line) => {
  const [number, id] = line.split(',');
  const tail = line.split(',').slice(-4).map(Number);
  return { number: Number(number), id, runs: quick ? tail[0] : tail[1], simulatedS: quick ? tail[2] : tail[3] };
});
const wanted = process.env.BENCH_LABS?.split(',').filter(Boolean);
const chosen = wanted ? labs.filter((l) => wanted.includes(l.id) || wanted.includes(String(l.number))) : labs;

const s = (ms) => (ms >= 60_000 ? `${(ms / 60_000).toFixed(1)} min` : `${(ms / 1000).toFixed(2)} s`);
console.log(`guided labs natively, ${quick ? 'quick' : 'faithful'} scale, \`sawtooth sweep <lab>${quick ? ' --quick' : ''} --jobs ${jobs}\`; ${cpus().length} cores, load average ${loadavg()[0].toFixed(2)} at the start`);
console.log('');
console.log('| lab | runs | simulated | wall | CPU |');
console.log('|---|---|---|---|---|');
for (const lab of chosen) {
  const args = ['sweep', lab.id, ...(quick ? ['--quick'] : []), '--jobs', String(jobs)];
  const t0 = process.hrtime.bigint();
  const r = gnuTime
    ? spawnSync(gnuTime, ['-f', 'cpu %U %S', cli, ...args], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8', maxBuffer: 1 << 26 })
    : spawnSync(cli, args, { stdio: ['ignore', 'ignore', 'inherit'] });
  const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${lab.id}: sawtooth sweep exited ${r.status}: ${r.stderr ?? ''}`);
  const m = gnuTime ? /cpu ([\d.]+) ([\d.]+)/.exec(r.stderr) : null;
  const cpu = m ? s((Number(m[1]) + Number(m[2])) * 1000) : 'n/a';
  console.log(`| ${lab.number}. ${lab.id} | ${lab.runs} | ${lab.simulatedS} s | ${s(wallMs)} | ${cpu} |`);
}
