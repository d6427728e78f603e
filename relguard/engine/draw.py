"""The draw of a batch run, on the driver: pools, group distances and one outcome per group, from the table alone.

It computes exactly what :meth:`relguard.pipeline.Prepared.draw` computes — the same pools, the same distance
rows (the minimum over a group's predicates; an embedding depends on its text alone, so it may come from any
process), the same group order (sorted public keys) and the same sampler — so a batch run and the in-memory
pipeline give the same release for one seed.
"""

from __future__ import annotations

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


def draw_texts(table: GroupTable, pools: dict[TypePair, CandidatePool]) -> list[str]:
    """Every text the draw embeds — each group's predicates and its pool's candidates, in its typed sentence."""
    texts = set()
    for key in table.keys:
        pair = (key[1], key[3])
        texts |= {predicate_text(predicate, pair) for predicate in table.predicates[key]}
        texts |= {predicate_text(candidate, pair) for candidate in pools[pair].predicates}
    return sorted(texts)


def table_pools(table: GroupTable, *, generator: PoolGenerator, k: int) -> dict[TypePair, CandidatePool]:
    """The pool of every type pair the table's groups have (a function of the pairs and K alone)."""
    return build_pools({(key[1], key[3]) for key in table.keys}, generator=generator, k=k)


def distance_rows(
    table: GroupTable, pools: dict[TypePair, CandidatePool], encoder: Encoder
) -> tuple[list[PairKey], np.ndarray]:
    """(group keys in draw order, (g, K) distance rows): each group's minimum d_R over its predicates."""
    keys = table.keys
    k = next(iter(pools.values())).k if pools else 0
    rows, owners = [], []
    for number, key in enumerate(keys):
        pair = (key[1], key[3])
        for predicate in sorted(table.predicates[key]):
            rows.append((pair, predicate))
            owners.append(number)
    encoder.embed_texts(draw_texts(table, pools))
    per_triple = np.zeros((len(rows), k))
    by_pair: dict[TypePair, list[int]] = {}
    for number, (pair, _) in enumerate(rows):
        by_pair.setdefault(pair, []).append(number)
    for pair, members in by_pair.items():
        per_triple[members] = encoder.distances([rows[m][1] for m in members], list(pools[pair].predicates), pair)
    return keys, group_distances(per_triple, owners, len(keys))


def draw_outcomes(
    table: GroupTable,
    *,
    privacy: PrivacySettings,
    generator: PoolGenerator,
    encoder: Encoder,
    pools: dict[TypePair, CandidatePool] | None = None,
) -> OutcomeTable:
    """Pools for the table's type pairs (``pools``: already built), then one outcome per group."""
    pools = table_pools(table, generator=generator, k=privacy.k) if pools is None else pools
    keys, distances = distance_rows(table, pools, encoder)
    if keys:
        chosen = sample_outcomes(distances, epsilon=privacy.epsilon, lam=privacy.lam, seed=privacy.seed)
    else:
        chosen = np.zeros(0, dtype=np.int64)
    predicates = tuple(
        None if c == privacy.k else pools[(key[1], key[3])].predicates[c] for key, c in zip(keys, chosen, strict=True)
    )
    return OutcomeTable(tuple(keys), predicates, pools)
