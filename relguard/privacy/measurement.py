"""The draw as an OpenDP measurement that carries its own guarantee.

A draw takes one utility row per relation group (u(r, c) = −d_R(r, c), u(r, null) = −λ) and returns one outcome
per row. Rewording one relation from r to r′ moves its group's row by at most d_R(r, r′) in every entry (the
triangle inequality, :func:`~relguard.privacy.mechanism.group_distances`) and leaves the other rows alone, so the
input metric is the sum over groups of each row's L∞ move: d_R(r, r′) for one relation, at most Σ d_R(r_i, r′_i)
for a document's. Each row is drawn by OpenDP's Gumbel noisy max at scale 2/ε, which samples
P(y) ∝ exp(ε·u(r, y)/2), and that law changes by at most e^{ε·Δ} when its row moves by Δ: the privacy map
d ↦ ε·d under max divergence (pure ε-DP) is Definition 3 and Eq. 8-9 in one line.

OpenDP states its noisy max's guarantee in ρ (zero-concentrated), weaker than the pure bound the law admits, and
has no metric for "one relation reworded"; so the draw is a user measurement wrapped around that noisy max, with
the map written once here. The report's bounds and ``relguard audit``'s bound read :attr:`privacy_map` from this
object, so the promise printed and the law drawn cannot drift apart.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache, partial
from typing import Any

import numpy as np

from relguard.settings import check_epsilon

#: The input metric's name in the OpenDP measurement (and in the report).
INPUT_METRIC = "sum over relation groups of the L-inf move of the group's utility row (<= sum of d_R)"


@lru_cache(maxsize=256)
def noisy_max(scale: float) -> Any:
    """OpenDP's Gumbel noisy max: index i with probability softmax(u / scale)."""
    from opendp import domains, measurements, measures, metrics
    from opendp.mod import enable_features

    enable_features("contrib")
    space = domains.vector_domain(domains.atom_domain(T=float, nan=False)), metrics.linf_distance(T=float)
    return measurements.make_noisy_max(*space, measures.zero_concentrated_divergence(), scale=scale)


def _loss(epsilon: float, distance: float | np.ndarray) -> float | np.ndarray:
    return epsilon * distance


def _is_rows(value: object) -> bool:
    return isinstance(value, np.ndarray) and value.ndim == 2 and bool(np.all(np.isfinite(value)))


@dataclass(frozen=True)
class RelationMeasurement:
    """The exponential mechanism at one ε as an OpenDP measurement: call it on (m, K+1) utility rows.

    ``privacy_map`` is the function OpenDP holds as the measurement's map; it also takes arrays, so an audit can
    read the bound of many pairs at once. At ε = 0 every row is drawn uniformly and the map is 0.
    """

    epsilon: float
    opendp: Any = field(compare=False, repr=False)

    def privacy_map(self, distance: float | np.ndarray) -> float | np.ndarray:
        """The privacy loss ε·d of inputs ``distance`` apart under the input metric (d_R for one relation)."""
        return _loss(self.epsilon, distance)

    def __call__(self, rows: np.ndarray) -> np.ndarray:
        return np.asarray(self.opendp(np.asarray(rows, dtype=np.float64)), dtype=np.int64)

    def describe(self) -> dict:
        """The measurement as the report states it, read from the OpenDP object."""
        m = self.opendp
        return {
            "opendp": "make_user_measurement around make_noisy_max (Gumbel, scale 2/epsilon per row)",
            "input_metric": str(m.input_metric),
            "output_measure": str(m.output_measure),
            "privacy_map": "d -> epsilon * d",
            "loss_at_d_R_1": float(m.map(1.0)),
        }


@lru_cache(maxsize=256)
def relation_measurement(*, epsilon: float) -> RelationMeasurement:
    """The draw at ``epsilon`` (cached: the report and the audit read the object the sampler drew with)."""
    from opendp import domains, measurements, measures, metrics
    from opendp.mod import enable_features

    epsilon = float(check_epsilon(epsilon))
    # ε = 0, or so small that 2/ε is no float: every utility weighs exp(0) = 1 in floating point, the uniform draw
    uniform = epsilon == 0.0 or not math.isfinite(2.0 / epsilon)
    gumbel = noisy_max(1.0 if uniform else 2.0 / epsilon)

    def draw(rows: np.ndarray) -> np.ndarray:
        block = np.zeros_like(rows) if uniform else rows
        return np.array([gumbel(row.tolist()) for row in block], dtype=np.int64)

    enable_features("contrib", "honest-but-curious")
    opendp = measurements.make_user_measurement(
        domains.user_domain("RelationUtilityRows", _is_rows),
        metrics.user_distance(INPUT_METRIC),
        measures.max_divergence(),
        function=draw,
        privacy_map=partial(_loss, epsilon),
    )
    return RelationMeasurement(epsilon, opendp)
