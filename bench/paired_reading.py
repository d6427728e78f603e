"""One blind reader grades a sentence as two commits release it: what a change does, free of the reader's taste.

Two blind readers of the same slice differ by more than most changes move (35 % and 54 % broken at nearby
commits), so a change is read here in pairs: every held-out sentence whose released text differs between a
*before* and an *after* run of ``bench/text_fates.py --sample 100000`` is written twice to one blind file, the two
versions in random order and the pairs apart, for one reader (``docs/evaluation/text-quality/issue39/GRADING.md``).
``score`` then gives each side's shares with Wilson 95 % intervals and the paired counts (better, worse, the
same; facts kept only after, lost only after)::

    .venv/bin/python bench/paired_reading.py make BEFORE_DIR AFTER_DIR OUT_DIR [--pairs N]  # OUT_DIR/pair-blind.jsonl
    .venv/bin/python bench/paired_reading.py score OUT_DIR                      # reads OUT_DIR/pair-grades.jsonl
"""

from __future__ import annotations

import json
import random
import sys
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from blind_grades import share

SETS = ("hotpotqa", "redocred", "2wiki")
_RANK = {"fluent": 0, "awkward": 1, "broken": 2}


def _rows(folder: Path, name: str) -> dict[tuple[str, int], dict]:
    path = folder / f"{name}-eps5-spans-key.jsonl"
    if not path.exists():
        return {}
    return {(r["document"], r["sentence"]): r for r in map(json.loads, path.read_text().splitlines())}


def make(before: Path, after: Path, out: Path, *, seed: int = 39, pairs: int | None = None) -> int:
    """Write ``out/pair-blind.jsonl`` (for the reader) and ``out/pair-key.jsonl`` (which side each line is); with
    ``pairs``, a random sample of that many changed sentences (a change that redraws groups changes hundreds)."""
    rng = random.Random(seed)
    changed = []
    for name in SETS:
        old, new = _rows(before, name), _rows(after, name)
        changed += [(name, where, old[where], new[where]) for where in sorted(set(old) & set(new))]
    changed = [c for c in changed if c[2]["released"] != c[3]["released"]]
    if pairs is not None and pairs < len(changed):
        changed = rng.sample(changed, pairs)
    lines = [
        {"set": name, "document": where[0], "sentence": where[1], "which": side, **row}
        for name, where, old_row, new_row in changed
        for side, row in (("before", old_row), ("after", new_row))
    ]
    rng.shuffle(lines)
    out.mkdir(parents=True, exist_ok=True)
    key = [dict(line, id=n) for n, line in enumerate(lines)]
    blind = [{"id": n, "original": line["original"], "released": line["released"]} for n, line in enumerate(lines)]
    (out / "pair-key.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in key))
    (out / "pair-blind.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in blind))
    print(f"{len(lines) // 2} sentences differ; wrote {len(blind)} lines to {out / 'pair-blind.jsonl'}")
    return 0


def score(out: Path) -> int:
    key = [json.loads(line) for line in (out / "pair-key.jsonl").read_text().splitlines()]
    grades = {g["id"]: g for g in map(json.loads, (out / "pair-grades.jsonl").read_text().splitlines())}
    if set(grades) != {k["id"] for k in key}:
        raise SystemExit(f"{out / 'pair-grades.jsonl'}: the grades do not cover every line of the blind file")
    for side in ("before", "after"):
        rows = [grades[k["id"]] for k in key if k["which"] == side]
        n = len(rows)
        counts = Counter(r["grade"] for r in rows)
        parts = [f"{grade} {share(counts[grade], n)}" for grade in _RANK]
        parts.append(f"impossible for the kinds {share(sum(r['impossible_kind'] for r in rows), n)}")
        parts.append(f"lost a fact {share(sum(r['fact_lost'] for r in rows), n)}")
        print(f"{side:6} " + "; ".join(parts))
    pairs: dict[tuple, dict[str, dict]] = defaultdict(dict)
    for k in key:
        pairs[(k["set"], k["document"], k["sentence"])][k["which"]] = grades[k["id"]]
    moved = Counter()
    for pair in pairs.values():
        step = _RANK[pair["after"]["grade"]] - _RANK[pair["before"]["grade"]]
        moved["better" if step < 0 else "worse" if step > 0 else "same"] += 1
        moved["kept only after"] += pair["before"]["fact_lost"] and not pair["after"]["fact_lost"]
        moved["lost only after"] += pair["after"]["fact_lost"] and not pair["before"]["fact_lost"]
    print(
        f"paired, {len(pairs)} sentences: grade better {moved['better']}, worse {moved['worse']}, the same "
        f"{moved['same']}; a fact kept only after {moved['kept only after']}, "
        f"lost only after {moved['lost only after']}"
    )
    return 0


def main(argv: list[str]) -> int:
    if len(argv) in (4, 6) and argv[0] == "make" and (len(argv) == 4 or argv[4] == "--pairs"):
        return make(Path(argv[1]), Path(argv[2]), Path(argv[3]), pairs=int(argv[5]) if len(argv) == 6 else None)
    if len(argv) == 2 and argv[0] == "score":
        return score(Path(argv[1]))
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
