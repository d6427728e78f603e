"""Slot marks: where the release wrote words the mechanism drew, in every output format.

A reader of a release must be able to tell the author's words from the words RelGuard put in: every relation slot
that was filled holds a predicate the mechanism drew, which may state something false about named people. So
every filled slot is marked — whatever its outcome, kept or substituted, since a mark only on substitutions would
tell which relations were kept — and the mark is public structure: where the fills are follows from the masked
document and the outcomes alone, like the text itself (DESIGN invariant 12).

- ``.jsonl`` records (and the rows of ``.csv`` and ``.parquet`` inputs, which are written as records) carry the
  field :data:`SLOTS_FIELD`: the ``[start, end)`` character ranges of the fills in their ``text``;
- text documents (``.txt``, ``.md``, text read from ``.pdf``/``.docx``/``.html``) get one line each in the sidecar
  :data:`SLOTS_FILE` at the top of the release folder (outside ``documents/``, so an indexer reading that folder
  never reads it);
- the Parquet copy (``--parquet``) has a :data:`SLOTS_FIELD` column;
- ``--mark-slots`` also writes the marks into the text itself, every fill between :data:`OPEN` and :data:`CLOSE`
  (the ranges then cover the words inside the marks).

Ranges are Python ``str`` offsets (code points). The fill records them
(:attr:`relguard.types.SanitizedDocument.slots`); this module turns them into what each format carries.
"""

from __future__ import annotations

import json

from relguard.errors import InputError
from relguard.types import Document

SLOTS_FIELD = "relguard_slots"
SLOTS_FILE = "slots.jsonl"
OPEN, CLOSE = "⟦", "⟧"
#: What a mark means, said in every report.
MEANING = (
    "every slot RelGuard filled is marked, whatever its outcome: the words there were drawn by the mechanism from "
    "a public pool, not written by the author, and may state a relation that is not true"
)
Ranges = tuple[tuple[int, int], ...]


def written(document: Document, text: str, slots: Ranges, *, inline_marks: bool) -> tuple[str, Ranges]:
    """The text as its public file holds it and where its fills are there: with ``inline_marks`` every fill
    between :data:`OPEN` and :data:`CLOSE` (a text that already holds one is refused, :func:`refuse_marks_in`)."""
    if not inline_marks:
        return text, tuple(slots)
    refuse_marks_in(document)
    return inline(text, slots)


def sidecar_line(file: str, slots: Ranges) -> bytes:
    """The line of :data:`SLOTS_FILE` for a text document written to ``documents/<file>``."""
    return (json.dumps({"file": f"documents/{file}", SLOTS_FIELD: [list(r) for r in slots]}) + "\n").encode("utf-8")


def refuse_slots_field(document: Document) -> None:
    """A ``.jsonl`` record that already has a :data:`SLOTS_FIELD` field would lose it to the marks: refused."""
    if any(key == SLOTS_FIELD for key, _ in document.fields):
        raise InputError(
            f"{document.source or document.name}: record {document.line} has a field {SLOTS_FIELD!r}, the name "
            "RelGuard gives the ranges of its fills; rename that field in the input and run again"
        )


def summary(*, inline_marks: bool, sidecar: bool) -> dict:
    """What the report says about the marks of a release (every release marks its fills)."""
    return {
        "meaning": MEANING,
        "jsonl_field": SLOTS_FIELD,
        "ranges": "[start, end) character offsets (Unicode code points) into the record's or file's text",
        **({"sidecar": SLOTS_FILE} if sidecar else {}),
        "inline": f"every fill written between {OPEN} and {CLOSE}" if inline_marks else None,
    }


def inline(text: str, slots: Ranges) -> tuple[str, Ranges]:
    """``text`` with every range between :data:`OPEN` and :data:`CLOSE`, and the ranges in the marked text."""
    out, moved, cursor = [], [], 0
    for number, (start, end) in enumerate(sorted(slots)):
        out += [text[cursor:start], OPEN, text[start:end], CLOSE]
        moved.append((start + 2 * number + 1, end + 2 * number + 1))
        cursor = end
    out.append(text[cursor:])
    return "".join(out), tuple(moved)


def unmarked(text: str) -> str:
    """What the leak scan reads of a marked text: the marks taken out, so it scans exactly the unmarked text."""
    return text.replace(OPEN, "").replace(CLOSE, "")


def refuse_marks_in(document: Document) -> None:
    """A document that already holds a mark character cannot be marked: the marks would no longer say which words
    RelGuard wrote, and the leak scan, which takes them out, would read another text than the author's."""
    if OPEN in document.text or CLOSE in document.text:
        raise InputError(
            f"{document.name}: the text holds {OPEN} or {CLOSE}, the characters --mark-slots writes around every fill; "
            "release it without --mark-slots (the ranges in relguard_slots and slots.jsonl still mark every fill)"
        )
