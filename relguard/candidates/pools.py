"""Step 2: one public pool of exactly K predicates per ordered type pair (DESIGN invariants 1-2)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from relguard.candidates.cache import PoolCache
from relguard.errors import PoolError
from relguard.io.digest import canonical_sha256
from relguard.kinds import pool_pair
from relguard.protocols import PoolGenerator
from relguard.settings import check_k
from relguard.types import CandidatePool, TypePair


def build_pools(
    type_pairs: Iterable[TypePair], *, generator: PoolGenerator, k: int, cache: PoolCache | None = None
) -> dict[TypePair, CandidatePool]:
    """One pool per ordered type pair; a generator that returns anything but K distinct predicates is refused.

    A pair with a kind of place reads the pool of :func:`~relguard.kinds.pool_pair` (a generator is asked for the
    pairs of two places of known kinds, and for the paper's pairs). ``cache``
    (:class:`~relguard.candidates.cache.PoolCache`) hands out a pool already built for the same generator, type
    pair, K and exclusion policy; every pool is checked either way.
    """
    k = check_k(k)
    pools: dict[TypePair, CandidatePool] = {}
    for pair in sorted(set(type_pairs)):
        read = pool_pair(pair)
        pool = generator.generate(read, k) if cache is None else cache.pool(generator, read, k)
        if read != pair:
            pool = CandidatePool(pair, pool.predicates, source=pool.source)
        if pool.k != k or len(set(pool.predicates)) != k:
            raise PoolError(
                f"candidate generator {generator.name!r} returned {pool.k} "
                f"distinct predicates for {pair[0]}->{pair[1]}, expected exactly K={k}"
            )
        pools[pair] = pool
    return pools


def pool_hash(pools: Mapping[TypePair, CandidatePool]) -> str:
    """SHA-256 of the pools actually used, so a reader can check the release used public pools."""
    return canonical_sha256({f"{a}|{b}": list(p.predicates) for (a, b), p in sorted(pools.items())})
