"""A kept sentence that opens with a pronoun right after a deleted one names whom the pronoun stands for.

"She succeeded Karen Whitfield." after the sentence that named her was deleted leaves the reader with no one to read
"She" as. Where the pronoun is an end of a relation group of its own sentence, the extraction has already read it
as that entity, and the group's key, which names it, is public (DESIGN invariant 6); the release then prints the
name in its place ("Maria Lopez succeeded …", "Maria Lopez's …" for a possessive). A pronoun that no slot of its
sentence ties to an entity stays as written: which entity it means would be a guess the release never states.
"""

from __future__ import annotations

from collections.abc import Collection

from relguard.rewrite.mask import POSSESSIVE_PRONOUNS, SUBJECT_PRONOUNS, MaskedDocument


def named_opening(
    masked: MaskedDocument, start: int, piece: str, ranges: list[tuple[int, int]], gone: Collection[int]
) -> tuple[str, list[tuple[int, int]]]:
    """``piece`` (the kept text from ``start`` of the masked text, its fills' ``ranges`` in it) with the pronoun that
    opens it named, where the sentence before it is ``gone`` and the pronoun stands for an entity of a slot of its
    own sentence (:attr:`MaskedDocument.referents`)."""
    lead = len(piece) - len(piece.lstrip())
    position = start + lead
    opening = next((n for n, (s, _) in enumerate(masked.sentences) if s == position), None)
    if not opening or opening - 1 not in gone or opening in gone:
        return piece, ranges
    referent = next((r for r in masked.referents if r[0] == position), None)
    if referent is None:
        return piece, ranges
    word = piece[lead:].split(maxsplit=1)[0] if piece[lead:] else ""
    if (
        word.lower() not in SUBJECT_PRONOUNS | POSSESSIVE_PRONOUNS
    ):  # the seam may have made "Her [REL] Rotterdam" "She lives in"
        return piece, ranges
    name = referent[2] + ("'s" if word.lower() in POSSESSIVE_PRONOUNS else "")
    shift = len(name) - len(word)
    moved = [(a + shift, b + shift) if a >= lead + len(word) else (a, b) for a, b in ranges]
    return piece[:lead] + name + piece[lead + len(word) :], moved
