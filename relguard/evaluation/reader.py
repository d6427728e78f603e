"""The QA reader: a fixed short prompt over retrieved passages, answered by any OpenAI-compatible model.

The prompt is the same for the original corpus and for every release, so the only thing that differs between
their scores is the text the retriever found. Replies are cached on disk under the ``qa`` namespace of the LLM
cache, keyed by the model, the prompt version, the decoding settings and the exact messages: a rerun, or a run
resumed after an interruption, asks the model only what it has not answered yet. The cache holds passages'
answers, which may quote the documents read, so it is created owner-only like the extraction cache.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from relguard.errors import ConfigError, ModelError
from relguard.llm.cache import JsonCache, key_of
from relguard.llm.client import BASE_URL_ENV, DEFAULT_KEY_ENV, MODEL_ENV, LLMClient, LLMConfig, Usage

PROMPT_VERSION = "qa-1"
PURPOSE = "qa"
#: Replies are short spans; a cap keeps a chatty model from spending a minute on an explanation.
MAX_ANSWER_TOKENS = 32
SYSTEM = (
    "You answer questions using only the passages given. Reply with the answer alone: a short span such as a "
    "name, a date, a number, or yes or no. Do not write a sentence and do not explain."
)
START_LOCAL = 'eval "$(bash scripts/local-llm.sh --background)"'
_LABEL = re.compile(r"^\s*(?:final\s+)?answer\s*[:\-]\s*", re.IGNORECASE)


def messages(question: str, passages: Sequence[tuple[str, str]]) -> list[dict[str, str]]:
    """The chat messages for one question: numbered passages (title line, then text), then the question."""
    blocks = "\n\n".join(f"[{n}] {title}\n{text}" for n, (title, text) in enumerate(passages, 1))
    user = f"Passages:\n\n{blocks}\n\nQuestion: {question}\nAnswer:"
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": user}]


def clean_answer(reply: str) -> str:
    """The span a reply gives: its first non-empty line without an "Answer:" label or wrapping quotes.

    Scoring normalizes case, punctuation and articles itself (HotpotQA's rule); this only removes what a small
    model adds around the span, which would otherwise count as wrong tokens.
    """
    line = next((part.strip() for part in reply.strip().splitlines() if part.strip()), "")
    line = _LABEL.sub("", line).strip()
    if len(line) >= 2 and line[0] == line[-1] and line[0] in "\"'`":
        line = line[1:-1].strip()
    return line


def reader_config(
    *,
    model: str | None = None,
    base_url: str | None = None,
    api_key_env: str | None = None,
) -> LLMConfig:
    """The reader's endpoint from flags, else the environment; none configured is one readable error.

    The reply is free text, so JSON mode and schemas are off whatever ``$RELGUARD_LLM_STRUCTURED`` says.
    """
    env = os.environ
    key_env = api_key_env or DEFAULT_KEY_ENV
    endpoint = base_url or env.get(BASE_URL_ENV) or (env.get(key_env) and "openai")
    name = model or env.get(MODEL_ENV)
    if not endpoint or not name:
        missing = " and ".join(
            item
            for item, present in (
                (f"an endpoint (--base-url or ${BASE_URL_ENV})", endpoint),
                (f"a model (--llm-model or ${MODEL_ENV})", name),
            )
            if not present
        )
        raise ConfigError(
            f"--qa needs a reader model and {missing} is not set: start the local model with `{START_LOCAL}` "
            "(it exports the endpoint and model), or pass --base-url and --llm-model for another server"
        )
    return replace(LLMConfig.from_env(model=name, base_url=base_url, api_key_env=api_key_env), json_mode=False)


class Reader:
    """Answers a question from passages with one chat completion, cached; counts calls, tokens and cache hits."""

    def __init__(self, config: LLMConfig, *, cache: bool = True, cache_root: str | Path | None = None) -> None:
        self.config = replace(config, json_mode=False)
        try:
            self.client = LLMClient(self.config)
        except ImportError as exc:
            raise ModelError("the QA reader needs the openai package: pip install 'relguard[llm]'") from exc
        self.usage = Usage()
        self._cache = JsonCache(cache_root, PURPOSE, enabled=cache, private=True)

    @property
    def name(self) -> str:
        return self.config.model

    @property
    def endpoint(self) -> str:
        return self.config.endpoint

    def cache_key(self, chat: list[dict[str, str]]) -> str:
        cfg = self.config
        return key_of(PURPOSE, PROMPT_VERSION, cfg.model, cfg.temperature, cfg.seed, cfg.top_k, MAX_ANSWER_TOKENS, chat)

    def answer(self, question: str, passages: Sequence[tuple[str, str]]) -> str:
        """The model's span for ``question`` given ``passages`` (title, text), from the cache when asked before."""
        chat = messages(question, passages)
        key = self.cache_key(chat)
        cached = self._cache.get(key)
        if cached is not None:
            self.usage.add(PURPOSE, cache_hits=1)
            return clean_answer(cached["reply"])
        reply = self.client.complete(chat, purpose=PURPOSE, usage=self.usage, max_tokens=MAX_ANSWER_TOKENS)
        self._cache.put(key, {"reply": reply})
        return clean_answer(reply)
