"""Step 4a: mask every relation slot of a document with its placeholder (paper §5.4).

:func:`mask` turns a document into a :class:`MaskedDocument` whose text holds ``[REL_i]`` placeholders and whose
slots say where they are, which relation groups they stand for and how they belong to one expression. It is the
only step of reconstruction that sees the original text's relation spans; everything after it reads the masked
text, the public mentions and the outcomes only (invariant 7).
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Mapping
from dataclasses import dataclass

from relguard.extract.positions import MentionTable, SlotRegion, slot_table
from relguard.types import DocumentExtraction, PairKey

#: Pronouns a release may replace by the entity they stand for (:mod:`relguard.rewrite.antecedent`): those that
#: open a sentence as its subject, and those that own the noun after them.
SUBJECT_PRONOUNS = frozenset({"he", "she", "it"})
POSSESSIVE_PRONOUNS = frozenset({"his", "her", "its"})


@dataclass(frozen=True)
class Slot:
    """A placeholder in the masked text: which relation groups it stands for and where it is.

    ``groups`` starts with the group whose two entities are named nearest the slot: its outcome is the one the
    fill prints, since a reader takes a relation phrase as linking the names next to it. ``role`` is "" for a
    slot filled on its own, "tail" for the closing part of an expression whose head is slot ``head`` ("was
    founded [in 1777] by"), "removed" for a later part that the head's fill already states ("joined ... and
    left"). ``source`` is the slot's range in the original text (confidential: the review reads it).
    """

    groups: tuple[int, ...]
    sentence: int
    start: int
    end: int
    inverted: bool = False
    role: str = ""
    head: int = -1
    source: tuple[int, int] = (0, 0)


@dataclass(frozen=True)
class MaskedDocument:
    """A document with every relation slot replaced by ``[REL_i]`` (i = corpus-wide relation-group index).

    ``sentences`` are (start, end) ranges in the masked text; ``slots`` are sorted by position; ``mentions``
    are every entity mention as (start, end, type) in the masked text, sorted (:func:`mention_at` searches them) —
    public, since names are never masked.
    ``referents`` are the pronoun mentions that are an end of a slot's group in their sentence, as (start, end,
    the entity's name): the group key names the entity (public), so a release may name it in the pronoun's place
    (:mod:`relguard.rewrite.antecedent`).
    """

    name: str
    text: str
    sentences: tuple[tuple[int, int], ...]
    slots: tuple[Slot, ...]
    mentions: tuple[tuple[int, int, str], ...] = ()
    referents: tuple[tuple[int, int, str], ...] = ()


def mention_at(masked: MaskedDocument, position: int) -> tuple[int, int, str] | None:
    """The mention that starts at ``position``, or None: a search in the sorted mentions, not a scan of them."""
    at = bisect.bisect_left(masked.mentions, (position,))
    found = masked.mentions[at] if at < len(masked.mentions) else None
    return found if found is not None and found[0] == position else None


def prints_own(masked: MaskedDocument, slot: Slot) -> bool:
    """Whether a slot's fill prints an outcome of its own: a slot on its own, or a later part whose nearest pair
    is not its head's (its words are then worded for that pair, not the head's closing preposition)."""
    return not slot.role or slot.groups[0] != masked.slots[slot.head].groups[0]


def placeholder(index: int) -> str:
    return f"[REL_{index}]"


def mask(extraction: DocumentExtraction, group_index: Mapping[PairKey, int]) -> MaskedDocument:
    """Replace every slot region of ``extraction`` with its placeholder.

    ``group_index`` maps each relation group's public key to its corpus-wide index. The regions and which
    groups each stands for come from :func:`relguard.extract.regions.slot_table`, the rule the leak scan uses
    too. A slot is *inverted* when, in the text, the object's mention comes before it and the subject's after
    it ("Acme was founded by Alice"): that is read from entity positions, which stay in the masked text.
    """
    text = extraction.document.text
    table = slot_table(extraction)
    regions = table.regions
    pieces: list[str] = []
    offsets: list[tuple[int, int]] = []
    cursor = 0
    shift = 0
    slots: list[Slot] = []
    primaries: list[int] = []
    for region in regions:
        start, end, pad = region.start, region.end, ""
        if extraction.stretches:  # one blank each side, whatever the stretch had: "Dublin, which" = "Dublin lies"
            while start > cursor and text[start - 1] in " \t":
                start -= 1
            while end < len(text) and text[end] in " \t":
                end += 1
            pad = " "
        pieces.append(text[cursor:start])
        groups = _groups(region, group_index)
        if region.head >= 0 and primaries[region.head] in groups[1:]:  # one expression, one outcome
            groups = (primaries[region.head], *sorted(set(groups) - {primaries[region.head]}))
        primaries.append(groups[0])
        token = pad + placeholder(min(groups)) + pad
        new_start = start + shift
        pieces.append(token)
        slots.append(
            Slot(
                groups,
                region.sentence,
                new_start + len(pad),
                new_start + len(token) - len(pad),
                _inverted(
                    table.mentions,
                    region,
                    groups[0],
                    group_index,
                    after_and=bool(_AND.search(text[max(0, region.start - 8) : region.start])),
                ),
                region.role,
                region.head,
                (region.start, region.end),
            )
        )
        offsets.append((end, len(token) - (end - start)))
        shift += len(token) - (end - start)
        cursor = end
    pieces.append(text[cursor:])

    shifted = [end for end, _ in offsets]
    cumulative = list(itertools.accumulate(change for _, change in offsets))

    def moved(position: int) -> int:
        count = bisect.bisect_right(shifted, position)
        return position + (cumulative[count - 1] if count else 0)

    sentences = tuple((moved(s.start), moved(s.end)) for s in extraction.sentences)
    mentions = tuple((moved(m.start), moved(m.end), m.type) for row in table.mentions.by_sentence.values() for m in row)
    ends = {(r.sentence, entity) for r in regions for key in r.pairs for entity in ((key[0], key[1]), (key[2], key[3]))}
    referents = tuple(
        (moved(m.start), moved(m.end), m.entity[0])
        for row in table.mentions.by_sentence.values()
        for m in row
        if text[m.start : m.end].lower() in SUBJECT_PRONOUNS | POSSESSIVE_PRONOUNS and (m.sentence, m.entity) in ends
    )
    return MaskedDocument(
        extraction.document.name,
        "".join(pieces),
        sentences,
        tuple(slots),
        tuple(sorted(set(mentions))),
        tuple(sorted(set(referents))),
    )


#: A conjunction right before a slot: the verb it opens is coordinated with one before it.
_AND = re.compile(r"\b(?:and|or)\s*$")


def _groups(region: SlotRegion, group_index: Mapping[PairKey, int]) -> tuple[int, ...]:
    """The region's groups by index, the one named nearest first (then by index)."""
    ranked = sorted((distance, group_index[key]) for key, distance in region.pairs.items())
    primary = ranked[0][1]
    return (primary, *sorted({index for _, index in ranked} - {primary}))


def _inverted(
    mentions: MentionTable,
    region: SlotRegion,
    primary: int,
    group_index: Mapping[PairKey, int],
    *,
    after_and: bool = False,
) -> bool:
    """The slot reads from the object: the mention right before it is the object's, not the subject's.

    Extractors put the subject first (the entity named first in the sentence), so a slot between the two reads
    from the subject; a slot after both ("In Madrid, Sofia Jansen [REL] three concerts", "Bob Jones, an Acme
    Corp [REL]") reads from the object, which stands next to it. A slot ``after_and`` between two mentions of the
    object reads from the subject, as the verb it is coordinated with ("directed by Kat Coiro and [co-written by]
    Coiro").
    """
    key = next(k for k in region.pairs if group_index[k] == primary)
    subject = [m.start for m in mentions.of((key[0], key[1]), region.sentence)]
    obj = [m.start for m in mentions.of((key[2], key[3]), region.sentence)]
    if not subject or not obj:
        return False
    before_subject = [s for s in subject if s < region.start]
    before_object = [s for s in obj if s < region.start]
    if not before_object:
        return False
    after = [s for s in subject + obj if s >= region.end]
    if after_and and before_subject and after and min(after) in obj:
        return False  # "directed by Kat Coiro and [co-written by] Coiro": the object again, the verb the subject's
    return not before_subject or max(before_object) > max(before_subject)
