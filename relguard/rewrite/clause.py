"""The first clause of an unfillable sentence, kept where it reads on its own: "It sold the first metro system."

A sentence is unfillable mostly because of its second fill (two fills in one clause almost never read) or a rule
about a later slot. Its opening — from the sentence start to the end of the name after its first fill — often
reads as a sentence by itself, and it holds what a reader and a retriever need: the dates, descriptions and
numbers before that name. :func:`first_clause` cuts the sentence there and checks the cut piece as it would
check any filled sentence: the shape rules on the slots it holds, the read-back guard, and a main verb. The rest
of the sentence is restated (:mod:`relguard.rewrite.restate`). Everything read is the masked text and the fills,
so the piece is public like any fill (DESIGN invariant 7).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace

from relguard.rewrite import guard, shape
from relguard.rewrite.mask import MaskedDocument, prints_own
from relguard.rewrite.seams import assemble
from relguard.rewrite.tagging import tagger

#: What may follow the name a cut ends at: punctuation, the sentence's end, or a word that opens a new phrase.
_CUT_BEFORE = re.compile(
    r"\s*(?:$|[,.;:)!?—–[]|(?:in|on|at|for|from|and|with|by|as|during|since|until|after|before|to|of|which|who|"
    r"that|where|when|while|but|or|between|near|under|over|through|throughout|via|alongside)\b)",
    re.IGNORECASE,
)


#: A date right after the name, which the cut keeps ("in 1923", "on 5 May 1990", "since 2001").
_DATE_AFTER = re.compile(
    r",?\s+(?:in|on|since|from|until|by|during|between)\s+(?:(?:early|late|mid|the|[A-Z][a-z]+\.?|\d{1,2})\s+){0,3}"
    r"\d{3,4}s?\b(?:\s*(?:[–—-]|to|and|until|through)\s*(?:(?:early|late|mid|the|[A-Z][a-z]+\.?|\d{1,2})\s+){0,3}"
    r"\d{2,4}s?\b)?"  # a range: "from 1630 to 1650", "between May 1939 and 1945", "in 1914–18"
)


def first_clause(masked: MaskedDocument, number: int, texts: Mapping[int, str]) -> tuple[str, tuple] | None:
    """(the opening of sentence ``number`` up to the name after its first fill, with a full stop; where its fills
    are), or None where that piece would not read as a sentence."""
    start, end = masked.sentences[number]
    numbers = [n for n, s in enumerate(masked.slots) if s.sentence == number]
    first = next((n for n in numbers if prints_own(masked, masked.slots[n])), None)
    if first is None or not any(c.isalpha() for c in texts.get(first, "")):
        return None
    slot = masked.slots[first]
    if masked.text[: slot.start].rstrip().endswith(",") and texts[first].startswith("the "):
        return None  # an apposition: "the fact that Nazi Germany, the invader of the Soviet Union." has no verb
    if masked.text[start : slot.start].rstrip().endswith((";", ":")):
        return None  # a new clause with no subject: "It has other bases throughout Brazil; is the headquarters of"
    name = next((m for m in masked.mentions if m[0] >= slot.end and m[1] <= end), None)
    if (
        name is None
        or not _CUT_BEFORE.match(masked.text, name[1])
        or masked.text[name[1] : name[1] + 2] in ("'s", "’s")
    ):
        return None
    cut = name[1]
    dated = _DATE_AFTER.match(masked.text, cut)
    if dated and dated.end() <= end and _CUT_BEFORE.match(masked.text, dated.end()):
        cut = dated.end()  # "a magazine that founded Texas in 1923": the date stays with its clause
    inside = [n for n in numbers if masked.slots[n].end <= cut]
    if any(n != first and prints_own(masked, masked.slots[n]) for n in inside) or any(n not in texts for n in inside):
        return None
    if _flagged(masked, number, cut, inside, texts):
        return None
    text, ranges = assemble(masked, start, cut, texts)
    text = text.rstrip(" ,;:")
    if not _balanced(text):
        return None
    if not text.endswith("."):
        text += "."
    tokens = guard.tag_released([text], tagger())[0]
    if guard.misread(text, ranges, tokens) is not None or not guard.has_main_verb(tokens):
        return None
    if ranges and _opens_with_a_phrase(tokens, ranges[0][0]):
        return None
    return text, tuple(ranges)


def _opens_with_a_phrase(tokens, fill: int) -> bool:
    """Whether the piece opens with a prepositional phrase ("According to …", "In …") that no comma closes before
    its first fill, which then has no subject: "According to legends recorded in the text "…" was translated by
    Huangfu Mi." """
    before = [t for t in tokens if t[1] <= fill]
    opening = before[:2]
    if len(opening) < 2 or opening[1][3] == "CD":
        return False  # "In 1997 the band [released]": a date, then the subject
    prepositional = opening[0][3] == "IN" or (opening[0][2].lower() == "according" and opening[1][3] == "IN")
    return prepositional and not any(t[2] in (",", ";", ":") for t in before)


def _flagged(masked: MaskedDocument, number: int, cut: int, inside: list[int], texts: Mapping[int, str]) -> bool:
    """Whether a shape rule makes the piece unfillable, read on the piece alone (its slots, up to the cut)."""
    bounds = list(masked.sentences)
    bounds[number] = (bounds[number][0], cut)
    piece = replace(masked, slots=tuple(masked.slots[n] for n in inside), sentences=tuple(bounds))
    words = {i: texts[n] for i, n in enumerate(inside)}
    found = shape.gapped(piece, words) | shape.after_fixed_phrase(piece) | shape.ranged(piece)
    found |= shape.wants_plural(piece, words)
    tails = [(n, masked.slots[n]) for n in inside if masked.slots[n].role == "tail" and masked.slots[n].head >= 0]
    split = any(  # "which organized to 7,049 the 2011 Census": a form with no preposition around a number
        not shape.reads_between(masked, s) or (not texts[n].strip(" ,") and not shape.dated_between(masked, s))
        for n, s in tails
    )
    return number in found or split


#: Where an opening may end before a sentence's first slot: a clause boundary the masked text shows.
_BOUNDARY = re.compile(r",\s+|;\s+|\s+(?:and|but|while|whereas|which|who|where|when)\s+|\s+—\s+")
#: Tags an opening may end on: a noun, a name, a number, a closing bracket or quote.
_ENDS = frozenset({"NOUN", "PROPN", "NUM", "PUNCT"})
_CLOSERS = frozenset({")", '"', "”", "’"})


def opening_before_slots(masked: MaskedDocument, number: int) -> str | None:
    """The words of sentence ``number`` before its first slot, cut at the last clause boundary that leaves a
    sentence on its own ("Antara Mali (born 1979) is an Indian actress."), or None where no cut reads.

    Where neither a fill nor a first clause reads, the statements alone would lose everything they do not name:
    the dates, descriptions and numbers of its opening. The opening holds no slot, so it is masked text as
    written; where it is cut depends on the masked text alone (DESIGN invariant 7), like any fill.
    """
    start = masked.sentences[number][0]
    first = min((s.start for s in masked.slots if s.sentence == number), default=None)
    if first is None:
        return None
    head = masked.text[start:first]
    names = [(a - start, b - start) for a, b, _ in masked.mentions if start <= a < first]
    cuts = [m.start() for m in _BOUNDARY.finditer(head) if not any(a < m.start() < b for a, b in names)]
    whole = len(head.rstrip())
    if any(b - start == whole and kind == "NORP" for a, b, kind in masked.mentions if start <= a < first):
        whole = 0  # "The school had Argentine [mathematician] Manuel Sadosky": the nationality qualified the slot
    elif any(b == whole for _, b in names) and cuts and cuts[-1] > 0:
        whole = cuts[-1]  # "... and Hexum [REL] the song's title": a name right before the slot is its subject
    for cut in sorted({whole, *cuts} - {0}, reverse=True)[:3]:
        text = head[:cut].rstrip(" ,;:—–")
        if sum(c.isalpha() for c in text) < 12:
            break
        if not (text[-1].isalnum() or text[-1] in _CLOSERS) or not _balanced(text):
            continue
        tokens = guard.tag_released([text + "."], tagger())[0]
        words = [t for t in tokens if t[2] != "."]
        if not words or words[-1][4] not in _ENDS:  # a PUNCT last word is a closer: the text ends on one
            continue
        if guard.has_main_verb(tokens):
            return text + "."
    return None


def without_asides(masked: MaskedDocument, number: int) -> str | None:
    """Sentence ``number`` without the bracketed asides that hold its slots, where every slot is in one and the
    rest reads as a sentence ("Deon Mouton is a Namibian rugby union scrum-half."), else None.

    Birth and death details in brackets ("( born 20 November 1974 in Rehoboth)") are the commonest unfillable
    stretch of an encyclopaedia's first sentence, and the first clause and the words before the first slot both
    stop at the bracket, so the main clause after it — what the sentence is about — was lost. The aside's
    relations are stated after it. Which asides go is read from the masked text (brackets and placeholders), so
    the kept words are public like any opening (DESIGN invariant 7).
    """
    start, end = masked.sentences[number]
    body = masked.text[start:end]
    slots = [(s.start - start, s.end - start) for s in masked.slots if s.sentence == number]
    asides = _asides(body)
    holding = [(a, b) for a, b in asides if any(a <= x and y <= b for x, y in slots)]
    if not slots or not all(any(a <= x and y <= b for a, b in holding) for x, y in slots):
        return None
    kept, cursor = [], 0
    for a, b in holding:
        kept.append(body[cursor:a].rstrip(" \t"))
        cursor = b
    kept.append(body[cursor:])
    text = re.sub(r"\s+([,;:.!?])", r"\1", "".join(kept)).strip()
    text = re.sub(r"\s{2,}", " ", text).rstrip(" ,;:—–")
    if sum(c.isalpha() for c in text) < 12 or not _balanced(text) or not (text[0].isupper() or text[0].isdigit()):
        return None
    if not text.endswith((".", "!", "?")):
        text += "."
    tokens = guard.tag_released([text], tagger())[0]
    words = [t for t in tokens if t[2] != "."]
    if len(words) < 3 or not guard.has_main_verb(tokens):
        return None
    return text


def _asides(text: str) -> list[tuple[int, int]]:
    """The outermost round-bracket asides of ``text`` as (start, end) ranges, the brackets included."""
    found, depth, opened = [], 0, 0
    for i, c in enumerate(text):
        if c == "(":
            opened = i if depth == 0 else opened
            depth += 1
        elif c == ")" and depth:
            depth -= 1
            if depth == 0:
                found.append((opened, i + 1))
    return found


def _balanced(text: str) -> bool:
    """Whether every bracket and double quote a cut piece opens it also closes ("since 2004 (when it" does not)."""
    return text.count("(") == text.count(")") and text.count('"') % 2 == 0 and text.count("“") == text.count("”")
