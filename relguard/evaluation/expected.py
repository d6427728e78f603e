"""Expected leakage computed exactly from the probability tables, without sampling.

For each relation group the mechanism's outcome distribution is known in
closed form (Eq. 12), so for each canonical triple of the group the expected
share of relations whose connection survives (1 − P(null)) and whose meaning
survives (the probability mass on candidates equivalent to the triple's own
predicate, d_R ≤ the calibrated threshold) are plain averages over triples.
This is what lets the app draw leakage curves live.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from relguard.mechanism import check_epsilon, check_lam


@dataclass(frozen=True)
class ExpectedLeakage:
    """Expected retention over the canonical triples of one prepared corpus at one (ε, λ, K)."""

    epsilon: float
    lam: float
    k: int
    triples: int
    connection: float
    relation: float
    deleted: float

    def as_dict(self) -> dict[str, float]:
        return {
            "epsilon": self.epsilon,
            "lam": self.lam,
            "k": float(self.k),
            "triples": float(self.triples),
            "expected_connection_retention": self.connection,
            "expected_relation_retention": self.relation,
            "expected_deleted": self.deleted,
        }


def equivalent_candidates(prepared, *, threshold: float) -> np.ndarray:
    """(m, K) boolean: candidate j means the same as triple i's predicate (equal, or d_R ≤ threshold)."""
    if not prepared.triples:
        return np.zeros((0, prepared.k), dtype=bool)
    same = np.array([[c == t.predicate for c in prepared.pool_for(t).predicates] for t in prepared.triples], dtype=bool)
    return same | (np.asarray(prepared.triple_distances) <= threshold)


def expected_leakage(
    prepared, *, epsilon: float, lam: float, threshold: float | None = None, allow_null: bool = True
) -> ExpectedLeakage:
    """Exact expected connection and relation retention of a release drawn from ``prepared`` at (ε, λ).

    ``threshold`` defaults to the matcher's calibrated d_R threshold, so the
    expectation counts the same equivalences as the measured attack.
    """
    epsilon, lam = check_epsilon(epsilon), check_lam(lam)
    if threshold is None:
        from relguard.evaluation.matching import default_threshold

        threshold = default_threshold()
    probabilities = prepared.probabilities(epsilon=epsilon, lam=lam, allow_null=allow_null)[prepared.group_of_triple]
    m = probabilities.shape[0]
    if m == 0:
        return ExpectedLeakage(epsilon, lam, prepared.k, 0, 0.0, 0.0, 0.0)
    null = probabilities[:, -1]
    same = equivalent_candidates(prepared, threshold=threshold)
    relation = (probabilities[:, :-1] * same).sum(axis=1)
    return ExpectedLeakage(
        epsilon=epsilon,
        lam=lam,
        k=prepared.k,
        triples=m,
        connection=float(np.mean(1.0 - null)),
        relation=float(np.mean(relation)),
        deleted=float(np.mean(null)),
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
    return tuple(
        expected_leakage(prepared, epsilon=e, lam=lam, threshold=threshold, allow_null=allow_null) for e in epsilons
    )
