"""Where no wording of a drawn relation reads in its sentence, keep the sentence and say the relation after it.

A sentence restated from its names (:mod:`relguard.rewrite.restate`) loses its dates, numbers, titles and
descriptions with the words around the slots. So where no style of fill reads in a sentence
(:func:`relguard.rewrite.fill.fill_slots`), each slot whose own fill does not read takes a *neutral connector*:
the same words for every slot of that frame, whatever was drawn ("was associated with", "associated with", a bare
comma). The sentence keeps everything outside its slots, and the drawn relations of those slots are stated in plain
sentences right after it (:func:`relguard.rewrite.restate.restatements`, ``whole=``).

The connectors are constants of the frame (public, read from the masked sentence), so they say nothing of the
original relation nor of the draw; what the release states of the pair is the drawn predicate, once, after the
sentence (DESIGN invariants 6 and 7). After a name that owns the next one ("Acme's [REL] Alice", "Han [REL] Huo
Qubing") the connector is nothing; a frame that wants a role noun ("the [REL] of Canada", "his [REL] Alice") has no
neutral word that reads for every kind, so such a sentence is still restated.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from typing import TYPE_CHECKING

from relguard.kinds import coarse_pair
from relguard.rewrite import frames as fr
from relguard.rewrite.collapse import collapsible
from relguard.rewrite.guard import misread_sentences
from relguard.rewrite.mask import mention_at
from relguard.rewrite.shape import (
    CONNECTOR,
    RELATIVE,
    bracketed_before,
    dated_asides,
    fixed_prepositions,
    gapped,
    reads_between,
    wants_plural,
)
from relguard.rewrite.subject import off_subject, possessor_after, qualifier_after
from relguard.rewrite.tagging import tag_sentences
from relguard.rewrite.verbalize import COPULA, Place, copula_of
from relguard.types import UNSURE, TypePair

if TYPE_CHECKING:
    from relguard.rewrite.frames import Frame
    from relguard.rewrite.mask import MaskedDocument

#: After a name's verb, where a participle has no noun to qualify: "debuts [in connection with] the film".
BESIDE_A_VERB = "in connection with"
#: Where the text after the slot keeps a preposition of its own ("was [REL] by critics", "[REL] at Harvard").
BARE = "mentioned"
#: After a possessive, before a place's name: "Sean's connection with East Asia".
OWNED = "connection with"
#: The kinds of name that take :data:`OWNED` after a possessive: a place, a people or a language ("Sean's East
#: Asia" does not read). A work, a company, a product or an event reads owned as it stands ("TVOntario's Polka Dot
#: Door"), as a person does, and so does a name of unsure kind ("Isis' Morag"), where "connection with" made the
#: connection the head of the phrase ("It was also Sean's connection with East Asia": development reading).
_OWNED_KINDS = frozenset({"GPE", "LOC", "NORP", "LANGUAGE"})
#: Kinds a bare comma joins as a place and the place it lies in ("Dublin, Ohio"); between others a comma reads as
#: one name set beside another ("Greg Hetson, Circle Jerks during this time,": development reading at 9e9459c).
_COMMA_KINDS = frozenset({"GPE", "LOC", "FAC"})
#: After a possessive, before a person's name that does not follow at once: "his associate, Mcebisi Jonas".
ASSOCIATE = "associate"
#: Between a name without "'s" and a person's name right after it, where a title stood: "former Mississippi
#: [Governor] William Winter" reads "former Mississippi figure William Winter", not two names side by side.
FIGURE = "figure"
#: The closing part of the connector split around the words between an expression's parts ("was mentioned [in
#: April 2001 as the second single] alongside his album"): not "with", which so many originals close with.
ALONGSIDE = "alongside"
#: The tail after a noun phrase the connector took as its object: a noun takes a name after it with "of",
#: whatever the original said there.
OF_OBJECT = "of"
#: The prepositions "mentioned" reads before ("was mentioned from renal problems" does not read: no connector).
_AFTER_BARE = frozenset(
    {"in", "with", "by", "as", "among", "at", "alongside", "during", "on", "after", "before", "within",
     "throughout", "across", "under"}
)  # fmt: skip


_CONNECTOR_TEXT = re.compile(
    rf"(?:(?:is|was|are|were)\s+)?(?:{CONNECTOR}|{BARE})|{ALONGSIDE}|{OF_OBJECT}|{BESIDE_A_VERB}|linked|{OWNED}|"
    rf"{ASSOCIATE}(?: of)?|{FIGURE}|"
)


def is_connector(text: str) -> bool:
    """Whether ``text`` (an original relation's words) reads exactly as a neutral connector or one of its two parts
    around the words between an expression's parts ("was mentioned", "alongside"): printed where such a slot
    stands, the words are the frame's constant, whatever the original said (the leak scan excuses them)."""
    return bool(_CONNECTOR_TEXT.fullmatch(" ".join(text.lower().strip(" ,-–").split())))


class Neutral:
    """A verbalizer that words every slot with the neutral connector of its frame; it never reads the predicate,
    so a sentence worded by it states nothing drawn (the caller states the drawn relations after it)."""

    def __call__(self, predicate: str | None, type_pair: TypePair, place: Place) -> str | None:
        return neutral_words(place, type_pair)


def neutral_words(place: Place, type_pair: TypePair | None = None) -> str | None:
    """The neutral connector for ``place``, or None where no constant reads (a role noun is wanted).

    After a possessive "'s" the connector is nothing ("Acme's Alice Smith", "TVOntario's Polka Dot Door"), and
    :data:`OWNED` before a place, a people or a language (:data:`_OWNED_KINDS`) or what owns a noun itself:
    "Sean's East Asia", "Dore's Dante's Divine Comedy" do not read. Where the person's name does not follow at
    once ("his [deputy], Mcebisi Jonas"), or a person's follows a possessive pronoun ("his [cousin] Berke"), a noun
    is wanted: the kind-neutral :data:`ASSOCIATE`, also for a name of unsure kind; so after an article or ordinal,
    where a person holds the role ("the fifth [son of] Emperor Gojong": "the fifth associate of")."""
    type_pair = None if type_pair is None else coarse_pair(type_pair)
    frame = place.frame
    bare = (place.preposition_after and not place.has_tail) or (frame == fr.END and not place.phrase_after)
    participle = BARE if bare else CONNECTOR  # nothing after an END slot: "John's cause was mentioned."
    if frame == fr.REMOVED:
        return ""
    if frame == fr.TAIL:
        return CONNECTOR.rsplit(" ", 1)[1]
    if frame in (fr.FINITE, fr.END):
        return f"{copula_of(place)} {participle}"
    if frame == fr.MODIFIER and place.after_verb and participle == CONNECTOR:
        return BESIDE_A_VERB  # "debuts in connection with the film": no participle qualifies a verb
    if frame in (fr.MODIFIER, fr.COPULA, fr.APPOSITION):
        return participle
    if frame == fr.START:
        return participle[0].upper() + participle[1:]
    owned = None if type_pair is None else type_pair[0 if place.inverted else 1]
    holder = None if type_pair is None else type_pair[1 if place.inverted else 0]
    bare_names = place.name_after and not place.pronoun and not place.owner and holder not in ("NORP", "LANGUAGE")
    if frame == fr.POSSESSIVE and bare_names and owned == "PERSON":
        return FIGURE  # "former Mississippi [Governor] William Winter"; "Argentine Manuel Sadosky" reads as it is
    if frame == fr.POSSESSIVE and place.name_after and not place.pronoun:
        return OWNED if place.owner and (owned in _OWNED_KINDS or place.owning_after) else ""
    if frame == fr.POSSESSIVE and place.pronoun and place.name_after and owned == "PERSON":
        return ASSOCIATE  # "his [cousin] Berke"; not "his associate Twinkies" (a name of unsure kind)
    if frame in (fr.POSSESSIVE, fr.NOUN) and owned in ("PERSON", UNSURE) and place.comma_after:
        return ASSOCIATE  # "his [deputy], Mcebisi Jonas", "his thirteenth [wife], Lady Hong": a noun is wanted
    if frame == fr.NOUN and holder in ("PERSON", UNSURE) and place.name_after:
        return f"{ASSOCIATE} of"  # "the fifth [son of] Emperor Gojong": a person's role of the name after
    if frame == fr.ROLE:
        return f", {CONNECTOR}"
    if frame == fr.COMMA:
        return "," if type_pair is None or set(type_pair) <= _COMMA_KINDS else f", {participle}"
    if frame == fr.HYPHEN:
        return "-linked"
    return None


def connected_words(
    masked: MaskedDocument,
    numbers: Sequence[int],
    own: Mapping[int, str],
    neutral: Mapping[int, str],
    frames: Sequence[Frame],
    *,
    prepositions: Mapping[int, str] | None = None,
) -> tuple[dict[int, str], set[int]] | None:
    """The words of one sentence's slots ``numbers`` with as few neutral connectors as read, and which slots
    have them; None where even every connector does not read. A slot that opens a bracket before a date holds
    nothing (:func:`~relguard.rewrite.shape.dated_asides`). Every slot starts neutral; then each slot gets its
    own fill back, in order, wherever the sentence still reads with it, or else its entry of ``prepositions`` (the
    predicate's closing preposition alone, where the preposition style gave one: "a tour [in] New Zealand") where
    that reads: one slot's wording no longer waits on another's style. An expression in parts keeps the
    connector, split around the words between its parts ("was mentioned in April 2001 as the second single
    alongside"), where it is the sentence's one expression: its own fill there did not read, and a restatement
    would lose every other word of the sentence. Among other slots a split connector read garbled to a blind
    reader ("a woman mentioned on her wedding day alongside Hawaii"); those sentences are restated as before, but
    for a comma between two places ("White was mentioned at the age of 66 in 1997 alongside Brooklin, Maine"). A
    head that opens a bracket before a date holds nothing, and its tail before the name a comma ("Frédéric Talgorn
    (2 July 1961, Toulouse)"): how a date and a place stand in brackets."""
    neutral = {n: _preposition_dropped(masked, n, w) for n, w in neutral.items()}
    neutral = {n: w for n, w in neutral.items() if not w.endswith(BARE) or _bare_reads(masked, n)}
    asides = dated_asides(masked) & set(numbers)
    neutral.update(dict.fromkeys(asides, ""))
    dated = {
        n
        for n in numbers
        if masked.slots[n].role == "tail"
        and masked.slots[n].head in asides
        and ")" not in masked.text[masked.slots[masked.slots[n].head].end : masked.slots[n].start]
    }  # the tail inside the bracket: "([born] c. 1075) [was a daughter of] El Cid" is no place after a date
    dated |= _after_a_date_in_brackets(masked, numbers) - asides
    neutral.update(dict.fromkeys(dated, ","))  # "([born] 2 July 1961 [in] Toulouse)": "(2 July 1961, Toulouse)"
    fixed = fixed_prepositions(masked, numbers)
    neutral.update(fixed)  # "teams such [as] FC Brașov", "in the wake [of] the raid": what the phrase takes
    own = {n: w for n, w in own.items() if n not in asides | dated | fixed.keys()}
    prepositions = {n: w for n, w in (prepositions or {}).items() if n not in asides | dated | fixed.keys()}
    if any(n not in neutral and n not in own for n in numbers):
        return None
    parts = {n for n in numbers if masked.slots[n].role or masked.slots[n].head >= 0}
    parts |= {masked.slots[n].head for n in parts}
    parts -= asides | dated
    objects = {n for n in parts if masked.slots[n].role == "tail" and _object_between(masked, n)}
    split = all(_split_reads(masked, n, neutral, objects) for n in parts if masked.slots[n].role)
    beside = [n for n in numbers if n not in parts | asides | dated and frames[n].name != fr.COMMA]
    if parts - set(neutral) or (parts and (not split or len(parts) != 2 or beside)):
        return None  # an expression in parts is split around its words only where it is the sentence's one slot
    words = {n: neutral.get(n, own.get(n, "")) for n in numbers}
    for number in parts:
        head = masked.slots[number].head
        if masked.slots[number].role == "tail" and words.get(head, "").endswith(CONNECTOR):
            if number in objects:
                words[number] = OF_OBJECT  # "is associated with [the book series] of Mélanie Watt"
                continue
            words[head] = words[head][: -len(CONNECTOR)] + BARE  # "was mentioned [in 2001 as a single] alongside"
            words[number] = ALONGSIDE
    if not _reads(masked, words, frames):
        beside = {
            n: BESIDE_A_VERB
            for n in numbers
            if frames[n].name == fr.MODIFIER
            and words[n] == CONNECTOR
            and not _HEAD_WANTED.search(
                masked.text, masked.sentences[masked.slots[n].sentence][0], masked.slots[n].start
            )
        }
        if not beside or not _reads(masked, words := {**words, **beside}, frames):
            return None  # "in 1947 [after] World War II": no participle qualifies a date, "in connection with" does
        neutral.update(beside)
    for at, number in enumerate(numbers):
        if _follows_a_connector(frames[number], numbers[:at], words, own):
            continue  # "a film associated with X and [cited] Y": its finite form followed a clause's "that"
        if number in parts:
            continue
        for candidate in [w for w in (own.get(number), prepositions.get(number)) if w is not None]:
            if candidate == words[number]:
                break
            tried = {**words, number: candidate}
            if _reads(masked, tried, frames):
                words = tried
                break
    plain = {
        n
        for n in numbers
        if n in neutral and words[n] == neutral[n] and words[n] not in (own.get(n), prepositions.get(n))
    }
    return words, plain | {n for n in parts if masked.slots[n].role == ""}


def _follows_a_connector(frame: Frame, before: Sequence[int], words: Mapping[int, str], own: Mapping[int, str]) -> bool:
    """Whether a modifier slot after "and" was worded as the second verb of a relative clause that an earlier slot
    of its sentence opened ("a film that was inspired by X and [cites] Y") and that slot keeps its connector: the
    clause no longer stands ("a film associated with X and cited Y")."""
    if not (frame.coordinated and frame.name == fr.MODIFIER):
        return False
    opened = [n for n in before if RELATIVE.match(own.get(n, ""))]
    return bool(opened) and words.get(opened[-1]) != own[opened[-1]]


def _preposition_dropped(masked: MaskedDocument, number: int, words: str) -> str:
    """The connector where the text keeps an "of" or a "for" after the slot, which "mentioned" does not read
    before ("is mentioned of two studio albums", "He was mentioned for many other series": development
    readings): "associated with", after which the seam drops that preposition
    (:func:`~relguard.rewrite.seams.stray_of`, :func:`~relguard.rewrite.seams.stray_after_connector`)."""
    stem = words.removesuffix(" of")  # the " of" slot_words adds for a verb before the text's own "of"
    following = masked.text[masked.slots[number].end :].split(maxsplit=1)
    if stem.endswith(BARE) and following and following[0] in ("of", "for"):
        return stem[: -len(BARE)] + CONNECTOR
    return words


#: Words before a slot that want the noun it took: "and other [parts of]", "and main [songwriter of]", "two [of
#: the founders of]": no phrase of the verb reads there ("main in connection with": held-out paired reading).
_HEAD_WANTED = re.compile(
    r"\b(?:other|main|chief|lead|principal|former|first|second|third|last|two|three|four|five|several|many|some|"
    r"the|a|an|his|her|its|their)\s*$",
    re.IGNORECASE,
)
#: A year, maybe with a comma, that ends the text before a slot.
_YEAR_BEFORE = re.compile(r"\b(?:1\d|20)\d\d\s*,?\s*$")
_BLANKS = re.compile(r"\s*")


def _after_a_date_in_brackets(masked: MaskedDocument, numbers: Sequence[int]) -> set[int]:
    """Slots right after a year inside an open bracket and right before a name ("(July 31, 1900 [in] Hebron,
    Nebraska – April 30, 1971 [in] Redding)"): a comma reads there as a date and a place do in brackets."""
    found = set()
    for number in numbers:
        slot = masked.slots[number]
        before = bracketed_before(masked, slot)
        named = mention_at(masked, _BLANKS.match(masked.text, slot.end).end()) is not None
        if named and before is not None and _YEAR_BEFORE.search(before):
            found.add(number)
    return found


def _split_reads(masked: MaskedDocument, number: int, neutral: Mapping[int, str], objects: Collection[int]) -> bool:
    """Whether the connector reads split around the words between an expression's head and its tail ``number``:
    a verbal connector at the head ("-linked" does not split), one tail, and between them a time or a phrase a
    preposition opens ("was mentioned [in April 2001 as the second single] alongside") or, for a tail of
    ``objects`` (:func:`_object_between`), one noun phrase; not an object the original verb governed ("is
    mentioned [one of the leading publishers] alongside") nor a date in brackets ("(20 November 1974 alongside
    Rehoboth)")."""
    slot = masked.slots[number]
    siblings = [s for s in masked.slots if s.head == slot.head]
    if slot.role != "tail" or len(siblings) != 1 or not neutral.get(slot.head, "").endswith(CONNECTOR):
        return False
    if number in objects:
        return True
    between = masked.text[masked.slots[slot.head].end : slot.start].split()
    return reads_between(masked, slot) or (bool(between) and between[0].lower() in _OPENS_A_PHRASE)


def _object_between(masked: MaskedDocument, number: int) -> bool:
    """Whether the words between the head of tail ``number`` and the tail are one noun phrase that ends on its noun,
    an article or possessive and a few words with no clause mark ("is a television series [based on] the book
    series [by] Mélanie Watt"), where the expression may not be worded as one slot with them
    (:mod:`relguard.rewrite.collapse`, which keeps no word of them): the connector takes the phrase as its object
    and the tail :data:`OF_OBJECT` hangs the name on it, the way a noun takes a name after it. Not "became an early
    [mentor of]": a phrase whose noun is the slot's."""
    slot = masked.slots[number]
    head = masked.slots[slot.head]
    if not _NOUN_PHRASE.fullmatch(masked.text, head.end, slot.start) or slot.head in collapsible(
        masked, {slot.sentence}
    ):
        return False
    start, end = masked.sentences[slot.sentence]
    (tagged,) = tag_sentences([masked.text[start:end]])
    inside = [t for t in tagged.tokens if head.end - start <= t[0] and t[1] <= slot.start - start]
    words = [t for t in inside if t[3] not in ("``", "''", '"')]
    return bool(words) and words[-1][3] in ("NN", "NNS", "NNP", "NNPS")


#: An article or possessive, then up to six words (a quoted title among them) with no comma or clause mark.
_NOUN_PHRASE = re.compile(r"\s*(?:the|a|an|his|her|its|their)\s+(?:[\"“”'’]?[\w'’-]+[\"“”'’]?\s+){0,6}", re.IGNORECASE)


_OPENS_A_PHRASE = frozenset({"in", "at", "for", "on", "from", "as", "during", "after", "before", "since", "until"})


def _bare_reads(masked: MaskedDocument, number: int) -> bool:
    """Whether the preposition the text keeps after slot ``number`` reads after "mentioned", or the clause ends
    there ("through which Minnehaha Creek is mentioned, and", "South Park was mentioned again until 2016")."""
    following = masked.text[masked.slots[number].end :].split(maxsplit=1)
    if not following:
        return True
    word = following[0].lower()
    return word in _AFTER_BARE or word[:1] in ",.;:)" or word.rstrip(",.;") in _ADVERBS_AFTER_BARE


_ADVERBS_AFTER_BARE = frozenset({"again", "also", "later", "twice", "once", "often", "then", "first", "only"})


def _reads(masked: MaskedDocument, words: Mapping[int, str], frames: Sequence[Frame]) -> bool:
    """Whether one sentence's slots read with ``words``, by the checks of the lenient wording."""
    drawn = {n: w for n, w in words.items() if COPULA.sub("", w) not in (CONNECTOR, BARE, BESIDE_A_VERB)}
    if gapped(masked, words) or wants_plural(masked, words) or off_subject(masked, drawn, frames):
        return False
    if possessor_after(masked, drawn, frames) or qualifier_after(masked, _claims(words), frames):
        return False
    sentence = masked.slots[next(iter(words))].sentence
    return not misread_sentences(masked, words, skip={s.sentence for s in masked.slots} - {sentence})


def _claims(words: Mapping[int, str]) -> dict[int, str]:
    """The slots of ``words`` that claim a relation: not a neutral connector, in any of its frame's shapes."""
    return {n: w for n, w in words.items() if not is_connector(w)}
