"""When two relations mean the same: one calibrated d_R cut-off for the app, the report and the evaluation.

A substitute within the cut-off of the original counts as "close" (the meaning survives); the evaluation's
relation matcher uses the same cut-off to decide that an attacker recovered a relation. It is calibrated once per
encoder on :data:`CALIBRATION_PAIRS`, a small hand-labelled set of synonym and distinct relation pairs, under the
same typed template RelGuard uses for its pools.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from relguard.embed import load_encoder, predicate_text
from relguard.settings import DEFAULT_ENCODER
from relguard.types import TypePair

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
