"""The data that flows through RelGuard, as frozen dataclasses.

Every object here is immutable so that cached extraction results, pools and
embeddings can be shared between the CLI, the app and the tests without one
caller changing what another sees. Character offsets always index into
``Document.text`` (Python ``str`` indices, i.e. code points).
"""

from __future__ import annotations

from dataclasses import dataclass, field

#: The OntoNotes entity-type inventory of the paper (Eq. 10), in the paper's order.
ENTITY_TYPES: tuple[str, ...] = (
    "PERSON",
    "NORP",
    "FAC",
    "ORG",
    "GPE",
    "LOC",
    "PRODUCT",
    "EVENT",
    "WORK_OF_ART",
    "LAW",
    "LANGUAGE",
)

TypePair = tuple[str, str]


@dataclass(frozen=True)
class Document:
    """One input document: a stable unique name and its text.

    ``source`` is the relative path the document came from and, for ``.jsonl``
    input, ``line`` its 1-based line number and ``fields`` the record's other
    fields as (key, JSON) pairs, so the sanitized corpus keeps the same layout.
    """

    name: str
    text: str
    source: str = ""
    line: int | None = None
    fields: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Sentence:
    """A sentence of a document as a character range ``text[start:end]``."""

    index: int
    start: int
    end: int


@dataclass(frozen=True)
class Mention:
    """One place where an entity is named (or referred to) in a document."""

    sentence: int
    start: int
    end: int
    text: str


@dataclass(frozen=True)
class Entity:
    """A canonical entity of one document: its canonical name, type and all mentions."""

    name: str
    type: str
    mentions: tuple[Mention, ...] = ()


@dataclass(frozen=True)
class Occurrence:
    """One place where a relation is expressed: the exact relation span, not the entity names.

    ``start``/``end`` are character offsets into the text of document ``document``;
    ``text`` equals ``document_text[start:end]`` and lies inside sentence ``sentence``.
    """

    document: str
    sentence: int
    start: int
    end: int
    text: str


@dataclass(frozen=True)
class Triple:
    """A canonical (subject, predicate, object) triple with every occurrence found.

    Two triples are the same canonical triple when their ``key`` is equal; the
    corpus-wide merge keys on it, so one outcome serves every occurrence
    (DESIGN invariant 6).
    """

    subject: str
    subject_type: str
    predicate: str
    object: str
    object_type: str
    occurrences: tuple[Occurrence, ...] = ()

    @property
    def key(self) -> tuple[str, str, str, str, str]:
        return (self.subject, self.subject_type, self.predicate, self.object, self.object_type)

    @property
    def type_pair(self) -> TypePair:
        return (self.subject_type, self.object_type)


@dataclass(frozen=True)
class DocumentExtraction:
    """What an extractor found in one document."""

    document: Document
    sentences: tuple[Sentence, ...]
    entities: tuple[Entity, ...]
    triples: tuple[Triple, ...]

    def sentence_text(self, index: int) -> str:
        s = self.sentences[index]
        return self.document.text[s.start : s.end]


@dataclass(frozen=True)
class Extraction:
    """A whole corpus after extraction: per-document results and canonical triples merged corpus-wide."""

    documents: tuple[DocumentExtraction, ...]
    triples: tuple[Triple, ...]
    extractor: str = ""

    @property
    def type_pairs(self) -> tuple[TypePair, ...]:
        return tuple(sorted({t.type_pair for t in self.triples}))


@dataclass(frozen=True)
class CandidatePool:
    """Exactly K public candidate predicates for one ordered type pair (DESIGN invariant 2)."""

    type_pair: TypePair
    predicates: tuple[str, ...]
    source: str

    @property
    def k(self) -> int:
        return len(self.predicates)


@dataclass(frozen=True)
class Outcome:
    """The sampled outcome for one canonical triple; ``predicate is None`` means null (deleted)."""

    triple: Triple
    predicate: str | None

    @property
    def deleted(self) -> bool:
        return self.predicate is None

    @property
    def unchanged(self) -> bool:
        return self.predicate == self.triple.predicate


@dataclass(frozen=True)
class SanitizedDocument:
    """A rewritten document and what happened to it; ``removed_sentences`` index the original sentences."""

    name: str
    text: str
    removed_sentences: tuple[int, ...] = ()
    filled_spans: int = 0


@dataclass(frozen=True)
class Guarantee:
    """The privacy guarantee that travels with a release (OpenDP style)."""

    epsilon: float
    lam: float
    k: int
    unit: str = (
        "one relation predicate on a fixed, aligned (subject, object) entity pair; "
        "Pr[M(r) in S] <= exp(epsilon * d_R(r, r')) * Pr[M(r') in S]"
    )
    document_level: str = (
        "for two documents differing only in relation expressions, the bound is "
        "exp(epsilon * sum_i d_R(r_i, r'_i)) (paper Eq. 8-9)"
    )
    private_release: bool = True
    rng: str = "OS entropy (OpenDP)"


@dataclass(frozen=True)
class Release:
    """A relation-DP release: sanitized documents, outcomes and the guarantee that produced them."""

    guarantee: Guarantee
    documents: tuple[SanitizedDocument, ...]
    outcomes: tuple[Outcome, ...]
    pools: tuple[CandidatePool, ...]
    extraction: Extraction
    provenance: dict = field(default_factory=dict, compare=False, hash=False)
