"""The neighbour share: how often another wording of a relation leaves slots, types, direction and mask unchanged.

DESIGN invariant 11 asks that which pairs get a slot, their types and the slot's direction never depend on the
relation's words. This measures it on real documents. For each slot of a document, its span is replaced by the
wording RelGuard itself would print there for another predicate of the slot's public pool (what a release with
another outcome would read); the neighbour document is extracted again and compared with the original:

* the masked text (every slot a placeholder numbered by its entity pair, everything else verbatim), and
* each slot's entity pairs with their types and direction, and every entity's type.

A neighbour is *identical* when both agree. The share of identical neighbours is what a reader of a release
cannot use to tell two wordings apart before any outcome is drawn.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from relguard.extract.corpus import group_relations
from relguard.rewrite import FormVerbalizer, mask
from relguard.rewrite.mask import joins_slot
from relguard.types import Document, DocumentExtraction


@dataclass(frozen=True)
class NeighbourShare:
    """Identical neighbours out of all tried; ``differing`` keeps a few examples (document, span, wording)."""

    identical: int
    tried: int
    differing: tuple[tuple[str, str, str], ...] = field(default=())

    @property
    def share(self) -> float:
        return self.identical / self.tried if self.tried else 1.0


def signature(extraction: DocumentExtraction) -> tuple:
    """What must not change between neighbours: the masked text, each slot's pairs, every entity's type."""
    keys = sorted({t.pair_key for t in extraction.triples})
    masked = mask(extraction, {key: number for number, key in enumerate(keys)})
    slots = tuple((slot.sentence, tuple(keys[g] for g in slot.groups)) for slot in masked.slots)
    return masked.text, slots, tuple(sorted((e.name, e.type) for e in extraction.entities))


def neighbour_share(
    documents: Iterable[Document], extractor, generator, *, k: int = 10, examples: int = 20
) -> NeighbourShare:
    """The share of identical neighbours over every slot of ``documents`` (see the module docstring).

    ``generator`` is the pool backend (its pools give the other predicates, its forms their wordings).
    """
    verbalize = FormVerbalizer(generator.forms)
    identical = tried = 0
    differing: list[tuple[str, str, str]] = []
    originals = list(extractor.extract_many(list(documents)))
    for extraction in originals:
        base = signature(extraction)
        neighbours = list(_neighbours(extraction, generator, verbalize, k))
        if not neighbours:
            continue
        found = extractor.extract_many([n for n, _, _ in neighbours])
        for (_, span, wording), result in zip(neighbours, found, strict=True):
            tried += 1
            if signature(result) == base:
                identical += 1
            elif len(differing) < examples:
                differing.append((extraction.document.name, span, wording))
    return NeighbourShare(identical, tried, tuple(differing))


def _neighbours(
    extraction: DocumentExtraction, generator, verbalize: FormVerbalizer, k: int
) -> Iterable[tuple[Document, str, str]]:
    """One neighbour document per slot: its span replaced by another pool predicate's wording in that place."""
    groups = group_relations([extraction])
    index = {g.key: number for number, g in enumerate(groups)}
    masked = mask(extraction, index)
    text = extraction.document.text
    ranges = _slot_ranges(extraction)
    for number, (slot, (start, end)) in enumerate(zip(masked.slots, ranges, strict=True)):
        group = groups[slot.groups[0]]
        pool = generator.generate(group.type_pair, k).predicates
        original = text[start:end]
        before = masked.text[max(0, slot.start - 80) : slot.start]
        after = masked.text[slot.end : slot.end + 80]
        for offset in range(len(pool)):
            predicate = pool[(number + offset) % len(pool)]
            if predicate in group.predicates:
                continue
            wording = verbalize(predicate, group.type_pair, before, after, inverted=slot.inverted, context=slot.context)
            if wording and wording != original:
                document = Document(extraction.document.name, text[:start] + wording + text[end:])
                yield document, original, wording
                break


def _slot_ranges(extraction: DocumentExtraction) -> Sequence[tuple[int, int]]:
    """The original character range of each slot, spans in one sentence merged as masking merges them."""
    spans = sorted((o.start, o.end, o.sentence) for t in extraction.triples for o in t.occurrences)
    merged: list[list[int]] = []
    for start, end, sentence in spans:
        if merged and joins_slot(start, sentence, last_end=merged[-1][1], last_sentence=merged[-1][2]):
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end, sentence])
    return [(start, end) for start, end, _ in merged]
