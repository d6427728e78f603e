"""The CLI over the three shared datasets, end to end: documents, sentences removed, withheld, seconds.

Writes each dataset as the ``.jsonl`` corpus a user would hand to ``relguard sanitize`` and runs the real command
in a subprocess (model loading included), then reads the public report. Run from the repository root:

    .venv/bin/python bench/shared_datasets.py [--epsilon 1] [--out out/shared]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

from relguard.evaluation.datasets import load_dataset, write_jsonl

DATASETS = ("hotpotqa", "2wiki", "redocred")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epsilon", default="1")
    parser.add_argument("--out", default="out/shared")
    args = parser.parse_args()
    root = Path(args.out)
    print("| dataset | documents | sentences | removed | withheld | groups | exit | seconds |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    failed = False
    for name in DATASETS:
        corpus = write_jsonl(load_dataset(name), root / f"{name}.jsonl")
        out = root / f"release-{name}"
        command = [sys.executable, "-m", "relguard.cli", "sanitize", str(corpus), "--out", str(out)]
        start = time.perf_counter()
        run = subprocess.run([*command, "--epsilon", args.epsilon, "--quiet"], capture_output=True, text=True)
        seconds = time.perf_counter() - start
        if run.returncode != 0:
            failed = True
            print(f"| {name} | — | — | — | — | — | {run.returncode} | {seconds:.1f} |  {run.stderr.strip()[:200]}")
            continue
        counts = json.loads((out / "report.json").read_text())["counts"]
        print(
            f"| {name} | {counts['documents']} | {counts['sentences']} | {counts['sentences_removed']} | "
            f"{counts['sentences_withheld']} | {counts['groups']} | {run.returncode} | {seconds:.1f} |"
        )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
