"""DESIGN invariant 13: the entity-level bound, derived and checked exactly, and the per-entity budget.

Corpora that differ in all relations of one entity are told apart at most by e^{Σ_g ε_g·d_max(g)}; the per-entity
allocation ε_g = E / max(n(s), n(o)) keeps that within e^E. The closed form of d_max is checked against the
supremum over the utility box (attained at its corners), the composition over the product of the groups' laws
(every outcome set, by enumeration, on tiny cases), and the audit is shown to fail on a composition that gives a
hub entity one group's ε and on an allocation that gives a hub's groups the full E.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from bench.entity_audit import full_budget_to_hubs, one_groups_epsilon
from relguard.candidates.inventory import InventoryCandidates
from relguard.embed import load_encoder
from relguard.privacy.entity import (
    entity_bounds,
    entity_log_bounds,
    group_epsilons,
    group_loss,
    groups_per_entity,
    max_move,
)
from relguard.privacy.mechanism import log_probabilities
from relguard.verify.entity import audit_entities, max_set_log_ratio, product_log_ratio, synthetic_keys

CORNER_CASES = [(k, epsilon, lam) for k in (1, 2, 3, 4) for epsilon in (0.3, 1.0, 5.0, 20.0) for lam in (0.0, 1.0, 2.0)]


def _corners(k: int) -> np.ndarray:
    """Every distance row with each d_R at 0 or 1: the corners of the box where the supremum lies."""
    return np.array(list(itertools.product([0.0, 1.0], repeat=k)))


@pytest.mark.parametrize("k, epsilon, lam", CORNER_CASES)
def test_d_max_is_the_supremum_over_every_change_of_a_groups_relations(k, epsilon, lam):
    """The log-ratio is monotone in each utility, so its supremum over [−1, 0]^K is at a corner: enumerating the
    corners gives L exactly, and the closed form must equal it (a formula off by any term fails here)."""
    laws = log_probabilities(_corners(k), epsilon=epsilon, lam=lam)
    exact = float(np.max(np.abs(laws[:, None, :] - laws[None, :, :])))
    assert group_loss(epsilon=epsilon, lam=lam, k=k) == pytest.approx(exact, abs=1e-12)
    rng = np.random.default_rng(k)
    inside = log_probabilities(rng.uniform(0, 1, size=(200, k)), epsilon=epsilon, lam=lam)
    assert np.max(np.abs(inside[:, None, :] - inside[None, :, :])) <= exact + 1e-12
    assert 0 < max_move(epsilon=epsilon, lam=lam, k=k) <= 1.0


def test_d_max_is_below_one_for_a_finite_pool_and_one_at_epsilon_zero():
    assert max_move(epsilon=1.0, lam=1.0, k=10) == pytest.approx(0.86847, abs=1e-5)
    assert max_move(epsilon=5.0, lam=1.0, k=10) == pytest.approx(0.82320, abs=1e-5)
    assert max_move(epsilon=0.0, lam=1.0, k=10) == 1.0 and group_loss(epsilon=0.0, lam=1.0, k=10) == 0.0


def test_a_joint_outcome_set_is_never_worse_than_its_worst_single_outcome():
    """max over every outcome set S of the product law equals the max over single joint outcomes (the lemma the
    exact audit relies on), on two groups of K = 2 (9 joint outcomes, 511 sets)."""
    rng = np.random.default_rng(3)
    for _ in range(20):
        p = [log_probabilities(rng.uniform(0, 1, size=(1, 2)), epsilon=2.0, lam=0.5)[0] for _ in range(2)]
        q = [log_probabilities(rng.uniform(0, 1, size=(1, 2)), epsilon=2.0, lam=0.5)[0] for _ in range(2)]
        joint_p = np.exp(np.add.outer(p[0], p[1]).ravel())
        joint_q = np.exp(np.add.outer(q[0], q[1]).ravel())
        assert max_set_log_ratio(joint_p, joint_q) == pytest.approx(product_log_ratio(p, q), abs=1e-12)


@pytest.mark.parametrize("n", [1, 2, 3])
def test_the_bound_of_an_entity_adds_up_over_its_groups_and_is_attained(n):
    """An entity in n groups, every relation changed to the corner that moves its law most: the exact log-ratio
    over the product is n·L — so the composition must add the groups' bounds; claiming one group's L fails."""
    k, epsilon, lam = 2, 1.5, 1.0
    laws = log_probabilities(_corners(k), epsilon=epsilon, lam=lam)
    gap = np.max(laws[:, None, :] - laws[None, :, :], axis=2)
    i, j = np.unravel_index(np.argmax(gap), gap.shape)
    exact = product_log_ratio([laws[i]] * n, [laws[j]] * n)
    keys = [("Ilse Markov", "PERSON", f"place {g}", "GPE") for g in range(n)]
    claimed = entity_log_bounds(keys, np.full(n, epsilon), lam=lam, k=k)["Ilse Markov"]
    assert exact == pytest.approx(claimed, abs=1e-12)
    assert claimed == pytest.approx(n * group_loss(epsilon=epsilon, lam=lam, k=k), abs=1e-12)
    assert claimed <= epsilon * n
    if n > 1:
        assert exact > group_loss(epsilon=epsilon, lam=lam, k=k) + 1e-9


def test_groups_per_entity_counts_both_ends_and_a_name_typed_two_ways_once():
    keys = [
        ("Alice", "PERSON", "Acme", "ORG"),
        ("Alice", "PERSON", "Paris", "GPE"),
        ("Bob", "PERSON", "Alice", "PERSON"),
        ("Paris", "PERSON", "Bob", "PERSON"),  # "Paris" typed as a person too: still one entity
        ("Carol", "PERSON", "Carol", "PERSON"),  # a group on one entity counts once for it
    ]
    assert groups_per_entity(keys) == {"Alice": 3, "Acme": 1, "Paris": 2, "Bob": 2, "Carol": 1}
    epsilons = group_epsilons(keys, entity_epsilon=6.0)
    assert epsilons.tolist() == [2.0, 2.0, 2.0, 3.0, 6.0]
    worst = entity_bounds(keys, np.full(len(keys), 1.0), lam=1.0, k=10)[0]
    assert (worst.entity, worst.groups) == ("Alice", 3)
    assert worst.log_bound == pytest.approx(3 * group_loss(epsilon=1.0, lam=1.0, k=10))
    assert worst.plain_bound == pytest.approx(math.exp(3.0))


def test_the_allocation_keeps_every_entity_within_its_budget_on_random_graphs():
    rng = np.random.default_rng(0)
    for trial in range(30):
        names = [f"e{i}" for i in range(int(rng.integers(2, 12)))]
        pairs = {tuple(rng.choice(names, size=2)) for _ in range(int(rng.integers(1, 40)))}
        keys = sorted((s, "PERSON", o, "ORG") for s, o in pairs)
        budget = float(rng.uniform(0.1, 10.0))
        epsilons = group_epsilons(keys, entity_epsilon=budget)
        bounds = entity_log_bounds(keys, epsilons, lam=1.0, k=10)
        assert max(bounds.values()) <= budget + 1e-12, trial
        n = groups_per_entity(keys)
        for name, total in bounds.items():  # and never more than Σ ε_g over its groups
            assert total <= sum(e for (s, _, o, _), e in zip(keys, epsilons, strict=True) if name in (s, o)) + 1e-12
            assert n[name] >= 1


# ------------------------------------------------------------------ the audit on synthetic groups of real pools


@pytest.fixture(scope="module")
def real_pools():
    inventory = InventoryCandidates()
    pairs = [("PERSON", "ORG"), ("PERSON", "GPE"), ("PERSON", "PERSON")]
    return {pair: inventory.generate(pair, 10) for pair in pairs}, load_encoder()


@pytest.mark.parametrize("epsilon", [1.0, 5.0])
def test_the_audit_passes_the_composition_and_fails_one_that_gives_a_hub_one_groups_epsilon(real_pools, epsilon):
    pools, encoder = real_pools
    args = {"epsilon": epsilon, "lam": 1.0, "k": 10, "probabilities": log_probabilities}
    right = audit_entities(pools, encoder, **args)
    assert right.passed and right.hub.groups == 4
    assert right.hub.exact <= right.hub.claimed + 1e-9
    assert right.hub.exact > group_loss(epsilon=epsilon, lam=1.0, k=10)  # more than one group can show
    wrong = audit_entities(pools, encoder, **args, bound=one_groups_epsilon)
    assert not wrong.passed and wrong.worst.groups >= 3


def test_the_budget_audit_passes_the_allocation_and_fails_one_that_gives_a_hub_the_full_budget(real_pools):
    pools, encoder = real_pools
    args = {"epsilon": 2.0, "lam": 1.0, "k": 10, "entity_epsilon": 2.0, "probabilities": log_probabilities}
    right = audit_entities(pools, encoder, **args)
    assert right.passed and right.within_budget
    wrong = audit_entities(pools, encoder, **args, allocate=full_budget_to_hubs)
    assert wrong.passed  # the bound is still stated right for what was drawn …
    assert wrong.within_budget is False  # … but the hub is beyond e^E
    keys = synthetic_keys(pools)
    assert max(entity_log_bounds(keys, full_budget_to_hubs(keys, entity_epsilon=2.0), lam=1.0, k=10).values()) > 2.0


def test_the_joint_maximum_is_the_sum_of_the_groups_maxima_beyond_the_enumerated_size(monkeypatch):
    """Independence makes log P − log Q a sum of one term per group: the enumeration and the term-by-term maximum
    (used where the joint table would be too large) agree."""
    import relguard.verify.entity as audit

    rng = np.random.default_rng(9)
    p = [log_probabilities(rng.uniform(0, 1, size=(1, 4)), epsilon=3.0, lam=1.0)[0] for _ in range(3)]
    q = [log_probabilities(rng.uniform(0, 1, size=(1, 4)), epsilon=3.0, lam=1.0)[0] for _ in range(3)]
    enumerated = product_log_ratio(p, q)
    monkeypatch.setattr(audit, "MAX_JOINT", 10)
    assert product_log_ratio(p, q) == pytest.approx(enumerated, abs=1e-12)
