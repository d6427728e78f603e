#!/usr/bin/env bash
# Set up RelGuard with its test dependencies and run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh dev
# The browser test drives Debian's chromium through Playwright (never a downloaded browser build).
command -v chromium >/dev/null || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium)
.venv/bin/ruff check .
.venv/bin/ruff format --check .
# Two workers that take tests one by one, but a file marked with an xdist group (the engines and their Ray instance)
# whole: on two cores the suite takes about 5 minutes; whole files per worker left one worker with the browser and
# Ray files (7 min).
.venv/bin/python -m pytest -n 2 --dist loadgroup "$@"
