"""Step 4b: delete or fill, from the masked document and the sampled outcomes alone (DESIGN invariant 7).

:func:`fill` never receives an original relation: it takes a :class:`~relguard.rewrite.mask.MaskedDocument`
and, per relation group, the public type pair and the sampled predicate. Documents that differ only in relation
expressions have the same masked document and so the same output for the same outcomes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from relguard.rewrite.mask import MaskedDocument
from relguard.types import SanitizedDocument, TypePair

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


def filled_sentences(
    masked: MaskedDocument, outcomes: Mapping[int, Sampled], verbalize: Verbalizer
) -> dict[int, tuple[str, tuple[tuple[int, int], ...]]]:
    """Each kept sentence that holds a slot, as it reads in the output, with where its fills are.

    The same fill as :func:`fill`, sentence by sentence, so a reviewer can read a filled sentence on its own;
    the ranges are character offsets of the fills inside the returned sentence text.
    """
    deleted = {s.sentence for s in masked.slots if any(outcomes[i].predicate is None for i in s.groups)}
    out: dict[int, tuple[str, tuple[tuple[int, int], ...]]] = {}
    for number, (start, end) in enumerate(masked.sentences):
        slots = [s for s in masked.slots if s.sentence == number and start <= s.start and s.end <= end]
        if not slots or number in deleted:
            continue
        pieces, ranges, cursor, length = [], [], start, 0
        for slot in slots:
            pieces.append(masked.text[cursor : slot.start])
            length += slot.start - cursor
            sampled = outcomes[slot.groups[0]]
            before, after = masked.text[max(0, slot.start - 80) : slot.start], masked.text[slot.end : slot.end + 80]
            words = verbalize(
                sampled.predicate or "", sampled.type_pair, before, after, inverted=slot.inverted, context=slot.context
            )
            pieces.append(words)
            ranges.append((length, length + len(words)))
            length += len(words)
            cursor = slot.end
        pieces.append(masked.text[cursor:end])
        out[number] = ("".join(pieces), tuple(ranges))
    return out
