#!/bin/bash
# What the native build adds to `pip install`: `pip install --quiet -e .` of a fresh copy of
# this checkout (src, native, setup.py, pyproject.toml, README.md; no built extension) into a
# fresh venv, once with the native core built and once with CARDROOM_PURE=1 (nothing built),
# ROUNDS times each (default 1), alternating. Prints wall and CPU seconds (pip and every
# process it waited for: the build backend, the compiler) and the load average around each.
# The core's dependencies come from pip's cache when it is warm (run it once first).
# Usage: benchmarks/install_time.sh [ROUNDS]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
one() {  # $1: native or pure
  rm -rf "$WORK/copy" "$WORK/venv"
  mkdir -p "$WORK/copy"
  cp -r "$ROOT/src" "$ROOT/native" "$ROOT/setup.py" "$ROOT/pyproject.toml" "$ROOT/README.md" "$WORK/copy/"
  find "$WORK/copy" \( -name '*.so' -o -name '*.egg-info' -o -name __pycache__ \) -prune -exec rm -rf {} +
  python3 -m venv "$WORK/venv"
  local pure=0
  [ "$1" = pure ] && pure=1
  echo "$1: load before $(cut -d' ' -f1-3 /proc/loadavg)"
  CARDROOM_PURE=$pure /usr/bin/time -f "$1: pip install -e . took %e s wall, %U s user + %S s sys CPU" \
    timeout 600 "$WORK/venv/bin/python" -m pip install --quiet -e "$WORK/copy" 2>&1 | grep -v '^WARNING: Location' || true
  echo "$1: load after $(cut -d' ' -f1-3 /proc/loadavg); $("$WORK/venv/bin/cardroom" --version)"
}
for _ in $(seq "${1:-1}"); do
  one native
  one pure
done
