#!/usr/bin/env node
// Instantiate a built engine package in Node and exercise it briefly, to
// check that a wasm file (e.g. after wasm-opt) works before shipping it.
//   node scripts/wasm-smoke.mjs <pkg-dir> [wasm-file]
// The package is found by its one `<name>.js` + `<name>_bg.wasm` pair:
// the single-run engine (app/src/engine/pkg) runs a short scenario and must
// not carry the guided labs; the guided-lab engine (app/src/guided/pkg) lists
// its labs and runs one point of a sweep.
// Exits non-zero, with the reason, when the module fails to load or run.
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(fileURLToPath(import.meta.url), '../..');
const dir = resolve(process.argv[2] ?? 'app/src/engine/pkg');

function packageName() {
  const names = readdirSync(dir)
    .filter((f) => f.endsWith('_bg.wasm'))
    .map((f) => f.slice(0, -'_bg.wasm'.length));
  if (names.length !== 1) throw new Error(`expected one *_bg.wasm in ${dir}, found ${names.length}`);
  return names[0];
}

// A short run of the default scenario, drained the way the page's worker does.
function checkSingleRun(m, wasmBytes) {
  const scenario = JSON.parse(m.default_scenario_json());
  scenario.duration_ms = 500;
  const sim = new m.RawSimulation(JSON.stringify(scenario));
  const cols = JSON.parse(sim.sample_columns()).length;
  let done = false;
  let rows = 0;
  for (let i = 0; !done && i < 10_000; i++) {
    done = sim.advance(sim.now_ns() + 100e6);
    rows += sim.drain_samples().length / cols;
    sim.drain_events();
  }
  const summary = JSON.parse(sim.summary_json());
  sim.free();
  if (!done || rows === 0 || !(summary.total_throughput_bps >= 0)) throw new Error(`bad run: done=${done} rows=${rows}`);
  const errors = JSON.parse(m.validate_scenario('{"version":1}')).errors;
  if (!Array.isArray(errors) || errors.length === 0) throw new Error('validate_scenario accepted an empty scenario');
  // The split's point (issue 12): the labs stay out of the first load. The
  // exports say the API is gone; the absence of the embedded labs.json text
  // says the linker dropped its data too.
  if ('labs_json' in m) throw new Error('the single-run package exports the guided-lab API');
  const labsHead = readFileSync(resolve(root, 'engine-wasm/core/labs/labs.json')).subarray(0, 256);
  if (Buffer.from(wasmBytes).indexOf(labsHead) >= 0) throw new Error('the single-run package embeds labs.json');
}

// The lab catalogue, one sweep's expansion and the run of its cheapest point.
function checkLabs(m) {
  const labs = JSON.parse(m.labs_json()).labs;
  if (!Array.isArray(labs) || labs.length === 0) throw new Error('labs_json lists no labs');
  JSON.parse(m.paper_json());
  const lab = labs[0].id;
  const points = JSON.parse(m.lab_points_json(lab, true));
  if (!Array.isArray(points) || points.length === 0) throw new Error(`lab ${lab} has no points`);
  // The shortest run keeps the check quick whatever the lab's sweep holds.
  const cost = (p) => p.scenario.duration_ms * p.scenario.hosts.reduce((a, h) => a + h.flows.length, 0);
  const cheapest = points.reduce((best, p, i) => (cost(p) < cost(points[best]) ? i : best), 0);
  const result = JSON.parse(m.run_lab_point_json(lab, true, cheapest));
  if (typeof result !== 'object' || result === null) throw new Error(`point ${cheapest} of ${lab} returned ${result}`);
  JSON.parse(m.compare_lab_json(lab, JSON.stringify([result])));
}

let wasmPath = '(unknown)';
try {
  const name = packageName();
  wasmPath = resolve(dir, process.argv[3] ?? `${name}_bg.wasm`);
  const m = await import(pathToFileURL(resolve(dir, `${name}.js`)).href);
  const bytes = readFileSync(wasmPath);
  m.initSync({ module: bytes });
  if ('RawSimulation' in m) checkSingleRun(m, bytes);
  else if ('labs_json' in m) checkLabs(m);
  else throw new Error(`${name}.js is neither the single-run nor the guided-lab engine`);
} catch (e) {
  console.error(`[wasm-smoke] ${wasmPath}: ${e?.stack ?? e}`);
  process.exit(1);
}
