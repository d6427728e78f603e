"""Exact audit of the relation-DP guarantee (DESIGN invariant 10).

For one pool, one ε and one λ, the mechanism's output distribution is known
exactly, so the guarantee can be checked rather than trusted: for every pair of
input relations r, r′ compared under the pool,

    max_y |log P(y | r) − log P(y | r′)| ≤ ε · d_R(r, r′) + 1e-9.

Inputs cover the candidates themselves, other relations, and near-duplicates
made by small perturbations of their embeddings, where the bound is tightest
relative to d_R.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from relguard.embed import pairwise_distances
from relguard.mechanism import check_epsilon, check_lam, log_probabilities

TOLERANCE = 1e-9


@dataclass(frozen=True)
class AuditResult:
    """The worst pair found: its log-ratio, its bound ε·d_R and by how much the bound is exceeded."""

    epsilon: float
    lam: float
    pairs: int
    worst_log_ratio: float
    bound_at_worst: float
    worst_excess: float

    @property
    def passed(self) -> bool:
        return self.worst_excess <= TOLERANCE


def near_duplicates(z: np.ndarray, *, scales=(1e-4, 1e-3, 1e-2, 5e-2), seed: int = 0) -> np.ndarray:
    """Unit vectors close to each row of ``z``: the inputs where a broken mechanism shows first."""
    rng = np.random.default_rng(seed)
    out = []
    for scale in scales:
        noisy = z + scale * rng.standard_normal(z.shape)
        out.append(noisy / np.linalg.norm(noisy, axis=1, keepdims=True))
    return np.concatenate(out)


def audit_pool(
    candidates: np.ndarray,
    inputs: np.ndarray,
    *,
    epsilon: float,
    lam: float,
    probabilities: Callable[..., np.ndarray] = log_probabilities,
) -> AuditResult:
    """Check the bound for every ordered pair of ``inputs`` (unit embeddings) under one pool.

    ``probabilities`` is the function under audit (log domain, same signature as
    :func:`~relguard.mechanism.log_probabilities`); tests pass a broken one.
    """
    epsilon, lam = check_epsilon(epsilon), check_lam(lam)
    log_p = probabilities(pairwise_distances(inputs, candidates), epsilon=epsilon, lam=lam)
    between = pairwise_distances(inputs, inputs)
    ratio = np.max(np.abs(log_p[:, None, :] - log_p[None, :, :]), axis=2)
    bound = epsilon * between
    excess = ratio - bound
    excess[between == 0] = np.where(ratio[between == 0] > TOLERANCE, excess[between == 0], -np.inf)
    i, j = np.unravel_index(np.argmax(excess), excess.shape)
    return AuditResult(
        epsilon=epsilon,
        lam=lam,
        pairs=int(len(inputs) * (len(inputs) - 1)),
        worst_log_ratio=float(ratio[i, j]),
        bound_at_worst=float(bound[i, j]),
        worst_excess=float(excess[i, j]),
    )
