#!/usr/bin/env bash
# Set up RelGuard with its test dependencies and run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh dev
# The browser test drives Debian's chromium through Playwright (never a downloaded browser build).
command -v chromium >/dev/null || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium)
.venv/bin/ruff check .
.venv/bin/ruff format --check .
# Two workers, one test file each (a file's fixtures and servers stay in one process): the suite's time on two cores.
.venv/bin/python -m pytest -n 2 --dist loadfile "$@"
