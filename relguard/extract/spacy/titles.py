"""Names told by their own spelling: quoted titles and places by their head word, which the NER misses, and where
an entity the NER found ends or is no name at all (a rank, a kind alone, two names of a list run together).

All read the name's own characters (its quotes, its words, the punctuation inside it) and never the words around
it, so a rewording of the relation next to a name cannot make it one or unmake it (DESIGN invariant 11).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from relguard.extract.spacy import lexicon as lex
from relguard.wordlist import words

if TYPE_CHECKING:
    from spacy.tokens import Doc, Span, Token

#: Longest quoted run taken as a title whatever its words; a longer one is a title only when every word but the
#: small ones is capitalized (:data:`MAX_CAPITALIZED_TITLE_TOKENS`: "A Unit of Water, A Unit of Time"), else speech.
MAX_TITLE_TOKENS = 8
MAX_CAPITALIZED_TITLE_TOKENS = 16
_QUOTES = frozenset({'"', "“", "”"})
#: The words a title leaves in lower case ("Gone with the Wind", "A Unit of Water").
_SMALL_WORDS = words("a an the and or but nor of in on at to for from by with as into onto upon over under vs via")


def quoted_titles(doc: Doc, sentences: Sequence[Span]) -> list[tuple[int, int]]:
    """Token ranges of short capitalized runs in double quotes: the titles of songs, films and books.

    The NER misses most of them or cuts them up ("The Old Chaperone" -> "Old Chaperone"; "Leave It to Joan" ->
    Joan), so a sentence that names a song and its singer got no slot. A title is at most
    :data:`MAX_TITLE_TOKENS` tokens inside a pair of quotes in one sentence, opening with a capital or a digit,
    trailing punctuation left out; a quote glued to a name on either side is a nickname ('Robert "Bob" Smith').
    """
    titles = []
    for sent in sentences:
        opened = None
        for tok in sent:
            if tok.text not in _QUOTES:
                continue
            if opened is None:
                if tok.text != "”":
                    opened = tok.i
                continue
            start, end, opened = opened + 1, tok.i, None
            while end > start and doc[end - 1].is_punct:
                end -= 1
            opening = doc[start].text[:1] if end > start else ""
            if not (opening.isupper() or opening.isdigit()) or not _title_length(doc, start, end):
                continue
            if not any(_name_word(doc, i) for i in (start - 2, tok.i + 1)):
                titles.append((start, end))
    return titles


def _title_length(doc: Doc, start: int, end: int) -> bool:
    """Whether tokens ``start:end`` are short enough for a title: any run of :data:`MAX_TITLE_TOKENS`, or a longer
    one whose words are capitalized but the small ones."""
    if 0 < end - start <= MAX_TITLE_TOKENS:
        return True
    words = [t.text for t in doc[start:end] if t.is_alpha]
    return end - start <= MAX_CAPITALIZED_TITLE_TOKENS and all(w[0].isupper() or w in _SMALL_WORDS for w in words)


def _name_word(doc: Doc, i: int) -> bool:
    return 0 <= i < len(doc) and doc[i].pos_ == "PROPN" and doc[i].text[:1].isupper()


def broken_at(doc: Doc, i: int, end: int) -> bool:
    """Whether an entity the NER found ends before token ``i`` (of its span ending at ``end``): at a line break,
    and at a comma before a capitalized word that is no legal form or abbreviation: the NER ran two names of a
    list into one ("Alice, Sterling Holloway"), which would then be drawn as one entity."""
    if "\n" in doc[i - 1].whitespace_ or doc[i].is_space:
        return True
    if doc[i].text != "," or i + 1 >= end:
        return False
    after = doc[i + 1]
    return after.is_title and after.lower_.strip(".") not in lex.ORG_SUFFIXES and "." not in after.text


_TEAM_WORDS = frozenset({"team", "side", "squad", "xi"})
_TEAM_SEXES = frozenset({"men", "women", "boys", "girls"})


#: A regnal number ("Christian X", "Gustaf V", "Ferdinand III"): a Roman numeral the tagger reads as a proper noun
#: (the pronoun "I" is no proper noun).
ROMAN = re.compile(r"(?=[IVX])X{0,3}(?:IX|IV|V?I{0,3})")
#: Kinds the NER gives a name with a numeral that no ruler's name has ("World War II", "Final Fantasy VII").
_NUMBERED_KINDS = frozenset({"EVENT", "WORK_OF_ART", "PRODUCT", "LAW", "PERSON"})


def roman(token: Token) -> bool:
    """Whether ``token`` is a Roman numeral read as a proper noun."""
    return token.tag_ == "NNP" and ROMAN.fullmatch(token.text) is not None


def regnal(doc: Doc, start: int, end: int, label: str, limit: int) -> tuple[int, str]:
    """The end and label of a ruler's name the NER cut before its regnal number ("Christian" NORP, then "X") or
    labelled as a body ("Ferdinand III" ORG): the numeral right after the name is part of it, and a name of one
    word after its ranks, then a numeral, is a person. Unjoined, "the son of Christian X and Alexandrine" paired
    "Alexandrine" across "Christian X" with whatever came before. Reads the name's own words only."""
    if end < limit and roman(doc[end]) and doc[end - 1].is_alpha and doc[end - 1].text[:1].isupper():
        end += 1
    if roman(doc[end - 1]) and royal(doc, start, end) and label not in _NUMBERED_KINDS:
        label = "PERSON"
    return end, label


def royal(doc: Doc, start: int, end: int) -> bool:
    """Whether the name ``doc[start:end]`` is a ruler's or a noble's as royal styles spell it, which takes "of" and
    a place as part of the name ("Alfonso IV of Aragon", "Prince Radu of Romania", "Queen Anne of Romania"): one
    word after its ranks, with a rank before it or a regnal number after it."""
    words = [t for t in doc[start:end] if not roman(t)]
    given = [t for t in words if t.lower_ not in lex.RANKS]
    numbered = end - start >= 2 and roman(doc[end - 1])
    return len(given) == 1 and given[0].is_alpha and (numbered or len(words) > 1)


def as_team(doc: Doc, end: int, label: str, limit: int) -> tuple[int, str]:
    """The end and label of a name the NER labelled ``label`` and ended at ``end``: a place or nationality before
    "national team" ("the Netherlands [national team]", "the Turkish [national football team]", "Brazil women's
    [national team]") names the team, a body, not the country (ORG). It reads the name's own words only
    ("national", at most two lower-case words, a team's head noun); none of them can be a relation's, which lies
    between two names."""
    team = _team_end(doc, end, limit) if label in ("GPE", "NORP", "LOC") else None
    return (team, "ORG") if team else (end, label)


def _team_end(doc: Doc, end: int, limit: int) -> int | None:
    i = end
    if i + 1 < limit and doc[i].lower_ in _TEAM_SEXES and doc[i + 1].tag_ == "POS":
        i += 2
    if i >= limit or doc[i].lower_ != "national":
        return None
    for j in range(i + 1, min(i + 4, limit)):
        if doc[j].lower_ in _TEAM_WORDS:
            return j + 1
        if not (doc[j].is_alpha and doc[j].is_lower):
            return None
    return None


def hyphen_glued(doc: Doc, start: int, end: int) -> bool:
    """Whether the name ``doc[start:end]`` ends in a lower-case word glued by a hyphen to a capitalized one: a
    given name's second syllable ("Jung Eun-ji", "Lee Se-young"), not a verb's prefix the NER took in ("Omar
    Haddad re" before "-joined")."""
    return (
        end - start >= 3
        and doc[end - 2].text == "-"
        and not doc[end - 3].whitespace_
        and not doc[end - 2].whitespace_
        and doc[end - 3].text[:1].isupper()
    )


def no_name(words: Span, *, kinds: bool = True) -> bool:
    """Numbers and ordinals alone ("204th", "1990s"; blanks, punctuation and words without a letter count too:
    "/1000000"): a rank or a date the NER took for a name, whose slot would rewrite the noun it counts ("the
    104th overall [episode of]"); or one word that alone is a kind, not a name
    (:data:`~relguard.extract.spacy.lexicon.GENERIC_NAMES`: "Library", "Television"), which drawn states what no
    kind can be ("Television is an enclave within Saint Alphonsa"), unless ``kinds`` is false; or a rank alone
    (:func:`rank_alone`)."""
    kept = [t for t in words if not (t.is_punct or t.is_space)]
    if (kinds and len(kept) == 1 and kept[0].lower_ in lex.GENERIC_NAMES) or rank_alone(words):
        return True
    if len(kept) == 1 and _era(words):
        return True
    return all(t.like_num or _NUMERAL.fullmatch(t.text) or not _LETTER.search(t.text) for t in kept)


def rank_alone(words: Span) -> bool:
    """A rank or office without its holder ("King", "Hereditary Prince", "Holy Roman Emperor"), which the NER
    takes for a person: drawn, it made "Knud, Hereditary Prince [was banned in] Denmark" of "Knud, Hereditary
    Prince of Denmark". One word that is also the last word of a longer name in the document ("King" after
    "Stephen King") is that person's surname and stays a name."""
    kept = [t.lower_ for t in words if t.is_alpha]
    if not kept or not set(kept) <= lex.RANKS or lex.RANK_HEADS.isdisjoint(kept):
        return False
    return len(kept) > 1 or all(name[-1].lower_ != kept[0] for name in words.doc.ents if len(name) > 1)


def _era(words: Span) -> bool:
    """An era's letters beside a year ("68 BC", "185 BCE", "AD 79"): part of a date, which the tagger reads as a
    proper noun and the NER as a body; drawn, "Xuan was studied by BC"."""
    if words.text.replace(".", "").strip() not in _ERAS:
        return False
    doc = words.doc
    before = doc[words.start - 1] if words.start > 0 else None
    after = doc[words.end] if words.end < len(doc) else None
    return (before is not None and before.like_num) or (after is not None and after.like_num)


_ERAS = frozenset({"BC", "BCE", "AD", "CE"})
_NUMERAL = re.compile(r"\d+(?:st|nd|rd|th|s)?", re.I)
_LETTER = re.compile(r"[^\W\d_]")


def place_shape(words: Span) -> str | None:
    """LOC for a run of capitalized words ending in a place's head word ("Regal Mountain"), which the NER on the
    name alone often leaves untyped."""
    tokens = [t for t in words if not t.is_space]
    return "LOC" if len(tokens) >= 2 and tokens[-1].lower_ in lex.PLACE_HEADS else None
