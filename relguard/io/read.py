"""Reading files and folders into documents: one reader for every format, used by the CLI and the app alike.

Folders are walked for every supported suffix (``.txt``, ``.md``, ``.jsonl``, ``.csv``, ``.pdf``, ``.docx``,
``.html``); each file is parsed by :func:`relguard.io.formats.documents_from_upload`, the parser the app's upload
uses, so a file reads the same whichever face it came through.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from pathlib import Path

from relguard.errors import InputError
from relguard.io.digest import sha256_bytes
from relguard.io.formats import UPLOAD_SUFFIXES, documents_from_upload
from relguard.settings import DEFAULT_MAX_BYTES
from relguard.types import Document

SUPPORTED_SUFFIXES = UPLOAD_SUFFIXES


def _expand(paths: Sequence[str | os.PathLike]) -> list[tuple[Path, str]]:
    """Each input file with the name it keeps in outputs (relative to the folder it was found in)."""
    found: list[tuple[Path, str]] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            files = sorted(p for p in path.rglob("*") if p.is_file() and p.suffix.lower() in SUPPORTED_SUFFIXES)
            if not files:
                raise InputError(
                    f"{path}: the folder holds no documents ({', '.join(SUPPORTED_SUFFIXES)}); "
                    "point to a folder with text files"
                )
            found.extend((p, p.relative_to(path).as_posix()) for p in files)
        elif path.is_file():
            if path.suffix.lower() not in SUPPORTED_SUFFIXES:
                raise InputError(
                    f"{path}: unsupported file type {path.suffix or '(none)'!r}; use {', '.join(SUPPORTED_SUFFIXES)}"
                )
            found.append((path, path.name))
        else:
            raise InputError(f"{path}: no such file or folder")
    names = [name for _, name in found]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise InputError(f"two inputs would both be written as {duplicates[0]!r}; rename one or pass folders")
    return found


def read_documents(
    paths: Sequence[str | os.PathLike],
    *,
    max_bytes: int = DEFAULT_MAX_BYTES,
    text_field: str = "text",
    keep_fields: frozenset[str] = frozenset(),
) -> tuple[list[Document], dict[str, str]]:
    """Read files and folders into documents; returns them and the SHA-256 of every input file."""
    documents: list[Document] = []
    hashes: dict[str, str] = {}
    for name, digest, found in iter_files(paths, max_bytes=max_bytes, text_field=text_field, keep_fields=keep_fields):
        documents.extend(found)
        hashes[name] = digest
    return documents, hashes


def iter_files(
    paths: Sequence[str | os.PathLike],
    *,
    max_bytes: int = DEFAULT_MAX_BYTES,
    text_field: str = "text",
    keep_fields: frozenset[str] = frozenset(),
) -> Iterator[tuple[str, str, list[Document]]]:
    """Each input file in turn as (output name, SHA-256, its documents): one file in memory at a time.

    The batch engine reads a corpus of many files this way, so memory holds one file's documents, never all.
    """
    if not paths:
        raise InputError(f"no input given; name files or folders of documents ({', '.join(SUPPORTED_SUFFIXES)})")
    return _read_each(_expand(paths), max_bytes=max_bytes, text_field=text_field, keep_fields=keep_fields)


def input_files(paths: Sequence[str | os.PathLike]) -> list[tuple[Path, str]]:
    """Every input file with the name it keeps in outputs; a missing path or a bad type fails here."""
    if not paths:
        raise InputError(f"no input given; name files or folders of documents ({', '.join(SUPPORTED_SUFFIXES)})")
    return _expand(paths)


def input_bytes(paths: Sequence[str | os.PathLike]) -> int:
    """The size on disk of every input file (a missing path fails here, before any work)."""
    return sum(path.stat().st_size for path, _ in _expand(paths))


def count_documents(
    paths: Sequence[str | os.PathLike],
    *,
    max_bytes: int = DEFAULT_MAX_BYTES,
    text_field: str = "text",
    keep_fields: frozenset[str] = frozenset(),
) -> int:
    """Read and parse every input once, keeping nothing, and count its documents.

    The batch engine calls this before it starts so that a bad file fails in seconds with its name, not hours
    into a run, and so that its progress bar knows the total. Parsing is a small fraction of extraction.
    """
    return sum(
        len(found)
        for _, _, found in iter_files(paths, max_bytes=max_bytes, text_field=text_field, keep_fields=keep_fields)
    )


def read_file(
    path: Path, name: str, *, max_bytes: int, text_field: str, keep_fields: frozenset[str] = frozenset()
) -> tuple[str, list[Document]]:
    """One input file: its SHA-256 (for the confidential mapping) and its documents; errors name ``path``."""
    try:
        size = path.stat().st_size
        if size > max_bytes:
            raise InputError(
                f"{path}: {size:,} bytes is over the limit of {max_bytes:,}; split the file "
                "or raise the limit (--max-bytes)"
            )
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(f"{path}: cannot be read ({exc.strerror}); check its permissions") from exc
    try:
        found = documents_from_upload(name, data, max_bytes=max_bytes, text_field=text_field, keep_fields=keep_fields)
    except InputError as exc:
        raise InputError(str(exc).replace(name, str(path), 1)) from exc
    return sha256_bytes(data), found


def _read_each(found: list[tuple[Path, str]], *, max_bytes: int, text_field: str, keep_fields: frozenset[str]):
    """The files already listed (so a missing path fails before any work), read one at a time."""
    for path, name in found:
        digest, documents = read_file(path, name, max_bytes=max_bytes, text_field=text_field, keep_fields=keep_fields)
        yield name, digest, documents
