"""Where the shape of a masked sentence alone says no fill can read well: the sentence is unfillable.

Both rules read only the masked text and the words of the sampled outcomes, never an original relation, so
what they delete is public like the fill itself (DESIGN invariant 7).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from relguard.rewrite.mask import MaskedDocument, Slot

#: The most fills with words one released sentence may hold (:func:`crowded`).
MOST_FILLS = 2

_MONTH = (
    r"January|February|March|April|May|June|July|August|September|October|November|December"
    r"|Jan\.|Feb\.|Mar\.|Apr\.|Aug\.|Sept?\.|Oct\.|Nov\.|Dec\."
)
_WHEN = rf"\d[\d,./–-]*(?:s|st|nd|rd|th)?|{_MONTH}|spring|summer|autumn|fall|winter|century|centuries|decades?"
_TIME_WORD = rf"(?:{_WHEN}|the|early|late|mid|middle|season|years?|of|AD|BC|BCE|CE|c\.|circa|about|around)"
#: What may stand between the head and the tail of one expression when a fill takes both ("is owned [in 1777]
#: by"): a time or a number, with its preposition. Anything else was governed by the original words.
_ADVERBIAL = re.compile(
    rf"\s*,?\s*(?:(?:in|on|at|during|since|from|until|till|by|after|before|between|and|to)\s+)?(?:{_TIME_WORD}[\s,]*)+"
)
_HAS_WHEN = re.compile(rf"\b(?:{_WHEN})")


def crowded(masked: MaskedDocument, texts: Mapping[int, str]) -> set[int]:
    """Sentences with more than :data:`MOST_FILLS` fills that bring words (a bare comma does not count): each
    fill is worded for its own slot, and three or more of them in one sentence — a list of places, an address
    chain, a cast list — pile up clauses no reader can follow ("a river that lives in Catalonia that annexed
    Barcelona-located northeastern Spain"). Deleted and counted as unfillable."""
    words: dict[int, int] = {}
    for number, slot in enumerate(masked.slots):
        if any(ch.isalpha() for ch in texts.get(number, "")):
            words[slot.sentence] = words.get(slot.sentence, 0) + 1
    return {sentence for sentence, count in words.items() if count > MOST_FILLS}


def reads_between(masked: MaskedDocument, tail: Slot) -> bool:
    """Whether the words between an expression's head and its ``tail`` read the same under any fill: only a time
    or a number does ("was founded [in 1777] by"). An object, a phrase or another slot between ("is regarded as
    [the leading publishers of classics] in", "returned [to parliamentary politics in 1998] as") was governed by
    the original verb, and a fill split around it is not English, so the sentence is unfillable."""
    between = masked.text[masked.slots[tail.head].end : tail.start]
    if not between.strip(" ,"):
        return True
    return _ADVERBIAL.fullmatch(between) is not None and _HAS_WHEN.search(between) is not None
