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
#: How many words of a description may stand between its article and its noun ("a 1919 American silent
#: adventure/ drama film").
MAX_DESCRIPTION_TOKENS = 9
#: How far into its sentence a copula is looked for: a title and a bracket after it ("Kamsale Kaisale (ಕಂಸಾಳೆ
#: ಕೈಸಾಳೆ) is a 2012 … film").
_MAX_OPENING = 24
_ARTICLES = frozenset({"a", "an", "the"})
_QUOTES = frozenset({'"', "“", "”"})


def with_described_works(
    doc: Doc, sentences: Sequence[Span], found: list[tuple[int, int, str]]
) -> tuple[list[tuple[int, int, str]], list[tuple[int, int]]]:
    """``found`` (token ranges and labels of the names found so far) with the title of every sentence "<title>
    is/was a … <work noun>" as a WORK_OF_ART, in place of the names found inside it (the NER's "Searchers" in "The
    Searchers is a 1956 film"), and those titles: their type is WORK_OF_ART whatever the NER says of them
    elsewhere (:func:`relguard.extract.spacy.retype.final_types`). The title is the words before the copula, when
    the sentence opens with them."""
    titles = [
        (start, end)
        for start, end in described_titles(doc, sentences)
        if not any(a < end and start < b and not (start <= a and b <= end) for a, b, _ in found)
    ]  # a name that runs out of the title: the sentence is read some other way
    inside = {i for start, end in titles for i in range(start, end)}
    kept = [(a, b, label) for a, b, label in found if not inside.intersection(range(a, b))]
    return kept + [(a, b, "WORK_OF_ART") for a, b in titles], titles


def described_titles(doc: Doc, sentences: Sequence[Span]) -> list[tuple[int, int]]:
    """Token ranges of the titles that their sentence describes as works ("<title> is/was a … <work noun>"): the
    words before the copula, when the sentence opens with them."""
    titles = []
    for sent in sentences:
        copula = _described(doc, sent)
        if copula is None:
            continue
        start = sent.start
        end = next((t.i for t in doc[start:copula] if t.text == "("), copula)  # "Dayavan (English: …) is a"
        while start < end and doc[start].text in _QUOTES:
            start += 1
        while end > start and (doc[end - 1].is_punct or doc[end - 1].is_space):
            end -= 1
        if not 0 < end - start <= MAX_TITLE_TOKENS or not doc[start].text[:1].isupper():
            continue
        if any(doc[i].text in _CLAUSE_MARKS or doc[i].is_space for i in range(start, end)):
            continue
        titles.append((start, end))
    return titles


def _described(doc: Doc, sent: Span) -> int | None:
    """The copula of ``sent`` when it reads "<title> is/was a … <work noun>", else None. Read from the words and
    their tags, not the parse: a description of many words ("a 1961 Spanish- Mexican film") is parsed every way."""
    copula, depth, outside = None, 0, 0
    for token in doc[sent.start : min(sent.end, sent.start + _MAX_OPENING)]:
        depth += (token.text == "(") - (token.text == ")")
        if depth == 0 and token.lower_ in ("is", "was"):
            copula = token.i
            break
        outside += depth == 0 and token.text != ")"
    if outside > MAX_TITLE_TOKENS or depth:
        return None
    if copula is None or copula + 1 >= sent.end or doc[copula + 1].lower_ not in _ARTICLES:
        return None
    if all(t.tag_ in ("PRP", "DT", "EX") or not t.text[:1].isupper() for t in doc[sent.start : copula]):
        return None  # "He is a film director", "This was a novel …": no title
    for token in doc[copula + 2 : min(sent.end, copula + 2 + MAX_DESCRIPTION_TOKENS)]:
        after = doc[token.i + 1] if token.i + 1 < sent.end else None
        if token.lower_ in WORK_NOUNS and token.tag_ in ("NN", "NNS"):
            head = after is None or not (after.tag_.startswith("NN") or after.tag_ == "POS")
            return copula if head else None  # "a film director", "the album's cover": not a work
        if token.text in _CLAUSE_MARKS or token.tag_ in ("VBD", "VBZ", "VBP", "MD", "WDT", "WP", "IN"):
            return None
    return None
