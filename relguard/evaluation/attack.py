"""The offline targeted reconstruction attacker (paper §4.3, App. E).

It sees the whole sanitized corpus — everything a GraphRAG index built from it
could reveal, so an upper bound for any black-box attacker that queries such an
index — and re-extracts triples from it with an extractor (by default the
strongest available offline one, the spaCy extractor). A target's predicted
one-hop neighbourhood is every extracted triple incident to it. Extraction is
the expensive part and sanitized texts repeat across releases (documents with
no relation are never changed), so results are cached per distinct text.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

from relguard import registry
from relguard.evaluation.metrics import Fact
from relguard.protocols import Extractor
from relguard.types import Document


class TargetedAttacker:
    """Re-extracts (subject, predicate, object) facts from released texts, with a per-text cache."""

    def __init__(self, extractor: str | Extractor = "spacy") -> None:
        self.extractor: Extractor = registry.create("extractor", extractor) if isinstance(extractor, str) else extractor
        self.name = self.extractor.model_id
        self._cache: dict[str, tuple[Fact, ...]] = {}
        self.extracted = 0

    @staticmethod
    def _key(text: str) -> str:
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    def facts(self, texts: Sequence[str]) -> list[Fact]:
        """Every fact the extractor finds in ``texts`` (the released corpus), duplicates included."""
        keys = [self._key(t) for t in texts]
        missing = {k: t for k, t in zip(keys, texts, strict=True) if k not in self._cache}
        if missing:
            documents = [Document(name=f"doc-{i}", text=t) for i, t in enumerate(missing.values())]
            for key, result in zip(missing, self.extractor.extract_many(documents), strict=True):
                self._cache[key] = tuple(Fact(t.subject, t.predicate, t.object, t.type_pair) for t in result.triples)
            self.extracted += len(missing)
        return [fact for key in keys for fact in self._cache[key]]

    def seed(self, texts: Sequence[str], extraction: Any) -> None:
        """Reuse an existing extraction of the same texts with the same extractor (saves one pass)."""
        for text, result in zip(texts, extraction.documents, strict=True):
            self._cache.setdefault(
                self._key(text), tuple(Fact(t.subject, t.predicate, t.object, t.type_pair) for t in result.triples)
            )
