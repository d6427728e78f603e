"""The whole review queue: everything an officer must decide before a release can be signed.

Six queues, each item with what to do about it: sentences that name two entities and hold no slot (add a slot),
relation words left just outside a slot (remove the slot and add it again with them), capitalized names no entity
stands for (add the entity), pronouns and "the company" with the entity they were read as, or none (set the
referent), entity types that look wrong (retype or merge), and, once a release is drawn, sanitized sentences that
read badly. An item judged harmless is dismissed with a reason (:class:`~relguard.extract.review.Dismiss`) and
leaves the queue. Everything here shows the original documents: the queue is the app's confidential view, and
nothing in it reaches a public file.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from relguard.extract.review import Review
from relguard.extract.spacy import lexicon as lex
from relguard.extract.unprotected import untyped_names_in
from relguard.pipeline import Prepared
from relguard.studio.review import LOOK, TYPES, UNSLOTTED, Flag, needs_a_look, suspicious_types, unprotected_queue
from relguard.types import DocumentExtraction, Extraction, Release

OUTSIDE = "relation words outside slots"
UNTYPED = "names left untyped"
PRONOUNS = "pronoun links"
#: Every queue, in the order the Review page lists them.
QUEUES = (UNSLOTTED, OUTSIDE, UNTYPED, PRONOUNS, TYPES, LOOK)
#: Word classes that belong to a relation's expression when they touch its slot ("the managing [partner of]",
#: "Alice also [founded]", "was not [hired by]"); a determiner, a name, a number or punctuation ends the search.
#: Nouns do not count: the head noun of a description stays outside its slot by design ("a container shipping
#: line [based in]"), and so does a possessive "'s".
_RELATION_WORDS = frozenset({"VERB", "AUX", "ADV", "ADJ", "PART"})
_POSSESSIVE = frozenset({"'s", "’s", "'", "’"})
#: Without a parse: the words that most often cling to a relation's slot.
_CLINGING = frozenset({*lex.ROLE_MODIFIERS, "not", "never", "also", "formerly", "jointly", "secretly"})
#: Pronouns a relation can stand on; an unresolved one leaves its relation without a slot.
_PERSONAL = re.compile(r"\b(?:[Hh]e|[Ss]he|[Tt]hey|[Hh]is|[Hh]er|[Tt]heir)\b")


def words_outside_slots(extraction: Extraction, *, nlp: Callable | None = None) -> list[Flag]:
    """Slots with relation words right next to them, outside the span: those words are released as written.

    With ``nlp`` (the extractor's spaCy pipeline) a touching verb, adverb, adjective, particle or noun counts; without,
    the role modifiers and negations of :data:`_CLINGING`.
    """
    flags = []
    for doc in extraction.documents:
        text = doc.document.text
        names = [(m.start, m.end) for e in doc.entities for m in e.mentions]
        spans = sorted({(o.sentence, o.start, o.end) for t in doc.triples for o in t.occurrences})
        taken = names + [(a, b) for _, a, b in spans]
        parsed: dict[int, list[tuple[int, int, str]]] = {}
        for sentence, start, end in spans:
            if sentence not in parsed:
                parsed[sentence] = _words(doc, sentence, nlp)
            words = parsed[sentence]
            found = _touching(words, start, end, text, taken)
            if not found:
                continue
            said = ", ".join(repr(text[a:b]) for a, b in found)
            problem = (
                f"{said} next to the slot {text[start:end]!r} is released as written: remove the slot and add it again "
                "with those words, or dismiss this if they are not the relation's"
            )
            flags.append(
                Flag(doc.document.name, sentence, problem, doc.sentence_text(sentence), OUTSIDE, f"{start}-{end}")
            )
    return flags


def _words(doc: DocumentExtraction, sentence: int, nlp: Callable | None) -> list[tuple[int, int, str]]:
    """The sentence's words as (start, end, word class) in document offsets; ``?`` for a clinging word without a
    parse, ``-`` for any other."""
    bounds = doc.sentences[sentence]
    text = doc.document.text[bounds.start : bounds.end]
    if nlp is None:
        return [
            (bounds.start + m.start(), bounds.start + m.end(), "?" if m.group(0).lower() in _CLINGING else "-")
            for m in re.finditer(r"[\w'-]+|[^\w\s]", text)
        ]
    return [
        (bounds.start + t.idx, bounds.start + t.idx + len(t), "-" if t.text in _POSSESSIVE else t.pos_)
        for t in nlp(text)
        if not t.is_space
    ]


def _touching(
    words: list[tuple[int, int, str]], start: int, end: int, text: str, taken: list[tuple[int, int]]
) -> list[tuple[int, int]]:
    """The relation words touching ``start:end`` on either side, outward until anything else."""
    found = []
    before = [w for w in words if w[1] <= start][::-1]
    after = [w for w in words if w[0] >= end]
    for side, edge in ((before, start), (after, end)):
        for a, b, kind in side:
            gap = text[b:edge] if b <= edge else text[edge:a]
            if gap.strip() or any(x < b and a < y for x, y in taken) or kind not in (*_RELATION_WORDS, "?"):
                break
            found.append((a, b))
            edge = a if b <= edge else b
    return sorted(found)


def untyped_names(extraction: Extraction) -> list[Flag]:
    """Capitalized names of two or more words that no entity stands for ("Priyanka Das"): a relation on them has
    no slot and is released as written."""
    flags = []
    for doc in extraction.documents:
        for item in untyped_names_in(doc):
            for name in item.entities:
                problem = f"{name!r} looks like a name, but no entity stands for it: add it as an entity"
                text = doc.sentence_text(item.sentence)
                flags.append(Flag(doc.document.name, item.sentence, problem, text, UNTYPED, f"{item.sentence}:{name}"))
    return flags


def pronoun_links(extraction: Extraction) -> list[Flag]:
    """Every pronoun or "the company" with the entity it was read as, and personal pronouns read as none: a wrong
    link puts a relation on the wrong person; a missing one leaves it without a slot."""
    flags = []
    for doc in extraction.documents:
        name, covered = doc.document.name, [(m.start, m.end) for e in doc.entities for m in e.mentions]
        for entity in doc.entities:
            for m in entity.mentions:
                if _anaphor(m.text):
                    problem = (
                        f"{m.text!r} is taken to mean {entity.name} ({entity.type}); if it means someone else, "
                        "set its referent"
                    )
                    flags.append(Flag(name, m.sentence, problem, doc.sentence_text(m.sentence), PRONOUNS, _at(m)))
        for sentence in doc.sentences:
            for match in _PERSONAL.finditer(doc.document.text, sentence.start, sentence.end):
                if any(a < match.end() and match.start() < b for a, b in covered):
                    continue
                problem = f"{match.group(0)!r} is taken to mean no entity: a relation it takes part in has no slot"
                item = f"{match.start()}-{match.end()}"
                flags.append(Flag(name, sentence.index, problem, doc.sentence_text(sentence.index), PRONOUNS, item))
    return sorted(flags, key=lambda f: (f.document, int(f.item.split("-")[0])))


def _anaphor(text: str) -> bool:
    words = text.lower().split()
    return (len(words) == 1 and words[0] in lex.PRONOUNS) or (
        len(words) == 2 and words[0] == "the" and words[1] in lex.NOMINALS
    )


def _at(mention) -> str:
    return f"{mention.start}-{mention.end}"


def review_queues(
    prepared: Prepared, review: Review, *, release: Release | None = None, nlp: Callable | None = None
) -> dict[str, list[Flag]]:
    """Every queue of :data:`QUEUES` for the prepared corpus (the sanitized-sentence one only with a ``release``
    drawn from it), without the items ``review`` dismissed."""
    extraction = prepared.extraction
    queues = {
        UNSLOTTED: unprotected_queue(extraction),
        OUTSIDE: words_outside_slots(extraction, nlp=nlp),
        UNTYPED: untyped_names(extraction),
        PRONOUNS: pronoun_links(extraction),
        TYPES: suspicious_types(extraction),
    }
    if release is not None:
        queues[LOOK] = needs_a_look(prepared, release, nlp=nlp)
    dismissed = review.dismissed()
    return {name: [f for f in flags if f.key() not in dismissed] for name, flags in queues.items()}
