"""Tables as documents: the text column of each row becomes a document, the other columns its fields.

Shared by ``.csv`` and ``.parquet`` inputs, so both name their documents ``file:ROW``, keep the same fields and
come back as ``file.jsonl`` alike. Which of a record's other fields are released is :func:`record_fields`'s rule,
for ``.jsonl`` records too.
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


def record_fields(
    record: dict, *, text: str, keep: frozenset[str] = frozenset()
) -> tuple[tuple[tuple[str, str], ...], tuple[str, ...]]:
    """A record's fields besides ``text`` that are released (as (key, JSON) pairs), and the names of those left out.

    Only the text field is sanitized. Any other field holding a string (at any depth of a list or object) could
    hold a relation — a ``headline`` — that would leave as written, so it is left out unless its name is in
    ``keep`` (``--keep-fields``: the user's decision to release it as written). Numbers, booleans and nulls carry
    no words and are released. The names left out are public (the schema) and the report lists them, so nothing
    uploaded is lost silently.
    """
    kept: list[tuple[str, str]] = []
    left_out: list[str] = []
    for key, value in record.items():
        if key == text or key is None:
            continue
        if key in keep or not _holds_words(value):
            kept.append((key, json.dumps(value, ensure_ascii=False, default=str)))
        else:
            left_out.append(str(key))
    return tuple(kept), tuple(left_out)


def _holds_words(value: object) -> bool:
    if isinstance(value, dict):
        return any(_holds_words(k) or _holds_words(v) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return any(_holds_words(v) for v in value)
    return not (value is None or isinstance(value, (bool, int, float)))


def row_documents(
    name: str, rows: Iterable[tuple[int, dict]], column: str, *, keep_fields: frozenset[str] = frozenset()
) -> list[Document]:
    """One document per numbered row with text in ``column``; a table with no text at all is an error."""
    documents = []
    for number, row in rows:
        value = row.get(column)
        if not isinstance(value, str) or not value.strip():
            continue
        fields, left_out = record_fields(row, text=column, keep=keep_fields)
        documents.append(
            Document(
                name=f"{name}:{number}",
                text=value,
                source=f"{name}.jsonl",
                line=number,
                fields=fields,
                left_out=left_out,
            )
        )
    if not documents:
        raise InputError(f"{name}: the column {column!r} holds no text in any row")
    return documents
