"""The torch runtime: the model run by sentence-transformers itself, the reference every other runtime must match."""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence

import numpy as np

from relguard.embed.base import CachedEncoder, filled
from relguard.embed.text import normalize
from relguard.embed.weights import DEFAULT_MODEL, resolve_model
from relguard.errors import ModelError

RUNTIME = "torch"


def load_sentence_transformer(path: str, *, label: str, device: str = "cpu"):
    """A ``SentenceTransformer`` from a folder or name, offline, quiet; a clear error when it cannot load."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    try:
        from sentence_transformers import SentenceTransformer
        from transformers.utils import logging as transformers_logging
    except ImportError as exc:
        raise ModelError(
            "the torch encoder runtime needs sentence-transformers and torch (pip install relguard)"
        ) from exc
    transformers_logging.set_verbosity_error()
    transformers_logging.disable_progress_bar()
    try:
        return SentenceTransformer(path, device=device)
    except Exception as exc:
        raise ModelError(f"cannot load encoder {label!r}: {exc}") from exc


class SentenceTransformerEncoder(CachedEncoder):
    """A sentence-transformers model on torch with a per-text embedding cache.

    ``model`` is ``"all-MiniLM-L6-v2"`` (the bundled, verified copy) or any name or path sentence-transformers
    accepts. Embeddings are unit-normalized float64 so that d_R is computed exactly as in Eq. 5.
    """

    def __init__(self, model: str = DEFAULT_MODEL, *, device: str = "cpu") -> None:
        source = resolve_model(model)
        self._model = load_sentence_transformer(str(source.path), label=model, device=device)
        super().__init__(name=model, weights_sha256=source.weights_sha256, runtime=RUNTIME)

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        """Unit-normalized embeddings of sentences and documents for evaluation metrics, never for d_R.

        sentence-transformers pads each batch to its longest text, which is faster for long texts of many
        lengths but leaves the last bits of a row dependent on its batch; d_R goes through :meth:`embed_texts`.
        """

        def encode(missing: list[str]) -> Iterator[tuple[str, np.ndarray]]:
            raw = self._model.encode(missing, batch_size=64, convert_to_numpy=True, show_progress_bar=False)
            return zip(missing, normalize(raw), strict=True)

        return self._cached(texts, self._passages, encode)

    def _token_count(self, texts: Sequence[str]) -> list[int]:
        tokenizer = self._model.tokenizer
        limit = self._model.max_seq_length
        ids = tokenizer(list(texts), padding=False, truncation=True, max_length=limit)["input_ids"]
        return [len(row) for row in ids]

    def _forward(self, texts: Sequence[str]) -> np.ndarray:
        """One forward pass, filled to the batch size with repeats: no padding and one shape per token length.

        The pass runs on one intra-op thread whatever the process uses: on AVX-512 processors torch's matrix
        products split their sums by thread count, and two threads moved rows by ~1e-7 against one, so the
        reference d_R would have depended on the machine's cores (the ONNX runtime is thread-independent).
        """
        import torch

        rows = filled(texts)
        prepare = getattr(self._model, "preprocess", None) or self._model.tokenize
        features = {k: v.to(self._model.device) if hasattr(v, "to") else v for k, v in prepare(rows).items()}
        threads = torch.get_num_threads()
        torch.set_num_threads(1)
        try:
            with torch.inference_mode():
                output = self._model.forward(features)
        finally:
            torch.set_num_threads(threads)
        return output["sentence_embedding"].float().cpu().numpy()[: len(texts)]

    @property
    def dimension(self) -> int:
        getter = getattr(self._model, "get_embedding_dimension", None) or self._model.get_sentence_embedding_dimension
        return int(getter() or 0)
