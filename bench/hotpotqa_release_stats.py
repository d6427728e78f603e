"""Extraction yield and release outcomes on the 994 HotpotQA paragraphs over ε ∈ {0.1, 1, 5, 10}.

Prints the number of canonical triples, the share of paragraphs with at least
one triple, and per ε (λ = 1, K = 10) the shares of relations kept unchanged
(sampled predicate equal to the extracted one), kept in meaning (d_R to the
original ≤ 0.2, the inventory's synonym threshold), substituted and deleted,
and the share of sentences removed — mean over 3 draws.

    .venv/bin/python bench/hotpotqa_release_stats.py
"""

from __future__ import annotations

import numpy as np
from common import hotpotqa_paragraphs

from relguard.pipeline import prepare

CLOSE = 0.2
EPSILONS = (0.1, 1.0, 5.0, 10.0)


def main(trials: int = 3) -> None:
    documents = hotpotqa_paragraphs()
    prepared = prepare(documents, k=10)
    extraction = prepared.extraction
    with_triple = sum(1 for d in extraction.documents if d.triples)
    occurrences = sum(len(t.occurrences) for t in prepared.triples)
    sentences = sum(len(d.sentences) for d in extraction.documents)
    print(f"paragraphs: {len(documents)}, sentences: {sentences}")
    print(f"canonical triples: {len(prepared.triples)}, occurrences: {occurrences}")
    print(f"paragraphs with >= 1 triple: {with_triple} ({with_triple / len(documents):.1%})")
    print(f"type pairs: {len(prepared.pools)}")
    print()
    print("| ε | unchanged | kept in meaning (d_R ≤ 0.2) | substituted (changed) | deleted | sentences removed |")
    print("|---:|---:|---:|---:|---:|---:|")
    for epsilon in EPSILONS:
        rows = []
        for _ in range(trials):
            release = prepared.draw(epsilon=epsilon, lam=1.0)
            relations = [(i, o, t) for i, o in enumerate(release.outcomes) for t in o.group.triples]
            owner = {id(t): row for row, t in enumerate(prepared.triples)}
            m = len(relations)
            deleted = sum(o.deleted for _, o, _ in relations)
            unchanged = sum(o.kept(t) for _, o, t in relations)
            close = 0
            for _, o, t in relations:
                if o.predicate is not None:
                    j = prepared.pool_for(t).predicates.index(o.predicate)
                    close += prepared.triple_distances[owner[id(t)], j] <= CLOSE
            removed = sum(len(d.removed_sentences) for d in release.documents)
            rows.append((unchanged / m, close / m, (m - deleted - unchanged) / m, deleted / m, removed / sentences))
        mean = np.mean(rows, axis=0)
        print(f"| {epsilon:g} | " + " | ".join(f"{v:.1%}" for v in mean) + " |")


if __name__ == "__main__":
    main()
