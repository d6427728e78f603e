"""What a release did not protect, without gold: sentences that name two entities and hold no relation slot.

Every relation RelGuard protects sits in a slot; a sentence that names two or more different entities but has no
slot is where a relation the extractor missed most likely stands, released as written. The count is public
structure (entities and slots, never a relation's words); the list of sentences is for the analyst's review.
"""

from __future__ import annotations

from dataclasses import dataclass

from relguard.types import DocumentExtraction, Extraction


@dataclass(frozen=True)
class UnprotectedSentence:
    """A sentence of ``document`` that names ``entities`` (two or more) and holds no relation slot."""

    document: str
    sentence: int
    entities: tuple[str, ...]


def unprotected_in(doc: DocumentExtraction) -> tuple[UnprotectedSentence, ...]:
    """The sentences of one document with two or more different named entities and no slot."""
    slotted = {o.sentence for t in doc.triples for o in t.occurrences}
    named: dict[int, set[str]] = {}
    for entity in doc.entities:
        for mention in entity.mentions:
            named.setdefault(mention.sentence, set()).add(entity.name)
    return tuple(
        UnprotectedSentence(doc.document.name, index, tuple(sorted(names)))
        for index, names in sorted(named.items())
        if len(names) >= 2 and index not in slotted
    )


def unprotected_sentences(extraction: Extraction) -> tuple[UnprotectedSentence, ...]:
    """Every such sentence of the corpus, document by document."""
    return tuple(s for doc in extraction.documents for s in unprotected_in(doc))


def documents_without_slots(extraction: Extraction) -> tuple[str, ...]:
    """Documents in which no relation was found at all: released word for word."""
    return tuple(d.document.name for d in extraction.documents if not d.triples)
