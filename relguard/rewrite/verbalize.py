"""How a sampled predicate reads in its slot's frame: a finite verb, a participle, a role noun, a relative clause.

Forms come from the pool backend (the inventory's public wordings: ``clause`` "is the capital of", ``inverse``
"has as its capital", ``noun`` "capital", ``inverse_noun`` the object's role); :func:`default_forms` is the
fallback every backend shares. Which form a slot gets is decided by its :class:`Place` — the frame read from the
masked sentence (:mod:`relguard.rewrite.frames`), whether the object comes first there, whether the name before
is a person — never by the words the slot replaced (DESIGN invariant 7). Where no form fits the frame the
verbalizer returns ``None`` and the sentence is deleted, and counted (fail closed, readable).

:func:`wordings` lists every string a predicate can be written as, so the leak scan can tell a fill's words from
an original's.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

from relguard.candidates.forms import default_forms
from relguard.kinds import coarse_pair, coarse_type
from relguard.rewrite import frames as fr
from relguard.rewrite.morphology import (
    DETERMINERS,
    indefinite_article,
    past_tense,
    perfect_tense,
    plural_verb,
    singular_head,
)
from relguard.rewrite.shape import RELATIVE
from relguard.types import TypePair
from relguard.wordlist import words

__all__ = ["APPOSITIVE", "RELATIVES", "Ask", "FormVerbalizer", "Place", "Verbalizer", "default_forms"]

Forms = Callable[[str, TypePair], Mapping[str, str | None]]

#: Predicates that two names in apposition state with nothing but a comma ("Guilderland, Albany County").
APPOSITIVE = frozenset({"located_in"})
#: Relative pronouns the verbalizer opens a relative clause with.
RELATIVES = ("that", "who", "which")
#: A noun that can head the phrase of a predicate with no role noun, by the type of the entity it stands for.
GENERIC_HEADS = {
    "PERSON": "person",
    "NORP": "group",
    "ORG": "organization",
    "GPE": "place",
    "LOC": "place",
    "FAC": "facility",
    "PRODUCT": "product",
    "EVENT": "event",
    "WORK_OF_ART": "work",
    "AWARD": "award",
    "LAW": "law",
    "LANGUAGE": "language",
    "ENTITY": "one",
}
#: Generic heads that do not stand for a role noun after an article or adjective ("The second [son of] X": "The
#: second one that …", "an American group that …"): read broken in 20 of 24 development sentences.
_NO_HEAD_NOUN = frozenset({"one", "group"})


def _headed(finite: str, type_pair: TypePair, *, inverted: bool) -> str:
    """The relation as a clause on the holder's generic noun: "person who founded", "place that borders"."""
    kind = type_pair[1 if inverted else 0]
    head = GENERIC_HEADS.get(kind) or GENERIC_HEADS.get(coarse_type(kind), "one")
    return f"{head} {'who' if head == 'person' else 'that'} {finite}"


#: The copula a finite form opens with ("is located in"): a participle or role noun is what follows it.
COPULA = re.compile(r"^(is|was|are|were)\s+")
PREPOSITIONS = words(
    """of in to for by with from at on into onto against as within near over under through about after across
    toward towards upon among between behind beside around inside outside throughout"""
)
#: Participles that read glued to a name before a noun or name ("Paris-born Alice", "Sega-published Daytona"):
#: most do not ("Han-canonized Huo Qubing", "French-persecuted Anna Berg").
COMPOUND_PARTICIPLES = words(
    """born based owned made led backed funded run built produced published designed directed written sponsored
    controlled operated founded managed raised trained educated"""
)
IRREGULAR_PARTICIPLES = words(
    """born known held built made run led won sold taught written given shown seen set found put kept told brought
    bought thought drawn grown thrown driven ridden sung begun chosen spoken stolen taken eaten fallen
    forgotten frozen hidden beaten bound buried home located based situated headquartered"""
)


@dataclass(frozen=True)
class Place:
    """What a fill may know of its slot: the frame, whether the object is named before it (``inverted``),
    whether the name it follows is a person (who/which), whether a name right after it is followed by
    punctuation or the end (``closed``: a relative clause opened there is closed), for a tail the form its
    head printed, whether a possessive before it is a pronoun ("his [REL]": no "his-born"), and whether the word
    before is plural (the verb agrees: "the islands [are located in]"), and whether a noun phrase follows, a name
    or not (a role noun keeps its preposition: "an atypical [opponent of] the genre"), and whether a possessive "'s"
    stands right before it (``owner``: "Sean's [REL] East Asia"), and the kind of a name right before it
    (``kind_before``: "a film [by] X" reads, "Harry [by] X" does not), whether a comma follows it at once, and
    whether what follows it owns a noun (``owning_after``: "Dore's [REL] Dante's Divine Comedy", "[REL] its"), and
    whether a modifier slot follows a name's verb (``after_verb``: "debuts [REL] the film"), and whether it follows
    a conjunction and an earlier slot of its clause that printed more than a bare preposition (``coordinated``:
    "named after X and [REL] Y"), and whether a "since" date governs a verb's slot (``perfect``: "Since 2015,
    Jung [has worked at] the band"), and whether it continues an earlier modifier of one noun phrase (``continued``:
    "a film [directed by] X, [written by] Y"), and whether a comma stands right before it (``after_comma``: a
    modifier there qualifies no noun, so it is no bare preposition: "(1879 – 1960), [in] the United States as")."""

    frame: str
    inverted: bool = False
    person: bool = False
    closed: bool = True
    coordinated: bool = False
    head: str | None = None
    pronoun: bool = False
    name_after: bool = True
    preposition_after: bool = False
    has_tail: bool = False
    plural: bool = False
    phrase_after: bool = False
    past: bool = False
    owner: bool = False
    kind_before: str | None = None
    comma_after: bool = False
    owning_after: bool = False
    after_verb: bool = False
    perfect: bool = False
    continued: bool = False
    after_comma: bool = False


@dataclass(frozen=True)
class Ask:
    """One placeholder of a sentence to word: where it is, the sampled predicate, its public pair and place."""

    start: int
    end: int
    predicate: str
    type_pair: TypePair
    place: Place


#: What a fill calls: (sampled predicate, public type pair, the slot's place) → the words, or None (unfillable).
Verbalizer = Callable[[str, TypePair, Place], "str | None"]


def copula_of(place: Place) -> str:
    """The copula in the place's tense and number: "is", "are", "was", "were"."""
    return ("were" if place.plural else "was") if place.past else ("are" if place.plural else "is")


#: An article and an ordinal between an expression's verb and its role noun ("served as [the 42nd] President of"):
#: the rank is the text's, the role the relation's.
RANK = re.compile(
    r"\s*(?:the|a|an|its|his|her|their)\s+(?:\d+(?:st|nd|rd|th)|first|second|third|fourth|fifth|"
    r"sixth|seventh|eighth|ninth|tenth|eleventh|twelfth)\s*"
)


def ranked_role(verbalize: Verbalizer, predicate: str, type_pair: TypePair, place: Place) -> tuple[str, str] | None:
    """(the head's words, the tail's) for an expression whose parts a rank splits ("Clinton [served as] the 42nd
    [President of] the United States"), ``place`` the head's: a copula at the head and the drawn predicate's role
    noun at the tail ("Clinton was the 42nd founder of the United States", "the 58th person who died in
    Mississippi"); None where the head is no verb or there is no noun."""
    if place.frame not in (fr.FINITE, fr.MODIFIER):
        return None
    noun = verbalize(predicate, type_pair, replace(place, frame=fr.NOUN, name_after=True))
    if not noun or noun.startswith("one "):
        return None  # "the 42nd one that founded": no noun for the predicate or its subject's kind
    copula = copula_of(place)
    if place.frame == fr.MODIFIER:
        copula = f"{'who' if place.person else 'that'} {copula}"
    return copula, noun


def relative_pronoun(place: Place, type_pair: TypePair) -> str:
    """The pronoun that opens a fill's relative clause: "who" after a person, else "that"; for the second modifier
    of a noun phrase (``continued``: "a film by X, [which stars] Y") the relation's own subject decides, and
    "which" follows the comma."""
    if place.continued:
        return "who" if coarse_pair(type_pair)[1 if place.inverted else 0] == "PERSON" else "which"
    return "who" if place.person else "that"


def participle(finite: str) -> str | None:
    """The reduced-relative form of a copula + participle ("is located in" → "located in"), else None."""
    stripped = COPULA.sub("", finite)
    if stripped == finite:
        return None
    first = stripped.split(" ", 1)[0]
    if first in DETERMINERS or not (first.endswith(("ed", "en")) or first in IRREGULAR_PARTICIPLES):
        return None
    return stripped


def split_preposition(form: str) -> tuple[str, str]:
    """(the form without its closing preposition, that preposition) — ("is owned", "by"); ("employs", "")."""
    words = form.split()
    if len(words) > 1 and words[-1] in PREPOSITIONS:
        return " ".join(words[:-1]), words[-1]
    return form, ""


class FormVerbalizer:
    """Turns a sampled predicate into words that fit its :class:`Place` (module docstring)."""

    def __init__(self, forms: Forms) -> None:
        self._forms = forms

    def forms(self, predicate: str, type_pair: TypePair) -> Mapping[str, str | None]:
        return self._forms(predicate, type_pair) or {}

    def finite(self, predicate: str, type_pair: TypePair, *, inverted: bool) -> str:
        forms = self.forms(predicate, type_pair)
        clause = forms.get("clause") or predicate.replace("_", " ")
        return (forms.get("inverse") or _passive(clause)) if inverted else clause

    def noun_phrase(self, predicate: str, type_pair: TypePair, *, inverted: bool) -> str | None:
        """The role noun with its preposition, as the clause words it ("capital of", "enclave within"); a noun
        that names the act of a passive clause, or its result, keeps the clause's "by" ("was adapted by" →
        "adaptation by": "adaptation of X" would make X what was adapted)."""
        forms = self.forms(predicate, type_pair)
        noun = forms.get("inverse_noun") if inverted else forms.get("noun")
        if not noun:
            return None
        clause = forms.get("inverse" if inverted else "clause") or ""
        found = re.search(rf"\b{re.escape(noun)}\s+(\w+)$", clause)
        preposition = found.group(1) if found and found.group(1) in PREPOSITIONS else "of"
        verb = clause.split()[-2:-1]
        if not found and clause.endswith(" by") and verb and noun[:4].lower() == verb[0][:4].lower():
            preposition = "by"  # the act or its result takes its agent so: "the adaptation by X", not "of X"
        return f"{noun} {preposition}"

    def role_noun(self, predicate: str, type_pair: TypePair, *, holder_is_subject: bool) -> str | None:
        """The role the name after a possessive holds: the subject's noun, or the object's (``inverse_noun``; for
        a symmetric relation — its inverse reads as its clause — the same noun: "his [spouse] Alice")."""
        forms = self.forms(predicate, type_pair)
        if holder_is_subject:
            return forms.get("noun")
        symmetric = self.finite(predicate, type_pair, inverted=True) == self.finite(
            predicate, type_pair, inverted=False
        )
        return forms.get("inverse_noun") or (forms.get("noun") if symmetric else None)

    def __call__(self, predicate: str, type_pair: TypePair, place: Place) -> str | None:
        """The words of ``predicate`` for ``place``; None when no form fits (the sentence is then deleted).

        A form that ends in a preposition loses it where the text after the slot already has one ("was
        [REL] by critics"), and a role noun takes its preposition only where a name follows ("the [capital of]
        Canada", but "Blue Demon's biological [son] and ...")."""
        words = self._words(predicate, type_pair, place)
        if words and place.preposition_after and not place.has_tail and place.frame not in (fr.TAIL, fr.REMOVED):
            words = split_preposition(words)[0]
        return words

    def _words(self, predicate: str, type_pair: TypePair, place: Place) -> str | None:
        frame, inverted = place.frame, place.inverted
        if frame == fr.REMOVED:
            return ""
        if frame == fr.END:
            return None
        finite = self.finite(predicate, type_pair, inverted=inverted)
        if frame == fr.TAIL:
            return split_preposition(place.head or finite)[1]
        noun = self.noun_phrase(predicate, type_pair, inverted=inverted)
        if noun and not (place.name_after or place.phrase_after):
            noun = split_preposition(noun)[0]
        relative = relative_pronoun(place, type_pair)
        if place.plural:
            finite = plural_verb(finite)
        if frame == fr.FINITE and place.perfect:
            return perfect_tense(finite, plural=place.plural)
        if place.past:
            finite = past_tense(finite)
        if frame == fr.FINITE:
            return finite
        if frame == fr.MODIFIER and place.after_verb:
            return None  # "Shajon debuts [documented in] the film": only a preposition qualifies a verb (Styled)
        if frame == fr.MODIFIER:
            return participle(finite) or f"{relative} {finite}"
        if frame == fr.NOUN:
            if noun:
                return noun if place.plural else singular_head(noun)
            headed = _headed(finite, type_pair, inverted=inverted)
            if headed.split()[0] in _NO_HEAD_NOUN:
                return None  # "The second one that was contrasted with", "an American group that had as a descendant"
            return headed
        if frame == fr.COPULA:
            stripped = COPULA.sub("", finite)
            if stripped != finite:
                return stripped
            if noun:
                return f"the {noun}"
            headed = _headed(finite, type_pair, inverted=inverted)
            if headed.split()[0] == "one":
                return None  # "is a Gaelic football and a one that overshadowed" (development reading)
            return f"{indefinite_article(headed)} {headed}"  # "an organization that", "a person who"
        if frame == fr.APPOSITION:
            if noun and not place.has_tail:
                return f"the {noun}"  # "Ann Lee, the founder of Beta,"
            return participle(finite) or f"{'who' if place.person else 'which'} {finite}"  # "Acme, founded by X"
        if frame in (fr.POSSESSIVE, fr.ROLE):
            role = self.role_noun(predicate, type_pair, holder_is_subject=inverted)
            holder, owner = type_pair if inverted else type_pair[::-1]
            if role and (frame == fr.POSSESSIVE or (holder == "PERSON" and owner != "PERSON")):
                return role  # "Acme's [founder] Alice", "Velvet Revolver [drummer] Matt Sorum", not "Seok [donor] X"
            if frame == fr.ROLE:
                return f", {'who' if place.person else 'which'} {finite}"  # "Hugh Jackman, who appointed X,"
            made = participle(self.finite(predicate, type_pair, inverted=not inverted))
            glued = split_preposition(made)[0] if made else ""
            if place.name_after and not place.pronoun and glued in COMPOUND_PARTICIPLES:
                return "-" + glued  # "Paris-born Alice", "Sega-published Daytona"
            return None
        if frame == fr.COMMA:
            if predicate in APPOSITIVE and not inverted:
                return ","  # "Dublin, Ohio": the one relation a bare comma states
            if place.closed:
                return f", {'who' if place.person else 'which'} {finite}"
            return None  # "born in Baltimore [that colonized] Maryland and died": the neutral comma reads there
        if frame == fr.HYPHEN:
            made = participle(finite)
            if made and split_preposition(made)[0] in COMPOUND_PARTICIPLES:
                return "-" + split_preposition(made)[0]  # "Los Angeles-owned cover band"
            return None
        if frame == fr.START:
            fronted = participle(self.finite(predicate, type_pair, inverted=not inverted))
            return fronted[0].upper() + fronted[1:] if fronted else None
        raise ValueError(f"unknown frame {frame!r}")


#: The wordings a fill tries for a sentence, in order, keeping the first under which every fill reads: after a
#: noun phrase, the preposition the drawn predicate's clause closes with ("her home [in] the United States", "a
#: river [in] X"), which attaches to whatever noun stands there and adds no clause; the frame's own form; a
#: relative clause ("a river [that flows into] X") where the own form was a participle.
STYLES = ("preposition", "own", "relative")
_PREPOSITION_FRAMES = frozenset({fr.MODIFIER, fr.COMMA})
#: The prepositions that alone, after a noun, read as a relation to the name after ("a film by X", "a river in
#: X"); others need the noun to govern them ("a film to X", "a church to X"). After a name, "of" reads as the
#: name's owner, no relation ("England of Christchurch", "Sacramento of Counting Crows tours": development readings).
_AFTER_A_NOUN = frozenset({"by", "in", "of", "from", "with", "for", "at", "on", "near", "within"})
#: The prepositions that read in place of the comma between two places ("Albany [in] New York"); "Albany of New
#: York" and "Albany from New York" do not (after another name "World Cup [by] Egypt" does).
_ALONG_A_CHAIN = frozenset({"in", "near", "within"})
_PLACES = frozenset({"GPE", "LOC"})
#: The kinds a bare "by" reads after, said by a name or a noun ("a film by X", "a bridge by X"); "Harry by the Ramsay
#: family" and "a planned community by Okotoks" do not.
_MADE_BY = frozenset({"WORK_OF_ART", "PRODUCT", "LAW", "FAC", "EVENT"})


class Styled:
    """A verbalizer that words every slot in one :data:`STYLES` style where the frame allows it, else as
    ``base`` does. The fill tries each style for a sentence whose own wording does not read and keeps the first
    that does (:func:`relguard.rewrite.fill.fill_slots`): the candidates come from the drawn predicate, the
    public type pair and the slot's place only, and the choice reads only the masked sentence and the candidate."""

    def __init__(self, base: FormVerbalizer, style: str) -> None:
        self.base, self.style = base, style

    def __call__(self, predicate: str, type_pair: TypePair, place: Place) -> str | None:
        own = self.base(predicate, type_pair, place)
        if self.style == "preposition" and place.frame in _PREPOSITION_FRAMES and place.name_after:
            if place.frame == fr.COMMA and predicate in APPOSITIVE and not place.inverted:
                return own
            closing = split_preposition(self.base.finite(predicate, type_pair, inverted=place.inverted))[1]
            chain = place.frame != fr.COMMA or not set(coarse_pair(type_pair)) <= _PLACES or closing in _ALONG_A_CHAIN
            maker = coarse_type(place.kind_before or type_pair[1 if place.inverted else 0])
            made = maker in _MADE_BY or closing != "by"
            owned = closing == "of" and place.kind_before is not None and place.frame == fr.MODIFIER
            if (
                closing in _AFTER_A_NOUN
                and chain
                and made
                and not owned
                and not place.preposition_after
                and not place.has_tail
                and not place.coordinated
                and not (place.after_comma and place.frame == fr.MODIFIER)
            ):
                return closing  # not after "and": "named after X and [by] Y" leaves "by" with nothing to hang on
        if self.style == "relative" and place.frame == fr.MODIFIER and own and not RELATIVE.match(own):
            finite = self.base.finite(predicate, type_pair, inverted=place.inverted)
            finite = plural_verb(finite) if place.plural else finite
            finite = past_tense(finite) if place.past else finite
            relative = relative_pronoun(place, type_pair)
            words = f"{relative} {finite}"
            return split_preposition(words)[0] if place.preposition_after and not place.has_tail else words
        return own


def _passive(clause: str) -> str:
    """A fallback inverse for a one-word past-tense verb ("founded" -> "was founded by")."""
    if " " not in clause and clause.endswith("ed"):
        return f"was {clause} by"
    return clause
