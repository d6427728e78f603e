"""Entity types from canonical names alone (paper §5.2): one batched call, cached per name and model.

The typing call never sees a sentence or a predicate, so a name's type cannot depend on the relation's words;
it is cached per (model, prompt version, name), so one name has one type across the whole corpus and across
runs. Names go into the reply schema's ``enum`` in their grammar-safe spelling (:func:`formats.safe_name`) and are
mapped back here.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from pathlib import Path

from relguard.llm import formats, prompts
from relguard.llm.cache import JsonCache, key_of
from relguard.llm.client import LLMClient, Usage
from relguard.llm.locate import name_key
from relguard.llm.replies import read_types
from relguard.types import ENTITY_TYPES

TYPING_BATCH = 50
_TYPE_ALIASES = {t.replace("_", " "): t for t in ENTITY_TYPES} | {"ORGANIZATION": "ORG", "LOCATION": "LOC"}


def entity_type(value: str) -> str | None:
    """An inventory type from the model's spelling ("Person", "work of art"), or None if not in it."""
    upper = " ".join(value.replace("-", " ").split()).upper()
    if upper.replace(" ", "_") in ENTITY_TYPES:
        return upper.replace(" ", "_")
    return _TYPE_ALIASES.get(upper)


class NameTyper:
    """Types names through ``client`` (purpose ``typing`` in ``usage``); unusable items go to ``on_malformed``."""

    def __init__(
        self,
        client: LLMClient,
        usage: Usage,
        *,
        cache: bool = True,
        cache_root: str | Path | None = None,
        on_malformed: Callable[[int], None] = lambda count: None,
    ) -> None:
        self.client = client
        self.usage = usage
        self._cache = JsonCache(cache_root, "typing", enabled=cache)
        self._memo: dict[str, str | None] = {}
        self._lock = threading.Lock()
        self._on_malformed = on_malformed

    def _key(self, name: str) -> str:
        return key_of("typing", self.client.config.model, prompts.TYPING_VERSION, name)

    def __call__(self, names: Sequence[str]) -> dict[str, str | None]:
        """Name → inventory type, or None where the model gave none or NONE."""
        result: dict[str, str | None] = {}
        missing: list[str] = []
        for name in dict.fromkeys(names):
            with self._lock:
                memo = self._memo.get(self._key(name), "")
            if memo != "":
                result[name] = memo
                continue
            cached = self._cache.get(self._key(name))
            if cached is not None:
                self.usage.add("typing", cache_hits=1)
                result[name] = cached["type"]
            else:
                missing.append(name)
        for start in range(0, len(missing), TYPING_BATCH):
            batch = missing[start : start + TYPING_BATCH]
            safe = {formats.safe_name(n): n for n in batch}
            answered, bad = self.client.ask_json(
                prompts.typing_messages(list(safe)),
                read_types,
                purpose="typing",
                usage=self.usage,
                schema=formats.typing_schema(list(safe)),
                max_tokens=40 + 16 * len(batch),
            )
            if bad:
                self._on_malformed(bad)
            typed = {name_key(safe.get(n, n)): entity_type(t) for n, t in answered.items()}
            for name in batch:
                result[name] = typed.get(name_key(name))
                if name_key(name) in typed:
                    self._cache.put(self._key(name), {"name": name, "type": result[name]})
        with self._lock:
            for name, value in result.items():
                self._memo[self._key(name)] = value
        return result
