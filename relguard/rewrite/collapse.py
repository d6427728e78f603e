"""Where an expression in parts has no fill that reads, word it as one slot: the words between its parts go with it.

"Since 2004, he [REL] by the city [REL] Jeonju to promote tourism." holds one relation expression in two parts
("has been employed … of"); no wording of a drawn predicate reads split around "by the city", and restating the
sentence from its names would lose "Since 2004" and "to promote tourism" with it. So the expression becomes one
slot, from its head to its last part, and the sentence is filled again: "Since 2004, he [died in] Jeonju to
promote tourism." What is dropped is only what stood between the parts, the words the original verb governed; a
gap that names an entity (other than by a possessive pronoun: "ended [his] role as"), holds another expression's
slot or a number is never dropped (that sentence goes on to the connector or the restatement,
:mod:`relguard.rewrite.fill`).

It reads only the masked document (where slots and mentions are, and the masked words between parts), so what it
drops is a function of the masked text, like every fill (DESIGN invariant 7).
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Collection, Sequence
from dataclasses import replace

from relguard.rewrite.layout import complement
from relguard.rewrite.mask import MaskedDocument
from relguard.wordlist import POSSESSIVE_PRONOUNS

#: The most words a gap between two parts may hold for the expression to be worded as one: more is a description
#: of its own, which the sentence keeps (restated or with a connector) rather than drops.
MOST_GAP_WORDS = 6


def expression_parts(masked: MaskedDocument) -> dict[int, list[int]]:
    """The slot numbers of every expression in parts, by its head: the head, then its later parts."""
    parts: dict[int, list[int]] = {}
    for number, slot in enumerate(masked.slots):
        if slot.role and slot.head >= 0:
            parts.setdefault(slot.head, [slot.head]).append(number)
    return parts


def collapsible(masked: MaskedDocument, sentences: Collection[int]) -> list[int]:
    """The heads of the expressions in parts, in ``sentences``, whose gaps may go with them (module docstring)."""
    heads = []
    removed_starts = {s.start for s in masked.slots if s.role == "removed"}
    for number, parts in sorted(expression_parts(masked).items()):
        slot = masked.slots[number]
        if slot.sentence not in sentences:
            continue
        start, end = slot.start, max(masked.slots[n].end for n in parts)
        if any(start <= s.start < end for n, s in enumerate(masked.slots) if n not in parts):
            continue
        ordered = sorted(masked.slots[n].start for n in parts)
        ends = {masked.slots[n].start: masked.slots[n].end for n in parts}
        gaps = [masked.text[ends[a] : b] for a, b in itertools.pairwise(ordered)]
        removed = [(ends[a], b) for a, b in itertools.pairwise(ordered) if b in removed_starts]
        if any(start < a < end and not (_possessive(masked.text[a:b]) and _whole_gap(masked, a, b, removed))
               for a, b, _ in masked.mentions):  # fmt: skip
            continue
        if all(_droppable(gap) for gap in gaps):
            heads.append(number)
    return heads


def _whole_gap(masked: MaskedDocument, a: int, b: int, gaps: Collection[tuple[int, int]]) -> bool:
    """Whether the mention ``a:b`` is the whole of one of ``gaps`` (the gaps before removed parts): "[ended] his
    [role as]", not "[known] for her role [in]"."""
    return any(not masked.text[g:a].strip() and not masked.text[b:h].strip() for g, h in gaps if g <= a and b <= h)


def _possessive(words: str) -> bool:
    """A possessive pronoun that coreference made a mention ("ended [his] role as"): its name is said elsewhere, so
    it may go with the gap."""
    return words.lower() in POSSESSIVE_PRONOUNS


def _droppable(gap: str) -> bool:
    """Whether the words between two parts may go with the expression: few, and no number or clause mark."""
    return len(gap.split()) <= MOST_GAP_WORDS and not any(c.isdigit() or c in '();:[]"“”' for c in gap)


def collapsed(masked: MaskedDocument, heads: Sequence[int]) -> tuple[MaskedDocument, dict[int, int]]:
    """``masked`` with each expression of ``heads`` as one slot: its head's placeholder stands for the whole
    expression, its source runs to its last part's, and the text from the head's end to the last part's end goes;
    and the new number of every slot that stays."""
    cuts: list[tuple[int, int]] = []
    gone: set[int] = set()
    merged = {}
    every = expression_parts(masked)
    for head in heads:
        parts = every[head]
        slot = masked.slots[head]
        cuts.append((slot.end, max(masked.slots[n].end for n in parts)))
        gone.update(parts[1:])
        source_end = max(masked.slots[n].source[1] for n in parts)
        merged[head] = replace(slot, source=(slot.source[0], source_end))
    cuts.sort()
    starts = [a for a, _ in cuts]
    removed = [0]
    for a, b in cuts:
        removed.append(removed[-1] + b - a)

    def moved(position: int) -> int:
        count = bisect.bisect_right(starts, position)
        if count and position < cuts[count - 1][1]:
            return cuts[count - 1][0] - removed[count - 1]
        return position - removed[count]

    kept = [n for n in range(len(masked.slots)) if n not in gone]
    number_of = {old: new for new, old in enumerate(kept)}
    slots = []
    for n in kept:
        slot = merged.get(n, masked.slots[n])
        head = number_of[slot.head] if slot.head >= 0 else -1
        slots.append(replace(slot, start=moved(slot.start), end=moved(slot.end), head=head))
    text = "".join(masked.text[a:b] for a, b in complement(cuts, len(masked.text)))
    document = MaskedDocument(
        masked.name,
        text,
        tuple((moved(a), moved(b)) for a, b in masked.sentences),
        tuple(slots),
        tuple((moved(a), moved(b), kind) for a, b, kind in masked.mentions if not _cut(a, b, cuts)),
        tuple((moved(a), moved(b), name) for a, b, name in masked.referents if not _cut(a, b, cuts)),
    )
    return document, number_of


def _cut(start: int, end: int, cuts: Sequence[tuple[int, int]]) -> bool:
    """Whether ``start:end`` lies inside one of ``cuts`` (a pronoun dropped with a gap)."""
    return any(a <= start and end <= b for a, b in cuts)
