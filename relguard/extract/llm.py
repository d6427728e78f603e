"""The ``llm`` extractor: the paper's extraction prompt (Fig. 4) over any OpenAI-compatible endpoint.

Nothing the model says is trusted. The document is split into sentences here (punctuation rules,
one printed line per sentence, no model) and printed numbered; the reply must be JSON of
the Fig. 4 shape, and every occurrence must name a printed sentence and copy a substring of it exactly.
A span that is not in its sentence, a sentence number outside the window, a span that is a bare function
word or covers an endpoint's name, an endpoint that is not a listed entity, and an entity whose type is not
in the inventory are all dropped and counted (:attr:`LLMExtractor.dropped`), never repaired by guessing.

Entity types come from a separate call that sees only canonical names and the inventory (paper §5.2),
cached per name, so one name has one type in the whole corpus. Long documents are sent in windows of
sentences (numbering stays document-wide); the canonical names found in earlier windows are given to the
next, and names that differ only in case or spacing are merged, so canonicalisation stays consistent.
Finished documents are cached on disk (keyed by model, prompt versions, window size and text), so a
failed run resumes where it stopped.
"""

from __future__ import annotations

import re
import threading
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from relguard.errors import ConfigTypeError
from relguard.extract.spacy import normalize_predicate
from relguard.extract.spacy.lexicon import FUNCTION_WORDS
from relguard.llm import prompts
from relguard.llm.cache import JsonCache, key_of
from relguard.llm.client import LLMClient, LLMConfig, LLMError, Usage, get_client
from relguard.llm.schemas import ExtractionReply, InvalidReply, TypingReply, parse
from relguard.llm.windows import split_sentences, windows
from relguard.types import ENTITY_TYPES, Document, DocumentExtraction, Entity, Mention, Occurrence, Sentence, Triple

WINDOW_SENTENCES = 40
WINDOW_CHARS = 12_000
TYPING_BATCH = 50
_BARE = FUNCTION_WORDS | {"of", "in", "at", "on", "by", "for", "with", "from", "and", "'s", "s"}
_TYPE_ALIASES = {t.replace("_", " "): t for t in ENTITY_TYPES} | {"ORGANIZATION": "ORG", "LOCATION": "LOC"}

#: Why an item of a reply was dropped; each has a counter in ``LLMExtractor.dropped``.
DROP_REASONS = (
    "sentence_out_of_range",
    "span_not_in_sentence",
    "span_bare_function_word",
    "span_covers_entity",
    "endpoint_not_listed",
    "self_relation",
    "bad_predicate",
    "entity_not_in_inventory",
    "triple_without_occurrence",
)


def _line(text: str) -> str:
    """A sentence as printed: whitespace characters become spaces one for one, so offsets carry over."""
    return re.sub(r"\s", " ", text)


def _name_key(name: str) -> str:
    return " ".join(name.split()).casefold()


def _find_all(haystack: str, needle: str) -> list[int]:
    found, at = [], haystack.find(needle)
    while at >= 0 and needle:
        found.append(at)
        at = haystack.find(needle, at + 1)
    return found


def _name_ranges(sentence: str, name: str) -> list[tuple[int, int]]:
    pattern = r"(?<!\w)" + re.escape(name) + r"(?!\w)"
    return [(m.start(), m.end()) for m in re.finditer(pattern, sentence)]


@dataclass
class _Draft:
    """Raw triples of one document, keyed by canonical names, before typing."""

    names: dict[str, str]  # name key -> canonical name (first spelling seen)
    found: dict[tuple[str, str, str], set[tuple[int, int, int]]]


class LLMExtractor:
    """Fig. 4 extraction with checked spans, separate entity typing, windows and a resumable cache."""

    name = "llm"

    def __init__(
        self,
        config: LLMConfig | None = None,
        *,
        client: LLMClient | None = None,
        window_sentences: int = WINDOW_SENTENCES,
        window_chars: int = WINDOW_CHARS,
        cache: bool = True,
        cache_root: str | Path | None = None,
        **options: Any,
    ) -> None:
        self.config = config or (client.config if client else LLMConfig.from_env(**options))
        self._client = client or get_client(self.config)
        self.window_sentences = window_sentences
        self.window_chars = window_chars
        self.usage = Usage()
        self.dropped: Counter[str] = Counter()
        self._lock = threading.Lock()
        self._documents = JsonCache(cache_root, "extract", enabled=cache, private=True)
        self._types = JsonCache(cache_root, "typing", enabled=cache)
        self._type_memo: dict[str, str | None] = {}
        self.model_id = f"llm:{self.config.model}@{prompts.EXTRACT_VERSION}+{prompts.TYPING_VERSION}"

    @property
    def client(self) -> LLMClient:
        return self._client

    # -- public API (same as SpacyExtractor)

    def extract(self, document: Document) -> DocumentExtraction:
        return next(self.extract_many([document]))

    def extract_many(self, documents: Iterable[Document]) -> Iterator[DocumentExtraction]:
        """Documents in input order; up to ``max_concurrency`` documents are in flight at once."""
        documents = list(documents)
        for document in documents:
            if not isinstance(document, Document):
                raise ConfigTypeError(f"expected a relguard.types.Document, got {type(document).__name__}")
        workers = min(self.config.max_concurrency, max(1, len(documents)))
        done = 0
        with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="relguard-llm") as pool:
            futures = [pool.submit(self._extract_one, d) for d in documents]
            try:
                for future in futures:
                    yield future.result()
                    done += 1
            except LLMError as exc:
                for future in futures:
                    future.cancel()
                raise LLMError(
                    f"{exc} — {done} of {len(documents)} documents were finished before the failure and are "
                    "cached; run the same command again to resume"
                ) from exc

    def cache_key(self, document: Document) -> str:
        return key_of(
            "extract",
            self.config.model,
            prompts.EXTRACT_VERSION,
            prompts.TYPING_VERSION,
            self.window_sentences,
            self.window_chars,
            document.text,
        )

    def is_cached(self, document: Document) -> bool:
        return self._documents.get(self.cache_key(document)) is not None

    def provenance(self) -> dict:
        """What the report says about this backend: model, prompt versions, calls, tokens, drops."""
        return {
            "backend": "llm",
            "model": self.config.model,
            "prompt_versions": {"extraction": prompts.EXTRACT_VERSION, "typing": prompts.TYPING_VERSION},
            "window_sentences": self.window_sentences,
            "calls": self.usage.total("calls"),
            "prompt_tokens": self.usage.total("prompt_tokens"),
            "completion_tokens": self.usage.total("completion_tokens"),
            "usage": self.usage.snapshot(),
            "dropped": dict(sorted(self.dropped.items())),
        }

    # -- one document

    def _extract_one(self, document: Document) -> DocumentExtraction:
        key = self.cache_key(document)
        cached = self._documents.get(key)
        if cached is not None:
            self.usage.add("extract", cache_hits=1)
            return _restore(document, cached)
        text = document.text
        sentences = split_sentences(text)
        draft = _Draft({}, {})
        for first, last in windows(text, sentences, size=self.window_sentences, chars=self.window_chars):
            self._window(document, sentences, first, last, draft)
        types = self._type_names(sorted({n for s, _, o in draft.found for n in (s, o)}))
        result = self._assemble(document, sentences, draft, types)
        self._documents.put(key, _dump(result))
        return result

    def _window(self, document: Document, sentences: Sequence[Sentence], first: int, last: int, draft: _Draft):
        lines = [_line(document.text[s.start : s.end]) for s in sentences[first:last]]
        messages = prompts.extraction_messages(lines, first=first + 1, known=list(draft.names.values()))
        reply = self.client.ask_json(messages, lambda t: parse(t, ExtractionReply), purpose="extract", usage=self.usage)
        for entity in reply.entities:
            name = " ".join(entity.name.split())
            if name:
                draft.names.setdefault(_name_key(name), name)
        known = set(draft.names)
        for item in reply.triples:
            subject = draft.names.get(_name_key(item.subject)) if _name_key(item.subject) in known else None
            obj = draft.names.get(_name_key(item.object)) if _name_key(item.object) in known else None
            if subject is None or obj is None:
                self._drop("endpoint_not_listed")
                continue
            if subject == obj:
                self._drop("self_relation")
                continue
            try:
                predicate = normalize_predicate(item.relation)
            except ValueError:
                self._drop("bad_predicate")
                continue
            spans = set()
            for occ in item.occurrences:
                span = self._locate(document.text, sentences, first, last, occ.sentence, occ.predicate, subject, obj)
                if span is not None:
                    spans.add(span)
            if not spans:
                self._drop("triple_without_occurrence")
                continue
            draft.found.setdefault((subject, predicate, obj), set()).update(spans)

    def _locate(self, text, sentences, first, last, number, substring, subject, obj) -> tuple[int, int, int] | None:
        """Check one occurrence against its sentence; returns (sentence, start, end) or None (counted)."""
        index = number - 1
        if not first <= index < last:
            self._drop("sentence_out_of_range")
            return None
        sent = sentences[index]
        line = _line(text[sent.start : sent.end])
        needle = substring.strip()
        starts = _find_all(line, needle)
        if not starts:
            self._drop("span_not_in_sentence")
            return None
        if not re.search(r"\w", needle) or all(w in _BARE for w in re.findall(r"\w+", needle.casefold())):
            self._drop("span_bare_function_word")
            return None
        names = [r for n in (subject, obj) for r in _name_ranges(line, n)]
        for at in starts:
            end = at + len(needle)
            if not any(a < end and at < b for a, b in names):
                return (index, sent.start + at, sent.start + end)
        self._drop("span_covers_entity")
        return None

    def _type_names(self, names: Sequence[str]) -> dict[str, str | None]:
        """Types from canonical names alone (own call, cached per name and model)."""
        result: dict[str, str | None] = {}
        missing: list[str] = []
        for name in names:
            key = key_of("typing", self.config.model, prompts.TYPING_VERSION, name)
            with self._lock:
                memo = self._type_memo.get(key, "")
            if memo != "":
                result[name] = memo
                continue
            cached = self._types.get(key)
            if cached is not None:
                self.usage.add("typing", cache_hits=1)
                result[name] = cached["type"]
            else:
                missing.append(name)
        for start in range(0, len(missing), TYPING_BATCH):
            batch = missing[start : start + TYPING_BATCH]
            reply = self.client.ask_json(
                prompts.typing_messages(batch), lambda t: _typing(t), purpose="typing", usage=self.usage
            )
            answered = {_name_key(item.name): _entity_type(item.type) for item in reply.types}
            for name in batch:
                entity_type = answered.get(_name_key(name))
                result[name] = entity_type
                key = key_of("typing", self.config.model, prompts.TYPING_VERSION, name)
                if _name_key(name) in answered:
                    self._types.put(key, {"name": name, "type": entity_type})
        with self._lock:
            for name, entity_type in result.items():
                self._type_memo[key_of("typing", self.config.model, prompts.TYPING_VERSION, name)] = entity_type
        return result

    def _assemble(self, document: Document, sentences, draft: _Draft, types) -> DocumentExtraction:
        text, name = document.text, document.name
        triples = []
        used: set[str] = set()
        for (subject, predicate, obj), spans in sorted(draft.found.items()):
            if types.get(subject) is None or types.get(obj) is None:
                self._drop("entity_not_in_inventory")
                continue
            used.update((subject, obj))
            occurrences = tuple(
                Occurrence(name, s, a, b, text[a:b]) for s, a, b in sorted(spans, key=lambda o: (o[1], o[2]))
            )
            triples.append(Triple(subject, types[subject], predicate, obj, types[obj], occurrences))
        entities = []
        for entity_name in sorted(used):
            mentions = [
                Mention(s.index, s.start + a, s.start + b, text[s.start + a : s.start + b])
                for s in sentences
                for a, b in _name_ranges(text[s.start : s.end], entity_name)
            ]
            entities.append(Entity(entity_name, types[entity_name], tuple(mentions)))
        return DocumentExtraction(document, tuple(sentences), tuple(entities), tuple(triples))

    def _drop(self, reason: str) -> None:
        with self._lock:
            self.dropped[reason] += 1


def _entity_type(value: str) -> str | None:
    """An inventory type from the model's spelling ("Person", "work of art"), or None if not in it."""
    upper = " ".join(value.replace("-", " ").split()).upper()
    if upper.replace(" ", "_") in ENTITY_TYPES:
        return upper.replace(" ", "_")
    return _TYPE_ALIASES.get(upper)


def _typing(text: str) -> TypingReply:
    reply = parse(text, TypingReply)
    if not reply.types:
        raise InvalidReply("types is empty")
    return reply


def _dump(result: DocumentExtraction) -> dict:
    return {
        "sentences": [[s.start, s.end] for s in result.sentences],
        "entities": [[e.name, e.type, [[m.sentence, m.start, m.end] for m in e.mentions]] for e in result.entities],
        "triples": [
            [
                t.subject,
                t.subject_type,
                t.predicate,
                t.object,
                t.object_type,
                [[o.sentence, o.start, o.end] for o in t.occurrences],
            ]
            for t in result.triples
        ],
    }


def _restore(document: Document, data: dict) -> DocumentExtraction:
    text, name = document.text, document.name
    sentences = tuple(Sentence(i, a, b) for i, (a, b) in enumerate(data["sentences"]))
    entities = tuple(
        Entity(n, t, tuple(Mention(s, a, b, text[a:b]) for s, a, b in mentions)) for n, t, mentions in data["entities"]
    )
    triples = tuple(
        Triple(s, st, p, o, ot, tuple(Occurrence(name, i, a, b, text[a:b]) for i, a, b in occ))
        for s, st, p, o, ot, occ in data["triples"]
    )
    return DocumentExtraction(document, sentences, entities, triples)
