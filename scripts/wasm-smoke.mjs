#!/usr/bin/env node
// Instantiate a built engine package in Node and run a short scenario, to
// check that a wasm file (e.g. after wasm-opt) works before shipping it.
//   node scripts/wasm-smoke.mjs <pkg-dir> [wasm-file]
// Exits non-zero, with the reason, when the module fails to load or run.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const dir = resolve(process.argv[2] ?? 'app/src/engine/pkg');
const wasmPath = resolve(dir, process.argv[3] ?? 'sawtooth_bindings_bg.wasm');
try {
  const m = await import(pathToFileURL(resolve(dir, 'sawtooth_bindings.js')).href);
  m.initSync({ module: readFileSync(wasmPath) });
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
} catch (e) {
  console.error(`[wasm-smoke] ${wasmPath}: ${e?.stack ?? e}`);
  process.exit(1);
}
