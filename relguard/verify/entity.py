"""The entity-level bound (DESIGN invariant 13) checked exactly, on synthetic groups over the release's pools.

:mod:`relguard.privacy.entity` derives that two corpora differing in *all* relations of one entity e are told
apart by at most e^{Σ_{g ∈ G_e} ε_g·d_max(g)}, and that the per-entity allocation ε_g = E / max(n(s), n(o)) keeps
that sum within E. Here both claims are tested rather than trusted:

1. **Composition.** For each entity of a small synthetic corpus, the release law of its groups under D and D′ is
   computed exactly over the *product* of the groups' outcome laws ((K+1)^n joint outcomes), and
   max_S |log P_D(S) − log P_D′(S)| must be ≤ the claimed exponent + 1e-9. The maximum over outcome *sets* equals
   the maximum over single joint outcomes (a ratio of sums never exceeds its largest term ratio;
   :func:`max_set_log_ratio` enumerates every set to show it on tiny cases).
2. **Budget** (with E). Every synthetic entity's exact worst log-ratio is ≤ E + 1e-9, and so is every claimed
   exponent of the corpus's own entities when they are known.

The synthetic corpus has two hubs: hub-1 with leaf-1, leaf-2 and hub-2 (n = 3), hub-2 with hub-1 and leaf-3..5
(n = 4), so one group joins two hubs and takes the larger n. Each group lies on one of the release's pools (in
turn) and is drawn at the ε the allocation under audit gives it. For every group, D and D′ word it with the pair
of inputs whose laws differ most (the pool's candidates, their antipodes — d_R = 1 to that candidate, the farthest
any relation can be — and near-duplicates of both): the strongest change of all of an entity's relations the
audit can build. The claimed exponent and the allocation are options, so a test can hand in a composition that
gives a hub entity only one group's ε and see this check fail.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from relguard.privacy.entity import entity_log_bounds, group_epsilons
from relguard.protocols import Encoder
from relguard.textable import plural
from relguard.types import CandidatePool, PairKey, TypePair
from relguard.verify.bound import NEAR_DUPLICATE_SCALES, TOLERANCE, LogProbabilities, near_duplicates
from relguard.verify.result import Check

#: The synthetic corpus's entity pairs: two hubs (n = 3 and 4), joined by one group, and five leaves.
SYNTHETIC = (
    ("hub-1", "leaf-1"),
    ("hub-1", "leaf-2"),
    ("hub-1", "hub-2"),
    ("hub-2", "leaf-3"),
    ("hub-2", "leaf-4"),
    ("hub-2", "leaf-5"),
)
#: Joint outcome tables larger than this are not enumerated (an entity with many groups or a large K).
MAX_JOINT = 2_000_000

Allocation = Callable[..., np.ndarray]
EntityBounds = Callable[..., Mapping[str, float]]


@dataclass(frozen=True)
class EntityRow:
    """One synthetic entity: its n, the exact worst log-ratio over the product of its groups, the claimed one."""

    entity: str
    groups: int
    exact: float
    claimed: float

    @property
    def excess(self) -> float:
        return self.exact - self.claimed


@dataclass(frozen=True)
class EntityAudit:
    """Every synthetic entity's row, and with a budget E the largest excess of an exact or claimed exponent over E."""

    rows: tuple[EntityRow, ...]
    budget_excess: float | None

    @property
    def worst(self) -> EntityRow:
        return max(self.rows, key=lambda row: (row.excess, row.groups))

    @property
    def hub(self) -> EntityRow:
        return max(self.rows, key=lambda row: (row.groups, row.entity))

    @property
    def passed(self) -> bool:
        return self.worst.excess <= TOLERANCE

    @property
    def within_budget(self) -> bool | None:
        return None if self.budget_excess is None else self.budget_excess <= TOLERANCE


def pool_epsilons(
    keys: Sequence[PairKey], *, entity_epsilon: float, allocate: Allocation = group_epsilons
) -> dict[TypePair, tuple[float, ...]]:
    """The distinct ε_g each pool's groups are drawn at under a per-entity budget (public: keys and E only)."""
    found: dict[TypePair, set[float]] = {}
    for key, value in zip(keys, allocate(list(keys), entity_epsilon=entity_epsilon), strict=True):
        found.setdefault((key[1], key[3]), set()).add(float(value))
    return {pair: tuple(sorted(values)) for pair, values in found.items()}


def synthetic_keys(pools: Mapping[TypePair, CandidatePool]) -> list[PairKey]:
    """The synthetic corpus's group keys, each on the next pool of the release (sorted type pairs, in turn)."""
    pairs = sorted(pools)
    return [(s, pairs[i % len(pairs)][0], o, pairs[i % len(pairs)][1]) for i, (s, o) in enumerate(SYNTHETIC)]


def product_log_ratio(log_p: Sequence[np.ndarray], log_q: Sequence[np.ndarray]) -> float:
    """max over joint outcomes |log P(y) − log Q(y)| of the product laws ⊗ p_g and ⊗ q_g, computed exactly.

    The joint table is enumerated up to :data:`MAX_JOINT` outcomes; beyond, the same maximum is taken term by term
    (log P − log Q is a sum of one term per group, so its maximum is the sum of the groups' maxima).
    """
    if math.prod(len(p) for p in log_p) > MAX_JOINT:
        ups = sum(float(np.max(p - q)) for p, q in zip(log_p, log_q, strict=True))
        downs = sum(float(np.max(q - p)) for p, q in zip(log_p, log_q, strict=True))
        return max(ups, downs)
    joint_p, joint_q = np.zeros(1), np.zeros(1)
    for p, q in zip(log_p, log_q, strict=True):
        joint_p = np.add.outer(joint_p, p).ravel()
        joint_q = np.add.outer(joint_q, q).ravel()
    finite = np.isfinite(joint_p) | np.isfinite(joint_q)
    return float(np.max(np.abs(joint_p[finite] - joint_q[finite]))) if finite.any() else 0.0


def max_set_log_ratio(p: np.ndarray, q: np.ndarray) -> float:
    """max over every non-empty outcome set S of |log P(S) − log Q(S)|, by enumeration (tiny laws only)."""
    best = 0.0
    for size in range(1, len(p) + 1):
        for subset in itertools.combinations(range(len(p)), size):
            rows = list(subset)
            best = max(best, abs(float(np.log(p[rows].sum()) - np.log(q[rows].sum()))))
    return best


def _inputs(z_candidates: np.ndarray, seed: int) -> np.ndarray:
    both = np.concatenate([z_candidates, -z_candidates])
    return np.concatenate([both, near_duplicates(both, scales=NEAR_DUPLICATE_SCALES, seed=seed)])


def strongest_change(
    z_candidates: np.ndarray, *, epsilon: float, lam: float, probabilities: LogProbabilities, seed: int = 0
) -> tuple[np.ndarray, np.ndarray]:
    """(log law under D, log law under D′) of one group: the input pair whose laws differ most in one direction."""
    z = _inputs(z_candidates, seed)
    distances = np.clip(0.5 * np.linalg.norm(z[:, None, :] - z_candidates[None, :, :], axis=2), 0.0, 1.0)
    laws = probabilities(distances, epsilon=epsilon, lam=lam)
    gap = np.max(laws[:, None, :] - laws[None, :, :], axis=2)
    i, j = np.unravel_index(np.argmax(gap), gap.shape)
    return laws[i], laws[j]


def audit_entities(
    pools: Mapping[TypePair, CandidatePool],
    encoder: Encoder,
    *,
    epsilon: float,
    lam: float,
    k: int,
    entity_epsilon: float | None = None,
    probabilities: LogProbabilities,
    allocate: Allocation = group_epsilons,
    bound: EntityBounds = entity_log_bounds,
) -> EntityAudit | None:
    """Checks 1 and 2 of the module docstring on the synthetic corpus; None when there is no pool."""
    if not pools:
        return None
    keys = synthetic_keys(pools)
    epsilons = (
        np.asarray(allocate(keys, entity_epsilon=entity_epsilon), dtype=np.float64)
        if entity_epsilon is not None
        else np.full(len(keys), float(epsilon))
    )
    claimed = bound(keys, epsilons, lam=lam, k=k)
    laws = []
    for number, (key, value) in enumerate(zip(keys, epsilons, strict=True)):
        pair = (key[1], key[3])
        z = encoder.embed_predicates(pools[pair].predicates, pair)
        laws.append(strongest_change(z, epsilon=float(value), lam=lam, probabilities=probabilities, seed=number))
    rows = []
    for entity in sorted({name for s, _, o, _ in keys for name in (s, o)}):
        mine = [i for i, (s, _, o, _) in enumerate(keys) if entity in (s, o)]
        exact = product_log_ratio([laws[i][0] for i in mine], [laws[i][1] for i in mine])
        rows.append(EntityRow(entity, len(mine), exact, float(claimed[entity])))
    budget_excess = None
    if entity_epsilon is not None:
        budget_excess = max(max(row.exact, row.claimed) for row in rows) - entity_epsilon
    return EntityAudit(tuple(rows), budget_excess)


def entity_checks(
    pools: Mapping[TypePair, CandidatePool],
    encoder: Encoder,
    *,
    epsilon: float,
    lam: float,
    k: int,
    entity_epsilon: float | None,
    probabilities: LogProbabilities,
    allocate: Allocation = group_epsilons,
    bound: EntityBounds = entity_log_bounds,
    corpus_keys: Sequence[PairKey] | None = None,
) -> list[Check]:
    """The audit table's entity lines: the composition, and with a budget E every entity within e^E."""
    result = audit_entities(
        pools,
        encoder,
        epsilon=epsilon,
        lam=lam,
        k=k,
        entity_epsilon=entity_epsilon,
        probabilities=probabilities,
        allocate=allocate,
        bound=bound,
    )
    name = "entity: all of one entity's relations <= e^(Σ ε_g·d_max(g)), exact over the product"
    if result is None:
        return [Check(name, None, "no pools")]
    checks = [
        Check(
            name,
            result.passed,
            f"{len(result.rows)} synthetic entities; {result.hub.entity} in {result.hub.groups} groups: exact "
            f"log-ratio {result.hub.exact:.4g} vs claimed {result.hub.claimed:.4g}; worst excess "
            f"{result.worst.excess:+.3g} ({result.worst.entity}, {plural(result.worst.groups, 'group')})",
        )
    ]
    if entity_epsilon is None:
        return checks
    detail = f"synthetic: worst excess over E = {entity_epsilon:g} is {result.budget_excess:+.3g}"
    passed = bool(result.within_budget)
    if corpus_keys is not None and len(corpus_keys):
        ordered = sorted(corpus_keys)
        stated = bound(ordered, allocate(ordered, entity_epsilon=entity_epsilon), lam=lam, k=k)
        most = max(stated.values())
        passed = passed and most <= entity_epsilon + TOLERANCE
        detail += f"; the corpus's {len(stated)} entities: largest Σ ε_g·d_max {most:.4g}"
    checks.append(Check("entity budget: every entity within e^E", passed, detail))
    return checks
