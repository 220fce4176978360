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
