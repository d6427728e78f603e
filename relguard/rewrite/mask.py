"""Step 4a: mask every relation span of a document with its placeholder (paper §5.4).

:func:`mask` turns a document into a :class:`MaskedDocument` whose text holds ``[REL_i]`` placeholders and whose
slots say where they are and what stands around them. It is the only step of reconstruction that sees the
original text's relation spans; everything after it reads the masked text and the outcomes only (invariant 7).
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from relguard.extract.regions import joins_slot, mentions_by_entity, opens_noun_phrase, pair_distance
from relguard.types import DocumentExtraction, Triple


@dataclass(frozen=True)
class Slot:
    """A placeholder in the masked text: which relation groups it stands for and where it is.

    ``groups`` starts with the group whose two entities are named nearest the slot (by characters between, in
    its sentence; then by index): its outcome is the one the fill prints, since a reader takes a relation
    phrase as linking the names next to it. The others follow in index order.
    """

    groups: tuple[int, ...]
    sentence: int
    start: int
    end: int
    inverted: bool = False
    context: str = ""


@dataclass(frozen=True)
class MaskedDocument:
    """A document with every relation span replaced by ``[REL_i]`` (i = corpus-wide relation-group index).

    ``sentences`` are (start, end) ranges in the masked text; ``slots`` are sorted by position.
    """

    name: str
    text: str
    sentences: tuple[tuple[int, int], ...]
    slots: tuple[Slot, ...]


def placeholder(index: int) -> str:
    return f"[REL_{index}]"


def mask(extraction: DocumentExtraction, group_index: Mapping[tuple, int]) -> MaskedDocument:
    """Replace every recorded relation span with its placeholder.

    ``group_index`` maps each relation group's public key to its corpus-wide index. Occurrences whose spans
    overlap or touch (``"Alice and Bob founded Acme"`` gives two groups on one span) are merged into one slot
    that stands for all of them (:func:`joins_slot`), first the group named nearest it (:class:`Slot`).
    A slot is *inverted* when, in the text, the object's mention comes before it
    and the subject's after it ("Acme was founded by Alice"): that is read from
    entity positions, which stay in the masked text, not from the relation words.
    """
    text = extraction.document.text
    named = mentions_by_entity(extraction)
    ends = _mention_ends(extraction)
    opened = _clause_ends(extraction, ends)
    spans: list[tuple[int, int, int, int, int, bool, str]] = []
    for triple in extraction.triples:
        index = group_index[triple.pair_key]
        pair = _pair_mentions(named, triple)
        for occ in triple.occurrences:
            if occ.document == extraction.document.name:
                here = [m.get(occ.sentence, ()) for m in pair]
                inverted = _is_inverted(occ.start, *([a for a, _ in mentions] for mentions in here))
                context = _context(text, occ.start, ends.get(occ.sentence, ()), opened.get(occ.sentence, ()))
                distance = pair_distance(occ.start, occ.end, *here)
                spans.append((occ.start, occ.end, distance, index, occ.sentence, inverted, context))
    merged: list[list] = []  # start, end, sentence, context, {group: (distance, inverted) of its nearest span}
    for start, end, distance, index, sentence, inverted, context in sorted(spans):
        if merged and joins_slot(start, sentence, last_end=merged[-1][1], last_sentence=merged[-1][2]):
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end, sentence, context, {}])
        members = merged[-1][4]
        if index not in members or distance < members[index][0]:
            members[index] = (distance, inverted)

    pieces: list[str] = []
    offsets: list[tuple[int, int]] = []
    cursor = 0
    shift = 0
    slots: list[Slot] = []
    for start, end, sentence, context, members in merged:
        pieces.append(text[cursor:start])
        token = placeholder(min(members))
        new_start = start + shift
        pieces.append(token)
        primary = min(members, key=lambda index: (members[index][0], index))
        groups = (primary, *sorted(set(members) - {primary}))
        slots.append(Slot(groups, sentence, new_start, new_start + len(token), members[primary][1], context))
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
    return MaskedDocument(extraction.document.name, "".join(pieces), sentences, tuple(slots))


def _pair_mentions(
    named: Mapping[tuple[str, str], dict[int, list[tuple[int, int]]]], triple: Triple
) -> tuple[dict[int, list[tuple[int, int]]], dict[int, list[tuple[int, int]]]]:
    """The subject's and the object's mentions by sentence."""
    return named.get((triple.subject, triple.subject_type), {}), named.get((triple.object, triple.object_type), {})


def _mention_ends(extraction: DocumentExtraction) -> dict[int, list[tuple[int, int]]]:
    found: dict[int, list[tuple[int, int]]] = {}
    for entity in extraction.entities:
        for mention in entity.mentions:
            found.setdefault(mention.sentence, []).append((mention.start, mention.end))
    return found


def _clause_ends(extraction: DocumentExtraction, mentions: Mapping[int, list[tuple[int, int]]]) -> dict[int, list[int]]:
    """Per sentence, where each slot ends that opens right at a name's end: a comma or a relative clause set off
    by one ("Steve Wozniak[, who founded] Apple"), so a name after it sits inside that clause."""
    found: dict[int, list[int]] = {}
    for triple in extraction.triples:
        for occ in triple.occurrences:
            if occ.document != extraction.document.name:
                continue
            if any(end == occ.start for _, end in mentions.get(occ.sentence, ())):
                found.setdefault(occ.sentence, []).append(occ.end)
    return found


_POSSESSIVE_PRONOUNS = frozenset({"his", "her", "its", "their"})
#: A preposition right before a name: the name is its object, so a slot right after it cannot be the main verb.
_PREPOSITION_BEFORE = re.compile(
    r"(?:^|\s)(?:in|at|on|of|from|to|with|by|for|into|near|during|under|over|across|through|against|between|among"
    r"|within|via)\s+$",
    re.IGNORECASE,
)


def _context(text: str, position: int, mentions, opened: Sequence[int] = ()) -> str:
    """What stands right before a slot: an entity ("entity"), an entity after an article, so the slot ends a noun
    phrase ("modifier": "an Acme Corp [REL]"), an entity after a preposition, so the slot qualifies it ("object":
    "recorded at Studio 92 [REL] Canada"), an entity and a comma ("apposition"), or an entity that itself
    sits between commas or closes a relative clause ("after_apposition": the slot is the main verb, as in
    "Steve Wozniak, who founded Apple, [lives in] California"), or an entity with not even a space between
    ("juxtaposed": the slot was the comma of "Dublin, Ohio"). ``opened`` are the ends of slots that open at a
    name (:func:`_clause_ends`). Entity and slot positions are public and unchanged by masking, so this is a
    function of the masked text."""
    before = [m for m in mentions if m[1] <= position]
    if not before:
        return ""
    start, end = max(before, key=lambda m: m[1])
    gap = text[end:position]
    if not gap:
        return "juxtaposed"
    if not gap.strip():
        if text[start:end].lower() in _POSSESSIVE_PRONOUNS:
            return ""  # "of its [REL]": a role noun after a possessive, as after "Acme Corp's"
        if opens_noun_phrase(text, start, end):
            return "modifier"
        return "object" if _PREPOSITION_BEFORE.search(text[max(0, start - 12) : start]) else "entity"
    if gap.strip() == ",":
        inside = re.search(r"[,(]\s*$", text[max(0, start - 3) : start]) or any(
            end <= start and not text[end:start].strip() for end in opened
        )
        return "after_apposition" if inside else "apposition"
    return ""


def _is_inverted(position: int, subject_starts, object_starts) -> bool:
    """The slot reads from the object: the mention right before it is the object's, not the subject's.

    Extractors put the subject first (the entity named first in the sentence), so a slot between the two reads
    from the subject; a slot after both ("In Madrid, Sofia Jansen [REL] three concerts", "Bob Jones, an Acme
    Corp [REL]") reads from the object, which stands next to it.
    """
    if not subject_starts or not object_starts:
        return False
    before_subject = [s for s in subject_starts if s < position]
    before_object = [s for s in object_starts if s < position]
    if not before_object:
        return False
    return not before_subject or max(before_object) > max(before_subject)
