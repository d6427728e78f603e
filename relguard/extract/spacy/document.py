"""All per-document state of the spaCy extractor, and the passes that turn a parse into a DocumentExtraction.

Two passes, so that the NER can be asked again, for a whole batch of documents at once, with the relation spans
masked: :meth:`DocumentState.find` reads sentences, entities, coreference and relation slots from the parse;
:meth:`DocumentState.finish` takes the entity types voted from the masked sentences (:mod:`.retype`), orients
each slot by mention order and builds the result. Each step is a single pass over the tokens, so the cost stays
linear in the document's length.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from relguard.extract.regions import pair_by_position
from relguard.extract.slots import first_mentioned
from relguard.extract.spacy import lexicon as lex
from relguard.extract.spacy.coref import Coreference
from relguard.extract.spacy.entities import EntityResolution
from relguard.extract.spacy.patterns import SentenceRelations
from relguard.types import (
    ENTITY_TYPES,
    Document,
    DocumentExtraction,
    Entity,
    Link,
    Mention,
    Occurrence,
    Sentence,
    Triple,
)

if TYPE_CHECKING:
    from spacy.tokens import Doc, Span

_ENTITY_TYPES = frozenset(ENTITY_TYPES)
#: Longest run of proper nouns taken as a name the NER missed; longer runs are titles or lists.
MAX_PROPER_WORDS = 4
_ARGUMENT_DEPS = frozenset({"nsubj", "nsubjpass", "dobj", "pobj", "appos", "conj", "attr", "dative"})
_Found = tuple[
    int, int, int, str, tuple[tuple[int, int], ...], tuple[str, ...]
]  # sentence, mentions, predicate, spans, roles


class DocumentState(EntityResolution, Coreference):
    """All per-document state; each step is a single pass so the cost stays linear in tokens."""

    def __init__(self, document: Document, doc: Doc) -> None:
        self.document = document
        self.doc = doc
        n = len(doc)
        self.sent_of = [-1] * n  # token -> our sentence index
        self.ment_of = [-1] * n  # token -> mention index
        self.mentions: list[list] = []  # [start_tok, end_tok, sentence, entity]; entity -1 until known
        self.sentences: list[Sentence] = []
        self.sent_spans: list[Span] = []
        self.labels: list[str] = []
        self.names: list[str] = []
        self.entity_types: list[str] = []
        self.found: list[_Found] = []

    def find(self, label_names: Callable[[list[str]], dict[str, str | None]] | None = None) -> DocumentState:
        """Sentences, canonical entities (with first-pass types), coreference and every relation slot.

        ``label_names`` maps names to the label the NER gives each on its own (:mod:`.retype`'s template); with it,
        proper-noun arguments the NER left out in context become mentions (:meth:`_proper_mentions`).
        """
        self._sentences()
        if not self.sentences:
            return self
        self._named_mentions()
        if label_names is not None:
            self._proper_mentions(label_names)
        entity_types, entity_names = self._canonical_entities()
        self.names = entity_names
        self.entity_types = entity_types
        self._repeated_names(entity_types)
        self._coreference(entity_types)
        cum = [0]
        for m in self.ment_of:
            cum.append(cum[-1] + (m >= 0))
        self.cum = cum
        for index, sent in enumerate(self.sent_spans):
            for a, b, predicate, spans, roles in SentenceRelations(self, sent).find():
                self.found.append((index, a, b, predicate, spans, roles))
        return self

    def finish(self, types: list[str] | None = None) -> DocumentExtraction:
        """The extraction, with ``types`` (one per entity; default the first-pass ones), each slot region standing
        for the pairs its position gives and oriented by mention order: the entity named first in the sentence is
        the subject (invariant 11, :func:`~relguard.extract.regions.pair_by_position`)."""
        if not self.sentences:
            return DocumentExtraction(self.document, (), (), ())
        types = list(types) if types is not None else self.entity_types
        starts: dict[tuple[int, int], list[int]] = {}
        for start, _, sentence, entity in self.mentions:
            starts.setdefault((sentence, entity), []).append(start)
        found: dict[tuple[str, str, str, str, str], set[tuple[int, int, int]]] = {}
        links: set[Link] = set()
        doc = self.doc
        for sentence, a, b, predicate, spans, roles in self.found:
            head = doc[spans[0][0]].idx
            links.update(
                Link(sentence, head, doc[start].idx, role)
                for (start, _), role in zip(spans, roles, strict=True)
                if role
            )
            first, second = self.mentions[a][3], self.mentions[b][3]
            if not first_mentioned(starts[(sentence, first)], starts[(sentence, second)]):
                first, second = second, first
            if first == second or (self.names[first], types[first]) == (self.names[second], types[second]):
                continue
            key = (self.names[first], types[first], predicate, self.names[second], types[second])
            for start, end in spans:
                found.setdefault(key, set()).add((sentence, start, end))
        return pair_by_position(
            DocumentExtraction(
                self.document,
                tuple(self.sentences),
                self._entities(types, self.names),
                self._triples(found),
                tuple(sorted(links, key=lambda link: (link.part, link.head, link.role != "tail"))),
            )
        )

    def mention_type(self, mention: int) -> str:
        return self.entity_types[self.mentions[mention][3]]

    # -- sentences and mentions

    def _sentences(self) -> None:
        text = self.document.text
        for sent in self.doc.sents:
            start, end = sent.start_char, sent.end_char
            while start < end and text[start].isspace():
                start += 1
            while end > start and text[end - 1].isspace():
                end -= 1
            if start == end:
                continue
            index = len(self.sentences)
            self.sentences.append(Sentence(index, start, end))
            self.sent_spans.append(sent)
            for i in range(sent.start, sent.end):
                self.sent_of[i] = index

    def _add_mention(self, start: int, end: int, entity: int) -> int:
        index = len(self.mentions)
        self.mentions.append([start, end, self.sent_of[start], entity])
        for i in range(start, end):
            self.ment_of[i] = index
        return index

    def _named_mentions(self) -> None:
        """NER entities of the inventory's types, trimmed of articles, punctuation, possessives and of a
        preposition or conjunction the model took into the name ("Acme in", "Paris and")."""
        doc = self.doc
        for ent in doc.ents:
            if ent.label_ not in _ENTITY_TYPES:
                continue
            start, end = ent.start, ent.end
            while end - start > 1 and (doc[start].text in lex.LEADING_DETS or doc[start].is_punct):
                start += 1
            while end - start > 1 and (
                doc[end - 1].is_punct or doc[end - 1].tag_ == "POS" or doc[end - 1].pos_ in ("ADP", "CCONJ", "DET")
            ):
                end -= 1
            if self.sent_of[start] < 0 or not doc[start:end].text.strip() or doc[start].is_punct:
                continue
            self._add_mention(start, end, -1)
            self.labels.append(ent.label_)

    def _proper_mentions(self, label_names: Callable[[list[str]], dict[str, str | None]]) -> None:
        """Proper-noun subjects and objects the NER did not label in context, labelled by name alone.

        The NER reads the words around a name, so "Globex was acquired by Acme Corp" finds Globex and "Globex
        acquired Acme Corp" does not, and the pair would get a slot in one wording only (invariant 11). A run of
        capitalized proper nouns that is an argument (subject, object, apposition, conjunct) and that the NER
        labels with an inventory type on its own (:data:`~relguard.extract.spacy.retype.TEMPLATE`) is a mention.
        """
        doc, runs = self.doc, []
        common = {t.lower_ for t in doc if t.is_lower}
        i = 0
        while i < len(doc):
            if doc[i].pos_ != "PROPN" or self.ment_of[i] >= 0 or not doc[i].text[:1].isupper():
                i += 1
                continue
            j = i
            while j < len(doc) and doc[j].pos_ == "PROPN" and self.ment_of[j] < 0 and doc[j].text[:1].isupper():
                j += 1
            if self._proper_run(i, j, common):
                runs.append((i, j))
            i = j
        if not runs:
            return
        labels = label_names(sorted({doc[i:j].text for i, j in runs}))
        for i, j in runs:
            label = labels.get(doc[i:j].text)
            if label in _ENTITY_TYPES and self.sent_of[i] >= 0:
                self._add_mention(i, j, -1)
                self.labels.append(label)

    def _proper_run(self, i: int, j: int, common: set[str]) -> bool:
        """Whether tokens ``i:j`` may name an entity: a short argument in one sentence, not a capitalized common
        noun ("the Board", "Chairman of the Board": one word after an article, or written in lower case too)."""
        doc = self.doc
        if j - i > MAX_PROPER_WORDS or doc[i:j].root.dep_ not in _ARGUMENT_DEPS:
            return False
        if self.sent_of[i] < 0 or self.sent_of[i] != self.sent_of[j - 1]:
            return False
        article = any(c.dep_ == "det" for c in doc[i].children)
        return not (j - i == 1 and (article or doc[i].lower_ in common))

    # -- output

    def _entities(self, types: list[str], names: list[str]) -> tuple[Entity, ...]:
        text = self.document.text
        grouped: list[list[Mention]] = [[] for _ in types]
        for start, end, sentence, entity in self.mentions:
            a, b = self.doc[start].idx, self.doc[end - 1].idx + len(self.doc[end - 1])
            grouped[entity].append(Mention(sentence, a, b, text[a:b]))
        merged: dict[tuple[str, str], list[Mention]] = {}
        for e in range(len(types)):
            merged.setdefault((names[e], types[e]), []).extend(grouped[e])
        return tuple(
            Entity(name, kind, tuple(sorted(mentions, key=lambda m: (m.start, m.end))))
            for (name, kind), mentions in merged.items()
        )

    def _triples(self, found: dict[tuple[str, str, str, str, str], set[tuple[int, int, int]]]) -> tuple[Triple, ...]:
        text, doc, name = self.document.text, self.doc, self.document.name
        triples = []
        for key in sorted(found):
            occurrences = []
            for sentence, a, b in sorted(found[key], key=lambda o: (o[1], o[2])):
                start, end = doc[a].idx, doc[b].idx + len(doc[b])
                occurrences.append(Occurrence(name, sentence, start, end, text[start:end]))
            triples.append(Triple(*key, occurrences=tuple(occurrences)))
        return tuple(triples)
