"""The per-group draw (DESIGN invariants 5 and 13): one OpenDP call, each row at its own ε_g, each row its own law.

The statistical tests are :func:`relguard.verify.sampler.per_group_conformance`: every row's draws against the
exact law at its own ε, at α = 1e-6 family-wise (Bonferroni over the rows), so the real sampler fails a run with
probability at most 1e-6. A sampler that draws every row at one ε must be rejected; the probability that it
is *not* is computed from the noncentral χ² law of the Pearson statistic under that wrong law (the same formula
the audit states its power with) and asserted below 1e-6 before the draws are made.
"""

from __future__ import annotations

import numpy as np
import pytest

from relguard.privacy.mechanism import log_probabilities, outcome_probabilities
from relguard.privacy.sampling import sample_outcomes
from relguard.verify.sampler import CHI2_ALPHA, per_group_conformance, power_against

ROW = np.array([0.05, 0.3, 0.5, 0.8, 0.95])
ROWS = {
    ("PERSON", "ORG"): ROW,
    ("PERSON", "GPE"): ROW[::-1].copy(),
    ("ORG", "GPE"): np.array([0.2, 0.2, 0.9, 0.9, 0.4]),
}
EPSILONS = {("PERSON", "ORG"): 8.0, ("PERSON", "GPE"): 0.5, ("ORG", "GPE"): 3.0}
DRAWS = 4000


def test_probabilities_take_one_epsilon_per_group():
    rows = np.array([ROW, ROW, ROW])
    per_group = log_probabilities(rows, epsilon=np.array([0.0, 1.0, 5.0]), lam=1.0)
    for i, epsilon in enumerate((0.0, 1.0, 5.0)):
        assert np.allclose(per_group[i], log_probabilities(ROW[None], epsilon=epsilon, lam=1.0)[0], atol=1e-15)
    assert np.allclose(np.exp(per_group[0]), 1 / 6)
    with pytest.raises(ValueError, match="one per row"):
        log_probabilities(rows, epsilon=np.array([1.0, 2.0]), lam=1.0)
    with pytest.raises(ValueError, match=">= 0"):
        log_probabilities(rows, epsilon=np.array([1.0, -2.0, 1.0]), lam=1.0)


def test_a_seeded_draw_at_one_epsilon_is_the_draw_it_was():
    """A teaching seed replays byte for byte: the scalar ε and the same ε for every row draw the same outcomes."""
    rows = np.tile(ROW, (50, 1))
    assert np.array_equal(
        sample_outcomes(rows, epsilon=2.0, lam=1.0, seed=5),
        sample_outcomes(rows, epsilon=np.full(50, 2.0), lam=1.0, seed=5),
    )


@pytest.mark.parametrize("seed", [None, 11])
def test_the_per_group_sampler_draws_each_row_at_its_own_epsilon(seed):
    """OpenDP (seed None) and the seeded teaching draw alike pass the χ² of each row at its own ε."""

    def sampler(rows, *, epsilon, lam):
        return sample_outcomes(rows, epsilon=epsilon, lam=lam, seed=seed)

    results = per_group_conformance(ROWS, EPSILONS, lam=1.0, draws=DRAWS, sampler=sampler)
    assert len(results) == 3 and all(r.alpha == pytest.approx(CHI2_ALPHA / 3) for r in results)
    assert all(r.passed for r in results), results


def test_a_sampler_that_draws_every_row_at_one_epsilon_is_rejected():
    """The broken sampler uses the first row's ε for all rows. Its power is computed first: the two laws of the
    ε = 0.5 row (its own, and ε = 8 of the first) are far apart, so the family misses it with probability < 1e-6."""
    laws = {pair: outcome_probabilities(ROWS[pair][None], epsilon=EPSILONS[pair], lam=1.0)[0] for pair in ROWS}
    first = sorted(ROWS)[0]
    wrong = {pair: outcome_probabilities(ROWS[pair][None], epsilon=EPSILONS[first], lam=1.0)[0] for pair in ROWS}
    misses = [1 - power_against(laws[p], wrong[p], draws=DRAWS, alpha=CHI2_ALPHA / 3) for p in sorted(ROWS)]
    assert float(np.prod(misses)) < 1e-6

    def one_epsilon(rows, *, epsilon, lam):
        return sample_outcomes(rows, epsilon=float(np.asarray(epsilon).reshape(-1)[0]), lam=lam)

    results = per_group_conformance(ROWS, EPSILONS, lam=1.0, draws=DRAWS, sampler=one_epsilon)
    assert not all(r.passed for r in results)
