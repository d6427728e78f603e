"""Document reconstruction (paper §5.4): mask relation spans, then delete or fill.

The two steps are split so that the second provably never reads an original
relation expression (DESIGN invariant 7): :func:`mask` turns a document into a
:class:`MaskedDocument` whose text holds ``[REL_i]`` placeholders and whose
records say where they are; :func:`fill` takes only that masked document and
the sampled outcomes. Documents that differ only in relation expressions have
the same masked document and so the same output for the same outcomes.
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from relguard.types import DocumentExtraction, SanitizedDocument, TypePair


@dataclass(frozen=True)
class Slot:
    """A placeholder in the masked text: which relation groups it stands for and where it is."""

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
    overlap (``"Alice and Bob founded Acme"`` gives two groups on one span) are merged into one slot that
    stands for all of them.
    A slot is *inverted* when, in the text, the object's mention comes before it
    and the subject's after it ("Acme was founded by Alice"): that is read from
    entity positions, which stay in the masked text, not from the relation words.
    """
    text = extraction.document.text
    mentions = _mention_starts(extraction)
    ends = _mention_ends(extraction)
    spans: list[tuple[int, int, int, int, bool, str]] = []
    for triple in extraction.triples:
        index = group_index[triple.pair_key]
        subject = mentions.get((triple.subject, triple.subject_type), {})
        obj = mentions.get((triple.object, triple.object_type), {})
        for occ in triple.occurrences:
            if occ.document == extraction.document.name:
                inverted = _is_inverted(occ.start, subject.get(occ.sentence, ()), obj.get(occ.sentence, ()))
                context = _context(text, occ.start, ends.get(occ.sentence, ()))
                spans.append((occ.start, occ.end, index, occ.sentence, inverted, context))
    spans.sort()
    merged: list[list] = []
    for start, end, index, sentence, inverted, context in spans:
        if merged and start < merged[-1][1] and merged[-1][3] == sentence:
            last = merged[-1]
            last[1] = max(last[1], end)
            if index not in last[2]:
                last[2].append(index)
        else:
            merged.append([start, end, [index], sentence, inverted, context])

    pieces: list[str] = []
    offsets: list[tuple[int, int]] = []
    cursor = 0
    shift = 0
    slots: list[Slot] = []
    for start, end, indices, sentence, inverted, context in merged:
        pieces.append(text[cursor:start])
        token = placeholder(min(indices))
        new_start = start + shift
        pieces.append(token)
        slots.append(Slot(tuple(sorted(indices)), sentence, new_start, new_start + len(token), inverted, context))
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


def _mention_starts(extraction: DocumentExtraction) -> dict[tuple[str, str], dict[int, list[int]]]:
    found: dict[tuple[str, str], dict[int, list[int]]] = {}
    for entity in extraction.entities:
        by_sentence = found.setdefault((entity.name, entity.type), {})
        for mention in entity.mentions:
            by_sentence.setdefault(mention.sentence, []).append(mention.start)
    return found


def _mention_ends(extraction: DocumentExtraction) -> dict[int, list[tuple[int, int]]]:
    found: dict[int, list[tuple[int, int]]] = {}
    for entity in extraction.entities:
        for mention in entity.mentions:
            found.setdefault(mention.sentence, []).append((mention.start, mention.end))
    return found


def _context(text: str, position: int, mentions) -> str:
    """What stands right before a slot: an entity ("entity"), an entity and a comma ("apposition"), or an
    entity that itself sits between commas ("after_apposition": the slot is the main verb). Entity positions
    are public and unchanged by masking, so this is a function of the masked text."""
    before = [m for m in mentions if m[1] <= position]
    if not before:
        return ""
    start, end = max(before, key=lambda m: m[1])
    gap = text[end:position]
    if not gap.strip():
        return "entity"
    if gap.strip() == ",":
        return "after_apposition" if re.search(r"[,(]\s*$", text[max(0, start - 3) : start]) else "apposition"
    return ""


def _is_inverted(position: int, subject_starts, object_starts) -> bool:
    """The nearest subject mention follows the span and the nearest object mention precedes it."""
    if not subject_starts or not object_starts:
        return False
    nearest_subject = min(subject_starts, key=lambda start: abs(start - position))
    nearest_object = min(object_starts, key=lambda start: abs(start - position))
    return nearest_subject > position > nearest_object


Verbalizer = Callable[..., str]


@dataclass(frozen=True)
class Sampled:
    """What ``fill`` may know of a triple: its public type pair and the sampled predicate (None = null)."""

    type_pair: TypePair
    predicate: str | None


def fill(
    masked: MaskedDocument,
    outcomes: Mapping[int, Sampled],
    verbalize: Verbalizer,
    *,
    withheld: Iterable[int] = (),
) -> SanitizedDocument:
    """Delete every sentence holding a null outcome (and every ``withheld`` one) and fill the other placeholders.

    ``verbalize(predicate, type_pair, text_before, text_after, inverted=..., context=...)``
    sees only the sampled predicate, the public type pair, the masked text
    around the slot, whether the object comes first there and what precedes it. Text outside
    slots and deleted sentences is copied byte for byte; line and paragraph breaks around a deleted
    sentence stay (:func:`removed_ranges`).
    """
    deleted = sorted(
        {slot.sentence for slot in masked.slots if any(outcomes[i].predicate is None for i in slot.groups)}
    )
    held = sorted(set(withheld) - set(deleted))
    kept = _complement(removed_ranges(masked.text, masked.sentences, set(deleted) | set(held)), len(masked.text))
    pieces: list[str] = []
    filled = 0
    for start, end in kept:
        piece, count = _fill_range(masked.text, start, end, masked.slots, outcomes, verbalize)
        pieces.append(piece)
        filled += count
    return SanitizedDocument(masked.name, "".join(pieces), tuple(deleted), filled, tuple(held))


def removed_ranges(text: str, bounds: Sequence[tuple[int, int]], deleted: set[int]) -> list[tuple[int, int]]:
    """The character ranges that go with each deleted sentence, keeping the document's line structure.

    A deleted sentence takes the spaces after it when the next sentence follows on the same line ("A. B. C."
    without B is "A. C."); otherwise it takes the spaces before it, back to the previous kept sentence on its
    line, so a line or paragraph break after it survives ("A. B.\n\nC." without B is "A.\n\nC."). A sentence
    alone on its line goes with the break after it, so the neighbouring paragraphs keep one separator.
    """
    ranges = []
    for number in sorted(deleted):
        start, end = bounds[number]
        after = bounds[number + 1][0] if number + 1 < len(bounds) else None
        previous = [bounds[n][1] for n in range(number) if n not in deleted]
        before = previous[-1] if previous else None
        if after is not None and "\n" not in text[end:after]:
            ranges.append((start, after))
        elif before is not None and "\n" not in text[before:start]:
            ranges.append((before, end))
        elif after is not None:
            ranges.append((start, after))
        else:
            ranges.append((before if before is not None else start, end))
    return ranges


def _complement(ranges: list[tuple[int, int]], length: int) -> list[tuple[int, int]]:
    kept = []
    cursor = 0
    for start, end in sorted(ranges):
        if start > cursor:
            kept.append((cursor, start))
        cursor = max(cursor, end)
    kept.append((cursor, length))
    return kept


def _fill_range(text, start, end, slots, outcomes, verbalize) -> tuple[str, int]:
    pieces: list[str] = []
    cursor = start
    count = 0
    for slot in slots:
        if slot.start < start or slot.end > end:
            continue
        sampled = outcomes[slot.groups[0]]
        pieces.append(text[cursor : slot.start])
        before, after = text[max(0, slot.start - 80) : slot.start], text[slot.end : slot.end + 80]
        pieces.append(
            verbalize(
                sampled.predicate or "", sampled.type_pair, before, after, inverted=slot.inverted, context=slot.context
            )
        )
        cursor = slot.end
        count += 1
    pieces.append(text[cursor:end])
    return "".join(pieces), count


_WORD = re.compile(r"[A-Za-z']+")
_COPULA = {"is", "was", "are", "were", "be", "been", "being"}
_DETERMINERS = {"the", "a", "an"}
_CLAUSE_OPENERS = {
    "who", "which", "that", "whom", "he", "she", "it", "they", "we", "i", "you", "and", "or", "but", "also",
    "later", "then", "now", "still", "once", "soon", "first", "never", "often", "again", "already", "has",
    "had", "have", "not", "jointly", "together", "reportedly",
}  # fmt: skip
_LEADING_COPULA = re.compile(r"^(is|was|are|were)\s+")


class FormVerbalizer:
    """Turns a sampled predicate into words that fit the masked text around its slot.

    Forms come from the public inventory: ``clause`` ("SUBJECT is the capital of
    OBJECT"), ``inverse`` ("OBJECT has as its capital SUBJECT") and the role
    ``noun`` ("capital"). Which one fits is decided from the masked text before
    the slot and the slot's orientation only: after a possessive the role noun,
    after a determiner the noun phrase, after a copula the form without its
    copula, after a comma an apposition, after a common noun a reduced relative
    clause, else the clause (or its inverse when the object comes first).
    """

    def __init__(self, forms: Callable[[str, TypePair], Mapping[str, str | None]]) -> None:
        self._forms = forms

    def __call__(
        self, predicate: str, type_pair: TypePair, before: str, after: str, *, inverted: bool = False, context: str = ""
    ) -> str:
        forms = self._forms(predicate, type_pair)
        clause = forms.get("clause") or predicate.replace("_", " ")
        noun = forms.get("noun")
        phrase = (forms.get("inverse") or _passive(clause)) if inverted else clause
        if context in ("entity", "after_apposition"):
            return phrase
        tail = before[-40:]
        words = _WORD.findall(tail)
        last = words[-1] if words else ""
        spaced = tail.endswith(" ")
        if re.search(r"['’]s\s*$", tail):
            return noun or phrase
        if last.lower() in _DETERMINERS and spaced:
            return f"{noun} of" if noun and not inverted else _LEADING_COPULA.sub("", phrase)
        if last.lower() in _COPULA and spaced:
            stripped = _LEADING_COPULA.sub("", phrase)
            if stripped != phrase:
                return stripped
            return f"the {noun} of" if noun and not inverted else phrase
        if re.search(r",\s*$", tail):
            stripped = _LEADING_COPULA.sub("", phrase)
            if stripped != phrase:
                return stripped
            if noun and not inverted:
                return f"the {noun} of"
            return ("who " if type_pair[1 if inverted else 0] == "PERSON" else "which ") + phrase
        if spaced and last.islower() and last.lower() not in _CLAUSE_OPENERS and not last.endswith("ly"):
            stripped = _LEADING_COPULA.sub("", phrase)
            return stripped if stripped != phrase else "that " + phrase
        return phrase


def _passive(clause: str) -> str:
    """A fallback inverse for a one-word past-tense verb ("founded" -> "was founded by")."""
    if " " not in clause and clause.endswith("ed"):
        return f"was {clause} by"
    return clause
