"""Offline triple extractor on a spaCy pipeline: the default ``spacy`` extractor backend.

It follows the extraction prompt of the paper (App. B, Fig. 4) with rules instead of an LLM, and with the slot
rules of :mod:`relguard.extract.slots` (DESIGN invariant 11): entities come from the OntoNotes NER labels
(exactly the paper's type inventory), aliases and unambiguous pronouns are mapped to one canonical entity, and
every relation-bearing stretch on a dependency path between two entity mentions becomes a slot region
(:mod:`.patterns`), negated and hedged clauses included — failing closed, since a sentence without a slot is
released as written. Which pairs get a slot, their types and their direction are read from public structure:

* pairs: each region stands for the entities named nearest it, by position alone
  (:func:`relguard.extract.regions.pair_by_position`); the parse's own links give only the predicates;
* direction: the entity named first in the sentence is the subject, and the predicate keeps the voice of the
  text ("Acme Corp was founded by Alice Smith" -> (Acme Corp, ``founded_by``, Alice Smith), pool ORG -> PERSON,
  like "Acme Corp employs Alice Smith");
* types: the NER is run again on every sentence that holds a relation span, with each span replaced by a
  neutral filler, and the canonical name votes inside a fixed template (:mod:`.retype`).

Predicate normal form (so that tense variants merge): verbs in the past tense ("works at"/"worked at" ->
``worked_at``), passive participles as written ("was born in" -> ``born_in``, "was founded by" ->
``founded_by``), nouns singular with their compounds ("is the chief executive of" -> ``chief_executive_of``),
negation and modals kept ("did not join" -> ``not_joined``), a role noun without a preposition oriented by who
holds it ("Acme Corp's founder Alice Smith" -> ``with_founder``; "Bob, an Acme Corp employee" -> ``employee_of``),
then :func:`normalize_predicate` makes it lower-case snake_case.

Occurrence spans: the whole relation expression — auxiliaries, particles, negation, compounds and articles of a
role noun, coordinated verbs and nouns, hyphenated prefixes — cut into contiguous pieces wherever an entity
mention lies inside it, so no span ever covers a name and masking can replace each one safely.

The package's modules follow the steps: :mod:`.model` loads the pipeline and parses long texts in pieces,
:mod:`.names` and :mod:`.entities` build canonical entities, :mod:`.coref` resolves pronouns, :mod:`.patterns`
finds the slots, :mod:`.retype` types entities from masked text, :mod:`.inflect` normalizes predicates and
:mod:`.document` ties them together.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from relguard.errors import ConfigError, ConfigTypeError
from relguard.extract.spacy.document import DocumentState
from relguard.extract.spacy.inflect import normalize_predicate
from relguard.extract.spacy.model import join_docs, load_pipeline, split_text
from relguard.extract.spacy.retype import final_types, masked_sentences, template_label, template_text
from relguard.types import Document, DocumentExtraction

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc

__all__ = ["SpacyExtractor", "normalize_predicate"]

#: The slot modes: ``spans`` (default, the paper's: the relation expression the parse finds) and ``stretches``
#: (strict: every stretch between two adjacent mentions, :mod:`relguard.extract.stretches`).
SLOT_MODES = ("spans", "stretches")
#: Names whose template label one extractor remembers (a name recurs across a corpus; memory stays bounded).
NAME_CACHE = 50_000


class SpacyExtractor:
    """Entities, canonical triples and exact relation spans from a spaCy parse (no network, no GPU)."""

    name = "spacy"

    def __init__(self, model: str = "en_core_web_sm", *, slots: str = "spans") -> None:
        if slots not in SLOT_MODES:
            raise ConfigError(f"slot mode {slots!r} is unknown; choose one of {', '.join(SLOT_MODES)}")
        self.nlp: Language = load_pipeline(model)
        self.slots = slots
        self._name_labels: dict[str, str | None] = {}
        meta = self.nlp.meta
        self.model_id = f"spacy:{meta.get('lang', 'xx')}_{meta.get('name', model)}-{meta.get('version', '0')}"
        if slots != "spans":
            self.model_id += f"+{slots}"

    def extract(self, document: Document) -> DocumentExtraction:
        """Extract one document (use :meth:`extract_many` for many: it batches the parser)."""
        return next(self.extract_many([document]))

    def extract_many(self, documents: Iterable[Document], *, batch_size: int = 64) -> Iterator[DocumentExtraction]:
        """Extract documents lazily, in input order, parsing all texts through one ``nlp.pipe``.

        Documents are finished ``batch_size`` at a time, so the masked sentences and names of a whole batch go
        through the NER together (:meth:`finish_batch`).
        """
        pending: deque[tuple[Document, int]] = deque()

        def texts() -> Iterator[str]:
            for document in documents:
                _check_document(document)
                pieces = split_text(document.text)
                pending.append((document, len(pieces)))
                yield from pieces

        parts: list[Doc] = []
        batch: list[DocumentState] = []
        for parsed in self.nlp.pipe(texts(), batch_size=batch_size):
            parts.append(parsed)
            document, count = pending[0]
            if len(parts) < count:
                continue
            pending.popleft()
            doc = parts[0] if count == 1 else join_docs(parts)
            parts = []
            batch.append(self._state(document, doc))
            if len(batch) >= batch_size:
                yield from self.finish_batch(batch)
                batch = []
        yield from self.finish_batch(batch)

    def finish_batch(self, states: list[DocumentState]) -> list[DocumentExtraction]:
        """Type the entities of ``states`` from their masked sentences and names (one NER pass), then finish."""
        masked = [masked_sentences(state) for state in states]
        by_name = self.label_names(sorted({name for state in states for name in state.names}))
        ner = self.nlp.get_pipe("ner")
        texts = [m.text for row in masked for m in row]
        labelled = list(ner.pipe((self.nlp.make_doc(t) for t in texts), batch_size=256))
        results, cursor = [], 0
        for state, rows in zip(states, masked, strict=True):
            own = labelled[cursor : cursor + len(rows)]
            cursor += len(rows)
            types = final_types(state, rows, own, by_name) if state.sentences else None
            results.append(state.finish(types))
        return results

    def _state(self, document: Document, doc: Doc) -> DocumentState:
        _check_document(document)
        if doc.text != document.text:
            raise ValueError(f"document {document.name!r}: the spaCy Doc is not a parse of this document's text")
        return DocumentState(document, doc, strict=self.slots == "stretches").find(self.label_names)

    def label_names(self, names: list[str]) -> dict[str, str | None]:
        """The NER's label for each name on its own, inside :data:`~.retype.TEMPLATE` (None: no entity there).

        A name's label is a function of the name alone and the same names recur in every document, so each is
        parsed once per extractor (up to :data:`NAME_CACHE` names, then the memory starts over).
        """
        known = self._name_labels
        missing = [name for name in dict.fromkeys(names) if name not in known]
        if len(known) + len(missing) > NAME_CACHE:
            known.clear()
            missing = list(dict.fromkeys(names))
        ner = self.nlp.get_pipe("ner")
        parsed = ner.pipe((self.nlp.make_doc(template_text(name)) for name in missing), batch_size=256)
        known.update((name, template_label(doc, name)) for name, doc in zip(missing, parsed, strict=True))
        return {name: known[name] for name in names}

    def provenance(self) -> dict:
        return {"backend": self.name, "slots": self.slots}


def _check_document(document: object) -> None:
    if not isinstance(document, Document):
        raise ConfigTypeError(f"expected a relguard.types.Document, got {type(document).__name__}")
