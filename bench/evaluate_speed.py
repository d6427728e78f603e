"""Cost of `relguard evaluate` relative to `relguard sanitize`, and peak memory of one big sanitize run.

1. Time: `relguard evaluate` on HotpotQA at one setting (ε=5, λ=1, K=10, one trial, no sweeps,
   no Presidio) against `relguard sanitize` of the same paragraphs, both as CLI subprocesses
   (model loading included in both); prints the ratio evaluate / sanitize.
2. Memory: peak RSS of one `relguard sanitize` over the documents of all shared datasets together
   (HotpotQA paragraphs, 2Wiki gold passages, Re-DocRED documents) written as one .jsonl file.

    .venv/bin/python bench/evaluate_speed.py [--limit N]   # N HotpotQA questions (default all 100)
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import DATA_DIR

from relguard.evaluation.datasets import load_2wiki, load_hotpotqa, load_redocred

RELGUARD = [sys.executable, "-m", "relguard.cli"]


def write_jsonl(path: Path, documents) -> None:
    with open(path, "w", encoding="utf-8") as handle:
        for document in documents:
            handle.write(json.dumps({"id": document.name, "text": document.text}) + "\n")


def timed(command: list[str]) -> tuple[float, int]:
    """Wall seconds and peak RSS (MiB) of one child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return seconds, max(peak, before) // 1024


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--limit", type=int, default=None, help="HotpotQA questions for the timing (default all)")
    args = parser.parse_args()
    hotpot = load_hotpotqa(DATA_DIR, limit=args.limit)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        write_jsonl(folder / "hotpot.jsonl", hotpot.documents)
        sanitize_s, _ = timed(
            [*RELGUARD, "sanitize", str(folder / "hotpot.jsonl"), "--out", str(folder / "s"), "--quiet"]
        )
        limit = ["--limit", str(args.limit)] if args.limit else []
        settings = ["--epsilons", "5", "--no-null-epsilons", "", "--trials", "1", "--no-presidio", "--quiet"]
        dataset = ["--dataset", "hotpotqa", "--data-dir", str(DATA_DIR), *limit]
        evaluate_s, _ = timed([*RELGUARD, "evaluate", *dataset, "--out", str(folder / "e"), *settings])
        print(f"HotpotQA: {hotpot.note}")
        print(f"relguard sanitize : {sanitize_s:.1f} s")
        print(f"relguard evaluate : {evaluate_s:.1f} s (ε=5, λ=1, K=10, 1 trial, no Presidio, no sweeps)")
        print(f"ratio evaluate / sanitize = {evaluate_s / sanitize_s:.2f}")

        everything = [*load_hotpotqa(DATA_DIR).documents, *load_2wiki(DATA_DIR).documents]
        everything += load_redocred(DATA_DIR).documents
        write_jsonl(folder / "all.jsonl", everything)
        seconds, peak = timed([*RELGUARD, "sanitize", str(folder / "all.jsonl"), "--out", str(folder / "a"), "--quiet"])
        print(f"sanitize of all shared datasets ({len(everything)} documents): {seconds:.1f} s, peak RSS {peak} MiB")


if __name__ == "__main__":
    main()
