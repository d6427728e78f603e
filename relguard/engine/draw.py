"""The draw of a batch run, on the driver: pools, group distances and one outcome per group, from the table alone.

It computes exactly what :meth:`relguard.pipeline.Prepared.draw` computes — the same pools, the same distance
rows (the minimum over a group's predicates; an embedding depends on its text alone, so it may come from any
process), the same group order (sorted public keys) and the same sampler — so a batch run and the in-memory
pipeline give the same release for one seed.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

import numpy as np

from relguard.candidates.pools import build_pools
from relguard.embed import predicate_text
from relguard.engine.tally import GroupTable
from relguard.privacy.mechanism import group_distances
from relguard.privacy.sampling import sample_outcomes
from relguard.protocols import Encoder, PoolGenerator
from relguard.release.leakscan import Drawn
from relguard.rewrite import Sampled
from relguard.settings import PrivacySettings
from relguard.types import CandidatePool, PairKey, TypePair


@dataclass(frozen=True)
class OutcomeTable:
    """One sampled outcome per relation group, in group order: all the rewrite needs, corpus-wide."""

    keys: tuple[PairKey, ...]
    predicates: tuple[str | None, ...]
    pools: dict[TypePair, CandidatePool]

    @property
    def index(self) -> dict[PairKey, int]:
        return {key: i for i, key in enumerate(self.keys)}

    @property
    def sampled(self) -> dict[int, Sampled]:
        return {
            i: Sampled((key[1], key[3]), p) for i, (key, p) in enumerate(zip(self.keys, self.predicates, strict=True))
        }

    @property
    def drawn(self) -> Drawn:
        return {key: (i, p) for i, (key, p) in enumerate(zip(self.keys, self.predicates, strict=True))}

    @property
    def deleted(self) -> int:
        return sum(p is None for p in self.predicates)


def table_pools(table: GroupTable, *, generator: PoolGenerator, k: int) -> dict[TypePair, CandidatePool]:
    """The pool of every type pair the table's groups have (a function of the pairs and K alone)."""
    return build_pools({(key[1], key[3]) for key in table.keys}, generator=generator, k=k)


def distance_matrix(
    groups: Sequence[tuple[PairKey, Collection[str]]], pools: dict[TypePair, CandidatePool], encoder: Encoder
) -> np.ndarray:
    """(g, K) rows: each group's minimum d_R over its predicates to its pool's candidates.

    A row depends on its own group only — each embedding on its own text, the arithmetic element by element —
    so the groups may be cut into batches on any number of processes (the Ray engine) and the rows stay the
    same to the bit.
    """
    k = next(iter(pools.values())).k if pools else 0
    rows, owners, texts = [], [], set()
    for number, (key, predicates) in enumerate(groups):
        pair = (key[1], key[3])
        for predicate in sorted(predicates):
            rows.append((pair, predicate))
            owners.append(number)
            texts.add(predicate_text(predicate, pair))
        texts |= {predicate_text(candidate, pair) for candidate in pools[pair].predicates}
    encoder.embed_texts(sorted(texts))
    per_triple = np.zeros((len(rows), k))
    by_pair: dict[TypePair, list[int]] = {}
    for number, (pair, _) in enumerate(rows):
        by_pair.setdefault(pair, []).append(number)
    for pair, members in by_pair.items():
        per_triple[members] = encoder.distances([rows[m][1] for m in members], list(pools[pair].predicates), pair)
    return group_distances(per_triple, owners, len(groups))


def draw_outcomes(
    table: GroupTable,
    *,
    privacy: PrivacySettings,
    generator: PoolGenerator,
    encoder: Encoder,
    distances: np.ndarray | None = None,
) -> OutcomeTable:
    """Pools for the table's type pairs, then one outcome per group through the same sampler as a release.

    ``distances`` are the table's :func:`distance_matrix` rows in key order when another process computed them.
    """
    pools = table_pools(table, generator=generator, k=privacy.k)
    keys = table.keys
    if distances is None:
        distances = distance_matrix([(key, table.predicates[key]) for key in keys], pools, encoder)
    if keys:
        chosen = sample_outcomes(distances, epsilon=privacy.epsilon, lam=privacy.lam, seed=privacy.seed)
    else:
        chosen = np.zeros(0, dtype=np.int64)
    predicates = tuple(
        None if c == privacy.k else pools[(key[1], key[3])].predicates[c] for key, c in zip(keys, chosen, strict=True)
    )
    return OutcomeTable(tuple(keys), predicates, pools)
