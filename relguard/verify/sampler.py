"""Sampler conformance: the OpenDP sampler's draws against the exact probabilities, by a χ² test.

The sampler is one function of (distance row, ε, λ), the same for every pool, so it is tested on the rows that
tell its law from the wrong one best: at most ``CHI2_MAX_POOLS`` pools, those whose exact laws at ε and 2ε lie
farthest apart: a wrong law shows first where the rows tell the two laws apart, so a few well-chosen rows catch it
surely for fewer draws than every row at a fixed count would spend. One test per chosen pool at α / (number of
tests) (Bonferroni), so a correct sampler fails a run with probability at most α.
The draws per pool are chosen from the rows themselves, so that a sampler of the named wrong
distribution (the exponent without its ``/2``, i.e. the law at 2ε) is caught with probability at least
``CHI2_POWER``. Both error rates are one in a million: an audit that cries wolf once in a thousand runs is an
audit a privacy officer learns to ignore, and one that misses a broken sampler is no audit.

The power is computed, not simulated: under the alternative q the Pearson statistic over the same cells is
approximately noncentral χ² with df = cells − 1 and noncentrality N·Σ (q − p)² / p.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

import numpy as np
from scipy import stats

from relguard.privacy.mechanism import outcome_probabilities
from relguard.privacy.sampling import sample_outcomes
from relguard.types import TypePair

CHI2_ALPHA = 1e-6
CHI2_POWER = 1 - 1e-6
CHI2_MAX_POOLS = 8
MIN_DRAWS = 2000
MAX_DRAWS = 20000
MIN_EXPECTED = 5.0


Sampler = Callable[..., np.ndarray]


@dataclass(frozen=True)
class Chi2Result:
    """One χ² goodness-of-fit test of the sampler against the exact distribution of one row.

    ``power`` is the probability that this test rejects a sampler that draws the law at 2ε instead of ε.
    """

    type_pair: TypePair
    draws: int
    cells: int
    statistic: float
    p_value: float
    alpha: float
    power: float = float("nan")

    @property
    def passed(self) -> bool:
        return self.p_value >= self.alpha


def _probabilities(row: np.ndarray, *, epsilon: float, lam: float) -> np.ndarray:
    return outcome_probabilities(np.atleast_2d(np.asarray(row, dtype=np.float64)), epsilon=epsilon, lam=lam)[0]


def _laws(row: np.ndarray, *, epsilon: float, lam: float) -> tuple[np.ndarray, np.ndarray]:
    """The exact law at ε and the law a sampler without the ``/2`` draws (the law at 2ε)."""
    return _probabilities(row, epsilon=epsilon, lam=lam), _probabilities(row, epsilon=2 * epsilon, lam=lam)


def _at_least_one(powers: Iterable[float]) -> float:
    """Probability that at least one of independent tests with these powers rejects."""
    misses = [1.0 - power for power in powers]
    return 1.0 - float(np.prod(misses)) if misses else 0.0


def _cells(expected: np.ndarray) -> np.ndarray:
    """Cell of each outcome: outcomes with expected count below 5 share one last cell, so the χ² law holds."""
    big = expected >= MIN_EXPECTED
    cells = np.cumsum(big) - 1
    if np.any(~big):
        cells[~big] = int(big.sum())
    return cells


def _merge(values: np.ndarray, cells: np.ndarray) -> np.ndarray:
    return np.bincount(cells, weights=values, minlength=int(cells.max()) + 1)


def separation(row: np.ndarray, *, epsilon: float, lam: float) -> float:
    """Noncentrality one draw adds against the law at 2ε: Σ (q − p)² / p over the outcomes."""
    p, q = _laws(row, epsilon=epsilon, lam=lam)
    return float(np.sum((q - p) ** 2 / np.maximum(p, 1e-300)))


def most_separating(
    rows: Mapping[TypePair, np.ndarray], *, epsilon: float, lam: float, limit: int = CHI2_MAX_POOLS
) -> dict[TypePair, np.ndarray]:
    """The ``limit`` rows whose laws at ε and 2ε differ most (ties by type pair), in type-pair order."""
    ranked = sorted(rows, key=lambda pair: (-separation(rows[pair], epsilon=epsilon, lam=lam), pair))
    return {pair: rows[pair] for pair in sorted(ranked[:limit])}


def power_against_missing_halving(row: np.ndarray, *, epsilon: float, lam: float, draws: int, alpha: float) -> float:
    """Probability that one χ² test of ``draws`` draws at level ``alpha`` rejects the law at 2ε."""
    p, q = _laws(row, epsilon=epsilon, lam=lam)
    return power_against(p, q, draws=draws, alpha=alpha)


def power_against(p: np.ndarray, q: np.ndarray, *, draws: int, alpha: float) -> float:
    """Probability that a χ² test of ``draws`` draws against law ``p`` at level ``alpha`` rejects a sampler of law
    ``q`` (noncentral χ² over the same merged cells)."""
    cells = _cells(p * draws)
    p_cells, q_cells = _merge(p, cells), _merge(q, cells)
    df = max(len(p_cells) - 1, 1)
    noncentrality = draws * float(np.sum((q_cells - p_cells) ** 2 / np.maximum(p_cells, 1e-300)))
    critical = stats.chi2.isf(alpha, df)
    if noncentrality <= 0.0:
        return float(alpha)
    return float(stats.ncx2.sf(critical, df, noncentrality))


def draws_for_power(
    rows: Mapping[TypePair, np.ndarray],
    *,
    epsilon: float,
    lam: float,
    alpha: float = CHI2_ALPHA,
    power: float = CHI2_POWER,
) -> int:
    """The fewest draws per pool (from ``MIN_DRAWS``, doubling up to ``MAX_DRAWS``) at which the family of tests
    rejects the law at 2ε with probability at least ``power``; ``MAX_DRAWS`` when no count reaches it (small ε,
    where the two laws are close; the achieved power is then reported, not hidden). At ε = 0 both laws are the
    uniform one and no count tells them apart."""
    if epsilon == 0.0:
        return MIN_DRAWS
    per_test = alpha / max(len(rows), 1)
    draws = MIN_DRAWS
    while draws < MAX_DRAWS:
        powers = (
            power_against_missing_halving(row, epsilon=epsilon, lam=lam, draws=draws, alpha=per_test)
            for row in rows.values()
        )
        if _at_least_one(powers) >= power:
            return draws
        draws = min(2 * draws, MAX_DRAWS)
    return MAX_DRAWS


def family_power(results: tuple[Chi2Result, ...]) -> float:
    """Probability that at least one of the (independent) tests rejects the law at 2ε."""
    return _at_least_one(r.power for r in results)


def chi2_test(
    row: np.ndarray,
    *,
    epsilon: float,
    lam: float,
    draws: int = MIN_DRAWS,
    alpha: float = CHI2_ALPHA,
    sampler: Sampler = sample_outcomes,
    type_pair: TypePair = ("", ""),
) -> Chi2Result:
    """Draw ``draws`` outcomes for one distance row and test them against the exact probabilities.

    Cells with expected count below 5 are pooled into one, so the χ² approximation holds.
    """
    row = np.atleast_2d(np.asarray(row, dtype=np.float64))
    expected = _probabilities(row[0], epsilon=epsilon, lam=lam) * draws
    observed = np.bincount(sampler(np.repeat(row, draws, axis=0), epsilon=epsilon, lam=lam), minlength=len(expected))
    power = power_against_missing_halving(row[0], epsilon=epsilon, lam=lam, draws=draws, alpha=alpha)
    return _tested(type_pair, expected, observed, draws=draws, alpha=alpha, power=power)


def _tested(
    type_pair: TypePair, expected: np.ndarray, observed: np.ndarray, *, draws: int, alpha: float, power: float
) -> Chi2Result:
    """The χ² test of ``observed`` counts against ``expected`` ones, the cells expected below 5 pooled into one."""
    cells = _cells(expected)
    e, o = _merge(expected, cells), _merge(observed.astype(np.float64), cells)
    statistic = float(np.sum((o - e) ** 2 / np.maximum(e, 1e-300)))
    df = max(len(e) - 1, 1)
    return Chi2Result(type_pair, draws, len(e), statistic, float(stats.chi2.sf(statistic, df)), alpha, power)


def sampler_conformance(
    rows: Mapping[TypePair, np.ndarray],
    *,
    epsilon: float,
    lam: float,
    draws: int | None = None,
    alpha: float = CHI2_ALPHA,
    sampler: Sampler = sample_outcomes,
    pools: int = CHI2_MAX_POOLS,
) -> tuple[Chi2Result, ...]:
    """Check 2: one χ² test for each of the ``pools`` most separating rows, at α/(tests) each, so the family-wise
    false-alarm rate is ≤ α.

    ``draws=None`` takes :func:`draws_for_power` of the chosen rows, the same count for every test.
    """
    chosen = most_separating(rows, epsilon=epsilon, lam=lam, limit=pools)
    per_test = alpha / max(len(chosen), 1)
    if draws is None:
        draws = draws_for_power(chosen, epsilon=epsilon, lam=lam, alpha=alpha)
    return tuple(
        chi2_test(row, epsilon=epsilon, lam=lam, draws=draws, alpha=per_test, sampler=sampler, type_pair=pair)
        for pair, row in chosen.items()
    )


def per_group_conformance(
    rows: Mapping[TypePair, np.ndarray],
    epsilons: Mapping[TypePair, float],
    *,
    lam: float,
    draws: int | None = None,
    alpha: float = CHI2_ALPHA,
    sampler: Sampler = sample_outcomes,
    pools: int = CHI2_MAX_POOLS,
) -> tuple[Chi2Result, ...]:
    """Check 2 when each group has its own ε_g (a per-entity budget): every chosen row is drawn in *one* sampler
    call, interleaved with the others, each at its own ε (one value per row), and each row's draws are tested
    against the exact law at its own ε, at α/(tests) each (Bonferroni: family-wise false alarm ≤ α).

    A sampler that draws every row at one ε, or drops the ``/2``, shows as a row whose counts follow another law.
    The rows are the ``pools`` whose laws at ε_g and 2ε_g lie farthest apart; ``draws=None`` takes the fewest
    (from ``MIN_DRAWS``, doubling to ``MAX_DRAWS``) at which the family rejects the missing halving with
    probability ``CHI2_POWER``, each power computed at its row's own ε.
    """
    ranked = sorted(rows, key=lambda pair: (-separation(rows[pair], epsilon=epsilons[pair], lam=lam), pair))
    chosen = sorted(ranked[:pools])
    if not chosen:
        return ()
    per_test = alpha / len(chosen)

    def family(count: int) -> float:
        powers = [
            power_against_missing_halving(rows[p], epsilon=epsilons[p], lam=lam, draws=count, alpha=per_test)
            for p in chosen
        ]
        return _at_least_one(powers)

    if draws is None:
        draws = MIN_DRAWS
        while draws < MAX_DRAWS and any(epsilons[p] > 0 for p in chosen) and family(draws) < CHI2_POWER:
            draws = min(2 * draws, MAX_DRAWS)
    matrix = np.array([np.asarray(rows[p], dtype=np.float64) for p in chosen])
    values = np.array([float(epsilons[p]) for p in chosen])
    drawn = sampler(np.tile(matrix, (draws, 1)), epsilon=np.tile(values, draws), lam=lam).reshape(draws, len(chosen))
    results = []
    for column, pair in enumerate(chosen):
        expected = _probabilities(matrix[column], epsilon=values[column], lam=lam) * draws
        observed = np.bincount(drawn[:, column], minlength=len(expected))
        power = power_against_missing_halving(
            matrix[column], epsilon=values[column], lam=lam, draws=draws, alpha=per_test
        )
        results.append(_tested(pair, expected, observed, draws=draws, alpha=per_test, power=power))
    return tuple(results)
