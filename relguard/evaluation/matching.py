"""Deciding when a prediction names the same entity and the same relation as the truth.

Entities: the attacker knows the entity set (App. E maps aliases to canonical
names), so every name goes through :class:`EntityResolver`, which folds case,
leading articles and punctuation and maps known mentions to their canonical name.

Relations: offline, :class:`EncoderRelationMatcher` accepts a predicted predicate
when it equals the true one or lies within d_R ≤ ``threshold`` of it under the
same typed template RelGuard uses for its pools. The threshold is calibrated on
:data:`CALIBRATION_PAIRS`, a small hand-labelled set of synonym and distinct
predicate pairs (:func:`calibrate_threshold`). A symmetric distance cannot tell
"broader and entailed" from "narrower" (App. E accepts spouse → family member but
not the reverse); this matcher treats both alike, which the docs say.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from relguard.embed import load_encoder, predicate_text
from relguard.evaluation.metrics import Fact
from relguard.settings import DEFAULT_ENCODER
from relguard.types import TypePair

_ARTICLE = re.compile(r"^(the|a|an)\s+")
_EDGE_PUNCT = re.compile(r"^[\W_]+|[\W_]+$")


def normalize_name(name: str) -> str:
    """Case- and punctuation-insensitive form of an entity name ("The Beatles," → "beatles")."""
    text = unicodedata.normalize("NFKC", name).casefold().strip()
    text = re.sub(r"['’]s$", "", text)
    text = _ARTICLE.sub("", text)
    text = _EDGE_PUNCT.sub("", text)
    return " ".join(text.split())


class EntityResolver:
    """Maps any mention of a known entity to its canonical name; unknown names stay themselves."""

    def __init__(self, aliases: Mapping[str, str] | None = None) -> None:
        self._table: dict[str, str] = {}
        for alias, canonical in (aliases or {}).items():
            self.add(alias, canonical)

    def add(self, alias: str, canonical: str) -> None:
        key = normalize_name(alias)
        if key:
            self._table.setdefault(key, canonical)

    def __call__(self, name: str) -> str:
        return self._table.get(normalize_name(name), name)

    def knows(self, name: str) -> bool:
        return normalize_name(name) in self._table

    def resolve(self, facts: Iterable[Fact]) -> list[Fact]:
        return [Fact(self(f.subject), f.predicate, self(f.object), f.type_pair) for f in facts]


def resolver_from_extraction(extraction: Any) -> EntityResolver:
    """Aliases the attacker is assumed to know: every canonical entity name and its mentions."""
    resolver = EntityResolver()
    for document in extraction.documents:
        for entity in document.entities:
            resolver.add(entity.name, entity.name)
    for document in extraction.documents:
        for entity in document.entities:
            for mention in entity.mentions:
                resolver.add(mention.text, entity.name)
    return resolver


#: Hand-labelled predicate pairs under a type pair: True = same relation (or the second is
#: entailed by the first), False = a different relation. Predicates use the spaCy extractor's
#: normal form and the inventory's vocabulary, the two sources the matcher compares.
CALIBRATION_PAIRS: tuple[tuple[str, str, TypePair, bool], ...] = (
    ("works_for", "employed_by", ("PERSON", "ORG"), True),
    ("worked_at", "works_for", ("PERSON", "ORG"), True),
    ("worked_for", "employee_of", ("PERSON", "ORG"), True),
    ("founded", "founder_of", ("PERSON", "ORG"), True),
    ("founded", "co_founded", ("PERSON", "ORG"), True),
    ("ceo_of", "chief_executive_of", ("PERSON", "ORG"), True),
    ("led", "leader_of", ("PERSON", "ORG"), True),
    ("member_of", "joined", ("PERSON", "ORG"), True),
    ("studied_at", "attended", ("PERSON", "ORG"), True),
    ("graduated_from", "studied_at", ("PERSON", "ORG"), True),
    ("born_in", "birthplace", ("PERSON", "GPE"), True),
    ("born_in", "native_of", ("PERSON", "GPE"), True),
    ("lived_in", "resided_in", ("PERSON", "GPE"), True),
    ("died_in", "place_of_death", ("PERSON", "GPE"), True),
    ("spouse_of", "married", ("PERSON", "PERSON"), True),
    ("wife_of", "spouse_of", ("PERSON", "PERSON"), True),
    ("son_of", "child_of", ("PERSON", "PERSON"), True),
    ("brother_of", "sibling_of", ("PERSON", "PERSON"), True),
    ("wrote", "author_of", ("PERSON", "WORK_OF_ART"), True),
    ("directed", "director_of", ("PERSON", "WORK_OF_ART"), True),
    ("located_in", "situated_in", ("ORG", "GPE"), True),
    ("headquartered_in", "based_in", ("ORG", "GPE"), True),
    ("capital_of", "seat_of_government_of", ("GPE", "GPE"), True),
    ("located_in", "part_of", ("GPE", "GPE"), True),
    ("acquired", "bought", ("ORG", "ORG"), True),
    ("owns", "owner_of", ("ORG", "ORG"), True),
    ("works_for", "founded", ("PERSON", "ORG"), False),
    ("ceo_of", "customer_of", ("PERSON", "ORG"), False),
    ("studied_at", "founded", ("PERSON", "ORG"), False),
    ("member_of", "sued", ("PERSON", "ORG"), False),
    ("employed_by", "invested_in", ("PERSON", "ORG"), False),
    ("born_in", "died_in", ("PERSON", "GPE"), False),
    ("born_in", "visited", ("PERSON", "GPE"), False),
    ("lived_in", "governor_of", ("PERSON", "GPE"), False),
    ("mayor_of", "born_in", ("PERSON", "GPE"), False),
    ("spouse_of", "sibling_of", ("PERSON", "PERSON"), False),
    ("married", "defeated", ("PERSON", "PERSON"), False),
    ("father_of", "teammate_of", ("PERSON", "PERSON"), False),
    ("son_of", "rival_of", ("PERSON", "PERSON"), False),
    ("mentor_of", "spouse_of", ("PERSON", "PERSON"), False),
    ("wrote", "starred_in", ("PERSON", "WORK_OF_ART"), False),
    ("directed", "reviewed", ("PERSON", "WORK_OF_ART"), False),
    ("located_in", "sued", ("ORG", "GPE"), False),
    ("headquartered_in", "banned_in", ("ORG", "GPE"), False),
    ("capital_of", "borders", ("GPE", "GPE"), False),
    ("acquired", "competes_with", ("ORG", "ORG"), False),
    ("owns", "sued", ("ORG", "ORG"), False),
    ("subsidiary_of", "rival_of", ("ORG", "ORG"), False),
)


@dataclass(frozen=True)
class Calibration:
    """The chosen threshold and how well it separates the labelled pairs."""

    threshold: float
    accuracy: float
    synonym_distances: tuple[float, ...]
    distinct_distances: tuple[float, ...]


def pair_distances(encoder: Any, pairs: Sequence[tuple[str, str, TypePair, bool]]) -> np.ndarray:
    """d_R of each labelled pair under its type pair (all texts embedded in one batch when possible)."""
    encoder.embed_texts([predicate_text(p, pair) for a, b, pair, _ in pairs for p in (a, b)])
    return np.array([float(encoder.distances([a], [b], pair)[0, 0]) for a, b, pair, _ in pairs])


def calibrate_threshold(
    encoder: Any, pairs: Sequence[tuple[str, str, TypePair, bool]] = CALIBRATION_PAIRS
) -> Calibration:
    """The d_R cut that classifies the most labelled pairs right (midpoint between neighbouring distances)."""
    distances = pair_distances(encoder, pairs)
    labels = np.array([same for *_, same in pairs], dtype=bool)
    cuts = np.unique(distances)
    candidates = np.concatenate([[0.0], (cuts[:-1] + cuts[1:]) / 2, [1.0]])
    accuracy = [float(np.mean((distances <= c) == labels)) for c in candidates]
    best = int(np.argmax(accuracy))
    return Calibration(
        threshold=float(candidates[best]),
        accuracy=accuracy[best],
        synonym_distances=tuple(float(d) for d in distances[labels]),
        distinct_distances=tuple(float(d) for d in distances[~labels]),
    )


@lru_cache(maxsize=4)
def default_threshold(model: str = DEFAULT_ENCODER) -> float:
    """The calibrated threshold for ``model`` (computed once per process from the labelled pairs)."""

    return calibrate_threshold(load_encoder(model)).threshold


class EncoderRelationMatcher:
    """Same relation when the predicates are equal or within d_R ≤ threshold under the true type pair."""

    def __init__(self, encoder: Any, *, threshold: float) -> None:
        self.encoder = encoder
        self.threshold = float(threshold)
        self._memo: dict[tuple[str, str, TypePair], bool] = {}

    def __call__(self, true: Fact, predicted: Fact) -> bool:
        if predicted.predicate is None or true.predicate is None:
            return False
        if predicted.predicate == true.predicate:
            return True
        key = (true.predicate, predicted.predicate, true.type_pair)
        if key not in self._memo:
            d = float(self.encoder.distances([true.predicate], [predicted.predicate], true.type_pair)[0, 0])
            self._memo[key] = d <= self.threshold
        return self._memo[key]


def default_matcher(model: str = DEFAULT_ENCODER) -> EncoderRelationMatcher:

    return EncoderRelationMatcher(load_encoder(model), threshold=default_threshold(model))
