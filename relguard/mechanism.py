"""The exponential mechanism over K candidates plus null (paper Eq. 11-12, Algorithm 1).

Probabilities are computed in the log domain and vectorized over all triples,
so the app can redraw them on every slider move. Sampling goes through
OpenDP's ``make_noisy_max`` (Gumbel noise under the zero-concentrated measure,
which selects index i with probability softmax(u / scale)); with scale 2/ε this
is exactly P(y) ∝ exp(ε·u(r, y)/2). A teaching seed switches to a seeded
Gumbel-max draw of the same distribution, and the release then says it is not
private (DESIGN invariant 8).
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from relguard.errors import ConfigError, ConfigTypeError


def check_epsilon(epsilon: object) -> float:
    """ε must be a finite real ≥ 0: 0 is 'no information', larger means less privacy."""
    if isinstance(epsilon, bool) or not isinstance(epsilon, numbers.Real):
        raise ConfigTypeError(f"epsilon must be a number, got {type(epsilon).__name__}: {epsilon!r}")
    value = float(epsilon)
    if not math.isfinite(value) or value < 0:
        raise ConfigError(
            f"epsilon must be a finite number >= 0 (got {epsilon!r}); "
            "typical values are 0.1 (strong privacy) to 10 (weak privacy)"
        )
    return value


def check_lam(lam: object) -> float:
    """λ is the distance assigned to deleting a relation (Eq. 6): a finite real ≥ 0."""
    if isinstance(lam, bool) or not isinstance(lam, numbers.Real):
        raise ConfigTypeError(f"lam (lambda) must be a number, got {type(lam).__name__}: {lam!r}")
    value = float(lam)
    if not math.isfinite(value) or value < 0:
        raise ConfigError(
            f"lam (lambda) must be a finite number >= 0 (got {lam!r}); smaller values delete more "
            "relations, 1 is the paper's default"
        )
    return value


def check_k(k: object) -> int:
    """K, the number of real candidates per pool, must be an integer ≥ 1."""
    if isinstance(k, bool) or not isinstance(k, numbers.Integral):
        raise ConfigTypeError(f"k must be an integer, got {type(k).__name__}: {k!r}")
    if int(k) < 1:
        raise ConfigError(f"k must be at least 1 (got {k!r}); the paper uses K = 10 and sweeps 5 to 20")
    return int(k)


def _check_distances(distances: np.ndarray) -> np.ndarray:
    d = np.asarray(distances, dtype=np.float64)
    if d.ndim == 1:
        d = d[None, :]
    if d.ndim != 2 or d.shape[1] < 1:
        raise ConfigError(f"distances must be an (m, K) array with K >= 1, got shape {d.shape}")
    if not np.all(np.isfinite(d)) or np.any(d < 0) or np.any(d > 1 + 1e-12):
        raise ConfigError("distances must be finite d_R values in [0, 1]")
    return d


def utilities(distances: np.ndarray, *, lam: float) -> np.ndarray:
    """u(r, c) = −d_R(r, c) for each candidate and u(r, null) = −λ, as an (m, K+1) array."""
    d = _check_distances(distances)
    lam = check_lam(lam)
    return np.concatenate([-d, np.full((d.shape[0], 1), -lam)], axis=1)


def log_probabilities(distances: np.ndarray, *, epsilon: float, lam: float, allow_null: bool = True) -> np.ndarray:
    """log P(y | r) for every row of ``distances`` and y ∈ pool ∪ {null} (last column).

    ``allow_null=False`` is the paper's Table 3 ablation: null leaves the output
    domain and the K candidates are renormalized (its column holds log 0 = -inf).
    """
    epsilon = check_epsilon(epsilon)
    logits = epsilon * utilities(distances, lam=lam) / 2.0
    if not allow_null:
        logits[:, -1] = -np.inf
    shift = logits.max(axis=1, keepdims=True)
    return logits - (shift + np.log(np.exp(logits - shift).sum(axis=1, keepdims=True)))


def outcome_probabilities(distances: np.ndarray, *, epsilon: float, lam: float, allow_null: bool = True) -> np.ndarray:
    """(m, K+1) probabilities, last column null, each row summing to 1 (Eq. 12)."""
    return np.exp(log_probabilities(distances, epsilon=epsilon, lam=lam, allow_null=allow_null))


@lru_cache(maxsize=64)
def _noisy_max(scale: float):
    import opendp.prelude as dp

    dp.enable_features("contrib")
    space = dp.vector_domain(dp.atom_domain(T=float, nan=False)), dp.linf_distance(T=float)
    return dp.m.make_noisy_max(*space, dp.zero_concentrated_divergence(), scale=scale)


def sample_outcomes(
    distances: np.ndarray, *, epsilon: float, lam: float, seed: int | None = None, allow_null: bool = True
) -> np.ndarray:
    """Draw one outcome index per row (K means null).

    Without ``seed`` each row is drawn by OpenDP with OS entropy. With a seed the
    same distribution is drawn by a seeded Gumbel-max, which is reproducible and
    therefore only fit for teaching and tests, never for a release.
    ``allow_null=False`` draws among the K candidates only (never returns K).
    """
    epsilon = check_epsilon(epsilon)
    scores = utilities(distances, lam=lam)
    if not allow_null:
        scores = scores[:, :-1]
    if seed is not None:
        rng = np.random.default_rng(seed)
        logits = epsilon * scores / 2.0
        return np.argmax(logits + rng.gumbel(size=logits.shape), axis=1)
    if epsilon == 0.0:
        measurement, scores = _noisy_max(1.0), np.zeros_like(scores)
    else:
        measurement = _noisy_max(2.0 / epsilon)
    return np.array([measurement(row.tolist()) for row in scores], dtype=np.int64)


def privacy_loss(d_r: float | np.ndarray, *, epsilon: float) -> float | np.ndarray:
    """The bound on |log P(S|r) − log P(S|r′)| for relations at distance d_R: ε·d_R."""
    return check_epsilon(epsilon) * np.asarray(d_r, dtype=np.float64)


def relation_bound(d_r: float, *, epsilon: float) -> float:
    """The multiplicative guarantee e^{ε·d_R(r, r′)} of Definition 3."""
    return float(np.exp(privacy_loss(d_r, epsilon=epsilon)))


def document_bound(distances: Sequence[float], *, epsilon: float) -> float:
    """The document-level guarantee e^{ε·Σ d_R(r_i, r′_i)} (Eq. 8-9) for aligned triples."""
    total = float(np.sum(np.asarray(distances, dtype=np.float64)))
    return float(np.exp(check_epsilon(epsilon) * total))


def worst_log_ratio(
    distances_r: np.ndarray, distances_r2: np.ndarray, *, epsilon: float, lam: float, probabilities=None
) -> float:
    """max_y |log P(y|r) − log P(y|r′)| for two inputs under one pool (the exact audit quantity).

    ``probabilities`` defaults to :func:`log_probabilities`; a test passes a broken
    variant to show the audit catches it.
    """
    fn = probabilities or log_probabilities
    a = fn(np.atleast_2d(distances_r), epsilon=epsilon, lam=lam)
    b = fn(np.atleast_2d(distances_r2), epsilon=epsilon, lam=lam)
    return float(np.max(np.abs(a - b)))
