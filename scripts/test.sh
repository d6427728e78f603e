#!/usr/bin/env bash
# Set up RelGuard with its test dependencies and run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh dev
# The browser test drives Debian's chromium through Playwright (never a downloaded browser build).
command -v chromium >/dev/null || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium)
.venv/bin/ruff check .
.venv/bin/ruff format --check .
# Three workers on two cores, taking tests one by one; a file marked with an xdist group (the engines and their Ray
# instance) goes to one worker whole. The browser, Ray and CLI tests wait on other processes, and a third worker
# fills those waits (measured in docs/evaluation.md).
.venv/bin/python -m pytest -n 3 --dist loadgroup "$@"
