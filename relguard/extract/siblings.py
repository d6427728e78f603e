"""Second modifiers of one noun phrase: "a 1947 drama film [directed by] Frank Borzage, [written by] Steve Fisher".

A slot after a name is read, by position, as that name's relation with the next one (:mod:`.regions`). A noun
phrase with several modifiers in a row breaks that reading: the writer above is the film's, not Borzage's. This
module tells such a slot from the masked text alone, for the pairing (:func:`relguard.extract.regions.sibling`) and
for the fill's frame (:mod:`relguard.rewrite.frames`), so that both read the slot the same way.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from relguard.kinds import coarse_type
from relguard.wordlist import words

#: Function words: after a nationality they show it is a noun there ("an American who"), not an adjective of the
#: phrase; before a slot, that the slot modifies no noun ("which [acquired] Acme").
NOT_MODIFIED = words(
    """and or but nor who whom whose which that in of on at to for from with by as into than is was are were be been
    has had have said says"""
)


#: Adverbs without "-ly" that stand before a verb's slot ("Joss later [attended] X, [before graduating from] Y").
_ADVERBS = words("also later then first once still now often never soon again twice ever already together instead")


def continues_a_modifier(
    text: str, names: Sequence[tuple[int, int, str]], start: int, earlier: tuple[int, int]
) -> bool:
    """Whether the slot at ``start`` continues the ``earlier`` slot as a second modifier of one noun phrase: "a 1947
    drama film [directed by] Frank Borzage, [written by] Steve Fisher" states the film's writer, not Borzage's.
    The slot follows a name and its comma (or holds the comma, between two people); that name follows the earlier
    slot at once; the earlier slot follows a noun ("film"), not a name (whose verb it would be: "Alice [joined]
    Acme, [REL] Bob"), a function word ("which [acquired] Acme, [REL] Bob") or an adverb ("Joss later
    [attended]"); and the names on either side of the slot are not two places ("a village [in] Wallonia, [REL]
    Belgium" names where Wallonia lies). Read from the masked text: the ``names`` (start, end, type) of the
    sentence, slot positions and the words outside the slots."""
    before = [n for n in names if n[1] <= start]
    after = [n for n in names if n[0] >= start]
    if not before or not after:
        return False
    name = max(before, key=lambda n: n[1])
    kinds = {coarse_type(name[2]), coarse_type(min(after)[2])}
    glued = name[1] == start and kinds <= _PEOPLE
    if kinds <= _PLACE_TYPES or not (glued or _AFTER_A_NAME.fullmatch(text, name[1], start)):
        return False
    if earlier[1] > name[0] or text[earlier[1] : name[0]].strip():
        return False
    previous = max((end for _, end, _ in names if end <= earlier[0]), default=0)
    words_before = text[previous : earlier[0]].split()
    noun = words_before[-1] if words_before else ""
    return noun.isalpha() and noun.islower() and noun not in NOT_MODIFIED | _ADVERBS and not noun.endswith("ly")


#: Between a name and a slot that continues the modifier before the name: its comma, outside the slot. A slot that
#: holds the comma itself is most often the comma between two places ("Rothenburg[,] Germany", whatever their
#: types), so it continues a modifier only between :data:`_PEOPLE` ("Frank Borzage[, written by] Steve Fisher").
_AFTER_A_NAME = re.compile(r",\s*")
_PEOPLE = frozenset({"PERSON", "ORG"})
_PLACE_TYPES = frozenset({"GPE", "LOC", "FAC"})
