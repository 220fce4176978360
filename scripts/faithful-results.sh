#!/usr/bin/env bash
# The faithful results shipped with the site (issue 27): every guided lab's
# faithful-scale sweep, computed by the native CLI from this engine and
# written to public/results/<lab>.csv, which the guided lab shows at once.
# Each file ends with the engine's identity and results stamp; `npm test`
# (engine-wasm/core/tests/ahead_results.rs) fails when they no longer match
# the engine, so run this again after any change to the engine's results
# (whenever tests/fixtures/digests.json is regenerated) and commit them.
#
#   bash scripts/faithful-results.sh            every lab, on every core
#   bash scripts/faithful-results.sh 9 rtt-fairness   some labs (number or id)
#   JOBS=8 bash scripts/faithful-results.sh     runs in parallel (default: cores)
#
# On 2 cores the whole set takes about 12 minutes (labs 9 and 11 most of it).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export PATH="$HOME/.cargo/bin:$PATH"
(cd "$ROOT/engine-wasm" && cargo build --release --quiet -p sawtooth-cli)
CLI="$ROOT/engine-wasm/target/release/sawtooth"
OUT="$ROOT/public/results"
mkdir -p "$OUT"
JOBS="${JOBS:-$(nproc)}"
# number,id,... from `sawtooth labs`
mapfile -t LABS < <("$CLI" labs | tail -n +2 | cut -d, -f1,2)
for entry in "${LABS[@]}"; do
  number="${entry%%,*}"
  id="${entry#*,}"
  if [ "$#" -gt 0 ]; then
    wanted=0
    for w in "$@"; do [ "$w" = "$number" ] || [ "$w" = "$id" ] && wanted=1; done
    [ "$wanted" = 1 ] || continue
  fi
  start=$(date +%s)
  "$CLI" sweep "$id" --jobs "$JOBS" --out "$OUT/$id.csv.tmp"
  mv "$OUT/$id.csv.tmp" "$OUT/$id.csv"
  printf 'lab %s (%s): %s s, %s bytes\n' "$number" "$id" "$(( $(date +%s) - start ))" "$(wc -c < "$OUT/$id.csv")"
done
