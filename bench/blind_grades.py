"""A blind reader's grades of rewritten sentences, as shares with Wilson 95 % intervals (issue 39).

``bench/text_fates.py --sample N`` writes ``<set>-blind.jsonl`` (original and released sentence, no fate) for a
reader who has never seen the fill rules, and ``<set>-key.jsonl`` (the same lines with their fate). The reader
writes ``<set>-grades.jsonl`` following ``docs/evaluation/text-quality/issue39/GRADING.md``. This joins them::

    .venv/bin/python bench/blind_grades.py docs/evaluation/text-quality/issue39/redocred-eps5-spans
"""

from __future__ import annotations

import json
import math
import sys
from collections import Counter
from pathlib import Path


def wilson(hits: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of ``hits`` out of ``n``."""
    if n == 0:
        return (0.0, 0.0)
    p = hits / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def share(hits: int, n: int) -> str:
    low, high = wilson(hits, n)
    return f"{hits}/{n} = {100 * hits / max(1, n):.0f} % [{100 * low:.0f}–{100 * high:.0f}]"


def main() -> int:
    for stem in sys.argv[1:]:
        keys = [json.loads(line) for line in Path(f"{stem}-key.jsonl").read_text(encoding="utf-8").splitlines()]
        grades = {
            row["id"]: row
            for row in map(json.loads, Path(f"{stem}-grades.jsonl").read_text(encoding="utf-8").splitlines())
        }
        rows = [(key, grades[number]) for number, key in enumerate(keys) if number in grades]
        print(f"{stem}: {len(rows)} rewritten sentences graded")
        for fate in ("all", "filled", "connected", "restated"):
            chosen = [(k, g) for k, g in rows if fate == "all" or k["fate"] == fate]
            if not chosen:
                continue
            grade = Counter(g["grade"] for _, g in chosen)
            n = len(chosen)
            print(
                f"  {fate:9} fluent {share(grade['fluent'], n)}; awkward {share(grade['awkward'], n)}; "
                f"broken {share(grade['broken'], n)}; impossible for the kinds "
                f"{share(sum(bool(g['impossible_kind']) for _, g in chosen), n)}; "
                f"lost a fact {share(sum(bool(g['fact_lost']) for _, g in chosen), n)}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
