#!/usr/bin/env bash
# Cross-check Sawtooth against ns-3 (docs/CROSSCHECK.md).
#
#   scripts/crosscheck/run.sh [crosscheck.py options: --seeds 1,2,3 --only REGEX --out DIR]
#
# Creates scripts/crosscheck/.venv with ns-3's Python bindings from PyPI when
# it is missing (idempotent), finds the sawtooth CLI ($SAWTOOTH_BIN, else
# engine-wasm/target/release/sawtooth, else builds it with cargo), runs every
# scenario in both simulators and writes scripts/crosscheck/out/results.md.
# Not part of npm test: it installs ns-3 and takes a few minutes on 2 cores.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
venv="$here/.venv"
# The ns-3 release the cross-check was written against; NS3_VERSION=
# overrides it (an empty value takes whatever PyPI serves).
ns3_version="${NS3_VERSION-3.44.post0}"

python="${PYTHON:-python3}"
# pip builds part of cppyy (ns-3's bindings) from source, and cling parses
# the system's C++ headers when ns-3 is imported.
command -v c++ >/dev/null || { echo "ns-3's bindings need a C++ compiler (c++)" >&2; exit 1; }
if ! "$venv/bin/python" -c 'import importlib.metadata as m; m.version("ns3")' >/dev/null 2>&1; then
    echo "creating $venv with ns-3 from PyPI (one time; about 500 MB)" >&2
    "$python" -m venv "$venv"
    if [ -n "$ns3_version" ]; then
        "$venv/bin/pip" install --quiet "ns3==$ns3_version"
    else
        "$venv/bin/pip" install --quiet ns3
    fi
fi

exec "$python" "$here/crosscheck.py" --python "$venv/bin/python" "$@"
