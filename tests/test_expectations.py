"""Expected outcomes are exact: checked against full enumeration of every joint outcome."""

import itertools

import numpy as np
import pytest

from relguard.expectations import CLOSE_D_R, OutcomeModel, epsilon_grid
from relguard.mechanism import outcome_probabilities
from relguard.types import CandidatePool, Occurrence, Triple

PAIR = ("PERSON", "ORG")
POOL = CandidatePool(PAIR, ("worked_for", "founded", "led"), source="test")


def occ(document: str, sentence: int) -> Occurrence:
    return Occurrence(document, sentence, 0, 1, "x")


# three triples: two share sentence a:0 (so its removal is 1 - (1-p0)(1-p1)), one occurs twice
TRIPLES = (
    Triple("Alice", "PERSON", "worked_for", "Acme", "ORG", (occ("a", 0),)),
    Triple("Bob", "PERSON", "employed_by", "Acme", "ORG", (occ("a", 0), occ("a", 2))),
    Triple("Carol", "PERSON", "founded", "Beta", "ORG", (occ("b", 1), occ("b", 1))),
)
DISTANCES = np.array([[0.0, 0.4, 0.5], [0.2, 0.35, 0.6], [0.45, 0.0, 0.25]])
SENTENCES = {"a": 3, "b": 2}


def brute_force(epsilon: float, lam: float) -> dict[str, float]:
    """Enumerate all (K+1)^m joint outcomes and add up their probabilities."""
    p = outcome_probabilities(DISTANCES, epsilon=epsilon, lam=lam)
    k = len(POOL.predicates)
    totals = {"kept": 0.0, "close": 0.0, "distant": 0.0, "deleted": 0.0, "removed": 0.0}
    for joint in itertools.product(range(k + 1), repeat=len(TRIPLES)):
        weight = float(np.prod([p[i, c] for i, c in enumerate(joint)]))
        removed = set()
        for i, c in enumerate(joint):
            t = TRIPLES[i]
            if c == k:
                totals["deleted"] += weight / len(TRIPLES)
                removed |= {(o.document, o.sentence) for o in t.occurrences}
            elif POOL.predicates[c] == t.predicate:
                totals["kept"] += weight / len(TRIPLES)
            elif DISTANCES[i, c] <= CLOSE_D_R:
                totals["close"] += weight / len(TRIPLES)
            else:
                totals["distant"] += weight / len(TRIPLES)
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
    model = OutcomeModel.build(TRIPLES, {PAIR: POOL}, DISTANCES, sentences=SENTENCES)
    got = model.expected(epsilon=epsilon, lam=lam)
    want = brute_force(epsilon, lam)
    assert got.kept == pytest.approx(want["kept"], abs=1e-12)
    assert got.close == pytest.approx(want["close"], abs=1e-12)
    assert got.distant == pytest.approx(want["distant"], abs=1e-12)
    assert got.deleted == pytest.approx(want["deleted"], abs=1e-12)
    assert got.sentences_removed == pytest.approx(want["removed"], abs=1e-12)
    assert got.sentences == 5
    assert got.kept + got.close + got.distant + got.deleted == pytest.approx(1.0, abs=1e-12)


def test_epsilon_zero_deletes_one_in_k_plus_one():
    model = OutcomeModel.build(TRIPLES, {PAIR: POOL}, DISTANCES, sentences=SENTENCES)
    assert model.expected(epsilon=0.0, lam=1.0).deleted == pytest.approx(1 / 4, abs=1e-12)


def test_curve_moves_towards_keeping_as_epsilon_grows():
    model = OutcomeModel.build(TRIPLES, {PAIR: POOL}, DISTANCES, sentences=SENTENCES)
    curve = model.curve([0.1, 1.0, 10.0, 100.0], lam=1.0)
    kept = [e.kept for e in curve]
    assert kept == sorted(kept)
    # at ε = 100 the two triples whose own predicate is in the pool are kept almost surely; Bob's is not
    # (Carol: the next candidate at d_R 0.25 keeps e^(-100*0.25/2) = 3.7e-6 of the mass)
    assert curve[-1].kept == pytest.approx(2 / 3, abs=2e-6)


def test_passed_probabilities_are_used_as_given():
    model = OutcomeModel.build(TRIPLES, {PAIR: POOL}, DISTANCES, sentences=SENTENCES)
    table = outcome_probabilities(DISTANCES, epsilon=2.0, lam=1.0)
    assert model.expected(epsilon=2.0, lam=1.0, probabilities=table) == model.expected(epsilon=2.0, lam=1.0)


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
    model = OutcomeModel.build(TRIPLES, {PAIR: POOL}, DISTANCES, sentences=SENTENCES)
    grid = [0.0, 0.3, 3.0, 30.0]
    for lam in (0.2, 1.0):
        for point, single in zip(model.curve(grid, lam=lam), grid, strict=True):
            want = brute_force(single, lam)
            assert point.deleted == pytest.approx(want["deleted"], abs=1e-12)
            assert point.sentences_removed == pytest.approx(want["removed"], abs=1e-12)
            assert point.kept == pytest.approx(want["kept"], abs=1e-12)
