"""Expected outcomes are exact: checked against full enumeration of every joint outcome."""

import itertools

import numpy as np
import pytest

from relguard.privacy.expected import OutcomeModel, epsilon_grid
from relguard.privacy.mechanism import outcome_probabilities
from relguard.types import CandidatePool, Occurrence, RelationGroup, Triple

PAIR = ("PERSON", "ORG")
CLOSE_D_R = 0.3  # the cut-off under test; the enumeration below classifies with the same one
POOL = CandidatePool(PAIR, ("worked_for", "founded", "led"), source="test")


def occ(document: str, sentence: int) -> Occurrence:
    return Occurrence(document, sentence, 0, 1, "x")


# four triples in three groups: Alice and Bob share sentence a:0 (its removal is 1 - (1-p0)(1-p1)), Carol's
# triple occurs twice, and Dan's pair holds two relations, so one draw decides both (DESIGN invariant 6)
TRIPLES = (
    Triple("Alice", "PERSON", "worked_for", "Acme", "ORG", (occ("a", 0),)),
    Triple("Bob", "PERSON", "employed_by", "Acme", "ORG", (occ("a", 0), occ("a", 2))),
    Triple("Carol", "PERSON", "founded", "Beta", "ORG", (occ("b", 1), occ("b", 1))),
    Triple("Dan", "PERSON", "founded", "Gamma", "ORG", (occ("b", 0),)),
    Triple("Dan", "PERSON", "worked_for", "Gamma", "ORG", (occ("c", 0),)),
)
TRIPLE_DISTANCES = np.array([[0.0, 0.4, 0.5], [0.2, 0.35, 0.6], [0.45, 0.0, 0.25], [0.45, 0.0, 0.25], [0.0, 0.4, 0.5]])
GROUPS = (
    RelationGroup(*TRIPLES[0].pair_key, triples=TRIPLES[:1]),
    RelationGroup(*TRIPLES[1].pair_key, triples=TRIPLES[1:2]),
    RelationGroup(*TRIPLES[2].pair_key, triples=TRIPLES[2:3]),
    RelationGroup(*TRIPLES[3].pair_key, triples=TRIPLES[3:5]),
)
OWNER = (0, 1, 2, 3, 3)
DISTANCES = np.array([TRIPLE_DISTANCES[[i for i, g in enumerate(OWNER) if g == n]].min(axis=0) for n in range(4)])
SENTENCES = {"a": 3, "b": 2, "c": 1}


def model() -> OutcomeModel:
    return OutcomeModel.build(
        GROUPS,
        {PAIR: POOL},
        DISTANCES,
        triple_distances=TRIPLE_DISTANCES,
        sentences=SENTENCES,
        close_threshold=CLOSE_D_R,
    )


def brute_force(epsilon: float, lam: float) -> dict[str, float]:
    """Enumerate all (K+1)^g joint group outcomes and add up their probabilities, triple by triple."""
    p = outcome_probabilities(DISTANCES, epsilon=epsilon, lam=lam)
    k = len(POOL.predicates)
    totals = {"kept": 0.0, "close": 0.0, "distant": 0.0, "deleted": 0.0, "removed": 0.0}
    share = 1 / len(TRIPLES)
    for joint in itertools.product(range(k + 1), repeat=len(GROUPS)):
        weight = float(np.prod([p[g, c] for g, c in enumerate(joint)]))
        removed = set()
        for i, t in enumerate(TRIPLES):
            c = joint[OWNER[i]]
            if c == k:
                totals["deleted"] += weight * share
                removed |= {(o.document, o.sentence) for o in t.occurrences}
            elif POOL.predicates[c] == t.predicate:
                totals["kept"] += weight * share
            elif TRIPLE_DISTANCES[i, c] <= CLOSE_D_R:
                totals["close"] += weight * share
            else:
                totals["distant"] += weight * share
        totals["removed"] += weight * len(removed)
    return totals


@pytest.mark.parametrize(
    "epsilon, lam",
    [
        (0.0, 1.0),  # uniform over K+1
        (1.0, 1.0),  # paper default
        (8.0, 0.3),  # peaked, cheap deletion
        (0.05, 5.0),  # near uniform, null unattractive
    ],
)
def test_expectations_equal_enumeration(epsilon, lam):
    got = model().expected(epsilon=epsilon, lam=lam)
    want = brute_force(epsilon, lam)
    assert got.kept == pytest.approx(want["kept"], abs=1e-12)
    assert got.close == pytest.approx(want["close"], abs=1e-12)
    assert got.distant == pytest.approx(want["distant"], abs=1e-12)
    assert got.deleted == pytest.approx(want["deleted"], abs=1e-12)
    assert got.sentences_removed == pytest.approx(want["removed"], abs=1e-12)
    assert got.sentences == 6
    assert got.kept + got.close + got.distant + got.deleted == pytest.approx(1.0, abs=1e-12)


def test_epsilon_zero_deletes_one_in_k_plus_one():
    assert model().expected(epsilon=0.0, lam=1.0).deleted == pytest.approx(1 / 4, abs=1e-12)


def test_curve_moves_towards_keeping_as_epsilon_grows():
    curve = model().curve([0.1, 1.0, 10.0, 100.0], lam=1.0)
    kept = [e.kept for e in curve]
    assert kept == sorted(kept)
    # at ε = 100 Alice's and Carol's triples are kept almost surely, Bob's is not in the pool, and Dan's group
    # draws one predicate for both of its relations: its row is a tie between worked_for and founded (both at
    # d_R 0), so exactly one of Dan's two triples is kept (1/5 of the mass); the next candidate at d_R 0.25
    # keeps e^(-100*0.25/2) = 3.7e-6 of a row
    assert curve[-1].kept == pytest.approx(3 / 5, abs=1e-5)


def test_passed_probabilities_are_used_as_given():
    table = outcome_probabilities(DISTANCES, epsilon=2.0, lam=1.0)
    assert model().expected(epsilon=2.0, lam=1.0, probabilities=table) == model().expected(epsilon=2.0, lam=1.0)


def test_epsilon_grid_is_log_spaced_and_hits_decades():
    grid = epsilon_grid(0.01, 100.0, per_decade=10)
    assert len(grid) == 41
    for decade in (0.01, 0.1, 1.0, 10.0, 100.0):
        assert decade in grid
    ratios = np.diff(np.log10(grid))
    assert np.allclose(ratios, 0.1, atol=0.005)  # 3-digit rounding moves each end by < 0.0022
    with pytest.raises(ValueError):
        epsilon_grid(0.0, 1.0)


def test_vectorized_curve_equals_pointwise_expectations():
    grid = [0.0, 0.3, 3.0, 30.0]
    for lam in (0.2, 1.0):
        for point, single in zip(model().curve(grid, lam=lam), grid, strict=True):
            want = brute_force(single, lam)
            assert point.deleted == pytest.approx(want["deleted"], abs=1e-12)
            assert point.sentences_removed == pytest.approx(want["removed"], abs=1e-12)
            assert point.kept == pytest.approx(want["kept"], abs=1e-12)
