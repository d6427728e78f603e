"""Where the shape of a masked sentence alone says no fill can read well: the sentence is unfillable.

Every rule reads only the masked text and the words of the sampled outcomes, never an original relation, so
what they delete is public like the fill itself (DESIGN invariant 7).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable, Mapping

from relguard.extract.regions import DETERMINER_BEFORE
from relguard.rewrite.mask import MaskedDocument, Slot, prints_own

#: A fill that opens a relative clause (", which …", "that …").
RELATIVE = re.compile(r",? ?(?:that|who|which) ")
#: Marks a fill whose relative clause needs a comma after the next name (taken off when the text is built).
CLOSE = "\x00"
#: The neutral connector (:mod:`relguard.rewrite.neutral`): states that the two names are related, which the
#: sentence's co-mention says already. Here so that the seams, below the connector's module, can read it.
CONNECTOR = "associated with"
#: The most fills with words one released sentence may hold (:func:`crowded`).
MOST_FILLS = 1
#: A fill that is one preposition ("a river [in] X") adds no clause to its sentence.
_LONE_PREPOSITION = re.compile(r"^,?\s*(?:of|in|to|for|by|with|from|at|on|into|as|within|near|over|under|through)$")

_MONTH = (
    r"January|February|March|April|May|June|July|August|September|October|November|December"
    r"|Jan\.|Feb\.|Mar\.|Apr\.|Aug\.|Sept?\.|Oct\.|Nov\.|Dec\."
)
_WHEN = rf"\d[\d,./–-]*(?:s|st|nd|rd|th)?|{_MONTH}|spring|summer|autumn|fall|winter|century|centuries|decades?"
_TIME_WORD = rf"(?:{_WHEN}|the|early|late|mid|middle|season|years?|of|AD|BC|BCE|CE|c\.|circa|about|around)"
#: What may stand between the head and the tail of one expression when a fill takes both ("is owned [in 1777]
#: by"): a time or a number, with its preposition. Anything else was governed by the original words.
_ADVERBIAL = re.compile(
    rf"\s*,?\s*(?:(?:in|on|at|during|since|from|until|till|by|after|before|between|and|to)\s+)?(?:{_TIME_WORD}[\s,]*)+"
)
_DATED = re.compile(rf"\b(?:1\d\d\d|20\d\d|{_MONTH[: _MONTH.index('|Jan')]}|century)\b")
_HAS_WHEN = re.compile(rf"\b(?:{_WHEN})")
#: A noun that makes a fixed preposition with the word after it ("in front [of]", "in active pursuit [of]"):
#: whatever was in the slot after it belonged to that preposition, and no fill takes its place.
_FIXED_PHRASE = re.compile(
    r"\b(?:in|on|by|at|with|for|under)\s+(?:\w+\s+)?(?:front|behalf|charge|honou?r|favou?r|pursuit|terms|spite|place|"
    r"search|comparison|memory|light|view|respect|lieu|course|means|addition|accordance|response|return|defiance|"
    r"possession|control|command|care|aid|support|protest|recognition|preparation|anticipation|conjunction|"
    r"collaboration|cooperation|partnership|association|competition|opposition|violation|excess|advance|help|"
    r"time|behest|request|invitation|instigation|expense|hands|wake|absence|presence)\s*$",
    re.IGNORECASE,
)
#: A word that makes a fixed preposition with the next one ("together [with]", "according [to]", "instead [of]").
_FIXED_ADVERB = re.compile(
    r"\b(?:together|along|according|due|instead|owing|prior|next|close|apart|aside|regardless|thanks|because|"
    r"rather|such|as\s+well)\s*$",
    re.IGNORECASE,
)
#: The preposition a fixed phrase's last word takes; a noun of :data:`_FIXED_PHRASE` not named here takes "of".
_FIXED_TAKES = {
    "comparison": "with", "addition": "to", "accordance": "with", "response": "to", "return": "for",
    "protest": "against", "preparation": "for", "conjunction": "with", "collaboration": "with",
    "cooperation": "with", "partnership": "with", "association": "with", "competition": "with",
    "opposition": "to", "together": "with", "along": "with", "according": "to", "due": "to", "instead": "of",
    "owing": "to", "prior": "to", "next": "to", "close": "to", "apart": "from", "aside": "from",
    "regardless": "of", "thanks": "to", "because": "of", "rather": "than", "such": "as", "well": "as",
    "help": "from", "respect": None,
}  # fmt: skip
_OPENS_ASIDE = re.compile(r"\(\s*(?:;\s*)?$")
_DATE_AFTER = re.compile(rf"\s*(?:(?:on|in|c\.)\s+)?(?:\d|{_MONTH})")
_DATE_IN_ASIDE = re.compile(rf"\s*(?:(?:on|in|c\.|ca\.|circa|between|after|before|about|around)\s+)?(?:\d|{_MONTH})")
#: A second object that shares the first one's verb and preposition ("served as X and as Y", "leader of X until
#: 1914 and of Y"): "and", a preposition, an article at most, then a name; after "and as" anything ("acquired
#: fame as a lecturer at X and also as a preacher").
_AS_PHRASE = re.compile(r"(?:a result|well|such|of|if|though|soon|long|part|usual|far|much|many)\b")
_GAPPED = re.compile(r"\band\s+(?:also\s+)?(as|of|in|at|for|to|with|from|on|under|into|by)\s+(?:the\s+)?")


def crowded(masked: MaskedDocument, texts: Mapping[int, str]) -> set[int]:
    """Sentences with more than :data:`MOST_FILLS` fills that bring words (a bare comma does not count).

    Each fill is worded for its own slot, and two or more in one sentence — a list of places, an address chain,
    a cast list, a verb and a preposition of one clause — pile up clauses no reader can follow ("a river that
    lives in Catalonia that annexed Barcelona-located northeastern Spain", "a distributor that emigrated from
    New York City governed in 1988 co-Presidents …"). Of 40 HotpotQA sentences read at ε = 5, 9 of the 14
    broken ones held two fills, and 2 of the 26 that read well. One aside may stand beside one more fill: a
    clause set off by commas (", who founded Apple,"), a compound ("the Los Angeles-[based] band") or the second
    verb of a coordination ("a game that founded X and [is owned by] Y"). The later part of one expression
    ("was founded [in 1777] by") is no fill of its own. Unfillable: restated.
    """
    words: dict[int, int] = {}
    asides: dict[int, int] = {}
    for number, slot in enumerate(masked.slots):
        text = texts.get(number, "")
        if any(ch.isalpha() for ch in text) and prints_own(masked, slot) and not _LONE_PREPOSITION.match(text):
            words[slot.sentence] = words.get(slot.sentence, 0) + 1
            aside = text.startswith((", ", "-")) or _after_and(masked, slot)
            asides[slot.sentence] = asides.get(slot.sentence, 0) + aside
    return {s for s, count in words.items() if count > MOST_FILLS + min(1, asides[s]) or count - asides[s] > 1}


def reads_between(masked: MaskedDocument, tail: Slot) -> bool:
    """Whether the words between an expression's head and its ``tail`` read the same under any fill: only a time
    or a number does ("was founded [in 1777] by"). An object, a phrase or another slot between ("is regarded as
    [the leading publishers of classics] in", "returned [to parliamentary politics in 1998] as") was governed by
    the original verb, and a fill split around it is not English, so the sentence is unfillable."""
    between = masked.text[masked.slots[tail.head].end : tail.start]
    if not between.strip(" ,"):
        return True
    return _ADVERBIAL.fullmatch(between) is not None and _HAS_WHEN.search(between) is not None


def orphaned(masked: MaskedDocument) -> set[int]:
    """Sentences with a removed part right after an article or a possessive ("ended his [role as editor-in-chief
    for] the blog"): the part is the noun that word opens, and removing it leaves "praised his the blog". The
    sentence is unfillable as parts, and the expression is worded as one slot where its gap may go with it
    (:mod:`relguard.rewrite.collapse`: "praised the blog")."""
    return {
        slot.sentence
        for slot in masked.slots
        if slot.role == "removed" and DETERMINER_BEFORE.search(masked.text, max(0, slot.start - 12), slot.start)
    }


def dated_between(masked: MaskedDocument, tail: Slot) -> bool:
    """Whether the words between an expression's parts name a year or a month, which commas may set off around
    a form with no preposition ("employed, in 1777, William Bass"); a bare number may not ("which organized,
    to 7,049, the 2011 Census")."""
    return _DATED.search(masked.text, masked.slots[tail.head].end, tail.start) is not None


def dated_asides(masked: MaskedDocument) -> set[int]:
    """Slots that open a parenthesis right before a date ("Shabana Azmi ([born] 18 September 1950) is an Indian
    actress"): the date is no name a fill relates, and every fill there reads "(the leader 18 September 1950)".
    Such a slot holds nothing, and its drawn relation is stated after the sentence (:mod:`relguard.rewrite.neutral`):
    "(18 September 1950)" is how a date stands in brackets."""
    return {
        number
        for number, slot in enumerate(masked.slots)
        if (_OPENS_ASIDE.search(masked.text, max(0, slot.start - 4), slot.start) or _next_in_aside(masked, slot))
        and _DATE_IN_ASIDE.match(masked.text, slot.end)
    }


def _next_in_aside(masked: MaskedDocument, slot: Slot) -> bool:
    """A slot after ";" or a dash inside an open bracket: "(born 1741; [died] 24 September 1813)"."""
    before = bracketed_before(masked, slot)
    return before is not None and before.rstrip()[-1:] in (";", "–", "—")


def bracketed_before(masked: MaskedDocument, slot: Slot) -> str | None:
    """The text of the slot's sentence right before it (120 characters at most) where a bracket opened there is
    still open at the slot, else None: "(July 31, 1900 [in] Hebron", "(born 1741; [died] …"."""
    before = masked.text[max(masked.sentences[slot.sentence][0], slot.start - 120) : slot.start]
    return before if before.rfind("(") > before.rfind(")") else None


def after_fixed_phrase(masked: MaskedDocument, own: Mapping[int, str] | None = None) -> set[int]:
    """Sentences with a slot right after a noun of a fixed preposition ("in front [of] the Parliament") or a word
    that makes one ("together [with] the Soviet Union"): a clause or a verb there reads "in front that is a
    member of", "together the invader of". Not where the slot is a whole expression of its own and the phrase
    names its preposition (``own``, :func:`fixed_prepositions` unless the caller has read them): that sentence
    keeps the preposition as its connector."""
    own = fixed_prepositions(masked) if own is None else own
    return {
        slot.sentence
        for number, slot in enumerate(masked.slots)
        if number not in own and _fixed_phrase(masked.text[max(0, slot.start - 40) : slot.start])
    }


def dictated(masked: MaskedDocument) -> tuple[set[int], set[int]]:
    """What the masked text dictates whatever is drawn, read once for every wording a fill tries: the sentences
    with a fixed phrase before a slot (:func:`after_fixed_phrase`), and those no wording reads in (orphaned, or a
    slot that takes only a connector: :func:`orphaned`, :func:`connector_only`)."""
    own = fixed_prepositions(masked)
    closed = orphaned(masked) | {masked.slots[n].sentence for n in connector_only(masked, own)}
    return after_fixed_phrase(masked, own), closed


def connector_only(masked: MaskedDocument, own: Mapping[int, str]) -> set[int]:
    """Slots no drawn fill is tried in, only a connector the masked text dictates: a bracket before a date
    (:func:`dated_asides`) and a fixed phrase's preposition (``own``, :func:`fixed_prepositions`)."""
    return dated_asides(masked) | set(own)


def fixed_prepositions(masked: MaskedDocument, numbers: Iterable[int] | None = None) -> dict[int, str]:
    """The preposition a fixed phrase right before a slot takes ("in front [of]", "such [as]", "in the wake [of]",
    "according [to]"), per slot that is a whole expression (no parts): no drawn fill reads there, and that
    preposition reads there whatever the slot held. It is a function of the masked text (the phrase is outside
    the slot), so it says nothing of the original relation; the drawn relation is stated after the sentence
    (:mod:`relguard.rewrite.neutral`). ``numbers``: only these slots (one sentence's), not the document's."""
    found: dict[int, str] = {}
    heads = {s.head for s in masked.slots}
    for number in range(len(masked.slots)) if numbers is None else numbers:
        slot = masked.slots[number]
        if slot.role or slot.head >= 0 or number in heads:
            continue
        preposition = preposition_after(masked.text[max(0, slot.start - 40) : slot.start])
        if preposition:
            found[number] = preposition
    return found


def preposition_after(before: str) -> str | None:
    """The preposition the fixed phrase that ``before`` ends with asks for, or None (:func:`fixed_prepositions`;
    the leak scan excuses an original that was that word)."""
    match = _fixed_phrase(before)
    if match is None:
        return None
    return _FIXED_TAKES.get(match.group().split()[-1].lower(), "of" if match.re is _FIXED_PHRASE else None)


def _fixed_phrase(before: str) -> re.Match[str] | None:
    """The fixed phrase (a noun of one, or a word that makes one) that ``before`` ends with, if any."""
    return _FIXED_PHRASE.search(before) or _FIXED_ADVERB.search(before[-16:])


def gapped(masked: MaskedDocument, texts: Mapping[int, str]) -> set[int]:
    """Sentences where a later object leans on the slot's preposition ("He [served as] the Minister Provincial …
    and as the Minister General"): a fill that does not end with that preposition leaves "and as" hanging
    ("He studied at X and as Y"). A date after "and in" opens a new phrase and does not count."""
    found: set[int] = set()
    starts = {start for start, _, _ in masked.mentions}
    for number, slot in enumerate(masked.slots):
        words = texts.get(number, "").replace(CLOSE, "").strip(" ,")
        if not any(ch.isalpha() for ch in words):
            continue
        end = masked.sentences[slot.sentence][1]
        following = next((s.start for s in masked.slots[number + 1 :] if s.sentence == slot.sentence), end)
        for match in _GAPPED.finditer(masked.text, slot.end, following):
            dated = _DATE_AFTER.match(masked.text, match.end()) is not None
            leaning = (match.end() in starts and not dated) or (
                match.group(1) == "as" and not _AS_PHRASE.match(masked.text, match.end())
            )
            if leaning and words.split()[-1].lower() != match.group(1).lower():
                found.add(slot.sentence)
    return found


def stacked(masked: MaskedDocument, texts: Mapping[int, str]) -> set[int]:
    """Sentences where a relative-clause fill follows the name that closes another one ("Studio 92 that is the
    seat of Canada that is the place of death of Norm Barker"): the second clause reads as the first one's, and a
    chain of them loses who did what."""
    found: set[int] = set()
    slots = masked.slots
    for number in range(1, len(slots)):
        first, second = slots[number - 1], slots[number]
        if first.sentence != second.sentence:
            continue
        if not (RELATIVE.match(texts.get(number - 1, "")) and RELATIVE.match(texts.get(number, ""))):
            continue
        between = [m for m in masked.mentions if first.end <= m[0] and m[1] <= second.start]
        if len(between) == 1 and not masked.text[between[0][1] : second.start].strip():
            found.add(second.sentence)
    return found


def repeated(masked: MaskedDocument, texts: Mapping[int, str]) -> set[int]:
    """Sentences where two fills bring the same words ("an airport that invests in four miles that invests in the
    district", "later founded Hol-founded Vestvågøy", "Acme Corp, which sued Globex, sued Initech"): one relation
    stated twice reads as a stutter, never as the original's two phrases. A relative pronoun, a hyphen and the
    commas around a fill do not make it another."""
    seen: dict[int, set[str]] = {}
    found: set[int] = set()
    for number, slot in enumerate(masked.slots):
        words = _LEAD.sub("", texts.get(number, "").replace(CLOSE, "").strip(" ,-").lower())
        if not any(c.isalpha() for c in words) or not prints_own(masked, slot):
            continue
        if words in seen.setdefault(slot.sentence, set()):
            found.add(slot.sentence)
        seen[slot.sentence].add(words)
    return found


_LEAD = re.compile(r"^(?:that|who|which) ")
COORDINATED = re.compile(r"\band\s+$")


def _after_and(masked: MaskedDocument, slot: Slot) -> bool:
    """Whether the slot stands right after "and" (read in the 12 characters before it: a hot path)."""
    return COORDINATED.search(masked.text, max(0, slot.start - 12), slot.start) is not None


_BETWEEN = re.compile(r"\bbetween\b", re.IGNORECASE)
_RANGE_OPENER = re.compile(r"\b(?:from|between)\s+$", re.IGNORECASE)
_RANGE_CLOSER = re.compile(r" to (?:\w+ )?(?:the )?[A-Z]")


def ranged(masked: MaskedDocument) -> set[int]:
    """Sentences with a slot between the two ends of a range, "from X [to] Y", "between X [and] Y": the slot's
    words were the range's second half, and a relation phrase there reads "changed from X that competes with Y"
    ("between the vicinity of Dexter and governs Watertown": the slot after the "and" is the second end too);
    or one that opens it, a name and "to" a capitalized word after it ("changed its identity [from] the ROIA to
    simply OIA" read "its identity that sanctioned the ROIA to simply OIA")."""
    found: set[int] = set()
    starts = [m[0] for m in masked.mentions]
    for slot in masked.slots:
        at = bisect_left(starts, slot.end)
        after = masked.mentions[at] if at < len(starts) else None
        next_to = after is not None and not masked.text[slot.end : after[0]].strip(" ").removeprefix("the").strip()
        if next_to and _RANGE_CLOSER.match(masked.text, after[1]):
            found.add(slot.sentence)
            continue
        start = masked.sentences[slot.sentence][0]
        opened = [m.start() for m in _BETWEEN.finditer(masked.text, start, slot.start)]
        rest = masked.text[opened[-1] : slot.start].rstrip().removesuffix(" and") if opened else ""
        if opened and " and " not in rest + " ":
            found.add(slot.sentence)
            continue
        name = next((m for m in reversed(masked.mentions) if m[1] <= slot.start), None)
        if name is None or masked.text[name[1] : slot.start].strip():
            continue
        if _RANGE_OPENER.search(masked.text[max(0, name[0] - 12) : name[0]]):
            found.add(slot.sentence)
    return found


def mismatched(masked: MaskedDocument, texts: Mapping[int, str]) -> set[int]:
    """Sentences where a fill after "and" is not of its sibling's kind: a relative clause after one that is none
    ("the installment published by X, and that is a prequel to Y"), or a verb after a noun phrase ("the
    supporters of Edward F. Cline and founded First National Pictures"): the halves no longer match."""
    found: set[int] = set()
    for number, slot in enumerate(masked.slots):
        words = texts.get(number, "").replace(CLOSE, "")
        if not any(c.isalpha() for c in words) or not _after_and(masked, slot):
            continue
        earlier = [texts.get(n, "") for n, s in enumerate(masked.slots[:number]) if s.sentence == slot.sentence]
        earlier = [e for e in earlier if any(c.isalpha() for c in e)]
        if not earlier:
            continue
        sibling = earlier[-1].replace(CLOSE, "").strip(" ,")
        relative = RELATIVE.match(words) is not None and RELATIVE.match(sibling) is None
        noun_then_verb = sibling.startswith("the ") and not words.startswith(("the ", "a ", "an "))
        if relative or noun_then_verb:
            found.add(slot.sentence)
    return found


_QUOTES = re.compile(r"[\"“”]")
_CAPITALIZED_BEFORE = re.compile(r"(?<![.!?]\s)\b[A-Z][a-z]+\s+$")


def inside_name(masked: MaskedDocument) -> set[int]:
    """Sentences with a slot inside a quoted title ("the album "Staring [at] the Sun"") or right after a capitalized
    word no mention covers, before a name ("Office [for] National Statistics"): the NER cut a name, and a fill
    there writes into it ("the album "is in the collection of the Sun""). Unfillable."""
    found: set[int] = set()
    covered = [(a, b) for a, b, _ in masked.mentions]
    for slot in masked.slots:
        start = masked.sentences[slot.sentence][0]
        before = masked.text[start : slot.start]
        if len(_QUOTES.findall(before)) % 2 and _QUOTES.search(
            masked.text, slot.end, masked.sentences[slot.sentence][1]
        ):
            found.add(slot.sentence)
            continue
        word = _CAPITALIZED_BEFORE.search(before)
        if word is None or not before[: word.start()].strip():
            continue  # the sentence's first word is capitalized anyway
        at = start + word.start()
        named_after = any(a == slot.end + 1 or a == slot.end for a, _ in covered)
        if named_after and not any(a <= at < b for a, b in covered):
            found.add(slot.sentence)
    return found


_ONE_OF = re.compile(r"\bone of (?:the|his|her|its|their) (?:\w+ )?$", re.IGNORECASE)
_PLURAL_COPULA = re.compile(r"\b(?:are|were)\s+$")
_ARTICLE_START = re.compile(r"^(?:the|a|an) ")


def wants_plural(masked: MaskedDocument, texts: Mapping[int, str]) -> set[int]:
    """Sentences whose fill would be a singular role where the text wants a plural: after "one of the first"
    ("Veditz was one of the first founder of American Sign Language") or a role after "are" ("His experimental
    works are the investor of ..."). The forms have no plural nouns: unfillable."""
    found: set[int] = set()
    for number, slot in enumerate(masked.slots):
        words = texts.get(number, "").replace(CLOSE, "").strip(" ,")
        if not any(c.isalpha() for c in words):
            continue
        before = masked.text[max(0, slot.start - 40) : slot.start]
        if _ONE_OF.search(before) or (_PLURAL_COPULA.search(before) and _ARTICLE_START.match(words)):
            found.add(slot.sentence)
    return found
