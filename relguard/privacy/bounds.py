"""The bounds a release promises: ε·d_R per relation (Definition 3) and their sum per document (Eq. 8-9)."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from relguard.privacy.measurement import relation_measurement


def privacy_loss(d_r: float | np.ndarray, *, epsilon: float) -> float | np.ndarray:
    """The bound on |log P(S|r) − log P(S|r′)| for relations at distance d_R: the draw's privacy map, ε·d_R."""
    return relation_measurement(epsilon=epsilon).privacy_map(np.asarray(d_r, dtype=np.float64))


#: The largest exponent whose e^x is a finite float (e^709.78 is the largest double).
MAX_EXPONENT = 709.0


def bound_of(exponent: float) -> float:
    """e^exponent, computed in the log domain: ``inf`` (without numpy's overflow warning) where it is no float."""
    return math.exp(exponent) if exponent < MAX_EXPONENT else math.inf


def relation_bound(d_r: float, *, epsilon: float) -> float:
    """The multiplicative guarantee e^{ε·d_R(r, r′)} of Definition 3."""
    return bound_of(float(privacy_loss(d_r, epsilon=epsilon)))


def document_bound(distances: Sequence[float], *, epsilon: float) -> float:
    """The document-level guarantee e^{ε·Σ d_R(r_i, r′_i)} (Eq. 8-9) for aligned triples; ``inf`` past a float."""
    total = float(np.sum(np.asarray(distances, dtype=np.float64)))
    return bound_of(float(privacy_loss(total, epsilon=epsilon)))


def composed_epsilon(epsilons: Sequence[float]) -> float:
    """Releases of the same corpus compose: the bounds multiply, so their ε·d_R add up (ε's sum)."""
    return float(sum(epsilons))
