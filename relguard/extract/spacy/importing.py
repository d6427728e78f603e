"""Importing spaCy without torch, for the pipelines that never run it.

thinc, spaCy's machine-learning layer, imports torch when it is itself imported, whenever torch is installed
(``thinc.compat``: ``try: import torch``), only to learn whether torch layers and devices are available. RelGuard
installs torch for sentence-transformers' reference runtime, yet the default encoder runs on ONNX Runtime and the
default pipeline is thinc's own layers, so every process that extracts or rewrites — each CLI run, local worker,
Ray actor and the app — paid for a torch it never called: about half of spaCy's import.

:func:`import_spacy` imports spaCy with torch's import refused *in this thread only* when the pipeline about to
be loaded names no architecture outside spaCy's own (:func:`torch_free`): thinc takes torch for absent, as it
does on a machine without it. torch stays importable afterwards (sentence-transformers' runtime imports it as
usual), and another thread importing torch meanwhile is never refused. A pipeline with a transformer or any other
package's layer, or a process that has already imported torch or spaCy, imports spaCy the usual way.
``tests/test_spacy_internals.py`` fails when thinc stops taking a refused torch for absent or when the refusal
outlives the import.
"""

from __future__ import annotations

import importlib.util
import re
import sys
import threading
from pathlib import Path
from types import ModuleType

_ARCHITECTURE = re.compile(r'^@(?:architectures|layers)\s*=\s*"([^"]+)"', re.M)


def torch_free(names: list[str]) -> bool:
    """Whether the first of ``names`` (pipeline packages or directories, in the order the loader tries them) that
    is installed names only spaCy's own architectures and layers in its config: then nothing of it runs torch."""
    for name in names:
        config = _config(name)
        if config is None:
            continue
        try:
            text = config.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return False
        found = _ARCHITECTURE.findall(text)
        return bool(found) and all(value.startswith("spacy.") for value in found) and "torch" not in text.lower()
    return False


def import_spacy(*, without_torch: bool) -> ModuleType:
    """spaCy, imported with torch refused to this thread while it imports when ``without_torch`` and neither
    torch nor spaCy is imported yet."""
    if not without_torch or "torch" in sys.modules or "spacy" in sys.modules:
        import spacy

        return spacy
    refusal = _TorchRefused(threading.get_ident())
    sys.meta_path.insert(0, refusal)
    try:
        import spacy
    finally:
        sys.meta_path.remove(refusal)
    return spacy


class _TorchRefused:
    """A meta-path finder that refuses torch, and only to the thread that installed it."""

    def __init__(self, thread: int) -> None:
        self.thread = thread

    def find_spec(self, fullname: str, path=None, target=None):
        if (fullname == "torch" or fullname.startswith("torch.")) and threading.get_ident() == self.thread:
            raise ModuleNotFoundError(f"No module named {fullname!r} (refused while spaCy imports)", name=fullname)
        return None


def _config(name: str) -> Path | None:
    path = Path(name)
    if path.is_dir():
        return path / "config.cfg" if (path / "config.cfg").is_file() else None
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    for location in spec.submodule_search_locations:
        found = sorted(Path(location).glob("*/config.cfg"))
        if found:
            return found[0]
    return None
