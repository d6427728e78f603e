"""Slot regions, and which entity pairs each one stands for, read from positions alone (DESIGN invariant 11).

An extractor finds *where* relation words are; the stretches it marks, merged where they touch, are the slot
regions (:func:`slot_regions`), and the masked text shows exactly those. Which pairs a region stands for must not
come from its words as well: a parse of "A was founded by B in C" links other pairs than a parse of "A employs B
in C", and a reader of the release sees the pairs through which sentences are deleted together and which
placeholders share one outcome. So :func:`pair_by_position` throws the extractor's pairing away and links, for
every region, the nearest :data:`NEAREST` distinct entities before it with the nearest :data:`NEAREST` after it;
the two nearest before it as well when it hangs on the name before it ("an American [singer]"); and, where a
region has names on one side only, the two nearest there. That is a function of the masked text: region and
mention positions and the entities' names and types.

How well the positional pairs cover the human gold, and how often a reworded neighbour reads the same, is measured
in docs/evaluation.md (``bench/slot_coverage.py``, ``bench/neighbour_share.py``).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Sequence
from dataclasses import replace

from relguard.extract.positions import MentionTable, PlacedMention, Region, slot_regions
from relguard.types import DocumentExtraction, Occurrence, Triple

#: How many distinct entities on each side of a region it links. Too few misses relations whose names stand
#: further from the relation words; each more is another group, so another chance of a null that deletes the
#: sentence (docs/evaluation.md has the coverage of one, two and three).
NEAREST = 3

#: The predicate of a pair that a region stands for by position only, the extractor having read no relation
#: between the two there: the mechanism then draws from a constant input, and the analyst sees which pairs
#: are protected by position rather than by what the text says.
UNREAD = "related_to"
#: An article or possessive right before a name: the name modifies the noun phrase that follows it.
DETERMINER_BEFORE = re.compile(r"(?:^|\s)(?:an?|the|his|her|its|their|our|my|your)\s+$", re.IGNORECASE)
_SENTENCE_START = re.compile(r"(?:^|[.!?:;][\"'”’)\]]*)\s*$")


def pair_by_position(extraction: DocumentExtraction) -> DocumentExtraction:
    """``extraction`` with every region standing for the entity pairs its position gives (module docstring).

    The regions, entities and sentences stay as they are. Each positional pair is oriented by mention order (the
    entity named first in the sentence is the subject) and keeps the predicate the extractor gave that pair in
    that region, else in that sentence; a pair the extractor linked nowhere in the sentence gets :data:`UNREAD`.
    A region with too few names around it to pair (an extractor whose mentions miss a name) keeps the
    extractor's own triples, so no region is ever left unmasked. A second call gives the same result.
    """
    name = extraction.document.name
    own = [(t, o) for t in extraction.triples for o in t.occurrences]
    if not own:
        return extraction
    regions = slot_regions((o.start, o.end, o.sentence) for _, o in own)
    starts = [r.start for r in regions]
    in_region: dict[tuple[int, frozenset[tuple[str, str]]], set[str]] = {}
    in_sentence: dict[tuple[int, frozenset[tuple[str, str]]], set[str]] = {}
    linked: dict[int, list[tuple[Triple, Occurrence]]] = {}
    for triple, occurrence in own:
        index = bisect.bisect_right(starts, occurrence.start) - 1
        linked.setdefault(index, []).append((triple, occurrence))
        ends = frozenset({(triple.subject, triple.subject_type), (triple.object, triple.object_type)})
        in_region.setdefault((index, ends), set()).add(triple.predicate)
        in_sentence.setdefault((occurrence.sentence, ends), set()).add(triple.predicate)
    mentions = MentionTable.of_document(extraction)
    text = extraction.document.text
    found: dict[tuple[str, str, str, str, str], set[Occurrence]] = {}
    for index, region in enumerate(regions):
        row = mentions.sentence(region.sentence)
        occurrence = Occurrence(name, region.sentence, region.start, region.end, text[region.start : region.end])
        pairs = positional_pairs(row, region, hangs=hangs(text, row, region))
        for first, second in pairs:
            ends = frozenset({first, second})
            predicates = in_region.get((index, ends)) or in_sentence.get((region.sentence, ends)) or {UNREAD}
            for predicate in predicates:
                found.setdefault((*first, predicate, *second), set()).add(occurrence)
        if not pairs:
            for triple, piece in linked[index]:
                key = (triple.subject, triple.subject_type, triple.predicate, triple.object, triple.object_type)
                found.setdefault(key, set()).add(piece)
    triples = tuple(
        Triple(*key, occurrences=tuple(sorted(occurrences, key=lambda o: (o.start, o.end))))
        for key, occurrences in sorted(found.items())
    )
    return replace(extraction, triples=triples)


def opens_noun_phrase(text: str, start: int, end: int) -> bool:
    """Whether the name at ``start:end`` follows an article or possessive inside its sentence, so that a slot right
    after it ends that noun phrase ("is an [American] singer", "Bob Jones, an [Acme Corp] employee", "the
    [Canadian] province of"). A sentence that opens with "The" names its subject that way ("The Harbor Street
    Clinic is a community health centre in Boston"), and "the" before a name of several words is mostly that
    name's own article ("leads the Harbor Street Clinic and teaches at"): the slot after either is a verb."""
    window = text[max(0, start - 12) : start]
    found = DETERMINER_BEFORE.search(window)
    if not found:
        return False
    article = max(0, start - 12) + found.start() + (window[found.start()].isspace())
    if text[article : article + 3].lower() == "the" and " " in text[start:end].strip():
        return False
    return not _SENTENCE_START.search(text[max(0, article - 8) : article])


def hangs(text: str, row: Sequence[PlacedMention], region: Region) -> bool:
    """Whether ``region`` ends a noun phrase that the name right before it opens with an article ("an American
    [singer]", "the Canadian [province of]"): blanks between them, a determiner before the name."""
    before = [m for m in row if m.end <= region.start]
    if not before:
        return False
    last = max(before, key=lambda m: m.end)
    start, end = last.start, last.end
    return not text[end : region.start].strip() and opens_noun_phrase(text, start, end)


def positional_pairs(
    row: Sequence[PlacedMention], region: Region, *, hangs: bool
) -> list[tuple[tuple[str, str], tuple[str, str]]]:
    """The pairs ``region`` stands for, each (subject, object) by first mention in the sentence.

    ``hangs`` (:func:`hangs`): the region is the head of a noun phrase the name before it modifies ("an
    American [singer from]"), so it also links the two entities before it, as a role noun after a name does.
    """
    before = _distinct(m for m in reversed(row) if m.end <= region.start)
    after = _distinct(m for m in row if m.start >= region.end)
    pairs = [(a, b) for a in before for b in after]
    if pairs and hangs and len(before) >= 2:
        pairs.append((before[1], before[0]))
    elif not pairs and len(before) >= 2:
        pairs = [(before[1], before[0])]
    elif not pairs and len(after) >= 2:
        pairs = [(after[0], after[1])]
    first = {}
    for m in row:
        first.setdefault(m.entity, m.start)
    return [(a, b) if first[a] <= first[b] else (b, a) for a, b in pairs if a != b]


def _distinct(mentions: Iterable[PlacedMention]) -> list[tuple[str, str]]:
    """The first :data:`NEAREST` distinct entities of ``mentions`` (taken in the order given)."""
    found: list[tuple[str, str]] = []
    for m in mentions:
        entity = m.entity
        if entity not in found:
            found.append(entity)
            if len(found) == NEAREST:
                break
    return found
