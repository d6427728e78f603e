"""The entity-level view (DESIGN invariant 13, seed 002's unit of privacy): one entity's relations, all together.

The per-relation guarantee bounds how well a reader tells two relations on one entity pair apart. A privacy
officer asks about a person: how well is *everything* about them protected? This module answers that, and
draws each group at the ε that keeps every entity within a budget E.

**The bound.** A release draws one outcome Y_g per relation group g, independently, from the exponential
mechanism at ε_g with utility u_g(c) = −min_{r ∈ R_g} d_R(r, c) (R_g the group's relations) and u_g(null) = −λ.
An entity e takes part in the groups G_e = {g : e is g's subject or object}; n(e) = |G_e|. Two corpora D and D′
*differ in all relations of e* when every R_g, g ∈ G_e, may be worded anyhow in D′ and everything else is the
same. Groups are keyed by public entity pairs (DESIGN invariants 6 and 11: which pairs get a slot does not
depend on the relation's words), so D and D′ have the same groups and the same G_e: which groups an entity is
in, and so n(e), is public. For an outcome tuple y, the groups outside G_e have the same law in D and D′ and
cancel, so

    log P_D(y) − log P_D′(y) = Σ_{g ∈ G_e} [log P_g(y_g | R_g) − log P_g(y_g | R′_g)] ≤ Σ_{g ∈ G_e} L_g,

where L_g is the largest log-ratio group g's outcome law can show over any change of its relations. For a set S
of outcome tuples, P_D(S) = Σ_{y ∈ S} P_D(y) ≤ e^{Σ L_g} Σ_{y ∈ S} P_D′(y) (sequential composition of independent
draws), hence

    P[M(D) ∈ S] ≤ e^{Σ_{g ∈ G_e} ε_g · d_max(g)} · P[M(D′) ∈ S],   d_max(g) = L_g / ε_g ≤ 1,

which is e^{ε · Σ_g d_max(g)} ≤ e^{ε · n(e)} when every group is drawn at one ε.

**d_max, exactly.** Every candidate's utility lies in [−1, 0] (d_R ∈ [0, 1]); null's is fixed at −λ. With
a = ε_g/2 and Z(u) = Σ_c e^{a·u_c} + e^{−a·λ}, the log-ratio at a candidate y is a(u_y − u′_y) + log Z(u′) − log Z(u).
Its derivative in u_y is a(1 − P_u(y)) > 0, in another u_c it is −a·P_u(c) < 0, and the reverse for u′, each
whatever the other coordinates are; so the supremum over the box is at u_y = 0, u′_y = −1, the other candidates at
−1 under u and 0 under u′:

    L_cand = a + log((K − 1) + e^{−a} + e^{−aλ}) − log(1 + (K − 1)e^{−a} + e^{−aλ}),

and at null (all candidates at −1 under u, 0 under u′) L_null = log(K + e^{−aλ}) − log(K·e^{−a} + e^{−aλ}).
L_g = max(L_cand, L_null); each log term is the ratio of two sums whose terms differ by at most e^a, so L_g ≤ 2a
= ε_g and d_max(g) ≤ 1. It depends on ε_g, λ and K only — public — and is below 1 for every finite K.

**A budget per entity** (the analogue of the seed's frequency-adaptive clipping): ε_g = E / max(n(s), n(o)) for
g = (s, o). For any entity e and g ∈ G_e, max(n(s), n(o)) ≥ n(e), so Σ_{g ∈ G_e} ε_g · d_max(g) ≤
Σ_{g ∈ G_e} E / n(e) = E: every entity's relations together stay within e^E, and each relation keeps its own
guarantee e^{ε_g · d_R(r, r′)}. A hub pays for its frequency; a pair of entities seen once each gets all of E.

**Who is an entity.** A canonical name, whatever type it was given: a name typed two ways counts as one entity,
so n errs on the side of more groups (a weaker stated bound, never a stronger one).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from relguard.settings import check_entity_epsilon, check_epsilon, check_k, check_lam
from relguard.types import PairKey

#: e^x beyond this is reported as "inf" (a float would overflow at ~709).
MAX_EXPONENT = 700.0


def groups_per_entity(keys: Iterable[PairKey]) -> dict[str, int]:
    """n(e): how many relation groups each entity (canonical name) is the subject or object of."""
    counts: dict[str, int] = {}
    for subject, _, obj, _ in keys:
        for name in {subject, obj}:
            counts[name] = counts.get(name, 0) + 1
    return counts


def larger_n(keys: Sequence[PairKey]) -> np.ndarray:
    """max(n(s), n(o)) of each group, in ``keys`` order: what its share of an entity budget is divided by."""
    n = groups_per_entity(keys)
    return np.array([max(n[s], n[o]) for s, _, o, _ in keys], dtype=np.int64)


def group_epsilons(keys: Sequence[PairKey], *, entity_epsilon: float) -> np.ndarray:
    """ε_g = E / max(n(s), n(o)) for every group, in ``keys`` order: every entity stays within e^E."""
    budget = check_entity_epsilon(entity_epsilon)
    return budget / larger_n(keys).astype(np.float64) if len(keys) else np.zeros(0)


def draw_epsilons(keys: Sequence[PairKey], *, epsilon: float, entity_epsilon: float | None) -> np.ndarray:
    """The ε each group is drawn at: ``epsilon`` for all, or the per-entity allocation when E is given."""
    if entity_epsilon is not None:
        return group_epsilons(keys, entity_epsilon=entity_epsilon)
    return np.full(len(keys), check_epsilon(epsilon))


def group_loss(*, epsilon: float, lam: float, k: int) -> float:
    """L: the largest |log P(y|R) − log P(y|R′)| one group's law can show over any change of its relations
    (the closed form of the module docstring); ≤ ε."""
    epsilon, lam, k = check_epsilon(epsilon), check_lam(lam), check_k(k)
    if epsilon == 0.0:
        return 0.0
    a = epsilon / 2.0
    null = math.exp(-a * lam)
    candidate = a + math.log((k - 1) + math.exp(-a) + null) - math.log(1.0 + (k - 1) * math.exp(-a) + null)
    deleted = math.log(k + null) - math.log(k * math.exp(-a) + null)
    return max(candidate, deleted)


def max_move(*, epsilon: float, lam: float, k: int) -> float:
    """d_max = L / ε ≤ 1: how far, in units of d_R, a group's outcome law can move (1 at ε = 0, where L = 0)."""
    epsilon = check_epsilon(epsilon)
    return group_loss(epsilon=epsilon, lam=lam, k=k) / epsilon if epsilon > 0 else 1.0


def group_losses(epsilons: np.ndarray, *, lam: float, k: int) -> np.ndarray:
    """L_g = ε_g · d_max(g) for every group (computed once per distinct ε)."""
    values = {float(e): group_loss(epsilon=float(e), lam=lam, k=k) for e in np.unique(epsilons)}
    return np.array([values[float(e)] for e in epsilons], dtype=np.float64)


def exp_or_inf(exponent: float) -> float | str:
    """e^x as a JSON-ready number, "inf" where it would overflow."""
    return math.exp(exponent) if exponent < MAX_EXPONENT else "inf"


@dataclass(frozen=True)
class EntityBound:
    """One entity's bound: its n groups, Σ ε_g·d_max(g) (the exponent of its bound) and Σ ε_g (of e^{ε·n})."""

    entity: str
    groups: int
    log_bound: float
    plain: float

    @property
    def bound(self) -> float | str:
        return exp_or_inf(self.log_bound)

    @property
    def plain_bound(self) -> float | str:
        return exp_or_inf(self.plain)


def entity_log_bounds(keys: Sequence[PairKey], epsilons: np.ndarray, *, lam: float, k: int) -> dict[str, float]:
    """Σ_{g ∈ G_e} ε_g · d_max(g) for every entity: the exponent of its bound (sequential composition)."""
    losses = group_losses(np.asarray(epsilons, dtype=np.float64), lam=lam, k=k)
    out: dict[str, float] = {}
    for (subject, _, obj, _), loss in zip(keys, losses, strict=True):
        for name in {subject, obj}:
            out[name] = out.get(name, 0.0) + float(loss)
    return out


def entity_bounds(keys: Sequence[PairKey], epsilons: np.ndarray, *, lam: float, k: int) -> tuple[EntityBound, ...]:
    """Every entity's bound, the weakest (largest) first, ties by more groups then by name."""
    epsilons = np.asarray(epsilons, dtype=np.float64)
    n = groups_per_entity(keys)
    logs = entity_log_bounds(keys, epsilons, lam=lam, k=k)
    plain: dict[str, float] = {}
    for (subject, _, obj, _), e in zip(keys, epsilons, strict=True):
        for name in {subject, obj}:
            plain[name] = plain.get(name, 0.0) + float(e)
    rows = [EntityBound(name, n[name], logs[name], plain[name]) for name in n]
    return tuple(sorted(rows, key=lambda b: (-b.log_bound, -b.groups, b.entity)))
