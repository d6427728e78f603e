"""What an LLM backend sends: rule-based sentences, and windows of them that fit one prompt.

Rule-based on purpose (fast, no model), and shared by the extractor and the dry-run estimate, so the estimate
counts exactly the calls the extractor will make.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from relguard.types import Sentence

_ABBREVIATIONS = frozenset(
    """mr mrs ms dr prof st sr jr inc corp ltd co no vs etc e.g i.e u.s u.k gen col lt sgt rev fig
    jan feb mar apr jun jul aug sep sept oct nov dec mt ft ave dept est approx""".split()  # noqa: SIM905
)
_BOUNDARY = re.compile(r"""[.!?]+["'’”)\]]*(?=\s+["'‘“(\[]?[A-Z0-9])""")


def split_sentences(text: str) -> tuple[Sentence, ...]:
    """Sentences as character ranges: lines cut after . ! ? before a capital or digit, whitespace trimmed.

    Rule-based on purpose (fast, no model): a period after a known abbreviation ("Dr.", "Inc.") or a single
    initial ("J. Smith") does not end a sentence. The model sees exactly these lines, numbered.
    """
    sentences: list[Sentence] = []

    def add(start: int, end: int) -> None:
        while start < end and text[start].isspace():
            start += 1
        while end > start and text[end - 1].isspace():
            end -= 1
        if start < end:
            sentences.append(Sentence(len(sentences), start, end))

    for line in re.finditer(r"[^\n]+", text):
        start = line.start()
        for match in _BOUNDARY.finditer(line.group()):
            before = re.search(r"(\S+)$", line.group()[: match.start()])
            word = before.group(1).casefold().rstrip(".") if before else ""
            if match.group().startswith(".") and (word in _ABBREVIATIONS or (len(word) == 1 and word.isalpha())):
                continue
            add(start, line.start() + match.end())
            start = line.start() + match.end()
        add(start, line.end())
    return tuple(sentences)


def windows(text: str, sentences: Sequence[Sentence], *, size: int, chars: int) -> list[tuple[int, int]]:
    """(first, last+1) sentence ranges holding at most ``size`` sentences and about ``chars`` characters."""
    ranges: list[tuple[int, int]] = []
    start, length = 0, 0
    for index, sent in enumerate(sentences):
        span = sent.end - sent.start
        if index > start and (index - start >= size or length + span > chars):
            ranges.append((start, index))
            start, length = index, 0
        length += span
    if start < len(sentences):
        ranges.append((start, len(sentences)))
    return ranges
