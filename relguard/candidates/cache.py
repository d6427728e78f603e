"""Pools kept per (generator, type pair, K, exclusion policy), so a front end that moves K does not rebuild them.

A pool is a function of its generator's public content, the ordered type pair, K and the exclusion policy alone
(DESIGN invariant 1), so a pool built once may be handed out again for the same four. Only generators with a
content hash (a fixed inventory, a pool file) are kept: an LLM's pools have no such key, and it has its own cache.
The key never holds anything from a document.
"""

from __future__ import annotations

from collections import OrderedDict

from relguard.candidates.exclusion import policy_of, sensitive_of
from relguard.protocols import PoolGenerator
from relguard.types import CandidatePool, TypePair

#: Pools kept per process: every type pair of the inventory at every K the app offers fits many times over.
POOL_CACHE_SIZE = 8192


def pool_key(generator: PoolGenerator, type_pair: TypePair, k: int) -> tuple | None:
    """What a pool depends on, or None when the generator has no content hash to key it by."""
    content = generator.content_hash()
    if content is None:
        return None
    policy, sensitive = policy_of(generator), sensitive_of(generator)
    digests = (getattr(policy, "sha256", None), getattr(sensitive, "sha256", None))
    return (generator.name, content, digests, tuple(type_pair), int(k))


class PoolCache(OrderedDict):
    """A bounded store of pools by :func:`pool_key`, shared by every session of one app process."""

    def __init__(self, size: int = POOL_CACHE_SIZE) -> None:
        super().__init__()
        self.size = size

    def pool(self, generator: PoolGenerator, type_pair: TypePair, k: int) -> CandidatePool:
        """The pool ``generator`` makes for ``type_pair`` and ``k``, built once per key."""
        key = pool_key(generator, type_pair, k)
        if key is None:
            return generator.generate(type_pair, k)
        if key not in self:
            self[key] = generator.generate(type_pair, k)
            while len(self) > self.size:
                self.popitem(last=False)
        self.move_to_end(key)
        return self[key]
