"""Where no fill reads well, say the drawn relation plainly: "Alice Smith founded Acme Corp."

A sentence no wording of its drawn relation fits (unfillable: :mod:`relguard.rewrite.shape`,
:mod:`relguard.rewrite.guard`, a frame with no form), with no neutral connector that reads
(:mod:`relguard.rewrite.neutral`) and no expression in parts that may be worded as one
(:mod:`relguard.rewrite.collapse`), would otherwise be deleted, and its names with it: a reader would lose the
facts and a retriever the passage. So the sentence is replaced by one plain statement per
relation group its fills would print, "<subject> <finite form of the sampled predicate> <object>.", in the
order their slots come, after the sentence's opening where it reads alone (its first clause with its first
fill, :func:`relguard.rewrite.clause.first_clause`, else the words before its first slot,
:func:`relguard.rewrite.clause.opening_before_slots`).

What it is built from is public: the group's key names (DESIGN invariant 6), spelled as a mention of the sentence
spells them, the sampled predicate and its public type pair, and the masked text of the opening. A group whose
names the sentence does not both name, or which are no proper names, is not stated. The choice to restate is the
fill's own (a function of the masked sentence and the outcomes), so a neighbour document gets the same statement
for the same outcomes (invariant 7). A group already stated in the document (restated earlier, or printed by a
kept fill) is not stated twice; a sentence with neither an opening that reads nor anything left to state is
deleted, and counted.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from relguard.extract.slots import name_key
from relguard.rewrite.clause import first_clause, opening_before_slots, without_asides
from relguard.rewrite.frames import FINITE
from relguard.rewrite.mask import MaskedDocument, prints_own
from relguard.rewrite.phrases import takes_the
from relguard.rewrite.tagging import tag_sentences
from relguard.rewrite.verbalize import Place, Verbalizer

#: The last word of a name cut before its number ("Sonata No", "Op").
_CUT_OFF = frozenset({"No", "Nos", "Op", "Vol", "Pt", "BWV", "K"})
#: Words that are no name on their own.
_BARE = frozenset({"LLC", "INC", "LTD", "CO", "CORP", "PLC", "GMBH", "AG", "SA", "NV", "LP", "LLP", "CDP", "NA"})
_ROMAN = re.compile(r"[IVXLC]+")  # "IX" of "Christian IX", cut from its name
_INITIAL_LAST = re.compile(r"\s[A-Z]\.$")  # "John F.": a name the sentence splitter cut after an initial
#: "the" right before a mention (only a quote between): the name reads with it ("the Soviet Union").
_ARTICLE = re.compile(r"\b([Tt]he)\s+[\"“‘']?$")
#: Tags of a word that makes the name before it a modifier ("the Wellington suburb"), as a hyphen does ("the
#: Boston-based band").
_HEAD_AFTER = frozenset({"HYPH", "NN", "NNS"})


@dataclass(frozen=True)
class Statement:
    """A restated sentence: its text and where the drawn predicates' words are in it."""

    text: str
    fills: tuple[tuple[int, int], ...]


def restatements(
    masked: MaskedDocument,
    sentences: Collection[int],
    outcomes: Mapping,
    verbalize: Verbalizer,
    *,
    printed: Collection[int] = (),
    texts: Mapping[int, str] | None = None,
    whole: Mapping[int, tuple[str, Sequence[tuple[int, int]]]] | None = None,
    past: Collection[int] = (),
) -> dict[int, Statement]:
    """A :class:`Statement` for each of ``sentences`` (numbers) that has a group not stated before it, nor
    ``printed`` by a fill the document keeps. With the slots' ``texts`` (the fill's words), a sentence whose
    first clause reads on its own keeps it (:func:`relguard.rewrite.clause.first_clause`) and only the rest is
    restated; else the words before its first slot are kept where they read as a sentence
    (:func:`relguard.rewrite.clause.opening_before_slots`), and every group is stated after them. A sentence in
    ``whole`` (its text and fill ranges, worded with neutral connectors: :mod:`relguard.rewrite.neutral`) is
    kept as it stands, and every group is stated after it. A sentence in ``past`` is stated in the past tense, as
    it was told; one that keeps nothing of its opening keeps a dated phrase it opens with ("On 4 May 1921, …",
    :func:`_dated_lead`) before its first statement, so its date is not lost with its words."""
    stated: set[int] = set(printed)
    out: dict[int, Statement] = {}
    whole = whole or {}
    for number in sorted(sentences):
        opening = first_clause(masked, number, texts) if texts is not None and number not in whole else None
        groups = _groups_of(masked, number, outcomes)
        pieces: list[str] = []
        fills: list[tuple[int, int]] = []
        length = 0
        if number in whole:
            kept, ranges = whole[number]
            kept = kept.rstrip()
            kept += "" if kept[-1:] in _ENDS else "."
            pieces.append(kept)
            fills += [(a, min(b, len(kept))) for a, b in ranges if a < len(kept)]
            length = len(kept)
        elif opening is not None:
            pieces.append(opening[0])
            fills += opening[1]
            length = len(opening[0])
            stated.add(groups[0][0])
        elif (rest := without_asides(masked, number)) is not None:
            pieces.append(rest)
            length = len(rest)
        elif (before := opening_before_slots(masked, number)) is not None:
            pieces.append(before)
            length = len(before)
        lead = "" if pieces else _dated_lead(masked, number)
        told = Place(FINITE, past=number in past)
        for choices in groups:
            if any(g in stated for g in choices):
                continue
            found = next(
                ((g, c) for g in choices if (c := _clause(masked, number, outcomes[g], verbalize, told))), None
            )
            if found is None:
                continue
            group, clause = found
            subject, words, obj = clause
            stated.add(group)
            if pieces:
                length += 1
            opening = f"{lead}, {subject}" if lead else f"{subject[0].upper()}{subject[1:]}"
            lead = ""
            start = length + len(opening) + 1
            fills.append((start, start + len(words)))
            dated = _dated_after(masked, number, obj)
            if dated and any(dated in piece for piece in pieces):
                dated = ""
            sentence = f"{opening} {words} {obj}{dated}" + ("" if (obj + dated).endswith(".") else ".")
            pieces.append(sentence)
            length += len(sentence)
        if pieces:
            out[number] = Statement(" ".join(pieces), tuple(fills))
    return out


#: What may end a sentence kept whole, before the statements after it.
_ENDS = frozenset(".!?\"'”’)]")


def _groups_of(masked: MaskedDocument, number: int, outcomes: Mapping) -> list[tuple[int, ...]]:
    """Per slot whose fill would print an outcome of its own, in the order the slots come, the groups a statement
    may say for it, best first: the slot's first group, the pair named nearest it (the one its fill prints).

    A slot after "and" ("a film directed by A and [produced by] B") takes instead, and a slot whose nearest pair
    a statement cannot say ("American" before "[directed by] László Benedek") takes next, the pair of the
    sentence's topic (its first name before the first slot that is a group's subject) and the slot's own
    object, where the slot stands for that pair: a reader of the original links B to the film, not to A ("Frank
    Capra is a child of Harry Cohn" stated a relation between the wrong names). Slots, groups and keys are public.
    """
    slots = [s for s in masked.slots if s.sentence == number and prints_own(masked, s)]
    topic = _topic(masked, number, [g for s in slots for g in s.groups], outcomes)
    out: list[tuple[int, ...]] = []
    for n, slot in enumerate(slots):
        near = slot.groups[0]
        topical = next(
            (
                g
                for g in slot.groups
                if outcomes[g].subject == topic and outcomes[g].object == outcomes[near].object and g != near
            ),
            None,
        )
        if topical is None:
            choices: tuple[int, ...] = (near,)
        elif n and _AFTER_AND.search(masked.text, max(0, slot.start - 8), slot.start):
            choices = (topical,)
        else:
            choices = (near, topical)
        if choices not in out:
            out.append(choices)
    return out


#: A slot right after a coordinating "and" (its verb shares the sentence's subject).
_AFTER_AND = re.compile(r"\band\s*$")


def _topic(masked: MaskedDocument, number: int, groups: list[int], outcomes: Mapping) -> str | None:
    """The name a sentence is about: its first mention before its first slot that is the subject of one of
    ``groups`` (a nationality is no topic)."""
    start = masked.sentences[number][0]
    end = min((s.start for s in masked.slots if s.sentence == number), default=start)
    subjects = {name_key(outcomes[g].subject): outcomes[g].subject for g in groups if outcomes[g].subject}
    for a, b, kind in sorted(masked.mentions):
        if start <= a and b <= end and kind != "NORP":
            found = name_key(masked.text[a:b])
            for key, name in subjects.items():
                if found == key or (found and set(key) <= set(found)):
                    return name
    return None


#: A phrase that dates what the sentence tells, before its first name: "On 4 May 1921", "In the early 1950s"; not
#: one of a span ("Since 2004"), which a statement of another relation may not last.
_DATED = re.compile(
    r"(?:In|On|During|By|After|Before|Around|Circa)\b[^,;:()\[\]\"]{0,40}?"
    r"\b\d{3,4}s?\b[^,;:()\[\]\"]{0,16}?(?=,\s)"
)


def _dated_lead(masked: MaskedDocument, number: int) -> str:
    """The dated phrase the sentence opens with, where no name or slot stands in it; else ""."""
    start, end = masked.sentences[number]
    found = _DATED.match(masked.text, start, end)
    if found is None:
        return ""
    inside = [a for a, _, _ in masked.mentions if start <= a < found.end()]
    inside += [s.start for s in masked.slots if s.sentence == number and s.start < found.end()]
    return "" if inside else found.group()


#: A date right after a name, as a filled sentence keeps it: " in 1990", " on 4 May 1921", " from 1998 to 2002".
_DATED_AFTER = re.compile(
    r"\s(?:in|on|during|from|by|until|between)\s(?:(?:the|early|late|mid)\s)?(?:[A-Z][a-z]+\s|\d{1,2}\s){0,2}"
    r"\d{3,4}s?(?:\s?(?:–|-|to|and)\s?\d{2,4})?\b"
)


def _dated_after(masked: MaskedDocument, number: int, name: str) -> str:
    """The date that follows ``name`` (as the sentence spells it) in the masked sentence, where no slot or other
    name stands in it; else "". A restatement keeps it after the same name, where a fill would have kept it."""
    start, end = masked.sentences[number]
    at = masked.text.find(name, start, end)
    found = _DATED_AFTER.match(masked.text, at + len(name), end) if at >= 0 else None
    if found is None or "[REL" in found.group():
        return ""
    inside = any(found.start() <= a < found.end() for a, _, _ in masked.mentions)
    return "" if inside else found.group()


def _clause(
    masked: MaskedDocument, number: int, sampled, verbalize: Verbalizer, told: Place
) -> tuple[str, str, str] | None:
    """(subject, predicate words, object) for one group, or None where a plain statement would not read: a name
    missing or not named in the sentence (a pronoun's antecedent is a guess), a name that is no proper name
    ("km²", "D", "non-Congress"), a nationality or group (NORP: "American followed …"), no finite form. A name
    the sentence names only by a pronoun is said by that pronoun ("He served in World War II"), never by the
    antecedent the pronoun was resolved to (a guess)."""
    subject, obj = sampled.subject, sampled.object
    if sampled.predicate is None or not subject or not obj or name_key(subject) == name_key(obj):
        return None
    if "NORP" in sampled.type_pair or not (_proper(subject) and _proper(obj)):
        return None
    spelled = (
        _spelled(masked, number, subject) or _pronoun(masked, number, sampled.type_pair[0], subject=True),
        _spelled(masked, number, obj) or _pronoun(masked, number, sampled.type_pair[1], subject=False),
    )
    if spelled[0] is not None and spelled[0] == spelled[1]:
        return None
    if not all(_proper(name.removeprefix("the ")) for name in spelled if name and name not in _PERSONAL):
        return None  # the sentence spells it cut ("Iain M." of "Iain M. Banks")
    words = verbalize(sampled.predicate, sampled.type_pair, told)
    if not words or not words[0].isalpha() or None in spelled:
        return None
    return spelled[0], words, spelled[1]


#: A comma and a later "and": names listed as one mention.
_LISTED = re.compile(r", .* and ")


def _proper(name: str) -> bool:
    """A name that reads as one at the start of a sentence: a capital or a digit first, two letters or more."""
    if name.rsplit(" ", 1)[-1].rstrip(".") in _CUT_OFF or name.rstrip(".").upper() in _BARE or _ROMAN.fullmatch(name):
        return False  # "Violin Sonata No": a name the tokenizer cut at its number; "LLC" alone
    if _INITIAL_LAST.search(name):
        return False
    if name.count("(") != name.count(")") or name.count('"') % 2:
        return False  # "Superman (It's Not Easy": a title the NER cut inside its brackets
    if _LISTED.search(name):
        return False  # "Pontefract, Barnsley and Doncaster": a list the NER took as one name, no subject for "is"
    return (name[0].isupper() or name[0].isdigit()) and sum(c.isalpha() for c in name) >= 2


#: Personal pronouns a sentence may name a person by, as subject and as object.
_SUBJECT_FORM = {"he": "he", "she": "she", "him": "he", "her": "she", "they": "they", "them": "they"}
_OBJECT_FORM = {"he": "him", "she": "her", "him": "him", "her": "her", "they": "them", "them": "them"}
_PERSONAL = frozenset(_SUBJECT_FORM) | frozenset(_OBJECT_FORM.values())


def _pronoun(masked: MaskedDocument, number: int, kind: str, *, subject: bool) -> str | None:
    """The one personal pronoun of the sentence that names a ``kind`` entity (a person), in the form its place in
    a statement wants; None where there is none or more than one."""
    if kind != "PERSON":
        return None
    start, end = masked.sentences[number]
    found = {
        masked.text[a:b].lower()
        for a, b, mention_kind in masked.mentions
        if start <= a and b <= end and mention_kind == kind and masked.text[a:b].lower() in _SUBJECT_FORM
    }
    if len({_SUBJECT_FORM[p] for p in found}) != 1:
        return None
    (word,) = {_SUBJECT_FORM[p] for p in found}
    return word if subject else _OBJECT_FORM[word]


def _spelled(masked: MaskedDocument, number: int, name: str) -> str | None:
    """The name as a mention of the sentence spells it ("The Beatles"); its canonical spelling where the
    sentence names it in part ("Sanford" for "James Terry Sanford"); None where it does not name it."""
    start, end = masked.sentences[number]
    key = name_key(name)
    partial = False
    for a, b, _ in masked.mentions:
        if a >= start and b <= end:
            found = name_key(masked.text[a:b])
            if found == key:
                return _with_article(masked, number, a, b)
            partial |= bool(found) and set(found) <= set(key)
    return name if partial else None


def _with_article(masked: MaskedDocument, number: int, a: int, b: int) -> str:
    """The mention at ``a:b`` with the "the" a statement wants: the one before it in the sentence, unless the
    name there modifies the noun after it ("the Epic Records record label": the article is the label's), or
    "the" where the name always takes one ("US" in "Florida, US")."""
    start, end = masked.sentences[number]
    name = masked.text[a:b].strip(" ,;:")
    article = _ARTICLE.search(masked.text, max(start, a - 6), a)
    if article and masked.text[b : b + 1] not in ("-", "–"):
        (tagged,) = tag_sentences([masked.text[start:end]])
        after = [t for t in tagged.tokens if t[0] >= b - start]
        if not after or after[0][3] not in _HEAD_AFTER:
            return f"{article.group(1)} {name}"
    return f"the {name}" if takes_the(name) else name
