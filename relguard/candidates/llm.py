"""The ``llm`` candidate backend: a type-conditioned pool prompt (Fig. 5, or its compact form) with every reply checked.

:meth:`LLMCandidates.generate` receives only the ordered type pair and K, and the prompt holds only those
(and, when it asks again, predicates the model itself proposed), so every pool is public (DESIGN
invariant 1). The prompt set follows ``LLMConfig.prompt_set``: ``paper`` sends Fig. 5 verbatim, ``compact`` a
one-shot that small models follow; both ask for exactly K items, which a local server enforces while decoding
(a small model otherwise returned 9 of 10 in most replies). A reply is accepted candidate by candidate:
lower-case snake_case, not on the banned vague list (also with a leading ``is_``/``has_``, which a small model
adds to get past it: ``is_part_of``), not already accepted, and not a near-synonym of an accepted one (d_R under
the release's encoder below ``synonym_threshold``). Until exactly K are accepted the model is asked again,
listing what was accepted and rejected, at most ``max_attempts`` calls; then a :class:`PoolError` says what went
wrong.

Pools are cached on disk by (model, type pair, K, prompt version) and can be exported to a public pool file
(:meth:`LLMCandidates.export`); :class:`~relguard.candidates.pool_file.PoolFileCandidates` (backend
``pool-file``) reproduces a release from that file, or from a release's ``report.json``, without any LLM.
"""

from __future__ import annotations

import re
import threading
from pathlib import Path
from typing import Any

from relguard.candidates.inventory import BANNED, SNAKE_CASE, checked_k, checked_type_pair, pair_key
from relguard.candidates.pool_file import inventory_forms, read_pool_file, write_pool_file
from relguard.errors import PoolError
from relguard.llm import formats, prompts
from relguard.llm.cache import JsonCache, key_of
from relguard.llm.client import LLMClient, LLMConfig, LLMError, Usage, get_client
from relguard.llm.replies import read_pool
from relguard.llm.schemas import FormsReply, InvalidReply, parse
from relguard.settings import DEFAULT_ENCODER
from relguard.types import CandidatePool, TypePair

#: d_R below this under the typed-sentence template counts as a near-synonym. Measured with
#: all-MiniLM-L6-v2: works_for/employed_by 0.20, founded/established 0.13, acquired/bought 0.20,
#: member_of/belongs_to 0.18 fall under it; works_for/founded 0.36, born_in/lives_in 0.37 stay above.
SYNONYM_THRESHOLD = 0.25
MAX_ATTEMPTS = 4


class LLMCandidates:
    """Type-conditioned pools from an LLM (Fig. 5), validated, deduplicated by meaning and cached."""

    name = "llm"

    def __init__(
        self,
        config: LLMConfig | None = None,
        *,
        client: LLMClient | None = None,
        encoder: str | Any = DEFAULT_ENCODER,
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
        self.prompt_set = self.config.prompt_set
        self.prompt_version = prompts.candidates_version(self.prompt_set)
        self.source = f"llm:{self.config.model}@{self.prompt_version}"

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
        return key_of("pool", self.config.model, list(type_pair), k, self.prompt_version)

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
                "prompt_version": self.prompt_version,
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
            messages = prompts.candidate_messages(
                type_pair, k, accepted=accepted, rejected=rejected, prompt_set=self.prompt_set
            )
            reply = self.client.ask_json(
                messages,
                read_pool,
                purpose="candidates",
                usage=self.usage,
                schema=formats.pool_schema(k),
                max_tokens=60 + 12 * k,
            )
            rejected = []
            for raw in reply:
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
        if predicate in BANNED or re.sub(r"^(is|has|was|are)_", "", predicate) in BANNED:
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
            return inventory_forms(predicate, type_pair)
        with self._lock:
            if predicate in self._forms:
                return self._forms[predicate]
            pair = next((p for p, pool in sorted(self._pools.items()) if predicate in pool.predicates), None)
        if pair is None:
            return inventory_forms(predicate)
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
                result = inventory_forms(predicate)
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
            path, merged, source=self.source, model=self.config.model, prompt_version=self.prompt_version
        )

    def content_hash(self) -> str | None:
        """None: an LLM has no fixed inventory; the pools it gave are in the report and its pool file."""
        return None

    def provenance(self) -> dict:
        with self._lock:
            origins = dict(sorted((pair_key(p), o) for p, o in self._origin.items()))
        versions = {"candidates": self.prompt_version}
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

    reply = parse(text, FormsReply)
    for value in (reply.clause, reply.noun or "a"):
        if not _WORDS.match(value.strip()) or len(value.split()) > 8:
            raise InvalidReply(f"{value!r} is not a short phrase of words")
    return reply
