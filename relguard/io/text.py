"""Plain-text inputs: decoding with a message that names the file, and ``.txt``/``.md``/``.jsonl`` parsing.

Nothing a user hands over is dropped silently: a file that cannot be read is an :class:`InputError` naming it
(and, for ``.jsonl``, the line), never a skipped record.
"""

from __future__ import annotations

import codecs
import json
from pathlib import Path

from relguard.errors import InputError
from relguard.io.rows import record_fields
from relguard.settings import DEFAULT_MAX_BYTES
from relguard.types import Document

TEXT_SUFFIXES = (".txt", ".md")
JSONL_SUFFIXES = (".jsonl",)
#: What :func:`documents_from_bytes` reads; the other formats go through :mod:`relguard.io.formats`.
PLAIN_SUFFIXES = TEXT_SUFFIXES + JSONL_SUFFIXES


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
        raise InputError(
            f"{where}: looks like a binary file (NUL bytes), not text; "
            "give a .txt, .md, .jsonl, .csv, .parquet, .pdf, .docx or .html file"
        )
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(
            f"{where}: not valid UTF-8 (byte {exc.start}: {data[exc.start : exc.start + 1]!r}); re-save it as UTF-8"
        ) from exc


def documents_from_bytes(
    name: str,
    data: bytes,
    *,
    max_bytes: int = DEFAULT_MAX_BYTES,
    text_field: str = "text",
    keep_fields: frozenset[str] = frozenset(),
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
        return _jsonl_documents(name, text, text_field=text_field, keep_fields=keep_fields)
    if not text.strip():
        raise InputError(f"{name}: holds only whitespace; remove it or add text")
    return [Document(name=name, text=text, source=name)]


#: A .jsonl file is read whole or not at all, so a bad line never drops the good ones silently.
_NOTHING_LOADED = "nothing from this file was loaded"
_FIX_THE_LINE = f"{_NOTHING_LOADED}; fix or remove that line"


def _jsonl_documents(name: str, text: str, *, text_field: str, keep_fields: frozenset[str]) -> list[Document]:
    documents: list[Document] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(
                f"{name}: line {number} is not valid JSON ({exc.msg}, column {exc.colno}); {_FIX_THE_LINE}"
            ) from exc
        if not isinstance(record, dict):
            raise InputError(
                f'{name}: line {number} is not a JSON object (each line must be {{"{text_field}": ...}}); '
                f"{_FIX_THE_LINE}"
            )
        value = record.get(text_field)
        if not isinstance(value, str):
            raise InputError(
                f"{name}: line {number} has no string field {text_field!r}; add it or pass --text-field "
                f"({_NOTHING_LOADED})"
            )
        fields, left_out = record_fields(record, text=text_field, keep=keep_fields)
        documents.append(
            Document(name=f"{name}:{number}", text=value, source=name, line=number, fields=fields, left_out=left_out)
        )
    if not documents:
        raise InputError(f"{name}: no JSON lines with a {text_field!r} field; the file holds no documents")
    return documents
