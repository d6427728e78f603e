"""The strict slot mode: every stretch between two adjacent entity mentions of a sentence is a slot.

In the default mode a slot is the relation expression the parse finds, so where slots are is read from the
wording (``docs/evaluation.md`` measures how often that tells a rewording apart). Here it is not: the text
between two adjacent mentions of different entities is masked whatever its words — "Alice Smith [secretly
married] Tom Baker", "Springvale[, which invaded] Oregon", "Ana Ruiz [was gen. mgr of] Corvid Media" — so the
masked document is a function of the mentions alone, and the paper's assumption ("documents that differ only in
the protected relation expressions yield the same masked document") holds for every relation stated between two
names. The cost is what a stretch held besides the relation (a date, a description): it is lost, and measured
(``bench/fluency.py --slots stretches``).

Mentions must not move with the relation's words either; the spaCy extractor finds them from the names' own
spelling in this mode (:mod:`relguard.extract.spacy`). Each stretch stands for one pair, the two mentions that
border it (:func:`relguard.extract.regions.positional_pairs`), with the predicate the extractor read for that pair
in that sentence, else those it read inside the stretch (confidential: they only feed d_R), else
:data:`~relguard.extract.regions.UNREAD`.
"""

from __future__ import annotations

import re
from dataclasses import replace
from itertools import pairwise

from relguard.extract.positions import MentionTable, PlacedMention, Region
from relguard.extract.regions import UNREAD, positional_pairs
from relguard.types import DocumentExtraction, Occurrence, Triple

#: An article right before a name stays with it ("founded [the] Acme Corp"): it is the name's, not the relation's.
_POSSESSIVE = re.compile(r"['’]s?\b")
_BRACKET = re.compile(r"[()\[\]{}\"“”]")
_ARTICLE_BEFORE = re.compile(r"(?:^|\s)(?:the|a|an)\s*$", re.IGNORECASE)


def stretch_regions(extraction: DocumentExtraction) -> list[Region]:
    """The stretch between every two adjacent mentions of different entities in each sentence, without the
    blanks at its ends and without an article that opens the second name."""
    text = extraction.document.text
    regions: list[Region] = []
    for sentence, row in sorted(MentionTable.of_document(extraction).by_sentence.items()):
        for first, second in pairwise(row):
            region = _stretch(text, sentence, first, second)
            if region is not None:
                regions.append(region)
    return regions


def _stretch(text: str, sentence: int, first: PlacedMention, second: PlacedMention) -> Region | None:
    if first.entity == second.entity:
        return None
    found = stretch_between(text, first.end, second.start)
    return Region(sentence, *found) if found else None


def stretch_between(text: str, start: int, end: int) -> tuple[int, int] | None:
    """The stretch of ``text[start:end]`` (between a name's end and the next name's start), or None."""
    if start >= end:
        return None
    possessive = _POSSESSIVE.match(text, start)
    if possessive is not None:
        start = possessive.end()  # "Sri Lanka Army['s] units": the possessive is the name's
    bracket = _BRACKET.search(text, start, end)
    if bracket is not None:
        end = bracket.start()  # "Monuram Karkun(Kam Phangcho)": an aside's brackets stay balanced in the text
    article = _ARTICLE_BEFORE.search(text[start:end])
    if article is not None:
        end = start + article.start()
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return (start, end) if start < end else None


def to_stretches(extraction: DocumentExtraction) -> DocumentExtraction:
    """``extraction`` in the strict mode: its slots are the stretches, each standing for the pairs its position
    gives, the extractor's own spans lending their predicates. What lies before the first name of a sentence or
    after its last is no stretch and stays as written ("joined Acme in 2005 and left in 2010": "left" stays; the
    default mode masks it as a removed part). Entities and sentences stay as they are."""
    mentions = MentionTable.of_document(extraction)
    read: dict[tuple[int, frozenset[tuple[str, str]]], set[str]] = {}
    spans: list[tuple[int, int, str]] = []
    for triple in extraction.triples:
        ends = frozenset({(triple.subject, triple.subject_type), (triple.object, triple.object_type)})
        for occurrence in triple.occurrences:
            read.setdefault((occurrence.sentence, ends), set()).add(triple.predicate)
            spans.append((occurrence.start, occurrence.end, triple.predicate))
    name, text = extraction.document.name, extraction.document.text
    found: dict[tuple[str, str, str, str, str], set[Occurrence]] = {}
    for region in stretch_regions(extraction):
        occurrence = Occurrence(name, region.sentence, region.start, region.end, text[region.start : region.end])
        inside = {p for start, end, p in spans if region.start <= start and end <= region.end}
        for first, second in positional_pairs(mentions.sentence(region.sentence), region, hangs=False):
            for predicate in read.get((region.sentence, frozenset({first, second}))) or inside or {UNREAD}:
                found.setdefault((*first, predicate, *second), set()).add(occurrence)
    triples = tuple(
        Triple(*key, occurrences=tuple(sorted(occurrences, key=lambda o: (o.start, o.end))))
        for key, occurrences in sorted(found.items())
    )
    return replace(extraction, triples=triples, links=(), stretches=True)
