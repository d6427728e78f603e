"""How a sampled predicate reads in the masked text around its slot: clause, inverse, role noun.

Forms come from the pool backend (the inventory's public wordings); :func:`default_forms` is the fallback every
part of the library shares when a backend has none for a predicate.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from relguard.candidates.forms import default_forms
from relguard.types import TypePair

__all__ = ["APPOSITIVE", "RELATIVES", "FormVerbalizer", "default_forms"]


_WORD = re.compile(r"[A-Za-z']+")
_COPULA = {"is", "was", "are", "were", "be", "been", "being"}
_DETERMINERS = {"the", "a", "an"}
_POSSESSIVES = {"his", "her", "their", "its", "my", "our", "your"}
_CLAUSE_OPENERS = {
    "who", "which", "that", "whom", "he", "she", "it", "they", "we", "i", "you", "and", "or", "but", "also",
    "later", "then", "now", "still", "once", "soon", "first", "never", "often", "again", "already", "has",
    "had", "have", "not", "jointly", "together", "reportedly",
}  # fmt: skip
_LEADING_COPULA = re.compile(r"^(is|was|are|were)\s+")
#: Predicates that two names in apposition state with nothing but a comma ("Guilderland, Albany County").
APPOSITIVE = frozenset({"located_in"})
#: Relative pronouns the verbalizer opens a reduced or relative clause with ("that founded", ", which borders").
RELATIVES = ("that", "who", "which")


class FormVerbalizer:
    """Turns a sampled predicate into words that fit the masked text around its slot.

    Forms come from the public inventory: ``clause`` ("SUBJECT is the capital of
    OBJECT"), ``inverse`` ("OBJECT has as its capital SUBJECT"), the role
    ``noun`` ("capital": the subject's role) and ``inverse_noun`` (the object's
    role, for "Acme Corp's founder Alice Smith"). Which one fits is decided from the masked text before
    the slot and the slot's orientation only: after a preposition's object a qualifying clause, after a
    possessive the role noun,
    after a determiner the noun phrase, after a copula the form without its
    copula, after a comma an apposition, after a common noun a reduced relative
    clause, else the clause (or its inverse when the object comes first).
    """

    def __init__(self, forms: Callable[[str, TypePair], Mapping[str, str | None]]) -> None:
        self._forms = forms

    def __call__(
        self, predicate: str, type_pair: TypePair, before: str, after: str, *, inverted: bool = False, context: str = ""
    ) -> str:
        forms = self._forms(predicate, type_pair)
        clause = forms.get("clause") or predicate.replace("_", " ")
        noun = forms.get("noun")
        phrase = (forms.get("inverse") or _passive(clause)) if inverted else clause
        if context == "modifier" and noun:
            return noun  # "Bob Jones, an Acme Corp [employee]": the subject's role, after the object's name
        if context == "juxtaposed":
            if predicate in APPOSITIVE and not inverted:
                return ","  # "Dublin, Ohio": the one relation a bare comma states
            return ", " + _relative(phrase, type_pair, inverted=inverted)
        if context == "object":
            return _qualifier(phrase)  # "recorded at Studio 92 [that is a landmark of] Canada"
        if context in ("entity", "after_apposition", "modifier"):
            return phrase
        tail = before[-40:]
        words = _WORD.findall(tail)
        last = words[-1] if words else ""
        spaced = tail.endswith(" ")
        if re.search(r"['’]s\s*$", tail) or (last.lower() in _POSSESSIVES and spaced):
            if inverted:
                return noun or phrase  # "Alice Smith, Acme Corp's [founder]": the subject's role
            return forms.get("inverse_noun") or noun or phrase  # "Acme Corp's [founder] Alice Smith"
        if last.lower() in _DETERMINERS and spaced:
            return f"{noun} of" if noun and not inverted else _LEADING_COPULA.sub("", phrase)
        if last.lower() in _COPULA and spaced:
            stripped = _LEADING_COPULA.sub("", phrase)
            if stripped != phrase:
                return stripped
            return f"the {noun} of" if noun and not inverted else phrase
        if re.search(r",\s*$", tail):
            stripped = _LEADING_COPULA.sub("", phrase)
            if stripped != phrase:
                return stripped
            if noun and not inverted:
                return f"the {noun} of"
            return _relative(phrase, type_pair, inverted=inverted)
        if spaced and last.islower() and last.lower() not in _CLAUSE_OPENERS and not last.endswith("ly"):
            stripped = _LEADING_COPULA.sub("", phrase)
            return stripped if stripped != phrase else "that " + phrase
        return phrase


def _qualifier(phrase: str) -> str:
    """A clause that qualifies the name before it, which is a preposition's object and cannot take a main verb:
    a participle where the phrase is a passive ("at the Olympics [held in] Turin"), else a "that" clause."""
    stripped = _LEADING_COPULA.sub("", phrase)
    if stripped != phrase and stripped.split(" ", 1)[0] not in _DETERMINERS | _POSSESSIVES and " " in stripped:
        return stripped
    return "that " + phrase


def _relative(phrase: str, type_pair: TypePair, *, inverted: bool) -> str:
    """A non-restrictive relative clause on the name before the slot: "who …" for a person, else "which …"."""
    return ("who " if type_pair[1 if inverted else 0] == "PERSON" else "which ") + phrase


def _passive(clause: str) -> str:
    """A fallback inverse for a one-word past-tense verb ("founded" -> "was founded by")."""
    if " " not in clause and clause.endswith("ed"):
        return f"was {clause} by"
    return clause
