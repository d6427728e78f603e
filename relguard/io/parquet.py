"""Parquet in and out: a table's rows as documents (like ``.csv`` rows), and a release's documents as a table.

Parquet is how large corpora usually sit in a data lake, and what Ray Data reads natively. A row becomes a
document named ``file.parquet:ROW`` (1-based) whose text is the ``text`` column (or ``body``, ``content``,
``document``); the other columns are kept as fields and come back in ``file.parquet.jsonl``, exactly as the rows of
a ``.csv`` file do. ``pyarrow`` is an optional dependency (the ``ray`` extra and Streamlit bring it).
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterable
from pathlib import Path

from relguard.errors import ConfigError, InputError
from relguard.io.rows import choose_text_column, row_documents
from relguard.types import Document

#: Columns of the Parquet copy of a release (``--parquet``): one row per document, in document order.
RELEASE_COLUMNS = ("document", "file", "text", "relguard_slots")
#: Rows per row group of the release copy: bounds the writer's memory whatever the corpus size.
ROW_GROUP = 4096


def _pyarrow():
    try:
        import pyarrow
        import pyarrow.parquet
    except ImportError as exc:
        raise ConfigError(
            "Parquet needs the pyarrow package: pip install 'relguard[ray]' (or pip install pyarrow)"
        ) from exc
    return pyarrow, pyarrow.parquet


def parquet_documents(
    name: str, data: bytes, *, text_column: str | None = None, keep_fields: frozenset[str] = frozenset()
) -> list[Document]:
    """Every row of a Parquet file with text in its text column, as a document (see the module docstring)."""
    _, parquet = _pyarrow()
    try:
        table = parquet.read_table(io.BytesIO(data))
    except Exception as exc:  # pyarrow raises its own ArrowInvalid/OSError family for a bad file
        raise InputError(f"{name}: not a readable Parquet file ({exc}); write it again with pyarrow or pandas") from exc
    column = choose_text_column(name, table.column_names, text_column)
    return row_documents(name, enumerate(table.to_pylist(), start=1), column, keep_fields=keep_fields)


def parquet_rows(data: bytes) -> list[dict]:
    """The rows of a release's Parquet copy, for the audit to compare with ``documents/``."""
    _, parquet = _pyarrow()
    try:
        return parquet.read_table(io.BytesIO(data)).to_pylist()
    except Exception as exc:
        raise InputError(f"not a readable Parquet file ({exc})") from exc


class ParquetWriter:
    """The release as one Parquet table, written a row group at a time (``--parquet``)."""

    def __init__(self, path: str | Path) -> None:
        pyarrow, parquet = _pyarrow()
        self._pyarrow = pyarrow
        self._schema = pyarrow.schema([(name, pyarrow.string()) for name in RELEASE_COLUMNS])
        self._writer = parquet.ParquetWriter(str(path), self._schema, compression="zstd")
        self._rows: list[tuple[str, str, str, str]] = []

    def add(self, document: str, file: str, text: str, slots: Iterable[tuple[int, int]] = ()) -> None:
        """One document's row; ``slots`` (the ``[start, end)`` ranges of its fills) are stored as a JSON list."""
        self._rows.append((document, file, text, json.dumps([list(r) for r in slots])))
        if len(self._rows) >= ROW_GROUP:
            self._flush()

    def _flush(self) -> None:
        if self._rows:
            columns = list(zip(*self._rows, strict=True))
            self._writer.write_table(self._pyarrow.table(dict(zip(RELEASE_COLUMNS, columns, strict=True))))
            self._rows = []

    def close(self) -> None:
        self._flush()
        self._writer.close()
