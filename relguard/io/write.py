"""Writing results: atomic files, output paths that stay inside the output folder, documents laid out as input.

Writes go to a temporary name and are renamed into place, so an interrupted run never leaves a partial file that
looks complete.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path

from relguard.errors import OutputError
from relguard.types import Document

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


def atomic_write(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder and an atomic rename."""
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
        try:
            with os.fdopen(handle, "wb") as stream:
                stream.write(data)
            os.chmod(temp, file_mode(path))
            os.replace(temp, path)
        except BaseException:
            Path(temp).unlink(missing_ok=True)
            raise
    except OSError as exc:
        raise OutputError(f"{path}: cannot be written ({exc.strerror}); choose another --out folder") from exc


def atomic_write_all(files: Iterable[tuple[Path, bytes]]) -> list[Path]:
    """Write several files so that none appears under its final name unless all could be written.

    Every file is first written in full to a temporary ``.part`` name beside its target; only then are they
    renamed into place. A full disk, a write error or an interrupt while writing leaves no final-named file
    of this batch and removes the temporary ones (renames within a folder do not need free space).
    """
    staged: list[tuple[str, Path]] = []
    current = Path()
    try:
        for path, data in files:
            current = Path(path)
            current.parent.mkdir(parents=True, exist_ok=True)
            handle, temp = tempfile.mkstemp(prefix=f".{current.name}.", suffix=".part", dir=current.parent)
            staged.append((temp, current))
            with os.fdopen(handle, "wb") as stream:
                stream.write(data)
            os.chmod(temp, file_mode(current))
        for temp, path in staged:
            current = path
            os.replace(temp, path)
    except BaseException as exc:
        for temp, _ in staged:
            Path(temp).unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise OutputError(f"{current}: cannot be written ({exc.strerror}); choose another --out folder") from exc
        raise
    return [path for _, path in staged]


def safe_output_path(root: Path, name: str) -> Path:
    """``root / name`` but never outside ``root`` (names come from user files)."""
    root = Path(root).resolve()
    target = (root / name).resolve()
    if root != target and root not in target.parents:
        raise OutputError(f"refusing to write {name!r} outside the output folder {root}")
    return target


def serialize_documents(documents: Iterable[tuple[Document, str]]) -> dict[str, bytes]:
    """Sanitized texts laid out like their inputs: one file per text document, one .jsonl per source."""
    files: dict[str, list[str]] = {}
    single: dict[str, bytes] = {}
    for original, text in documents:
        if original.line is None:
            name = original.source or original.name
            if name in single:
                raise OutputError(
                    f"export blocked, nothing was written: two documents would both be written as {name!r}; "
                    "give every document its own name"
                )
            single[name] = text.encode("utf-8")
            continue
        record = {key: json.loads(value) for key, value in original.fields}
        record["text"] = text
        files.setdefault(original.source, []).append(json.dumps(record, ensure_ascii=False))
    for source, lines in files.items():
        if source in single:
            raise OutputError(
                f"export blocked, nothing was written: a document and a .jsonl file would both be written as "
                f"{source!r}; give every document its own name"
            )
        single[source] = ("\n".join(lines) + "\n").encode("utf-8")
    return single
