"""Titles the NER misses that their own sentence describes as a work: "Shadows is a 1992 American film …".

A sentence that opens with a title and says what it is ("is a 1992 American film", "was a 2004 novel") names a
work even where the NER finds no name in it (a title of common words: "Shadows", "Missed Call"). Without a mention
there, the relation after the description ("directed by Michael Ritchie") joined the nearest name, often the
nationality word, and was drawn from that word's pool ("… American film that elected Michael Ritchie"). The
words before the copula are a WORK_OF_ART mention when they open their sentence, are short, start with a capital
and hold no bracket or clause mark; a name the NER found inside them gives way to them.

What it reads is the copula and the head noun of the description, which DESIGN invariant 7 keeps out of
default-mode slots, so a rewording of the relation after them leaves the mention as it is (the neighbour tests read
that on real documents). The strict mode, whose slots are every stretch between two names, copula included, does
not use it (DESIGN invariant 11).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from relguard.wordlist import words

if TYPE_CHECKING:
    from spacy.tokens import Doc, Span

#: Nouns that say a title names a work.
WORK_NOUNS = words(
    """film movie album novel novella song single series sitcom play opera operetta musical poem painting
    documentary miniseries soundtrack anthology manga anime ballad symphony sonata telenovela mixtape ep"""
)
#: The longest subject taken as a title.
MAX_TITLE_TOKENS = 8
_CLAUSE_MARKS = frozenset({"(", ")", "[", "]", ",", ";", ":"})
_QUOTES = frozenset({'"', "“", "”"})


def with_described_works(
    doc: Doc, sentences: Sequence[Span], found: list[tuple[int, int, str]]
) -> list[tuple[int, int, str]]:
    """``found`` (token ranges and labels of the names found so far) with the title of every sentence "<title>
    is/was a … <work noun>" as a WORK_OF_ART, in place of the names found inside it (the NER's "Searchers" in "The
    Searchers is a 1956 film"). The title is the words before the copula, when the sentence opens with them."""
    titles = []
    for sent in sentences:
        root = sent.root
        if root.lemma_ != "be" or root.tag_ not in ("VBZ", "VBD"):
            continue
        attr = next((c for c in root.children if c.dep_ == "attr"), None)
        if attr is None or attr.lower_ not in WORK_NOUNS:
            continue
        start, end = sent.start, root.i
        while start < end and doc[start].text in _QUOTES:
            start += 1
        while end > start and (doc[end - 1].is_punct or doc[end - 1].is_space):
            end -= 1
        if not 0 < end - start <= MAX_TITLE_TOKENS or not doc[start].text[:1].isupper():
            continue
        if any(doc[i].text in _CLAUSE_MARKS or doc[i].is_space for i in range(start, end)):
            continue
        if any(a < end and start < b and not (start <= a and b <= end) for a, b, _ in found):
            continue  # a name that runs out of the title: the sentence is read some other way
        titles.append((start, end))
    inside = {i for start, end in titles for i in range(start, end)}
    kept = [(a, b, label) for a, b, label in found if not inside.intersection(range(a, b))]
    return kept + [(a, b, "WORK_OF_ART") for a, b in titles]
