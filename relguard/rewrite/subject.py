"""Fills said of the wrong thing: a verb or a description whose subject is a noun rather than the pair's name, and a
relation drawn onto what a name owns.

The drawn predicate is the pair's; printed where the sentence says it of a common noun ("Braun's credits [wrote
about]", "seasonal services [that banned] Switzerland") or of the thing a name owns ("[was authored by] Samantha's
second album"), it says the relation of the wrong thing, often of the wrong kind. Every rule reads the masked text
and the candidate words only (DESIGN invariant 7); the caller leaves a neutral connector there instead
(:mod:`relguard.rewrite.neutral`).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from relguard.rewrite.mask import MaskedDocument, Slot, mention_at
from relguard.rewrite.shape import COORDINATED
from relguard.rewrite.tagging import tag_sentences
from relguard.wordlist import KIN, KIND_NOUNS, KIND_OF_NOUN, LOOSE_ADVERBS, POSSESSIVE_PRONOUNS, TIME_NOUNS

if TYPE_CHECKING:
    from relguard.rewrite.frames import Frame

#: Past participles of the pools' wordings that no regular ending shows ("a tour [born in] New Zealand").
_IRREGULAR = "born|won|taught|fought|set|struck|lost|spun|worn|left|met|broadcast|run|found|sworn|bought|brought|led"
#: A fill that says something of the noun before it: a relative clause or a participle ("that banned", "owned by").
_MODIFIES = re.compile(rf"^,? ?(?:(?:that|who|which) |\w+(?:ed|en|wn|ung|ld|lt|nt|de)\b|(?:{_IRREGULAR})\b)")
_COPULA_BEFORE = re.compile(r"\b(?:is|was|are|were|becomes|became|remains|remained)\b")
#: Between the verb phrase's object and a copula the verb's subject shares: "She attended the Institute [and] was a
#: member [REL] Maryland": the member is not the Institute.
_OBJECT_GAP = re.compile(r",?\s+and\s+(?:also\s+|later\s+)?")
#: A possessive inside a description: "it was Shaw's third novel, [REL]" describes the novel, not Shaw.
_OWNED_INSIDE = re.compile(r"\b[A-Z][\w.-]*['’]s?\s")  # a name's, not "a woman's magazine"
#: A noun of kind or number and its "of" open one phrase: "is a set of editor tools [REL] Sega".
_KIND_OF = re.compile(rf"\b(?:{'|'.join(sorted(KIND_NOUNS))})s? of\b")
_NOT_ONE_PHRASE = re.compile(
    r"[,;:()]|\b(?:of|in|to|for|by|with|from|at|on|into|as|within|near|over|under|through|and|or|that|which|who)\b"
)


def off_subject(
    masked: MaskedDocument, texts: Mapping[int, str], frames: Sequence[Frame], *, appositions: bool = True
) -> set[int]:
    """Sentences where a fill that modifies the noun before it ("that banned X", "owned by X") follows a noun that
    is neither a name nor the name's own description: "seasonal services [that banned] Switzerland", "sonatas for
    solo violin [that educated] Bach", "a stop [that spanned] Lyon". The drawn relation is the
    name's, so stated there it is said of the wrong thing (and often of the wrong kind). A description right after
    a copula whose subject is a name is the name's ("Sonic is a media franchise [REL] Sega"; not where the name
    before the copula is another verb's object, :data:`_OBJECT_GAP`), and a fill after
    "and" has the earlier verb's subject. A verb after a name that a preposition inside its subject governs ("The
    centre of the village [honored] the Grotto", "The stated purpose of Mono [owns] Microsoft") is said of that
    subject just as wrongly. A role noun in apposition to a noun that is not a name ("Stefan Borsch covered the
    song, [the opponent of] a hit", "it was Shaw's third novel, [the defender of] The Young Lions") equates the noun
    with the role as wrongly (not read with ``appositions=False``, the last try before a restatement). Only slots in
    those frames are read; the caller leaves out a neutral connector
    (:mod:`relguard.rewrite.neutral`), which claims nothing."""
    found: set[int] = set()
    ends = {end for _, end, _ in masked.mentions}
    for number, slot in enumerate(masked.slots):
        words = texts.get(number, "")
        if frames[number].name == "finite" and words and not slot.role and _off_the_name(masked, slot):
            found.add(slot.sentence)
            continue
        described = frames[number].name == "modifier" and _MODIFIES.match(words)
        described = described or (appositions and frames[number].name == "apposition" and words.startswith("the "))
        if not described or slot.role:
            continue
        start = masked.sentences[slot.sentence][0]
        before = masked.text[start : slot.start]
        stripped = before.rstrip(" ,(")  # "Lester Smith ([REL]": the aside is the name's
        if start + len(stripped) in ends or COORDINATED.search(stripped + " ") or _name_noun(masked, start, slot):
            continue
        copulas = list(_COPULA_BEFORE.finditer(before))
        if copulas:
            at = copulas[-1]
            ends_before = [b for _, b, _ in _named_within(masked, start, start + at.start())]
            named = bool(ends_before) and not _OBJECT_GAP.fullmatch(masked.text, max(ends_before), start + at.start())
            description = _KIND_OF.sub(" ", before[at.end() :].rstrip(" ,"), count=1)
            if named and not _NOT_ONE_PHRASE.search(description) and not _OWNED_INSIDE.search(description):
                continue
        found.add(slot.sentence)
    return found


def _name_noun(masked: MaskedDocument, start: int, slot: Slot) -> bool:
    """Whether the slot follows a lower-case noun that the name right before it qualifies ("the Carbery
    [division]", "the Wellington [suburb]"): the noun says what the name is, as a description after a copula does,
    and the parse left it out of the slot."""
    before = _named_within(masked, start, slot.start)
    if not before:
        return False
    first, last, kind = max(before, key=lambda m: m[1])
    if kind in ("NORP", "LANGUAGE") or not masked.text[first : first + 1].isupper():
        return False  # "the Tamil [audience]": an adjective's noun; "her [relationships]": a pronoun's
    return _NAME_NOUN.fullmatch(masked.text, last, slot.start) is not None


def _off_the_name(masked: MaskedDocument, slot: Slot) -> bool:
    """Whether a verb slot's subject is a common noun rather than a name: a noun the name before it owns ("Braun's
    credits [include] The Immortal", "Shan's other notable appearances [REL]", "Her work [REL]"), a noun that
    governs the name (:func:`_inside_the_subject`), a noun a nationality before it qualifies ("The American edition
    [was published under] the name Iain M. Banks"), or a noun phrase with no name before the slot in its sentence at
    all while the pair's names follow it ("The first edition [REL] Penguin and Knopf"). A verb drawn for the pair is
    said of that noun there ("Braun's credits wrote about", "The American edition is a rival of": development
    reading)."""
    start, stop = masked.sentences[slot.sentence]
    before = _named_within(masked, start, slot.start)
    if not before:
        after = bisect.bisect_left(masked.mentions, (slot.end,))  # the pair's names both follow the verb
        return after < len(masked.mentions) and masked.mentions[after][0] < stop
    first, last, kind = max(before, key=lambda m: m[1])
    if _OWNED_NOUN.fullmatch(masked.text, last, slot.start) is not None:
        return True
    if masked.text[first:last].lower() in POSSESSIVE_PRONOUNS and _OWNED_BY_PRONOUN.fullmatch(
        masked.text, last, slot.start
    ):
        return True  # "Her [work] has been exhibited in": the work, not she, was exhibited
    if kind in ("NORP", "LANGUAGE"):
        nouns = _MODIFIED_NOUN.fullmatch(masked.text, last, slot.start)
        if nouns is not None and not any(w in LOOSE_ADVERBS for w in nouns.group().split()):
            return True  # "The American [edition] [REL]": the nationality is the noun's adjective
    return _inside_the_subject(masked, slot)


#: One or two lower-case nouns right after a name, up to a modifier slot: " division ", " member station ".
_NAME_NOUN = re.compile(r" (?:[a-z][a-z-]* )?[a-z][a-z-]* ?")
#: The lower-case words a nationality qualifies, up to a verb slot: " edition ", " first edition ".
_MODIFIED_NOUN = re.compile(r"\s+(?:[a-z][\w-]*\s+){0,2}[a-z][\w-]*\s*")
#: The noun a possessive pronoun owns, up to a verb slot: " work ", " offices ", " most prominent TV roles ".
#: Not a kin ("His father [was rector of]": a person's relation fits), nor words past a conjunction ("her sleeves
#: and [got a job in]": the pronoun's owner is the verb's subject again).
_OWNED_BY_PRONOUN = re.compile(
    r"\s+(?:(?!(?:and|or|but)\b)[\w-]+\s+){0,3}(?!(?:"
    + "|".join(sorted(KIN))
    + r")\b)(?!(?:and|or|but)\b)[a-z][\w-]*\s*"
)
#: A name's possessive and the noun it owns, up to a verb slot: "'s credits ", "'s other notable appearances ".
_OWNED_NOUN = re.compile(r"['’]s?\s+(?:[a-z][\w-]*\s+){0,3}[a-z][\w-]*\s*")


def _named_within(masked: MaskedDocument, start: int, stop: int) -> list[tuple[int, int, str]]:
    """The mentions inside ``masked.text[start:stop]``: a bisect into the sorted mentions, not a scan of all of them
    for every slot of every wording tried."""
    low, high = bisect.bisect_left(masked.mentions, (start,)), bisect.bisect_left(masked.mentions, (stop,))
    return [m for m in masked.mentions[low:high] if m[1] <= stop]


def _inside_the_subject(masked: MaskedDocument, slot: Slot) -> bool:
    """Whether the name right before a verb slot is the object of a preposition after a common noun that opens
    its sentence ("The stated purpose of [Mono]") or the agent of a participle after it ("The music video directed
    by [Chris Marrs Piliero]"): that noun, not the name, is the verb's subject."""
    start = masked.sentences[slot.sentence][0]
    stop = slot.start
    while stop > start and masked.text[stop - 1].isspace():
        stop -= 1
    named = next((m for m in _named_within(masked, start, stop) if m[1] == stop), None)
    if named is None:
        return False
    opening = _NOUN_AND_PREPOSITION.fullmatch(masked.text, start, named[0])
    return opening is not None or _NOUN_AND_AGENT.fullmatch(masked.text, start, named[0]) is not None


_NOUN_AND_PREPOSITION = re.compile(
    r"(?:The|A|An|Its|His|Her|Their)\s+(?:[a-z][\w'’-]*\s+){1,4}(?:of|at|in|on|for|from|near|about|over)\s+(?:the\s+)?"
)
#: A noun and the participle whose agent the name is: "The music video directed by [Chris Marrs Piliero]".
_NOUN_AND_AGENT = re.compile(
    r"(?:The|A|An|Its|His|Her|Their)\s+(?:[a-z][\w'’-]*\s+){1,4}(?:[a-z]+(?:ed|en|wn)\s+(?:and\s+)?)+by\s+"
)


#: A name's possessive, then the noun it owns: "Samantha's second album"; not a kin or a person of hers, whom
#: a relation drawn for a person fits ("Robert E. Lee's wife", "Ivan's personal confessor").
_OWNS_NEXT = re.compile(r"['’]s?\s+(?!(?:\w+ ){0,2}(?:" + "|".join(sorted(KIN)) + r")\b)[\w“\"]")
_ARTICLE_GAP = re.compile(r"\s*(?:(?:the|a|an)\s+)?")


def possessor_after(masked: MaskedDocument, texts: Mapping[int, str], frames: Sequence[Frame]) -> set[int]:
    """Sentences where a drawn fill stands right before a name that owns the noun after it ("[was authored by]
    Samantha's second album", "[commented on] Margaret Atwood's novel"): a reader takes the relation as the owned
    thing's, whose kind no pool was drawn for ("a song authored by an album"). The neutral connector claims
    nothing there ("associated with Samantha's second album"), so the caller leaves it out. A role noun's frame
    has no such connector, and a restatement would lose the sentence: it is not read here."""
    found: set[int] = set()
    for number, slot in enumerate(masked.slots):
        if not texts.get(number, "").strip(" ,") or frames[number].name in ("noun", "possessive", "role"):
            continue
        name = mention_at(masked, _ARTICLE_GAP.match(masked.text, slot.end).end())
        owns = _OWNS_NEXT.match(masked.text, name[1]) if name is not None else None
        if owns and mention_at(masked, owns.end() - 1) is None:
            found.add(slot.sentence)  # not "John Martin's Black Sparrow Press": the owned thing is a name
    return found


#: A fill that claims nothing of a kind: none, or a bare preposition ("shows in San Francisco [from] Counting Crows
#: tours", "[in] a San Diego private detective agency").
_BARE_PREPOSITION = re.compile(r"(?:in|at|on|from|of|for|with|by|to|near)?")
#: An article and a year before a name: "[starred in] the 1989 Yellow Pages TV advert".
_ARTICLE_AND_YEAR = re.compile(r"\s*(?:(?:the|a|an)\s+)?(?:\d{4}\s+)?")
#: Lower-case words after a name up to where its noun phrase ends (an acronym first: "Yellow Pages [TV advert]").
_QUALIFIED = re.compile(
    r"\s+(?:[A-Z]{2,}\s+)?((?:[a-z][a-z-]*\s+){0,2}[a-z][a-z-]*)(?=\s*(?:[,.;:()\"“”]|$)|\s+(?:of|in|for|by|with|"
    r"from|on|at|to|and|or|that|which|who|since|until|during)\b)"
)


def qualifier_after(masked: MaskedDocument, texts: Mapping[int, str], frames: Sequence[Frame]) -> set[int]:
    """Sentences where a drawn fill stands before a name that qualifies a common noun of another kind after it
    ("[based on] the MTV animated television series", "[overshadowed] the CBS Daytime soap opera", "[lived in]
    Baltimore attorney"): a reader takes the relation as the noun's, a thing of another kind than the name the pool
    was drawn for ("a film censored by the series"). Only a noun that names a kind other than the name's counts
    (:data:`~relguard.wordlist.KIND_OF_NOUN`): not "the Carbery division", nor a noun of time ("Alice Smith last
    year"). The neutral connector claims nothing there, so the caller leaves it out. Reads the masked sentence and
    its tags only."""
    found: set[int] = set()
    for number, slot in enumerate(masked.slots):
        words = texts.get(number, "").strip(" ,")
        if _BARE_PREPOSITION.fullmatch(words) or frames[number].name in ("noun", "possessive", "role"):
            continue
        name = mention_at(masked, _ARTICLE_AND_YEAR.match(masked.text, slot.end).end())
        phrase = _QUALIFIED.match(masked.text, name[1]) if name is not None else None
        if phrase is None or name[2] in ("NORP", "LANGUAGE") or masked.text[name[0]].islower():
            continue  # "the Australian soap opera", "her third album": an adjective's noun, an owner's
        head = phrase.group(1).split()[-1]
        kinds = KIND_OF_NOUN.get(head)
        if head in TIME_NOUNS or not kinds or name[2] in kinds:
            continue
        if _nouns(masked, slot.sentence, phrase.start(1), phrase.end(1)):
            found.add(slot.sentence)
    return found


def _nouns(masked: MaskedDocument, sentence: int, start: int, end: int) -> bool:
    """Whether the words at ``start:end`` of the masked text are tagged a noun phrase ending on its noun."""
    low = masked.sentences[sentence][0]
    (tagged,) = tag_sentences([masked.text[low : masked.sentences[sentence][1]]])
    tags = [t[3] for t in tagged.tokens if start - low <= t[0] and t[1] <= end - low]
    return bool(tags) and tags[-1] in ("NN", "NNS") and all(t in _IN_NOUN_PHRASE for t in tags)


_IN_NOUN_PHRASE = frozenset({"NN", "NNS", "JJ", "VBN", "VBG", "HYPH"})
