"""What a release keeps corpus-wide while documents stream past: the group table, the public tallies, the mapping.

The draw needs, per relation group, only its type pair and the set of its original predicates (the group's
distance row is the minimum over them); the report needs counts; the confidential mapping needs each group's
original predicates with their occurrences. Each is built one document at a time — on any process — and merged,
so no face ever holds the corpus's extractions to count them, and every face counts the same way.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields

from relguard.extract.unprotected import title_case_sentences_in, unprotected_in
from relguard.release.confidential import MappingRow
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
    """The public counts of a release, one document at a time (:meth:`of`), added up with :meth:`merge`."""

    documents: int = 0
    sentences: int = 0
    unprotected: int = 0
    documents_unprotected: int = 0
    documents_without_slots: int = 0
    documents_changed: int = 0
    sentences_removed: int = 0
    sentences_withheld: int = 0
    sentences_unfillable: int = 0
    sentences_restated: int = 0
    sentences_connected: int = 0
    untyped: int = 0
    title_case: int = 0
    strict_documents: int = 0
    max_groups_in_one_document: int = 0
    slots_per_document: dict[str, int] = field(default_factory=dict)
    fields_left_out: set[str] = field(default_factory=set)
    losses: dict[str, dict[str, int | bool]] = field(default_factory=dict)

    @classmethod
    def of(cls, doc: DocumentExtraction, out: SanitizedDocument) -> Tally:
        """One document's counts: from where its slots and entities are, and from what its rewrite removed.

        A sentence its outcome deleted, or that no wording of its outcome fills, is not counted as released
        unprotected: what it said is gone, and its words must not reach a count (DESIGN invariant 12). Both follow
        from the masked text and the outcomes; a sentence the leak scan withheld is counted as if it stood.
        """
        gone = {*out.removed_sentences, *out.unfillable_sentences}
        missed = [s for s in unprotected_in(doc) if s.sentence not in gone]
        unprotected = sum(s.reason == "no slot" for s in missed)
        slots = sum(len(t.occurrences) for t in doc.triples)
        return cls(
            documents=1,
            sentences=len(doc.sentences),
            unprotected=unprotected,
            untyped=len(missed) - unprotected,
            title_case=title_case_sentences_in(doc),
            strict_documents=int(doc.stretches),
            sentences_unfillable=len(out.unfillable_sentences),
            sentences_restated=len(out.restated_sentences),
            sentences_connected=len(out.connected_sentences),
            documents_unprotected=int(bool(missed)),
            documents_without_slots=int(not doc.triples),
            documents_changed=int(bool(out.removed_sentences or out.filled_spans or out.withheld_sentences)),
            sentences_removed=len(out.removed_sentences),
            sentences_withheld=len(out.withheld_sentences),
            max_groups_in_one_document=groups_in(doc),
            slots_per_document={doc.document.name: slots} if slots else {},
            fields_left_out=set(doc.document.left_out),
            losses=lost_text(doc.document.name, len(doc.sentences), out),
        )

    def merge(self, other: Tally) -> None:
        for spec in fields(self):
            if spec.name == "max_groups_in_one_document":
                self.max_groups_in_one_document = max(self.max_groups_in_one_document, other.max_groups_in_one_document)
            elif spec.name == "slots_per_document":
                self.slots_per_document.update(other.slots_per_document)
            elif spec.name == "fields_left_out":
                self.fields_left_out |= other.fields_left_out
            elif spec.name == "losses":
                self.losses.update(other.losses)
            else:
                setattr(self, spec.name, getattr(self, spec.name) + getattr(other, spec.name))

    def counts(self, *, groups: int, groups_deleted: int) -> dict[str, int]:
        """The report's ``counts``, in the report's order (:data:`relguard.release.report.PUBLIC_COUNTS`)."""
        return {
            "documents": self.documents,
            "documents_changed": self.documents_changed,
            "sentences": self.sentences,
            "sentences_removed": self.sentences_removed,
            "sentences_withheld": self.sentences_withheld,
            "sentences_unfillable": self.sentences_unfillable,
            "sentences_restated": self.sentences_restated,
            "sentences_connected": self.sentences_connected,
            "slots": sum(self.slots_per_document.values()),
            "groups": groups,
            "groups_deleted": groups_deleted,
        }

    @property
    def slot_mode(self) -> str:
        """The strict mode when every document was extracted in it, else the default."""
        return "stretches" if self.documents and self.strict_documents == self.documents else "spans"

    def coverage(self) -> dict[str, int]:
        """What was not protected, from public structure alone (:mod:`relguard.extract.unprotected`)."""
        return {
            "sentences_with_two_entities_and_no_slot": self.unprotected,
            "sentences_with_an_untyped_name": self.untyped,
            "sentences_not_protected": self.unprotected + self.untyped,
            "sentences_that_may_keep_a_title_case_relation_word": self.title_case,
            "documents_with_unprotected_sentences": self.documents_unprotected,
            "documents_without_slots": self.documents_without_slots,
        }

    def record_fields(self, *, kept: Iterable[str]) -> dict[str, list[str]]:
        """The report's ``record_fields``: the records' fields left out of the release and those the run kept as
        written (``--keep-fields``); names only, the schema (:func:`relguard.io.rows.record_fields`)."""
        if not self.fields_left_out and not kept:
            return {}
        return {"left_out": sorted(self.fields_left_out), "kept_as_written": sorted(kept)}


class Relations:
    """The confidential mapping's rows, collected document by document (only when a mapping is asked for)."""

    def __init__(self) -> None:
        self._by_group: dict[int, dict[str, list[dict]]] = {}
        self.unprotected: list[dict] = []  # each unprotected sentence with its text, listed by document

    @classmethod
    def of(cls, doc: DocumentExtraction, index: Mapping[PairKey, int]) -> Relations:
        relations = cls()
        relations.unprotected = [
            {"document": s.document, "sentence": s.sentence, "reason": s.reason, "names": list(s.entities)}
            | {"text": doc.sentence_text(s.sentence)}
            for s in unprotected_in(doc)
        ]
        for triple in doc.triples:
            found = relations._by_group.setdefault(index[triple.pair_key], {}).setdefault(triple.predicate, [])
            found += [{"document": o.document, "sentence": o.sentence, "span": o.text} for o in triple.occurrences]
        return relations

    def merge(self, other: Relations) -> None:
        self.unprotected += other.unprotected
        for group, predicates in other._by_group.items():
            mine = self._by_group.setdefault(group, {})
            for predicate, occurrences in predicates.items():
                mine.setdefault(predicate, []).extend(occurrences)

    def rows(self, keys: Sequence[PairKey], predicates: Sequence[str | None]) -> list[MappingRow]:
        """One row per group of the outcome table: its key, its outcome and its originals sorted by predicate."""
        return [(key, predicates[i], sorted(self._by_group.get(i, {}).items())) for i, key in enumerate(keys)]


def lost_text(name: str, sentences: int, out: SanitizedDocument) -> dict[str, dict[str, int | bool]]:
    """``{name: why}`` when a document came out empty or lost more than half its sentences, else ``{}``.

    An officer must never find an emptied file by chance. Every number is a function of the outcomes and the
    masked text (null outcomes, unfillable sentences) or of the leak scan, as the report's counts are.
    """
    gone = len(out.gone_sentences)
    empty = sentences > 0 and not out.text.strip()
    if not empty and gone * 2 <= sentences:
        return {}
    return {
        name: {
            "sentences": sentences,
            "sentences_gone": gone,
            "empty": empty,
            "null_outcome": len(out.removed_sentences),
            "unfillable": len(set(out.unfillable_sentences) - set(out.removed_sentences)),
            "leak_scan": len(set(out.withheld_sentences) - set(out.removed_sentences) - set(out.unfillable_sentences)),
        }
    }


def groups_in(doc: DocumentExtraction) -> int:
    """How many relation groups (aligned entity pairs) one document takes part in: public structure."""
    return len({t.pair_key for t in doc.triples})


def most_groups_in_one_document(documents: Iterable[DocumentExtraction]) -> int:
    """m, the per-document bound's exponent over ε: the most relation groups any one document takes part in."""
    return max((groups_in(doc) for doc in documents), default=0)
