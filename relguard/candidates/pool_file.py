"""Public pool files: written from LLM pools, read back to reproduce a release without any LLM.

A pool file has the inventory's ``pairs`` layout; a release's own ``report.json`` (``candidates.pools``) reads
the same way, so the pools of a release can always be replayed from the release itself.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from relguard.candidates.forms import default_forms
from relguard.candidates.inventory import (
    BANNED,
    SNAKE_CASE,
    InventoryCandidates,
    checked_k,
    checked_type_pair,
    pair_key,
)
from relguard.errors import PoolError
from relguard.io.digest import canonical_sha256
from relguard.io.write import atomic_write
from relguard.kinds import pool_pair
from relguard.types import CandidatePool, TypePair

POOL_FILE_FORMAT = "relguard-pool-file"


def read_pool_file(path: str | Path) -> dict[str, list[str]]:
    """``{"A|B": [predicates]}`` from a pool file (``pairs``) or a release report (``candidates.pools``)."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise PoolError(f"{path}: not a readable JSON pool file ({exc})") from exc
    pairs = data.get("pairs") if isinstance(data, dict) else None
    if pairs is None and isinstance(data, dict):
        pairs = (data.get("candidates") or {}).get("pools")
    if not isinstance(pairs, dict):
        raise PoolError(f"{path}: has no 'pairs' (pool file) or 'candidates.pools' (release report)")
    for key, predicates in pairs.items():
        subject, _, obj = key.partition("|")
        checked_type_pair((subject, obj))
        if not isinstance(predicates, list) or len(set(predicates)) != len(predicates):
            raise PoolError(f"{path}: pool {key} must be a list of distinct predicates")
        for predicate in predicates:
            if not isinstance(predicate, str) or not SNAKE_CASE.match(predicate) or predicate in BANNED:
                raise PoolError(f"{path}: pool {key} has {predicate!r}, not an allowed snake_case predicate")
    return {key: list(value) for key, value in pairs.items()}


def write_pool_file(path: str | Path, pools: dict[str, list[str]], *, source: str, **metadata: Any) -> Path:
    """Write a public pool file (the inventory's ``pairs`` layout plus where the pools came from)."""
    path = Path(path)
    data = {
        "format": POOL_FILE_FORMAT,
        "version": 1,
        "source": source,
        **metadata,
        "pairs": dict(sorted(pools.items())),
    }
    atomic_write(path, (json.dumps(data, indent=1, ensure_ascii=False) + "\n").encode("utf-8"))
    return path


def inventory_forms(predicate: str, type_pair: TypePair | None = None) -> dict:
    """How a predicate reads: the inventory's wording when it knows the predicate, else its own words."""
    inventory = _inventory()
    if inventory is None:
        return default_forms(predicate, type_pair)
    return inventory.forms(predicate, type_pair)


_inventory_cache: list = []


def _inventory():
    """The bundled inventory, only for how known predicates read in text (public data)."""
    if not _inventory_cache:
        try:
            _inventory_cache.append(InventoryCandidates())
        except Exception:  # a broken inventory must not break LLM pools; plain words are used then
            _inventory_cache.append(None)
    return _inventory_cache[0]


class PoolFileCandidates:
    """Pools read from a public pool file or release report: the first K of each pair, no LLM involved."""

    name = "pool-file"

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._pairs = read_pool_file(self.path)

    def generate(self, type_pair: TypePair, k: int) -> CandidatePool:
        type_pair, k = checked_type_pair(type_pair), checked_k(k)
        predicates = self._pairs.get(pair_key(type_pair)) or self._read_by(type_pair)
        if predicates is None or len(predicates) < k:
            have = 0 if predicates is None else len(predicates)
            raise PoolError(
                f"{self.path} has {have} candidates for {type_pair[0]}->{type_pair[1]}, fewer than K={k}; "
                "generate the missing pool with --candidates llm or use --candidates inventory"
            )
        return CandidatePool(type_pair, tuple(predicates[:k]), source=f"pool-file:{self.path.name}")

    def _read_by(self, type_pair: TypePair) -> list[str] | None:
        """The pool a release report lists under a pair that reads ``type_pair``'s pool ("ORG|CITY" for ORG|GPE:
        :func:`~relguard.kinds.pool_pair`), where the report has no entry of its own for it."""
        return next(
            (found for key, found in self._pairs.items() if pool_pair(tuple(key.split("|"))) == type_pair), None
        )

    def forms(self, predicate: str, type_pair: TypePair | None = None) -> dict:
        return inventory_forms(predicate, type_pair)

    def content_hash(self) -> str | None:
        return canonical_sha256(self._pairs)

    def provenance(self) -> dict:
        return {"backend": self.name}
