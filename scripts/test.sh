#!/usr/bin/env bash
# The whole test suite: engine (cargo test), types, unit tests, build, e2e.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export PATH="$HOME/.cargo/bin:$ROOT/node_modules/.bin:$PATH"
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1

step() { printf '\n== %s ==\n' "$*"; }

step "setup"
bash scripts/setup.sh

step "engine: cargo test"
cargo test --manifest-path engine-wasm/Cargo.toml --workspace --quiet

step "engine: wasm package"
bash scripts/build-wasm.sh

step "typecheck"
tsc --noEmit -p tsconfig.json
tsc --noEmit -p tsconfig.node.json

step "unit tests (vitest)"
vitest run

step "app build (vite)"
vite build --logLevel warn

step "e2e (playwright, Debian chromium)"
playwright test
