"""What a batch run keeps corpus-wide while documents stream past: the group table and the public tallies.

The draw needs, per relation group, only its type pair and the set of its original predicates (the group's
distance row is the minimum over them); the report needs counts. Both are built one document at a time, so a
run never holds the corpus's extractions in memory. The tallies equal what
:func:`relguard.release.report.summarize` computes from an in-memory release (a test checks it).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from relguard.extract.unprotected import unprotected_in
from relguard.types import DocumentExtraction, PairKey, SanitizedDocument


@dataclass
class GroupTable:
    """Per relation group (by its public key): its original predicates. Sorted keys give the draw order."""

    predicates: dict[PairKey, set[str]] = field(default_factory=dict)

    def add(self, doc: DocumentExtraction) -> None:
        for triple in doc.triples:
            self.predicates.setdefault(triple.pair_key, set()).add(triple.predicate)

    def merge(self, other: GroupTable) -> None:
        for key, predicates in other.predicates.items():
            self.predicates.setdefault(key, set()).update(predicates)

    @property
    def keys(self) -> list[PairKey]:
        return sorted(self.predicates)

    def __len__(self) -> int:
        return len(self.predicates)


@dataclass
class Tally:
    """The public counts of a release, added up document by document (extraction first, then the rewrite)."""

    documents: int = 0
    sentences: int = 0
    unprotected: int = 0
    documents_unprotected: int = 0
    documents_without_slots: int = 0
    max_groups_in_one_document: int = 0
    slots_per_document: dict[str, int] = field(default_factory=dict)
    documents_changed: int = 0
    sentences_removed: int = 0
    sentences_withheld: int = 0

    def extracted(self, doc: DocumentExtraction) -> None:
        self.documents += 1
        self.sentences += len(doc.sentences)
        unprotected = len(unprotected_in(doc))
        self.unprotected += unprotected
        self.documents_unprotected += bool(unprotected)
        self.documents_without_slots += not doc.triples
        slots = sum(len(t.occurrences) for t in doc.triples)
        if slots:
            self.slots_per_document[doc.document.name] = slots
        self.max_groups_in_one_document = max(self.max_groups_in_one_document, len({t.pair_key for t in doc.triples}))

    def rewritten(self, out: SanitizedDocument) -> None:
        self.documents_changed += bool(out.removed_sentences or out.filled_spans or out.withheld_sentences)
        self.sentences_removed += len(out.removed_sentences)
        self.sentences_withheld += len(out.withheld_sentences)

    def merge(self, other: Tally) -> None:
        for name in ("documents", "sentences", "unprotected", "documents_unprotected", "documents_without_slots",
                     "documents_changed", "sentences_removed", "sentences_withheld"):  # fmt: skip
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.max_groups_in_one_document = max(self.max_groups_in_one_document, other.max_groups_in_one_document)
        self.slots_per_document.update(other.slots_per_document)

    def counts(self, *, groups: int, groups_deleted: int) -> dict[str, int]:
        """The report's ``counts``, in the report's order (:data:`relguard.release.report.PUBLIC_COUNTS`)."""
        return {
            "documents": self.documents,
            "documents_changed": self.documents_changed,
            "sentences": self.sentences,
            "sentences_removed": self.sentences_removed,
            "sentences_withheld": self.sentences_withheld,
            "slots": sum(self.slots_per_document.values()),
            "groups": groups,
            "groups_deleted": groups_deleted,
        }

    def coverage(self) -> dict[str, int]:
        return {
            "sentences_with_two_entities_and_no_slot": self.unprotected,
            "documents_with_unprotected_sentences": self.documents_unprotected,
            "documents_without_slots": self.documents_without_slots,
        }


def sorted_slots(slots: Counter | dict[str, int]) -> dict[str, int]:
    return dict(sorted(slots.items()))
