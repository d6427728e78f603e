"""Slots placed by the names' positions, and what the parse says a name is right before it: the words a widened
slot leaves in the text."""

from __future__ import annotations

from typing import TYPE_CHECKING

from relguard.extract.regions import pair_by_position
from relguard.extract.stretches import to_stretches, widen_to_stretches

if TYPE_CHECKING:
    from spacy.tokens import Token

    from relguard.extract.spacy.parsed import ParsedDocument
    from relguard.types import DocumentExtraction

#: How the parse hangs a word that says what a name is on it: "rock band Drug Restaurant", "northern England".
_NAME_MODIFIERS = frozenset({"compound", "amod", "nmod"})


def positioned(state: ParsedDocument, extraction: DocumentExtraction, *, strict: bool) -> DocumentExtraction:
    """Each slot region standing for the pairs its position gives (:func:`~relguard.extract.regions.pair_by_position`):
    in the strict mode cut to the stretches between names; in the default mode after widening a span to its
    stretch, which leaves the names' modifiers (:func:`name_modifiers`) in the text."""
    if strict:
        return to_stretches(pair_by_position(extraction))
    return pair_by_position(widen_to_stretches(extraction, modifiers=name_modifiers(state)))


def name_modifiers(state: ParsedDocument) -> dict[int, int]:
    """Per name's first character, where the lower-case nouns and adjectives the parse hangs on the name right
    before it begin, with no article ("rock band Drug Restaurant", "northern England"; not a verb: "mediating B
    cell development"): they say what the name is, so a widened stretch leaves them in the text
    (:func:`~relguard.extract.stretches.widen_to_stretches`), as it leaves an article and adjectives."""
    doc, found = state.doc, {}
    for start, end, _, _ in state.mentions:
        name, first = set(range(start, end)), start
        while first > 0 and _describes(doc[first - 1], name, state.ment_of):
            first -= 1
            name.add(first)
        if first < start:
            found[doc[start].idx] = doc[first].idx
    return found


def _describes(tok: Token, name: set[int], ment_of: list[int]) -> bool:
    """Whether ``tok`` is a lower-case noun or adjective hung on ``name`` (its tokens and modifiers so far)."""
    hung = tok.dep_ in _NAME_MODIFIERS and tok.head.i in name and tok.pos_ in ("NOUN", "ADJ")
    return hung and tok.is_lower and tok.is_alpha and ment_of[tok.i] < 0
