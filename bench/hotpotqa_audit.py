"""``relguard audit`` on a release of the 994 HotpotQA paragraphs (ε = 1 and 5, λ = 1, K = 10).

Prepares the corpus once, then for each ε prints the pass/fail table: the exact bound over the corpus's
original relations, all candidates, other public relations and near-duplicates in every pool; the χ² test
of the OpenDP sampler (family α = 1e-6, with enough draws that the law without the ``/2`` passes with
probability at most 1e-6); the public-pool checks (signature, regeneration from the type pairs alone, the
corpus with every relation rewritten and re-extracted). Then the test-only mechanism without the
``/2`` on the same pools, which the exact bound must flag. A bench script, not a test: it takes minutes.

    .venv/bin/python bench/hotpotqa_audit.py
"""

from __future__ import annotations

import time

from common import hotpotqa_paragraphs

from relguard.pipeline import prepare
from relguard.privacy.mechanism import log_probabilities
from relguard.verify import AuditOptions, audit_prepared


def _without_halving(distances, *, epsilon, lam, allow_null=True):
    return log_probabilities(distances, epsilon=2 * epsilon, lam=lam, allow_null=allow_null)


def main() -> None:
    start = time.perf_counter()
    documents = hotpotqa_paragraphs()
    prepared = prepare(documents, k=10)
    print(
        f"HotpotQA: {len(documents)} paragraphs, {len(prepared.triples)} canonical triples, "
        f"{len(prepared.pools)} pools (prepared in {time.perf_counter() - start:.0f} s)"
    )
    for epsilon in (1.0, 5.0):
        start = time.perf_counter()
        audit = audit_prepared(prepared, epsilon=epsilon, lam=1.0, options=AuditOptions(pools_check=epsilon == 5.0))
        print()
        print(audit.table())
        print(f"({time.perf_counter() - start:.0f} s)")
    broken = audit_prepared(
        prepared, epsilon=1.0, lam=1.0, options=AuditOptions(probabilities=_without_halving, pools_check=False)
    )
    failed = sum(not p.passed for p in broken.pools)
    print()
    print("test-only mechanism without the /2 (ε = 1, λ = 1):")
    print(broken.table())
    print(f"pools failing the exact bound: {failed} of {len(broken.pools)}")


if __name__ == "__main__":
    main()
