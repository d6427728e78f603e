"""Sampler conformance: the OpenDP sampler's draws against the exact probabilities, by a χ² test.

One test per pool at α / (number of pools) (Bonferroni), so a correct sampler fails a run with probability at
most α, while a sampler of another distribution (the exponent without its ``/2``) is caught.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np
from scipy import stats

from relguard.privacy.mechanism import log_probabilities
from relguard.privacy.sampling import sample_outcomes
from relguard.types import TypePair

CHI2_ALPHA = 1e-3


CHI2_DRAWS = 2000


MIN_EXPECTED = 5.0


Sampler = Callable[..., np.ndarray]


@dataclass(frozen=True)
class Chi2Result:
    """One χ² goodness-of-fit test of the sampler against the exact distribution of one row."""

    type_pair: TypePair
    draws: int
    cells: int
    statistic: float
    p_value: float
    alpha: float

    @property
    def passed(self) -> bool:
        return self.p_value >= self.alpha


def chi2_test(
    row: np.ndarray,
    *,
    epsilon: float,
    lam: float,
    draws: int = CHI2_DRAWS,
    alpha: float = CHI2_ALPHA,
    sampler: Sampler = sample_outcomes,
    type_pair: TypePair = ("", ""),
) -> Chi2Result:
    """Draw ``draws`` outcomes for one distance row and test them against the exact probabilities.

    Cells with expected count below 5 are pooled into one, so the χ² approximation holds.
    """
    row = np.atleast_2d(np.asarray(row, dtype=np.float64))
    expected = np.exp(log_probabilities(row, epsilon=epsilon, lam=lam))[0] * draws
    observed = np.bincount(sampler(np.repeat(row, draws, axis=0), epsilon=epsilon, lam=lam), minlength=len(expected))
    big = expected >= MIN_EXPECTED
    exp_cells = list(expected[big])
    obs_cells = list(observed[big])
    if np.any(~big):
        exp_cells.append(expected[~big].sum())
        obs_cells.append(observed[~big].sum())
    e, o = np.array(exp_cells), np.array(obs_cells, dtype=np.float64)
    statistic = float(np.sum((o - e) ** 2 / np.maximum(e, 1e-300)))
    df = max(len(e) - 1, 1)
    return Chi2Result(type_pair, draws, len(e), statistic, float(stats.chi2.sf(statistic, df)), alpha)


def sampler_conformance(
    rows: Mapping[TypePair, np.ndarray],
    *,
    epsilon: float,
    lam: float,
    draws: int = CHI2_DRAWS,
    alpha: float = CHI2_ALPHA,
    sampler: Sampler = sample_outcomes,
) -> tuple[Chi2Result, ...]:
    """Check 2: one χ² test per pool at α/len(pools) each, so the family-wise false-alarm rate is ≤ α."""
    per_test = alpha / max(len(rows), 1)
    return tuple(
        chi2_test(row, epsilon=epsilon, lam=lam, draws=draws, alpha=per_test, sampler=sampler, type_pair=pair)
        for pair, row in sorted(rows.items())
    )
