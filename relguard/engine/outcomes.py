"""The draw: one outcome per relation group, keyed by its public key, with the pools and the guarantee.

:class:`OutcomeTable` is all the rewrite needs, corpus-wide: a batch run keeps it instead of the corpus, and an
in-memory release is its one-batch case. :func:`~relguard.engine.draw.draw_step` is the one entry to the draw and
:func:`sample_table` the one place outcomes are drawn — from one distance row per group in sorted key order,
through OpenDP — so every face gives the same release for one seed.
A distance row depends on its own group alone (each embedding on its own text, the arithmetic element by
element), so rows may be computed in any process (:func:`distance_matrix`) and stay the same to the bit.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from relguard.candidates.pools import build_pools
from relguard.embed import predicate_text
from relguard.engine.tally import GroupTable
from relguard.privacy.entity import draw_epsilons
from relguard.privacy.mechanism import group_distances
from relguard.privacy.sampling import sample_outcomes
from relguard.protocols import Encoder, PoolGenerator
from relguard.rewrite import Sampled
from relguard.settings import PrivacySettings
from relguard.types import CandidatePool, Guarantee, Outcome, PairKey, RelationGroup, Release, TypePair


def guarantee_of(privacy: PrivacySettings) -> Guarantee:
    """The guarantee a draw at these settings carries; a teaching seed marks it as not a private release."""
    seed = privacy.seed
    return Guarantee(
        epsilon=privacy.epsilon,
        lam=privacy.lam,
        k=privacy.k,
        private_release=seed is None,
        rng="OS entropy (OpenDP make_noisy_max)" if seed is None else f"fixed teaching seed {seed}",
        seed=seed,
        entity_epsilon=privacy.entity_epsilon,
    )


@dataclass(frozen=True)
class OutcomeTable:
    """One sampled outcome per relation group, in draw order (sorted public keys); None is the null outcome."""

    keys: tuple[PairKey, ...]
    predicates: tuple[str | None, ...]
    pools: Mapping[TypePair, CandidatePool]
    guarantee: Guarantee

    @cached_property
    def index(self) -> dict[PairKey, int]:
        """Each group's number: its placeholder in the masked text and its row in the table."""
        return {key: i for i, key in enumerate(self.keys)}

    @cached_property
    def sampled(self) -> dict[int, Sampled]:
        """What the fill may know of each group: its public type pair, the sampled predicate and its key's names."""
        return {
            i: Sampled((key[1], key[3]), p, key[0], key[2])
            for i, (key, p) in enumerate(zip(self.keys, self.predicates, strict=True))
        }

    @cached_property
    def drawn(self) -> dict[PairKey, tuple[int, str | None]]:
        """Per public key, (its number, the sampled predicate): what the leak scan compares the output with."""
        return {key: (i, p) for i, (key, p) in enumerate(zip(self.keys, self.predicates, strict=True))}

    @cached_property
    def epsilons(self) -> np.ndarray:
        """The ε each group was drawn at, in key order: the guarantee's ε, or its per-entity allocation."""
        g = self.guarantee
        return draw_epsilons(self.keys, epsilon=g.epsilon, entity_epsilon=g.entity_epsilon)

    @property
    def deleted(self) -> int:
        return sum(p is None for p in self.predicates)

    @property
    def pool_list(self) -> tuple[CandidatePool, ...]:
        """The pools in type-pair order, as the report lists them."""
        return tuple(self.pools[pair] for pair in sorted(self.pools))

    def outcomes(self, groups: Sequence[RelationGroup]) -> tuple[Outcome, ...]:
        """The table as :class:`~relguard.types.Outcome` objects of an in-memory corpus's groups (same order)."""
        if [g.key for g in groups] != list(self.keys):
            raise ValueError("the groups are not the table's groups in its order")
        return tuple(Outcome(g, p) for g, p in zip(groups, self.predicates, strict=True))

    @classmethod
    def of_release(cls, release: Release) -> OutcomeTable:
        """The table an in-memory release was rewritten from."""
        return cls(
            tuple(o.group.key for o in release.outcomes),
            tuple(o.predicate for o in release.outcomes),
            {p.type_pair: p for p in release.pools},
            release.guarantee,
        )


def sample_table(
    keys: Sequence[PairKey],
    distances: np.ndarray,
    *,
    pools: Mapping[TypePair, CandidatePool],
    privacy: PrivacySettings,
    allow_null: bool = True,
) -> OutcomeTable:
    """Draw one outcome per group from its distance row (``distances[i]`` for ``keys[i]``) through OpenDP.

    Each group is drawn at ε, or with a per-entity budget E at ε_g = E / max(n(s), n(o)) computed from the keys
    of the whole corpus (:func:`~relguard.privacy.entity.draw_epsilons`; a group's n counts every document).
    ``allow_null=False`` never deletes (the paper's Table 3 ablation, for evaluation only).
    """
    if len(keys):
        epsilons = draw_epsilons(keys, epsilon=privacy.epsilon, entity_epsilon=privacy.entity_epsilon)
        chosen = sample_outcomes(distances, epsilon=epsilons, lam=privacy.lam, seed=privacy.seed, allow_null=allow_null)
    else:
        chosen = np.zeros(0, dtype=np.int64)
    predicates = tuple(
        None if c == privacy.k else pools[(key[1], key[3])].predicates[c] for key, c in zip(keys, chosen, strict=True)
    )
    return OutcomeTable(tuple(keys), predicates, dict(pools), guarantee_of(privacy))


def table_pools(table: GroupTable, *, generator: PoolGenerator, k: int) -> dict[TypePair, CandidatePool]:
    """The pool of every type pair the table's groups have (a function of the pairs and K alone)."""
    return build_pools({(key[1], key[3]) for key in table.keys}, generator=generator, k=k)


def draw_texts(groups: Sequence[tuple[PairKey, Collection[str]]], pools: Mapping[TypePair, CandidatePool]) -> list[str]:
    """Every typed sentence the distance rows of ``groups`` read: their predicates' and their pools', sorted."""
    texts, pairs = set(), set()
    for key, predicates in groups:
        pair = (key[1], key[3])
        pairs.add(pair)
        texts.update(predicate_text(predicate, pair) for predicate in predicates)
    for pair in pairs:
        texts.update(predicate_text(candidate, pair) for candidate in pools[pair].predicates)
    return sorted(texts)


def distance_matrix(
    groups: Sequence[tuple[PairKey, Collection[str]]], pools: Mapping[TypePair, CandidatePool], encoder: Encoder
) -> np.ndarray:
    """(g, K) rows: each group's minimum d_R over its predicates to its pool's candidates."""
    k = next(iter(pools.values())).k if pools else 0
    rows, owners = [], []
    for number, (key, predicates) in enumerate(groups):
        pair = (key[1], key[3])
        for predicate in sorted(predicates):
            rows.append((pair, predicate))
            owners.append(number)
    encoder.embed_texts(draw_texts(groups, pools))
    per_triple = np.zeros((len(rows), k))
    by_pair: dict[TypePair, list[int]] = {}
    for number, (pair, _) in enumerate(rows):
        by_pair.setdefault(pair, []).append(number)
    for pair, members in by_pair.items():
        per_triple[members] = encoder.distances([rows[m][1] for m in members], list(pools[pair].predicates), pair)
    return group_distances(per_triple, owners, len(groups))
