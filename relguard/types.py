"""The data that flows through RelGuard, as frozen dataclasses.

Every object here is immutable so that cached extraction results, pools and
embeddings can be shared between the CLI, the app and the tests without one
caller changing what another sees. Character offsets always index into
``Document.text`` (Python ``str`` indices, i.e. code points).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

#: The OntoNotes entity-type inventory of the paper (Eq. 10), in the paper's order.
NER_TYPES: tuple[str, ...] = (
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
#: A named entity whose kind nothing public settles: the NER alone labels it, and the NER alone is wrong about a
#: third of such names (a chart typed ORG, a town typed PERSON). Its pools hold predicates true of any kind, so a
#: drawn relation is one that could be true of its pair whatever the entity turns out to be.
UNSURE = "ENTITY"
#: Finer kinds of a GPE that the name alone settles (a public gazetteer, :mod:`relguard.extract.gazetteer`): a city
#: is no trade partner of a country, nor a country "located in" a city, so the pools of places need the kind.
#: Each is a GPE wherever the type's family is what matters (:func:`relguard.kinds.coarse_type`).
PLACE_KINDS: dict[str, str] = {"CITY": "GPE", "REGION": "GPE", "COUNTRY": "GPE"}
#: A prize, a medal or a trophy, as its own name says ("Academy Award", "Nobel Prize", "Distinguished Service
#: Medal"): a work of art among the paper's types, whose pools ("wrote", "directed", "adapted") cannot hold of one.
AWARD = "AWARD"
#: The finer kinds and the paper's type each belongs to (:func:`relguard.kinds.coarse_type`).
FINER_KINDS: dict[str, str] = {**PLACE_KINDS, AWARD: "WORK_OF_ART"}
#: Every type a pool is keyed by: the paper's eleven, the finer kinds and :data:`UNSURE`.
ENTITY_TYPES: tuple[str, ...] = (*NER_TYPES, *FINER_KINDS, UNSURE)


TypePair = tuple[str, str]
#: The public wordings of a sampled predicate for a type pair (a pool backend's ``forms``).
Forms = Callable[[str, TypePair], Mapping[str, str | None]]


@dataclass(frozen=True)
class Document:
    """One input document: a stable unique name and its text.

    ``source`` is the relative path the document came from and, for ``.jsonl``
    input, ``line`` its 1-based line number and ``fields`` the record's other
    fields as (key, JSON) pairs, so the sanitized corpus keeps the same layout.
    ``left_out`` names the record's fields that are not released (strings nobody
    asked to keep as written, :func:`relguard.io.rows.record_fields`).
    """

    name: str
    text: str
    source: str = ""
    line: int | None = None
    fields: tuple[tuple[str, str], ...] = ()
    left_out: tuple[str, ...] = ()


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


class InvalidOccurrence(ValueError):
    """An extractor built a span that cannot be masked safely: a bug in that extractor, caught where it is built."""


@dataclass(frozen=True)
class Occurrence:
    """One place where a relation is expressed: the exact relation span, not the entity names.

    ``start``/``end`` are character offsets into the text of document ``document``;
    ``text`` equals ``document_text[start:end]`` and lies inside sentence ``sentence``.
    The span is checked where it is built (non-empty, not blank, no surrounding whitespace, ``text`` as long
    as its range) and :class:`DocumentExtraction` checks it against the document, so an extractor that makes
    an empty or reversed span fails in its own tests instead of leaving relation words unmasked in a release.
    """

    document: str
    sentence: int
    start: int
    end: int
    text: str

    def __post_init__(self) -> None:
        if not 0 <= self.start < self.end:
            raise InvalidOccurrence(
                f"{self.document}: relation span {self.text!r} at {self.start}-{self.end} is empty or reversed"
            )
        if len(self.text) != self.end - self.start or not self.text.strip() or self.text != self.text.strip():
            raise InvalidOccurrence(
                f"{self.document}: relation span {self.text!r} at {self.start}-{self.end} is blank, "
                "has surrounding whitespace or does not fill its range"
            )


#: (subject, subject type, object, object type): the aligned, directed entity pair of a relation slot.
PairKey = tuple[str, str, str, str]


class _EntityPair:
    """The aligned, directed entity pair a triple and its relation group both name: one definition of its keys."""

    subject: str
    subject_type: str
    object: str
    object_type: str

    @property
    def pair_key(self) -> PairKey:
        """The public key of the relation group: the aligned entity pair, no predicate."""
        return (self.subject, self.subject_type, self.object, self.object_type)

    @property
    def type_pair(self) -> TypePair:
        return (self.subject_type, self.object_type)


@dataclass(frozen=True)
class Triple(_EntityPair):
    """A canonical (subject, predicate, object) triple with every occurrence found.

    Triples are what an extractor reports. They are *not* the unit of sampling: every triple on one aligned
    entity pair belongs to one :class:`RelationGroup`, whose key leaves the predicate out (DESIGN invariant 6).
    """

    subject: str
    subject_type: str
    predicate: str
    object: str
    object_type: str
    occurrences: tuple[Occurrence, ...] = ()

    @property
    def key(self) -> tuple[str, str, str, str, str]:
        """The full key, predicate included: merges one triple's occurrences; never decides a sample."""
        return (self.subject, self.subject_type, self.predicate, self.object, self.object_type)


@dataclass(frozen=True)
class RelationGroup(_EntityPair):
    """Every relation the corpus states on one aligned entity pair; they share one sampled outcome.

    The key is public information only — canonical subject and object, their types and the direction
    (subject first) — so whether two occurrences share an outcome never reveals whether their original
    predicates were equal (DESIGN invariant 6). ``triples`` are the group's canonical triples, one per
    distinct original predicate, sorted by predicate; they are confidential, as the predicates are.
    """

    subject: str
    subject_type: str
    object: str
    object_type: str
    triples: tuple[Triple, ...]

    def __post_init__(self) -> None:
        if not self.triples:
            raise ValueError(f"relation group {self.key} has no triples")
        for triple in self.triples:
            if triple.pair_key != self.key:
                raise ValueError(f"triple {triple.key} does not belong to relation group {self.key}")

    @property
    def key(self) -> PairKey:
        return self.pair_key

    @property
    def predicates(self) -> tuple[str, ...]:
        return tuple(t.predicate for t in self.triples)

    @property
    def occurrences(self) -> tuple[Occurrence, ...]:
        return tuple(sorted((o for t in self.triples for o in t.occurrences), key=_occurrence_order))

    @property
    def documents(self) -> tuple[str, ...]:
        return tuple(sorted({o.document for t in self.triples for o in t.occurrences}))

    @property
    def label(self) -> str:
        """How a person names the group without its (confidential) predicates."""
        return f"{self.subject} [{self.subject_type}] → {self.object} [{self.object_type}]"


def _occurrence_order(occurrence: Occurrence) -> tuple[str, int, int]:
    return (occurrence.document, occurrence.start, occurrence.end)


@dataclass(frozen=True)
class Link:
    """Two spans of one relation expression that text lies between ("was founded [in 1777] by"): the later
    ``part`` is filled from the head's outcome — its closing preposition (``role`` "tail") or nothing
    ("removed", a coordinated verb the head's fill already states). ``head`` and ``part`` are character offsets
    inside the two spans. Where the parts are is read from the wording, like every span of the default mode."""

    sentence: int
    head: int
    part: int
    role: str


@dataclass(frozen=True)
class DocumentExtraction:
    """What an extractor found in one document.

    Construction checks every sentence and occurrence against the document text, so a bad span fails where
    the extractor made it rather than in masking or, worse, in a release. ``stretches`` marks the strict slot
    mode: every slot is the whole stretch between two adjacent mentions (:mod:`relguard.extract.stretches`).
    """

    document: Document
    sentences: tuple[Sentence, ...]
    entities: tuple[Entity, ...]
    triples: tuple[Triple, ...]
    links: tuple[Link, ...] = ()
    stretches: bool = False

    def __post_init__(self) -> None:
        text, name = self.document.text, self.document.name
        for number, sentence in enumerate(self.sentences):
            if sentence.index != number or not 0 <= sentence.start < sentence.end <= len(text):
                raise InvalidOccurrence(f"{name}: sentence {number} at {sentence.start}-{sentence.end} is invalid")
        for triple in self.triples:
            for occ in triple.occurrences:
                if occ.document != name:
                    raise InvalidOccurrence(f"{name}: relation span {occ.text!r} names document {occ.document!r}")
                if not 0 <= occ.sentence < len(self.sentences):
                    raise InvalidOccurrence(f"{name}: relation span {occ.text!r} names no sentence ({occ.sentence})")
                bounds = self.sentences[occ.sentence]
                if text[occ.start : occ.end] != occ.text or not bounds.start <= occ.start < occ.end <= bounds.end:
                    raise InvalidOccurrence(
                        f"{name}: relation span {occ.text!r} at {occ.start}-{occ.end} is not that text of "
                        f"sentence {occ.sentence}"
                    )

    def sentence_text(self, index: int) -> str:
        s = self.sentences[index]
        return self.document.text[s.start : s.end]


@dataclass(frozen=True)
class Extraction:
    """A whole corpus after extraction: per-document results and the relation groups merged corpus-wide.

    ``groups`` are sorted by their public key. That order is the row order of every probability table and
    the order in which outcomes are drawn, so a teaching seed gives the same draw to corpora that differ
    only in how their relations are worded.
    """

    documents: tuple[DocumentExtraction, ...]
    groups: tuple[RelationGroup, ...]
    extractor: str = ""

    @property
    def triples(self) -> tuple[Triple, ...]:
        """Every canonical triple, group by group (confidential: they hold the original predicates)."""
        return tuple(t for g in self.groups for t in g.triples)

    @property
    def type_pairs(self) -> tuple[TypePair, ...]:
        return tuple(sorted({g.type_pair for g in self.groups}))


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
    """The sampled outcome for one relation group; ``predicate is None`` means null (deleted)."""

    group: RelationGroup
    predicate: str | None

    @property
    def deleted(self) -> bool:
        return self.predicate is None

    def kept(self, triple: Triple) -> bool:
        """Whether the sample equals this triple's original predicate (confidential: it needs the original)."""
        return self.predicate == triple.predicate


@dataclass(frozen=True)
class SanitizedDocument:
    """A rewritten document and what happened to it; sentence numbers index the original sentences.

    ``removed_sentences`` were deleted by a null outcome; ``withheld_sentences`` were taken out by the last
    safety net, the leak scan, because they still held an original relation (:mod:`relguard.release.leakscan`);
    ``unfillable_sentences`` were deleted because no form of a sampled predicate fits a slot's frame there, or the
    filled sentence read back has a fill where no phrase of its shape is English (:mod:`relguard.rewrite.guard`):
    a function of the masked text and the outcomes, so public. ``restated_sentences`` were unfillable too and
    replaced by a plain statement of their drawn relations, after their opening words where those read alone
    (:mod:`relguard.rewrite.restate`), public alike. ``connected_sentences`` kept their words with a neutral
    connector in each slot and have their drawn relations stated after them (:mod:`relguard.rewrite.neutral`).
    ``slots`` are the ``[start, end)`` character ranges of ``text`` where a fill wrote the words of a drawn
    predicate (:mod:`relguard.engine.marks`): where they are follows from the masked text and the outcomes alone.
    """

    name: str
    text: str
    removed_sentences: tuple[int, ...] = ()
    filled_spans: int = 0
    withheld_sentences: tuple[int, ...] = ()
    unfillable_sentences: tuple[int, ...] = ()
    slots: tuple[tuple[int, int], ...] = ()
    restated_sentences: tuple[int, ...] = ()
    connected_sentences: tuple[int, ...] = ()

    @property
    def gone_sentences(self) -> tuple[int, ...]:
        """Every sentence the text no longer holds: removed, unfillable with nothing to restate, or withheld (a
        restated sentence is replaced, not gone)."""
        return tuple(sorted({*self.removed_sentences, *self.unfillable_sentences, *self.withheld_sentences}))


@dataclass(frozen=True)
class Guarantee:
    """The privacy guarantee that travels with a release (OpenDP style); ``seed`` is a teaching draw's seed.

    ``entity_epsilon`` is the per-entity budget E when one was set: each group g was then drawn at its own
    ε_g = E / max(n(s), n(o)) ≤ E = ``epsilon`` (:mod:`relguard.privacy.entity`).
    """

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
    seed: int | None = None
    entity_epsilon: float | None = None


@dataclass(frozen=True)
class Release:
    """A relation-DP release: sanitized documents, outcomes and the guarantee that produced them.

    ``provenance`` is public (it goes into the report); ``confidential`` holds what depends on the original
    text — input digests, LLM usage, withheld sentences — and only ever reaches the confidential mapping file.
    ``forms`` are the public wordings of the pool backend the fills used, which the export's leak scan reads.
    """

    guarantee: Guarantee
    documents: tuple[SanitizedDocument, ...]
    outcomes: tuple[Outcome, ...]
    pools: tuple[CandidatePool, ...]
    extraction: Extraction
    provenance: dict = field(default_factory=dict, compare=False, hash=False)
    confidential: dict = field(default_factory=dict, compare=False, hash=False, repr=False)
    forms: Forms | None = field(default=None, compare=False, hash=False, repr=False)
