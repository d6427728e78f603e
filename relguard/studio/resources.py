"""The process-wide parts the app shares across sessions, and the content keys its caches use — plain Python.

The expensive backends are loaded once per process (:class:`Resources`); extractions are kept by the content of
each document (:class:`ExtractionCache`), so a page rerun or another session with the same text reuses them. A
content key is a digest of the documents: it is a cache key only, never written into a public file.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass

from relguard.candidates.cache import PoolCache
from relguard.protocols import Encoder, Extractor, PoolGenerator
from relguard.types import Document, DocumentExtraction

#: Extractions kept per process, keyed by content: a page rerun or another session with the same text reuses them.
EXTRACTION_CACHE_SIZE = 4096


def content_key(documents: Sequence[Document]) -> str:
    """A digest of documents' names and texts: the cache key of everything computed from them."""
    digest = hashlib.sha256()
    for d in documents:
        digest.update(d.name.encode() + b"\0" + d.text.encode() + b"\0")
    return digest.hexdigest()


def document_key(document: Document) -> str:
    return content_key([document])


class ExtractionCache(OrderedDict):
    """A bounded, content-keyed store of extractions shared by every session of one app process."""

    def __init__(self, size: int = EXTRACTION_CACHE_SIZE) -> None:
        super().__init__()
        self.size = size

    def __setitem__(self, key: str, value: DocumentExtraction) -> None:
        super().__setitem__(key, value)
        self.move_to_end(key)
        while len(self) > self.size:
            self.popitem(last=False)


@dataclass(frozen=True)
class Resources:
    """The process-wide, expensive parts the app loads once: the offline backends and the extraction cache."""

    extractor: Extractor
    candidates: PoolGenerator
    encoder: Encoder
    cache: ExtractionCache
    pools: PoolCache | None = None
