"""What a release did not protect, without gold: sentences a relation the extractor missed most likely stands in.

Every relation RelGuard protects sits in a slot. Two kinds of sentence are counted as not protected: one that names
two or more different entities but has no slot ("no slot"), and one with a capitalized name of two or more words
that no mention covers — a person or company the NER did not type, so no slot can stand for it ("untyped name",
"Priyanka Das founded Pellucid Analytics"). The counts are public structure (names, entities and slots, never a
relation's words — in the default slot mode where slots are is itself read from the wording, and the report says
so): untyped names are looked for in the masked text, outside every slot. The list of sentences is for the
analyst's review queue.
"""

from __future__ import annotations

import bisect
import itertools
import re
from dataclasses import dataclass

from relguard.extract.lowercase import typed_without_capitals
from relguard.extract.roles import is_role_word
from relguard.types import DocumentExtraction, Extraction


@dataclass(frozen=True)
class UnprotectedSentence:
    """A sentence of ``document`` not protected, and why: "no slot" (it names ``entities``, two or more, and holds
    none) or "untyped name" (``entities`` then holds the capitalized names no mention covers)."""

    document: str
    sentence: int
    entities: tuple[str, ...]
    reason: str = "no slot"


def unprotected_in(doc: DocumentExtraction) -> tuple[UnprotectedSentence, ...]:
    """The sentences of one document with two or more different named entities and no slot."""
    slotted = {o.sentence for t in doc.triples for o in t.occurrences}
    named: dict[int, set[str]] = {}
    for entity in doc.entities:
        for mention in entity.mentions:
            named.setdefault(mention.sentence, set()).add(entity.name)
    bare = [
        UnprotectedSentence(doc.document.name, index, tuple(sorted(names)))
        for index, names in sorted(named.items())
        if len(names) >= 2 and index not in slotted
    ]
    listed = {s.sentence for s in bare}
    untyped = [s for s in untyped_names_in(doc) if s.sentence not in listed]
    return tuple(sorted(bare + untyped, key=lambda s: s.sentence))


#: Two or more capitalized words in a row: the shape of a person's or a company's name.
_NAME_RUN = re.compile(r"\b[A-Z][a-z]+(?:[ -](?:[A-Z][a-z]+|[A-Z]{2,}))+\b")
#: In a text typed without capitals, a firm is told by the word it ends in ("harbor finance", "redfern bank").
_LOWER_FIRM = re.compile(
    r"\b(?:(?!(?:for|at|with|to|in|of|the|a|an|and|or|by|from|on|is|was|our|their|his|her)\b)[a-z]+ ){1,2}"
    r"(?:finance|bank|capital|partners|logistics|labs|analytics|pharma|biotech|group|holdings|"
    r"consulting|insurance|systems|technologies|software|media|ventures|airlines|motors|energy|foundation|institute)\b"
)
#: Capitalized words that open a sentence or name a month or a day: no entity of their own.
_NOT_NAMES = frozenset(
    [
        "The",
        "A",
        "An",
        "In",
        "On",
        "At",
        "After",
        "Before",
        "However",
        "But",
        "And",
        "This",
        "That",
        "These",
        "Those",
        "When",
        "While",
        "His",
        "Her",
        "Its",
        "Their",
        "It",
        "He",
        "She",
        "They",
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
        "Monday",
        "Tuesday",
        "Wednesday",
        "Thursday",
        "Friday",
        "Saturday",
        "Sunday",
    ]
)


def untyped_names_in(doc: DocumentExtraction) -> tuple[UnprotectedSentence, ...]:
    """The sentences of ``doc`` with a capitalized name of two or more words (in a text typed without capitals, a
    firm's name by its last word: :data:`_LOWER_FIRM`) that no mention overlaps, read in the
    masked text: a slot's words are the relation's and are replaced by the fill, so they are neither a name left
    as written nor anything a public count may read ("Vice President" vs "vice president" inside a slot must not
    change the report, DESIGN invariant 12); a run of title words is no name (:mod:`relguard.extract.roles`)."""
    covered = sorted(
        [(m.start, m.end) for e in doc.entities for m in e.mentions]
        + [(o.start, o.end) for t in doc.triples for o in t.occurrences]
    )
    starts = [a for a, _ in covered]
    reach = list(itertools.accumulate((b for _, b in covered), max))  # the furthest end among the first i + 1
    found: list[UnprotectedSentence] = []
    text = masked_text(doc)
    runs = _LOWER_FIRM if typed_without_capitals(doc.document.text) else _NAME_RUN
    for sentence in doc.sentences:
        names = []
        for match in runs.finditer(text, sentence.start, sentence.end):
            words = match.group(0).split()
            while words and words[0] in _NOT_NAMES:
                words = words[1:]
            if (
                len(words) < 2
                or all(is_role_word(w) for w in words)
                or _overlaps(starts, reach, match.start(), match.end())
            ):
                continue
            names.append(" ".join(words))
        if names:
            found.append(UnprotectedSentence(doc.document.name, sentence.index, tuple(names), "untyped name"))
    return tuple(found)


def _overlaps(starts: list[int], reach: list[int], start: int, end: int) -> bool:
    """Whether any covered range (sorted by start; ``reach`` the running maximum of their ends) overlaps
    ``start:end``, in log time: a sentence of thousands of names made the pairwise test quadratic."""
    before = bisect.bisect_left(starts, end)
    return before > 0 and reach[before - 1] > start


def masked_text(doc: DocumentExtraction) -> str:
    """The document's text with every slot's characters blanked (offsets kept): what its counts may read."""
    chars = list(doc.document.text)
    for triple in doc.triples:
        for occurrence in triple.occurrences:
            chars[occurrence.start : occurrence.end] = "\0" * (occurrence.end - occurrence.start)
    return "".join(chars)


#: A name of this many words or more may be a sentence written in title case ("Maria Lopez Joined Redfern Bank").
TITLE_CASE_WORDS = 5
_TITLE_CASE_RUN = re.compile(rf"(?:\b[A-Z][\w'’.&-]*\s+){{{TITLE_CASE_WORDS - 1},}}[A-Z0-9][\w'’.&-]*")


def title_case_sentences_in(doc: DocumentExtraction) -> int:
    """In the strict slot mode, how many sentences of ``doc`` may keep a title-case relation word as a name.

    The strict mode takes a capitalized word for a name unless the public lexicon of title words knows it
    (:mod:`relguard.extract.roles`). A title-case relation word it does not know ("Maria Lopez, Rainmaker at
    Redfern Bank") is then a name between two names, printed as written, and a sentence written in title case is
    one long name or none. This counts the sentences with a name between two names of other entities, or
    :data:`TITLE_CASE_WORDS` capitalized words in a row outside the slots: an upper bound ("Ana, Bo and Cy"
    counts too), read from the names, their order and the words the masked text keeps (0 in the default mode,
    where the NER decides)."""
    if not doc.stretches:
        return 0
    rows: dict[int, list[tuple[int, int, str, str]]] = {}
    for entity in doc.entities:
        for m in entity.mentions:
            if m.text[:1].isupper():
                rows.setdefault(m.sentence, []).append((m.start, m.end, entity.name, m.text))
    text, found = masked_text(doc), 0
    for sentence in doc.sentences:
        row = sorted(rows.get(sentence.index, []))
        between = any(
            row[i - 1][2] != row[i][2] != row[i + 1][2] and row[i - 1][2] != row[i + 1][2]
            for i in range(1, len(row) - 1)
        )
        found += between or bool(_TITLE_CASE_RUN.search(text, sentence.start, sentence.end))
    return found


def unprotected_sentences(extraction: Extraction) -> tuple[UnprotectedSentence, ...]:
    """Every such sentence of the corpus, document by document."""
    return tuple(s for doc in extraction.documents for s in unprotected_in(doc))


def documents_without_slots(extraction: Extraction) -> tuple[str, ...]:
    """Documents in which no relation was found at all: released word for word."""
    return tuple(d.document.name for d in extraction.documents if not d.triples)
