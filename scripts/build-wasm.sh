#!/usr/bin/env bash
# Build the engine's two wasm-bindgen packages (build artifacts, never
# committed):
#   engine-wasm/bindings     -> app/src/engine/pkg  the single-run engine, all
#                               the lab page loads at first;
#   engine-wasm/lab-bindings -> app/src/guided/pkg    the guided-lab API, loaded
#                               only with the guided-labs view (issue 12).
# Each package is skipped when the sources it is built from are unchanged
# since its last successful build, and checked with a short run in Node
# (scripts/wasm-smoke.mjs).
#
# Environment:
#   SAWTOOTH_SKIP_WASM_OPT=1   do not run wasm-opt on the output.
#   SAWTOOTH_FORCE_WASM=1      rebuild even when sources are unchanged.
#   SAWTOOTH_WASM_PROFILE=dev  build with --dev instead of --release.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export PATH="$HOME/.cargo/bin:$PATH"

PROFILE="${SAWTOOTH_WASM_PROFILE:-release}"
SKIP_OPT="${SAWTOOTH_SKIP_WASM_OPT:-0}"

say() { printf '[build-wasm] %s\n' "$*" >&2; }

# Everything that can change a package: the engine's shared sources and
# manifests, the package's own bindings crate (not the other one's, so that
# editing one does not rebuild both), this script, the smoke test, the tool
# versions and the options.
source_hash() {
  local crate="$1"
  {
    # Every file the wasm build can read (sources, manifests, included data),
    # but not the build output, tests, benches, the native CLI or the
    # bindings crates.
    find engine-wasm \( -path engine-wasm/target -o -path engine-wasm/cli \
        -o -path engine-wasm/bindings -o -path engine-wasm/lab-bindings \
        -o -name tests -o -name benches -o -name bindings -path '*/core/bindings' \) -prune \
      -o -type f -print0 \
      | sort -z | xargs -0 sha256sum
    find "engine-wasm/$crate" -type f -print0 | sort -z | xargs -0 sha256sum
    sha256sum "$0" scripts/wasm-smoke.mjs
    echo "profile=$PROFILE skip_opt=$SKIP_OPT"
    wasm-bindgen --version 2>/dev/null || true
    "$ROOT/node_modules/.bin/wasm-opt" --version 2>/dev/null || wasm-opt --version 2>/dev/null || true
    rustc --version
  } | sha256sum | cut -d' ' -f1
}

# wasm-opt: the npm package `binaryen` (a devDependency) is preferred. Debian
# bookworm's binaryen 108 is too old: it corrupts wasm-bindgen's externref
# table, so a system wasm-opt is used only from version 116 on.
find_wasm_opt() {
  if [ -x "$ROOT/node_modules/.bin/wasm-opt" ]; then echo "$ROOT/node_modules/.bin/wasm-opt"; return; fi
  if command -v wasm-opt >/dev/null; then
    local v
    v="$(wasm-opt --version 2>/dev/null | sed -n 's/^wasm-opt version \([0-9]*\).*/\1/p')"
    if [ -n "$v" ] && [ "$v" -ge 116 ]; then command -v wasm-opt; return; fi
  fi
}

# build_package <crate dir under engine-wasm> <output dir> <module name>
build_package() {
  local crate="$1" out="$2" name="$3"
  local wasm="$out/${name}_bg.wasm" stamp="$out/.build-stamp" hash
  hash="$(source_hash "$crate")"
  if [ "${SAWTOOTH_FORCE_WASM:-0}" != "1" ] && [ -f "$wasm" ] && [ -f "$stamp" ] \
     && [ "$(cat "$stamp")" = "$hash" ]; then
    return 0
  fi

  command -v wasm-pack >/dev/null || { say "wasm-pack missing: run scripts/setup.sh"; exit 1; }

  say "building engine-wasm/$crate ($PROFILE)"
  rm -f "$stamp" "$wasm"
  # --mode no-install: use the wasm-bindgen found on PATH (installed by
  # setup.sh) instead of letting wasm-pack download one. wasm-opt is disabled
  # in the crate's Cargo.toml; we run the one found above below.
  wasm-pack --log-level warn build "engine-wasm/$crate" \
    "--$PROFILE" \
    --target web \
    --mode no-install \
    --no-pack \
    --no-opt \
    --no-gitignore \
    --out-dir "$out" \
    --out-name "$name"
  [ -f "$wasm" ] || { say "wasm-pack did not produce $wasm"; exit 1; }

  # The optimised file is smoke-tested in Node and dropped if it does not work.
  if [ "$SKIP_OPT" != "1" ] && [ "$PROFILE" = "release" ]; then
    local wasm_opt
    wasm_opt="$(find_wasm_opt)"
    if [ -n "$wasm_opt" ]; then
      "$wasm_opt" -O3 \
        --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
        --enable-mutable-globals --enable-multivalue --enable-reference-types \
        "$wasm" -o "$wasm.opt"
      if node "$ROOT/scripts/wasm-smoke.mjs" "$out" "$wasm.opt"; then
        say "wasm-opt: $(stat -c %s "$wasm") -> $(stat -c %s "$wasm.opt") bytes"
        mv "$wasm.opt" "$wasm"
      else
        say "the wasm-opt output failed the smoke test; keeping the unoptimised wasm"
        rm -f "$wasm.opt"
      fi
    else
      say "no usable wasm-opt (npm ci installs one); skipping the wasm-opt pass"
    fi
  fi
  node "$ROOT/scripts/wasm-smoke.mjs" "$out"

  rm -f "$out/.gitignore" "$out/package.json" "$out/README.md"
  printf '%s\n' "$hash" > "$stamp"
  say "wrote $(du -h "$wasm" | cut -f1) $wasm ($(gzip -9c "$wasm" | wc -c) bytes gzipped)"
}

# The two packages build at once, the guided labs' in a target directory of
# its own: they compile the core with different serde_json features anyway
# (lab-bindings adds float_roundtrip), and each ends in a single-threaded
# LTO pass (codegen-units = 1), so one cargo lock would leave a core idle.
build_package bindings "$ROOT/app/src/engine/pkg" sawtooth_bindings &
engine_pid=$!
CARGO_TARGET_DIR="$ROOT/engine-wasm/target/lab-bindings" \
  build_package lab-bindings "$ROOT/app/src/guided/pkg" sawtooth_lab_bindings &
labs_pid=$!
status=0
wait "$engine_pid" || status=$?
wait "$labs_pid" || status=$?
exit "$status"
