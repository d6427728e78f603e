"""The exponential mechanism over K candidates plus null (paper Eq. 11-12, Algorithm 1): its probabilities.

Probabilities are computed in the log domain and vectorized over all relation
groups, so the app can redraw them on every slider move. Sampling is
:mod:`relguard.privacy.sampling`; the bounds a release promises are
:mod:`relguard.privacy.bounds`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from relguard.errors import ConfigError
from relguard.settings import check_epsilon, check_lam


def _check_distances(distances: np.ndarray) -> np.ndarray:
    d = np.asarray(distances, dtype=np.float64)
    if d.ndim == 1:
        d = d[None, :]
    if d.ndim != 2 or d.shape[1] < 1:
        raise ConfigError(f"distances must be an (m, K) array with K >= 1, got shape {d.shape}")
    if not np.all(np.isfinite(d)) or np.any(d < 0) or np.any(d > 1 + 1e-12):
        raise ConfigError("distances must be finite d_R values in [0, 1]")
    return d


def epsilon_column(epsilon: float | np.ndarray, rows: int) -> np.ndarray:
    """ε as an (m, 1) column: one value for every row, or one per row (per-group ε, DESIGN invariant 13)."""
    if np.ndim(epsilon) == 0:
        return np.full((rows, 1), check_epsilon(epsilon))
    values = np.asarray(epsilon, dtype=np.float64).reshape(-1)
    if len(values) != rows:
        raise ConfigError(f"per-group epsilon has {len(values)} values for {rows} rows; give one per row")
    if not np.all(np.isfinite(values)) or np.any(values < 0):
        raise ConfigError("every per-group epsilon must be a finite number >= 0")
    return values[:, None]


def utilities(distances: np.ndarray, *, lam: float) -> np.ndarray:
    """u(r, c) = −d_R(r, c) for each candidate and u(r, null) = −λ, as an (m, K+1) array."""
    d = _check_distances(distances)
    lam = check_lam(lam)
    return np.concatenate([-d, np.full((d.shape[0], 1), -lam)], axis=1)


def log_probabilities(
    distances: np.ndarray, *, epsilon: float | np.ndarray, lam: float, allow_null: bool = True
) -> np.ndarray:
    """log P(y | r) for every row of ``distances`` and y ∈ pool ∪ {null} (last column).

    ``epsilon`` is one value, or one per row (each group at its own ε_g). ``allow_null=False`` is the paper's
    Table 3 ablation: null leaves the output domain and the K candidates are renormalized (its column holds
    log 0 = -inf).
    """
    scores = utilities(distances, lam=lam)
    logits = epsilon_column(epsilon, scores.shape[0]) * scores / 2.0
    if not allow_null:
        logits[:, -1] = -np.inf
    shift = logits.max(axis=1, keepdims=True)
    return logits - (shift + np.log(np.exp(logits - shift).sum(axis=1, keepdims=True)))


def outcome_probabilities(
    distances: np.ndarray, *, epsilon: float | np.ndarray, lam: float, allow_null: bool = True
) -> np.ndarray:
    """(m, K+1) probabilities, last column null, each row summing to 1 (Eq. 12); ``epsilon`` as above."""
    return np.exp(log_probabilities(distances, epsilon=epsilon, lam=lam, allow_null=allow_null))


def group_distances(per_triple: np.ndarray, group_of_triple: Sequence[int], groups: int) -> np.ndarray:
    """(g, K) distance of each relation group to each candidate: the minimum over the group's relations.

    Why the minimum keeps the guarantee: the group's utility is u(c) = −min_i d_R(r_i, c). If one relation
    r_j of the group is changed to r′_j, each term d_R(r_j, c) moves by at most d_R(r_j, r′_j) (triangle
    inequality of the metric d_R), and a minimum moves by at most the largest move of its terms, so
    |u(c) − u′(c)| ≤ d_R(r_j, r′_j) for every c; the null utility −λ does not move. The exponential
    mechanism with exp(ε·u/2) therefore bounds every log-ratio by ε·d_R(r_j, r′_j), exactly the guarantee of
    a lone relation (Definition 3, App. A). A group of one relation is the paper's mechanism unchanged.
    ``relguard audit`` checks this bound exactly on the release's own groups.
    """
    per_triple = np.asarray(per_triple, dtype=np.float64)
    out = np.full((groups, per_triple.shape[1] if per_triple.ndim == 2 else 0), np.inf)
    if len(per_triple):
        np.minimum.at(out, np.asarray(group_of_triple, dtype=np.int64), per_triple)
    return out
