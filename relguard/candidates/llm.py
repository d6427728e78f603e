"""The ``llm`` candidate backend: the paper's candidate prompt (Fig. 5) with every reply checked.

:meth:`LLMCandidates.generate` receives only the ordered type pair and K, and the prompt holds only those
(and, when it asks again, predicates the model itself proposed), so every pool is public (DESIGN
invariant 1). A reply is accepted candidate by candidate: lower-case snake_case, not on the banned vague
list, not already accepted, and not a near-synonym of an accepted one (d_R under the release's encoder
below ``synonym_threshold``). Until exactly K are accepted the model is asked again, listing what was
accepted and rejected, at most ``max_attempts`` calls; then a :class:`PoolError` says what went wrong.

Pools are cached on disk by (model, type pair, K, prompt version) and can be exported to a public pool file
(:meth:`LLMCandidates.export`); :class:`PoolFileCandidates` (backend ``pool-file``) reproduces a release
from that file, or from a release's ``report.json``, without any LLM.
"""

from __future__ import annotations

import json
import re
import threading
from pathlib import Path
from typing import Any

from relguard.candidates.inventory import BANNED, SNAKE_CASE, checked_k, checked_type_pair, pair_key
from relguard.errors import PoolError
from relguard.llm import prompts
from relguard.llm.cache import JsonCache, key_of
from relguard.llm.client import LLMClient, LLMConfig, LLMError, Usage, get_client
from relguard.llm.schemas import FormsReply, PoolReply, parse
from relguard.types import CandidatePool, TypePair

#: d_R below this under the typed-sentence template counts as a near-synonym. Measured with
#: all-MiniLM-L6-v2: works_for/employed_by 0.20, founded/established 0.13, acquired/bought 0.20,
#: member_of/belongs_to 0.18 fall under it; works_for/founded 0.36, born_in/lives_in 0.37 stay above.
SYNONYM_THRESHOLD = 0.25
MAX_ATTEMPTS = 4
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
    from relguard.io import atomic_write

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


def _default_forms(predicate: str, type_pair: TypePair | None = None) -> dict:
    inventory = _inventory()
    if inventory is None:
        return {"clause": predicate.replace("_", " "), "noun": None}
    return inventory.forms(predicate, type_pair)


_inventory_cache: list = []


def _inventory():
    """The bundled inventory, only for how known predicates read in text (public data)."""
    if not _inventory_cache:
        try:
            from relguard.candidates.inventory import InventoryCandidates

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
        predicates = self._pairs.get(pair_key(type_pair))
        if predicates is None or len(predicates) < k:
            have = 0 if predicates is None else len(predicates)
            raise PoolError(
                f"{self.path} has {have} candidates for {type_pair[0]}->{type_pair[1]}, fewer than K={k}; "
                "generate the missing pool with --candidates llm or use --candidates inventory"
            )
        return CandidatePool(type_pair, tuple(predicates[:k]), source=f"pool-file:{self.path.name}")

    def forms(self, predicate: str, type_pair: TypePair | None = None) -> dict:
        return _default_forms(predicate, type_pair)


class LLMCandidates:
    """Type-conditioned pools from an LLM (Fig. 5), validated, deduplicated by meaning and cached."""

    name = "llm"

    def __init__(
        self,
        config: LLMConfig | None = None,
        *,
        client: LLMClient | None = None,
        encoder: str | Any = "all-MiniLM-L6-v2",
        synonym_threshold: float = SYNONYM_THRESHOLD,
        max_attempts: int = MAX_ATTEMPTS,
        pool_file: str | Path | None = None,
        verbalize: bool = False,
        cache: bool = True,
        cache_root: str | Path | None = None,
        **options: Any,
    ) -> None:
        if max_attempts < 1:
            raise PoolError(f"max_attempts must be >= 1, got {max_attempts}")
        self.config = config or (client.config if client else LLMConfig.from_env(**options))
        self._client = client or get_client(self.config)
        self._encoder = encoder
        self.synonym_threshold = synonym_threshold
        self.max_attempts = max_attempts
        self.verbalize = verbalize
        self.usage = Usage()
        self._cache = JsonCache(cache_root, "pools", enabled=cache)
        self._forms_cache = JsonCache(cache_root, "forms", enabled=cache)
        self._file = read_pool_file(pool_file) if pool_file and Path(pool_file).exists() else {}
        self._pools: dict[TypePair, CandidatePool] = {}
        self._origin: dict[TypePair, str] = {}
        self._forms: dict[str, dict] = {}
        self._lock = threading.Lock()
        self.source = f"llm:{self.config.model}@{prompts.CANDIDATES_VERSION}"

    @property
    def client(self) -> LLMClient:
        return self._client

    @property
    def encoder(self) -> Any:
        if isinstance(self._encoder, str):
            from relguard.embed import load_encoder

            self._encoder = load_encoder(self._encoder)
        return self._encoder

    def cache_key(self, type_pair: TypePair, k: int) -> str:
        return key_of("pool", self.config.model, list(type_pair), k, prompts.CANDIDATES_VERSION)

    def is_cached(self, type_pair: TypePair, k: int) -> bool:
        return pair_key(type_pair) in self._file or self._cache.get(self.cache_key(type_pair, k)) is not None

    def generate(self, type_pair: TypePair, k: int) -> CandidatePool:
        """Exactly K public predicates for ``type_pair``: from the pool file, the disk cache or the model."""
        type_pair, k = checked_type_pair(type_pair), checked_k(k)
        from_file = self._file.get(pair_key(type_pair))
        if from_file is not None and len(from_file) >= k:
            return self._keep(type_pair, tuple(from_file[:k]), "file")
        cached = self._cache.get(self.cache_key(type_pair, k))
        if cached is not None and len(cached.get("predicates", [])) == k:
            self.usage.add("candidates", cache_hits=1)
            return self._keep(type_pair, tuple(cached["predicates"]), "cache")
        predicates = self._ask(type_pair, k)
        self._cache.put(
            self.cache_key(type_pair, k),
            {
                "model": self.config.model,
                "type_pair": list(type_pair),
                "k": k,
                "prompt_version": prompts.CANDIDATES_VERSION,
                "predicates": list(predicates),
            },
        )
        return self._keep(type_pair, predicates, "llm")

    def _keep(self, type_pair: TypePair, predicates: tuple[str, ...], origin: str) -> CandidatePool:
        pool = CandidatePool(type_pair, predicates, source=self.source)
        with self._lock:
            self._pools[type_pair] = pool
            self._origin[type_pair] = origin
        return pool

    def _ask(self, type_pair: TypePair, k: int) -> tuple[str, ...]:
        accepted: list[str] = []
        rejected: list[str] = []
        for _ in range(self.max_attempts):
            messages = prompts.candidate_messages(type_pair, k, accepted=accepted, rejected=rejected)
            reply = self.client.ask_json(
                messages, lambda t: parse(t, PoolReply), purpose="candidates", usage=self.usage
            )
            rejected = []
            for raw in reply.relation_pool:
                if len(accepted) == k:
                    break
                reason = self._reject_reason(raw, accepted, type_pair)
                if reason is None:
                    accepted.append(raw.strip())
                elif reason:
                    rejected.append(reason)
            if rejected:
                self.usage.add("candidates", rejected_candidates=len(rejected))
            if len(accepted) == k:
                return tuple(accepted)
        raise PoolError(
            f"model {self.config.model!r} gave {len(accepted)} acceptable candidates for "
            f"{type_pair[0]}->{type_pair[1]}, not K={k}, after {self.max_attempts} tries (last rejected: "
            f"{'; '.join(rejected) or 'none'}); lower K, raise synonym_threshold, or use --candidates inventory"
        )

    def _reject_reason(self, raw: Any, accepted: list[str], type_pair: TypePair) -> str | None:
        """None to accept; "" to skip silently (a repeat); else why it was rejected, for the next prompt."""
        if not isinstance(raw, str):
            return f"{raw!r} (not a string)"
        predicate = raw.strip()
        if predicate in accepted:
            return ""
        if not SNAKE_CASE.match(predicate):
            return f"{predicate} (not lower-case snake_case)"
        if predicate in BANNED:
            return f"{predicate} (too vague)"
        if accepted:
            distances = self.encoder.distances([predicate], accepted, type_pair)[0]
            nearest = int(distances.argmin())
            if distances[nearest] < self.synonym_threshold:
                return f"{predicate} (near-synonym of {accepted[nearest]})"
        return None

    # -- verbalization (optional) and export

    def forms(self, predicate: str, type_pair: TypePair | None = None) -> dict:
        """How a *sampled* predicate reads; with ``verbalize`` the model is asked, from the predicate alone."""
        if not self.verbalize:
            return _default_forms(predicate, type_pair)
        with self._lock:
            if predicate in self._forms:
                return self._forms[predicate]
            pair = next((p for p, pool in sorted(self._pools.items()) if predicate in pool.predicates), None)
        if pair is None:
            return _default_forms(predicate)
        key = key_of("forms", self.config.model, prompts.FORMS_VERSION, predicate, list(pair))
        cached = self._forms_cache.get(key)
        if cached is not None:
            self.usage.add("verbalization", cache_hits=1)
            result = cached
        else:
            try:
                reply = self.client.ask_json(
                    prompts.forms_messages(predicate, pair), _forms_reply, purpose="verbalization", usage=self.usage
                )
                result = {"clause": reply.clause.strip(), "noun": (reply.noun or "").strip() or None}
                self._forms_cache.put(key, result)
            except LLMError:
                self.usage.add("verbalization", fallbacks=1)
                result = _default_forms(predicate)
        with self._lock:
            self._forms[predicate] = result
        return result

    def pools(self) -> dict[str, list[str]]:
        with self._lock:
            return {pair_key(pair): list(pool.predicates) for pair, pool in self._pools.items()}

    def export(self, path: str | Path) -> Path:
        """Write every pool this backend produced or read as a public pool file (no document data in it)."""
        merged = {**self._file, **self.pools()}
        return write_pool_file(
            path, merged, source=self.source, model=self.config.model, prompt_version=prompts.CANDIDATES_VERSION
        )

    def provenance(self) -> dict:
        with self._lock:
            origins = dict(sorted((pair_key(p), o) for p, o in self._origin.items()))
        versions = {"candidates": prompts.CANDIDATES_VERSION}
        if self.verbalize:
            versions["verbalization"] = prompts.FORMS_VERSION
        return {
            "backend": "llm",
            "model": self.config.model,
            "prompt_versions": versions,
            "synonym_threshold": self.synonym_threshold,
            "calls": self.usage.total("calls"),
            "prompt_tokens": self.usage.total("prompt_tokens"),
            "completion_tokens": self.usage.total("completion_tokens"),
            "usage": self.usage.snapshot(),
            "pool_origin": origins,
        }


_WORDS = re.compile(r"^[A-Za-z][A-Za-z' -]*$")


def _forms_reply(text: str) -> FormsReply:
    from relguard.llm.schemas import InvalidReply

    reply = parse(text, FormsReply)
    for value in (reply.clause, reply.noun or "a"):
        if not _WORDS.match(value.strip()) or len(value.split()) > 8:
            raise InvalidReply(f"{value!r} is not a short phrase of words")
    return reply
