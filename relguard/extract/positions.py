"""Where names and slots are, in one place: the mention table and the one rule that makes slots from spans.

Every step that reads positions — pairing regions by position, masking, the leak scan, the review — reads them
from here, so a change to how slots are cut is made once: :class:`MentionTable` holds every mention of a document
by sentence; :func:`slot_table` merges relation spans into slot regions (spans of one sentence that overlap or
touch are one slot, :func:`joins_slot`), says which entity pairs each region stands for and how far each pair is
named from it, and which regions are later parts of one expression (:class:`~relguard.types.Link`; a part that
closes one pair's expression and is removed in another's is a tail).
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from relguard.types import DocumentExtraction, PairKey

Entity = tuple[str, str]  # (canonical name, type)


@dataclass(frozen=True)
class PlacedMention:
    """One mention of an entity: its sentence, character range and the entity (name, type) it names."""

    sentence: int
    start: int
    end: int
    entity: Entity

    @property
    def type(self) -> str:
        return self.entity[1]


@dataclass(frozen=True)
class MentionTable:
    """Every mention of a document, by sentence and sorted by position."""

    by_sentence: Mapping[int, tuple[PlacedMention, ...]]

    @classmethod
    def of_document(cls, extraction: DocumentExtraction) -> MentionTable:
        rows: dict[int, list[PlacedMention]] = {}
        for entity in extraction.entities:
            for m in entity.mentions:
                rows.setdefault(m.sentence, []).append(
                    PlacedMention(m.sentence, m.start, m.end, (entity.name, entity.type))
                )
        return cls({s: tuple(sorted(row, key=lambda m: (m.start, m.end))) for s, row in rows.items()})

    def sentence(self, sentence: int) -> tuple[PlacedMention, ...]:
        return self.by_sentence.get(sentence, ())

    def of(self, entity: Entity, sentence: int) -> tuple[PlacedMention, ...]:
        return tuple(m for m in self.sentence(sentence) if m.entity == entity)


@dataclass(frozen=True)
class Region:
    """A stretch of one sentence that a release masks: one or more relation spans that overlap or touch."""

    sentence: int
    start: int
    end: int


@dataclass(frozen=True)
class SlotRegion(Region):
    """A region with the entity pairs (group keys) it stands for, each with its distance to the region, and its
    place in a multi-part expression: ``role`` "tail" or "removed" and ``head`` the index of its head region."""

    pairs: Mapping[PairKey, int] = field(default_factory=dict)
    role: str = ""
    head: int = -1


@dataclass(frozen=True)
class SlotTable:
    mentions: MentionTable
    regions: tuple[SlotRegion, ...]


def joins_slot(start: int, sentence: int, *, last_end: int, last_sentence: int) -> bool:
    """Whether a span starting at ``start`` is part of the slot before it: spans of one sentence that overlap or
    touch are one slot, filled once. Two fills with nothing between them would run together ("which suedsued")."""
    return sentence == last_sentence and start <= last_end


def slot_regions(spans: Iterable[tuple[int, int, int]]) -> list[Region]:
    """The regions that ``spans`` (start, end, sentence) make: sorted, merged where :func:`joins_slot` says so."""
    merged: list[list[int]] = []
    for start, end, sentence in sorted(spans):
        if merged and joins_slot(start, sentence, last_end=merged[-1][1], last_sentence=merged[-1][2]):
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end, sentence])
    return [Region(sentence, start, end) for start, end, sentence in merged]


def pair_distance(start: int, end: int, *entities: Sequence[PlacedMention]) -> int:
    """How far a span stands from a pair: for each entity, the characters between the span and that entity's
    nearest mention in the span's sentence, summed. A slot that stands for several groups is filled with the
    outcome of the nearest one, since a reader takes a relation phrase as linking the names next to it."""
    return sum(
        min((start - m.end if m.end <= start else m.start - end for m in mentions), default=10**9)
        for mentions in entities
    )


def slot_table(extraction: DocumentExtraction) -> SlotTable:
    """The document's mentions and slot regions, each region with its pairs and its role in an expression."""
    mentions = MentionTable.of_document(extraction)
    spans = [(o.start, o.end, o.sentence) for t in extraction.triples for o in t.occurrences]
    regions = slot_regions(spans)
    starts = [r.start for r in regions]
    pairs: list[dict[PairKey, int]] = [{} for _ in regions]
    for triple in extraction.triples:
        ends = ((triple.subject, triple.subject_type), (triple.object, triple.object_type))
        for occ in triple.occurrences:
            number = bisect.bisect_right(starts, occ.start) - 1
            here = [mentions.of(e, occ.sentence) for e in ends]
            distance = pair_distance(occ.start, occ.end, *here)
            known = pairs[number].get(triple.pair_key)
            if known is None or distance < known:
                pairs[number][triple.pair_key] = distance
    roles: dict[int, tuple[str, int]] = {}
    for link in sorted(extraction.links, key=lambda link: (link.part, link.head, link.role != "tail")):
        head, part = _containing(regions, starts, link.head), _containing(regions, starts, link.part)
        if head is not None and part is not None and head < part and part not in roles and head not in roles:
            roles[part] = (link.role, head)
    return SlotTable(
        mentions,
        tuple(SlotRegion(r.sentence, r.start, r.end, pairs[n], *roles.get(n, ("", -1))) for n, r in enumerate(regions)),
    )


def _containing(regions: Sequence[Region], starts: Sequence[int], position: int) -> int | None:
    number = bisect.bisect_right(starts, position) - 1
    if number >= 0 and regions[number].start <= position < regions[number].end:
        return number
    return None
