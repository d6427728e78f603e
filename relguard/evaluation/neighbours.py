"""The neighbour share: how often another wording of a relation leaves slots, types, direction and mask unchanged.

DESIGN invariant 11 asks that which pairs get a slot, their types and the slot's direction never depend on the
relation's words. This measures it on real documents. For each slot of a document, its span is replaced by the
wording RelGuard itself would print there for another predicate of the slot's public pool (what a release with
another outcome would read); the neighbour document is extracted again and compared with the original:

* the masked text (every slot a placeholder numbered by its entity pair, everything else verbatim), and
* each slot's entity pairs with their types and direction, and every entity's type.

A neighbour is *identical* when both agree. The share of identical neighbours is what a reader of a release
cannot use to tell two wordings apart before any outcome is drawn. A neighbour that differs is put down to the
first of :data:`CAUSES` that applies, and the share with the same slot *regions* (the masked text with every
placeholder alike) is counted too: it bounds what any later step that reads only the masked text could reach.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from relguard.engine.rewrite import mask_document
from relguard.extract.corpus import group_relations
from relguard.rewrite import FormVerbalizer, Sampled
from relguard.rewrite.fill import CLOSE, slot_words
from relguard.rewrite.frames import read_frames
from relguard.rewrite.seams import mend
from relguard.types import Document, DocumentExtraction

#: Why a neighbour differs, tested in this order: an entity pair of the original has no slot any more, a new pair
#: has one, a pair's direction turned, an entity's type changed, the same pairs sit in other slots, or only the
#: span's extent moved.
CAUSES = ("pair lost", "pair added", "direction", "entity type", "slot grouping", "span boundary")
_PLACEHOLDER = re.compile(r"\[REL_\d+\]")


@dataclass(frozen=True)
class NeighbourShare:
    """Identical neighbours out of all tried, why the others differ, and how many kept the same slot regions.

    ``differing`` keeps a few examples (document, span, wording, cause).
    """

    identical: int
    tried: int
    differing: tuple[tuple[str, str, str, str], ...] = field(default=())
    causes: Mapping[str, int] = field(default_factory=dict)
    same_regions: int = 0

    @property
    def share(self) -> float:
        return self.identical / self.tried if self.tried else 1.0


def signature(extraction: DocumentExtraction) -> tuple:
    """What must not change between neighbours: the masked text, each slot's pairs, every entity's type."""
    keys = sorted({t.pair_key for t in extraction.triples})
    masked = mask_document(extraction, {key: number for number, key in enumerate(keys)})
    slots = tuple((slot.sentence, tuple(keys[g] for g in slot.groups)) for slot in masked.slots)
    return masked.text, slots, tuple(sorted((e.name, e.type) for e in extraction.entities))


def difference(original: DocumentExtraction, neighbour: DocumentExtraction) -> str | None:
    """Why ``neighbour`` is told apart from ``original``: the first of :data:`CAUSES` that applies, or None."""
    base, other = signature(original), signature(neighbour)
    if base == other:
        return None
    ordered, ordered_other = _pairs(original), _pairs(neighbour)
    unordered, unordered_other = ({frozenset(p) for p in pairs} for pairs in (ordered, ordered_other))
    if unordered - unordered_other:
        return "pair lost"
    if unordered_other - unordered:
        return "pair added"
    if ordered != ordered_other:
        return "direction"
    if base[2] != other[2] or {t.pair_key for t in original.triples} != {t.pair_key for t in neighbour.triples}:
        return "entity type"
    return "slot grouping" if base[1] != other[1] else "span boundary"


def same_regions(original: DocumentExtraction, neighbour: DocumentExtraction) -> bool:
    """Whether both mask the same stretches of text, whatever pairs, types or directions the slots hold."""
    return _PLACEHOLDER.sub("[REL]", signature(original)[0]) == _PLACEHOLDER.sub("[REL]", signature(neighbour)[0])


def _pairs(extraction: DocumentExtraction) -> set[tuple[str, str]]:
    return {(t.subject, t.object) for t in extraction.triples}


def neighbour_share(
    documents: Iterable[Document], extractor, generator, *, k: int = 10, examples: int = 20
) -> NeighbourShare:
    """The share of identical neighbours over every slot of ``documents`` (see the module docstring).

    ``generator`` is the pool backend (its pools give the other predicates, its forms their wordings).
    """
    verbalize = FormVerbalizer(generator.forms)
    tried = regions = 0
    causes: Counter[str] = Counter()
    differing: list[tuple[str, str, str, str]] = []
    originals = list(extractor.extract_many(list(documents)))
    for extraction in originals:
        neighbours = list(_neighbours(extraction, generator, verbalize, k))
        if not neighbours:
            continue
        found = extractor.extract_many([n for n, _, _ in neighbours])
        for (_, span, wording), result in zip(neighbours, found, strict=True):
            tried += 1
            regions += same_regions(extraction, result)
            cause = difference(extraction, result)
            if cause is None:
                continue
            causes[cause] += 1
            if len(differing) < examples:
                differing.append((extraction.document.name, span, wording, cause))
    identical = tried - sum(causes.values())
    return NeighbourShare(identical, tried, tuple(differing), {c: causes[c] for c in CAUSES}, regions)


def _neighbours(
    extraction: DocumentExtraction, generator, verbalize: FormVerbalizer, k: int
) -> Iterable[tuple[Document, str, str]]:
    """One neighbour document per slot: its expression replaced by another pool predicate's wording there, worded
    as a release would word it in that frame (its later parts too)."""
    groups = group_relations([extraction])
    index = {g.key: number for number, g in enumerate(groups)}
    masked = mask_document(extraction, index)
    frames = read_frames(masked)
    text = extraction.document.text
    for number, slot in enumerate(masked.slots):
        if slot.role:
            continue
        group = groups[slot.groups[0]]
        parts = [number] + [n for n, s in enumerate(masked.slots) if s.head == number and s.role]
        original = text[slot.source[0] : slot.source[1]]
        pool = generator.generate(group.type_pair, k).predicates
        for offset in range(len(pool)):
            predicate = pool[(number + offset) % len(pool)]
            if predicate in group.predicates:
                continue
            involved = {i for n in parts for i in masked.slots[n].groups}
            outcomes = {i: Sampled(groups[i].type_pair, predicate) for i in involved}
            words, unfillable = slot_words(masked, outcomes, verbalize, frames, only=parts)
            if unfillable or set(words) != set(parts) or words[number].removesuffix(CLOSE) == original:
                continue
            reworded = text
            for n in sorted(parts, key=lambda n: -masked.slots[n].source[0]):
                start, end = masked.slots[n].source
                before, piece = mend(reworded[:start], words[n].removesuffix(CLOSE), reworded[end : end + 2], False)
                reworded = before + piece + reworded[end:]
            yield Document(extraction.document.name, reworded), original, words[number].removesuffix(CLOSE)
            break
