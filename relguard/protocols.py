"""The typed contracts of the backend kinds: what the pipeline may call, and nothing else.

Every backend, built-in or a user's, implements one of these; the pipeline and the audit call only what is
declared here, so a backend never needs to be probed with ``getattr``. Pools are public by signature: a
:class:`PoolGenerator` receives the ordered type pair and K, never a document, name or relation (invariant 1).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Protocol, runtime_checkable

import numpy as np

from relguard.types import CandidatePool, Document, DocumentExtraction, SanitizedDocument, TypePair


@runtime_checkable
class Extractor(Protocol):
    """Documents in; sentences, typed entities and triples with exact relation spans out."""

    name: str
    model_id: str

    def extract_many(self, documents: Iterable[Document]) -> Iterator[DocumentExtraction]: ...

    def provenance(self) -> dict:
        """What the report may say about this backend (see ``PUBLIC_BACKEND_FIELDS``) plus its usage."""
        ...


@runtime_checkable
class PoolGenerator(Protocol):
    """Exactly K public predicates for an ordered type pair, and the public wordings of a predicate."""

    name: str

    def generate(self, type_pair: TypePair, k: int) -> CandidatePool: ...

    def forms(self, predicate: str, type_pair: TypePair) -> Mapping[str, str | None]: ...

    def content_hash(self) -> str | None:
        """The hash of the backend's whole public inventory, or None when it has none (an LLM)."""
        ...

    def provenance(self) -> dict: ...


@runtime_checkable
class Encoder(Protocol):
    """Unit-normalized embeddings of the fixed typed sentences of predicates, and d_R between them.

    ``model_id`` names the function d_R is computed with; ``runtime`` names what computes it (for the report).
    Two encoders with one ``model_id`` must agree within max |Δd_R| ≤ 1e-5 (DESIGN "Offline default stack").
    """

    model_id: str
    runtime: str

    def embed_texts(self, texts: Sequence[str]) -> np.ndarray: ...

    def embed_predicates(self, predicates: Iterable[str], type_pair: TypePair) -> np.ndarray: ...

    def distances(self, originals: Sequence[str], candidates: Sequence[str], type_pair: TypePair) -> np.ndarray: ...


@runtime_checkable
class Sanitizer(Protocol):
    """A seed paper's sanitizer, for comparison only: documents in, rewritten documents out (no guarantee here)."""

    settings: object

    def sanitize(
        self, documents: Sequence[Document], *, queries: Sequence[str] | None = None, seed: int | None = None
    ) -> tuple[SanitizedDocument, ...]: ...
