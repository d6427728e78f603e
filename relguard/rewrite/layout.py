"""Which characters go with a deleted sentence, so a document keeps its lines and paragraphs."""

from __future__ import annotations

from collections.abc import Sequence


def removed_ranges(text: str, bounds: Sequence[tuple[int, int]], deleted: set[int]) -> list[tuple[int, int]]:
    """The character ranges that go with each deleted sentence, keeping the document's line structure.

    A deleted sentence takes the spaces after it when the next sentence follows on the same line ("A. B. C."
    without B is "A. C."); otherwise it takes the spaces before it, back to the previous kept sentence on its
    line, so a line or paragraph break after it survives ("A. B.\n\nC." without B is "A.\n\nC."). A sentence
    alone on its line goes with the break after it, so the neighbouring paragraphs keep one separator.
    """
    ranges = []
    for number in sorted(deleted):
        start, end = bounds[number]
        after = bounds[number + 1][0] if number + 1 < len(bounds) else None
        previous = [bounds[n][1] for n in range(number) if n not in deleted]
        before = previous[-1] if previous else None
        if after is not None and "\n" not in text[end:after]:
            ranges.append((start, after))
        elif before is not None and "\n" not in text[before:start]:
            ranges.append((before, end))
        elif after is not None:
            ranges.append((start, after))
        else:
            ranges.append((before if before is not None else start, end))
    return ranges


def complement(ranges: list[tuple[int, int]], length: int) -> list[tuple[int, int]]:
    kept = []
    cursor = 0
    for start, end in sorted(ranges):
        if start > cursor:
            kept.append((cursor, start))
        cursor = max(cursor, end)
    kept.append((cursor, length))
    return kept
