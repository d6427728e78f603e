"""Offline triple extractor on a spaCy pipeline: the default ``spacy`` extractor backend.

It follows the extraction prompt of the paper (App. B, Fig. 4) with rules instead
of an LLM: entities come from the OntoNotes NER labels (exactly the paper's type
inventory), aliases and unambiguous pronouns are mapped to one canonical entity,
and relations are read from dependency patterns inside one sentence. Every
relation occurrence is the shortest contiguous span that expresses it and never
touches an entity mention, so the reconstruction step can mask it safely.
Negated, modal, conditional and hedged clauses give no relation (the prompt's
"no negation, hypotheticals, or speculation").

Predicate normal form (so that tense and voice variants merge):

* verbs: the past tense of the lemma, then particles and the preposition:
  "founded"/"founds" -> ``founded``; "works at"/"worked at" -> ``worked_at``;
  "grew up in" -> ``grew_up_in``; "wrote" -> ``wrote``.
* passive with an agent flips the direction and uses the active form:
  "Acme was founded by Alice" -> (Alice, ``founded``, Acme).
* passive without an agent keeps the participle: "was born in" -> ``born_in``,
  "is located in" -> ``located_in``.
* relational nouns (copula, apposition, possessive, compound): the singular noun
  with its compounds, then the preposition (``of`` when none):
  "is the capital of" -> ``capital_of``; "CEO of" -> ``ceo_of``;
  "Acme's founder Alice" -> (Alice, ``founder_of``, Acme); a place noun with
  in/of ("a city in") -> ``located_in``.
* finally :func:`normalize_predicate` makes it lower-case snake_case.

Occurrence spans: the verb group from its first auxiliary (modals excluded,
since those clauses are skipped) through the last particle or preposition
("was founded by", "works at", "is the capital of"); for apposition,
possessive and compound roles the noun phrase part ("CEO of", "founder").
Words between the verb and its preposition are kept ("played football for");
if an entity mention sits in between, or the span would exceed
``MAX_SPAN_TOKENS`` tokens, the triple is skipped; leading words are clipped
after the last mention before the verb.

The package's modules follow the steps: :mod:`.model` loads the pipeline and parses long texts in pieces,
:mod:`.names` and :mod:`.entities` build canonical entities, :mod:`.coref` resolves pronouns, :mod:`.patterns`
reads relations from the parse, :mod:`.inflect` normalizes predicates, :mod:`.document` ties them together.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from relguard.errors import ConfigTypeError
from relguard.extract.spacy.document import DocumentState
from relguard.extract.spacy.inflect import normalize_predicate
from relguard.extract.spacy.model import join_docs, load_pipeline, split_text
from relguard.types import Document, DocumentExtraction

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc

__all__ = ["SpacyExtractor", "normalize_predicate"]


class SpacyExtractor:
    """Entities, canonical triples and exact relation spans from a spaCy parse (no network, no GPU)."""

    name = "spacy"

    def __init__(self, model: str = "en_core_web_sm") -> None:
        self.nlp: Language = load_pipeline(model)
        meta = self.nlp.meta
        self.model_id = f"spacy:{meta.get('lang', 'xx')}_{meta.get('name', model)}-{meta.get('version', '0')}"

    def extract(self, document: Document) -> DocumentExtraction:
        """Extract one document (use :meth:`extract_many` for many: it batches the parser)."""
        return next(self.extract_many([document]))

    def extract_many(self, documents: Iterable[Document], *, batch_size: int = 64) -> Iterator[DocumentExtraction]:
        """Extract documents lazily, in input order, parsing all texts through one ``nlp.pipe``."""
        pending: deque[tuple[Document, int]] = deque()

        def texts() -> Iterator[str]:
            for document in documents:
                _check_document(document)
                pieces = split_text(document.text)
                pending.append((document, len(pieces)))
                yield from pieces

        parts: list[Doc] = []
        for parsed in self.nlp.pipe(texts(), batch_size=batch_size):
            parts.append(parsed)
            document, count = pending[0]
            if len(parts) < count:
                continue
            pending.popleft()
            doc = parts[0] if count == 1 else join_docs(parts)
            parts = []
            yield self.extract_doc(document, doc)

    def extract_doc(self, document: Document, doc: Doc) -> DocumentExtraction:
        """The post-parse step: sentences, canonical entities and triples of ``doc`` (a parse of the text)."""
        _check_document(document)
        if doc.text != document.text:
            raise ValueError(f"document {document.name!r}: the spaCy Doc is not a parse of this document's text")
        return DocumentState(document, doc).run()

    def provenance(self) -> dict:
        return {"backend": self.name}


def _check_document(document: object) -> None:
    if not isinstance(document, Document):
        raise ConfigTypeError(f"expected a relguard.types.Document, got {type(document).__name__}")
