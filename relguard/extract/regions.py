"""Slot regions, and the one entity pair each stands for, read from positions alone (DESIGN invariants 6, 11).

An extractor finds *where* relation words are; the stretches it marks, merged where they touch, are the slot
regions (:func:`slot_regions`), and the masked text shows exactly those. Which pair a region stands for must not
come from its words as well: a parse of "A was founded by B in C" links other pairs than a parse of "A employs B
in C", and a reader of the release sees the pairs through which placeholders share one outcome. So
:func:`pair_by_position` throws the extractor's pairing away and gives every region **one** pair, the two names it
joins: the nearest entity before it and the nearest after it; where it heads a noun phrase that the name before it
opens, the name before that one, with the name after it ("Alice Smith is an American [singer from] Paris") or, with
none after it, with the name that opens the phrase ("Bob Jones, an Acme Corp [employee], left"); the two nearest on
its one side where it has names on one side only. That is a function of the masked text: region and mention
positions and the entities' names and types.

One draw per stated relation (invariant 6): pairs that no region joins — the far ends of a chain "A in B, C", names
that merely share a sentence — get no draw and no statement. Their relation, if the text states one, is readable
only through the regions on their path, which are drawn.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Sequence
from dataclasses import replace
from itertools import pairwise

from relguard.extract.positions import MentionTable, PlacedMention, Region, slot_regions
from relguard.extract.siblings import NOT_MODIFIED as _NOT_MODIFIED
from relguard.extract.siblings import continues_a_modifier
from relguard.types import DocumentExtraction, Occurrence, Triple
from relguard.wordlist import LOOSE_ADVERB_PATTERN, POSSESSIVE_PRONOUNS, words

#: How many distinct entities on each side of a region are looked at: the pair is chosen among the two nearest.
NEAREST = 2

#: The predicate of a region the extractor read no relation for (a constant input to the mechanism), so the
#: analyst sees which slots are protected by position rather than by what the text says.
UNREAD = "related_to"
#: An article or possessive right before a name: the name modifies the noun phrase that follows it.
DETERMINER_BEFORE = re.compile(r"(?:^|\s)(?:an?|the|his|her|its|their|our|my|your)\s+$", re.IGNORECASE)
#: An article, then a year or number ("a 1952 Swedish [film directed by]", "a 2011 Bengali [romantic film]"): the
#: name after them opens a noun phrase as it does right after the article.
_DETERMINER_AND_NUMBER = re.compile(r"(?:^|\s)(?:an?|the)\s+\d[\d,–-]*s?\s+$", re.IGNORECASE)
#: An article, then the phrase's own adjectives and a year before the name ("a lost 1917 [American]", "a 2000 low
#: budget [British]", "an upcoming [South Korean]"); :func:`_adjectives_only` tells them from a clause.
_DETERMINER_AND_ADJECTIVES = re.compile(
    r"(?:^|\s)(?:an?|the)\s+(?:(?:[a-z][a-z-]*|\d[\d,–-]*s?)\s+){1,4}$", re.IGNORECASE
)
#: "and"/"but" before a region, with one loose adverb between ("and then [returned to]", "but mainly [in]").
_AFTER_AND = re.compile(rf"(?:^|\s)(?:and|but)\s+(?:(?:{LOOSE_ADVERB_PATTERN})\s+)?$")
_SENTENCE_START = re.compile(r"(?:^|[.!?:;][\"'”’)\]]*)\s*$")
#: The word right after a nationality or group name, across a blank or a hyphen ("British singer", "American
#: Technicolor VistaVision Western film", "a 1943 British, black-and-white film", "American 3D computer-animated");
#: a name that starts there is the next mention, not a modified word.
_NEXT_WORD = re.compile(r"(?:,(?= [a-z]))?[ \t-]+([A-Za-z][\w'’-]*|\d+[A-Za-z][\w'’-]*)")
#: The kinds of names that modify the noun phrase after them: nationalities and groups, languages ("a Hindi film").
MODIFIER_TYPES = frozenset({"NORP", "LANGUAGE"})


def pair_by_position(extraction: DocumentExtraction) -> DocumentExtraction:
    """``extraction`` with every region standing for the one entity pair its position gives (module docstring).

    The regions, entities and sentences stay as they are. The pair is oriented by mention order (the entity named
    first in the sentence is the subject) and takes the predicate the extractor read for that pair in that region,
    else every predicate the extractor read in the region (the region's words are the relation expression
    whatever pair the parse hung it on), else :data:`UNREAD`. The predicates only feed d_R (confidential).
    A region with too few names around it to pair (an extractor whose mentions miss a name) keeps the
    extractor's own triples, so no region is ever left unmasked. A second call gives the same result.
    """
    name = extraction.document.name
    own = [(t, o) for t in extraction.triples for o in t.occurrences]
    if not own:
        return extraction
    regions = slot_regions((o.start, o.end, o.sentence) for _, o in own)
    starts = [r.start for r in regions]
    in_region: dict[tuple[int, frozenset[tuple[str, str]]], set[str]] = {}
    in_any: dict[int, set[str]] = {}
    linked: dict[int, list[tuple[Triple, Occurrence]]] = {}
    for triple, occurrence in own:
        index = bisect.bisect_right(starts, occurrence.start) - 1
        linked.setdefault(index, []).append((triple, occurrence))
        ends = frozenset({(triple.subject, triple.subject_type), (triple.object, triple.object_type)})
        in_region.setdefault((index, ends), set()).add(triple.predicate)
        in_any.setdefault(index, set()).add(triple.predicate)
    mentions = MentionTable.of_document(extraction)
    text = extraction.document.text
    found: dict[tuple[str, str, str, str, str], set[Occurrence]] = {}
    bounds = {s.index: (s.start, s.end) for s in extraction.sentences}
    by_sentence: dict[int, list[Region]] = {}
    for region in regions:
        by_sentence.setdefault(region.sentence, []).append(region)
    modifiers: dict[int, frozenset[int]] = {}
    closes: dict[int, dict[int, int]] = {}
    slots = {sentence: [(r.start, r.end) for r in rows] for sentence, rows in by_sentence.items()}
    chosen: dict[int, list[tuple[tuple[str, str], tuple[str, str]]]] = {}
    for index, region in enumerate(regions):
        row = mentions.sentence(region.sentence)
        occurrence = Occurrence(name, region.sentence, region.start, region.end, text[region.start : region.end])
        if region.sentence not in modifiers:
            sentence_regions = by_sentence[region.sentence]
            modifiers[region.sentence] = attributes(text, row, sentence_regions) | possessors(
                text, row, sentence_regions
            )
            closes[region.sentence] = bracket_closes(text, row, *bounds.get(region.sentence, (0, 0)))
        pairs = positional_pairs(
            row,
            region,
            hangs=hangs(text, row, region, slots[region.sentence]),
            coordinated=coordinated(text, region),
            passed=modifiers[region.sentence] | asides(row, region, closes[region.sentence]),
        )
        if (earlier := sibling(text, row, region, regions[:index])) is not None and chosen.get(earlier):
            pairs = sibling_pairs(row, region, chosen[earlier][0], pairs)
        chosen[index] = pairs
        for first, second in pairs:
            ends = frozenset({first, second})
            predicates = in_region.get((index, ends)) or in_any.get(index) or {UNREAD}
            for predicate in predicates:
                found.setdefault((*first, predicate, *second), set()).add(occurrence)
        if not pairs:
            for triple, piece in linked[index]:
                key = (triple.subject, triple.subject_type, triple.predicate, triple.object, triple.object_type)
                found.setdefault(key, set()).add(piece)
    triples = tuple(
        Triple(*key, occurrences=tuple(sorted(occurrences, key=lambda o: (o.start, o.end))))
        for key, occurrences in sorted(found.items())
    )
    return replace(extraction, triples=triples)


def opens_noun_phrase(
    text: str, start: int, end: int, *, modifier: bool = False, slots: Sequence[tuple[int, int]] = ()
) -> bool:
    """Whether the name at ``start:end`` follows an article or possessive inside its sentence, so that a slot right
    after it ends that noun phrase ("is an [American] singer", "Bob Jones, an [Acme Corp] employee", "the
    [Canadian] province of"), also across the phrase's own adjectives and year ("a lost 1917 [American] comedy
    film", "an upcoming [South Korean] television series"). A sentence that opens with "The" names its subject
    that way ("The Harbor Street Clinic is a community health centre in Boston"), and "the" before a name of
    several words is mostly that name's own article ("leads the Harbor Street Clinic and teaches at"): the slot
    after either is a verb. A ``modifier`` (a nationality or language name) that opens its sentence opens a noun
    phrase too: a caption "Mexican film directed by Luis Buñuel" has no article. Words between the article and the
    name count only where no span of ``slots`` covers them: they are read from the masked text, never a relation's
    words (DESIGN invariant 11)."""
    if modifier and _SENTENCE_START.search(text[max(0, start - 8) : start]):
        return True
    for pattern, width in ((DETERMINER_BEFORE, 12), (_DETERMINER_AND_NUMBER, 20), (_DETERMINER_AND_ADJECTIVES, 48)):
        window_start = max(0, start - width)
        window = text[window_start:start]
        found = pattern.search(window)
        if found and pattern is _DETERMINER_AND_ADJECTIVES:
            low, high = window_start + found.start(), window_start + found.end()
            if not _adjectives_only(found.group(0)) or any(a < high and b > low for a, b in slots):
                continue
        if found:
            break
    else:
        return False
    article = window_start + found.start() + (window[found.start()].isspace())
    if text[article : article + 3].lower() == "the" and " " in text[start:end].strip():
        return False
    return modifier or not _SENTENCE_START.search(text[max(0, article - 8) : article])


def _adjectives_only(words_before: str) -> bool:
    """Whether the words between an article and a name can all be that noun phrase's own adjectives and year: no
    word that opens a clause or a prepositional phrase ("a song [by] American …"), and no verb form after the
    first word ("a film [starring] American …", "a band [formed] …"), which would make the name an argument."""
    rest = words_before.split()[1:]
    if any(w.lower() in _NOT_MODIFIED or w.lower() in _PREPOSITIONS for w in rest):
        return False
    return not any(w.endswith(("ing", "ed")) for w in rest[1:])


#: Prepositions not in :data:`_NOT_MODIFIED` that open a phrase between an article and a name.
_PREPOSITIONS = words(
    """about after against along among around before behind below beneath between beyond during like near over
    through under until upon within without"""
)


def hangs(text: str, row: Sequence[PlacedMention], region: Region, slots: Sequence[tuple[int, int]] = ()) -> bool:
    """Whether ``region`` ends a noun phrase that the name right before it opens with an article ("an American
    [singer]", "the Canadian [province of]", "a 1952 Swedish comedy film [directed by]"): blanks or the
    phrase's own lower-case words between them, a determiner (and a year) before the name."""
    before = [m for m in row if m.end <= region.start]
    if not before:
        return False
    last = max(before, key=lambda m: m.end)
    start, end = last.start, last.end
    rest = _REST_OF_PHRASE.fullmatch(text[end : region.start])
    return bool(rest) and opens_noun_phrase(text, start, end, modifier=last.type in MODIFIER_TYPES, slots=slots)


#: What may stand between a name that opens a noun phrase and the region that hangs off it: blanks, or the
#: phrase's own lower-case words ("a 1952 Swedish [comedy film] directed by").
_REST_OF_PHRASE = re.compile(r"\s*(?:[A-Za-z][a-z-]*\s+){0,4}")


def attributes(text: str, row: Sequence[PlacedMention], regions: Sequence[Region]) -> frozenset[int]:
    """Starts of the nationality, group and language names (NORP, LANGUAGE) of ``row`` that modify the noun phrase
    after them: a word of it that the masked text shows follows ("the Finnish national epic Kalevala", "British
    singer Samantha Fox", "a 2003 Indian Bengali thriller film", "a Hindi gangster film"). A reader takes that
    phrase, not the nationality, as what a slot next to it relates ("a song [recorded by] British singer Samantha
    Fox" states a relation of the singer), so the pair is read past it (:func:`positional_pairs`). Read from the
    masked text: region and mention positions and the words outside the regions."""
    found: set[int] = set()
    for index in range(len(row) - 1, -1, -1):
        mention = row[index]
        if mention.type not in MODIFIER_TYPES:
            continue
        following = row[index + 1] if index + 1 < len(row) else None
        if following is not None and following.start in found and not text[mention.end : following.start].strip(" -"):
            found.add(mention.start)
            continue
        word = _NEXT_WORD.match(text, mention.end)
        if word is None or word.group(1).lower() in _NOT_MODIFIED:
            continue
        if any(r.start <= word.start(1) < r.end for r in regions):
            continue
        if following is not None and following.start < word.end(1):
            continue
        found.add(mention.start)
    return frozenset(found)


def bracket_closes(text: str, row: Sequence[PlacedMention], start: int, end: int) -> dict[int, int]:
    """Per name of ``row`` (by start) inside a bracket of the sentence ``text[start:end]``, where that bracket
    closes: one pass over the sentence, however many slots it holds."""
    closes: dict[int, int] = {}
    opened: list[int] = []
    inside: dict[int, list[int]] = {}
    starts = {m.start for m in row}
    for position in range(start, min(end, len(text))):
        if position in starts and opened:
            inside.setdefault(opened[-1], []).append(position)
        if text[position] == "(":
            opened.append(position)
        elif text[position] == ")" and opened:
            for name in inside.pop(opened.pop(), []):
                closes[name] = position
    return closes


def asides(row: Sequence[PlacedMention], region: Region, closes: dict[int, int]) -> frozenset[int]:
    """Starts of the names of ``row`` inside a bracket that closes before ``region`` (``closes``:
    :func:`bracket_closes`): an aside the slot after it does not take as its subject ("Dayavan (English: The
    Compassionate) is a 1988 film [directed by] Feroz Khan" relates the film, not "English"). Read from the masked
    text's brackets and the mention positions."""
    return frozenset(m.start for m in row if m.end <= region.start and closes.get(m.start, region.start) < region.start)


def possessors(text: str, row: Sequence[PlacedMention], regions: Sequence[Region]) -> frozenset[int]:
    """Starts of the names of ``row`` whose "'s" opens a noun phrase that a later name ends: "Margaret Atwood's
    'The Robber Bride'", "Comedy Central's animated series 'South Park'", "Sloan's 1999 album, 'Between the
    Bridges'", and a possessive pronoun that coreference made a mention: "from her fifth studio album,
    Storyteller". A slot before the owner relates what it owns ("she [adapted] Margaret Atwood's 'The Robber
    Bride'" states a relation of the novel), so the pair is read past the owner (:func:`positional_pairs`). Read
    from the masked text: no region may stand between the owner and the name that ends its phrase."""
    found: set[int] = set()
    for mention, following in pairwise(row):
        phrase = _OWNED_PHRASE.fullmatch(text, mention.end, following.start)
        if text[mention.start : mention.end].lower() in POSSESSIVE_PRONOUNS:
            phrase = _OWNED_BY_PRONOUN.fullmatch(text, mention.end, following.start)
            if phrase and phrase.group(1).lower() in _NOT_MODIFIED | _PREPOSITIONS:
                phrase = None  # "with her in Paris": an object, not an owner
        if phrase and not any(mention.end < r.end and r.start < following.start for r in regions):
            found.add(mention.start)
    return frozenset(found)


#: An owner's "'s" and the noun phrase up to the name that ends it: lower-case words, a year, a comma, a quote.
_OWNED_PHRASE = re.compile(r"[’']s\s+(?:[a-z0-9][\w-]*,?\s+){0,5}[\"“]?")
#: A possessive pronoun that coreference made a mention ("from [her] fifth studio album, Storyteller") owns the
#: phrase after it as a name's "'s" does: its words up to the name that ends it, the first of them its own.
_OWNED_BY_PRONOUN = re.compile(r"\s+([a-z0-9][\w-]*),?\s+(?:[a-z0-9][\w-]*,?\s+){0,4}[\"“]?")


def coordinated(text: str, region: Region) -> bool:
    """Whether ``region`` opens the second verb phrase of a coordination ("... Maersk in 2006 and [retired to]
    Utrecht"), or with a loose adverb between ("in Poland and then [returned to] Canada"). Read from the masked
    text: the words before a slot stay."""
    return bool(_AFTER_AND.search(text[max(0, region.start - 24) : region.start]))


def positional_pairs(
    row: Sequence[PlacedMention],
    region: Region,
    *,
    hangs: bool,
    coordinated: bool = False,
    passed: frozenset[int] = frozenset(),
) -> list[tuple[tuple[str, str], tuple[str, str]]]:
    """The one pair ``region`` joins, as (subject, object) by first mention in the sentence (an empty list where
    fewer than two distinct entities are named in the sentence).

    ``coordinated`` (:func:`coordinated`): the region opens a verb phrase after "and", whose subject is the
    sentence's first name ("De Vries sold his stake to Maersk and [retired to] Utrecht"), so it joins that name with
    the name after it.
    ``hangs`` (:func:`hangs`): the region is the head of a noun phrase the name before it opens ("an American
    [singer from] Paris", "an Acme Corp [employee]"): that name modifies the phrase, and the region joins the name
    before it with the name after the region, else with the modifying name, as a role noun after a name does.
    ``passed`` (:func:`attributes`, :func:`possessors`, :func:`asides`): starts of nationality names that modify a
    noun phrase, of owners whose phrase a later name ends, and of names in a bracket closed before the region; the
    pair is read past them, unless that leaves no pair or no name before the region (a caption "Mexican film
    [directed by] Luis Buñuel": the nationality stands for the phrase it opens).
    """
    if passed:
        named = [m for m in row if m.start not in passed]
        last = max((m for m in row if m.end <= region.start), key=lambda m: m.end, default=None)
        hanging = hangs and (last is None or last.start not in passed)
        stands = last is not None and not any(m.end <= region.start for m in named)  # "Mexican film [directed by]"
        if not stands and (pairs := positional_pairs(named, region, hangs=hanging, coordinated=coordinated)):
            return pairs
    before = _distinct(m for m in reversed(row) if m.end <= region.start)
    after = _distinct(m for m in row if m.start >= region.end)
    if coordinated and before and after and row[0].entity != after[0]:
        pair = (row[0].entity, after[0])
    elif hangs and len(before) >= 2:
        pair = (before[1], after[0] if after and after[0] != before[1] else before[0])
    elif before and after and before[0] != after[0]:
        pair = (before[0], after[0])
    elif before and after and len(before) >= 2:
        pair = (before[1], before[0])  # "A founded B and [later sold] it": "it" is B again
    elif before and len(after) >= 2:
        pair = (before[0], after[1])
    elif len(before) >= 2:
        pair = (before[1], before[0])
    elif len(after) >= 2:
        pair = (after[0], after[1])
    else:
        return []
    first = {}
    for m in row:
        first.setdefault(m.entity, m.start)
    a, b = pair
    return [(a, b) if first[a] <= first[b] else (b, a)]


def sibling(text: str, row: Sequence[PlacedMention], region: Region, before: Sequence[Region]) -> int | None:
    """The index (in ``before``) of the region that ``region`` continues as a second modifier of one noun phrase
    (:func:`continues_a_modifier`), or None."""
    if not before or before[-1].sentence != region.sentence:
        return None
    earlier, names = before[-1], [(m.start, m.end, m.type) for m in row]
    return len(before) - 1 if continues_a_modifier(text, names, region.start, (earlier.start, earlier.end)) else None


def sibling_pairs(
    row: Sequence[PlacedMention],
    region: Region,
    earlier: tuple[tuple[str, str], tuple[str, str]],
    pairs: list[tuple[tuple[str, str], tuple[str, str]]],
) -> list[tuple[tuple[str, str], tuple[str, str]]]:
    """The pair of a :func:`sibling` region: the noun phrase's name (the earlier region's first name) with the name
    after the region; ``pairs`` where no name follows or it is that same name."""
    after = _distinct(m for m in row if m.start >= region.end)
    subject = earlier[0]
    if not after or after[0] == subject:
        return pairs
    first: dict[tuple[str, str], int] = {}
    for m in row:
        first.setdefault(m.entity, m.start)
    return [(subject, after[0]) if first[subject] <= first[after[0]] else (after[0], subject)]


def _distinct(mentions: Iterable[PlacedMention]) -> list[tuple[str, str]]:
    """The first :data:`NEAREST` distinct entities of ``mentions`` (taken in the order given)."""
    found: list[tuple[str, str]] = []
    for m in mentions:
        entity = m.entity
        if entity not in found:
            found.append(entity)
            if len(found) == NEAREST:
                break
    return found
