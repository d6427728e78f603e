"""All per-document state of the spaCy extractor, and the pass that turns a parse into a DocumentExtraction.

Each step is a single pass over the tokens, so the cost stays linear in the document's length."""

from __future__ import annotations

from typing import TYPE_CHECKING

from relguard.extract.spacy import lexicon as lex
from relguard.extract.spacy.coref import Coreference
from relguard.extract.spacy.entities import EntityResolution
from relguard.extract.spacy.patterns import SentenceRelations
from relguard.types import ENTITY_TYPES, Document, DocumentExtraction, Entity, Mention, Occurrence, Sentence, Triple

if TYPE_CHECKING:
    from spacy.tokens import Doc, Span

_ENTITY_TYPES = frozenset(ENTITY_TYPES)


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

    def run(self) -> DocumentExtraction:
        self._sentences()
        if not self.sentences:
            return DocumentExtraction(self.document, (), (), ())
        self._named_mentions()
        entity_types, entity_names = self._canonical_entities()
        self.names = entity_names
        self._repeated_names(entity_types)
        self._coreference(entity_types)
        cum = [0]
        for m in self.ment_of:
            cum.append(cum[-1] + (m >= 0))
        self.cum = cum
        self.entity_types = entity_types
        found: dict[tuple[str, str, str, str, str], set[tuple[int, int, int]]] = {}
        for index, sent in enumerate(self.sent_spans):
            for subj, pred, obj, a, b in SentenceRelations(self, sent).find():
                es, eo = self.mentions[subj][3], self.mentions[obj][3]
                if es == eo or es < 0 or eo < 0:
                    continue
                key = (entity_names[es], entity_types[es], pred, entity_names[eo], entity_types[eo])
                found.setdefault(key, set()).add((index, a, b))
        return DocumentExtraction(
            self.document, tuple(self.sentences), self._entities(entity_types, entity_names), self._triples(found)
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
        doc = self.doc
        self.labels: list[str] = []
        for ent in doc.ents:
            if ent.label_ not in _ENTITY_TYPES:
                continue
            start, end = ent.start, ent.end
            while end - start > 1 and (doc[start].text in lex.LEADING_DETS or doc[start].is_punct):
                start += 1
            while end - start > 1 and (doc[end - 1].is_punct or doc[end - 1].tag_ == "POS"):
                end -= 1
            if self.sent_of[start] < 0 or not doc[start:end].text.strip():
                continue
            self._add_mention(start, end, -1)
            self.labels.append(ent.label_)

    # -- output

    def _entities(self, types: list[str], names: list[str]) -> tuple[Entity, ...]:
        text = self.document.text
        grouped: list[list[Mention]] = [[] for _ in types]
        for start, end, sentence, entity in self.mentions:
            a, b = self.doc[start].idx, self.doc[end - 1].idx + len(self.doc[end - 1])
            grouped[entity].append(Mention(sentence, a, b, text[a:b]))
        return tuple(
            Entity(names[e], types[e], tuple(sorted(grouped[e], key=lambda m: (m.start, m.end))))
            for e in range(len(types))
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
