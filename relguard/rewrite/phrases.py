"""What the tagged words before a slot say about it: the phrase it stands in, read from tags alone.

Helpers of :mod:`relguard.rewrite.frames` that need no mentions or earlier frames, only the (start, end, text,
tag) tokens of a masked sentence (:mod:`relguard.rewrite.tagging`), so they are public like the frames.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

Token = tuple[int, int, str, str]
RELATIVES = frozenset({"who", "which", "that", "whom", "where"})
#: Tags of the words of a common noun phrase: its article or possessive, adjectives, numbers and nouns ("The first two
#: members", "Their online site"); the readers that need more add to it.
NOUN_PHRASE_TAGS = frozenset({"DT", "PDT", "PRP$", "JJ", "JJR", "JJS", "CD", "NN", "NNS", "HYPH", "POS"})
#: Adverbs of two words whose first is a preposition the tagger reads as one ("was at first [named]": not the
#: noun "at first [organization that]").
ADVERB_PHRASES = frozenset(
    {"at first", "at last", "at once", "at times", "at least", "at present", "in turn", "in fact", "in part",
     "of course", "in particular", "for now", "later on"}
)  # fmt: skip
#: Names English says with "the" wherever they stand, though a sentence may not ("Maryland, United States").
_TAKES_THE = re.compile(
    r"(?:United (?:States|Kingdom|Arab Emirates|Nations)|U\.?S\.?A?\.?|U\.K\.?|UK|Netherlands|Philippines|Bahamas"
    r"|[A-Z]\w+ (?:Islands|Republic))"
)


def takes_the(name: str) -> bool:
    """Whether a statement or a fill before ``name`` says "the" first ("borders the United States")."""
    return bool(_TAKES_THE.fullmatch(name))


_SUBORDINATORS = frozenset(
    {"although", "though", "while", "whilst", "whereas", "because", "if", "unless", "when", "whenever", "that"}
)


def in_opening_phrase(before: Sequence[Token], *, proper: bool = False) -> bool:
    """Whether the sentence opens with a prepositional phrase and the slot follows its noun, which a preposition
    other than "of" governs ("At the time of the referendum on membership [in] the EU, Esch …"): no subject yet.
    With ``proper`` (one name at most before the slot) a capitalized noun counts ("During his First
    Secretaryship [in] Stavropol, Kulakov …")."""
    nouns = ("NN", "NNS", "NNP", "NNPS") if proper else ("NN", "NNS")
    if len(before) > 2 and before[0][3] == "RB" and before[1][2] == ",":
        before = before[2:]  # "Ironically, in the Turkish translations [of] the series, he …"
    if not before or before[0][3] != "IN" or any(t[2] == "," for t in before):
        return False
    if before[0][2].lower() in _SUBORDINATORS:
        return False  # "Although Tymiński [was born in]": a clause, with its subject
    for _, _, word, tag in reversed(before):
        if tag in ("IN", "TO"):
            return word.lower() not in ("of", "than", "that") and before[-1][3] in nouns
        if tag not in (*nouns, "JJ", "JJR", "JJS", "DT", "PRP$", "HYPH", "VBN", "VBG"):
            return False
    return False


def in_opening_participle(before: Sequence[Token]) -> bool:
    """Whether the sentence opens with a participle whose phrase no comma has closed yet ("Founded as Acme College
    [by] the Ohio School Board in 1901, the school ..."): the subject is still to come, so the slot modifies."""
    return bool(before) and before[0][3] in ("VBN", "VBG") and not any(t[2] == "," for t in before)


def in_apposition(before: Sequence[Token]) -> bool:
    """Whether the slot follows the noun of an apposition that a comma after the sentence's first name opened and
    no comma has closed ("Quantix Labs, a software company [headquartered in] Austin, agreed …", "Onaway State
    Park, at the southeastern end [of] the lake, offers …"): the main verb is still to come, so the slot modifies
    that noun."""
    comma = next((n for n, t in enumerate(before) if t[2] == ","), None)
    if comma is None or comma == 0 or len(before) < comma + 3 or before[-1][3] not in ("NN", "NNS"):
        return False
    if any(t[3] not in ("NNP", "NNPS") for t in before[:comma]):
        return False
    opening = before[comma + 1][2].lower()
    if opening not in ("a", "an"):
        if before[comma + 1][3] != "IN" or opening in ("of", "that", "than") or before[comma + 2][3] != "DT":
            return False
        comma += 1  # "Onaway State Park, at the southeastern end [of] the lake, offers": an aside that a
        # preposition opens, its noun still without the main verb
    return all(t[3] in ("JJ", "JJR", "JJS", "NN", "NNS", "CD", "HYPH", "NNP", "NNPS") for t in before[comma + 2 : -1])


def looking_back(before: list[Token]) -> list[Token]:
    """The words before a slot without the adverbs and parenthesized asides right before it ("and later
    [moved to]", "the second (surviving) [son of]", "was at first [named]"): the slot follows what stands before
    them."""
    while before:
        if len(before) >= 2 and f"{before[-2][2]} {before[-1][2]}".lower() in ADVERB_PHRASES:
            before = before[:-2]
        elif before[-1][3] in ("RB", "RBR", "RBS") and before[-1][2].lower() not in RELATIVES:
            before = before[:-1]
        elif before[-1][2] == ")":
            depth, cut = 0, len(before) - 1
            while cut >= 0:
                depth += {")": 1, "(": -1}.get(before[cut][2], 0)
                if depth == 0:
                    break
                cut -= 1
            if cut <= 0:
                return before
            before = before[:cut]
        else:
            return before
    return before


def ends_noun_phrase(before: Sequence[Token]) -> bool:
    """The last words are an article or possessive with only adjectives or participles after it ("the", "an
    operating", "the world's largest", "a young but important"): the slot is that noun phrase's head."""
    for n, (_, _, word, tag) in enumerate(reversed(before[-7:])):
        if tag in ("DT", "PDT", "PRP$", "POS"):
            return word.lower() not in ("that", "this", "these", "those", "which", "all", "both") or tag != "DT"
        if tag not in ("JJ", "JJR", "JJS", "VBG", "VBN", "HYPH", "CD", ",", "RBS", "RBR", "RB", "CC") or (
            n == 0 and tag in ("RB", "CC")
        ):
            return False
    return False
