"""What every encoder runtime shares: one embedding per distinct text, batches of one token length, d_R.

A runtime (torch, ONNX Runtime) supplies two things — how many tokens a text has and one forward pass over texts
of one length — and inherits the rest, so every runtime batches, caches and measures d_R the same way.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator, Sequence

import numpy as np

from relguard.embed.text import normalize, pairwise_distances, predicate_text
from relguard.types import TypePair

#: Texts per forward pass; any value gives the same floats (:func:`same_length_batches`).
BATCH_SIZE = 16


def same_length_batches(texts: Sequence[str], token_count: Callable[[Sequence[str]], list[int]]) -> Iterator[list[str]]:
    """``texts`` in batches whose members have the same number of tokens, so none is padded.

    A padded batch changes the shapes the attention and pooling reduce over, and with them the last bits of
    every row: the same text embedded beside longer ones differed by up to 1.7e-7. A batch of fewer rows takes
    other matrix kernels for short texts and differs too, so every runtime's forward pass fills each batch to
    :data:`BATCH_SIZE` rows (:func:`filled`). Then a row's floats depend only on its own text — not on the batch
    it came in, the order, the engine or the thread count — so d_R is one fixed function of the two predicates
    (DESIGN invariant 3), wherever it is computed.
    """
    by_length: dict[int, list[str]] = {}
    for text, count in zip(texts, token_count(texts) if texts else [], strict=True):
        by_length.setdefault(count, []).append(text)
    for length in sorted(by_length):
        group = by_length[length]
        for start in range(0, len(group), BATCH_SIZE):
            yield group[start : start + BATCH_SIZE]


def filled(texts: Sequence[str]) -> list[str]:
    """``texts`` filled to :data:`BATCH_SIZE` rows with repeats of the last, so every pass has one shape."""
    return list(texts) + [texts[-1]] * (BATCH_SIZE - len(texts))


class CachedEncoder:
    """Unit-normalized float64 embeddings with a per-text cache; subclasses give ``_token_count`` and ``_forward``.

    ``model_id`` names the function (the model and its weights' hash): two runtimes with the same ``model_id``
    compute the same d_R within 1e-5 (a test holds them to it). ``runtime`` names how it is computed, for the
    report. ``encoded`` counts the texts run through the model, so a caller can tell a cache was used.
    """

    name: str
    runtime: str
    weights_sha256: str

    def __init__(self, *, name: str, weights_sha256: str, runtime: str) -> None:
        self.name = name
        self.weights_sha256 = weights_sha256
        self.runtime = runtime
        self.encoded = 0
        self._cache: dict[str, np.ndarray] = {}
        self._passages: dict[str, np.ndarray] = {}
        self._lock = threading.Lock()

    @property
    def model_id(self) -> str:
        return f"sentence-transformers:{self.name}@sha256:{self.weights_sha256}"

    @property
    def dimension(self) -> int:
        raise NotImplementedError

    def _token_count(self, texts: Sequence[str]) -> list[int]:
        raise NotImplementedError

    def _forward(self, texts: Sequence[str]) -> np.ndarray:
        """One pass over texts of one token length (at most :data:`BATCH_SIZE`), pooled, not yet normalized."""
        raise NotImplementedError

    def embed_texts(self, texts: Sequence[str]) -> np.ndarray:
        """Unit-normalized embeddings of ``texts``; each distinct text is encoded once per encoder."""

        def encode(missing: list[str]) -> Iterator[tuple[str, np.ndarray]]:
            self.encoded += len(missing)
            for group in same_length_batches(missing, self._token_count):
                yield from zip(group, normalize(self._forward(group)), strict=True)

        return self._cached(texts, self._cache, encode)

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        """Embeddings of sentences and documents for evaluation metrics, never for d_R (runtimes may batch faster)."""
        return self.embed_texts(texts)

    def batches(self, texts: Sequence[str]) -> list[list[str]]:
        """``texts`` in the batches :meth:`embed_texts` would run them in (one token length, at most
        :data:`BATCH_SIZE` each), so work split by whole batches is the same passes wherever it runs."""
        return list(same_length_batches(texts, self._token_count))

    def missing(self, texts: Iterable[str]) -> list[str]:
        """The distinct ``texts`` this encoder has not embedded yet, in first-seen order."""
        with self._lock:
            return [t for t in dict.fromkeys(texts) if t not in self._cache]

    def preload(self, texts: Sequence[str], vectors: np.ndarray) -> None:
        """Take embeddings computed earlier by this same function (a disk cache keyed by ``model_id``)."""
        with self._lock:
            self._cache.update(zip(texts, np.asarray(vectors, dtype=np.float64), strict=True))

    def _cached(self, texts: Sequence[str], cache: dict[str, np.ndarray], encode) -> np.ndarray:
        with self._lock:
            missing = list(dict.fromkeys(t for t in texts if t not in cache))
            if missing:
                cache.update(encode(missing))
            if not texts:
                return np.zeros((0, self.dimension))
            return np.stack([cache[t] for t in texts])

    def embed_predicates(self, predicates: Iterable[str], type_pair: TypePair) -> np.ndarray:
        """z(r) for each predicate under ``type_pair`` (rows in input order)."""
        return self.embed_texts([predicate_text(p, type_pair) for p in predicates])

    def distances(self, originals: Sequence[str], candidates: Sequence[str], type_pair: TypePair) -> np.ndarray:
        """(len(originals), len(candidates)) matrix of d_R under one type pair."""
        return pairwise_distances(
            self.embed_predicates(originals, type_pair), self.embed_predicates(candidates, type_pair)
        )
