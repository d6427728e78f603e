"""The number of a slot's subject, read from the masked sentence: a verb filled there agrees with it ("The islands
[are located in]", "Many of them [depict]", "A, B, and C [own]"); a name's number is not its last word's
("United States is")."""

from __future__ import annotations

import re
from collections.abc import Sequence

from relguard.rewrite.phrases import NOUN_PHRASE_TAGS, RELATIVES, Token
from relguard.rewrite.verbs import QUOTES, Context, clause_start, has_verb

_QUANTIFIERS = frozenset({"both", "all", "many", "some", "most", "several", "few"})
_OBJECT_PLURALS = frozenset({"them", "these", "those"})  # "Many of them [REL]": the quantifier is the subject
#: Tags of the words a noun phrase that opens a clause may have before its head ("The first two members").
_NOUN_PHRASE = NOUN_PHRASE_TAGS | {"VBN", "VBG", "CC"}  # "The leading members", "The men and women of"


def plural_before(start: int, c: Context) -> bool:
    """Whether the word before the slot, adverbs aside, is a plural noun or "they"/"we": the verb's subject."""
    before = [t for t in c.tagged.tokens if t[1] <= start and t[3] not in ("RB", "RBR", "RBS") and t[2] not in QUOTES]
    if not before:
        return False
    word_start, _, word, tag = before[-1]
    if word.lower() in ("they", "we"):
        return True
    if word in _ASIDE_CLOSES:
        mark = _ASIDE_CLOSES[word]
        opener = [t for t in before[:-1] if mark in t[2]]
        if opener and opener[-1][2] == mark:
            return plural_before(opener[-1][0], c)  # "These princes (and their heirs) [were]": the subject's
        if opener:  # 'Four singles—"A", "B" and "C"— [were]': the tokenizer glues the dash to the words around it
            head = opener[-1][2].split(mark, 1)[0]
            return head.islower() and head.endswith("s") and not head.endswith("ss")
    if word == "," and not has_verb(before[:-1], c):
        opening = [t for t in before[:-1] if t[2] == ","]
        if opening and opening[-1] is not before[0]:
            return plural_before(opening[-1][0], c)  # "These princes, rather than the Mamluks, [were]": the subject's
    if word.lower() in _RELATIVE_WORDS | _OBJECT_PLURALS and len(before) > 1:
        prior = [t for t in before[:-1] if t[2] != ","]
        many = len(prior) > 1 and (prior[-2][2].lower() in _QUANTIFIERS or prior[-2][3] == "CD")
        if many and prior[-1][2].lower() == "of" and prior[-2][2].lower() not in ("one", "1"):
            return True  # "both of which [were named after]", "Many of them [depict]"
        return bool(prior) and plural_before(prior[-1][1], c)  # "the ordinances, which [were]": the antecedent's
    named = next((m for m in c.mentions if m[0] <= word_start < m[1]), None)
    if named is not None and not has_verb(before, c):
        owner = _owning_noun(named, before, c)
        if owner is not None:
            return owner == "NNS"  # "Businesses on or near [the lake] [were]", "The members of [Acme] [own]"
        head = c.text[: named[0]]
        joined = _AND_BEFORE.search(head)
        ahead = [t for t in c.tagged.tokens if joined and t[1] <= joined.start() and t[2] not in QUOTES][-1:]
        named_ahead = bool(ahead) and any(m[0] <= ahead[0][0] < m[1] for m in c.mentions)  # a quoted title
        if ahead and (ahead[0][3] in ("NNP", "NNPS") or ahead[0][2] in ("he", "she") or named_ahead):
            return True  # "Fatih Sultan Mehmet Bridge and Fatih Mosque [are named after]", "A, B, and C [own]"
    if named is not None and named in c.nationalities and people(named, c):
        return True  # "New Zealanders [live in]", "the Marines [are]": a people is many
    return tag == "NNS" and named is None  # a name's number is not its last word's ("United States is")


def _owning_noun(named: tuple[int, int], before: Sequence[Token], c: Context) -> str | None:
    """The tag of the common noun that opens the clause and whose prepositional phrase holds the name ("Businesses
    on or near the lake", "The members of Acme"): that noun, not the name, is the verb's subject."""
    words = [t for t in before if t[0] < named[0]]
    words = words[clause_start(words, c) :]
    k = len(words)
    while k and words[k - 1][3] in ("DT", "PRP$"):
        k -= 1
    preposition = k
    while k and (words[k - 1][3] == "IN" or (words[k - 1][3] == "CC" and k > 1 and words[k - 2][3] == "IN")):
        k -= 1
    if k == preposition or not k or words[k - 1][3] not in ("NN", "NNS"):
        return None
    if any(m[0] <= words[k - 1][0] < m[1] for m in c.mentions) or any(t[3] not in _NOUN_PHRASE for t in words[: k - 1]):
        return None
    return words[k - 1][3]


def people(named: tuple[int, int], c: Context) -> bool:
    """Whether a nationality or group mention names its people in the plural ("New Zealanders", "Marines"), not
    the adjective ("Argentine"): its last word is a plural noun."""
    last = [t for t in c.tagged.tokens if named[0] <= t[0] < named[1]][-1:]
    return bool(last) and last[0][3] in ("NNS", "NNPS") and last[0][2].endswith("s")


#: "he and co-star Lorenzo Lamas [REL]", '"Free Church" and "Free Chapel" [REL]'.
_AND_BEFORE = re.compile(r"[\s\"”’]*,?\s+and\s+(?:[a-z][\w-]*\s+|\[REL_\d+\]\s+){0,3}[\"“‘]?\s*$")
#: A dash or bracket that closes an aside, and the mark that opened it.
_ASIDE_CLOSES = {"—": "—", "–": "–", ")": "("}
#: Relative words whose verb takes its antecedent's number ("where" opens a clause with a subject of its own).
_RELATIVE_WORDS = RELATIVES - {"where"}
