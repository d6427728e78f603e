"""The paper's types of a type that a gazetteer refined, and the pool a pair of such types reads.

A GPE whose name a public source holds as a city, a region or a country takes that kind
(:data:`~relguard.types.PLACE_KINDS`); wherever the family of a type is what matters (a comma between places, a
place's generic noun, a pool for a place and a person) it is still a GPE.
"""

from __future__ import annotations

from relguard.types import PLACE_KINDS, TypePair


def coarse_type(entity_type: str) -> str:
    """The paper's type of ``entity_type``: a city, a region or a country is a GPE; any other type is itself."""
    return PLACE_KINDS.get(entity_type, entity_type)


def coarse_pair(type_pair: TypePair) -> TypePair:
    """Both ends of a type pair as the paper's types (:func:`coarse_type`)."""
    return (coarse_type(type_pair[0]), coarse_type(type_pair[1]))


def pool_pair(type_pair: TypePair) -> TypePair:
    """The type pair whose pool ``type_pair`` reads: itself between two kinds of place, which need the kinds
    apart, else the paper's types (:func:`coarse_pair`): a city's relations to a person are any GPE's."""
    return tuple(type_pair) if set(type_pair) <= PLACE_KINDS.keys() else coarse_pair(type_pair)
