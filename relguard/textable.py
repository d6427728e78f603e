"""The one table renderer: aligned plain text for terminals, pipe tables for Markdown reports; counted nouns.

Tables are small (a report's counts, an audit's checks, an evaluation's rows), so a dependency would buy nothing;
both styles keep the exact layout earlier releases used, so report.md stays byte-stable.
"""

from __future__ import annotations

from collections.abc import Sequence


def text_table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """Columns padded to their widest cell, two spaces apart, the last unpadded, a dashed rule under the header."""
    cells = [[str(c) for c in headers], *([str(c) for c in row] for row in rows)]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    lines = ["  ".join([*(f"{c:<{w}}" for c, w in zip(row[:-1], widths, strict=False)), row[-1]]) for row in cells]
    lines.insert(1, "-" * (sum(widths[:-1]) + 2 * (len(widths) - 1) + widths[-1]))
    return "\n".join(lines)


def markdown_table(headers: Sequence[str], rows: Sequence[Sequence[object]], *, align: str = "") -> list[str]:
    """A pipe table as lines; ``align`` has one letter per column, ``r`` for right-aligned (numbers).

    Cells are written as given: escape user text with :func:`markdown_cell` first.
    """
    rule = "".join("---:|" if (align[i : i + 1] == "r") else "---|" for i in range(len(headers)))
    lines = ["| " + " | ".join(headers) + " |", "|" + rule]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return lines


def markdown_cell(text: object) -> str:
    """Text safe inside a pipe table cell: a ``|`` is escaped, so it cannot open a new column."""
    return str(text).replace("|", "\\|")


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """A count with its noun, "1 document" or "2 documents": a report read by a person counts in plain English."""
    return f"{count} {noun if count == 1 else nouns or noun + 's'}"
