"""The entity-level view for the app (DESIGN invariant 13): who is protected least, and what a budget per entity does.

An entity takes part in n relation groups; corpora that differ in all of its relations are told apart at most by
e^{Σ_g ε_g·d_max(g)} (:mod:`relguard.privacy.entity`). These rows list the entities the weakest bound first, so an
analyst sees the hubs; they name entities, so they are for the analyst's screen, not for the public report (which
says only the weakest bound and the spread of n).
"""

from __future__ import annotations

import math

import numpy as np

from relguard.pipeline import Prepared
from relguard.privacy.entity import entity_bounds, larger_n
from relguard.studio.wording import times


def entity_rows(prepared: Prepared, *, epsilons: np.ndarray, lam: float, limit: int = 50) -> list[dict]:
    """The ``limit`` entities with the weakest bound first: n, the bound's exponent and factor, e^{Σ ε_g}."""
    keys = [g.key for g in prepared.groups]
    epsilons = np.asarray(epsilons, dtype=np.float64)
    spread: dict[str, list[float]] = {}
    for (subject, _, obj, _), value in zip(keys, epsilons, strict=True):
        for name in {subject, obj}:
            spread.setdefault(name, []).append(float(value))
    return [
        {
            "entity": bound.entity,
            "groups (n)": bound.groups,
            "Σ ε_g·d_max": bound.log_bound,
            "bound e^(Σ ε_g·d_max)": _factor(bound.log_bound),
            "e^(ε·n)": _factor(bound.plain),
            "ε_g of its groups": _range(spread[bound.entity]),
        }
        for bound in entity_bounds(keys, epsilons, lam=lam, k=prepared.k)[:limit]
    ]


def budget_note(prepared: Prepared, *, epsilons: np.ndarray, entity_epsilon: float) -> str:
    """A sentence on a per-entity budget: how the groups' ε_g spread, and that every entity stays within e^E."""
    if not len(epsilons):
        return ""
    return (
        f"Per-entity budget E = {entity_epsilon:g}: each pair (s, o) is drawn at ε_g = E / max(n(s), n(o)) — "
        f"min {epsilons.min():.3g}, median {float(np.median(epsilons)):.3g}, max {epsilons.max():.3g} over "
        f"{len(epsilons)} groups — so every entity's relations together stay within e^E = "
        f"{times(_factor(entity_epsilon))}. The busiest pair's ends take part in "
        f"{int(larger_n(_keys(prepared)).max())} groups."
    )


def shares(prepared: Prepared) -> np.ndarray:
    """1 / max(n(s), n(o)) per group: ε_g = E · share (for curves over E)."""
    return 1.0 / larger_n(_keys(prepared)).astype(np.float64) if prepared.groups else np.zeros(0)


def _keys(prepared: Prepared) -> list:
    return [g.key for g in prepared.groups]


def _factor(exponent: float) -> float:
    return math.exp(exponent) if exponent < 700 else math.inf


def _range(values: list[float]) -> str:
    low, high = min(values), max(values)
    return f"{low:.3g}" if math.isclose(low, high) else f"{low:.3g}–{high:.3g}"
