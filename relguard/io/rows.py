"""Tables as documents: the text column of each row becomes a document, the other columns its fields.

Shared by ``.csv`` and ``.parquet`` inputs, so both name their documents ``file:ROW``, keep the same fields and
come back as ``file.jsonl`` alike.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence

from relguard.errors import InputError
from relguard.types import Document

TEXT_COLUMNS = ("text", "body", "content", "document")


def choose_text_column(name: str, columns: Sequence[str], chosen: str | None) -> str:
    """``chosen``, or the first of :data:`TEXT_COLUMNS` the table has; an :class:`InputError` naming the file."""
    wanted = [chosen] if chosen else list(TEXT_COLUMNS)
    column = next((c for c in wanted if c in columns), None)
    if column is None:
        raise InputError(
            f"{name}: no text column ({', '.join(wanted)}) among the columns {', '.join(columns) or '(none)'}; "
            "rename the column holding the text to 'text'"
        )
    return column


def row_documents(name: str, rows: Iterable[tuple[int, dict]], column: str) -> list[Document]:
    """One document per numbered row with text in ``column``; a table with no text at all is an error."""
    documents = []
    for number, row in rows:
        value = row.get(column)
        if not isinstance(value, str) or not value.strip():
            continue
        fields = tuple(
            (k, json.dumps(v, ensure_ascii=False, default=str)) for k, v in row.items() if k != column and k is not None
        )
        documents.append(
            Document(name=f"{name}:{number}", text=value, source=f"{name}.jsonl", line=number, fields=fields)
        )
    if not documents:
        raise InputError(f"{name}: the column {column!r} holds no text in any row")
    return documents
