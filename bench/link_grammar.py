"""An independent grammar check of rewritten sentences: the CMU link-grammar parser (issue 39).

RelGuard's own guard reads fills with spaCy's tagger, so a bench that used it would partly measure itself. The
link-grammar parser is another grammar: a sentence has a *complete* parse when every word links with no null
link. For each rewritten sentence whose original has a complete parse, this counts whether the released text
(every sentence of it, for a restatement) still has one, with a Wilson 95 % interval.

It runs under Debian's system Python, where ``apt-get install python3-link-grammar`` puts the parser (it is not on
PyPI), on the ``*-key.jsonl`` files that ``bench/text_fates.py --sample N`` writes::

    /usr/bin/python3 bench/link_grammar.py docs/evaluation/text-quality/issue39/redocred-eps5-spans-key.jsonl
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from blind_grades import wilson  # standard library only: it runs under the system Python too

#: Seconds the parser may spend on one sentence; a sentence it cannot finish counts as not parsed.
PARSE_SECONDS = 5


def main() -> int:
    import linkgrammar as lg

    dictionary = lg.Dictionary("en")
    options = lg.ParseOptions(min_null_count=0, max_null_count=0, max_parse_time=PARSE_SECONDS)

    def complete(text: str) -> bool:
        pieces = [p for p in re.split(r"(?<=[.!?])\s+(?=[A-Z\"“(])", text.strip()) if p]
        return all(len(lg.Sentence(p, dictionary, options).parse() or ()) > 0 for p in pieces)

    for path in sys.argv[1:]:
        with open(path, encoding="utf-8") as lines:
            rows = [json.loads(line) for line in lines]
        parsed = lost = 0
        by_fate: dict[str, list[int]] = {}
        for row in rows:
            if not complete(row["original"]):
                continue
            parsed += 1
            gone = not complete(row["released"])
            lost += gone
            by_fate.setdefault(row.get("fate", "?"), [0, 0])
            by_fate[row.get("fate", "?")][0] += gone
            by_fate[row.get("fate", "?")][1] += 1
        low, high = wilson(lost, parsed)
        print(
            f"{path}: {len(rows)} rewritten sentences, {parsed} with a complete parse in the original; "
            f"{lost} lose it ({100 * lost / max(1, parsed):.1f} %, Wilson 95 % {100 * low:.1f}–{100 * high:.1f} %)"
        )
        for fate, (gone, n) in sorted(by_fate.items()):
            print(f"  {fate}: {gone} of {n}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
