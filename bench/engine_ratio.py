"""Whole-process wall time and peak memory of `relguard sanitize` against a single-process spaCy floor.

The corpus is the 994 HotpotQA paragraphs written as one .jsonl file, repeated ``--scale`` times with new ids
(``title#2`` ...) so a larger corpus is new documents, not cached ones. Two commands run as separate processes,
one after the other, on the same file:

* floor: ``python -c`` that loads the same spaCy pipeline RelGuard uses and runs ``nlp.pipe`` over every text,
  one process (what any tool that parses the corpus must at least spend). It loads through RelGuard's
  ``load_pipeline``, so RelGuard's faster loading and attribute ruler make it faster too;
* spaCy alone: the same with ``spacy.load``, as a team that parses the corpus with stock spaCy would (printed
  beside the floor, not paired into the ratio);
* relguard: ``relguard sanitize FILE --out DIR --epsilon 1 --quiet --allow-withheld`` with the engine and
  workers given (a withheld sentence is the leak scan's business, not this benchmark's).

Both are timed from process start to exit (imports and model loading included) and their memory is the peak of
the summed resident set of the process and all its children, sampled every 50 ms with psutil. Runs are paired
(floor, relguard, floor, relguard, ...) so a change in machine load hits both; the ratio is of the medians::

    .venv/bin/python bench/engine_ratio.py                      # ratio at 1x, 3 paired runs
    .venv/bin/python bench/engine_ratio.py --scale 1,10 --runs 1 --no-floor   # memory growth 1x -> 10x
    .venv/bin/python bench/engine_ratio.py --scale 1,2,4,8 --runs 1 --engine local,ray --no-floor  # scaling table
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil
from common import hotpotqa_paragraphs

ROOT = Path(__file__).resolve().parents[1]
PYTHON = sys.executable
FLOOR = """
import json, sys
from relguard.extract.spacy.model import load_pipeline
nlp = load_pipeline("en_core_web_sm")
texts = [json.loads(line)["text"] for line in open(sys.argv[1], encoding="utf-8")]
for _ in nlp.pipe(texts, batch_size=64):
    pass
"""
#: The same parse by spaCy alone: ``spacy.load`` as a GraphRAG team would call it (every installed package's spaCy
#: components imported, the attribute ruler on spaCy's Matcher), none of RelGuard's loading.
STOCK_FLOOR = """
import json, sys, spacy
from relguard.extract.spacy.model import _FALLBACK_PACKAGES
for name in ("en_core_web_sm", *_FALLBACK_PACKAGES.values()):
    try:
        nlp = spacy.load(name)
        break
    except OSError:
        pass
texts = [json.loads(line)["text"] for line in open(sys.argv[1], encoding="utf-8")]
for _ in nlp.pipe(texts, batch_size=64):
    pass
"""


def write_corpus(folder: Path, scale: int) -> Path:
    """HotpotQA paragraphs ``scale`` times as one .jsonl (copy n > 1 gets ids ``title#n``)."""
    documents = hotpotqa_paragraphs()
    path = folder / f"hotpotqa-x{scale}.jsonl"
    with path.open("w", encoding="utf-8") as out:
        for copy in range(1, scale + 1):
            for document in documents:
                title = document.name.removesuffix(".txt")
                name = title if copy == 1 else f"{title}#{copy}"
                out.write(json.dumps({"id": name, "text": document.text}, ensure_ascii=False) + "\n")
    return path


def measure(command: list[str]) -> tuple[float, float]:
    """Wall seconds and peak summed RSS (MiB) of ``command`` and its children."""
    start = time.perf_counter()
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    watched = psutil.Process(process.pid)
    peak = 0
    while process.poll() is None:
        try:
            tree = [watched, *watched.children(recursive=True)]
            peak = max(peak, sum(p.memory_info().rss for p in tree if p.is_running()))
        except psutil.Error:
            pass
        time.sleep(0.05)
    wall = time.perf_counter() - start
    if process.returncode != 0:
        raise SystemExit(f"{' '.join(command[:4])} failed: {process.stderr.read().decode()[-2000:]}")
    return wall, peak / 2**20


def sanitize_command(path: Path, out: Path, *, engine: str, workers: str | None) -> list[str]:
    command = [PYTHON, "-m", "relguard.cli", "sanitize", str(path), "--out", str(out), "--epsilon", "1", "--quiet",
               "--allow-withheld"]  # fmt: skip
    if engine != "local":
        command += ["--engine", engine]
    if workers:
        command += ["--workers", workers]
    return command


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", default="1", help="comma-separated corpus multiples (default 1)")
    parser.add_argument("--runs", type=int, default=3, help="paired runs per scale (default 3)")
    parser.add_argument("--engine", default="local", help="comma-separated engines: local, ray (default local)")
    parser.add_argument("--workers", default=None, help="--workers for the local engine (default: all cores)")
    parser.add_argument("--no-floor", action="store_true", help="skip the spaCy floor (memory/scaling tables)")
    args = parser.parse_args()
    scales = [int(s) for s in args.scale.split(",")]
    engines = args.engine.split(",")
    print(f"cores: {os.cpu_count()}, load average at start: {os.getloadavg()[0]:.2f}")
    rows = []
    with tempfile.TemporaryDirectory(prefix="relguard-bench-") as tmp:
        folder = Path(tmp)
        for scale in scales:
            path = write_corpus(folder, scale)
            floor: list[tuple[float, float]] = []
            stock: list[tuple[float, float]] = []
            runs: dict[str, list[tuple[float, float]]] = {e: [] for e in engines}
            for run in range(args.runs):
                if not args.no_floor:
                    floor.append(measure([PYTHON, "-c", FLOOR, str(path)]))
                    stock.append(measure([PYTHON, "-c", STOCK_FLOOR, str(path)]))
                for engine in engines:
                    out = folder / f"out-{engine}-{scale}-{run}"
                    workers = args.workers if engine == "local" else None
                    runs[engine].append(measure(sanitize_command(path, out, engine=engine, workers=workers)))
                    shutil.rmtree(out, ignore_errors=True)
            documents = 994 * scale
            floor_wall = statistics.median(w for w, _ in floor) if floor else None
            if stock:
                stock_wall = statistics.median(w for w, _ in stock)
                print(f"x{scale:<3} floor runs {', '.join(f'{w:.1f}' for w, _ in floor)} s; spaCy alone (spacy.load) "
                      f"runs {', '.join(f'{w:.1f}' for w, _ in stock)} s, median {stock_wall:.1f} s")  # fmt: skip
            for engine, measured in runs.items():
                wall = statistics.median(w for w, _ in measured)
                peak = max(m for _, m in measured)
                rows.append((scale, documents, engine, wall, peak, floor_wall))
                print(
                    f"x{scale:<3} {documents:>6} docs  {engine:<5} wall {wall:7.1f} s (runs "
                    f"{', '.join(f'{w:.1f}' for w, _ in measured)})  peak {peak:7.0f} MiB  "
                    f"{documents / wall:6.1f} docs/s"
                    + (f"  floor {floor_wall:.1f} s -> ratio {wall / floor_wall:.2f}" if floor_wall else "")
                    + (f"  (spaCy alone {stock_wall:.1f} s -> {wall / stock_wall:.2f})" if stock else ""),
                    flush=True,
                )
    print("\n| corpus | documents | engine | wall (s) | peak memory (MiB) | docs/s | ratio to spaCy floor |")
    print("|---|---|---|---|---|---|---|")
    for scale, documents, engine, wall, peak, floor_wall in rows:
        ratio = f"{wall / floor_wall:.2f}" if floor_wall else "-"
        print(f"| {scale}x | {documents} | {engine} | {wall:.1f} | {peak:.0f} | {documents / wall:.1f} | {ratio} |")
    base = {e: p for s, _, e, _, p, _ in rows if s == scales[0]}
    for scale, _, engine, _, peak, _ in rows:
        if scale != scales[0]:
            print(f"peak memory {engine} x{scale} / x{scales[0]} = {peak / base[engine]:.2f}  (goal <= 1.2)")


if __name__ == "__main__":
    main()
