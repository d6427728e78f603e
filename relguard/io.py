"""Reading documents and writing results, with messages that name the file and what to do.

Nothing a user hands over is dropped silently: a file that cannot be read is
an :class:`InputError` naming it (and, for ``.jsonl``, the line), never a
skipped record. Writes go to a temporary name and are renamed into place, so
an interrupted run never leaves a partial file that looks complete.
"""

from __future__ import annotations

import codecs
import hashlib
import json
import os
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path

from relguard.errors import InputError, OutputError
from relguard.types import Document

TEXT_SUFFIXES = (".txt", ".md")
JSONL_SUFFIXES = (".jsonl",)
SUPPORTED_SUFFIXES = TEXT_SUFFIXES + JSONL_SUFFIXES
DEFAULT_MAX_BYTES = 20 * 1024 * 1024


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def decode_text(data: bytes, *, where: str) -> str:
    """Decode UTF-8 (with or without BOM) or BOM-marked UTF-16/32; refuse binary and other encodings."""
    for bom, encoding in (
        (codecs.BOM_UTF32_LE, "utf-32"),
        (codecs.BOM_UTF32_BE, "utf-32"),
        (codecs.BOM_UTF8, "utf-8-sig"),
        (codecs.BOM_UTF16_LE, "utf-16"),
        (codecs.BOM_UTF16_BE, "utf-16"),
    ):
        if data.startswith(bom):
            try:
                return data.decode(encoding)
            except UnicodeDecodeError as exc:
                raise InputError(f"{where}: invalid {encoding} text at byte {exc.start}; re-save it as UTF-8") from exc
    if b"\x00" in data[:8192]:
        raise InputError(f"{where}: looks like a binary file (NUL bytes), not text; give a .txt, .md or .jsonl file")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(
            f"{where}: not valid UTF-8 (byte {exc.start}: {data[exc.start : exc.start + 1]!r}); re-save it as UTF-8"
        ) from exc


def documents_from_bytes(
    name: str, data: bytes, *, max_bytes: int = DEFAULT_MAX_BYTES, text_field: str = "text"
) -> list[Document]:
    """Parse one file's bytes into documents; ``name`` is how the file is named in messages and outputs."""
    if len(data) > max_bytes:
        raise InputError(
            f"{name}: {len(data):,} bytes is over the limit of {max_bytes:,}; split the file "
            "or raise the limit (--max-bytes)"
        )
    if not data:
        raise InputError(f"{name}: the file is empty; remove it or add text")
    text = decode_text(data, where=name)
    suffix = Path(name).suffix.lower()
    if suffix in JSONL_SUFFIXES:
        return _jsonl_documents(name, text, text_field=text_field)
    if not text.strip():
        raise InputError(f"{name}: holds only whitespace; remove it or add text")
    return [Document(name=name, text=text, source=name)]


def _jsonl_documents(name: str, text: str, *, text_field: str) -> list[Document]:
    documents: list[Document] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"{name}: line {number} is not valid JSON ({exc.msg}); fix or remove that line") from exc
        if not isinstance(record, dict):
            raise InputError(f'{name}: line {number} is not a JSON object; each line must be {{"{text_field}": ...}}')
        value = record.get(text_field)
        if not isinstance(value, str):
            raise InputError(f"{name}: line {number} has no string field {text_field!r}; add it or pass --text-field")
        fields = tuple((k, json.dumps(v, ensure_ascii=False)) for k, v in record.items() if k != text_field)
        documents.append(Document(name=f"{name}:{number}", text=value, source=name, line=number, fields=fields))
    if not documents:
        raise InputError(f"{name}: no JSON lines with a {text_field!r} field; the file holds no documents")
    return documents


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
    paths: Sequence[str | os.PathLike], *, max_bytes: int = DEFAULT_MAX_BYTES, text_field: str = "text"
) -> tuple[list[Document], dict[str, str]]:
    """Read files and folders into documents; returns them and the SHA-256 of every input file."""
    if not paths:
        raise InputError("no input given; name files or folders of .txt, .md or .jsonl documents")
    documents: list[Document] = []
    hashes: dict[str, str] = {}
    for path, name in _expand(paths):
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
            documents.extend(documents_from_bytes(name, data, max_bytes=max_bytes, text_field=text_field))
        except InputError as exc:
            raise InputError(str(exc).replace(name, str(path), 1)) from exc
        hashes[name] = sha256_bytes(data)
    return documents, hashes


def atomic_write(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder and an atomic rename."""
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
        try:
            with os.fdopen(handle, "wb") as stream:
                stream.write(data)
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
            single[original.source or original.name] = text.encode("utf-8")
            continue
        record = {key: json.loads(value) for key, value in original.fields}
        record["text"] = text
        files.setdefault(original.source, []).append(json.dumps(record, ensure_ascii=False))
    for source, lines in files.items():
        single[source] = ("\n".join(lines) + "\n").encode("utf-8")
    return single
