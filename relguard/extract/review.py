"""An analyst's review of an extraction, made before any outcome is drawn, replayable from a file.

The extractor misses relations and mistypes entities; a privacy officer who reads the documents can fix that: add a
slot the extractor missed, remove a false one, correct an entity's type, merge an alias into its canonical name,
add an entity the NER missed, split a name that joins two ("A v. B"), or say what a pronoun refers to
(:mod:`relguard.extract.reference`). These are *extraction* decisions — like the extractor's own, they decide where
the slots are and never which outcome a slot gets. Picking an outcome by hand would void the guarantee, so no edit
can. A review-queue item the analyst judged harmless is dismissed with a reason (:class:`Dismiss`): recorded and
replayed, it changes nothing in the extraction.

A :class:`Review` is applied to an :class:`~relguard.types.Extraction` with :func:`apply_review` and saved as
JSON (``review.json``) that the exported config and ``relguard sanitize --review`` replay. Edits name documents,
character spans and entity names, so the file is confidential like the documents; the public report counts the
edits only.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

from relguard.errors import InputError
from relguard.extract.corpus import group_relations
from relguard.extract.reference import add_entity, set_referent, split_name
from relguard.extract.spacy.inflect import normalize_predicate
from relguard.types import (
    ENTITY_TYPES,
    DocumentExtraction,
    Entity,
    Extraction,
    InvalidOccurrence,
    Occurrence,
    Triple,
)

REVIEW_FORMAT = "relguard-review"


@dataclass(frozen=True)
class AddSlot:
    """A relation the extractor missed: its exact span in ``document`` between two named entities.

    Whichever of the two is mentioned first in the sentence becomes the subject: the direction comes from the
    text's public structure, never from how the analyst reads the relation (invariant 11).
    """

    document: str
    start: int
    end: int
    first: str
    second: str
    kind: str = "add_slot"


@dataclass(frozen=True)
class RemoveSlot:
    """A false slot: every occurrence of ``document`` overlapping ``start:end`` is dropped."""

    document: str
    start: int
    end: int
    kind: str = "remove_slot"


@dataclass(frozen=True)
class SetType:
    """``entity``'s type is ``type`` in every document (its pool follows)."""

    entity: str
    type: str
    kind: str = "set_type"


@dataclass(frozen=True)
class MergeAlias:
    """``alias`` names the same entity as ``canonical`` in every document."""

    alias: str
    canonical: str
    kind: str = "merge_alias"


@dataclass(frozen=True)
class AddEntity:
    """A name the NER missed: every place it is spelled in every document, outside the names already found, becomes
    a mention of the entity ``name`` of ``type``. Found by its spelling alone (public structure), the mentions then
    take part in slots by position like every other (:func:`relguard.extract.reference.add_entity`)."""

    name: str
    type: str
    kind: str = "add_entity"


@dataclass(frozen=True)
class SplitName:
    """``name`` is two names joined by ``between`` ("Acme Corp v. Beta Ltd"): every mention of it becomes the two
    names with a slot over ``between`` (:func:`relguard.extract.reference.split_name`)."""

    name: str
    between: str
    kind: str = "split_name"


@dataclass(frozen=True)
class SetReferent:
    """The pronoun (or "the company") at ``start:end`` of ``document`` refers to ``entity``: the mention moves to
    it, and the slots the pronoun took part in link ``entity`` instead (:func:`~relguard.extract.reference.
    set_referent`)."""

    document: str
    start: int
    end: int
    entity: str
    kind: str = "set_referent"


@dataclass(frozen=True)
class Dismiss:
    """A review-queue item judged harmless (an e-mail header, a name that is no entity), and why. ``queue`` and
    ``item`` name it as the queue does (:class:`relguard.studio.review.Flag`); the extraction is unchanged."""

    queue: str
    document: str
    item: str
    reason: str
    kind: str = "dismiss"


Edit = AddSlot | RemoveSlot | SetType | MergeAlias | AddEntity | SplitName | SetReferent | Dismiss
_KINDS = {
    "add_slot": AddSlot,
    "remove_slot": RemoveSlot,
    "set_type": SetType,
    "merge_alias": MergeAlias,
    "add_entity": AddEntity,
    "split_name": SplitName,
    "set_referent": SetReferent,
    "dismiss": Dismiss,
}
#: Edits that apply to every document (the others name the one they change; a dismissal changes none).
_CORPUS_WIDE = (SetType, MergeAlias, AddEntity, SplitName)


@dataclass(frozen=True)
class Review:
    """The analyst's edits in the order they were made; later edits see the effect of earlier ones."""

    edits: tuple[Edit, ...] = field(default_factory=tuple)

    def __len__(self) -> int:
        return len(self.edits)

    def add(self, edit: Edit) -> Review:
        return Review((*self.edits, edit))

    def without(self, index: int) -> Review:
        return Review(self.edits[:index] + self.edits[index + 1 :])

    def dismissed(self) -> set[tuple[str, str, str]]:
        """The (queue, document, item) of every dismissed review-queue item."""
        return {(e.queue, e.document, e.item) for e in self.edits if isinstance(e, Dismiss)}

    def to_json(self) -> str:
        data = {"format": REVIEW_FORMAT, "version": 1, "edits": [asdict(e) for e in self.edits]}
        return json.dumps(data, indent=1, ensure_ascii=False) + "\n"

    @classmethod
    def from_json(cls, text: str, *, where: str = "review file") -> Review:
        try:
            data = json.loads(text)
        except ValueError as exc:
            raise InputError(f"{where}: not valid JSON ({exc}); export the review again from the app") from exc
        if not isinstance(data, dict) or data.get("format") != REVIEW_FORMAT:
            raise InputError(f'{where}: not a RelGuard review file (no "format": "{REVIEW_FORMAT}")')
        edits = []
        for number, item in enumerate(data.get("edits") or [], start=1):
            kind = _KINDS.get(item.get("kind") if isinstance(item, dict) else None)
            if kind is None:
                raise InputError(f"{where}: edit {number} has no known kind ({', '.join(_KINDS)})")
            try:
                edits.append(kind(**item))
            except TypeError as exc:
                raise InputError(f"{where}: edit {number} ({item.get('kind')}) has wrong fields: {exc}") from exc
            if isinstance(edits[-1], Dismiss) and not str(edits[-1].reason).strip():
                raise InputError(f"{where}: edit {number} (dismiss) needs a reason: say why the item is harmless")
        return cls(tuple(edits))

    @classmethod
    def read(cls, path: str | Path) -> Review:
        path = Path(path)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise InputError(f"{path}: cannot be read ({exc.strerror}); check the --review path") from exc
        return cls.from_json(text, where=str(path))


def apply_review(extraction: Extraction, review: Review) -> Extraction:
    """The extraction with every edit applied, regrouped; an edit that cannot apply names what is wrong."""
    documents = list(extraction.documents)
    for number, edit in enumerate(review.edits, start=1):
        before = documents
        documents = _apply(documents, edit, number)
        if isinstance(edit, AddEntity) and documents == before and not any(_entity(d, edit.name) for d in documents):
            raise InputError(
                f"review edit {number}: {edit.name!r} is spelled nowhere in the corpus outside the names already "
                "found; copy the name exactly as the documents write it"
            )
        if isinstance(edit, SplitName) and not any(_entity(d, edit.name) for d in before):
            raise InputError(
                f"review edit {number}: no entity is named {edit.name!r}; pick a name the Triples page lists"
            )
    return Extraction(tuple(documents), group_relations(documents), extractor=extraction.extractor)


def review_document(doc: DocumentExtraction, review: Review) -> DocumentExtraction:
    """One document with the edits that concern it applied, for a batch run that sees documents one by one.

    Type corrections and alias merges apply to every document; added and removed slots to the one they name.
    """
    for number, edit in enumerate(review.edits, start=1):
        if isinstance(edit, _CORPUS_WIDE) or (not isinstance(edit, Dismiss) and edit.document == doc.document.name):
            doc = _apply([doc], edit, number)[0]
    return doc


def slot_documents(review: Review) -> set[str]:
    """The documents named by added or removed slots and set referents: each must be found in the corpus."""
    return {e.document for e in review.edits if isinstance(e, AddSlot | RemoveSlot | SetReferent)}


def _apply(documents: list[DocumentExtraction], edit: Edit, number: int) -> list[DocumentExtraction]:
    if isinstance(edit, SetType):
        if edit.type not in ENTITY_TYPES:
            raise InputError(f"review edit {number}: unknown entity type {edit.type!r}; use one of {ENTITY_TYPES}")
        return [_retype(d, edit.entity, edit.type) for d in documents]
    if isinstance(edit, MergeAlias):
        return [_rename(d, edit.alias, edit.canonical) for d in documents]
    if isinstance(edit, AddEntity):
        if edit.type not in ENTITY_TYPES:
            raise InputError(f"review edit {number}: unknown entity type {edit.type!r}; use one of {ENTITY_TYPES}")
        return [add_entity(_retype(d, edit.name, edit.type), edit.name, edit.type, number=number) for d in documents]
    if isinstance(edit, SplitName):
        return [split_name(d, edit.name, edit.between, number=number) for d in documents]
    if isinstance(edit, Dismiss):
        return documents
    names = [d.document.name for d in documents]
    if edit.document not in names:
        raise InputError(f"review edit {number}: no document {edit.document!r} in this corpus")
    index = names.index(edit.document)
    if isinstance(edit, SetReferent):
        documents[index] = set_referent(documents[index], edit.start, edit.end, edit.entity, number=number)
        return documents
    change = _add_slot if isinstance(edit, AddSlot) else _remove_slot
    documents[index] = change(documents[index], edit, number)
    return documents


def _entity(doc: DocumentExtraction, name: str) -> Entity | None:
    return next((e for e in doc.entities if e.name == name), None)


def _add_slot(doc: DocumentExtraction, edit: AddSlot, number: int) -> DocumentExtraction:
    text = doc.document.text
    span = text[edit.start : edit.end]
    sentence = next((s for s in doc.sentences if s.start <= edit.start < edit.end <= s.end), None)
    first, second = _entity(doc, edit.first), _entity(doc, edit.second)
    if sentence is None or first is None or second is None or first.name == second.name:
        raise InputError(
            f"review edit {number}: the span {edit.start}-{edit.end} must lie in one sentence of {edit.document} "
            "between two different entities of that document"
        )
    try:
        occurrence = Occurrence(edit.document, sentence.index, edit.start, edit.end, span)
    except InvalidOccurrence as exc:
        raise InputError(f"review edit {number}: {exc}") from exc
    for mention in (*first.mentions, *second.mentions):
        if mention.start < edit.end and edit.start < mention.end:
            raise InputError(f"review edit {number}: the span {span!r} overlaps the entity name {mention.text!r}")
    positions = {
        e.name: min((m.start for m in e.mentions if m.sentence == sentence.index), default=None)
        for e in (first, second)
    }
    if None in positions.values():
        raise InputError(f"review edit {number}: both entities must be named in the sentence of the span {span!r}")
    if positions[second.name] < positions[first.name]:
        first, second = second, first
    if (existing := slot_on(doc, edit.start, edit.end, first.name, second.name)) is not None:
        raise InputError(
            f"review edit {number}: {span!r} already has a slot between {first.name} and {second.name} "
            f"({existing.predicate}); remove this edit"
        )
    triple = Triple(first.name, first.type, normalize_predicate(span), second.name, second.type, (occurrence,))
    return replace(doc, triples=(*doc.triples, triple))


def _remove_slot(doc: DocumentExtraction, edit: RemoveSlot, number: int) -> DocumentExtraction:
    kept = []
    removed = 0
    for triple in doc.triples:
        occurrences = tuple(o for o in triple.occurrences if not (o.start < edit.end and edit.start < o.end))
        removed += len(triple.occurrences) - len(occurrences)
        if occurrences:
            kept.append(replace(triple, occurrences=occurrences))
    if not removed:
        raise InputError(f"review edit {number}: no slot of {edit.document} overlaps {edit.start}-{edit.end}")
    return replace(doc, triples=tuple(kept))


def _retype(doc: DocumentExtraction, name: str, new: str) -> DocumentExtraction:
    entities = tuple(replace(e, type=new) if e.name == name else e for e in doc.entities)
    triples = tuple(
        replace(
            t,
            subject_type=new if t.subject == name else t.subject_type,
            object_type=new if t.object == name else t.object_type,
        )
        for t in doc.triples
    )
    return replace(doc, entities=entities, triples=triples)


def _rename(doc: DocumentExtraction, alias: str, canonical: str) -> DocumentExtraction:
    """``alias`` becomes ``canonical``: mentions are merged into one entity, triples renamed, self-loops dropped."""
    target = _entity(doc, canonical)
    source = _entity(doc, alias)
    if source is None:
        return doc
    merged_type = target.type if target is not None else source.type
    mentions = tuple(sorted((*(target.mentions if target else ()), *source.mentions), key=lambda m: (m.start, m.end)))
    entities = [e for e in doc.entities if e.name not in (alias, canonical)]
    entities.append(Entity(canonical, merged_type, mentions))
    triples = []
    for t in doc.triples:
        subject = canonical if t.subject == alias else t.subject
        obj = canonical if t.object == alias else t.object
        if subject == obj:
            continue
        triples.append(
            replace(
                t,
                subject=subject,
                object=obj,
                subject_type=merged_type if subject == canonical else t.subject_type,
                object_type=merged_type if obj == canonical else t.object_type,
            )
        )
    return replace(doc, entities=tuple(entities), triples=tuple(triples))


def edits_summary(review: Review) -> dict[str, int]:
    """How many edits of each kind: what the public report may say of a review (the edits stay confidential)."""
    counts = dict.fromkeys(_KINDS, 0)
    for edit in review.edits:
        counts[edit.kind] += 1
    return counts


def entity_names(extraction: Extraction) -> Sequence[str]:
    return sorted({e.name for d in extraction.documents for e in d.entities})


def locate_span(doc: DocumentExtraction, sentence: int, words: str) -> tuple[int, int] | None:
    """Where ``words`` stand in sentence ``sentence`` of ``doc`` as character offsets, clear of entity names.

    The app's "add a missed slot" form asks for the relation words as they appear; this finds their first
    occurrence that does not overlap an entity mention, or None when there is none.
    """
    words = words.strip()
    if not words or not 0 <= sentence < len(doc.sentences):
        return None
    bounds = doc.sentences[sentence]
    text = doc.document.text
    mentions = [(m.start, m.end) for e in doc.entities for m in e.mentions if m.sentence == sentence]
    at = text.find(words, bounds.start, bounds.end)
    while at != -1:
        end = at + len(words)
        if not any(a < end and at < b for a, b in mentions):
            return at, end
        at = text.find(words, at + 1, bounds.end)
    return None


def slot_on(doc: DocumentExtraction, start: int, end: int, first: str, second: str) -> Triple | None:
    """The triple of ``doc`` that already has a slot overlapping ``start:end`` between ``first`` and ``second``
    (either way round), or None. A second slot there would draw the pair twice for one stated relation."""
    pair = {first, second}
    for triple in doc.triples:
        if {triple.subject, triple.object} == pair and any(o.start < end and start < o.end for o in triple.occurrences):
            return triple
    return None


def slots_of(doc: DocumentExtraction) -> list[tuple[int, int, int, str]]:
    """Every distinct slot span of a document: (sentence, start, end, text), in text order."""
    spans = {(o.sentence, o.start, o.end, o.text) for t in doc.triples for o in t.occurrences}
    return sorted(spans, key=lambda s: (s[1], s[2]))
