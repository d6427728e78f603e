"""Finding what a model wrote in the sentence it came from, exactly: spans are cut from the text, never from the reply.

A model's phrase counts only where it occurs in a sentence, and the span kept is that sentence's own characters,
so whatever the model wrote, a relation span is always ``text[start:end]`` of the document (the
:class:`~relguard.types.Occurrence` dataclass checks it again on construction). Matching first tries the phrase
as written, then the same words ignoring case and spacing ("Was born in" for "was born in"), on word boundaries so
that "in" never matches inside "win".
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from relguard.types import DocumentExtraction, Sentence


def printed(text: str) -> str:
    """A sentence as printed in a prompt: whitespace characters become spaces one for one, so offsets carry over."""
    return re.sub(r"\s", " ", text)


def name_key(name: str) -> str:
    """How names are compared: case-folded with single spaces ("ACME  Corp" = "acme corp")."""
    return " ".join(name.split()).casefold()


def _bounded(pattern: str, needle: str) -> str:
    start = r"(?<!\w)" if needle[:1].isalnum() or needle[:1] == "_" else ""
    end = r"(?!\w)" if needle[-1:].isalnum() or needle[-1:] == "_" else ""
    return start + pattern + end


def find_phrase(sentence: str, phrase: str) -> list[tuple[int, int]]:
    """Every (start, end) of ``phrase`` in ``sentence``: exact first, else case- and spacing-insensitive."""
    needle = phrase.strip()
    if not needle:
        return []
    exact = [(m.start(), m.end()) for m in re.finditer(_bounded(re.escape(needle), needle), sentence)]
    if exact:
        return exact
    loose = r"\s+".join(re.escape(word) for word in needle.split())
    return [(m.start(), m.end()) for m in re.finditer(_bounded(loose, needle), sentence, flags=re.IGNORECASE)]


def name_ranges(sentence: str, name: str) -> list[tuple[int, int]]:
    """Where ``name`` is written in ``sentence`` (case-insensitive, whole words)."""
    return find_phrase(sentence, name) if name.strip() else []


def overlaps(start: int, end: int, ranges: Sequence[tuple[int, int]]) -> bool:
    return any(a < end and start < b for a, b in ranges)


def is_bare(phrase: str, function_words: frozenset[str]) -> bool:
    """A phrase of function words only ("of", "is in") cannot carry a relation and would mask nothing useful."""
    words = re.findall(r"\w+", phrase.casefold())
    return not words or all(word in function_words for word in words)


def window_names(window: Sequence[Sentence], base: DocumentExtraction | None) -> list[str]:
    """The entity source's canonical names mentioned in a window of sentences, in order of first mention."""
    if base is None or not window:
        return []
    start, end = window[0].start, window[-1].end
    first: dict[str, int] = {}
    for entity in base.entities:
        inside = [m.start for m in entity.mentions if start <= m.start and m.end <= end]
        if inside and entity.name not in first:
            first[entity.name] = min(inside)
    return sorted(first, key=lambda n: (first[n], n))


def mentions_in(line: str, name: str, sentence: Sentence, base: DocumentExtraction | None) -> list[tuple[int, int]]:
    """Where ``name`` is named in a sentence (offsets in ``line``): the NER's mentions of it and its written name.

    The NER's mentions include short forms it resolved ("Curie" for "Marie Curie"); overlapping ranges are kept once.
    """
    ranges = name_ranges(line, name)
    if base is not None:
        key = name_key(name)
        for entity in base.entities:
            if name_key(entity.name) == key:
                ranges += [
                    (m.start - sentence.start, m.end - sentence.start)
                    for m in entity.mentions
                    if sentence.start <= m.start and m.end <= sentence.end
                ]
    kept: list[tuple[int, int]] = []
    for a, b in sorted(set(ranges)):
        if not overlaps(a, b, kept):
            kept.append((a, b))
    return kept


#: Words before a relation phrase that belong to it: auxiliaries, and the negation and modals that make it a negated
#: or hypothetical statement ("is not married to", "may have acquired"), which is still a relation of the pair.
_AUXILIARY = re.compile(
    r"(?:^|(?<=\s))(?:is|was|were|are|am|be|been|being|has|have|had|do|does|did|not|never|will|would|shall|should"
    r"|may|might|must|can|could|cannot|\w+n['’]t)\s+$",
    re.IGNORECASE,
)
_PARTICLE = re.compile(r"^\s+(?:by|in|of|to|at|for|with|from|on|as|into)(?!\w)", re.IGNORECASE)


def widened(line: str, start: int, end: int, blocked: Sequence[tuple[int, int]]) -> tuple[int, int]:
    """The span with the auxiliaries before it and one preposition after it ("founded" → "was founded by").

    A model often copies the bare verb; masking only that leaves "was [REL] by" in a release, which tells the voice
    and half the relation; likewise "did not [REL]" would tell that the statement was a denial, so negation and
    modals before the span join it too. No word is taken that touches an entity mention (``blocked``).
    """
    while match := _AUXILIARY.search(line[:start]):
        if overlaps(match.start(), start, blocked):
            break
        start = match.start()
    match = _PARTICLE.match(line[end:])
    if match and not overlaps(end, end + match.end(), blocked):
        end += match.end()
    return start, end
