"""The report's entity-level block (DESIGN invariant 13): what all of one entity's relations are protected at.

Everything here is a function of the groups' public keys (which entity pairs have a relation group, already
counted in ``counts.groups``) and of the release's public parameters, never of a relation's words, so it passes
the neighbour test (DESIGN invariant 12). The bound and its derivation are :mod:`relguard.privacy.entity`. No
entity is named: the report says how weak the weakest entity's bound is and how n is spread, and the app's
Triples page lists the entities themselves.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

import numpy as np

from relguard.privacy.entity import (
    draw_epsilons,
    entity_bounds,
    exp_or_inf,
    groups_per_entity,
    larger_n,
    max_move,
)
from relguard.textable import markdown_table, plural
from relguard.types import Guarantee, PairKey

UNIT = (
    "every relation of one entity (a canonical name, whatever type it was given): two corpora that differ in all "
    "relations the entity takes part in"
)
DEFINITION = (
    "Pr[M(D) in S] <= exp(sum over the entity's n groups g of epsilon_g * d_max(g)) * Pr[M(D') in S] "
    "<= exp(epsilon * n): the draws of its groups compose; d_max(g) <= 1 is the largest log-ratio group g's "
    "outcome law can show when all its relations change, in units of epsilon_g (a function of epsilon_g, lambda "
    "and K). Groups are keyed by public entity pairs, so which groups an entity is in, and n, is public"
)
BUDGET = (
    "each group (s, o) is drawn at epsilon_g = E / max(n(s), n(o)), so every entity's relations together stay "
    "within exp(E), and each relation keeps exp(epsilon_g * d_R(r, r'))"
)

#: What the block says of the weakest entity: its n and its bounds (:class:`~relguard.privacy.entity.EntityBound`),
#: never its name.
WORST = ("groups", "log_bound", "bound", "plain_bound")


def summary_words(report: dict) -> str:
    """The CLI summary line's part: the budget and the weakest entity's bound (from the report's block)."""
    block, params = report.get("entity_level") or {}, report["parameters"]
    if block.get("entity_epsilon") is not None:
        spread = block["epsilon_per_group"]
        budget = f"E={block['entity_epsilon']:g} per entity, ε_g {spread['min']:.3g}–{spread['max']:.3g}"
    else:
        budget = f"ε={params['epsilon']:g}"
    worst = block.get("worst_entity")
    weakest = f"; weakest entity in {plural(worst['groups'], 'group')}: ≤ e^{worst['log_bound']:.3g}" if worst else ""
    return f"{budget}, λ={params['lambda']:g}, K={params['k']}{weakest}"


def entity_block(keys: Sequence[PairKey], guarantee: Guarantee) -> dict:
    """The report's ``entity_level`` block for a release with these group keys (any order) and guarantee."""
    keys = sorted(keys)
    epsilons = draw_epsilons(keys, epsilon=guarantee.epsilon, entity_epsilon=guarantee.entity_epsilon)
    bounds = entity_bounds(keys, epsilons, lam=guarantee.lam, k=guarantee.k)
    spread = Counter(groups_per_entity(keys).values())
    block: dict = {
        "unit": UNIT,
        "definition": DEFINITION,
        "entities": len(bounds),
        "groups_per_entity": {str(n): spread[n] for n in sorted(spread)},
        "max_groups_of_one_entity": max(spread, default=0),
        "worst_entity": {name: getattr(bounds[0], name) for name in WORST} if bounds else None,
        "entity_epsilon": guarantee.entity_epsilon,
    }
    if guarantee.entity_epsilon is None:
        block["d_max"] = max_move(epsilon=guarantee.epsilon, lam=guarantee.lam, k=guarantee.k)
        return block
    pools: dict[str, set[float]] = {}
    for (_, a, _, b), value in zip(keys, epsilons, strict=True):
        pools.setdefault(f"{a}|{b}", set()).add(float(value))
    middle = float(np.median(epsilons)) if len(epsilons) else 0.0
    block |= {
        "budget": BUDGET,
        "per_entity_bound": exp_or_inf(guarantee.entity_epsilon),
        "epsilon_per_group": {
            "min": float(epsilons.min()) if len(epsilons) else 0.0,
            "median": middle,
            "max": float(epsilons.max()) if len(epsilons) else 0.0,
        },
        "groups_by_larger_n": {str(m): c for m, c in sorted(Counter(larger_n(keys).tolist()).items())},
        "epsilons_by_pool": {pair: sorted(values) for pair, values in sorted(pools.items())},
    }
    return block


def _factor(value: float | str) -> str:
    return f"{value:.4g}" if isinstance(value, float) else "∞"


def entity_lines(report: dict, *, in_words: Callable[[float | str], str]) -> list[str]:
    """report.md's "Entity level" section, from the report's own block (nothing the JSON does not say);
    ``in_words`` says a bound as a reader does (report.md's own wording)."""
    block = report.get("entity_level")
    if not block:
        return []
    worst = block.get("worst_entity")
    lines = ["## Entity level (all of one entity's relations)", ""]
    if worst is None:
        return [*lines, "No entity takes part in a relation group.", ""]
    lines += [
        f"- **Unit:** {block['unit']}.",
        f"- **Bound:** {block['definition']}.",
        f"- **Weakest entity:** takes part in {plural(worst['groups'], 'relation group')}; a reader who compares "
        f"two corpora that differ in all of its relations is at most **{in_words(worst['bound'])}** more confident "
        f"about one than the other (e^{worst['log_bound']:.4g} = {_factor(worst['bound'])}; e^(Σ ε_g), that is "
        f"e^(ε·n) at one ε, would be {_factor(worst['plain_bound'])}).",
    ]
    if block.get("entity_epsilon") is None:
        lines.append(
            f"- **Per group:** d_max = {block['d_max']:.4g} at ε = {report['parameters']['epsilon']:g}: an entity in "
            "n groups is protected at e^(ε·d_max·n). Set a per-entity budget (`--entity-epsilon E`) to cap every "
            "entity at e^E."
        )
    else:
        spread = block["epsilon_per_group"]
        lines += [
            f"- **Per-entity budget E = {block['entity_epsilon']:g}:** {block['budget']}; every entity is within "
            f"e^E = {_factor(block['per_entity_bound'])}.",
            f"- **Per relation:** each group at its own ε_g: min {spread['min']:.4g}, median {spread['median']:.4g}, "
            f"max {spread['max']:.4g}.",
        ]
    rows = [(n, count) for n, count in block["groups_per_entity"].items()]
    lines += ["", f"How many groups each of the {block['entities']} entities takes part in (n):", ""]
    lines += markdown_table(("n", "entities"), rows, align="rr")
    return [*lines, ""]
