"""The ε each pool's groups were drawn at, for the audit: one ε for all, or each group's own ε_g (DESIGN 13).

With a per-entity budget E every group is drawn at its own ε_g = E / max(n(s), n(o)); the audit checks each pool
at every ε_g its groups were drawn at (the exact bound, the groups) and the sampler with one ε per row. The
values come from the release's group keys (public) when they are known, else from what the report lists.
"""

from __future__ import annotations

from collections.abc import Mapping

from relguard.types import CandidatePool, PairKey, TypePair
from relguard.verify.entity import pool_epsilons
from relguard.verify.settings import AuditInputs, AuditSettings


def keys_of(inputs: AuditInputs) -> list[PairKey] | None:
    """The release's group keys (public), from the corpus or as given; None when neither is known."""
    if inputs.extraction is not None:
        return [g.key for g in inputs.extraction.groups]
    return list(inputs.keys) if inputs.keys is not None else None


def epsilons_by_pool(
    inputs: AuditInputs, settings: AuditSettings, keys: list[PairKey] | None
) -> dict[TypePair, tuple[float, ...]]:
    """The ε each pool's groups are drawn at: ε for all, or with a budget E the allocation's ε_g of its groups
    (from the keys, else as the report gave them; E itself, every group's ceiling, where neither says)."""
    budget = settings.entity_epsilon
    if budget is None:
        return {pair: (settings.epsilon,) for pair in inputs.pools}
    given = {pair: tuple(sorted(set(values))) for pair, values in (inputs.pool_epsilons or {}).items()}
    if keys:
        given = pool_epsilons(sorted(keys), entity_epsilon=budget, allocate=settings.options.allocate)
    return {pair: given.get(pair) or (budget,) for pair in inputs.pools}


def by_epsilon(
    pools: Mapping[TypePair, CandidatePool], drawn: Mapping[TypePair, tuple[float, ...]]
) -> list[tuple[float, list[CandidatePool]]]:
    """(ε, the pools with a group drawn at it) for each distinct ε, pools in type-pair order."""
    values = sorted({value for pair in pools for value in drawn[pair]})
    return [(value, [pools[p] for p in sorted(pools) if value in drawn[p]]) for value in values]


def at_each(drawn: Mapping[TypePair, tuple[float, ...]]) -> str:
    values = {value for found in drawn.values() for value in found}
    return f" at their groups' own ε_g ({len(values)} values)" if len(values) > 1 else ""
