#!/usr/bin/env bash
# Idempotent toolchain setup for Sawtooth. Quiet when everything is present;
# each step runs only when its tool is missing or stale.
#
# Environment:
#   SAWTOOTH_SKIP_WASM_OPT=1   (read by build-wasm.sh) skip the wasm-opt pass;
#                              wasm-opt itself comes with npm ci (binaryen).
#   SAWTOOTH_SKIP_BROWSER=1    do not install Debian's chromium (no e2e tests).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

export DEBIAN_FRONTEND=noninteractive
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
export PATH="$HOME/.cargo/bin:$PATH"

say() { printf '[setup] %s\n' "$*" >&2; }
die() { printf '[setup] error: %s\n' "$*" >&2; exit 1; }

need_sudo() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

# ---------------------------------------------------------------- node deps
command -v node >/dev/null || die "node is not installed (Node >= 20.19 is required)"
command -v npm >/dev/null || die "npm is not installed"

LOCK_HASH="$(sha256sum package-lock.json package.json | sha256sum | cut -d' ' -f1)"
STAMP="node_modules/.sawtooth-lock-hash"
if [ ! -d node_modules ] || [ ! -f "$STAMP" ] || [ "$(cat "$STAMP")" != "$LOCK_HASH" ]; then
  say "installing npm dependencies (npm ci)"
  npm ci --no-audit --no-fund --loglevel=error
  printf '%s\n' "$LOCK_HASH" > "$STAMP"
fi

# ---------------------------------------------------------------- rust
command -v cargo >/dev/null || die "cargo is not installed (install Rust with rustup)"
if command -v rustup >/dev/null; then
  if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
    say "adding rust target wasm32-unknown-unknown"
    rustup target add wasm32-unknown-unknown
  fi
fi

if ! command -v wasm-pack >/dev/null; then
  say "installing wasm-pack (cargo install, takes a few minutes)"
  # --debug: an unoptimised build installs in about a third of the time on
  # two cores, and wasm-pack's own speed does not matter.
  cargo install wasm-pack --locked --debug || cargo install wasm-pack --debug
fi

# wasm-bindgen-cli must match the wasm-bindgen crate version in Cargo.lock exactly.
LOCKFILE="engine-wasm/Cargo.lock"
if [ ! -f "$LOCKFILE" ]; then
  say "resolving engine-wasm dependencies (no Cargo.lock yet)"
  cargo metadata --format-version 1 --manifest-path engine-wasm/Cargo.toml >/dev/null
fi
WB_VERSION="$(awk '
  $0 == "name = \"wasm-bindgen\"" { found = 1; next }
  found && /^version = / { gsub(/"/, "", $3); print $3; exit }
  /^\[\[package\]\]/ { found = 0 }
' "$LOCKFILE")"
[ -n "$WB_VERSION" ] || die "could not find the wasm-bindgen version in $LOCKFILE"
HAVE_WB="$( (wasm-bindgen --version 2>/dev/null || true) | awk '{print $2}')"
if [ "$HAVE_WB" != "$WB_VERSION" ]; then
  say "installing wasm-bindgen-cli $WB_VERSION (have: ${HAVE_WB:-none}; takes a few minutes)"
  # Note: --locked fails for wasm-bindgen-cli on some registry mirrors.
  # --debug halves the install on two cores; it processes our ~400 KB module
  # in seconds either way.
  cargo install wasm-bindgen-cli --version "$WB_VERSION" --force --debug
fi

# ---------------------------------------------------------------- apt packages
# Debian's chromium for the Playwright tests (Playwright never downloads one).
# wasm-opt comes from the npm package `binaryen` (Debian's binaryen is too old
# for wasm-bindgen's output).
if [ "${SAWTOOTH_SKIP_BROWSER:-0}" != "1" ] && [ ! -x /usr/bin/chromium ]; then
  command -v apt-get >/dev/null || die "/usr/bin/chromium is missing and apt-get is not available; install Chromium by hand"
  say "installing chromium with apt-get"
  need_sudo apt-get update -qq
  need_sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi

exit 0
