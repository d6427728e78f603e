"""Where no wording of a drawn relation reads in its sentence, keep the sentence and say the relation after it.

A sentence no style of fill reads in (:func:`relguard.rewrite.fill.fill_slots`) used to be restated from its
names, and a blind reader found a fact lost in every one (issue 39: 39 of 39): its dates, numbers, titles and
descriptions went with it. Instead each slot whose own fill does not read takes a *neutral connector* — the same
words for every slot of that frame, whatever was drawn: "was associated with", "associated with", a bare comma —
so the sentence keeps everything outside its slots, and the drawn relations of those slots are stated in plain
sentences right after it (:func:`relguard.rewrite.restate.restatements`, ``whole=``).

The connectors are constants of the frame (public, read from the masked sentence), so they say nothing of the
original relation nor of the draw; what the release states of the pair is the drawn predicate, once, after the
sentence (DESIGN invariants 6 and 7). A frame that wants a role noun ("the [REL] of Canada", "Acme's [REL]
Alice") has no neutral word that reads for every kind, so such a sentence is still restated.
"""

from __future__ import annotations

from relguard.rewrite import frames as fr
from relguard.rewrite.verbalize import Place
from relguard.types import TypePair

#: The connector: states that the two names are related, which the sentence's co-mention says already.
CONNECTOR = "associated with"
#: Where the text after the slot keeps a preposition of its own ("was [REL] by critics", "[REL] at Harvard").
BARE = "mentioned"
#: Every connector a fill may hold (a shape rule lets them be where a drawn predicate would not read).
NEUTRAL = frozenset({CONNECTOR, BARE})


class Neutral:
    """A verbalizer that words every slot with the neutral connector of its frame; it never reads the predicate,
    so a sentence worded by it states nothing drawn (the caller states the drawn relations after it)."""

    def __call__(self, predicate: str | None, type_pair: TypePair, place: Place) -> str | None:
        return neutral_words(place)


def neutral_words(place: Place) -> str | None:
    """The neutral connector for ``place``, or None where no constant reads (a role noun is wanted)."""
    frame = place.frame
    participle = BARE if place.preposition_after and not place.has_tail else CONNECTOR
    if frame in (fr.REMOVED,):
        return ""
    if frame == fr.TAIL:
        return CONNECTOR.rsplit(" ", 1)[1]
    if frame in (fr.FINITE, fr.END):
        copula = ("were" if place.plural else "was") if place.past else ("are" if place.plural else "is")
        return f"{copula} {participle}"
    if frame in (fr.MODIFIER, fr.COPULA, fr.APPOSITION):
        return participle
    if frame == fr.START:
        return participle[0].upper() + participle[1:]
    if frame == fr.ROLE:
        return f", {CONNECTOR}"
    if frame == fr.COMMA:
        return ","
    if frame == fr.HYPHEN:
        return "-linked"
    return None
