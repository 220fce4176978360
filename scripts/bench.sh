#!/usr/bin/env bash
# Engine benchmarks: native criterion bench, then the wasm bench (when present).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export PATH="$HOME/.cargo/bin:$ROOT/node_modules/.bin:$PATH"

bash scripts/setup.sh
(cd engine-wasm && cargo bench -p sawtooth-core --bench engine "$@")

if [ -f scripts/bench-wasm.mjs ]; then
  bash scripts/build-wasm.sh
  node scripts/bench-wasm.mjs
fi

# Lab page in Chromium: slider change → charts, playback frame rate, initial
# JS + wasm size (scripts/bench-ui.mjs; builds the app into a temp dir).
if [ -f scripts/bench-ui.mjs ] && [ -z "${SAWTOOTH_SKIP_BENCH_UI:-}" ]; then
  bash scripts/build-wasm.sh
  node scripts/bench-ui.mjs
fi

# Guided-lab sweeps, browser vs `sawtooth sweep` natively on as many cores
# (scripts/bench-sweep.mjs; builds the CLI in release and the app into a temp dir).
if [ -f scripts/bench-sweep.mjs ] && [ -z "${SAWTOOTH_SKIP_BENCH_SWEEP:-}" ]; then
  bash scripts/build-wasm.sh
  node scripts/bench-sweep.mjs
fi

# How soon each guided lab shows its faithful results computed ahead
# (scripts/bench-ahead.mjs; builds the app into a temp dir).
if [ -f scripts/bench-ahead.mjs ] && [ -z "${SAWTOOTH_SKIP_BENCH_AHEAD:-}" ]; then
  bash scripts/build-wasm.sh
  (cd engine-wasm && cargo build --release -q -p sawtooth-cli)
  node scripts/bench-ahead.mjs
fi

# The faithful time of every guided lab natively (scripts/bench-labs.mjs;
# about half an hour on 2 cores: labs 9 and 11 take most of it).
if [ -f scripts/bench-labs.mjs ] && [ -z "${SAWTOOTH_SKIP_BENCH_LABS:-}" ]; then
  node scripts/bench-labs.mjs
fi
