"""What a fill may know of its slot (:class:`~relguard.rewrite.verbalize.Place`), read from the masked text.

Only the masked document, the slot's frame and the forms already chosen for earlier slots are read (DESIGN
invariant 7): the kind of a name right before the slot (who/which; a bare "by"), whether a relative clause opened there
closes after the next name, whether a possessive pronoun or an "'s" stands right before it.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Mapping

from relguard.rewrite.frames import ARTICLE_ONLY, Frame
from relguard.rewrite.mask import MaskedDocument, mention_at
from relguard.rewrite.seams import CLOSING
from relguard.rewrite.verbalize import PREPOSITIONS, Place
from relguard.wordlist import PERSON_NOUNS

_OWNER_BEFORE = re.compile(r"\w['’]s?\s*$")
_PRONOUN_BEFORE = re.compile(r"\b(?:his|her|its|their|my|our|your|whose)\s+$", re.IGNORECASE)
_OWNING_PRONOUN = re.compile(r"(?:his|her|its|their)\s", re.IGNORECASE)
_ARTICLE = re.compile(r"(?:the|a|an)\s", re.IGNORECASE)
_QUOTE_GAP = re.compile(r"[\s\"“‘']*")
_POSSESSIVE = re.compile(r"[\"”’']?['’]s?\s")
_OWNS_INSIDE = re.compile(r"\w['’]s?\s")  # a name that owns the rest of itself: "Dante's Divine Comedy"
_WORD_BEFORE = re.compile(r"([A-Za-z]+)\s*,?\s*$")


def place_of(masked: MaskedDocument, number: int, frame: Frame, forms: Mapping[int, str], tailed: set[int]) -> Place:
    """What the verbalizer may know of slot ``number``: its frame and what the masked text around it shows."""
    slot = masked.slots[number]
    before = masked.text[max(0, slot.start - 8) : slot.start]
    kind_before = _kind_before(masked, slot.start)
    return Place(
        frame.name,
        slot.inverted,
        person=kind_before == "PERSON" or (kind_before is None and _person_noun_before(masked.text, slot.start)),
        kind_before=kind_before,
        closed=_closed_after(masked, slot),
        head=forms.get(slot.head),
        pronoun=bool(_PRONOUN_BEFORE.search(before)),
        name_after=frame.name_after,
        phrase_after=frame.phrase_after,
        preposition_after=frame.preposition_after,
        plural=frame.plural,
        has_tail=number in tailed,
        past=frame.past,
        owner=bool(_OWNER_BEFORE.search(before[-4:])),
        comma_after=masked.text[slot.end : slot.end + 1] == ",",
        after_comma=before.rstrip().endswith(","),
        owning_after=_owning_after(masked, slot.end),
        after_verb=frame.after_verb,
        perfect=frame.perfect,
        continued=frame.continued,
        coordinated=frame.coordinated and not _bare_sibling(masked, number, forms),
    )


def _bare_sibling(masked: MaskedDocument, number: int, forms: Mapping[int, str]) -> bool:
    """Whether the last slot filled before ``number`` in its sentence printed a bare preposition: after "a film by
    X and", another bare preposition continues the list ("and by Y")."""
    sentence = masked.slots[number].sentence
    earlier = [n for n in forms if n < number and masked.slots[n].sentence == sentence]
    return bool(earlier) and forms[max(earlier)].strip() in PREPOSITIONS


def _person_noun_before(text: str, position: int) -> bool:
    """Whether the word right before ``position``, a comma between allowed, is a noun for a person ("a professor
    [REL]", "director and screenwriter, [REL]"): a clause on it opens with "who", as on a person's name."""
    found = _WORD_BEFORE.search(text, max(0, position - 40), position)
    word = found.group(1).lower() if found else ""
    return word in PERSON_NOUNS or (word.endswith("s") and word[:-1] in PERSON_NOUNS)  # "actors", not "actress"


def _owning_after(masked: MaskedDocument, position: int) -> bool:
    """Whether a possessive pronoun or a name with "'s" follows ``position`` (only blanks or a quote between), or
    a name whose first words own the rest ("Dante's Divine Comedy"), or an article, which no possessive takes
    either ("Dave's [REL] the Stash N' Hoard" does not read as "Dave's the Stash N' Hoard")."""
    start = _QUOTE_GAP.match(masked.text, position).end()
    if _OWNING_PRONOUN.match(masked.text, start) or _ARTICLE.match(masked.text, start):
        return True
    found = mention_at(masked, start)
    if found is None:
        return False
    return bool(_POSSESSIVE.match(masked.text, found[1]) or _OWNS_INSIDE.search(masked.text, start, found[1]))


def _kind_before(masked: MaskedDocument, position: int) -> str | None:
    """The public type of the name right before ``position`` (only blanks or a comma between); None where a word
    that is no name stands there."""
    for at in range(bisect.bisect_left(masked.mentions, (position,)) - 1, -1, -1):
        _, end, kind = masked.mentions[at]  # the mentions from ``position`` on end after it: only those before
        if end <= position:
            return kind if not masked.text[end:position].strip(" ,") else None
    return None


def _closed_after(masked: MaskedDocument, slot) -> bool:
    """Whether the first name after ``slot`` in its sentence is followed by punctuation or the sentence end, so a
    relative clause opened at the slot closes there."""
    sentence_end = masked.sentences[slot.sentence][1]
    for start, end, _ in masked.mentions:
        if start >= slot.end:
            if start >= sentence_end:
                return True
            rest = masked.text[end:sentence_end].lstrip(" ")
            return not rest or rest[0] in CLOSING or _chained(masked, end)
    return True


def _chained(masked: MaskedDocument, position: int) -> bool:
    """Whether a slot glued to the name ending at ``position`` joins it to another name (an address chain "Albany[,]
    New York"): that slot's own fill opens with a comma, which closes a clause opened before."""
    glued = next((s for s in masked.slots if s.start == position), None)
    if glued is None:
        return False
    after = next((m for m in masked.mentions if m[0] >= glued.end), None)
    return after is not None and ARTICLE_ONLY.fullmatch(masked.text, glued.end, after[0]) is not None
