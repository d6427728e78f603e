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

from relguard.extract.lowercase import typed_without_capitals
from relguard.extract.slots import first_mentioned
from relguard.extract.spacy import lexicon as lex
from relguard.extract.spacy.coref import Coreference
from relguard.extract.spacy.described import with_described_works
from relguard.extract.spacy.entities import EntityResolution
from relguard.extract.spacy.modifiers import positioned
from relguard.extract.spacy.patterns import SentenceRelations
from relguard.extract.spacy.spelled import joined_names, name_runs, role_word, spelled_labels
from relguard.extract.spacy.titles import as_team, broken_at, hyphen_glued, no_name, place_shape, quoted_titles, regnal
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
    from spacy.tokens import Doc, Span, Token

_ENTITY_TYPES = frozenset(ENTITY_TYPES)
#: Longest run of proper nouns taken as a name the NER missed; longer runs are titles or lists.
MAX_PROPER_WORDS = 4
_ARGUMENT_DEPS = frozenset({"nsubj", "nsubjpass", "dobj", "pobj", "appos", "conj", "attr", "dative", "compound"})
_Found = tuple[
    int, int, int, str, tuple[tuple[int, int], ...], tuple[str, ...]
]  # sentence, mentions, predicate, spans, roles


class DocumentState(EntityResolution, Coreference):
    """All per-document state; each step is a single pass so the cost stays linear in tokens."""

    def __init__(self, document: Document, doc: Doc, *, strict: bool = False) -> None:
        self.document = document
        self.doc = doc
        self.strict = strict  # the strict slot mode: slots are the stretches between mentions
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
        self.described: list[tuple[int, int]] = []  # titles their sentence describes as works (default mode)
        self.lower_typed = False  # typed without capitals (read by _sentences)

    def find(self, label_names: Callable[[list[str]], dict[str, str | None]] | None = None) -> DocumentState:
        """Sentences, canonical entities (with first-pass types), coreference and every relation slot.

        ``label_names`` maps names to the label the NER gives each on its own (:mod:`.retype`'s template); with it,
        proper-noun arguments the NER left out in context become mentions (:meth:`_proper_mentions`).
        """
        self._sentences()
        if not self.sentences:
            return self
        if self.strict and label_names is not None:
            self._spelled_mentions(label_names)
        else:
            self._named_mentions()
            if label_names is not None:
                self._proper_mentions(label_names)
            self._join_adjacent_names()
        entity_types, entity_names = self._canonical_entities()
        self.names = entity_names
        self.entity_types = entity_types
        if not self.strict:  # the strict mode found every capitalized name already, by its spelling
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
        typed = {entity for entity, kind in enumerate(types) if kind in _ENTITY_TYPES}
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
            if first not in typed or second not in typed:
                continue  # a capitalized run nothing typed (the strict mode): no mention
            if not first_mentioned(starts[(sentence, first)], starts[(sentence, second)]):
                first, second = second, first
            if first == second or (self.names[first], types[first]) == (self.names[second], types[second]):
                continue
            key = (self.names[first], types[first], predicate, self.names[second], types[second])
            for start, end in spans:
                found.setdefault(key, set()).add((sentence, start, end))
        extraction = DocumentExtraction(
            self.document,
            tuple(self.sentences),
            self._entities(types, self.names),
            self._triples(found),
            tuple(sorted(links, key=lambda link: (link.part, link.head, link.role != "tail"))),
        )
        return positioned(self, extraction, strict=self.strict)

    def mention_type(self, mention: int) -> str:
        return self.entity_types[self.mentions[mention][3]]

    # -- sentences and mentions

    def _sentences(self) -> None:
        """The parser's sentences, trimmed, with a sentence that begins in lower case after an abbreviation joined to
        the one before ("was asst. | dir. | at Acme": one sentence; a relation is never cut at "gen." or "mgr.")."""
        text = self.document.text
        merged: list[Span] = []
        self.lower_typed = typed_without_capitals(text)  # relguard/extract/lowercase.py
        joins = not self.lower_typed
        for sent in _punctuated(self.doc) if self.strict else self.doc.sents:
            if merged and joins and _continues(merged[-1], sent):
                merged[-1] = self.doc[merged[-1].start : sent.end]
            else:
                merged.append(sent)
        for sent in merged:
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

    def _join_adjacent_names(self) -> None:
        """Names the NER cut in two with nothing between ("Corvid" + "Media"): one mention, labelled as its last
        part (its head), so where a name ends does not depend on the verb before it ("sued" / "acquired"); and a
        name cut at a lower-case particle or a royal style's "of" ("Adalberto Pereira dos Santos", "Alfonso IV of
        Aragon"), labelled as its first part (:func:`~relguard.extract.spacy.spelled.joined_names`)."""
        joined, labels = joined_names(self.doc, self.mentions, self.labels)
        if len(joined) == len(self.mentions):
            return
        self.mentions, self.labels = [], []
        self.ment_of = [-1] * len(self.doc)
        for (start, end, _, entity), label in zip(joined, labels, strict=True):
            self._add_mention(start, end, entity)
            self.labels.append(label)

    def _add_mention(self, start: int, end: int, entity: int) -> int:
        index = len(self.mentions)
        self.mentions.append([start, end, self.sent_of[start], entity])
        for i in range(start, end):
            self.ment_of[i] = index
        return index

    def _spelled_mentions(self, label_names: Callable[[list[str]], dict[str, str | None]]) -> None:
        """The strict mode's mentions: capitalized runs, labelled by the name alone (:mod:`.spelled`)."""
        runs = [run for sent in self.sent_spans for run in name_runs(sent)]
        for (start, end), label in zip(runs, spelled_labels(self.doc, runs, label_names, name_shape), strict=True):
            self._add_mention(start, end, -1)
            self.labels.append(label)

    def _named_mentions(self) -> None:
        """NER entities of the inventory's types, trimmed of articles, punctuation, possessives and of a
        preposition or conjunction the model took into the name ("Acme in", "Paris and"); and quoted titles
        (:func:`~relguard.extract.spacy.titles.quoted_titles`), which replace the NER's pieces of them."""
        doc = self.doc
        titles = quoted_titles(self.doc, self.sent_spans)
        inside = {i for start, end in titles for i in range(start, end)}
        found: list[tuple[int, int, str]] = [(start, end, "WORK_OF_ART") for start, end in titles]
        lower_typed = self.lower_typed  # "nguyen thi lan": every word of a name is lower
        for ent in doc.ents:
            if ent.label_ not in _ENTITY_TYPES:
                continue
            start, end = ent.start, ent.end
            end = next((i for i in range(start + 1, end) if broken_at(doc, i, end)), end)
            if inside.intersection(range(start, end)):
                continue  # "Leave It to Joan": Joan is a word of the title, not a person
            while end - start > 1 and (doc[start].text in lex.LEADING_DETS or doc[start].is_punct):
                start += 1
            while end - start > 1 and (
                doc[end - 1].is_punct
                or doc[end - 1].tag_ == "POS"
                or doc[end - 1].pos_ in ("ADP", "CCONJ", "DET")
                or (doc[end - 1].is_lower and not lower_typed and not hyphen_glued(doc, start, end))  # "re-[joined]"
            ):
                end -= 1
            while (
                lower_typed and end < len(doc) and doc[end].pos_ == "PROPN" and self.sent_of[end] == self.sent_of[start]
            ):
                end += 1  # "nguyen thi [lan]": without capitals the NER cuts names short; the tagger still reads them
            while start < end and (role_word(doc, start) or doc[start].lower_ in ("of", "at", "-", ".")):
                start += 1  # "[Head of Treasury at] Acme", "CFO": a title is no name (relguard.extract.roles)
            while end > start and (role_word(doc, end - 1) or doc[end - 1].is_punct):
                end -= 1
            if start >= end or self.sent_of[start] < 0 or doc[start].is_punct or no_name(doc[start:end]):
                continue
            limit = self.sent_spans[self.sent_of[start]].end
            end, label = regnal(doc, start, *as_team(doc, end, ent.label_, limit), limit)
            found.append((start, end, label))
        found, self.described = (found, []) if self.strict else with_described_works(doc, self.sent_spans, found)
        for start, end, label in sorted(found):
            self._add_mention(start, end, -1)
            self.labels.append(label)

    def _proper_mentions(self, label_names: Callable[[list[str]], dict[str, str | None]]) -> None:
        """Proper-noun subjects and objects the NER did not label in context, labelled by name alone.

        The NER reads the words around a name, so "Globex was acquired by Acme Corp" finds Globex and "Globex
        acquired Acme Corp" does not, and the pair would get a slot in one wording only (invariant 11). A run of
        capitalized proper nouns that is an argument (subject, object, apposition, conjunct) or a compound
        modifier ("The Dragon Quest series"), and that the NER labels with an inventory type on its own
        (:data:`~relguard.extract.spacy.retype.TEMPLATE`) or that ends in a place's head word, is a mention.
        """
        doc, runs = self.doc, []
        common = {t.lower_ for t in doc if t.is_lower}
        name_word = self._spelled_name if self.strict else self._tagged_name
        i = 0
        while i < len(doc):
            if not name_word(doc[i]) or self.ment_of[i] >= 0 or role_word(doc, i):
                i += 1
                continue
            j = i
            while j < len(doc) and name_word(doc[j]) and self.ment_of[j] < 0 and not role_word(doc, j):
                j += 1
            while self.strict and i < j and doc[i].lower_ in lex.NAME_STOP_WORDS:
                i += 1  # "However Ana Ruiz": a sentence's first word is capitalized whatever it is
            if i < j and self._proper_run(i, j, common):
                runs.append((i, j))
            i = j
        if not runs:
            return
        labels = label_names(sorted({doc[i:j].text for i, j in runs}))
        for i, j in runs:
            label = labels.get(doc[i:j].text) or place_shape(doc[i:j]) or name_shape(doc[i:j])
            if label in _ENTITY_TYPES and self.sent_of[i] >= 0:
                self._add_mention(i, j, -1)
                self.labels.append(label)

    @staticmethod
    def _tagged_name(tok) -> bool:
        return tok.pos_ == "PROPN" and tok.text[:1].isupper()

    @staticmethod
    def _spelled_name(tok) -> bool:
        """A name's word by its spelling alone (the strict mode): the tagger reads the words around it."""
        return tok.is_alpha and (tok.is_title or (tok.is_upper and len(tok) > 1))

    def _proper_run(self, i: int, j: int, common: set[str]) -> bool:
        """Whether tokens ``i:j`` may name an entity: a short argument in one sentence, not a capitalized common
        noun ("the Board", "Chairman of the Board": one word after an article, or written in lower case too)."""
        doc = self.doc
        if j - i > MAX_PROPER_WORDS or (doc[i:j].root.dep_ not in _ARGUMENT_DEPS and not self.strict):
            return False  # in the strict mode a name is a name wherever the parse hangs it
        if self.sent_of[i] < 0 or self.sent_of[i] != self.sent_of[j - 1]:
            return False
        article = any(c.dep_ == "det" for c in doc[i].children)
        return not (no_name(doc[i:j], kinds=False) or (j - i == 1 and (article or doc[i].lower_ in common)))

    # -- output

    def _entities(self, types: list[str], names: list[str]) -> tuple[Entity, ...]:
        text = self.document.text
        grouped: list[list[Mention]] = [[] for _ in types]
        for start, end, sentence, entity in self.mentions:
            a, b = self.doc[start].idx, self.doc[end - 1].idx + len(self.doc[end - 1])
            grouped[entity].append(Mention(sentence, a, b, text[a:b]))
        merged: dict[tuple[str, str], list[Mention]] = {}
        for e in range(len(types)):
            if types[e] in _ENTITY_TYPES:
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


def _continues(before: Span, sent: Span) -> bool:
    """Whether ``sent`` goes on the sentence ``before``: that ends with a hyphen glued to its word, or with a short
    lower-case word and a full stop (an abbreviation: "gen.", "asst.", "dir.") and ``sent`` starts in lower case."""
    words = [t for t in before if not t.is_space]
    first = next((t for t in sent if not t.is_space), None)
    hyphen = bool(words) and words[-1].text[-1:] in ("-", "–")
    if hyphen and (len(words[-1]) > 1 or (len(words) > 1 and not words[-2].whitespace_)):
        return True  # "a 1961 Spanish- Mexican film": a hyphen glued to its word ends no sentence
    if first is not None and words and opens_what_follows(words, first):
        return True
    if first is None or not first.text[:1].islower() or not words:
        return False
    last = words[-1]
    if last.text.endswith(".") and len(last.text) > 1:
        return last.text[:-1].isalpha() and last.text[:-1].islower() and len(last.text) <= 6
    shortened = words[-2] if len(words) > 1 else None
    return (
        last.text == "."
        and shortened is not None
        and shortened.is_lower
        and shortened.is_alpha
        and len(shortened) <= 5
        and shortened.pos_ in ("PROPN", "NOUN", "X")
    )


def name_shape(words: Span) -> str | None:
    """A type for a name the NER does not know, from its spelling (the strict mode types every name it masks
    around): an organization's last word ("Corvid Media", "Quantix Labs"), else two or three capitalized words
    are a person ("Ana Ruiz", "Priyanka Das"); a single unknown word gets none."""
    tokens = [t for t in words if not t.is_space]
    if tokens and tokens[-1].lower_ in lex.ORG_HEADS | lex.ORG_SUFFIXES:
        return "ORG"
    if 2 <= len(tokens) <= 3 and all(t.is_alpha and t.is_title for t in tokens):
        return "PERSON"
    return None


def opens_what_follows(words: list[Token], first: Token) -> bool:
    """Whether ``words`` end in an abbreviation that opens what follows (``Ref.``, ``Dr.``; ``No.`` before a number),
    so the full stop after it ends no sentence (:data:`~relguard.extract.spacy.lexicon.OPENING_ABBREVIATIONS`)."""
    last = words[-1].text
    if last == "." and len(words) > 1:
        last = words[-2].text + "."
    stem = last[:-1].lower() if last.endswith(".") else ""
    return stem in lex.OPENING_ABBREVIATIONS or (stem in lex.NUMBER_ABBREVIATIONS and first.text[:1].isdigit())


def _punctuated(doc: Doc) -> list[Span]:
    """Sentences cut at their punctuation alone (the strict mode: the parser's cuts move with the words): after a
    full stop, "!" or "?" that a capital, a quote or a digit follows, and at a blank line."""
    sentences, start = [], 0
    for tok in doc[:-1]:
        following = doc[tok.i + 1]
        ends = tok.text in (".", "!", "?") or (tok.text.endswith(".") and len(tok.text) > 3 and tok.text[:-1].isalpha())
        if ends and opens_what_follows(list(doc[max(0, tok.i - 1) : tok.i + 1]), following):
            ends = False
        opens = following.text[:1].isupper() or following.text[:1] in ('"', "“", "'") or following.like_num
        if (ends and (opens or following.is_space)) or (tok.is_space and tok.text.count("\n") >= 2):
            if tok.i + 1 > start:
                sentences.append(doc[start : tok.i + 1])
            start = tok.i + 1
    if start < len(doc):
        sentences.append(doc[start:])
    return sentences
