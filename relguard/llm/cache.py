"""A small on-disk JSON cache for LLM results, so a long run can resume and pools can be reused.

Keys are SHA-256 of the JSON of their parts (model, prompt version, inputs); values are JSON files written
atomically, so a run killed mid-corpus leaves every finished entry readable and no half-written one.
The ``extract`` namespace holds what was extracted from private documents: it is created with owner-only
permissions and should be treated like the documents themselves (``cache=False`` turns it off).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from relguard.embed import cache_dir
from relguard.io import atomic_write
from relguard.io.digest import canonical_sha256


def default_root() -> Path:
    """``$RELGUARD_LLM_CACHE``, else ``llm/`` under the encoder's cache root (``$RELGUARD_CACHE``)."""
    return Path(os.environ.get("RELGUARD_LLM_CACHE") or cache_dir() / "llm")


def key_of(*parts: Any) -> str:
    return canonical_sha256(list(parts))


class JsonCache:
    """``get``/``put`` JSON values under ``root/namespace/<key>.json``; a disabled cache stores nothing."""

    def __init__(self, root: str | Path | None, namespace: str, *, enabled: bool = True, private: bool = False):
        self.enabled = enabled
        self.folder = Path(root if root is not None else default_root()) / namespace
        self.private = private

    def get(self, key: str) -> Any | None:
        if not self.enabled:
            return None
        path = self.folder / f"{key}.json"
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None

    def put(self, key: str, value: Any) -> None:
        if not self.enabled:
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        if self.private:
            os.chmod(self.folder, 0o700)
        path = self.folder / f"{key}.json"
        atomic_write(path, (json.dumps(value, ensure_ascii=False) + "\n").encode("utf-8"))
        if self.private:
            os.chmod(path, 0o600)
