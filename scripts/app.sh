#!/usr/bin/env bash
# Set up RelGuard Studio and start it with the bundled sample corpus loaded: http://localhost:8501
# Extra arguments go to `streamlit run` (e.g. --server.port 8600). Headless: no browser is opened here.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh app
export RELGUARD_LOAD_SAMPLE=1 TOKENIZERS_PARALLELISM=false
exec .venv/bin/streamlit run app.py --server.headless true --browser.gatherUsageStats false "$@"
