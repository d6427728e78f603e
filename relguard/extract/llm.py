"""The model's half of the ``llm`` extractor (:mod:`relguard.extract.union` keeps every offline slot and adds these;
alone it serves the benches that measure a model): relations from an OpenAI-compatible model, every span checked.

Nothing the model says is trusted: sentences are split here (rules, no model) and every kept occurrence is a range
of one of them, cut from the document's own text. Prompt sets (``LLMConfig.prompt_set``, :mod:`relguard.llm.prompts`):
``compact`` (default) gives the passage and the spaCy NER's entity list and gets ``[subject, relation, object]``
back, the relation copied from the passage, which the backend finds in a sentence naming the endpoints and widens
over auxiliaries, negation and a preposition; ``paper`` is Fig. 4, the model naming sentence and substring.
Direction follows the spaCy extractor's public-structure rule (``relguard.extract.slots``): the endpoint named
first in the sentence is the subject.

Dropped and counted (:attr:`LLMExtractor.dropped`), never repaired by guessing: a span not in its sentence or
window, of function words only or covering an entity's name, an endpoint that is not listed, a triple without a
located occurrence, a type outside the inventory, reply items that do not validate (a reply cut off at
``max_tokens`` keeps its complete items). Types come from a names-only call (paper §5.2, ``relguard.llm.naming``);
where it gives none for a listed name the NER label stays (``ner_type_fallbacks``). Long documents go in windows;
what was found (before typing and direction) is cached on disk, so a failed run resumes where it stopped.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from relguard import registry
from relguard.errors import ConfigTypeError
from relguard.extract.slots import first_mentioned
from relguard.extract.spacy import normalize_predicate
from relguard.extract.spacy.lexicon import FUNCTION_WORDS
from relguard.llm import compact, formats, prompts
from relguard.llm.cache import JsonCache, key_of
from relguard.llm.client import LLMClient, LLMConfig, LLMError, Usage, get_client
from relguard.llm.locate import (
    find_phrase,
    is_bare,
    mentions_in,
    name_key,
    name_ranges,
    overlaps,
    printed,
    widened,
    window_names,
)
from relguard.llm.naming import NameTyper
from relguard.llm.replies import RawTriple, read_compact, read_paper
from relguard.llm.windows import split_sentences, windows
from relguard.types import Document, DocumentExtraction, Entity, Mention, Occurrence, Triple

__all__ = ["DROP_REASONS", "LLMExtractor", "split_sentences"]

WINDOW_SENTENCES = 40
WINDOW_CHARS = {"compact": 6_000, "paper": 12_000}
_BARE = FUNCTION_WORDS | {"of", "in", "at", "on", "by", "for", "with", "from", "and", "'s", "s"}

#: Why an item of a reply was dropped; each has a counter in ``LLMExtractor.dropped``.
DROP_REASONS = (
    "malformed_item",
    "sentence_out_of_range",
    "span_not_in_sentence",
    "span_bare_function_word",
    "span_covers_entity",
    "no_endpoint_in_sentence",
    "endpoint_not_listed",
    "self_relation",
    "bad_predicate",
    "entity_not_in_inventory",
    "triple_without_occurrence",
)

Found = dict[tuple[str, str, str], set[tuple[int, int, int]]]


class LLMExtractor:
    """Checked spans, names-only typing, windows and a resumable cache, over either prompt set."""

    name = "llm"

    def __init__(
        self,
        config: LLMConfig | None = None,
        *,
        client: LLMClient | None = None,
        window_sentences: int = WINDOW_SENTENCES,
        window_chars: int | None = None,
        entities: str | Any = "spacy",
        cache: bool = True,
        cache_root: str | Path | None = None,
        **options: Any,
    ) -> None:
        self.config = config or (client.config if client else LLMConfig.from_env(**options))
        self.client = client or get_client(self.config)
        self.prompt_set = self.config.prompt_set
        self.window_sentences = window_sentences
        self.window_chars = window_chars or WINDOW_CHARS[self.prompt_set]
        self._entities = entities if self.prompt_set == "compact" else None
        self.usage = Usage()
        self.dropped: Counter[str] = Counter()
        self._lock = threading.Lock()
        self._documents = JsonCache(cache_root, "extract", enabled=cache, private=True)
        malformed = lambda n: self._drop("malformed_item", n)  # noqa: E731
        self._typer = NameTyper(self.client, self.usage, cache=cache, cache_root=cache_root, on_malformed=malformed)
        self.extraction_version = prompts.extraction_version(self.prompt_set)
        self.model_id = f"llm:{self.config.model}@{self.extraction_version}+{prompts.TYPING_VERSION}"

    @property
    def entity_source(self) -> Any | None:
        """The extractor whose entities are the compact prompt's list (spaCy, loaded when first needed)."""
        if isinstance(self._entities, str):
            self._entities = None if self._entities == "none" else registry.create("extractor", self._entities)
        return self._entities

    # -- public API (same as SpacyExtractor)

    def extract(self, document: Document) -> DocumentExtraction:
        return next(self.extract_many([document]))

    def extract_many(self, documents: Iterable[Document]) -> Iterator[DocumentExtraction]:
        """Documents in input order; up to ``max_concurrency`` documents are in flight at once."""
        documents = _checked(documents)
        source = self.entity_source
        bases = list(source.extract_many(documents)) if source is not None else [None] * len(documents)
        yield from self.extract_with(documents, bases)

    def extract_with(
        self, documents: Sequence[Document], bases: Sequence[DocumentExtraction | None], *, also_type: Any = None
    ) -> Iterator[DocumentExtraction]:
        """As :meth:`extract_many`, with the entity source's results given (the union extractor has them).

        ``also_type(base)`` names more entities to type in the same call (the union types spaCy's endpoints too).
        """
        workers = min(self.config.max_concurrency, max(1, len(documents)))
        done = 0
        with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="relguard-llm") as pool:
            futures = [
                pool.submit(self._extract_one, d, b, tuple(also_type(b)) if also_type and b else ())
                for d, b in zip(documents, bases, strict=True)
            ]
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
        cfg, source = self.config, getattr(self.entity_source, "model_id", None) if self._entities else None
        parts = (self.extraction_version, self.window_sentences, self.window_chars, source, cfg.gleaning)
        return key_of("extract", cfg.model, *parts, cfg.structured_mode, cfg.temperature, document.text)

    def is_cached(self, document: Document) -> bool:
        return self._documents.get(self.cache_key(document)) is not None

    def provenance(self) -> dict:
        """What the report says about this backend: model, prompt versions; calls, tokens and drops (confidential)."""
        return {
            "backend": "llm",
            "model": self.config.model,
            "prompt_versions": {"extraction": self.extraction_version, "typing": prompts.TYPING_VERSION},
            "window_sentences": self.window_sentences,
            "entity_list": getattr(self._entities, "model_id", self._entities),
            "calls": self.usage.total("calls"),
            "prompt_tokens": self.usage.total("prompt_tokens"),
            "completion_tokens": self.usage.total("completion_tokens"),
            "usage": self.usage.snapshot(),
            "dropped": dict(sorted(self.dropped.items())),
        }

    # -- one document

    def _extract_one(self, document: Document, base: DocumentExtraction | None, extra: Sequence[str] = ()):
        key = self.cache_key(document)
        sentences = split_sentences(document.text)
        cached = self._documents.get(key)
        if cached is not None:
            self.usage.add("extract", cache_hits=1)
            found = {tuple(k): {tuple(o) for o in spans} for k, spans in cached["found"]}
        else:
            found = {}
            for first, last in windows(document.text, sentences, size=self.window_sentences, chars=self.window_chars):
                self._window(document.text, sentences, first, last, base, found)
            self._documents.put(key, {"found": [[list(k), sorted(v)] for k, v in sorted(found.items())]})
        names = sorted({n for s, _, o in found for n in (s, o)})
        types = self.type_names([*names, *(n for n in extra if n not in names)])
        return self._assemble(document, sentences, found, types, base)

    def _window(self, text, sentences, first, last, base, found: Found) -> None:
        lines = [printed(text[s.start : s.end]) for s in sentences[first:last]]
        if self.prompt_set == "paper":
            known = sorted({n for k in found for n in (k[0], k[2])})
            messages = prompts.extraction_messages(lines, first=first + 1, known=known)
            schema = formats.paper_schema(max_items=formats.max_triples(lines))
            reply = self._ask(messages, read_paper, schema, 300 + sum(map(len, lines)) // 2)[0]
            self._paper(text, sentences, first, last, reply, found)
            return
        names = window_names(sentences[first:last], base)
        if base is not None and len(names) < 2:
            self.usage.add("extract", skipped_windows=1)  # no pair of listed entities: nothing to ask
            return
        safe = {formats.safe_name(n): n for n in names}
        messages = compact.extraction_messages(" ".join(lines), list(safe))
        schema = formats.triples_schema(list(safe), max_items=formats.max_triples(lines))
        budget = 100 + 16 * formats.max_triples(lines)
        reply, said = self._ask(messages, read_compact, schema, budget)
        replies = [reply]
        for _ in range(self.config.gleaning):
            messages = compact.gleaning_messages(messages, said)
            more, said = self._ask(messages, read_compact, schema, budget)
            replies.append(more)
        lookup = {name_key(k): v for k, v in safe.items()} | {name_key(v): v for v in safe.values()}
        where = {
            i: {
                n: mentions_in(printed(text[sentences[i].start : sentences[i].end]), n, sentences[i], base)
                for n in names
            }
            for i in range(first, last)
        }
        for item in (t for r in replies for t in r.triples):
            self._compact(text, sentences, first, last, item, lookup if base is not None else None, where, found)

    def _ask(self, messages, read, schema, budget):
        reply, said = self.client.ask_json(
            messages, lambda s: (read(s), s), purpose="extract", usage=self.usage, schema=schema, max_tokens=budget
        )
        if reply.malformed:
            self._drop("malformed_item", reply.malformed)
        return reply, said

    def _endpoints(self, item: RawTriple, lookup: dict[str, str] | None, window: str) -> tuple[str, str] | None:
        if lookup is not None:
            subject, obj = lookup.get(name_key(item.subject)), lookup.get(name_key(item.object))
        else:  # no entity list: a name counts only where the window writes it
            subject, obj = (n if name_ranges(window, n) else None for n in (item.subject, item.object))
        if subject is None or obj is None:
            self._drop("endpoint_not_listed")
            return None
        if name_key(subject) == name_key(obj):
            self._drop("self_relation")
            return None
        return subject, obj

    def _predicate(self, relation: str) -> str | None:
        try:
            return normalize_predicate(relation)
        except ValueError:
            self._drop("bad_predicate")
            return None

    def _compact(self, text, sentences, first, last, item, lookup, where, found: Found) -> None:
        """Find a compact triple's relation phrase in a sentence of the window that names its endpoints.

        Sentences naming both endpoints win and each of them is an occurrence; else the first sentence naming
        one (the other a pronoun, "She married Pierre Curie"); a phrase in no sentence naming either is dropped.
        """
        window = " ".join(printed(text[s.start : s.end]) for s in sentences[first:last])
        pair = self._endpoints(item, lookup, window)
        predicate = pair and self._predicate(item.relation)
        if not pair or not predicate:
            return
        if is_bare(item.relation, _BARE):
            self._drop("span_bare_function_word")
            return
        best, places, covered = 0, [], False
        for index in range(first, last):
            sent = sentences[index]
            line = printed(text[sent.start : sent.end])
            hits = find_phrase(line, item.relation)
            if not hits:
                continue
            named = where.get(index) or {n: name_ranges(line, n) for n in pair}
            blocked = [r for ranges in named.values() for r in ranges]
            free = [(a, b) for a, b in hits if not overlaps(a, b, blocked)]
            if not free:
                covered = True
                continue
            evidence = sum(bool(named.get(n) or name_ranges(line, n)) for n in pair)
            if evidence > best:
                best, places = evidence, []
            if evidence == best:
                a, b = widened(line, *free[0], blocked)
                places.append((index, sent.start + a, sent.start + b))
        if places and best > 0:
            for place in places if best == 2 else places[:1]:  # the predicate is the text's own words, voice kept
                worded = self._predicate(text[place[1] : place[2]]) or predicate
                found.setdefault((pair[0], worded, pair[1]), set()).add(place)
        elif places:
            self._drop("no_endpoint_in_sentence")
        else:
            self._drop("span_covers_entity" if covered else "span_not_in_sentence")

    def _paper(self, text, sentences, first, last, reply, found: Found) -> None:
        names = {name_key(n): n for k in found for n in (k[0], k[2])}
        for entity in reply.entities:
            names.setdefault(name_key(entity), entity)
        for item in reply.triples:
            pair = self._endpoints(item, names, "")
            predicate = pair and self._predicate(item.relation)
            if not pair or not predicate:
                continue
            spans = {s for o in item.occurrences or () if (s := self._locate(text, sentences, first, last, o, pair))}
            if not spans:
                self._drop("triple_without_occurrence")
                continue
            found.setdefault((pair[0], predicate, pair[1]), set()).update(spans)

    def _locate(self, text, sentences, first, last, occurrence, pair) -> tuple[int, int, int] | None:
        """Check one Fig. 4 occurrence against its sentence; returns (sentence, start, end) or None (counted)."""
        index = occurrence.sentence - 1
        if not first <= index < last:
            self._drop("sentence_out_of_range")
            return None
        sent = sentences[index]
        line = printed(text[sent.start : sent.end])
        hits = find_phrase(line, occurrence.predicate)
        if not hits:
            self._drop("span_not_in_sentence")
            return None
        if is_bare(occurrence.predicate, _BARE):
            self._drop("span_bare_function_word")
            return None
        blocked = [r for n in pair for r in name_ranges(line, n)]
        for a, b in (widened(line, a, b, blocked) for a, b in hits if not overlaps(a, b, blocked)):
            return (index, sent.start + a, sent.start + b)
        self._drop("span_covers_entity")
        return None

    def type_names(self, names: Sequence[str]) -> dict[str, str | None]:
        """Types from canonical names alone (own call, batched, cached per name and model)."""
        return self._typer(names)

    def _assemble(self, document, sentences, found: Found, types, base) -> DocumentExtraction:
        text, name = document.text, document.name
        ner = {name_key(e.name): e.type for e in base.entities} if base is not None else {}
        final: dict[str, str] = {}
        for entity in sorted({n for s, _, o in found for n in (s, o)}):
            entity_type = types.get(entity) or ner.get(name_key(entity))
            if entity_type is not None:
                final[entity] = entity_type
                if types.get(entity) is None:
                    self.usage.add("typing", ner_type_fallbacks=1)
        oriented: Found = {}
        for (subject, predicate, obj), spans in found.items():
            for span in spans:
                oriented.setdefault(self._orient(text, sentences[span[0]], subject, predicate, obj, base), set()).add(
                    span
                )
        triples = []
        for (subject, predicate, obj), spans in sorted(oriented.items()):
            if subject not in final or obj not in final:
                self._drop("entity_not_in_inventory")
                continue
            occurrences = tuple(Occurrence(name, s, a, b, text[a:b]) for s, a, b in sorted(spans, key=lambda o: o[1:]))
            triples.append(Triple(subject, final[subject], predicate, obj, final[obj], occurrences))
        used = sorted({n for t in triples for n in (t.subject, t.object)})
        entities = []
        for entity in used:
            mentions = sorted(
                {
                    Mention(s.index, s.start + a, s.start + b, text[s.start + a : s.start + b])
                    for s in sentences
                    for a, b in mentions_in(printed(text[s.start : s.end]), entity, s, base)
                },
                key=lambda m: (m.start, m.end),
            )
            entities.append(Entity(entity, final[entity], tuple(mentions)))
        return DocumentExtraction(document, tuple(sentences), tuple(entities), tuple(triples))

    def _orient(self, text, sentence, subject, predicate, obj, base) -> tuple[str, str, str]:
        """The slot's direction from public structure, the spaCy extractor's rule (``relguard.extract.slots``):
        the endpoint named first in the sentence (a resolved pronoun counts) is the subject; the predicate keeps
        the text's voice ("was founded by" → ``founded_by``). Where one is not named there, the model's order."""
        line = printed(text[sentence.start : sentence.end])
        ours, theirs = ([a for a, _ in mentions_in(line, n, sentence, base)] for n in (subject, obj))
        if ours and theirs and first_mentioned(theirs, ours):
            self.usage.add("extract", direction_from_order=1)
            return (obj, predicate, subject)
        return (subject, predicate, obj)

    def _drop(self, reason: str, count: int = 1) -> None:
        with self._lock:
            self.dropped[reason] += count


def _checked(documents: Iterable[Document]) -> list[Document]:
    documents = list(documents)
    for document in documents:
        if not isinstance(document, Document):
            raise ConfigTypeError(f"expected a relguard.types.Document, got {type(document).__name__}")
    return documents
