"""Text typed without capitals: a note in lower case is still split into its sentences.

The extractor joins a sentence that begins in lower case to the one before when that one ends like an
abbreviation ("was asst. | dir. | at Acme"). In a note typed without capitals every sentence begins in lower
case, so every full stop after a short word ("role.", "minh.") read as an abbreviation and the whole note became
one sentence: one null outcome then deleted all of it. Where no sentence of a text begins with a capital, the
capitals say nothing about where sentences end, and the parser's own cuts stand.
"""

from __future__ import annotations

import re

_OPENING = re.compile(r"(?:^|[.!?][\"'”’)]*\s+)[\"'“‘(]*([^\W\d_])")


def typed_without_capitals(text: str) -> bool:
    """Whether ``text`` has two or more sentence openings and none of them is a capital letter."""
    openings = [m.group(1) for m in _OPENING.finditer(text.strip())]
    return len(openings) >= 2 and not any(letter.isupper() for letter in openings)
