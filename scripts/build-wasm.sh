#!/usr/bin/env bash
# Build the engine's wasm-bindgen package into app/src/engine/pkg (a build
# artifact, never committed). Skips the build when the engine sources are
# unchanged since the last successful build, and checks the result with a
# short run in Node (scripts/wasm-smoke.mjs).
#
# Environment:
#   SAWTOOTH_SKIP_WASM_OPT=1   do not run wasm-opt on the output.
#   SAWTOOTH_FORCE_WASM=1      rebuild even when sources are unchanged.
#   SAWTOOTH_WASM_PROFILE=dev  build with --dev instead of --release.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export PATH="$HOME/.cargo/bin:$PATH"

OUT="$ROOT/app/src/engine/pkg"
WASM="$OUT/sawtooth_bindings_bg.wasm"
STAMP="$OUT/.build-stamp"
PROFILE="${SAWTOOTH_WASM_PROFILE:-release}"
SKIP_OPT="${SAWTOOTH_SKIP_WASM_OPT:-0}"

say() { printf '[build-wasm] %s\n' "$*" >&2; }

# Everything that can change the output: engine sources and manifests, this
# script, the tool versions and the options.
source_hash() {
  {
    # Every file the wasm build can read (sources, manifests, included data),
    # but not the build output, tests, benches or the native CLI.
    find engine-wasm \( -path engine-wasm/target -o -path engine-wasm/cli \
        -o -name tests -o -name benches -o -name bindings -path '*/core/bindings' \) -prune \
      -o -type f -print0 \
      | sort -z | xargs -0 sha256sum
    sha256sum "$0"
    echo "profile=$PROFILE skip_opt=$SKIP_OPT"
    wasm-bindgen --version 2>/dev/null || true
    "$ROOT/node_modules/.bin/wasm-opt" --version 2>/dev/null || wasm-opt --version 2>/dev/null || true
    rustc --version
  } | sha256sum | cut -d' ' -f1
}

HASH="$(source_hash)"
if [ "${SAWTOOTH_FORCE_WASM:-0}" != "1" ] && [ -f "$WASM" ] && [ -f "$STAMP" ] \
   && [ "$(cat "$STAMP")" = "$HASH" ]; then
  exit 0
fi

command -v wasm-pack >/dev/null || { say "wasm-pack missing: run scripts/setup.sh"; exit 1; }

say "building engine-wasm/bindings ($PROFILE)"
rm -f "$STAMP"
# --mode no-install: use the wasm-bindgen found on PATH (installed by setup.sh)
# instead of letting wasm-pack download one. wasm-opt is disabled in the
# bindings crate's Cargo.toml; we run the system one below.
rm -f "$WASM"
wasm-pack --log-level warn build engine-wasm/bindings \
  "--$PROFILE" \
  --target web \
  --mode no-install \
  --no-pack \
  --no-opt \
  --no-gitignore \
  --out-dir "$OUT" \
  --out-name sawtooth_bindings
[ -f "$WASM" ] || { say "wasm-pack did not produce $WASM"; exit 1; }

# wasm-opt: the npm package `binaryen` (a devDependency) is preferred. Debian
# bookworm's binaryen 108 is too old: it corrupts wasm-bindgen's externref
# table, so a system wasm-opt is used only from version 116 on. The optimised
# file is smoke-tested in Node and dropped if it does not work.
find_wasm_opt() {
  if [ -x "$ROOT/node_modules/.bin/wasm-opt" ]; then echo "$ROOT/node_modules/.bin/wasm-opt"; return; fi
  if command -v wasm-opt >/dev/null; then
    local v
    v="$(wasm-opt --version 2>/dev/null | sed -n 's/^wasm-opt version \([0-9]*\).*/\1/p')"
    if [ -n "$v" ] && [ "$v" -ge 116 ]; then command -v wasm-opt; return; fi
  fi
}
if [ "$SKIP_OPT" != "1" ] && [ "$PROFILE" = "release" ]; then
  WASM_OPT="$(find_wasm_opt)"
  if [ -n "$WASM_OPT" ]; then
    "$WASM_OPT" -O3 \
      --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
      --enable-mutable-globals --enable-multivalue --enable-reference-types \
      "$WASM" -o "$WASM.opt"
    if node "$ROOT/scripts/wasm-smoke.mjs" "$OUT" "$WASM.opt"; then
      say "wasm-opt: $(stat -c %s "$WASM") -> $(stat -c %s "$WASM.opt") bytes"
      mv "$WASM.opt" "$WASM"
    else
      say "the wasm-opt output failed the smoke test; keeping the unoptimised wasm"
      rm -f "$WASM.opt"
    fi
  else
    say "no usable wasm-opt (npm ci installs one); skipping the wasm-opt pass"
  fi
fi
node "$ROOT/scripts/wasm-smoke.mjs" "$OUT"

rm -f "$OUT/.gitignore" "$OUT/package.json" "$OUT/README.md"
printf '%s\n' "$HASH" > "$STAMP"
say "wrote $(du -h "$WASM" | cut -f1) $WASM"
