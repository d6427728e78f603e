"""The release notice: one line at the top of every released text file, one field in every ``.jsonl`` record.

A reader who opens one released file, away from its report, must still be told that the relations in it were
drawn at random and may be false. The notice depends on ε (or the per-entity budget) alone, so it is public
(DESIGN invariant 12); ``relguard sanitize --no-notice`` leaves it out. The public-file check and the leak scan
read a file without its notice (it is the release's own words), and the slot ranges count it in: a text file's
ranges point into the file as written, notice included.
"""

from __future__ import annotations

import json

from relguard.errors import InputError
from relguard.types import Guarantee

#: The field a ``.jsonl`` record carries the notice in.
NOTICE_FIELD = "relguard_notice"
#: What stands between a text file's notice and its text.
SEPARATOR = "\n\n"


def notice_of(guarantee: Guarantee) -> str:
    """The one-line notice for a release drawn under ``guarantee``: its budget and nothing else."""
    if guarantee.entity_epsilon is not None:
        budget = f"per-entity budget ε = {guarantee.entity_epsilon:g}"
    else:
        budget = f"ε = {guarantee.epsilon:g}"
    return (
        f"RelGuard notice: the relations between named entities in this text were drawn at random ({budget}, "
        "relation differential privacy) and may not be true."
    )


def with_notice(
    data: bytes, text: str, marks, *, record: bool, notice: str, where: str = "a record"
) -> tuple[bytes, str, tuple]:
    """One document's bytes, text and slot ranges with ``notice``: above a text file's text (its ranges moved
    past it), or in the record's :data:`NOTICE_FIELD` (its ranges index ``text``, which does not change); a record
    that already has that field (``where`` names it) is refused rather than overwritten."""
    if record:
        values = json.loads(data)
        if NOTICE_FIELD in values:
            raise InputError(
                f"{where}: the record has a field {NOTICE_FIELD!r}, the name RelGuard gives its notice; rename that "
                "field in the input, or release it with --no-notice"
            )
        values[NOTICE_FIELD] = notice
        return (json.dumps(values, ensure_ascii=False) + "\n").encode("utf-8"), text, tuple(marks)
    head = notice + SEPARATOR
    moved = tuple((start + len(head), end + len(head)) for start, end in marks)
    return head.encode("utf-8") + data, head + text, moved


def without_notice(text: str, notice: str | None) -> str:
    """A text file as the leak scan reads it: without the notice this release put above it."""
    return text.removeprefix(notice + SEPARATOR) if notice else text
