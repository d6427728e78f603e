"""The tense a fill takes: as its sentence is told, or as an adverb right before it says.

Read from the masked sentence only (its tags with the slots blanked, its years, the adverbs it keeps), so the
tense is the same for every wording of the relations in it (DESIGN invariant 7).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from relguard.wordlist import MONTHS


def told_in_the_past(text: str, tokens: Sequence[tuple]) -> bool | None:
    """Whether a masked sentence (its ``text`` and tagged ``tokens``, the slots blanked) is told in the past: its
    own finite verbs, outside its slots, are mostly past ("He [REL] Sportivo Dock Sud in 1938 and retired in
    1950"), and a fill then takes the past tense. Where they are even (often none: the slot held the verb), a year
    outside brackets tells it ("In 2015, he [REL] Mad Dogs"), or an adverb ("later"); a year in brackets is a
    birth date or a release year, said of an entity the sentence may describe in the present. None where nothing
    tells: the sentence is told as its document is (:func:`document_tense`)."""
    tags = [t[3] for t in tokens]
    past, present = tags.count("VBD"), tags.count("VBZ") + tags.count("VBP")
    if past != present:
        return past > present
    words = {t[2].lower() for t in tokens if t[3] == "RB"}
    if YEAR.search(_BRACKETED.sub(" ", text)) or words & _PAST_ADVERBS:
        return True
    return None


def document_tense(told: Iterable[bool | None]) -> bool:
    """Whether the document's sentences that tell a tense mostly tell the past ("Alice Smith [was educated at]
    Yale", in a life told in the past, takes the past); the present where they are even."""
    told = list(told)
    return told.count(True) > told.count(False)


def tense_before(text: str, start: int, past: bool, end: int | None = None) -> bool:
    """Whether the fill at ``start`` takes the past: as its sentence is told, unless an adverb right before it
    says the tense ("currently [REL]" the present, "later [REL]" the past), or a period that ended follows it in
    its clause ("a retired politician who [REL] Mississippi from 1980 to 1984": the past, though the sentence's
    own "is" is present)."""
    found = _ADVERB_BEFORE.search(text, 0, start)
    if found is not None:
        return found.group(1).lower() in _PAST_ADVERBS
    if past or end is None:
        return past
    return _CLOSED_PERIOD.match(text, end) is not None or _DATED.match(text, end) is not None


def since_a_date(text: str, start: int, end: int) -> bool:
    """Whether a "since" date governs the slot at ``start:end``: it opens the slot's clause or follows the slot in
    it, and no end of the period follows ("Since July 2013, Naomi [REL]", "[REL] BBC Two since 1980"; not "Since
    1880 up to his death in 1905"). The fill then takes the present perfect, which is what "since" asks."""
    low = max(text.rfind(mark, 0, start) for mark in ".;:()") + 1
    high = min((i for i in (text.find(mark, end) for mark in ".;:()") if i >= 0), default=len(text))
    return any(_SINCE.search(part) for part in (text[low:start], text[end:high]))


#: "since" and a date with its year, with no end of the period after it ("since 1980", "Since July 2013").
_SINCE = re.compile(
    r"\bsince\s+(?:[\w-]+\s+){0,2}(?:1[0-9]{3}|20[0-2][0-9])\b(?!\s*(?:up to|until|till|to|through|–|-)\b)",
    re.IGNORECASE,
)


#: Adverbs that tell a past ("Alice Smith later [REL] Acme Corp"), where no verb outside the slots tells the tense.
_PAST_ADVERBS = frozenset({"later", "formerly", "previously", "originally", "subsequently", "eventually", "once"})
#: Adverbs that tell the present right before a slot ("and currently [REL]").
_PRESENT_ADVERBS = frozenset({"currently", "still", "now"})
#: An adverb of time right before a slot: the fill takes its tense, whatever the sentence's other verbs.
_ADVERB_BEFORE = re.compile(rf"\b({'|'.join(sorted(_PAST_ADVERBS | _PRESENT_ADVERBS))})\s+$", re.IGNORECASE)


#: A year ("1564", "2014").
_A_YEAR = r"(?:1[0-9]{3}|20[01][0-9]|202[0-4])"
YEAR = re.compile(rf"\b{_A_YEAR}\b")
#: A day or month with its year right after a slot, or after its object in its clause: an event that happened
#: ("Metallica, which [REL] on June 4, 1996 [REL] Elektra Records", "[REL] Acme Corp in March 2001").
_MONTHS = "|".join(month.capitalize() for month in sorted(MONTHS))
_DATED = re.compile(
    rf"[^;:(),.]{{0,60}}?(?:^|\s)(?:on|in)\s+(?:\d{{1,2}}\s+)?(?:{_MONTHS})\s+(?:\d{{1,2}},?\s+)?{_A_YEAR}\b"
)
_BRACKETED = re.compile(r"\([^()]*\)")
#: A period with its two years after a slot, in the slot's clause: "[REL] Mississippi from 1980 to 1984".
_CLOSED_PERIOD = re.compile(
    r"[^;:()]{0,80}?\b(?:from|between)\s+(?:\w+\s+){0,2}(?:1[0-9]{3}|20[01][0-9])\s*(?:to|and|until|–|-)\s*"
    r"(?:\w+\s+){0,2}(?:1[0-9]{3}|20[01][0-9]|202[0-4])\b"
)
