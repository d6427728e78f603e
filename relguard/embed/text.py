"""What the encoder reads for a predicate, and the relation distance d_R (paper Eq. 4-5, DESIGN invariant 3).

Bare predicate phrases put synonyms nearly as far apart as unrelated relations, so each predicate is embedded
inside a fixed typed sentence, ``"A person works for an organization."``. The sentence depends only on the
predicate and the public type pair, never on a document, so the embedding stays one fixed function for all
inputs compared under one pool.
"""

from __future__ import annotations

import numpy as np

from relguard.errors import ModelError
from relguard.kinds import pool_pair
from relguard.types import TypePair

TEMPLATE_VERSION = "typed-sentence-v1"

TYPE_PHRASES: dict[str, str] = {
    "PERSON": "a person",
    "NORP": "a nationality or group",
    "FAC": "a facility",
    "ORG": "an organization",
    "GPE": "a country or city",
    "CITY": "a city",
    "REGION": "a state",
    "COUNTRY": "a country",
    "LOC": "a location",
    "PRODUCT": "a product",
    "EVENT": "an event",
    "WORK_OF_ART": "a work of art",
    "AWARD": "an award",
    "LAW": "a law",
    "LANGUAGE": "a language",
    "ENTITY": "an entity",
}


def predicate_phrase(predicate: str) -> str:
    """``"works_for"`` -> ``"works for"``: the words a predicate stands for."""
    return " ".join(part for part in predicate.replace("-", "_").split("_") if part)


def predicate_text(predicate: str, type_pair: TypePair) -> str:
    """The fixed typed sentence the encoder reads for ``predicate`` under ``type_pair``.

    A pair reads the types of the pool it draws from (:func:`~relguard.kinds.pool_pair`: "a city" with "a person"
    reads "a country or city", as its pool is the GPE one), so its distances are its pool's.
    """
    type_pair = pool_pair(type_pair)
    subject = TYPE_PHRASES.get(type_pair[0], "an entity")
    obj = TYPE_PHRASES.get(type_pair[1], "an entity")
    sentence = f"{subject} {predicate_phrase(predicate)} {obj}."
    return sentence[0].upper() + sentence[1:]


def relation_distance(z1: np.ndarray, z2: np.ndarray) -> np.ndarray:
    """d_R = ½‖z(r) − z(r′)‖₂ for unit vectors, along the last axis; always in [0, 1]."""
    d = 0.5 * np.linalg.norm(np.asarray(z1, dtype=np.float64) - np.asarray(z2, dtype=np.float64), axis=-1)
    return np.clip(d, 0.0, 1.0)


def pairwise_distances(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """(m, d) x (k, d) unit vectors -> (m, k) matrix of d_R, computed exactly (no cosine shortcut).

    Rows go :data:`PAIRWISE_ROWS` at a time: each d_R is reduced over its own difference vector alone, so the
    floats are the same, and the (rows, k, d) differences stay in cache (20,000 x 10 rows: 17.5 s at once,
    0.28 s in blocks).
    """
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)[None, :, :]
    if len(a) <= PAIRWISE_ROWS:
        return relation_distance(a[:, None, :], b)
    return np.concatenate(
        [relation_distance(a[i : i + PAIRWISE_ROWS, None, :], b) for i in range(0, len(a), PAIRWISE_ROWS)]
    )


#: Rows of :func:`pairwise_distances` computed together.
PAIRWISE_ROWS = 256


def normalize(vectors: np.ndarray) -> np.ndarray:
    """Rows scaled to unit length in float64, so d_R is computed exactly as in Eq. 5 whatever the runtime."""
    vectors = np.asarray(vectors, dtype=np.float64)
    norms = np.linalg.norm(vectors, axis=-1, keepdims=True)
    if np.any(norms == 0):
        raise ModelError("the encoder returned a zero vector; choose another encoder model")
    return vectors / norms


def max_distance_change(reference: np.ndarray, vectors: np.ndarray, *, block: int = 1024) -> float:
    """max over all pairs (i, j) of |d_R(vectors_i, vectors_j) − d_R(reference_i, reference_j)|, for any row count.

    Row blocks use ‖a − b‖² = 2 − 2 a·b of unit float64 vectors: its rounding moves d_R by under 1e-12 (1e-8 for
    two near-identical texts), far below the 1e-5 a runtime is held to, and no (n, n, d) array is ever built.
    """
    reference, vectors = normalize(reference), normalize(vectors)
    worst = 0.0
    for start in range(0, len(reference), block):
        rows = slice(start, start + block)
        change = _gram_distances(vectors[rows], vectors) - _gram_distances(reference[rows], reference)
        worst = max(worst, float(np.abs(change).max(initial=0.0)))
    return worst


def _gram_distances(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return 0.5 * np.sqrt(np.clip(2.0 - 2.0 * (a @ b.T), 0.0, 4.0))
