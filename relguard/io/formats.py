"""Files of every supported format → documents, with one clear error per bad file.

``.txt``, ``.md`` and ``.jsonl`` are read by :func:`relguard.io.text.documents_from_bytes`; ``.pdf``, ``.docx``,
``.html`` and ``.csv`` here. The CLI (through :func:`relguard.io.read.read_documents`) and the app's upload read
every file through :func:`documents_from_upload`, so a file reads the same whichever face it came through. A bad
file never stops the good ones in an upload: :func:`load_uploads` returns the documents it could read and a
message per file it could not.

Output names: text extracted from ``x.pdf``/``x.docx``/``x.html`` is written as
``x.pdf.txt`` etc.; rows of ``x.csv`` (and of ``x.parquet``, :mod:`relguard.io.parquet`) come back as JSON lines
in ``x.csv.jsonl`` with the other columns kept as fields.
"""

from __future__ import annotations

import csv
import io
import logging
from collections.abc import Iterable
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

from relguard.errors import InputError
from relguard.io.digest import sha256_bytes
from relguard.io.parquet import parquet_documents
from relguard.io.rows import choose_text_column, row_documents
from relguard.io.text import decode_text, documents_from_bytes
from relguard.settings import DEFAULT_MAX_BYTES
from relguard.types import Document

UPLOAD_SUFFIXES = (".txt", ".md", ".jsonl", ".csv", ".parquet", ".pdf", ".docx", ".html", ".htm")
#: Most files one upload may hold; each is parsed in memory, so the count bounds an upload's work and memory
#: together with ``server.maxUploadSize`` in ``.streamlit/config.toml``.
MAX_FILES = 50


def too_many_files(count: int, *, max_files: int = MAX_FILES) -> str | None:
    """The message for an upload of ``count`` files when it is over the limit, else None."""
    if count <= max_files:
        return None
    return (
        f"{count} files were uploaded; the limit is {max_files} files per upload. "
        "Remove some, or combine documents into one .jsonl file (one document per line)."
    )


@dataclass(frozen=True)
class UploadResult:
    """What a batch of uploads gave: documents, the SHA-256 of each good file, and (file, message) errors."""

    documents: tuple[Document, ...]
    hashes: dict
    errors: tuple[tuple[str, str], ...]


def _text_document(name: str, text: str) -> list[Document]:
    if not text.strip():
        raise InputError(f"{name}: no text could be extracted; the file may be empty or scanned (OCR it first)")
    return [Document(name=name, text=text, source=f"{name}.txt")]


def _pdf_text(name: str, data: bytes) -> str:
    try:
        from pypdf import PdfReader
        from pypdf.errors import PdfReadError
    except ImportError as exc:
        raise InputError(f"{name}: reading PDF needs pypdf (pip install pypdf)") from exc
    logging.getLogger("pypdf").setLevel(logging.ERROR)  # its warnings would print a second line under the CLI's one
    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted:
            raise InputError(f"{name}: the PDF is password-protected; save an unprotected copy")
        return "\n\n".join((page.extract_text() or "").strip() for page in reader.pages)
    except (PdfReadError, ValueError, KeyError, TypeError, OSError) as exc:
        raise InputError(f"{name}: not a readable PDF ({exc}); re-export it or upload the text") from exc


def _docx_text(name: str, data: bytes) -> str:
    try:
        import docx
    except ImportError as exc:
        raise InputError(f"{name}: reading .docx needs python-docx (pip install python-docx)") from exc
    _refuse_zip_bomb(name, data)
    try:
        document = docx.Document(io.BytesIO(data))
    except Exception as exc:  # python-docx raises zipfile/KeyError/ValueError for broken files
        raise InputError(f"{name}: not a readable Word .docx file ({type(exc).__name__}); re-save it as .docx") from exc
    return "\n\n".join(p.text for p in document.paragraphs if p.text.strip())


def _refuse_zip_bomb(name: str, data: bytes, *, limit: int = 10 * DEFAULT_MAX_BYTES) -> None:
    """A .docx is a zip: refuse one whose parts would unpack to more than ``limit`` bytes (a zip bomb)."""
    import zipfile

    try:
        total = sum(info.file_size for info in zipfile.ZipFile(io.BytesIO(data)).infolist())
    except (zipfile.BadZipFile, OSError, ValueError):
        return
    if total > limit:
        raise InputError(f"{name}: unpacks to {total:,} bytes, over the limit of {limit:,}; it may be a zip bomb")


class _HTMLText(HTMLParser):
    _SKIP = frozenset({"script", "style", "noscript", "template", "head"})
    _BLOCK = frozenset({"p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "section", "article"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skipping = 0

    def handle_starttag(self, tag, attrs):
        if tag in self._SKIP:
            self._skipping += 1
        elif tag in self._BLOCK:
            self.parts.append("\n")

    def handle_endtag(self, tag):
        if tag in self._SKIP and self._skipping:
            self._skipping -= 1
        elif tag in self._BLOCK:
            self.parts.append("\n")

    def handle_data(self, data):
        if not self._skipping:
            self.parts.append(data)


def html_text(markup: str) -> str:
    """Visible text of an HTML page: scripts and styles dropped, blocks on their own lines."""
    parser = _HTMLText()
    parser.feed(markup)
    parser.close()
    lines = (" ".join(line.split()) for line in "".join(parser.parts).splitlines())
    return "\n".join(line for line in lines if line)


def _csv_documents(
    name: str, data: bytes, *, text_column: str | None, keep_fields: frozenset[str] = frozenset()
) -> list[Document]:
    text = decode_text(data, where=name)
    try:
        reader = csv.DictReader(io.StringIO(text, newline=""))
        column = choose_text_column(name, reader.fieldnames or [], text_column)
        return row_documents(name, ((reader.line_num, row) for row in reader), column, keep_fields=keep_fields)
    except csv.Error as exc:
        raise InputError(f"{name}: not valid CSV ({exc}); save it as comma-separated UTF-8") from exc


def documents_from_upload(
    name: str,
    data: bytes,
    *,
    max_bytes: int = DEFAULT_MAX_BYTES,
    text_column: str | None = None,
    text_field: str = "text",
    keep_fields: frozenset[str] = frozenset(),
) -> list[Document]:
    """Parse one file into documents or raise :class:`InputError` naming the file and the fix.

    ``text_field`` names the text of ``.jsonl`` records; ``text_column`` that of ``.csv`` rows (default: the first
    of ``text``, ``body``, ``content``, ``document`` present). A record's other string fields are left out unless
    ``keep_fields`` names them (:func:`relguard.io.rows.record_fields`).
    """
    suffix = Path(name).suffix.lower()
    if suffix == ".json":
        raise InputError(
            f"{name}: a .json file is not read (nothing from it was loaded); save it as .jsonl, one document a line "
            'such as {"text": "…"}, or paste its text as .txt'
        )
    if suffix not in UPLOAD_SUFFIXES:
        raise InputError(
            f"{name}: unsupported file type {suffix or '(none)'!r}, nothing from it was loaded; use "
            f"{', '.join(UPLOAD_SUFFIXES)}"
        )
    if suffix in (".txt", ".md", ".jsonl"):
        return documents_from_bytes(name, data, max_bytes=max_bytes, text_field=text_field, keep_fields=keep_fields)
    if len(data) > max_bytes:
        raise InputError(f"{name}: {len(data):,} bytes is over the limit of {max_bytes:,}; split the file")
    if not data:
        raise InputError(f"{name}: the file is empty; remove it or add text")
    if suffix == ".csv":
        return _csv_documents(name, data, text_column=text_column, keep_fields=keep_fields)
    if suffix == ".parquet":
        return parquet_documents(name, data, text_column=text_column, keep_fields=keep_fields)
    if suffix == ".pdf":
        return _text_document(name, _pdf_text(name, data))
    if suffix == ".docx":
        return _text_document(name, _docx_text(name, data))
    return _text_document(name, html_text(decode_text(data, where=name)))


def load_uploads(
    files: Iterable[tuple[str, bytes]],
    *,
    max_bytes: int = DEFAULT_MAX_BYTES,
    text_column: str | None = None,
    max_files: int = MAX_FILES,
) -> UploadResult:
    """Read every (name, bytes) upload; a bad file gives an error entry and the good ones still load.

    More than ``max_files`` files load nothing and give one error entry named ``(upload)``."""
    files = list(files)
    if message := too_many_files(len(files), max_files=max_files):
        return UploadResult((), {}, (("(upload)", message),))
    documents: list[Document] = []
    hashes: dict[str, str] = {}
    errors: list[tuple[str, str]] = []
    for name, data in files:
        try:
            documents.extend(documents_from_upload(name, data, max_bytes=max_bytes, text_column=text_column))
            hashes[name] = sha256_bytes(data)
        except InputError as exc:
            errors.append((name, str(exc)))
    return UploadResult(tuple(documents), hashes, tuple(errors))
