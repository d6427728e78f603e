"""Exact expected leakage for the evaluation: the privacy model's expectations at the matcher's threshold.

The model itself is :class:`relguard.privacy.expected.OutcomeModel`, the one the app's live figures use; here the
"close" cut-off defaults to the relation matcher's calibrated d_R threshold, so the expectation counts the same
equivalences as the measured attack.
"""

from __future__ import annotations

from collections.abc import Iterable

from relguard.evaluation.matching import default_threshold
from relguard.privacy import expected as model
from relguard.privacy.expected import ExpectedLeakage


def expected_leakage(
    prepared,
    *,
    epsilon: float,
    lam: float,
    threshold: float | None = None,
    allow_null: bool = True,
    entity_epsilon: float | None = None,
) -> ExpectedLeakage:
    """Exact expected connection and relation retention of a release drawn from ``prepared`` at (ε, λ), or with a
    per-entity budget ``entity_epsilon`` (each group at its own ε_g)."""
    threshold = default_threshold() if threshold is None else threshold
    return model.expected_leakage(
        prepared, epsilon=epsilon, lam=lam, threshold=threshold, allow_null=allow_null, entity_epsilon=entity_epsilon
    )


def expected_leakage_curve(
    prepared,
    *,
    epsilons: Iterable[float] = (0.0, 0.1, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0),
    lam: float,
    threshold: float | None = None,
    allow_null: bool = True,
) -> tuple[ExpectedLeakage, ...]:
    """:func:`expected_leakage` at each ε (milliseconds each: no extraction, no sampling)."""
    threshold = default_threshold() if threshold is None else threshold
    return model.expected_leakage_curve(
        prepared, epsilons=epsilons, lam=lam, threshold=threshold, allow_null=allow_null
    )
