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

from relguard.rewrite.phrases import RELATIVES, Token, ends_noun_phrase, in_apposition, in_opening_phrase, looking_back
from relguard.rewrite.tagging import PLACEHOLDER as _PLACEHOLDER
from relguard.rewrite.tagging import Tagged, hidden_tokens, tag_sentences
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

#: Tags of a finite verb (or modal) that already heads the clause before a slot.
_FINITE_TAGS = frozenset({"VBD", "VBZ", "VBP", "MD"})
_COPULA_WORDS = words(
    """is was are were be been being am 's has have had will would can could may might must shall should does did
    do become became becomes remains remained"""
)
_ORDINALS = words("first second third fourth fifth sixth seventh eighth ninth tenth eldest youngest oldest only")
_NOUN_BEFORE = frozenset({"DT", "JJ", "JJR", "JJS", "PDT"})
_POSSESSIVES = frozenset({"his", "her", "its", "their", "my", "our", "your", "whose"})
_CONJUNCTIONS = frozenset({"and", "or", "but", "nor", "then", "yet"})
#: Marks that end a clause: after one, the slot opens a new clause.
#: Tags that open a noun phrase after a slot.
_PHRASE_OPENERS = frozenset({"DT", "PDT", "PRP$", "JJ", "JJR", "JJS", "CD", "NN", "NNS", "NNP", "NNPS"})
_CLAUSE_MARKS = frozenset({";", ":", "—", "–", "(", ")"})
#: Words that open a subordinate or relative clause: the clause before has ended.
_SUBORDINATORS = words(
    """which who whom whose where when while although though because since after before if until whereas unless
    once"""
)
_OPENERS = " \t\n\"'“‘([{*-–—•"


@dataclass(frozen=True)
class Frame:
    """A slot's frame and what follows it: a name right after it (only an article between), or a preposition
    ("was [REL] by critics": the fill must not bring its own "by"); and whether the word before is plural
    ("The islands [are located in]"), for a verb that agrees with it; whether the sentence is told in the past
    (``past``: its other finite verbs are), for the verb's tense; whether it follows "and" after an earlier
    slot (``coordinated``: "that sanctioned X and [is owned by] Y", one clause form for both); and whether a noun
    phrase follows, a name or not (``phrase_after``: a role noun there keeps its preposition)."""

    name: str
    name_after: bool = True
    preposition_after: bool = False
    plural: bool = False
    coordinated: bool = False
    phrase_after: bool = False
    past: bool = False


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
    for sentence, numbers in by_sentence.items():
        base, stop = masked.sentences[sentence]
        text = masked.text[base:stop]
        mentions = tuple((a - base, b - base) for a, b, _ in masked.mentions if base <= a < stop)
        pronouns = frozenset(m for m in mentions if text[m[0] : m[1]].lower() in _PRONOUNS)
        heads = [
            masked.slots[n].start - base
            for n in numbers
            if masked.slots[n].role == "" and masked.text[masked.slots[n].start - 1 : masked.slots[n].start].isspace()
        ]  # the slots that may be a verb: not a later part, not glued to a name ("Dublin[,] Ohio")
        norp = frozenset((a - base, b - base) for a, b, kind in masked.mentions if base <= a < stop and kind == "NORP")
        c = _Context(text, tags[sentence], mentions, pronouns, hidden_tokens(tags[sentence]), [], heads, norp)
        past = _told_in_the_past(c)
        for number in numbers:
            slot = masked.slots[number]
            head = masked.slots[slot.head] if slot.head >= 0 else None
            frame = _frame(slot, head, slot.start - base, slot.end - base, c)
            named_after = any(m[0] >= slot.end - base for m in mentions)
            if frame in _NEED_A_NAME_AFTER and mentions and not named_after:
                frame = END  # "In Madrid, Sofia Jansen [played] three concerts": no name left for the relation
            plural = _plural_before(slot.start - base, c)
            coordinated = frame in (FINITE, MODIFIER) and _after_and(slot.start - base, c)
            name_after, preposition_after, phrase_after = _what_follows(slot.end - base, c)
            frames[number] = Frame(
                frame,
                name_after,
                preposition_after,
                plural=plural,
                coordinated=coordinated,
                phrase_after=phrase_after,
                past=past,
            )
            c.earlier.append((slot.start - base, frame))
    return tuple(frames)


_PRONOUNS = frozenset({"he", "she", "it", "they", "him", "her", "them", "we", "i", "you"})


@dataclass(frozen=True)
class _Context:
    """A masked sentence as the frame rules read it: text, tags, mention ranges (and which are pronouns), the
    starts of tokens inside parentheses or quotes, the frames of the slots before, every slot's start, and which
    mentions are nationalities or groups (NORP: "Argentine")."""

    text: str
    tagged: Tagged
    mentions: tuple[tuple[int, int], ...]
    pronouns: frozenset[tuple[int, int]]
    hidden: frozenset[int]
    earlier: list[tuple[int, str]]
    slots: list[int]
    nationalities: frozenset[tuple[int, int]] = frozenset()

    def mention_ending(self, position: int) -> tuple[int, int] | None:
        return next((m for m in self.mentions if m[1] == position), None)


def _frame(slot: Slot, head: Slot | None, start: int, end: int, c: _Context) -> str:
    if head is not None and head.groups[0] == slot.groups[0]:
        if slot.role == "tail":
            return TAIL
        if slot.role == "removed":
            return REMOVED
    text = c.text
    if not _PLACEHOLDER.sub(" ", text[:start]).strip(_OPENERS):
        return START
    if text[start - 1 : start] in ("-", "–") and c.mention_ending(start - 1) is not None:
        return HYPHEN  # "Los Angeles-[based]": the hyphen stayed outside the slot
    if c.mention_ending(start) is not None and text[start - 1 : start].strip():
        if any(m[0] >= end and _ARTICLE_ONLY.fullmatch(text, end, m[0]) for m in c.mentions):
            return COMMA  # "Dublin[,] Ohio", "the Park[,] the Department of": no compound takes a name or article
        return HYPHEN  # "Los Angeles[-based] cover band": a compound on the name
    before = looking_back([t for t in c.tagged.tokens if t[1] <= start])
    if not before:
        return START
    _, last_end, word, tag = before[-1]
    lower = word.lower()
    named = c.mention_ending(last_end) if not text[last_end:start].strip() else None
    if tag == "POS" or lower in ("'s", "’s") or (lower in _POSSESSIVES and tag in ("PRP$", "WP$")):
        return POSSESSIVE
    if word in (",", "("):
        named_before = len(before) > 1 and (
            c.mention_ending(before[-2][1]) is not None
            or before[-2][3].startswith("NN")
            or (before[-2][2] in ('"', "”", ")", "'") and len(before) > 2 and c.mention_ending(before[-3][1]))
        )  # "Their name, "The Exies", [is short for]"
        if named_before:
            if word == "," and not _has_verb(before[:-1], c) and _apposition_open(before[:-1], c):
                return FINITE  # "Amri, or Dumura Karbi, [is spoken by]": the comma closes an apposition
            return APPOSITION  # "Steve Wozniak, [REL] Apple", "Lester Smith ([REL] Dragon Dice)"
        return APPOSITION if _has_verb(before, c) else MODIFIER  # "(1856 – 1914), sometimes [using]"
    if lower in RELATIVES and tag in ("WDT", "WP", "IN"):
        return FINITE
    if lower in _COPULA_WORDS or tag == "MD":
        return COPULA
    if lower in _CONJUNCTIONS and tag == "CC":
        previous = before[:-1]
        while previous and previous[-1][2] == ",":
            previous = previous[:-1]
        clause = previous[_clause_start(previous, c) :]
        low = clause[0][0] if clause else start
        sibling = [frame for at, frame in c.earlier if at >= low and frame in (FINITE, MODIFIER)]
        if sibling:
            return sibling[-1]  # "written by X and [sung by] Y": a coordinated slot takes its sibling's frame
        finite = [n for n, t in enumerate(clause) if _finite_word(t)]
        reduced = [n for n, t in enumerate(clause[1:], 1) if t[3] == "VBN" and clause[n - 1][3].startswith("NN")]
        if reduced and (not finite or reduced[-1] > finite[-1]):
            return MODIFIER  # "a game developed by X and [published by] Y": a participle's sibling
        if (
            previous
            and c.mention_ending(previous[-1][1]) is None
            and finite
            and all(clause[n][2].lower() in _COPULA_WORDS for n in finite)
            and not any(t[3].startswith("VB") for t in clause[finite[-1] + 1 :])
        ):
            return COPULA  # "is an actor, director, and [screenwriter of] Iranian cinema": the copula's own frame
        return FINITE if _has_verb(previous, c) else MODIFIER  # "founded Acme and [REL] Globex"
    if named is None and (tag in ("IN", "TO") or ends_noun_phrase(before) or (tag[:2] == "JJ" and lower in _ORDINALS)):
        return NOUN  # "the [REL] Canada", "a retired British [REL]", "an operating [REL]"
    if named in c.nationalities and any(m[0] >= end and not text[end : m[0]].strip() for m in c.mentions):
        return POSSESSIVE  # "had Argentine [mathematician] Manuel Sadosky": a role noun, or "Argentine-born"
    if named is not None and _opens_noun_phrase(before, c) and not _object_after(end, c):
        return POSSESSIVE  # "an Acme Corp [employee]": the name modifies the noun, as "Acme Corp's [employee]"
    verb_before = _has_verb(before, c)
    name_after = next((m for m in c.mentions if m[0] >= end), None)
    verb_after = _verb_after(name_after[1] if name_after is not None else end, c)
    if named is not None and not verb_before and name_after is not None and _aside(name_after[1], c):
        return COMMA  # "Springvale [, which invaded] Oregon, is big": the clause after the names is the main one
    adjacent = name_after is not None and not text[end : name_after[0]].strip()
    slot_after = adjacent and any(h >= name_after[1] and not text[name_after[1] : h].strip() for h in c.slots)
    if named is not None and named not in c.pronouns and adjacent and not verb_before and (verb_after or slot_after):
        return ROLE  # "Velvet Revolver [drummer] Matt Sorum [joined]": the names are the subject's noun phrase
    return MODIFIER if verb_before or verb_after or in_opening_phrase(before) or in_apposition(before) else FINITE


def _after_and(start: int, c: _Context) -> bool:
    """Whether the slot follows a conjunction and an earlier slot of its clause: "developed by X and [REL] Y"."""
    before = looking_back([t for t in c.tagged.tokens if t[1] <= start])
    if not before or before[-1][2].lower() not in _CONJUNCTIONS or before[-1][3] != "CC":
        return False
    return any(at < before[-1][0] and frame in (FINITE, MODIFIER) for at, frame in c.earlier)


def _opens_noun_phrase(before: Sequence[Token], c: _Context) -> bool:
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
    return len(ahead) - 1 > _clause_start(ahead, c)


def _object_after(end: int, c: _Context) -> bool:
    """Whether a name, or an article, follows the slot at once: "a Tibetan Christian [translated] the Bible" is a
    verb with its object, not the head of "a Tibetan Christian [employee]"."""
    after = next((t for t in c.tagged.tokens if t[0] >= end), None)
    if after is None:
        return False
    return any(m[0] == after[0] for m in c.mentions) or (after[3] in ("DT", "PRP$") and after[2].lower() != "that")


def _apposition_open(before: Sequence[Token], c: _Context) -> bool:
    """Whether the clause before a comma holds another comma after its first words ("Amri, or Dumura Karbi,"), or
    a slot that opened a clause with one ("Steve Wozniak[, who founded] Apple,"): the comma closes it."""
    low = before[0][0] if before else 0
    opened = any(frame in (COMMA, APPOSITION) and start > low for start, frame in c.earlier)
    return opened or any(word == "," for _, _, word, _ in before[1:])


def _clause_start(words: Sequence[Token], c: _Context) -> int:
    """Where the last clause of ``words`` starts: after a clause mark; at a subordinator or relative pronoun;
    after the comma that ends a clause a subordinator opened ("When he formed X, [he] ..."); after ", and" that
    opens a verb phrase or a clause whose part before had a verb of its own ("..., and von der Esch [returned]"),
    not ", and David Bowie [as]" after "Christian Bale [as] Alfred Borden": a list goes on."""
    start, subordinate = 0, False
    for number, (_, _, word, tag) in enumerate(words):
        lower = word.lower()
        if word in _CLAUSE_MARKS:
            start, subordinate = number + 1, False
        elif tag in ("WDT", "WP", "WP$", "WRB") or (lower in _SUBORDINATORS and tag in ("IN", "WRB")):
            start, subordinate = number, tag in ("WRB", "IN")
        elif word == "," and subordinate and number + 1 < len(words):
            start, subordinate = number + 1, False
        elif word == "," and number + 2 < len(words) and words[number + 1][2].lower() in _CONJUNCTIONS:
            opens_verb = words[number + 2][3].startswith(("VB", "MD"))
            listed = words[number + 2][3] in ("NN", "NNS", "JJ")  # "a musician, bandleader, and educator [from]"
            segment = [t for t in words[start:number] if t[0] not in c.hidden]
            if opens_verb or (not listed and any(_finite_word(t) for t in segment)):
                start = number + 1  # ", and was honored"; "X was unsuccessful, and Y [returned]"
    return start


def _finite_word(token: Token) -> bool:
    """A finite verb or a copula, not the possessive "'s" ("Istanbul's Fatih district" has no verb)."""
    return token[3] in _FINITE_TAGS or (token[2].lower() in _COPULA_WORDS and token[3] != "POS")


def _has_verb(before: Sequence[Token], c: _Context) -> bool:
    """Whether the clause that ends at the slot already has a finite verb (a word, or an earlier finite slot);
    words in parentheses or quotes do not count."""
    clause = before[_clause_start(before, c) :]
    low = clause[0][0] if clause else 0
    for start, _, word, tag in clause:
        if start in c.hidden or word.lower() in RELATIVES:
            continue
        if _finite_word((start, 0, word, tag)):
            return True
    return any(frame in (FINITE, COPULA) and start >= low for start, frame in c.earlier)


def _verb_after(position: int, c: _Context) -> bool:
    """Whether a finite verb comes right after ``position``, adverbs aside: the words before are then its
    subject's noun phrase ("Li Yujie [of] Henan University believes"). A slot there says nothing: it may as well
    be a preposition ("Moderate Party [in] the Riksdag")."""
    seen, depth = 0, 0
    for start, _, word, tag in c.tagged.tokens:
        if start < position or tag in ("RB", "RBR", "RBS"):
            continue
        if word in ("(", ")") or depth:
            depth += {"(": 1, ")": -1}.get(word, 0)
            continue  # 'Gyldendal Norsk Forlag ("...") was founded': the aside is not what follows
        lower = word.lower()
        if start in c.hidden or seen >= 2 or not word[:1].isalnum() or lower in _CONJUNCTIONS or tag in ("WDT", "WP"):
            return False
        if _finite_word((start, 0, word, tag)):
            return True
        seen += 1
    return False


def _aside(position: int, c: _Context) -> bool:
    """Whether a comma and then a finite verb follow ``position`` (a name's end): "Oregon, is big"."""
    after = [t for t in c.tagged.tokens if t[0] >= position and t[3] not in ("RB", "RBR", "RBS")][:2]
    return (
        len(after) == 2
        and after[0][2] == ","
        and _finite_word(after[1])
        and after[1][2].lower() not in {"has", "have", "had"} | RELATIVES
    )


def _told_in_the_past(c: _Context) -> bool:
    """Whether the sentence's own finite verbs, outside its slots, are mostly past ("He [REL] Sportivo Dock Sud in
    1938 and retired in 1950"): a fill then takes the past tense. Where they are even (often none: the slot
    held the verb), a year outside brackets tells it ("In 2015, he [REL] Mad Dogs"); a year in brackets is a
    birth date or a release year, said of an entity the sentence may describe in the present."""
    tags = [t[3] for t in c.tagged.tokens]
    past, present = tags.count("VBD"), tags.count("VBZ") + tags.count("VBP")
    if past != present:
        return past > present
    return bool(_YEAR.search(_BRACKETED.sub(" ", c.text)))


_YEAR = re.compile(r"\b(?:1[0-9]{3}|20[01][0-9]|202[0-4])\b")
_BRACKETED = re.compile(r"\([^()]*\)")
_ARTICLE_ONLY = re.compile(r"\s*(?:(?:the|a|an|The)\s+)?")  # what may stand between a comma slot and a name


def _plural_before(start: int, c: _Context) -> bool:
    """Whether the word before the slot, adverbs aside, is a plural noun or "they"/"we": the verb's subject."""
    before = [t for t in c.tagged.tokens if t[1] <= start and t[3] not in ("RB", "RBR", "RBS")]
    if not before:
        return False
    word_start, _, word, tag = before[-1]
    if word.lower() in ("they", "we"):
        return True
    named = next((m for m in c.mentions if m[0] <= word_start < m[1]), None)
    if named is not None and not _has_verb(before, c):
        head = c.text[: named[0]]
        joined = _AND_BEFORE.search(head)
        if joined and any(t[1] == joined.start() and t[3] in ("NNP", "NNPS") for t in c.tagged.tokens):
            return True  # "Fatih Sultan Mehmet Bridge and Fatih Mosque [are named after]", "A, B, and C [own]"
    return tag == "NNS" and named is None  # a name's number is not its last word's ("United States is")


_AND_BEFORE = re.compile(r",?\s+and\s+$")


def _what_follows(end: int, c: _Context) -> tuple[bool, bool, bool]:
    """(a name starts right after ``end``, only an article or possessive between; the next word is a preposition;
    a noun phrase starts there, a name or not: "an atypical [detective for] the genre")."""
    after = [t for t in c.tagged.tokens if t[0] >= end]
    phrase = bool(after) and after[0][0] not in c.hidden
    phrase = phrase and (after[0][3] in _PHRASE_OPENERS or after[0][2].lower() in ("both", "either"))
    name_after = False
    for start, _, word, tag in after[:6]:
        if any(m[0] == start for m in c.mentions):
            name_after = True
            break
        if word.lower() not in ('"', "“") and tag not in ("DT", "PRP$", "JJ", "JJS", "JJR", "CD", "NN", "NNS", "HYPH"):
            break  # "the 16th century painter Onufri" is a name's noun phrase; "and ..." is not
    preposition = bool(after) and after[0][3] in ("IN", "TO") and after[0][2].lower() not in ("that", "if", "whether")
    return name_after, preposition, phrase or name_after
