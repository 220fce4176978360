#!/usr/bin/env bash
# The whole test suite: engine (cargo test), types, unit tests, build, e2e.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export PATH="$HOME/.cargo/bin:$ROOT/node_modules/.bin:$PATH"
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1

# Each step prints the seconds since the suite began, so a slow step shows in CI's log.
step() { printf '\n== %s (at %d s) ==\n' "$*" "$SECONDS"; }

step "setup"
bash scripts/setup.sh

step "built-in link traces up to date (scripts/traces/generate.mjs)"
node scripts/traces/generate.mjs --check

step "engine: cargo test"
# Run from engine-wasm/ so that engine-wasm/.cargo/config.toml applies (it
# points ts-rs at app/src/engine/generated).
(cd engine-wasm && cargo test --workspace --quiet)
if [ -n "${CI:-}" ] && git rev-parse --git-dir >/dev/null 2>&1; then
  stale="$(git status --porcelain -- app/src/engine/generated)"
  if [ -n "$stale" ]; then
    printf 'The ts-rs types in app/src/engine/generated are not up to date with the engine:\n%s\nRun cargo test in engine-wasm/ and commit them.\n' "$stale" >&2
    exit 1
  fi
fi

step "engine: results bit for bit (every lab's quick sweep, the canonical run)"
# The long part of core/tests/digest.rs, on the debug build just made.
# --workspace, not -p sawtooth-core: the same packages give the same
# features (lab-bindings adds serde_json's float_roundtrip), so nothing is
# compiled again (with -p, a fresh clone rebuilt the core: 53 s).
(cd engine-wasm && cargo test --workspace --quiet --test digest -- --ignored)

step "engine: native CLI (the e2e tests compare the page with it)"
# The CLI's own tests made engine-wasm/target/debug/sawtooth with the
# workspace's features; `cargo build -p sawtooth-cli` would rebuild the core
# with another feature set (58 s on a fresh clone). This only checks it.
(cd engine-wasm && cargo test --workspace --quiet --no-run)
test -x engine-wasm/target/debug/sawtooth

step "engine: wasm package"
bash scripts/build-wasm.sh

step "typecheck"
tsc --noEmit -p tsconfig.json
tsc --noEmit -p tsconfig.node.json

step "import rules (dependency-cruiser: no cycles, no upward imports between app layers)"
depcruise app/src --config .dependency-cruiser.cjs

step "unit tests (vitest)"
vitest run

step "app build (vite)"
vite build --logLevel warn

step "e2e (playwright, Debian chromium)"
playwright test

printf '\n== all tests passed in %d s ==\n' "$SECONDS"
