"""The exact DP audit (DESIGN invariant 10) over every inventory pool, printed as numbers.

For each of the 121 ordered type pairs (first 20 candidates), ε ∈ {0.1, 1, 5, 10} and
λ ∈ {0.01, 0.1, 1, 2}: the worst excess max_y |log P(y|r) − log P(y|r′)| − ε·d_R(r, r′) over
pairs of candidates, outside relations and near-duplicates (must be ≤ 1e-9), then the same
with the /2 dropped from the exponent (must fail), then the χ² p-value of 20,000 OpenDP draws.

    .venv/bin/python bench/dp_audit.py
"""

from __future__ import annotations

import numpy as np
from scipy import stats

from relguard.candidates.inventory import InventoryCandidates
from relguard.embed import load_encoder
from relguard.privacy.mechanism import log_probabilities, outcome_probabilities
from relguard.privacy.sampling import sample_outcomes
from relguard.types import ENTITY_TYPES
from relguard.verify.bound import audit_pool, near_duplicates

OUTSIDERS = ("works_at", "married", "was_born_in", "located_near", "owns_shares_in")


def without_halving(distances, *, epsilon, lam):
    return log_probabilities(distances, epsilon=2 * epsilon, lam=lam)


def main() -> None:
    inventory, encoder = InventoryCandidates(), load_encoder()
    worst, checks, broken_failures, pools = -np.inf, 0, 0, 0
    for subject in ENTITY_TYPES:
        for obj in ENTITY_TYPES:
            pair = (subject, obj)
            z = encoder.embed_predicates(inventory.generate(pair, 20).predicates, pair)
            inputs = np.concatenate([z, encoder.embed_predicates(OUTSIDERS, pair), near_duplicates(z[:5])])
            pools += 1
            for epsilon in (0.1, 1.0, 5.0, 10.0):
                for lam in (0.01, 0.1, 1.0, 2.0):
                    result = audit_pool(z, inputs, epsilon=epsilon, lam=lam)
                    worst = max(worst, result.worst_excess)
                    checks += 1
            broken = audit_pool(z, inputs, epsilon=1.0, lam=1.0, probabilities=without_halving)
            broken_failures += not broken.passed
    print(f"pools: {pools}, (pool, ε, λ) settings audited: {checks}, inputs per pool: {len(inputs)}")
    print(f"worst excess over all settings: {worst:.3e}  (passes if <= 1e-9): {'PASS' if worst <= 1e-9 else 'FAIL'}")
    print(f"without the /2 at ε=1, λ=1: {broken_failures} of {pools} pools FAIL the audit")
    row = np.array([[0.05, 0.2, 0.35, 0.5, 0.8]])
    draws = sample_outcomes(np.repeat(row, 20_000, axis=0), epsilon=4.0, lam=0.6)
    expected = outcome_probabilities(row, epsilon=4.0, lam=0.6)[0] * 20_000
    p = stats.chisquare(np.bincount(draws, minlength=6), expected).pvalue
    print(f"chi2 of 20,000 OpenDP draws vs exact probabilities (ε=4, λ=0.6): p = {p:.3f} (test requires > 1e-4)")
    uniform = sample_outcomes(np.repeat(row, 6_000, axis=0), epsilon=0.0, lam=1.0)
    p0 = stats.chisquare(np.bincount(uniform, minlength=6)).pvalue
    print(f"chi2 of 6,000 draws at ε=0 vs uniform over K+1=6 outcomes: p = {p0:.3f}")


if __name__ == "__main__":
    main()
