"""The analyst's review queue: what is unprotected, which entity types look wrong, which sentences need a look.

All of it is for the analyst's eyes on the confidential side of the app (it shows the originals); nothing here
goes into a public file. The queues are built from public structure and the drawn outcomes, plus a re-parse of
the filled sentences with the extractor's own spaCy pipeline.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from relguard.engine.outcomes import OutcomeTable
from relguard.engine.rewrite import fills_by_sentence
from relguard.extract.lowercase import typed_without_capitals
from relguard.extract.spacy import lexicon as lex
from relguard.extract.unprotected import unprotected_sentences
from relguard.kinds import coarse_type
from relguard.pipeline import Prepared
from relguard.types import UNSURE, Extraction, Release

#: Sentence openers that lean on the sentence before: a reader is lost when that one was deleted.
LEANING = re.compile(
    r"^(?:he|she|it|they|his|her|its|their|this|these|those|there|then|the (?:company|firm|band|"
    r"group|team|club|city|town|country|school|university|film|album|festival))\b",
    re.I,
)
_NATIONALITY = re.compile(r"^[A-Z][a-z]+(?:ish|ese|ian|an|ic|i)$")
_FINITE_WORDS = frozenset({"is", "was", "are", "were", "has", "had", "have"})
_OBJECTS = frozenset({"her", "him", "them", "me", "us"})
#: Words that begin a compound role ("chief executive"): left before a fill, the relation was cut in two.
_PLACE_PREPOSITIONS = frozenset({"in", "near", "from", "outside", "around"})
_LAST_WORD = re.compile(r"(\w+)\s+$")
_FIRST_WORD = re.compile(r"\s+(\w+)")
#: Nouns a place name stands before ("our Glasgow office"): the name is the place, not a person.
_PLACE_HEADS = frozenset({"office", "offices", "branch", "headquarters", "site", "plant", "campus", "airport", "port"})
#: The review queues' names (the page shows them; a dismissal names one).
UNSLOTTED = "relations not protected"
TYPES = "entity types that look wrong"
LOOK = "sanitized sentences that need a look"
_ROLE_PREFIXES = frozenset({"chief", "vice", "deputy", "co", "senior", "junior", "late", "former", "executive"})


@dataclass(frozen=True)
class Flag:
    """One item of a review queue: where it is, what is wrong, and the text to look at; ``queue`` and ``item``
    name it for a dismissal (:class:`relguard.extract.review.Dismiss`), ``item`` stable across other edits."""

    document: str
    sentence: int | None
    problem: str
    text: str
    queue: str = ""
    item: str = ""

    def key(self) -> tuple[str, str, str]:
        return (self.queue, self.document, self.item)


def unprotected_queue(extraction: Extraction) -> list[Flag]:
    """Sentences that name two or more entities and hold no slot: where a missed relation is released as written."""
    by_name = {d.document.name: d for d in extraction.documents}
    flags = []
    for item in unprotected_sentences(extraction):
        if item.reason != "no slot":
            continue  # a name no entity stands for has its own queue (relguard.studio.queue.untyped_names)
        problem = f"names {', '.join(item.entities)} but has no relation slot: add one if a relation links them"
        text = by_name[item.document].sentence_text(item.sentence)
        flags.append(Flag(item.document, item.sentence, problem, text, UNSLOTTED, f"sentence {item.sentence}"))
    return flags


def suspicious_types(extraction: Extraction) -> list[Flag]:
    """Entities whose type looks wrong by their name: their pool, and so their protection, may be the wrong one."""
    flags: list[Flag] = []
    seen: set[tuple[str, str]] = set()
    for doc in extraction.documents:
        lower_typed = typed_without_capitals(doc.document.text)
        for entity in doc.entities:
            if (entity.name, entity.type) in seen:
                continue
            seen.add((entity.name, entity.type))
            reason = (
                _lower_typed(entity, lower_typed)
                or _type_problem(entity.name, entity.type)
                or _place_problem(entity, doc.document.text)
                or _one_word_person(entity)
                or _unsure(entity)
            )
            if reason:
                first = entity.mentions[0].sentence if entity.mentions else None
                problem = f"{entity.name} typed {entity.type}: {reason}"
                flags.append(Flag(doc.document.name, first, problem, entity.name, TYPES, entity.name))
    return flags


def _lower_typed(entity, lower_typed: bool) -> str | None:
    """In a text typed without capitals the NER types names by their context alone ("oluwaseun" ORG): every one of
    them is worth a look, and "starts in lower case" says nothing there."""
    if not entity.name[:1].islower() or not lower_typed:
        return None
    return "the text is typed in lower case, so its type was read from the words around it alone: check it"


def _unsure(entity) -> str | None:
    """An entity whose kind nothing public settled: its relations come from the pools any kind can hold, which say
    less than its own kind's would."""
    if entity.type != UNSURE:
        return None
    return "only the NER saw it, so its relations are drawn from pools any kind can hold: set its type if you know it"


def _one_word_person(entity) -> str | None:
    """A PERSON only ever named by one capitalized word: people are named with two, places and firms with one."""
    if entity.type != "PERSON" or any(" " in m.text for m in entity.mentions if m.text[:1].isupper()):
        return None
    return "named by one word only (a place, a company or a product?)"


def _place_problem(entity, text: str) -> str | None:
    """A PERSON or ORG named right after a place preposition ("born in Kiel", "near Sylt") is probably a place."""
    words = entity.name.split()
    one_word = entity.type in ("ORG", UNSURE) and len(words) == 1
    if not ((entity.type == "PERSON" and len(words) <= 2) or one_word):
        return None
    for mention in entity.mentions:
        before = _LAST_WORD.search(text[max(0, mention.start - 12) : mention.start])
        if before and before.group(1).lower() in _PLACE_PREPOSITIONS:
            return f"named after '{before.group(1)}' like a place (GPE or LOC?)"
        after = _FIRST_WORD.match(text, mention.end)
        if after and after.group(1).lower() in _PLACE_HEADS:  # "our Tobermory office": PERSON or one-word ORG
            return f"named before '{after.group(1)}' like a place (GPE or LOC?)"
    return None


def _type_problem(name: str, kind: str) -> str | None:
    kind = coarse_type(kind)
    words = name.split()
    last = words[-1].lower().strip(".,") if words else ""
    if kind == "PERSON" and (last in lex.ORG_HEADS or last in lex.ORG_SUFFIXES):
        return f"'{words[-1]}' names an organization"
    if kind not in ("ORG", "PERSON") and last in lex.ORG_SUFFIXES:
        return f"'{words[-1]}' names an organization (ORG?)"
    if kind != "NORP" and len(words) == 1 and _NATIONALITY.match(name) and kind in ("ORG", "PERSON", "GPE"):
        return "reads like a nationality or group (NORP)"
    if last in ("of", "in", "at", "for", "and", "the"):
        return f"ends in '{words[-1]}': the name is cut off"
    if name[:1].islower():
        return "starts in lower case: probably not a name"
    if any(c.isdigit() for c in name) and kind in ("PERSON", "GPE", "NORP"):
        return "holds digits"
    return None


def needs_a_look(prepared: Prepared, release: Release, *, nlp=None) -> list[Flag]:
    """Sanitized sentences a reader would stumble on.

    A kept sentence that opens with a pronoun or "the company" right after a deleted sentence has lost its
    antecedent; a fill whose words do not fit the words before it (a verb after a preposition, "that" after a
    noun that may be a leftover of the relation) or that doubles a word does not read as a clause. ``nlp`` is
    the spaCy pipeline that re-reads the filled sentences (the extractor's own).
    """
    table = OutcomeTable.of_release(release)
    flags: list[Flag] = []
    for doc, out in zip(release.extraction.documents, release.documents, strict=True):
        removed = set(out.gone_sentences)
        for number in range(1, len(doc.sentences)):
            if number not in removed and number - 1 in removed and LEANING.match(doc.sentence_text(number)):
                problem = "opens by pointing back to a deleted sentence (a pronoun of a slot is named: check whom)"
                text = doc.sentence_text(number)
                flags.append(Flag(doc.document.name, number, problem, text, LOOK, f"sentence {number}"))
        if nlp is None:
            continue
        for number, (text, fills) in fills_by_sentence(doc, table, forms=prepared.generator.forms).items():
            problem = _clause_problem(nlp(text), text, fills)
            if problem:
                flags.append(Flag(doc.document.name, number, problem, text, LOOK, f"sentence {number}"))
    return flags


def _clause_problem(parsed, text: str, fills) -> str | None:
    """Why a filled sentence reads wrong at a fill, judged from the words around it, or None."""
    for start, end in fills:
        inside = re.findall(r"\w+", text[start:end])
        before = [t for t in parsed if t.idx + len(t) <= start and not t.is_punct and not t.is_space][-1:]
        after = re.findall(r"\w+", text[end:])[:1]
        if not inside:
            continue
        if (before and before[0].lower_ == inside[0].lower()) or (after and after[0] == inside[-1]):
            return "a word is doubled where the relation was filled"
        first = inside[0].lower()
        if before and first in _FINITE_WORDS and (before[0].pos_ == "ADP" or before[0].lower_ in _OBJECTS):
            return f"the filled words ({text[start:end]!r}) do not read after {before[0].text!r}"
        if before and first == "that" and (before[0].pos_ == "ADJ" or before[0].lower_ in _ROLE_PREFIXES):
            return f"{before[0].text!r} before the fill may be a leftover of the original relation"
    return None
