"""Names found by their spelling, for the strict slot mode: the words around a name never decide that it is one.

The NER reads the words around a name, so "Bob Jones sued Corvid Media" and "Bob Jones acquired Corvid Media"
can give other names, and a rewording moves the stretches between them. Here a mention is a run of capitalized
words (with "of", "de", "&" inside and a number after, as in "Bank of America", "Route 750"), without the
function words, adverbs and participles a sentence opens with ("Historically,", "Born in", "Written by"), and no
date ("April 2008", "300 AD") or sum ("US$12,000,000") however it is capitalized; its type is voted later from
the sentence with every stretch masked and from the name alone (:mod:`.retype`), and a run that nothing types is
no mention. All of it reads the run and the masked text only.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING

from relguard.extract.roles import is_role_word
from relguard.extract.spacy import lexicon as lex
from relguard.extract.spacy.titles import royal
from relguard.wordlist import MONTHS

if TYPE_CHECKING:
    from spacy.tokens import Doc, Span, Token

#: Lower-case words a name may hold between two of its capitalized words.
JOINERS = frozenset({"of", "de", "del", "della", "da", "du", "des", "van", "von", "der", "den", "the", "&", "la", "le"})
#: Longest name taken; longer runs are headlines or lists of titles.
MAX_WORDS = 8
_HYPHENS = frozenset({"-", "–", "‐"})


#: Words that read as a preposition at a sentence's start ("According to", "Following the war"); their -ing is no
#: test alone, which would take "Manning" or "Fielding" for a verb.
_PREPOSITIONAL = frozenset({"according", "following", "including", "regarding", "concerning", "considering", "owing"})
#: A month, and the marks of an era: a run of them with numbers only is a date ("April 2008", "August 1", "300 AD").
_DATE_WORDS = MONTHS | {"ad", "bc", "bce", "ce"}
_CURRENCY = frozenset("$€£¥₹")


@cache
def openers() -> frozenset[str]:
    """Words a sentence opens with that are no name on their own ("Will chairs ...", "May ..."): a fixed list
    (spaCy's English stop words and ours), so whether a sentence's first word is a name never depends on the
    document's other words. Read on first use: the command line imports this module without spaCy."""
    from spacy.lang.en.stop_words import STOP_WORDS

    return lex.NAME_STOP_WORDS | frozenset(STOP_WORDS)


def capitalized(tok: Token) -> bool:
    return (
        tok.text[:1].isupper()
        and any(ch.isalpha() for ch in tok.text)
        and not tok.is_punct
        and not _CURRENCY.intersection(tok.text)
    )


@cache
def opening_word(word: str) -> bool:
    """Whether a sentence's first word, alone, reads as its opening rather than a name: an adverb in "-ly" or one
    that is nothing but an adverb ("Historically", "Instead"), a comparative ("Later", "Earlier"), a participle in
    "-ed" or one unlike its past tense ("Based", "Situated", "Written", "Born"), a preposition in "-ing"
    (:data:`_PREPOSITIONAL`). Read from lemminflect's lexicon and the word alone, never the words after it; a
    participle that is also a noun ("Known"), a past tense ("Drew", "Said", "Held") or a gerund ("Manning") stays a
    name, so that a surname is not lost as a mention and its sentence's stretches with it."""
    from lemminflect import getAllLemmas, getInflection

    lower = word.lower()
    if lower in _PREPOSITIONAL:
        return True
    lemmas = getAllLemmas(lower)
    if "ADV" in lemmas and (lower.endswith("ly") or set(lemmas) == {"ADV"}):
        return True
    if "ADV" in lemmas and lower.endswith("er") and any(a != lower for a in lemmas.get("ADJ", ())):
        return True
    verbs = [v for v in lemmas.get("VERB", ()) if v != lower]
    if not verbs or "NOUN" in lemmas:
        return False
    participles = {f for v in verbs for f in getInflection(v, "VBN") or ()}
    pasts = {f for v in verbs for f in getInflection(v, "VBD") or ()}
    return lower == "born" or (lower in participles and (lower.endswith("ed") or lower not in pasts))


def role_word(doc, i: int) -> bool:
    """Whether token ``i`` is a word of a title (:mod:`relguard.extract.roles`), or glued by a hyphen to one
    ("Co-Founder", "Vice-President"): never a name's word, whatever its case."""
    if is_role_word(doc[i].text):
        return True
    after = i + 2 < len(doc) and _glued(doc, i) and is_role_word(doc[i + 2].text)
    return after or (i >= 2 and _glued(doc, i - 2) and is_role_word(doc[i - 2].text))


def _glued(doc, left: int) -> bool:
    """Whether tokens ``left`` and ``left + 2`` are one hyphenated word (a hyphen between them, no blank)."""
    return doc[left + 1].text in _HYPHENS and not doc[left].whitespace_ and not doc[left + 1].whitespace_


def name_word(doc, i: int) -> bool:
    """A word a name may hold: capitalized (by its spelling alone) and no word of a title."""
    return capitalized(doc[i]) and not role_word(doc, i)


def name_runs(sent: Span) -> list[tuple[int, int]]:
    """Token ranges ``(start, end)`` of the capitalized runs of ``sent``, without the words of a title.

    Every test reads the run's own words and fixed lists only: a sentence's first word is no name when it is a
    function word (:func:`openers`), never because the document writes it in lower case elsewhere (that would
    make a name of "Will" in "Will chairs Acme" depend on whether another sentence says "will join" or "joined").
    """
    runs, i, end = [], sent.start, sent.end
    doc = sent.doc
    while i < end:
        if not name_word(doc, i):
            i += 1
            continue
        j = i + 1
        while j < end:
            if name_word(doc, j) or (doc[j].like_num and name_word(doc, j - 1)):
                j += 1
            elif doc[j].lower_ in JOINERS and j + 1 < end and name_word(doc, j + 1):
                j += 2
            else:
                break
        start = i
        while start < j and (doc[start].lower_ in lex.NAME_STOP_WORDS or doc[start].lower_ in JOINERS):
            start += 1
        first = j - start == 1 and doc[start].i == sent.start
        opener = first and (doc[start].lower_ in openers() or opening_word(doc[start].text))
        generic = j - start == 1 and doc[start].lower_ in lex.ORG_SUFFIXES  # "(Parent Company) of": no name alone
        dated = (
            start < j
            and doc[start].lower_ in _DATE_WORDS
            and all(t.lower_ in _DATE_WORDS or t.like_num for t in doc[start:j])
        )
        if start < j and not opener and not generic and not dated and j - start <= MAX_WORDS:
            runs.append((start, j))
        i = j
    return runs


def spelled_labels(
    doc, runs: list[tuple[int, int]], label_names: Callable[[list[str]], dict[str, str | None]], shape
) -> list[str]:
    """A first label for each run from the name alone (the NER on the name by itself, else its shape), or ""."""
    names = label_names(sorted({doc[a:b].text for a, b in runs}))
    return [names.get(doc[a:b].text) or shape(doc[a:b]) or "" for a, b in runs]


#: Lower-case particles inside a name between two capitalized parts ("Pereira dos Santos", "García del Rivero",
#: "Villaverde y García"). Narrower than :data:`JOINERS`: the NER's two names are not joined across "of" or "the"
#: ("Queen Victoria of England" is two).
_JOINING_PARTICLES = lex.NAME_PARTICLES | frozenset({"dos", "das", "do", "y"})


def continues_name(doc: Doc, begin: int, end: int, start: int) -> int | None:
    """How many tokens lie between a name ``doc[begin:end]`` and one starting at ``start`` that continues it, or
    None: 0 when the second follows at once, both capitalized ("Corvid" + "Media"); 1 across a lower-case name
    particle between two capitalized words ("Adalberto Pereira [dos] Santos"), and across "of" after a royal
    style's name (:func:`~relguard.extract.spacy.titles.royal`: "Alfonso IV [of] Aragon"). Reads the names' own
    words and the particle, which no relation is worded with."""
    if end == start and doc[start].text[:1].isupper() and doc[start - 1].text[:1].isupper():
        return None if doc[start - 1].is_punct else 0
    particle = doc[end] if end + 1 == start else None
    if particle is not None and particle.text == "of" and (royal(doc, begin, end) or _peerage(doc, end - 2)):
        return 1 if doc[start].text[:1].isupper() else None
    if particle is not None and particle.text == "," and _peerage(doc, start) and doc[end - 1].text[:1].isupper():
        return 1  # "Henry Beaufort, [3rd Duke] of Somerset": a peer's name and his numbered title are one name
    if particle is None or not particle.is_lower or particle.text not in _JOINING_PARTICLES:
        return None
    return 1 if doc[start].text[:1].isupper() and doc[end - 1].text[:1].isupper() else None


_ORDINAL = re.compile(lex.PEER_ORDINAL, re.IGNORECASE)


def _peerage(doc: Doc, at: int) -> bool:
    """Whether ``doc[at:at + 2]`` is a numbered peer's rank ("3rd Duke", "11th Earl"), the way a peer's title
    follows his name ("Charles Howard, 11th Duke of Norfolk"): the name's own words, no relation's."""
    return (
        at >= 0
        and at + 1 < len(doc)
        and _ORDINAL.fullmatch(doc[at].text) is not None
        and doc[at + 1].lower_ in lex.RANK_HEADS
        and doc[at + 1].text[:1].isupper()
    )


def joined_names(doc: Doc, mentions: list[list], labels: list[str]) -> tuple[list[list], list[str]]:
    """The mentions ``[start, end, sentence, entity]`` (in the order found) and their labels with each name that
    continues another (:func:`continues_name`) joined to it: labelled as the second part where nothing lies between
    (its head: "Corvid" + "Media"), else as the first ("Pereira [dos] Santos" is not the GPE "Santos")."""
    joined: list[list] = []
    joined_labels: list[str] = []
    ending: dict[tuple[int, int], int] = {}
    starting: dict[tuple[int, int], int] = {}
    for mention, label in zip(mentions, labels, strict=True):
        start, end, sentence = mention[:3]
        index = len(joined) - 1 if joined and joined[-1][2] == sentence else None
        gap = None if index is None else continues_name(doc, *joined[index][:2], start)
        for before in (start, start - 1):  # a name the NER or the parser found first: "Prince Radu [of] Romania"
            if gap is None and (sentence, before) in ending and ending[(sentence, before)] != index:
                index = ending[(sentence, before)]
                gap = continues_name(doc, *joined[index][:2], start)
        if gap is not None and index is not None:
            joined[index][1] = end
            ending[(sentence, end)] = index
            joined_labels[index] = label if gap == 0 else joined_labels[index]
            continue
        after = next((starting[(sentence, at)] for at in (end, end + 1) if (sentence, at) in starting), None)
        gap = None if after is None else continues_name(doc, start, end, joined[after][0])
        if after is not None and gap is not None:
            joined[after][0] = start  # "Hugo" found after "Fregonese": labelled as the second part, its head
            starting[(sentence, start)] = after
            joined_labels[after] = joined_labels[after] if gap == 0 else label
            continue
        ending[(sentence, end)] = starting[(sentence, start)] = len(joined)
        joined.append(list(mention))
        joined_labels.append(label)
    return joined, joined_labels
