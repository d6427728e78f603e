"""The strict slot mode: every stretch between two adjacent entity mentions of a sentence is a slot.

In the default mode a slot is the relation expression the parse finds, so where slots are is read from the
wording (``docs/evaluation.md`` measures how often that tells a rewording apart). Here it is not: the text
between two adjacent mentions of different entities is masked whatever its words — "Alice Smith [secretly
married] Tom Baker", "Springvale[, which invaded] Oregon", "Ana Ruiz [was gen. mgr of] Corvid Media" — so the
masked document is a function of the mentions alone, and the paper's assumption ("documents that differ only in
the protected relation expressions yield the same masked document") holds for every relation stated between two
names. The cost is what a stretch held besides the relation (a date, a description): it is lost, and measured
(``bench/fluency.py --slots stretches``).

Mentions must not move with the relation's words either; the spaCy extractor finds them from the names' own
spelling in this mode (:mod:`relguard.extract.spacy`). Each stretch stands for one pair, the two mentions that
border it (:func:`relguard.extract.regions.positional_pairs`), with the predicate the extractor read for that pair
in that sentence, else those it read inside the stretch (confidential: they only feed d_R), else
:data:`~relguard.extract.regions.UNREAD`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from itertools import pairwise

from relguard.extract.positions import MentionTable, PlacedMention, Region
from relguard.extract.regions import MODIFIER_TYPES, UNREAD, opens_noun_phrase, positional_pairs
from relguard.types import DocumentExtraction, Occurrence, Triple
from relguard.wordlist import LOOSE_ADVERB_PATTERN, RELATIONAL_ADJECTIVES

#: An article right before a name stays with it ("founded [the] Acme Corp"): it is the name's, not the relation's.
_POSSESSIVE = re.compile(r"['’](?:s\b|(?=\s))")  # "Acme's", and "Isis' cousin" after a name ending in s
_BRACKET = re.compile(r"[()\[\]{}\"“”]")
_CLOSES = {")": "(", "]": "[", "}": "{", "”": "“"}
_ARTICLE_BEFORE = re.compile(r"(?:^|\s)(?:the|a|an)\s*$", re.IGNORECASE)


def stretch_regions(extraction: DocumentExtraction) -> list[Region]:
    """The stretch between every two adjacent mentions of different entities in each sentence, without the
    blanks at its ends and without an article that opens the second name, cut into its pieces at brackets and
    quotes (:func:`stretch_pieces`)."""
    text = extraction.document.text
    regions: list[Region] = []
    for sentence, row in sorted(MentionTable.of_document(extraction).by_sentence.items()):
        for first, second in pairwise(row):
            if first.entity != second.entity:
                regions += [Region(sentence, a, b) for a, b in stretch_pieces(text, first.end, second.start)]
    return regions


def stretch_between(text: str, start: int, end: int) -> tuple[int, int] | None:
    """The stretch of ``text[start:end]`` (between a name's end and the next name's start), brackets and quotes
    inside it included, or None: from its first piece's start to its last piece's end."""
    pieces = stretch_pieces(text, start, end)
    return (pieces[0][0], pieces[-1][1]) if pieces else None


def stretch_pieces(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The stretch of ``text[start:end]`` as the slots that mask it: cut at every bracket or quote whose partner
    lies outside the stretch, each piece without blanks at its ends.

    Such a mark stays as written, so an aside keeps its brackets balanced in the released text ("Monuram
    Karkun(Kam Phangcho)"), and every word between the two names is in a slot: "David Chen (CEO of Microsoft)"
    masks "CEO of" as "David Chen (critic of Microsoft)" masks "critic of". A pair of marks inside the stretch
    is masked with it ('Maria Lopez, "Head of Risk" at Redfern Bank' as 'Maria Lopez, head of risk at Redfern
    Bank'). Where the pieces are is read from the marks alone, never from a word.
    """
    if start >= end:
        return []
    possessive = _POSSESSIVE.match(text, start)
    if possessive is not None:
        start = possessive.end()  # "Sri Lanka Army['s] units": the possessive is the name's
    article = _ARTICLE_BEFORE.search(text[start:end])
    if article is not None:
        end = start + article.start()
    pieces, cut = [], start
    for mark in [*_unpaired_marks(text, start, end), end]:
        a, b = cut, mark
        while a < b and text[a].isspace():
            a += 1
        while b > a and text[b - 1].isspace():
            b -= 1
        if a < b:
            pieces.append((a, b))
        cut = mark + 1
    return pieces


def _unpaired_marks(text: str, start: int, end: int) -> list[int]:
    """Positions of the brackets and quotes in ``text[start:end]`` whose partner is not in it."""
    open_marks: list[int] = []
    unpaired: list[int] = []
    for found in _BRACKET.finditer(text, start, end):
        at, mark = found.start(), found.group()
        top = text[open_marks[-1]] if open_marks else ""
        if (mark in _CLOSES and top == _CLOSES[mark]) or (mark == '"' and top == '"'):
            open_marks.pop()
        elif mark in _CLOSES:
            unpaired.append(at)
        else:
            open_marks.append(at)
    return sorted(unpaired + open_marks)


def widen_to_stretches(
    extraction: DocumentExtraction, *, modifiers: Mapping[int, int] | None = None
) -> DocumentExtraction:
    """``extraction`` (the default mode's spans) with every span that lies between two adjacent names of different
    entities widened to their whole stretch (:func:`stretch_pieces`).

    The parse decides whether two names are related; how much of the words between them the span covers is then
    no longer read from the wording where the stretch is a clause's few words (:func:`_widens`): "Maria Lopez
    [left her job at] Redfern Bank", "[sold its stake in]", "[owns 40 percent of]", "[founded, led and sold]"
    mask as "[joined]" does. A pronoun
    between the two names lies in the stretch ("her job"), so it is no mention there; spans before a sentence's
    first name or after its last stay as the parse found them, and so do the links between the parts of a span
    that was not widened. Names are told from pronouns and "the company" by their capital.

    A stretch that opens as a description ("is a racing video game developed by", ", a city in", "is the largest
    city in": a copula or comma, then an article) is widened from its first span on only, so the description
    stays as the default mode keeps it (docs/design.md); which of its words are the relation is then read from
    the parse, as the report says of this mode. ``modifiers`` (a name's first character → where the words the
    parse hangs on it without an article begin: "of [rock band] Drug Restaurant") end a stretch as an article
    and adjectives do (:func:`_before_modifiers`).
    """
    text = extraction.document.text
    rows = {
        sentence: [m for m in row if not text[m.start : m.start + 1].islower()]
        for sentence, row in MentionTable.of_document(extraction).by_sentence.items()
    }
    found = (*extraction.triples, *_possessive_roles(extraction, rows))
    regions: dict[tuple[int, int, int], tuple[int, int]] = {}
    spans: dict[int, list[tuple[int, int]]] = {}
    for o in (o for triple in found for o in triple.occurrences):
        spans.setdefault(o.sentence, []).append((o.start, o.end))
    for o in (o for triple in found for o in triple.occurrences):
        stretch = _stretch_around(rows.get(o.sentence, []), o.start, o.end)
        if stretch is not None and _widens(text, *stretch):
            first = stretch_first(rows, o)
            modifier = first.type in MODIFIER_TYPES
            described = _DESCRIBED.match(text, stretch[0]) or opens_noun_phrase(
                text, first.start, first.end, modifier=modifier, slots=spans.get(o.sentence, ())
            )
            start = o.start if described else _after_adverbs(text, _after_subject(text, stretch[0], o.start), o.end)
            end = _before_modifiers(text, o.end, _before_description(text, start, stretch[1]), modifiers)
            earlier = regions.get((o.sentence, *stretch), (start, end))
            regions[(o.sentence, *stretch)] = (min(start, earlier[0]), max(end, earlier[1]))
    widened: set[tuple[int, int, int]] = set()
    triples = []
    for triple in found:
        occurrences: dict[tuple[int, int, int], Occurrence] = {}
        for o in triple.occurrences:
            stretch = _stretch_around(rows.get(o.sentence, []), o.start, o.end)
            stretch = regions.get((o.sentence, *stretch)) if stretch else None
            pieces = stretch_pieces(text, *stretch) if stretch else []
            if not pieces:
                occurrences.setdefault((o.sentence, o.start, o.end), o)
                continue
            widened.add((o.sentence, *stretch))
            for a, b in pieces:
                occurrences.setdefault((o.sentence, a, b), replace(o, start=a, end=b, text=text[a:b]))
        triples.append(replace(triple, occurrences=tuple(occurrences[k] for k in sorted(occurrences))))
    if not widened:
        return extraction

    def inside(sentence: int, start: int, end: int) -> bool:
        return any(s == sentence and a <= start and end <= b for s, a, b in widened)

    entities = tuple(
        replace(
            e,
            mentions=tuple(m for m in e.mentions if not (m.text[:1].islower() and inside(m.sentence, m.start, m.end))),
        )
        for e in extraction.entities
    )
    links = tuple(
        link
        for link in extraction.links
        if not inside(link.sentence, link.head, link.head) and not inside(link.sentence, link.part, link.part)
    )
    return replace(extraction, entities=tuple(e for e in entities if e.mentions), triples=tuple(triples), links=links)


def _before_description(text: str, start: int, end: int) -> int:
    """Where the widened stretch ``start:end`` ends: before the words that say what the second name is ("played
    guitar in [the rock band] Velvet Owls", "moved to [the city of] Leeds"), an article and a kind of thing
    right before the name, which stay in the text like a description of the first name does; else ``end``.
    Where nothing but a copula would be left ("is [the county town of]"), the kind is the relation and stays in."""
    found = _KIND_BEFORE_NAME.search(text, start, end)
    if found is None or not set(text[start : found.start()].lower().split()) - _COPULAS:
        return end
    return found.start()


def _before_modifiers(text: str, span_end: int, end: int, modifiers: Mapping[int, int] | None = None) -> int:
    """Where the widened stretch ends when the parse's span stops before an article and adjectives of the second
    name ("published by [the non-profit] Society for Science", "attended [the famed] Patapsco Institute") or
    before the nouns the parse hangs on the name without one (``modifiers``: "the lead vocalist of [rock band]
    Drug Restaurant", "moved to [northern] England"): those words describe the name, the parse left them out of
    the relation, and they stay, as a bare article does (:func:`stretch_pieces`); else ``end``. Adjectives that
    say how the two are related ("the rival", "the parent", "former") are the relation's and stay in the slot."""
    found = _MODIFIERS_BEFORE_NAME.fullmatch(text, span_end, end)
    if found is not None and not RELATIONAL_ADJECTIVES & set(found.group("words").lower().split()):
        return found.start("article")
    start = (modifiers or {}).get(end)
    if start is None or start < span_end or text[span_end:start].strip():
        return end
    if RELATIONAL_ADJECTIVES & set(text[start:end].lower().split()):
        return end
    return start


_COPULAS = frozenset({"is", "was", "are", "were", "be", "been", "has", "have", "had", "became", "becomes", "remains"})


#: The words that say what a name is, right before it: an article, up to four lower-case words, acronyms or years
#: ("the TV drama series", "a 1998 comedy film"), a kind of thing.
_KIND_BEFORE_NAME = re.compile(
    r"(?<=\s)(?:the|a|an)\s+(?:(?!(?:the|a|an|of)\s)(?:[a-z][a-z-]*|[A-Z]{2,4}|\d{4}s?)\s+){0,4}"
    r"(?:film|movie|album|song|single|novel|book|series|sitcom|show|play|opera|musical|poem|painting|documentary|"
    r"game|magazine|newspaper|journal|website|franchise|programme|program|festival|tournament|championship|league|"
    r"band|group|duo|trio|orchestra|choir|club|team|company|corporation|firm|label|studio|network|channel|"
    r"university|college|school|party|city|town|village|municipality|county|district|province|region|state|"
    r"country|river|lake|island|mountain|station|airport|stadium|church|museum|hospital)"
    r"(?:\s+of)?\s*$"
)
#: An article and up to four lower-case words, nothing else, between a span and the next name.
_MODIFIERS_BEFORE_NAME = re.compile(
    r"\s*(?P<article>(?:the|a|an)\s+)(?P<words>(?:(?!(?:the|a|an|of|in|at|on|to|for|by|with|from)\s)[a-z][a-z-]*\s+){1,4})"
)
#: A subject pronoun that opens a stretch: "At Yale [he] was elected …" keeps its subject out of the slot.
_SUBJECT = re.compile(r"\s*\b(?:he|she|they|we|i|it)\s+(?=\S)", re.IGNORECASE)


def _after_subject(text: str, start: int, span: int) -> int:
    """Where a widened stretch starts: after a subject pronoun that opens it, so the clause keeps its subject ("At
    Yale he [was elected] Phi Beta Kappa"); the pronoun is the same in every wording of the relation."""
    found = _SUBJECT.match(text, start)
    return found.end() if found is not None and found.end() <= span else start


def _after_adverbs(text: str, start: int, span_end: int) -> int:
    """Where a widened stretch starts after the adverbs that open it and say when or how, not what ("Alice
    [originally] voiced", "[later] joined", "[also] founded"): they stay in the text, facts of their own that
    read the same with every wording of the relation; a hedge or a negation ("allegedly", "never") stays in."""
    found = _LOOSE_ADVERBS.match(text, start)
    return found.end() if found is not None and found.end() < span_end else start


#: The adverbs that open a stretch (:data:`relguard.wordlist.LOOSE_ADVERBS`).
_LOOSE_ADVERBS = re.compile(rf"\s*(?:(?:{LOOSE_ADVERB_PATTERN})\s+)+")
#: The opening of a stretch that describes the first name: a comma or copula, then an article.
_DESCRIBED = re.compile(
    r"\s*,?\s*(?:(?:is|was|are|were|remains|remained|became|has been|had been)\s+)?(?:a|an|the)\s", re.IGNORECASE
)
#: Longest stretch (in words) a span widens to: "was appointed as the chief financial officer of" is one.
MAX_WIDENED_WORDS = 8
#: What makes a stretch more than one clause's words: punctuation, a coordinator, a number (a date, a measure).
_CLAUSES = re.compile(r"[,;:()\[\]{}\"“”]|\b(?:and|or|but)\b|\d")
#: A share is no date: "owns [40 percent of]" widens.
_SHARE = re.compile(r"\b\d+(?:\.\d+)?\s*(?:%|percent\b|per cent\b)")
#: Words coordinated one by one: "founded, led and sold".
_WORD_LIST = re.compile(r"[a-z-]+(?:, [a-z-]+)*,? (?:and|or) [a-z-]+")
#: "Redfern Bank's founder Maria Lopez": a possessive, then up to four lower-case words, then the next name.
_POSSESSIVE_ROLE = re.compile(r"['’]s?\s+(?:[a-z][a-z-]*\s+){0,3}[a-z][a-z-]*\s*")


def _possessive_roles(extraction: DocumentExtraction, rows: dict[int, list[PlacedMention]]) -> list[Triple]:
    """A slot for each stretch between two adjacent names that is a possessive and lower-case words, where the
    parse found none: "Redfern Bank's [critic] Maria Lopez" is slotted as "Redfern Bank's [founder] Maria Lopez",
    whose role noun the parse links (its shape decides, never its word)."""
    text, name = extraction.document.text, extraction.document.name
    taken = {(o.sentence, o.start) for t in extraction.triples for o in t.occurrences}
    found = []
    for sentence, row in rows.items():
        for first, second in pairwise(row):
            if first.entity == second.entity or not _POSSESSIVE_ROLE.fullmatch(text, first.end, second.start):
                continue
            if any(s == sentence and first.end <= start < second.start for s, start in taken):
                continue
            pieces = stretch_pieces(text, first.end, second.start)
            occurrences = tuple(Occurrence(name, sentence, a, b, text[a:b]) for a, b in pieces)
            ends = (*first.entity, UNREAD, *second.entity)
            found.append(Triple(*ends, occurrences=occurrences))
    return found


def _widens(text: str, start: int, end: int) -> bool:
    """Whether the stretch ``text[start:end]`` is one clause's few words, which a span in it widens to: no
    punctuation, coordinator or number in it (a share aside), or single words coordinated; not the end of a
    hyphenated compound ("Los Angeles-[based]"); at most :data:`MAX_WIDENED_WORDS` words. Longer stretches keep
    the parse's span, and what the default mode's frames keep or delete around it (an object, a description,
    a date)."""
    words = text[start:end].split()
    if text[start] in "-–" or len(words) > MAX_WIDENED_WORDS:
        return False
    if _WORD_LIST.fullmatch(text[start:end].strip()):
        return True  # "founded, led and sold": one verb each, coordinated
    return not _CLAUSES.search(_SHARE.sub("", text[start:end]))


def stretch_first(rows: dict[int, list[PlacedMention]], o: Occurrence) -> PlacedMention:
    """The name right before ``o`` in its sentence."""
    return [m for m in rows.get(o.sentence, []) if m.end <= o.start][-1]


def _stretch_around(row: list[PlacedMention], start: int, end: int) -> tuple[int, int] | None:
    """The stretch between the two adjacent names of ``row`` that ``start:end`` lies between, when they name
    different entities."""
    before = [m for m in row if m.end <= start]
    after = [m for m in row if m.start >= end]
    if not before or not after or row.index(before[-1]) + 1 != row.index(after[0]):
        return None
    first, second = before[-1], after[0]
    return (first.end, second.start) if first.entity != second.entity else None


def to_stretches(extraction: DocumentExtraction) -> DocumentExtraction:
    """``extraction`` in the strict mode: its slots are the stretches, each standing for the pairs its position
    gives, the extractor's own spans lending their predicates. What lies before the first name of a sentence or
    after its last is no stretch and stays as written ("joined Acme in 2005 and left in 2010": "left" stays; the
    default mode masks it as a removed part). Entities and sentences stay as they are."""
    mentions = MentionTable.of_document(extraction)
    read: dict[tuple[int, frozenset[tuple[str, str]]], set[str]] = {}
    spans: list[tuple[int, int, str]] = []
    for triple in extraction.triples:
        ends = frozenset({(triple.subject, triple.subject_type), (triple.object, triple.object_type)})
        for occurrence in triple.occurrences:
            read.setdefault((occurrence.sentence, ends), set()).add(triple.predicate)
            spans.append((occurrence.start, occurrence.end, triple.predicate))
    name, text = extraction.document.name, extraction.document.text
    found: dict[tuple[str, str, str, str, str], set[Occurrence]] = {}
    for region in stretch_regions(extraction):
        occurrence = Occurrence(name, region.sentence, region.start, region.end, text[region.start : region.end])
        inside = {p for start, end, p in spans if region.start <= start and end <= region.end}
        for first, second in positional_pairs(mentions.sentence(region.sentence), region, hangs=False):
            for predicate in read.get((region.sentence, frozenset({first, second}))) or inside or {UNREAD}:
                found.setdefault((*first, predicate, *second), set()).add(occurrence)
    triples = tuple(
        Triple(*key, occurrences=tuple(sorted(occurrences, key=lambda o: (o.start, o.end))))
        for key, occurrences in sorted(found.items())
    )
    return replace(extraction, triples=triples, links=(), stretches=True)
