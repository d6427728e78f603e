"""Slots placed by the names' positions, and what the parse says a name is right before it: the words a widened
slot leaves in the text."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from relguard.extract.regions import pair_by_position
from relguard.extract.stretches import to_stretches, widen_to_stretches

if TYPE_CHECKING:
    from spacy.tokens import Token

    from relguard.extract.spacy.parsed import ParsedDocument
    from relguard.types import DocumentExtraction

#: How the parse hangs a word that says what a name is on it: "rock band Drug Restaurant", "northern England".
_NAME_MODIFIERS = frozenset({"compound", "amod", "nmod"})
#: The tags of a finite verb: a noun right before one is its subject.
_FINITE = frozenset({"VBD", "VBZ", "VBP", "MD"})


def positioned(state: ParsedDocument, extraction: DocumentExtraction, *, strict: bool) -> DocumentExtraction:
    """Each slot region standing for the pairs its position gives (:func:`~relguard.extract.regions.pair_by_position`):
    in the strict mode cut to the stretches between names; in the default mode after widening a span to its
    stretch, which leaves the names' modifiers (:func:`name_modifiers`) and the nouns they own
    (:func:`name_heads`) in the text."""
    if strict:
        return to_stretches(pair_by_position(extraction))
    widened = widen_to_stretches(extraction, modifiers=name_modifiers(state))
    return pair_by_position(_after_owned_nouns(widened, name_heads(state)))


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
    """Whether ``tok`` is a lower-case noun or adjective hung on ``name`` (its tokens and modifiers so far), or a
    number that counts it ("has won [two] Golden Globe Awards": a fact of the text, never the relation's)."""
    if ment_of[tok.i] >= 0 or tok.head.i not in name:
        return False
    if tok.dep_ == "nummod" and tok.pos_ == "NUM":
        return True
    return tok.dep_ in _NAME_MODIFIERS and tok.pos_ in ("NOUN", "ADJ") and tok.is_lower and tok.is_alpha


def name_heads(state: ParsedDocument) -> dict[int, int]:
    """Per name's last character, where a widened slot after it begins when the name is the possessor or modifier
    of the lower-case noun right after it (or of the last of a run of them) and a finite verb follows that noun,
    its subject ("Her [work] has been exhibited in", "Philippe's [descendants] flourished until", "Badah [railway
    station] is located in"): the noun is what the clause is about, and a slot that took it would leave the
    clause without a subject (a fill printed "Her place of death the Metropolitan Museum"). The noun stays in the
    text, as a name's modifiers do."""
    doc, found = state.doc, {}
    for start, end, _, _ in state.mentions:
        after = end + 1 if end < len(doc) and doc[end].tag_ == "POS" else end
        last = after
        while last < len(doc) and _owned_word(doc[last]):
            last += 1  # "Badah [railway station] is located in": the nouns of one noun phrase
        if last == after or last >= len(doc) or doc[last].tag_ not in _FINITE:
            continue
        noun = doc[last - 1]
        if noun.pos_ == "NOUN" and any(doc[i].head.i == noun.i for i in range(start, end)):
            found[doc[end - 1].idx + len(doc[end - 1].text)] = noun.idx + len(noun.text)
    return found


def _owned_word(tok: Token) -> bool:
    """A lower-case word of the noun phrase a name owns: a noun, an adjective or a participle before the noun ("The
    song's [accompanying music video] was directed by")."""
    participle = tok.tag_ in ("VBG", "VBN") and tok.dep_ == "amod"
    return (tok.pos_ in ("NOUN", "ADJ") or participle) and tok.is_lower


def _after_owned_nouns(extraction: DocumentExtraction, heads: dict[int, int]) -> DocumentExtraction:
    """``extraction`` with every span that opens at a noun of :func:`name_heads` starting after that noun."""
    text = extraction.document.text
    triples = []
    for triple in extraction.triples:
        occurrences = []
        for o in triple.occurrences:
            start = next(
                (heads[e] for e in heads if e <= o.start < heads[e] < o.end and _owner_gap(text, e, o.start)), None
            )
            if start is not None:
                start += len(text[start : o.end]) - len(text[start : o.end].lstrip())
                o = replace(o, start=start, text=text[start : o.end])
            occurrences.append(o)
        triples.append(replace(triple, occurrences=tuple(occurrences)))
    return replace(extraction, triples=tuple(triples))


def _owner_gap(text: str, name_end: int, span_start: int) -> bool:
    """Whether only a possessive "'s" and spaces stand between a name and a span."""
    return text[name_end:span_start].strip() in ("", "'s", "’s", "'", "’")
