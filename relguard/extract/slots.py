"""Public-structure rules for relation slots, shared by every extractor (DESIGN invariant 11).

Which entity pairs get a slot, the entities' types (hence the pool) and the slot's direction must not depend on
the relation's words, or two documents that differ only in how a relation is worded would be told apart before
any outcome is drawn. The rules here read only what stays in the masked text — entity names and where they are:

* **pairs**: each slot region stands for the entities named nearest it (:mod:`relguard.extract.regions`);
* **direction**: the subject is the entity mentioned first in the sentence (:func:`first_mentioned`), so
  "Acme Corp was founded by Alice Smith" and "Acme Corp employs Alice Smith" both give ORG → PERSON and the
  predicate keeps its voice ("founded_by", "employs"); every pool holds both directions' predicates;
* **types**: a weighted vote over labels read with the relation spans masked (:func:`masked_text`, :func:`vote`),
  one type per canonical name across the whole corpus (:func:`align_corpus`);
* **names**: one canonical spelling per entity, without punctuation, determiners or prepositions at the edges
  (:func:`canonical_name`), and aliases that normalize alike merged across documents (:func:`name_key`).

Any extractor (the spaCy one now, the LLM one later) can call these on its own entities and spans.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

from relguard.extract import gazetteer
from relguard.types import UNSURE, DocumentExtraction, Entity, Triple

#: What replaces a relation span when entities are typed from the masked sentence: a neutral word that keeps the
#: sentence grammatical and names nothing, so the label a mention gets cannot come from the relation's words.
FILLER = "[REL]"
_EDGE_WORDS = frozenset({"the", "a", "an", "of", "in", "at", "on", "by", "for", "to", "from", "with", "and", "or"})
#: Legal-form suffixes: "Acme Corp." and "Acme" name one organization.
_LEGAL_SUFFIXES = frozenset(
    {"corp", "corporation", "inc", "incorporated", "ltd", "limited", "llc", "plc", "co", "gmbh", "ag", "sa", "nv"}
)
_PUNCT_EDGE = re.compile(r"^[\s\"'“”‘’(\[{,;:!?*•·–—-]+|[\s\"'“”‘’)\]},;:!?*•·–—-]+$")


def canonical_name(text: str) -> str:
    """One spelling of a name: control marks dropped, single spaces, no determiner, preposition or punctuation
    at the edges ("The Acme Corp.," → "Acme Corp"; "Acme in" → "Acme"; "U.S." keeps its dots)."""
    kept = "".join(c for c in text if unicodedata.category(c) not in ("Cc", "Cf") or c.isspace())
    words = " ".join(kept.split())
    before = None
    while words and words != before:
        before = words
        words = _PUNCT_EDGE.sub("", words)
        parts = words.split(" ")
        while len(parts) > 1 and parts[0].lower() in _EDGE_WORDS:
            parts = parts[1:]
        while len(parts) > 1 and parts[-1].lower() in _EDGE_WORDS:
            parts = parts[:-1]
        words = " ".join(parts)
        words = re.sub(r"['’]s$", "", words) if len(words) > 3 else words
        last = words.rsplit(" ", 1)[-1]
        if last.endswith(".") and "." not in last[:-1]:
            words = words[:-1]
    return words or " ".join(kept.split()) or text


def name_key(name: str) -> tuple[str, ...]:
    """The key under which two spellings are one entity: case-folded words, no punctuation or edge words, no
    legal-form suffix ("Acme Corp." = "ACME corporation" = "Acme"). The type is left out, so one name has one
    type wherever it appears."""
    text = unicodedata.normalize("NFKC", canonical_name(name)).casefold()
    words = tuple(re.findall(r"[^\W_]+", text))
    while len(words) > 1 and words[-1] in _LEGAL_SUFFIXES:
        words = words[:-1]
    return words


def first_mentioned(first: Sequence[int], second: Sequence[int]) -> bool:
    """Whether the entity with mention starts ``first`` is named before the one with ``second`` in a sentence:
    then it is the slot's subject. Positions survive masking, so the direction is public structure."""
    return min(first) < min(second)


def vote(votes: Mapping[str, float], tie: str | None = None) -> str | None:
    """The label with most weight; a tie goes to ``tie`` when it leads, else to the first label by name."""
    if not votes:
        return tie
    top = max(votes.values())
    leaders = sorted(label for label, weight in votes.items() if weight == top)
    return tie if tie in leaders else leaders[0]


def masked_text(text: str, spans: Iterable[tuple[int, int]], *, filler: str = FILLER) -> tuple[str, list[int]]:
    """``text`` with every span ``(start, end)`` (offsets into ``text``) replaced by ``filler``, and a map from each
    original offset to its offset in the masked text (so a mention can be found again after masking)."""
    pieces: list[str] = []
    offsets = [0] * (len(text) + 1)
    cursor = length = 0
    for start, end in sorted(set(spans)):
        if start < cursor:
            continue
        for i in range(cursor, start):
            offsets[i] = length + i - cursor
        pieces.append(text[cursor:start])
        length += start - cursor
        for i in range(start, end):
            offsets[i] = length
        pieces.append(filler)
        length += len(filler)
        cursor = end
    for i in range(cursor, len(text) + 1):
        offsets[i] = length + i - cursor
    pieces.append(text[cursor:])
    return "".join(pieces), offsets


def align_corpus(documents: Sequence[DocumentExtraction]) -> tuple[DocumentExtraction, ...]:
    """One canonical name and one type per entity across the corpus, so relation groups key alike everywhere.

    Names whose :func:`name_key` agree are one entity; its spelling is the commonest one (then the longest, then
    the first in order), its type the vote of its mentions over every document. Triples follow their entities;
    a triple whose two ends became one entity is dropped (an alias, not a relation).
    """
    alignment = EntityAlignment()
    for document in documents:
        alignment.add(document)
    return tuple(alignment.apply(document) for document in documents)


class EntityAlignment:
    """:func:`align_corpus` in two passes, for a batch run that cannot hold the corpus: :meth:`add` every
    document's entities as they stream past (a table of names, one row per entity, never the text), then
    :meth:`apply` to each document again. The counts are order-free, so any engine ends with the same table."""

    def __init__(self) -> None:
        self.spellings: dict[tuple[str, ...], dict[str, int]] = {}
        self.types: dict[tuple[str, ...], dict[str, float]] = {}
        self.keys: dict[tuple[str, str], tuple[str, ...]] = {}
        self._chosen: dict[tuple[str, ...], tuple[str, str]] | None = None

    def add(self, document: DocumentExtraction) -> None:
        self._chosen = None
        for entity in document.entities:
            key = _entity_key(entity)
            self.keys[(entity.name, entity.type)] = key
            count = max(1, len(entity.mentions))
            spelling = self.spellings.setdefault(key, {})
            spelling[entity.name] = spelling.get(entity.name, 0) + count
            tally = self.types.setdefault(key, {})
            tally[entity.type] = tally.get(entity.type, 0.0) + count

    def merge(self, other: EntityAlignment) -> None:
        """Add another partial table (from a worker that saw other documents)."""
        self._chosen = None
        self.keys.update(other.keys)
        for key, names in other.spellings.items():
            spelling = self.spellings.setdefault(key, {})
            for name, count in names.items():
                spelling[name] = spelling.get(name, 0) + count
        for key, votes in other.types.items():
            tally = self.types.setdefault(key, {})
            for kind, count in votes.items():
                tally[kind] = tally.get(kind, 0.0) + count

    @property
    def chosen(self) -> dict[tuple[str, ...], tuple[str, str]]:
        if self._chosen is None:
            self._chosen = {key: _canonical(names, self.types[key]) for key, names in self.spellings.items()}
        return self._chosen

    def apply(self, document: DocumentExtraction) -> DocumentExtraction:
        return _renamed(document, self.keys, self.chosen)


def _canonical(names: Mapping[str, int], votes: Mapping[str, float]) -> tuple[str, str]:
    """One entity's name (its commonest spelling, then the longest, then the first in order) and type: the corpus's
    vote, a GPE made a city, a region or a country where the name alone says which
    (:func:`~relguard.extract.gazetteer.place_kind`)."""
    name = max(names, key=lambda n: (names[n], len(n), n))
    return name, gazetteer.place_kind(name, _corpus_type(votes))


def _corpus_type(votes: Mapping[str, float]) -> str:
    """The type the corpus gives one entity: where some document's public evidence settled its kind, that kind
    outvotes the documents where nothing did (:data:`~relguard.types.UNSURE`)."""
    sure = {kind: weight for kind, weight in votes.items() if kind != UNSURE}
    return vote(sure or votes) or ""


def _entity_key(entity: Entity) -> tuple[str, ...]:
    return name_key(entity.name) or (entity.name,)


def _renamed(
    document: DocumentExtraction,
    keys: Mapping[tuple[str, str], tuple[str, ...]],
    chosen: Mapping[tuple[str, ...], tuple[str, str]],
) -> DocumentExtraction:
    def target(name: str, entity_type: str) -> tuple[str, str]:
        return chosen[keys[(name, entity_type)]]

    merged: dict[tuple[str, str], list] = {}
    for entity in document.entities:
        merged.setdefault(target(entity.name, entity.type), []).extend(entity.mentions)
    entities = tuple(
        Entity(name, kind, tuple(sorted(set(mentions), key=lambda m: (m.start, m.end))))
        for (name, kind), mentions in merged.items()
    )
    triples: dict[tuple[str, str, str, str, str], set] = {}
    for triple in document.triples:
        subject, subject_type = target(triple.subject, triple.subject_type)
        obj, object_type = target(triple.object, triple.object_type)
        if (subject, subject_type) == (obj, object_type):
            continue
        key = (subject, subject_type, triple.predicate, obj, object_type)
        triples.setdefault(key, set()).update(triple.occurrences)
    rebuilt = tuple(
        Triple(*key, occurrences=tuple(sorted(found, key=lambda o: (o.start, o.end))))
        for key, found in sorted(triples.items())
    )
    if entities == document.entities and rebuilt == document.triples:
        return document
    return replace(document, entities=entities, triples=rebuilt)
