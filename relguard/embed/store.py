"""Embeddings of public texts kept on disk, so each is computed once per machine, not once per process.

Only texts that are public by construction may be stored — a candidate inventory's typed sentences depend on the
inventory and the template, never on a document. An original relation's sentence is never written here: it would
leave a trace of the corpus outside the release. A file is keyed by the public content's hash, the encoder's
``model_id`` (model and weights' hash), its runtime and the template version, and holds the texts beside their
float64 vectors, so a reload gives the bits a fresh computation on the same runtime gives.
"""

from __future__ import annotations

import json
import os
import tempfile
import zipfile
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from relguard.embed.base import CachedEncoder
from relguard.embed.text import TEMPLATE_VERSION
from relguard.embed.weights import cache_dir
from relguard.io.digest import sha256_bytes


def store_path(encoder: CachedEncoder, *, content_hash: str, folder: Path | None = None) -> Path:
    """The file for ``content_hash`` embedded by ``encoder`` (under ``<cache>/embeddings`` by default)."""
    key = {"content": content_hash, "model": encoder.model_id, "runtime": encoder.runtime, "template": TEMPLATE_VERSION}
    digest = sha256_bytes(json.dumps(key, sort_keys=True).encode())
    folder = Path(folder) if folder is not None else cache_dir() / "embeddings"
    return folder / f"{content_hash[:16]}-{digest[:16]}-{encoder.runtime}.npz"


def public_embeddings(
    encoder: CachedEncoder, texts: Sequence[str], *, content_hash: str, folder: Path | None = None
) -> int:
    """Give ``encoder`` the embeddings of the public ``texts`` from disk, computing and storing them once.

    Returns how many texts were embedded now (0 when the file held them all or the encoder already had them).
    A missing, unreadable or mismatched file is computed again and replaced atomically; a cache folder that
    cannot be written only costs the next process the same work.
    """
    texts = sorted(set(texts))
    if not encoder.missing(texts):
        return 0
    path = store_path(encoder, content_hash=content_hash, folder=folder)
    stored = _read(path)
    if stored is not None and stored[0] == texts:
        encoder.preload(texts, stored[1])
        return 0
    missing = len(encoder.missing(texts))
    vectors = encoder.embed_texts(texts)
    _write(path, texts, vectors)
    return missing


def _read(path: Path) -> tuple[list[str], np.ndarray] | None:
    try:
        with np.load(path, allow_pickle=False) as data:
            texts, vectors = [str(t) for t in data["texts"]], np.asarray(data["vectors"], dtype=np.float64)
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile):
        return None
    if vectors.ndim != 2 or len(vectors) != len(texts) or not np.all(np.isfinite(vectors)):
        return None
    return texts, vectors


def _write(path: Path, texts: list[str], vectors: np.ndarray) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, staged = tempfile.mkstemp(prefix=f".{path.stem}.", suffix=".npz.part", dir=path.parent)
        try:
            with os.fdopen(handle, "wb") as stream:
                np.savez(stream, texts=np.array(texts), vectors=vectors)
            os.replace(staged, path)
        finally:
            Path(staged).unlink(missing_ok=True)
    except OSError:
        return
