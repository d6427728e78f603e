"""The exact bound of DESIGN invariant 10, checked rather than trusted: one implementation for every audit.

For one pool, one ε and one λ, the mechanism's output distribution is known exactly, so for every pair of input
relations r, r′ compared under the pool it checks

    max_y |log P(y | r) − log P(y | r′)| ≤ ε · d_R(r, r′) + 1e-9.

The right side is the draw's own privacy map (:mod:`relguard.privacy.measurement`), read from the measurement
the release drew with, so a map that promised more than the law gives fails here.
Inputs cover the candidates themselves, other relations, and near-duplicates made by small perturbations of
their embeddings, where the bound is tightest relative to d_R. Relation groups are checked with one member
replaced at a time (:func:`audit_groups`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from relguard.embed import pairwise_distances
from relguard.privacy.measurement import relation_measurement
from relguard.privacy.mechanism import group_distances, log_probabilities
from relguard.protocols import Encoder
from relguard.settings import check_epsilon, check_lam
from relguard.types import CandidatePool, RelationGroup, TypePair

TOLERANCE = 1e-9

NEAR_DUPLICATE_SCALES = (1e-4, 1e-3, 1e-2, 5e-2)


MAX_NEAR_DUPLICATE_SEEDS = 60


BLOCK = 256


LogProbabilities = Callable[..., np.ndarray]


GroupDistances = Callable[[np.ndarray, Sequence[int], int], np.ndarray]


@dataclass(frozen=True)
class BoundResult:
    """The worst ordered pair of one pool: its log-ratio, its bound ε·d_R, the excess, and max ratio/bound."""

    epsilon: float
    lam: float
    pairs: int
    worst_log_ratio: float
    bound_at_worst: float
    worst_excess: float
    tightness: float

    @property
    def passed(self) -> bool:
        return self.worst_excess <= TOLERANCE


def near_duplicates(z: np.ndarray, *, scales=NEAR_DUPLICATE_SCALES, seed: int = 0) -> np.ndarray:
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
    probabilities: LogProbabilities = log_probabilities,
) -> BoundResult:
    """The exact bound for every ordered pair of ``inputs`` (unit embeddings) under one pool.

    ``probabilities`` is the function under audit (log domain, same signature as
    :func:`~relguard.privacy.mechanism.log_probabilities`); tests pass a broken one. Blocked over rows so that
    thousands of inputs fit in memory; pairs of identical inputs are skipped unless their outputs differ.
    """
    epsilon, lam = check_epsilon(epsilon), check_lam(lam)
    privacy_map = relation_measurement(epsilon=epsilon).privacy_map
    pairs = int(len(inputs) * (len(inputs) - 1))
    log_p = probabilities(pairwise_distances(inputs, candidates), epsilon=epsilon, lam=lam)
    best = (-np.inf, 0.0, 0.0)
    tight = 0.0
    if len(inputs) < 2:
        return BoundResult(epsilon, lam, pairs, 0.0, 0.0, 0.0, 0.0)
    for start in range(0, len(inputs), BLOCK):
        block = log_p[start : start + BLOCK]
        ratio = np.max(np.abs(block[:, None, :] - log_p[None, :, :]), axis=2)
        bound = privacy_map(pairwise_distances(inputs[start : start + BLOCK], inputs))
        excess = ratio - bound
        rows = np.arange(len(block))
        excess[rows, start + rows] = -np.inf
        identical = (bound <= 1e-12) & (ratio <= TOLERANCE)
        excess[identical] = -np.inf
        i, j = np.unravel_index(np.argmax(excess), excess.shape)
        if excess[i, j] > best[0]:
            best = (float(excess[i, j]), float(ratio[i, j]), float(bound[i, j]))
        meaningful = bound > 1e-6
        if np.any(meaningful):
            tight = max(tight, float(np.max(ratio[meaningful] / bound[meaningful])))
    if best[0] == -np.inf:
        return BoundResult(epsilon, lam, pairs, 0.0, 0.0, 0.0, tight)
    return BoundResult(epsilon, lam, pairs, best[1], best[2], best[0], tight)


@dataclass(frozen=True)
class PoolAudit:
    """The exact-bound result for one pool: the worst pair, its bound and how tight the bound is there."""

    type_pair: TypePair
    inputs: int
    originals: int
    pairs: int
    worst_log_ratio: float
    bound_at_worst: float
    worst_excess: float
    tightness: float
    epsilon: float | None = None

    @property
    def passed(self) -> bool:
        return self.worst_excess <= TOLERANCE


def audit_pools(
    pools: Sequence[CandidatePool],
    originals: Mapping[TypePair, Sequence[str]],
    encoder: Encoder,
    *,
    epsilon: float,
    lam: float,
    probabilities: LogProbabilities = log_probabilities,
    seed: int = 0,
) -> tuple[PoolAudit, ...]:
    """Check 1 for every pool: originals, candidates, other public relations and near-duplicates of them."""
    epsilon, lam = check_epsilon(epsilon), check_lam(lam)
    public = sorted({p for pool in pools for p in pool.predicates})
    results = []
    for number, pool in enumerate(pools):
        pair = pool.type_pair
        own = list(dict.fromkeys(originals.get(pair, ())))
        others = [p for p in public if p not in pool.predicates and p not in own]
        z_candidates = encoder.embed_predicates(pool.predicates, pair)
        z_own = encoder.embed_predicates(own, pair) if own else np.zeros((0, z_candidates.shape[1]))
        z_others = encoder.embed_predicates(others, pair) if others else np.zeros((0, z_candidates.shape[1]))
        seeds = np.concatenate([z_candidates, z_own[:MAX_NEAR_DUPLICATE_SEEDS]])
        near = near_duplicates(seeds, scales=NEAR_DUPLICATE_SCALES, seed=seed + number)
        inputs = np.concatenate([z_candidates, z_own, z_others, near])
        result = audit_pool(z_candidates, inputs, epsilon=epsilon, lam=lam, probabilities=probabilities)
        results.append(
            PoolAudit(
                pair,
                len(inputs),
                len(own),
                result.pairs,
                result.worst_log_ratio,
                result.bound_at_worst,
                result.worst_excess,
                result.tightness,
            )
        )
    return tuple(results)


def audit_groups(
    groups: Sequence[RelationGroup],
    pools: Mapping[TypePair, CandidatePool],
    encoder: Encoder,
    *,
    epsilon: float,
    lam: float,
    combine: GroupDistances | None = None,
    probabilities: LogProbabilities = log_probabilities,
    seed: int = 0,
) -> tuple[int, int, float]:
    """Check 4: the exact bound for groups when one of their relations changes.

    For each group (its predicates r_1..r_n under its pool) and each member j, r_j is replaced by every
    other input of the pool — its candidates, the pool's other original relations and near-duplicates of
    r_j — and the group's probability row is recomputed through ``combine`` (the pipeline's
    :func:`~relguard.privacy.mechanism.group_distances`). Every replacement must satisfy
    max_y |log P(y|g) − log P(y|g′)| ≤ ε·d_R(r_j, r′_j) + 1e-9. Synthetic groups of two and three public
    relations per pool are checked too, so a pool with only single-relation groups is still covered.
    Returns (groups checked, replacements checked, worst excess).
    """
    combine = combine or group_distances
    epsilon, lam = check_epsilon(epsilon), check_lam(lam)
    privacy_map = relation_measurement(epsilon=epsilon).privacy_map
    members: dict[TypePair, list[list[str]]] = {}
    for group in groups:
        members.setdefault(group.type_pair, []).append(list(group.predicates))
    checked = replaced = 0
    worst = -np.inf
    for number, (pair, pool) in enumerate(sorted(pools.items())):
        candidates = list(pool.predicates)
        lists = [*members.get(pair, []), candidates[:2], candidates[-3:]]
        originals = list(dict.fromkeys(p for group in members.get(pair, []) for p in group))
        z_c = encoder.embed_predicates(candidates, pair)
        for predicates in lists:
            z_g = encoder.embed_predicates(predicates, pair)
            rows = pairwise_distances(z_g, z_c)
            base = combine(rows, [0] * len(predicates), 1)
            log_base = probabilities(base, epsilon=epsilon, lam=lam)
            for j in range(len(predicates)):
                others = [p for p in candidates + originals if p != predicates[j]]
                z_new = encoder.embed_predicates(others, pair) if others else np.zeros((0, z_c.shape[1]))
                z_new = np.concatenate(
                    [z_new, near_duplicates(z_g[j : j + 1], scales=NEAR_DUPLICATE_SCALES, seed=seed + number)]
                )
                new_rows = pairwise_distances(z_new, z_c)
                stacked = np.repeat(rows[None], len(z_new), axis=0)
                stacked[:, j, :] = new_rows
                flat = stacked.reshape(-1, rows.shape[1])
                owners = np.repeat(np.arange(len(z_new)), len(predicates))
                changed = combine(flat, owners, len(z_new))
                ratio = np.max(np.abs(probabilities(changed, epsilon=epsilon, lam=lam) - log_base), axis=1)
                bound = privacy_map(pairwise_distances(z_g[j : j + 1], z_new)[0])
                worst = max(worst, float(np.max(ratio - bound)))
                replaced += len(z_new)
            checked += 1
    return checked, replaced, (0.0 if worst == -np.inf else worst)
