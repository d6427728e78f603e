"""Drawing outcomes: the OpenDP measurement with OS entropy, or a seeded draw of the same law for teaching.

The measurement (:mod:`relguard.privacy.measurement`) adds Gumbel noise through OpenDP's ``make_noisy_max``,
which selects index i with probability softmax(u / scale); with scale 2/ε this is exactly
P(y) ∝ exp(ε·u(r, y)/2) (DESIGN invariant 5), and its privacy map states the guarantee. A teaching seed switches
to a seeded Gumbel-max draw of the same distribution, and the release then says it is not private (DESIGN
invariant 8).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from relguard.privacy.measurement import noisy_max, relation_measurement
from relguard.privacy.mechanism import epsilon_column, utilities


def sample_outcomes(
    distances: np.ndarray,
    *,
    epsilon: float | np.ndarray,
    lam: float,
    seed: int | None = None,
    allow_null: bool = True,
) -> np.ndarray:
    """Draw one outcome index per row (K means null).

    ``epsilon`` is one value for every row, or one per row: each group at its own ε_g (a per-entity budget,
    :mod:`relguard.privacy.entity`). Without ``seed`` the rows are drawn by OpenDP with OS entropy, through the
    measurement at their own ε_g (one per distinct ε). With a seed the same distribution is
    drawn by a seeded Gumbel-max, which is reproducible and therefore only fit for teaching and tests, never for
    a release. ``allow_null=False`` draws among the K candidates only (never returns K).
    """
    scores = utilities(distances, lam=lam)
    epsilons = epsilon_column(epsilon, scores.shape[0])
    if not allow_null:
        scores = scores[:, :-1]
    if seed is not None:
        rng = np.random.default_rng(seed)
        logits = epsilons * scores / 2.0
        return np.argmax(logits + rng.gumbel(size=logits.shape), axis=1)
    chosen = np.zeros(scores.shape[0], dtype=np.int64)
    for value in np.unique(epsilons[:, 0]):
        rows = np.flatnonzero(epsilons[:, 0] == value)
        chosen[rows] = relation_measurement(epsilon=float(value))(scores[rows])
    return chosen


@lru_cache(maxsize=64)
def _laplace(scale: float) -> Any:
    from opendp import domains, measurements, metrics
    from opendp.mod import enable_features

    enable_features("contrib")
    return measurements.make_laplace(
        domains.atom_domain(T=float, nan=False), metrics.absolute_distance(T=float), scale=scale
    )


class Draws:
    """Randomness for the comparison sanitizers: OpenDP with OS entropy, or (``seed``) a seeded generator.

    A seed draws the same distributions reproducibly, for tests and teaching only, like a release's teaching
    seed; without one every draw is OpenDP's (Laplace noise, noisy max), as in a release.
    """

    def __init__(self, seed: int | None = None) -> None:
        self._rng = None if seed is None else np.random.default_rng(seed)

    def laplace(self, value: float, scale: float) -> float:
        if self._rng is not None:
            return value + float(self._rng.laplace(0.0, scale))
        return float(_laplace(float(scale))(float(value)))

    def exponential_mechanism(self, scores: np.ndarray, scale: float) -> int:
        """Index i with probability softmax(scores / scale)."""
        if self._rng is not None:
            return int(np.argmax(np.asarray(scores) / scale + self._rng.gumbel(size=len(scores))))
        return int(noisy_max(float(scale))([float(s) for s in scores]))

    def uniform_index(self, n: int) -> int:
        if self._rng is not None:
            return int(self._rng.integers(n))
        return int(noisy_max(1.0)([0.0] * n))
