"""Coverage of Re-DocRED gold by relation slots, slot precision, verbatim evidence, and extraction speed.

On the first ``--limit`` Re-DocRED dev documents (default 100):

* coverage: gold relations between named entities protected in their document — a slot joins the pair, or every
  stretch between their mentions in one sentence holds a slot (``relguard.evaluation.gold``); ``coverage_direct``
  counts the first kind alone;
* slots off gold: slots on an entity pair with no gold relation in that document (1 − slot precision);
* verbatim evidence: gold evidence sentences naming both entities that a release at ε = 1 (λ = 1, K = 10)
  leaves byte for byte, the mean over ``--draws`` releases (OS entropy);

and the spaCy extractor's speed on the 994 HotpotQA paragraphs (documents per second, best of two runs).
``--before REF`` runs the same measures on the library as committed at git ``REF`` (read with ``git archive``,
the measuring modules of this checkout laid over it) and prints both::

    .venv/bin/python bench/slot_coverage.py --before e832ce9
"""

from __future__ import annotations

import argparse
import io
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: Modules of this checkout that measure; laid over an older library so both sides are scored alike.
MEASURING = ("relguard/evaluation/gold.py", "relguard/evaluation/datasets.py")


def measure(limit: int, draws: int, speed: bool, slots: str = "spans") -> dict:
    from relguard.evaluation.datasets import load_dataset
    from relguard.evaluation.gold import gold_coverage, verbatim_evidence
    from relguard.extract.spacy import SpacyExtractor
    from relguard.pipeline import prepare

    dataset = load_dataset("redocred", limit=limit)
    extractor = SpacyExtractor(slots=slots)
    prepared = prepare(dataset.documents, k=10, extractor=extractor)
    covered = gold_coverage(dataset, prepared.extraction)
    shares = []
    for _ in range(draws):
        release = prepared.draw(epsilon=1.0, lam=1.0)
        shares.append(verbatim_evidence(dataset, {d.name: d.text for d in release.documents}))
    result = {
        "documents": len(dataset.documents),
        "gold_relations": covered.gold,
        "evidence_sentences": len(dataset.evidence),
        "slots": covered.slots,
        "groups": len(prepared.groups),
        "coverage": covered.coverage,
        "coverage_direct": covered.direct,
        "slots_off_gold": covered.slots_off_gold,
        "slot_precision": covered.slot_precision,
        "verbatim_evidence_eps1": statistics.fmean(shares),
        "verbatim_evidence_eps1_std": statistics.stdev(shares) if len(shares) > 1 else 0.0,
    }
    if speed:
        hotpot = load_dataset("hotpotqa").documents
        list(extractor.extract_many(hotpot[:50]))
        seconds = []
        for _ in range(2):
            start = time.perf_counter()
            list(extractor.extract_many(hotpot))
            seconds.append(time.perf_counter() - start)
        result["hotpotqa_paragraphs"] = len(hotpot)
        result["extraction_docs_per_s"] = len(hotpot) / min(seconds)
    return result


def library_at(ref: str, folder: Path) -> Path:
    """The ``relguard`` package as committed at ``ref``, with this checkout's measuring modules laid over it."""
    archive = subprocess.run(["git", "archive", ref, "relguard"], cwd=ROOT, check=True, capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    for path in MEASURING:
        (folder / path).write_bytes((ROOT / path).read_bytes())
    return folder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=int, default=100, help="first N Re-DocRED dev documents (default 100)")
    parser.add_argument("--draws", type=int, default=5, help="releases at ε = 1 for the verbatim share")
    parser.add_argument("--before", default=None, help="also measure the library at this git commit")
    parser.add_argument("--no-speed", action="store_true", help="skip the HotpotQA speed run")
    parser.add_argument("--json", action="store_true", help="print one JSON object (used for --before)")
    parser.add_argument("--slots", default="spans", choices=["spans", "stretches"], help="slot mode (default spans)")
    args = parser.parse_args()
    results = {}
    if args.before:
        with tempfile.TemporaryDirectory() as tmp:
            library_at(args.before, Path(tmp))
            command = [sys.executable, str(Path(__file__).resolve()), "--json", "--limit", str(args.limit)]
            command += ["--draws", str(args.draws)] + (["--no-speed"] if args.no_speed else [])
            env = {"RELGUARD_DATA_DIR": str(ROOT.parent / "shared" / "data"), **os.environ, "PYTHONPATH": tmp}
            done = subprocess.run(command, cwd=tmp, env=env, capture_output=True, text=True)
            if done.returncode:
                sys.exit(f"the run at {args.before} failed:\n{done.stderr[-3000:]}")
            results[f"before ({args.before})"] = json.loads(done.stdout)
    results["now"] = measure(args.limit, args.draws, not args.no_speed, args.slots)
    if args.json:
        print(json.dumps(results["now"]))
        return
    keys = list(results["now"])
    print(f"{'':34}" + "".join(f"{name:>22}" for name in results))
    for key in keys:
        cells = []
        for row in results.values():
            value = row.get(key)
            cells.append(f"{value:>22.3f}" if isinstance(value, float) else f"{value!s:>22}")
        print(f"{key:34}" + "".join(cells))


if __name__ == "__main__":
    main()
