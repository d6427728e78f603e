"""SHA-256 digests: of bytes, of a file read in blocks, and of a JSON value in one canonical form."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def sha256_file(path: str | Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def canonical_sha256(value: object) -> str:
    """The digest of ``value`` as sorted-key, ASCII JSON: equal data, equal digest, whatever its dict order."""
    return sha256_bytes(json.dumps(value, sort_keys=True, ensure_ascii=True).encode())
