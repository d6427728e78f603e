"""The neighbour share (DESIGN invariant 11) over HotpotQA and Re-DocRED dev: each slot re-worded, re-extracted.

For every slot the span is replaced by the wording a release would print there for another predicate of the
slot's public pool; a neighbour counts as identical when the re-extracted document has the same masked text,
the same entity pairs (types and direction) in every slot and the same entity types
(:func:`relguard.evaluation.neighbours.neighbour_share`). Prints the share per dataset and overall, why the others
differ (the first cause that applies), the share that masks the same regions whatever the pairs, and a few
neighbours that differ::

    .venv/bin/python bench/neighbour_share.py                     # 994 HotpotQA paragraphs + 100 Re-DocRED docs
    .venv/bin/python bench/neighbour_share.py --hotpotqa 200 --redocred 50
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

from relguard.candidates.inventory import InventoryCandidates
from relguard.evaluation.datasets import load_dataset
from relguard.evaluation.neighbours import CAUSES, neighbour_share
from relguard.extract.spacy import SpacyExtractor


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hotpotqa", type=int, default=None, help="first N HotpotQA paragraphs (default all 994)")
    parser.add_argument("--redocred", type=int, default=100, help="first N Re-DocRED dev documents (default 100)")
    parser.add_argument("--examples", type=int, default=8, help="differing neighbours to print per dataset")
    parser.add_argument("--slots", default="spans", choices=["spans", "stretches"], help="slot mode (default spans)")
    args = parser.parse_args()
    extractor, inventory = SpacyExtractor(slots=args.slots), InventoryCandidates()
    identical = tried = regions = 0
    causes: Counter[str] = Counter()
    for name, documents in (
        ("hotpotqa", load_dataset("hotpotqa").documents[: args.hotpotqa]),
        ("redocred", load_dataset("redocred", limit=args.redocred).documents),
    ):
        start = time.perf_counter()
        result = neighbour_share(documents, extractor, inventory, examples=args.examples)
        identical, tried = identical + result.identical, tried + result.tried
        regions += result.same_regions
        causes.update(result.causes)
        seconds = time.perf_counter() - start
        print(f"{name:9} {len(documents):4} documents  {result.identical}/{result.tried} neighbours identical "
              f"= {100 * result.share:.1f} %  ({seconds:.0f} s)")  # fmt: skip
        for document, span, wording, cause in result.differing:
            print(f"    differs ({cause}): {document!r}: {span!r} -> {wording!r}")
    print(f"overall   {identical}/{tried} = {100 * identical / max(1, tried):.1f} %  (target >= 95 %)")
    print(f"same slot regions, any pairs: {regions}/{tried} = {100 * regions / max(1, tried):.1f} %")
    for cause in CAUSES:
        print(f"  differs by {cause:14} {causes[cause]:5}  {100 * causes[cause] / max(1, tried):5.1f} % of all tried")


if __name__ == "__main__":
    main()
