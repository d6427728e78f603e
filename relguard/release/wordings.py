"""The public wordings of a sampled predicate: every way a fill of it may read in the output.

The leak scan excuses original words that are a wording of the outcome shown at their place, and the
confidential counts name substitutes that read in the original words; both ask the same question here.
"""

from __future__ import annotations

import itertools
from functools import lru_cache

from relguard.candidates.forms import default_forms
from relguard.rewrite import frames as fr
from relguard.rewrite.verbalize import APPOSITIVE, RELATIVES, FormVerbalizer, Place, split_preposition
from relguard.types import Forms, TypePair

__all__ = ["Forms", "normalize", "worded_as", "wordings"]


def normalize(text: str) -> str:
    """Lower case, words split on blanks, underscores and hyphens; a comma that opens a clause is dropped
    (", which was hosted by" reads as "which was hosted by"), since the verbalizer writes that comma itself
    before every relative clause it opens there. A bare comma ("Dublin, Ohio") stays a comma."""
    words = text.lower().replace("_", " ").replace("-", " ").split()
    if len(words) > 1 and words[0] == ",":
        words = words[1:]
    return " ".join(words)


@lru_cache(maxsize=1 << 16)
def wordings(predicate: str, type_pair: TypePair, forms: Forms) -> frozenset[str]:
    """Every public way the sampled predicate may read in the output (the verbalizer's own list, normalized).

    Kept per (predicate, pair, backend's forms): a function of public wordings alone, and the leak scan asks it
    for every relation of every document, far more often than there are distinct (predicate, pair) keys."""
    words = _verbalized(predicate, type_pair, forms)
    words |= {f"{pronoun} {word}" for pronoun in RELATIVES for word in words}  # "that employs", "which borders"
    if predicate in APPOSITIVE:
        words.add(",")  # "Dublin, Ohio": the comma the verbalizer writes for it between two names
    return frozenset(normalize(w) for w in words)


def worded_as(span: str, predicate: str | None, type_pair: TypePair, forms: Forms = default_forms) -> bool:
    """The span's words are a public wording of the shown predicate, or its first or last words ("by" of
    "founded by"): a fill in that wording writes them itself, so their presence is a function of the sample."""
    if predicate is None:
        return False
    span = normalize(span)
    return any(
        w == span or w.startswith(span + " ") or w.endswith(" " + span) for w in wordings(predicate, type_pair, forms)
    )


def _verbalized(predicate: str, type_pair: TypePair, forms: Forms) -> set[str]:
    """Every string :class:`FormVerbalizer` may write for ``predicate``, in any frame and direction (lower case)."""
    verbalize = FormVerbalizer(forms)
    found: set[str] = {predicate.replace("_", " ")}
    for frame in fr.FRAMES:
        for inverted in (False, True):
            for person, closed, plural, past, perfect in itertools.product((False, True), repeat=5):
                if perfect and frame != fr.FINITE:
                    continue  # a second modifier's "which" is one of the pronouns wordings() puts before each form
                place = Place(frame, inverted, person, closed, plural=plural, past=past, perfect=perfect)
                words = verbalize(predicate, type_pair, place)
                words = words.lstrip("-") if words else words
                if words:
                    found.add(words.strip(" ,").lower())
                    head = split_preposition(words.strip(" ,"))[0]
                    found.add(head.lower())
    for value in verbalize.forms(predicate, type_pair).values():
        if isinstance(value, str) and value:
            found.add(value.lower())
    return {w for w in found if w}
