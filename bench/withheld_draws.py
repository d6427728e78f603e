"""How often a release of a shared dataset withholds a sentence: many seeded draws of one extraction.

A withheld sentence is the leak scan's verdict that a fill or a kept phrase still shows an original relation
(docs/reliability.md). On clean reconstruction every such verdict is a false positive of the scan, and each one
fails ``relguard sanitize`` (exit 4) unless ``--allow-withheld`` is given, so the expected count is 0. The corpus
is read as the CLI reads it (the ``.jsonl`` that ``bench/shared_datasets.py`` writes, ``id`` and ``text`` per
line), extracted once, and drawn with teaching seeds ``0 .. --draws - 1`` at each ``--epsilon``::

    .venv/bin/python bench/withheld_draws.py redocred --draws 40 --epsilon 5
    .venv/bin/python bench/withheld_draws.py redocred --draws 10 --epsilon 0.5,1,2,10
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from relguard.evaluation.datasets import load_dataset, write_jsonl
from relguard.io import read_documents
from relguard.pipeline import prepare


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dataset", choices=("hotpotqa", "2wiki", "redocred"))
    parser.add_argument("--draws", type=int, default=40, help="teaching seeds 0 .. N-1 per epsilon")
    parser.add_argument("--epsilon", default="5", help="comma-separated values (default 5)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        corpus = write_jsonl(load_dataset(args.dataset), Path(folder) / f"{args.dataset}.jsonl")
        documents, _ = read_documents([corpus])
    start = time.perf_counter()
    prepared = prepare(documents, k=10)
    print(f"{args.dataset}: {len(documents)} documents, {len(prepared.groups)} groups, "
          f"extracted in {time.perf_counter() - start:.0f} s", flush=True)  # fmt: skip
    for epsilon in (float(e) for e in args.epsilon.split(",")):
        hits = 0
        for seed in range(args.draws):
            release = prepared.draw(epsilon=epsilon, lam=1.0, seed=seed)
            withheld = release.confidential.get("withheld", [])
            hits += bool(withheld)
            for reason in withheld:
                print(f"  eps={epsilon:g} seed={seed}: {reason['document']} sentence {reason['sentence'] + 1}, "
                      f"span {reason['span']!r}: {reason['text'][:100]}")  # fmt: skip
        print(f"eps={epsilon:g}: {hits} of {args.draws} draws withheld a sentence", flush=True)


if __name__ == "__main__":
    main()
