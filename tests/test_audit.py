"""DESIGN invariant 10: the exact audit of ε·d_R over every inventory pool, and that it catches a missing /2."""

from __future__ import annotations

import numpy as np
import pytest

from relguard.candidates.inventory import InventoryCandidates
from relguard.embed import load_encoder, predicate_text
from relguard.kinds import pool_pair
from relguard.types import ENTITY_TYPES
from relguard.verify.bound import audit_pool, near_duplicates

EPSILONS = (0.1, 1.0, 5.0, 10.0)
LAMBDAS = (0.01, 0.1, 1.0, 2.0)
# relations that are not candidates anywhere, compared under every pool
OUTSIDERS = ("works_at", "married", "was_born_in", "located_near", "owns_shares_in")


def _without_halving(distances, *, epsilon, lam):
    """The mechanism with the /2 dropped from the exponent: NOT private at ε, only at 2ε."""
    from relguard.privacy.mechanism import log_probabilities

    return log_probabilities(distances, epsilon=2 * epsilon, lam=lam)


@pytest.fixture(scope="module")
def pools():
    inventory = InventoryCandidates()
    encoder = load_encoder()
    # a pair with a kind of place that reads another pair's pool reads its typed sentences too: the same audit
    pairs = sorted({pool_pair((subject, obj)) for subject in ENTITY_TYPES for obj in ENTITY_TYPES})
    pools = {pair: inventory.generate(pair, min(20, inventory.available(pair))) for pair in pairs}
    texts = {predicate_text(p, pair) for pair, pool in pools.items() for p in (*pool.predicates, *OUTSIDERS)}
    encoder.embed_texts(sorted(texts))  # one call: the encoder batches texts of one length together
    result = []
    for pair in pairs:
        pool = pools[pair]
        z_candidates = encoder.embed_predicates(pool.predicates, pair)
        z_outside = encoder.embed_predicates(OUTSIDERS, pair)
        inputs = np.concatenate([z_candidates, z_outside, near_duplicates(z_candidates[:5], seed=len(result))])
        result.append((pair, z_candidates, inputs))
    return result


def test_audit_passes_for_every_inventory_pool(pools):
    # the paper's eleven types and ENTITY (144), the nine pairs of two place kinds and the four pools of an award
    assert len(pools) == 157
    worst = -np.inf
    for pair, z_candidates, inputs in pools:
        for epsilon in EPSILONS:
            for lam in LAMBDAS:
                result = audit_pool(z_candidates, inputs, epsilon=epsilon, lam=lam)
                worst = max(worst, result.worst_excess)
                assert result.passed, (pair, epsilon, lam, result)
    assert worst <= 1e-9


def test_audit_fails_when_the_halving_is_dropped(pools):
    failures = 0
    for _pair, z_candidates, inputs in pools:
        result = audit_pool(z_candidates, inputs, epsilon=1.0, lam=1.0, probabilities=_without_halving)
        failures += not result.passed
    assert failures == len(pools)
