"""The grammatical frame of every slot, read from the masked sentence alone (DESIGN invariant 7).

A fill is English only if it has the form its place wants: "The club [REL] Oettinger" wants a finite verb,
"a racing video game [REL] Sega" a participle or relative clause, "the [REL] Canada" a role noun, "Acme's [REL]
Alice" the role Alice holds. Which form a place wants is read here from the masked sentence — every placeholder
taken out, the rest tagged by spaCy's tagger — and from the public mentions, never from the words the slot
replaced: two documents that differ only in relation wording have the same masked sentence, hence the same
frames. Tags are cached per masked sentence (placeholders normalized), since a corpus repeats them.

Frames:

* ``finite`` — the slot is the verb of its clause: no finite verb before it in the clause ("Acme [REL] Alice");
* ``modifier`` — the clause has its verb, the slot follows a noun phrase: a participle or a "that"/"who" clause;
* ``noun`` — after an article, adjective, number or preposition: a role noun ("the [founder of]");
* ``copula`` — after a copula or auxiliary left outside the slot: the form without its own copula;
* ``apposition`` — after "Name,": "the founder of" or ", who founded";
* ``possessive`` — after "'s" or "his": the role the next name holds ("Acme's [founder] Alice");
* ``role`` — between two names inside a noun phrase ("Velvet Revolver [drummer] Matt Sorum joined"): the same;
* ``comma`` / ``hyphen`` — the slot is glued to a name, with another name (or its article) right after it ("Dublin[,]
  Ohio") or not ("Los Angeles[-based] band");
* ``start`` — nothing before the slot in its sentence: a fronted participle ("[Born in] Paris, she ...");
* ``tail`` / ``removed`` — a later part of a multi-part expression: its closing preposition, or nothing;
* ``end`` — a verb after both names ("In Madrid, Sofia Jansen [played] three concerts"): no fill reads there.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from relguard.extract import gazetteer
from relguard.extract.siblings import continues_a_modifier
from relguard.rewrite.number import people, plural_before
from relguard.rewrite.phrases import (
    RELATIVES,
    Token,
    ends_noun_phrase,
    in_apposition,
    in_opening_participle,
    in_opening_phrase,
    looking_back,
)
from relguard.rewrite.tagging import PLACEHOLDER as _PLACEHOLDER
from relguard.rewrite.tagging import hidden_tokens, tag_sentences
from relguard.rewrite.tense import document_tense, since_a_date, tense_before, told_in_the_past
from relguard.rewrite.verbs import (
    CONJUNCTIONS,
    COPULA_WORDS,
    Context,
    apposition_open,
    aside,
    clause_start,
    finite_word,
    has_verb,
    in_verbless_bracket,
    names_verb_before,
    subject_aside,
    subject_goes_on,
    verb_after,
    verb_later,
)
from relguard.wordlist import words

if TYPE_CHECKING:
    from spacy.language import Language

    from relguard.rewrite.mask import MaskedDocument, Slot

FINITE, MODIFIER, NOUN, COPULA = "finite", "modifier", "noun", "copula"
APPOSITION, POSSESSIVE, ROLE, COMMA, HYPHEN, START = "apposition", "possessive", "role", "comma", "hyphen", "start"
TAIL, REMOVED, END = "tail", "removed", "end"
FRAMES = (FINITE, MODIFIER, NOUN, COPULA, APPOSITION, POSSESSIVE, ROLE, COMMA, HYPHEN, START, TAIL, REMOVED, END)
#: Frames whose fill states the relation towards a name after the slot.
_NEED_A_NAME_AFTER = frozenset({FINITE, MODIFIER, COPULA, APPOSITION, ROLE, COMMA, START})

_ORDINALS = words("first second third fourth fifth sixth seventh eighth ninth tenth eldest youngest oldest only")
#: Adverbs that, between a conjunction and a slot, tell the next step of what the clause did ("and then [returned
#: to]", "and subsequently [signed to]"): the slot is a verb coordinated with the clause's own where it has one.
_SEQUENCE = words("then later subsequently afterwards eventually finally soon")
_NOUN_BEFORE = frozenset({"DT", "JJ", "JJR", "JJS", "PDT"})
_POSSESSIVES = frozenset({"his", "her", "its", "their", "my", "our", "your", "whose"})
#: Tags that open a noun phrase after a slot.
_PHRASE_OPENERS = frozenset({"DT", "PDT", "PRP$", "JJ", "JJR", "JJS", "CD", "NN", "NNS", "NNP", "NNPS"})
_OPENERS = " \t\n\"'“‘([{*-–—•"


@dataclass(frozen=True)
class Frame:
    """A slot's frame and what follows it: a name right after it (only an article between), or a preposition
    ("was [REL] by critics": the fill must not bring its own "by"); and whether the word before is plural
    ("The islands [are located in]"), for a verb that agrees with it; whether the sentence is told in the past
    (``past``: its other finite verbs are), for the verb's tense; whether it follows "and" after an earlier
    slot (``coordinated``: "that sanctioned X and [is owned by] Y", one clause form for both); and whether a noun
    phrase follows, a name or not (``phrase_after``: a role noun there keeps its preposition); and whether a
    modifier slot follows a name's verb (``after_verb``), where a phrase qualifies the verb; and whether a "since"
    date governs a verb's slot (``perfect``), for the present perfect; and whether it continues the modifier slot
    before it (``continued``: "a film [directed by] X, [written by] Y"), whose noun phrase's name it relates."""

    name: str
    name_after: bool = True
    preposition_after: bool = False
    plural: bool = False
    coordinated: bool = False
    phrase_after: bool = False
    past: bool = False
    after_verb: bool = False
    perfect: bool = False
    continued: bool = False


def read_frames(masked: MaskedDocument, nlp: Language | None = None) -> tuple[Frame, ...]:
    """The frame of every slot of ``masked``, in slot order (module docstring)."""
    if not masked.slots:
        return ()
    by_sentence: dict[int, list[int]] = {}
    for number, slot in enumerate(masked.slots):
        by_sentence.setdefault(slot.sentence, []).append(number)
    order = sorted(by_sentence)
    texts = [masked.text[masked.sentences[s][0] : masked.sentences[s][1]] for s in order]
    tags = dict(zip(order, tag_sentences(texts, nlp), strict=True))
    frames: list[Frame] = [Frame(FINITE)] * len(masked.slots)
    told = {s: told_in_the_past(text, tags[s].tokens) for s, text in zip(order, texts, strict=True)}
    document_past = document_tense(told.values())
    for sentence, numbers in by_sentence.items():
        base, stop = masked.sentences[sentence]
        text = masked.text[base:stop]
        typed = tuple((a - base, b - base, kind) for a, b, kind in masked.mentions if base <= a < stop)
        mentions = tuple((a, b) for a, b, _ in typed)
        pronouns = frozenset(m for m in mentions if text[m[0] : m[1]].lower() in _PRONOUNS)
        heads = [
            masked.slots[n].start - base
            for n in numbers
            if masked.slots[n].role == "" and masked.text[masked.slots[n].start - 1 : masked.slots[n].start].isspace()
        ]  # the slots that may be a verb: not a later part, not glued to a name ("Dublin[,] Ohio")
        norp = frozenset((a, b) for a, b, kind in typed if kind in ("NORP", "LANGUAGE"))
        c = Context(text, tags[sentence], mentions, pronouns, hidden_tokens(tags[sentence]), [], heads, norp)
        past = document_past if told[sentence] is None else told[sentence]
        headed = {masked.slots[n].head for n in numbers}
        for number in numbers:
            slot = masked.slots[number]
            head = masked.slots[slot.head] if slot.head >= 0 else None
            frame = _frame(slot, head, slot.start - base, slot.end - base, c)
            continued = frame in (APPOSITION, COMMA) and _continues(masked, numbers, number, base, c, typed)
            if continued:
                frame = MODIFIER  # "a film [directed by] X, [written by] Y": the film's second modifier
            named_after = any(m[0] >= slot.end - base for m in mentions)
            if frame in _NEED_A_NAME_AFTER and mentions and not named_after:
                frame = END  # "In Madrid, Sofia Jansen [played] three concerts": no name left for the relation
            plural = plural_before(slot.start - base, c)
            coordinated = frame in (FINITE, MODIFIER) and _after_and(slot.start - base, c)
            opens_aside = text[slot.start - base - 1 : slot.start - base] == "("  # "([designer of] the game)"
            name_after, preposition_after, phrase_after = _what_follows(slot.end - base, c, aside=opens_aside)
            if frame == FINITE and number not in headed and _object_before(slot.start - base, slot.end - base, c):
                frame = END  # "through which Minnehaha Creek [flows], and": the verb's object stands before it
            frames[number] = Frame(
                frame,
                name_after,
                preposition_after,
                plural=plural,
                coordinated=coordinated,
                phrase_after=phrase_after,
                past=tense_before(text, slot.start - base, past, slot.end - base),
                after_verb=frame == MODIFIER and names_verb_before(slot.start - base, c),
                perfect=frame == FINITE and since_a_date(text, slot.start - base, slot.end - base),
                continued=continued,
            )
            c.earlier.append((slot.start - base, frame))
    return tuple(frames)


def _continues(
    masked: MaskedDocument, numbers: Sequence[int], number: int, base: int, c: Context, typed: Sequence[tuple]
) -> bool:
    """Whether slot ``number`` continues the modifier slot before it in its sentence as a second modifier of one
    noun phrase (:func:`relguard.extract.siblings.continues_a_modifier`, which pairs it with that phrase's name);
    ``typed`` are the sentence's mentions as (start, end, type)."""
    at = numbers.index(number)
    if at == 0 or not c.earlier or c.earlier[-1][1] != MODIFIER:
        return False
    slot, earlier = masked.slots[number], masked.slots[numbers[at - 1]]
    start, span = slot.start - base, (earlier.start - base, earlier.end - base)
    return continues_a_modifier(c.text, typed, start, span)


_PRONOUNS = frozenset({"he", "she", "it", "they", "him", "her", "them", "we", "i", "you"})
_SUBJECT_PRONOUNS = frozenset({"he", "she", "they", "we"})  # not "I": "Franz Joseph I [REL]"
#: Verbs whose object is a clause, often without its "that": a name after one is that clause's subject.
_REPORTING = words(
    """said says announced announces reported reports stated states claimed claims revealed confirmed noted believed
    believes thought estimated argued suggested learned discovered assumed insisted"""
)


def _frame(slot: Slot, head: Slot | None, start: int, end: int, c: Context) -> str:
    if head is not None and head.groups[0] == slot.groups[0]:
        if slot.role == "tail":
            return TAIL
        if slot.role == "removed":
            return REMOVED
    text = c.text
    if not _PLACEHOLDER.sub(" ", text[:start]).strip(_OPENERS):
        return START
    hyphen = len(text[:start].rstrip(" "))  # "Hungarian- [born]": a hyphen the text set apart
    if text[hyphen - 1 : hyphen] in ("-", "–") and (c.mention_ending(hyphen - 1) or c.mention_ending(hyphen)):
        return HYPHEN  # "Los Angeles-[based]": the hyphen stayed outside the slot
    if c.mention_ending(start) is not None and text[start - 1 : start].strip():
        if any(m[0] >= end and ARTICLE_ONLY.fullmatch(text, end, m[0]) for m in c.mentions) or _CLAUSE.match(text, end):
            return COMMA  # "Dublin[,] Ohio", "Carmichael[, who competes] in the …": no compound takes a name or article
        return HYPHEN  # "Los Angeles[-based] cover band": a compound on the name
    raw = [t for t in c.tagged.tokens if t[1] <= start]
    before = looking_back(raw)
    if not before:
        return START
    sequenced = len(raw) > len(before) and raw[len(before)][2].lower() in _SEQUENCE
    _, last_end, word, tag = before[-1]
    lower = word.lower()
    named = c.mention_ending(last_end) if not text[last_end:start].strip() else None
    glued = word in ("'", "’") and c.mention_ending(before[-1][0]) is not None  # "Isis' [cousin] Morag"
    if tag == "POS" or lower in ("'s", "’s") or glued or (lower in _POSSESSIVES and tag in ("PRP$", "WP$")):
        return POSSESSIVE
    if word in (",", "("):
        named_before = len(before) > 1 and (
            c.mention_ending(before[-2][1]) is not None
            or before[-2][3].startswith("NN")
            or (before[-2][2] in ('"', "”", ")", "'") and len(before) > 2 and c.mention_ending(before[-3][1]))
        )  # "Their name, "The Exies", [is short for]"
        closing = word == "," and not has_verb(before[:-1], c) and not verb_later(end, c)  # the subject's verb next
        if named_before:
            if closing and apposition_open(before[:-1], c):
                return FINITE  # "Amri, or Dumura Karbi, [is spoken by]": the comma closes an apposition
            return APPOSITION  # "Steve Wozniak, [REL] Apple", "Lester Smith ([REL] Dragon Dice)"
        if closing and subject_aside(before[:-1], c):
            return FINITE  # "Alice Smith, in 1990, [REL] Acme Corp": the comma closes an aside after the subject
        return APPOSITION if has_verb(before, c) else MODIFIER  # "(1856 – 1914), sometimes [using]"
    if lower in RELATIVES and tag in ("WDT", "WP", "IN"):
        return FINITE
    if lower in COPULA_WORDS or tag == "MD":
        return COPULA
    if lower in CONJUNCTIONS and tag == "CC":
        previous = before[:-1]
        while previous and previous[-1][2] == ",":
            previous = previous[:-1]
        clause = previous[clause_start(previous, c) :]
        low = clause[0][0] if clause else start
        sibling = [frame for at, frame in c.earlier if at >= low and frame in (FINITE, MODIFIER)]
        if sequenced and FINITE in sibling:
            return FINITE  # "X [led] Party X [in] Poland and then [REL] Canada": a next step is the verb's sibling
        if sibling:
            return sibling[-1]  # "written by X and [sung by] Y": a coordinated slot takes its sibling's frame
        finite = [n for n, t in enumerate(clause) if finite_word(t)]
        reduced = [n for n, t in enumerate(clause[1:], 1) if t[3] == "VBN" and clause[n - 1][3].startswith("NN")]
        if reduced and (not finite or reduced[-1] > finite[-1]):
            return MODIFIER  # "a game developed by X and [published by] Y": a participle's sibling
        if (
            previous
            and c.mention_ending(previous[-1][1]) is None
            and finite
            and all(clause[n][2].lower() in COPULA_WORDS for n in finite)
            and not any(t[3].startswith("VB") for t in clause[finite[-1] + 1 :])
        ):
            return COPULA  # "is an actor, director, and [screenwriter of] Iranian cinema": the copula's own frame
        return FINITE if has_verb(previous, c) else MODIFIER  # "founded Acme and [REL] Globex"
    headless = ends_noun_phrase(before) and lower not in ("one", "ones")  # "the only one [to return to]" has a head
    if named is None and (tag in ("IN", "TO") or headless or (tag[:2] == "JJ" and lower in _ORDINALS)):
        return NOUN  # "the [REL] Canada", "a retired British [REL]", "an operating [REL]"
    one_word = named is not None and " " not in text[named[0] : named[1]].strip()
    if named in c.nationalities and (tag == "JJ" or one_word) and _opens_noun_phrase(before, c):
        return NOUN  # "an English [cricketer for] Leeds United": the nationality is the adjective of a role noun
    if (
        named in c.nationalities
        and (tag == "JJ" or one_word or getattr(gazetteer.lookup(word), "kind", "") == "nationality")  # not "Han Lei"
        and not people(named, c)
        and not text[: named[0]].rstrip().endswith((",", ";"))  # ", Bohigian [served as … of] Idealab": a subject
        and _name_right_after(end, c)
    ):
        return POSSESSIVE  # "had Argentine [mathematician] Manuel Sadosky": a role noun, or "Argentine-born"
    if named is not None and _role_adjective_before(named, before) and _name_right_after(end, c):
        return POSSESSIVE  # "by former Mississippi [Governor] William Winter": a title between two names
    if named is not None and _opens_noun_phrase(before, c) and not _object_after(end, c):
        return POSSESSIVE  # "an Acme Corp [employee]": the name modifies the noun, as "Acme Corp's [employee]"
    verb_before = has_verb(before, c)
    name_after = next((m for m in c.mentions if m[0] >= end), None)
    verb_follows = verb_after(name_after[1] if name_after is not None else end, c)
    if named is not None and not verb_before and name_after is not None and aside(name_after[1], c):
        return COMMA  # "Springvale [, which invaded] Oregon, is big": the clause after the names is the main one
    adjacent = name_after is not None and not text[end : name_after[0]].strip()
    if named is not None and named not in c.pronouns and adjacent and not verb_before and verb_follows:
        return ROLE  # "Velvet Revolver [drummer] Matt Sorum [joined]": the names are the subject's noun phrase
    if tag == "PRP" and lower in _SUBJECT_PRONOUNS:
        return FINITE  # "and he [REL] Zee TV's Zing": no participle modifies a personal pronoun
    ahead = [t for t in before if t[1] <= named[0]] if named is not None else []
    if ahead and ahead[-1][2].lower() in _REPORTING and ahead[-1][3].startswith("VB"):
        return FINITE  # "it was announced Brewer [had quit] Neighbours": a clause without its "that"
    one_name = sum(1 for m in c.mentions if m[1] <= start) <= 1  # "In Madrid Sofia Jansen [REL]" has its subject
    opening = in_opening_phrase(before, proper=one_name) or in_opening_participle(before) or in_apposition(before)
    relative = any(t[2].lower() in RELATIVES for t in before)  # "in which X [played] Y, was released": its verb
    later = not relative and subject_goes_on(end, c)  # "the Battle of Porto-Longo [against] Venice's rival, Genoa, are"
    later = later or in_verbless_bracket(raw)  # "(1991, the first animated feature [to be nominated for] …)"
    return MODIFIER if verb_before or verb_follows or opening or later else FINITE


#: What may follow a verb whose object stood before it: the clause ends, or an adverb or conjunction follows.
_CLAUSE_GOES_ON = frozenset({",", ".", ":", ";", "CC", "RB", "-RRB-"})


def _object_before(start: int, end: int, c: Context) -> bool:
    """Whether a finite slot has nothing after it that a verb could take ("through which Minnehaha Creek [flows],
    and", ""South Park" [was extended] again until 2016"), after no copula, and its clause is no relative clause
    whose pronoun is the object ("companies that they [acquired]:" reads with any transitive verb)."""
    after = next((t for t in c.tagged.tokens if t[0] >= end), None)
    if after is not None and after[3] not in _CLAUSE_GOES_ON:
        return False
    before = looking_back(
        [t for t in c.tagged.tokens if t[1] <= start and t[3] not in ("RB", "RBR", "RBS") and t[2] != "first"]
    )
    if before and before[-1][2].lower() in COPULA_WORDS:
        return False  # "at which it was first [performed]": the copula's participle, not a verb of its own
    if len(before) > 1 and before[-1][3] == "PRP" and before[-2][3] in ("NN", "NNS"):
        return False  # "the techniques he [taught] profoundly": a relative clause without its pronoun
    low = clause_start(before, c)
    relative = [n for n, t in enumerate(before) if n >= low and t[2].lower() in ("that", "which", "whom", "who")]
    return not relative or (relative[-1] > 0 and before[relative[-1] - 1][3] in ("IN", "TO"))


def _after_and(start: int, c: Context) -> bool:
    """Whether the slot follows a conjunction and an earlier slot of its clause: "developed by X and [REL] Y"."""
    before = looking_back([t for t in c.tagged.tokens if t[1] <= start])
    if not before or before[-1][2].lower() not in CONJUNCTIONS or before[-1][3] != "CC":
        return False
    return any(at < before[-1][0] and frame in (FINITE, MODIFIER) for at, frame in c.earlier)


def _opens_noun_phrase(before: Sequence[Token], c: Context) -> bool:
    """The last words are an article and a name ("an [American]", "an [Acme Corp]"; after "the" a one-word name
    only), not at the clause's start ("The Rockets [REL]" names the subject): the slot heads their noun phrase."""
    mention = c.mention_ending(before[-1][1])
    if mention is None:
        return False
    inside = [t for t in before if t[0] >= mention[0]]
    ahead = [t for t in before if t[1] <= mention[0]]
    if not ahead or ahead[-1][2].lower() not in ("a", "an", "the", "his", "her", "its"):
        return False
    if len(inside) != 1 and ahead[-1][2].lower() == "the":
        return False  # "the Harbor Street Clinic": a name of several words takes its own article
    return len(ahead) - 1 > clause_start(ahead, c)


#: Adjectives of a title that open a noun phrase of two names ("former Mississippi Governor William Winter").
_TITLE_ADJECTIVES = frozenset({"former", "then", "late", "future", "current", "incumbent", "longtime"})


def _name_right_after(end: int, c: Context) -> bool:
    """Whether a name starts right after ``end``, only blanks between."""
    return any(m[0] >= end and not c.text[end : m[0]].strip() for m in c.mentions)


def _role_adjective_before(named: tuple[int, int], before: Sequence[Token]) -> bool:
    ahead = [t for t in before if t[1] <= named[0]]
    return bool(ahead) and ahead[-1][2].lower() in _TITLE_ADJECTIVES


def _object_after(end: int, c: Context) -> bool:
    """Whether a name, or an article, follows the slot at once: "a Tibetan Christian [translated] the Bible" is a
    verb with its object, not the head of "a Tibetan Christian [employee]"."""
    after = next((t for t in c.tagged.tokens if t[0] >= end), None)
    if after is None:
        return False
    return any(m[0] == after[0] for m in c.mentions) or (after[3] in ("DT", "PRP$") and after[2].lower() != "that")


_CLAUSE = re.compile(r"\s+(?:(?:the|a|an|in|on|at|to|for|from|with|by|of|as)\b|\d)")  # a clause's words, no noun's
ARTICLE_ONLY = re.compile(r"\s*(?:(?:the|a|an|The)\s+)?")  # what may stand between a comma slot and a name


#: Tags of the words of a noun phrase that a name heads ("the long-running Australian soap opera "Neighbours"").
_NAME_PHRASE_TAGS = frozenset({"DT", "PRP$", "JJ", "JJS", "JJR", "CD", "NN", "NNS", "HYPH", "VBG", "VBN"})
_MODIFIED_BY_ADVERB = frozenset({"HYPH", "JJ", "VBN", "VBG"})


def _what_follows(end: int, c: Context, *, aside: bool = False) -> tuple[bool, bool, bool]:
    """(a name starts right after ``end``, only an article or possessive between; the next word is a preposition;
    a noun phrase starts there, a name or not: "an atypical [detective for] the genre"). ``aside``: the slot opens
    a bracket, so the words after it in the bracket are its own phrase."""
    after = [t for t in c.tagged.tokens if t[0] >= end]
    phrase = bool(after) and (after[0][0] not in c.hidden or aside)
    phrase = phrase and (after[0][3] in _PHRASE_OPENERS or after[0][2].lower() in ("both", "either"))
    name_after = False
    for n, (start, _, word, tag) in enumerate(after[:10]):
        if any(m[0] == start for m in c.mentions):
            name_after = True
            break
        if word.lower() not in ('"', "“") and tag not in _NAME_PHRASE_TAGS:
            adverb_of_next = after[n + 1 : n + 2] and after[n + 1][3] in _MODIFIED_BY_ADVERB
            if tag in ("RB", "RBR", "RBS") and (n == 0 or adverb_of_next):
                continue  # "[president of] historically black Fisk University", "the long-running soap opera"
            break  # "the 16th century painter Onufri" is a name's noun phrase; "and ..." is not
    preposition = bool(after) and after[0][3] in ("IN", "TO") and after[0][2].lower() not in ("that", "if", "whether")
    return name_after, preposition, phrase or name_after
