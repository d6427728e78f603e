"""Dry run: how many LLM calls and roughly how many tokens a run will take, before any call is made.

Extraction calls are counted per window of sentences of every document not already cached, times one plus the
gleaning rounds; with the compact prompt set a window whose entity list holds fewer than two names is not sent, so
the count is an upper bound there. Typing and candidate calls depend on what extraction finds, so they are given
as upper bounds: one typing call per uncached document (per 50 names), and one candidate call per type pair not
yet cached for this K (more only when replies are rejected). Tokens are estimated at four characters per token.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from relguard.kinds import pool_pair
from relguard.llm import prompts
from relguard.llm.windows import split_sentences, windows
from relguard.types import ENTITY_TYPES, Document, TypePair


@runtime_checkable
class WindowedExtractor(Protocol):
    """An extractor that sends documents in windows of sentences and caches its replies (the LLM one)."""

    window_sentences: int
    window_chars: int
    prompt_set: str

    def is_cached(self, document: Document) -> bool: ...


@runtime_checkable
class CachedPools(Protocol):
    """A pool generator that asks a model and caches pools by (type pair, K) (the LLM one)."""

    def is_cached(self, type_pair: TypePair, k: int) -> bool: ...


CHARS_PER_TOKEN = 4
#: A rough reply size per call, in tokens, for the estimate only.
REPLY_TOKENS = {"extract": 600, "typing": 150, "candidates": 120}


@dataclass(frozen=True)
class Estimate:
    documents: int
    cached_documents: int
    sentences: int
    extraction_calls: int
    max_typing_calls: int
    max_candidate_calls: int
    approx_prompt_tokens: int
    approx_completion_tokens: int

    def describe(self) -> str:
        return (
            f"dry run: {self.documents} documents ({self.cached_documents} already cached), "
            f"{self.sentences} sentences to send; LLM calls: {self.extraction_calls} extraction, "
            f"up to {self.max_typing_calls} typing, up to {self.max_candidate_calls} candidate-pool; "
            f"about {self.approx_prompt_tokens:,} prompt and {self.approx_completion_tokens:,} completion tokens. "
            "Nothing was sent."
        )


def estimate(documents: Sequence[Document], *, extractor: object, candidates: object, k: int) -> Estimate:
    """Count the calls the ``llm`` backends would make for ``documents`` at this K (no network)."""
    calls = typing = sentences_sent = cached = 0
    prompt_chars = 0
    if isinstance(extractor, WindowedExtractor):
        for document in documents:
            if extractor.is_cached(document):
                cached += 1
                continue
            sentences = split_sentences(document.text)
            ranges = windows(document.text, sentences, size=extractor.window_sentences, chars=extractor.window_chars)
            rounds = 1 + getattr(getattr(extractor, "config", None), "gleaning", 0)
            calls += len(ranges) * rounds
            typing += 1
            sentences_sent += len(sentences)
            overhead = prompts.extraction_overhead(extractor.prompt_set)
            prompt_chars += rounds * (len(ranges) * overhead + sum(s.end - s.start + 6 for s in sentences))
            prompt_chars += len(prompts.TYPING_SYSTEM) + 400
    pool_calls = 0
    if isinstance(candidates, CachedPools):
        read = {pool_pair((a, b)) for a in ENTITY_TYPES for b in ENTITY_TYPES}  # a kind's pair may read another's
        pool_calls = sum(1 for pair in read if not candidates.is_cached(pair, k))
        prompt_chars += pool_calls * prompts.candidates_overhead(getattr(candidates, "prompt_set", "paper"))
    completion = (
        calls * REPLY_TOKENS["extract"] + typing * REPLY_TOKENS["typing"] + pool_calls * REPLY_TOKENS["candidates"]
    )
    return Estimate(
        documents=len(documents),
        cached_documents=cached,
        sentences=sentences_sent,
        extraction_calls=calls,
        max_typing_calls=typing,
        max_candidate_calls=pool_calls,
        approx_prompt_tokens=prompt_chars // CHARS_PER_TOKEN,
        approx_completion_tokens=completion,
    )
