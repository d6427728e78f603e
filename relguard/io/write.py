"""Writing files: atomically, with the right permissions, and never outside the output folder.

A write goes to a temporary name and is renamed into place, so an interrupted run never leaves a partial file that
looks complete. A whole release is written through :class:`relguard.engine.sink.FolderSink`, which stages every
file the same way and renames them all at once.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from relguard.errors import OutputError

#: The mapping file's name (kept here so the writers can tell it from the public files).
CONFIDENTIAL_PREFIX = "CONFIDENTIAL-"


def file_mode(path: Path) -> int:
    """The permissions a finished file gets: a public file what the umask allows (it is meant to be shared);
    a ``CONFIDENTIAL-`` file its owner's alone (0600), as the temporary file was made."""
    if path.name.startswith(CONFIDENTIAL_PREFIX):
        return 0o600
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def atomic_write(path: Path, data: bytes, *, mode: int | None = None) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder and an atomic rename; ``mode`` the
    permissions it gets (default :func:`file_mode`; a confidential mapping under any name passes 0o600)."""
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
        try:
            with os.fdopen(handle, "wb") as stream:
                stream.write(data)
            os.chmod(temp, file_mode(path) if mode is None else mode)
            os.replace(temp, path)
        except BaseException:
            Path(temp).unlink(missing_ok=True)
            raise
    except OSError as exc:
        raise OutputError(f"{path}: cannot be written ({exc.strerror}); choose another --out folder") from exc


def safe_output_path(root: Path, name: str) -> Path:
    """``root / name`` but never outside ``root`` (names come from user files)."""
    root = Path(root).resolve()
    target = (root / name).resolve()
    if root != target and root not in target.parents:
        raise OutputError(f"refusing to write {name!r} outside the output folder {root}")
    return target
