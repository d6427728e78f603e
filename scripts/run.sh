#!/usr/bin/env bash
# Set up RelGuard and sanitize the bundled sample corpus (the app replaces this once it exists).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/relguard sanitize assets/sample_corpus --out out/sample --epsilon 5 --lam 1 --k 10
echo
cat out/sample/report.md
