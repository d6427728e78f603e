"""Relations stated by a comma alone: "Guilderland, Albany County, New York", "Dublin, Ohio".

Two names in apposition with nothing but names between them say that the first lies in (or belongs to) the
second, without a word for it; Re-DocRED's most frequent gold relations ("located in", "country") are stated so.
Failing closed (DESIGN invariant 11), such a pair gets a slot whose span is the comma, decided from the tree's
shape alone: which words stand between the names and how the second hangs on the first, never their types.
A coordinated list ("Paul, Alexandre, Nicolas, and Charles") is not one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from relguard.extract.spacy.parsed import ParsedDocument

if TYPE_CHECKING:
    from spacy.tokens import Token


#: How the second name may hang on the first: apposition, an unmarked conjunct, a bare noun-phrase adverbial.
LINKS = frozenset({"appos", "conj", "npadvmod"})
#: Longest chain of names in apposition ("Guilderland, Albany County, New York" is two links).
MAX_LINKS = 8
_PLACE_TYPES = frozenset({"GPE", "LOC", "FAC"})


def juxtaposed(state: ParsedDocument, a: int, b: int, heads: dict[int, Token]) -> tuple[tuple[int, int], ...]:
    """The comma tokens (inclusive token spans) of mentions ``a`` and ``b`` in apposition, or () when the two
    are not: another word between them, a list, or a second name that does not hang on the first."""
    low, high = state.mentions[a][1], state.mentions[b][0]
    if not {state.mention_type(a), state.mention_type(b)} <= _PLACE_TYPES:
        return ()  # "Harris, Forbes & Co.", "Paul, Alexandre": a comma between other names is part of a name or list
    commas = commas_between(state, low, high)
    if not commas:
        return ()
    link, top = heads[b], heads[a]
    for _ in range(MAX_LINKS):
        if link.dep_ not in LINKS or _listed(state, link):
            return ()
        link = link.head
        if link.i == top.i:
            return tuple((i, i) for i in commas)
        if not low <= link.i < high or state.ment_of[link.i] < 0:
            return ()
    return ()


def commas_between(state: ParsedDocument, low: int, high: int) -> list[int]:
    """The commas of tokens ``low:high`` when all else there is names, a hyphen inside a name, a name's own
    modifier ("Barcelona, northeastern Spain") or a parenthesis ("Kristiania (now Oslo), Norway"); empty when
    any other word stands between."""
    doc, ment_of = state.doc, state.ment_of
    depth, commas = 0, []
    for i in range(low, high):
        text = doc[i].text
        if text in ("(", ")"):
            depth += 1 if text == "(" else -1
            if depth < 0:
                return []
        elif depth or ment_of[i] >= 0:
            continue
        elif text == ",":
            commas.append(i)
        elif text in ("-", "–") and ment_of[i - 1] >= 0 and ment_of[i + 1] >= 0:
            continue
        elif not (doc[i].dep_ in ("amod", "det") and ment_of[doc[i].head.i] >= 0):
            return []
    return commas if depth == 0 else []


def juxtaposed_predicate(state: ParsedDocument, a: int, b: int) -> str:
    """The confidential normal form (it only feeds d_R): "located_in" between places, else "associated_with"."""
    types = state.entity_types
    places = {types[state.mentions[m][3]] for m in (a, b)} <= _PLACE_TYPES
    return "located_in" if places else "associated_with"


def _listed(state: ParsedDocument, link: Token) -> bool:
    """Whether ``link`` is an item of a list of names: its coordination has a conjunction followed by a name
    ("Paris, Berlin, and Rome"). A conjunction that joins larger phrases ("in Montreal, Quebec, and at INSEAD")
    does not make the names a list."""
    doc, ment_of = state.doc, state.ment_of
    for t in (link, *link.conjuncts):
        for c in t.children:
            if c.dep_ != "cc":
                continue
            after = c.i + 1
            while after < len(doc) and doc[after].dep_ == "det" and ment_of[after] < 0:
                after += 1
            if after < len(doc) and ment_of[after] >= 0:
                return True
    return False
