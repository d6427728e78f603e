"""The paper's types of a type that public evidence refined, and the pool a pair of such types reads.

A GPE whose name a public source holds as a city, a region or a country takes that kind
(:data:`~relguard.types.PLACE_KINDS`), and a name that says it is a prize is an award
(:data:`~relguard.types.AWARD`); wherever the family of a type is what matters (a comma between places, a
place's generic noun, a pool for a place and a person) each is still the paper's type it refines.
"""

from __future__ import annotations

from relguard.types import AWARD, FINER_KINDS, PLACE_KINDS, UNSURE, TypePair

#: The pairs with an award that have pools of their own: who or what wins, shares or founds a prize, and which
#: prize succeeds another. Any other pair with an award reads the pool of a name of unsure kind
#: (:data:`~relguard.types.UNSURE`), whose predicates hold of any kind: the encoder puts the passives of a prize
#: ("presented by", "won by", "sponsored by") too close together for a pool of its own as the subject.
AWARD_POOLS = frozenset({("PERSON", AWARD), ("ORG", AWARD), ("WORK_OF_ART", AWARD), (AWARD, AWARD)})


def coarse_type(entity_type: str) -> str:
    """The paper's type of ``entity_type``: a city, a region or a country is a GPE, an award a WORK_OF_ART; any
    other type is itself."""
    return FINER_KINDS.get(entity_type, entity_type)


def coarse_pair(type_pair: TypePair) -> TypePair:
    """Both ends of a type pair as the paper's types (:func:`coarse_type`)."""
    return (coarse_type(type_pair[0]), coarse_type(type_pair[1]))


def pool_pair(type_pair: TypePair) -> TypePair:
    """The type pair whose pool ``type_pair`` reads: itself between two kinds of place, which need the kinds
    apart; with an award, its own pool with the other end's paper type (:data:`AWARD_POOLS`), or the
    unsure kind's; else the paper's types (:func:`coarse_pair`): a city's relations to a person are any GPE's."""
    if set(type_pair) <= PLACE_KINDS.keys():
        return tuple(type_pair)
    if AWARD in type_pair:
        ends = tuple(t if t == AWARD else coarse_type(t) for t in type_pair)
        return ends if ends in AWARD_POOLS else tuple(UNSURE if t == AWARD else t for t in ends)
    return coarse_pair(type_pair)
