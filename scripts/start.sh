#!/usr/bin/env bash
# Build what is needed and serve the app with Vite's dev server.
#   PORT (default 5173), HOST (default 127.0.0.1; use 0.0.0.0 to expose it)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export PATH="$HOME/.cargo/bin:$ROOT/node_modules/.bin:$PATH"
export SAWTOOTH_SKIP_BROWSER="${SAWTOOTH_SKIP_BROWSER:-1}"

bash scripts/setup.sh
bash scripts/build-wasm.sh

PORT="${PORT:-5173}"
HOST="${HOST:-127.0.0.1}"
printf '\nSawtooth is starting at http://%s:%s/\n\n' "$HOST" "$PORT"
exec vite --host "$HOST" --port "$PORT" --strictPort
