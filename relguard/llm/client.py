"""One OpenAI-compatible chat client shared by the LLM backends: configuration, retries, limits, usage.

Any server that speaks ``/v1/chat/completions`` works (OpenAI, Azure's v1 endpoint, vLLM, Ollama,
llama.cpp): the official ``openai`` client is pointed at ``base_url``. Retries are ours, not the client's
(it is built with ``max_retries=0``), so that every retry is counted and the backoff can be set: 429, 5xx,
timeouts and refused connections are retried with exponential backoff (honouring ``Retry-After``); any other
error fails at once with a message naming the endpoint. A semaphore bounds concurrent requests per client,
and each backend counts its own calls and tokens in a :class:`Usage` that the release report prints.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import tenacity

from relguard.errors import BackendError, ConfigError
from relguard.llm import formats, prompts
from relguard.llm.endpoint import HOSTED_DEFAULT, check_endpoint, is_local
from relguard.llm.schemas import InvalidReply

T = TypeVar("T")

MODEL_ENV = "RELGUARD_LLM_MODEL"
BASE_URL_ENV = "OPENAI_BASE_URL"
DEFAULT_KEY_ENV = "OPENAI_API_KEY"
_GOLDEN = (5**0.5 - 1) / 2  # golden-ratio step: successive retries land far apart in [0, 1)


class LLMError(BackendError):
    """The LLM endpoint failed, or kept replying with something that cannot be used."""


#: Environment variables :meth:`LLMConfig.from_env` reads for options not given (the CLI and the app pass only
#: model, base URL and key variable, so these reach a run from the shell or the app's environment).
OPTION_ENV = {
    "prompt_set": ("RELGUARD_LLM_PROMPT_SET", str),
    "structured": ("RELGUARD_LLM_STRUCTURED", str),
    "max_tokens": ("RELGUARD_LLM_MAX_TOKENS", int),
    "temperature": ("RELGUARD_LLM_TEMPERATURE", float),
    "top_k": ("RELGUARD_LLM_TOP_K", int),
    "gleaning": ("RELGUARD_LLM_GLEANING", int),
    "max_concurrency": ("RELGUARD_LLM_CONCURRENCY", int),
    "timeout": ("RELGUARD_LLM_TIMEOUT", float),
}


@dataclass(frozen=True)
class LLMConfig:
    """Where and how to call the model. ``base_url=None`` means the ``openai`` client's default (OpenAI).

    ``allow_remote`` must be set for a base URL that is not on this machine, and for none at all (OpenAI's hosted
    API): without it construction fails (:mod:`relguard.llm.endpoint`), so no document leaves by default.

    ``prompt_set`` is ``compact`` (small local models follow it) or ``paper`` (Fig. 4 / Fig. 5, fenced);
    ``structured`` says how the reply's JSON schema is enforced while decoding (:mod:`relguard.llm.formats`);
    ``max_tokens`` caps every reply (backends ask for less where a reply is short; without a cap a 1.5B model
    once generated 7,490 tokens); ``top_k`` and ``seed`` are sent only when set (OpenAI rejects ``top_k``);
    ``gleaning`` adds that many "what was missed?" rounds per extraction window (0: off, as it did not help the
    1.5B model).
    """

    model: str
    base_url: str | None = None
    api_key_env: str = DEFAULT_KEY_ENV
    timeout: float = 300.0
    max_retries: int = 4
    backoff: float = 1.0
    max_backoff: float = 30.0
    max_concurrency: int = 4
    json_mode: bool = True
    temperature: float = 0.0
    repair_attempts: int = 1
    prompt_set: str = "compact"
    structured: str = "auto"
    max_tokens: int = 2048
    top_k: int | None = None
    seed: int | None = None
    gleaning: int = 0
    allow_remote: bool = False

    def __post_init__(self) -> None:
        if not self.model:
            raise ConfigError(f"no LLM model given; pass --llm-model or set {MODEL_ENV}")
        if self.max_concurrency < 1:
            raise ConfigError(f"max_concurrency must be >= 1, got {self.max_concurrency}")
        if self.max_retries < 0 or self.repair_attempts < 0 or self.gleaning < 0:
            raise ConfigError("max_retries, repair_attempts and gleaning must be >= 0")
        if self.timeout <= 0:
            raise ConfigError(f"timeout must be > 0 seconds, got {self.timeout}")
        if self.prompt_set not in prompts.PROMPT_SETS:
            raise ConfigError(f"prompt_set must be one of {', '.join(prompts.PROMPT_SETS)}, got {self.prompt_set!r}")
        if self.structured not in formats.STRUCTURED_MODES:
            raise ConfigError(
                f"structured must be one of {', '.join(formats.STRUCTURED_MODES)}, got {self.structured!r}"
            )
        if self.max_tokens < 16:
            raise ConfigError(f"max_tokens must be >= 16, got {self.max_tokens}")
        if self.top_k is not None and self.top_k < 1:
            raise ConfigError(f"top_k must be >= 1 or unset, got {self.top_k}")
        if not 0 <= self.temperature <= 2:
            raise ConfigError(f"temperature must be in [0, 2], got {self.temperature}")
        check_endpoint(self.base_url, allow_remote=self.allow_remote)

    @classmethod
    def from_env(
        cls, *, model: str | None = None, base_url: str | None = None, api_key_env: str | None = None, **options: Any
    ) -> LLMConfig:
        """Fill what was not given from ``RELGUARD_LLM_MODEL``, ``OPENAI_BASE_URL`` and :data:`OPTION_ENV`.

        ``allow_remote`` is never read from the environment: a variable left in a shell must not send a corpus away.
        """
        for option, (variable, kind) in OPTION_ENV.items():
            value = os.environ.get(variable)
            if option not in options and value not in (None, ""):
                try:
                    options[option] = kind(value)
                except ValueError as exc:
                    raise ConfigError(f"${variable} must be a {kind.__name__}, got {value!r}") from exc
        return cls(
            model=model or os.environ.get(MODEL_ENV, ""),
            base_url=base_url or os.environ.get(BASE_URL_ENV) or None,
            api_key_env=api_key_env or DEFAULT_KEY_ENV,
            **options,
        )

    @property
    def endpoint(self) -> str:
        return self.base_url or HOSTED_DEFAULT

    @property
    def structured_mode(self) -> str:
        """The concrete way schemas are sent (``auto`` resolved by where the server runs)."""
        return formats.resolve_mode(self.structured if self.json_mode else "none", self.base_url)


class Usage:
    """Thread-safe counts per purpose (extract, typing, candidates, verbalization) for one backend."""

    FIELDS = (
        "calls",
        "prompt_tokens",
        "completion_tokens",
        "retries",
        "invalid_replies",
        "truncated_replies",
        "cache_hits",
    )

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._counts: dict[str, dict[str, int]] = {}

    def add(self, purpose: str, **counts: int) -> None:
        with self._lock:
            row = self._counts.setdefault(purpose, dict.fromkeys(self.FIELDS, 0))
            for key, value in counts.items():
                row[key] = row.get(key, 0) + value

    def snapshot(self) -> dict[str, dict[str, int]]:
        with self._lock:
            return {purpose: dict(row) for purpose, row in sorted(self._counts.items())}

    def total(self, key: str) -> int:
        with self._lock:
            return sum(row[key] for row in self._counts.values())


def _openai():
    try:
        import openai
    except ImportError as exc:
        raise ImportError("openai", name="openai") from exc
    return openai


class LLMClient:
    """Chat completions with bounded retries, a concurrency limit and JSON replies parsed by a schema."""

    def __init__(self, config: LLMConfig, *, sleep: Callable[[float], None] = time.sleep) -> None:
        openai = _openai()
        self.config = config
        key = os.environ.get(config.api_key_env)
        if not key:
            if config.base_url is None:
                raise ConfigError(
                    f"the LLM backends need an endpoint: set {config.api_key_env} for OpenAI, or --base-url / "
                    f"{BASE_URL_ENV} for a local server (vLLM, Ollama, llama.cpp)"
                )
            key = "no-key"  # local servers ignore it; the client refuses None
        # A local endpoint is reached directly: with HTTP(S)_PROXY set, the client would otherwise send the
        # documents through the proxy, off this machine, while the endpoint check calls the URL local.
        direct = {"http_client": openai.DefaultHttpxClient(trust_env=False)} if is_local(config.base_url) else {}
        self._client = openai.OpenAI(
            base_url=config.base_url, api_key=key, max_retries=0, timeout=config.timeout, **direct
        )
        self._slots = threading.BoundedSemaphore(config.max_concurrency)
        self._retries = itertools.count(1)
        self._sleep = sleep
        self._retryable = (openai.RateLimitError, openai.InternalServerError, openai.APIConnectionError)
        self._status_error = openai.APIStatusError

    def complete(
        self,
        messages: list[dict],
        *,
        purpose: str,
        usage: Usage,
        schema: dict[str, Any] | None = None,
        max_tokens: int | None = None,
    ) -> str:
        """One chat completion; transient failures are retried with backoff and counted in ``usage``.

        ``schema`` is sent the way this server understands (``LLMConfig.structured``); ``max_tokens`` is capped
        by the configuration's. A reply cut off at ``max_tokens`` is returned as it is and counted as truncated:
        the readers in :mod:`relguard.llm.replies` keep its complete items.
        """
        cfg = self.config
        limit = min(max_tokens or cfg.max_tokens, cfg.max_tokens)
        options: dict[str, Any] = {
            "model": cfg.model,
            "messages": messages,
            "temperature": cfg.temperature,
            "max_tokens": limit,
        }
        response_format = formats.response_format(cfg.structured_mode, schema)
        if response_format is not None:
            options["response_format"] = response_format
        if cfg.seed is not None:
            options["seed"] = cfg.seed
        if cfg.top_k is not None:
            options["extra_body"] = {"top_k": cfg.top_k}
        attempts = 0

        def create():
            nonlocal attempts
            attempts += 1
            with self._slots:
                return self._client.chat.completions.create(**options)

        retrying = tenacity.Retrying(
            retry=tenacity.retry_if_exception_type(self._retryable),
            stop=tenacity.stop_after_attempt(cfg.max_retries + 1),
            wait=lambda state: self._delay(state.attempt_number - 1, state.outcome.exception()),
            sleep=self._sleep,
            before_sleep=lambda state: usage.add(purpose, retries=1),
            reraise=True,
        )
        try:
            response = retrying(create)
        except (*self._retryable, self._status_error) as exc:
            raise LLMError(self._describe(exc, attempts=attempts)) from exc
        tokens = response.usage
        usage.add(
            purpose,
            calls=1,
            prompt_tokens=int(getattr(tokens, "prompt_tokens", 0) or 0),
            completion_tokens=int(getattr(tokens, "completion_tokens", 0) or 0),
        )
        if not response.choices:
            return ""
        if response.choices[0].finish_reason == "length":
            usage.add(purpose, truncated_replies=1)
        return response.choices[0].message.content or ""

    def ask_json(
        self,
        messages: list[dict],
        parse: Callable[[str], T],
        *,
        purpose: str,
        usage: Usage,
        schema: dict[str, Any] | None = None,
        max_tokens: int | None = None,
    ) -> T:
        """Call, parse with ``parse``; an :class:`InvalidReply` is shown to the model and asked again.

        A caller that needs the reply's text too (a gleaning round shows it to the model) keeps it in what
        ``parse`` returns.
        """
        conversation = list(messages)
        for attempt in range(self.config.repair_attempts + 1):
            text = self.complete(conversation, purpose=purpose, usage=usage, schema=schema, max_tokens=max_tokens)
            try:
                return parse(text)
            except InvalidReply as exc:
                usage.add(purpose, invalid_replies=1)
                if attempt == self.config.repair_attempts:
                    raise LLMError(
                        f"model {self.config.model!r} at {self.config.endpoint} gave no usable {purpose} reply "
                        f"after {attempt + 1} tries (last: {exc.problem}); try a larger model or check the server"
                    ) from exc
                conversation = [
                    *messages,
                    {"role": "assistant", "content": text[:4000]},
                    {"role": "user", "content": prompts.JSON_REMINDER.format(problem=exc.problem)},
                ]
        raise AssertionError("unreachable")  # pragma: no cover

    def _delay(self, attempt: int, exc: Exception) -> float:
        """Exponential backoff, at least the server's Retry-After, at most ``max_backoff``.

        Concurrent retries are spread over [0.5, 1) of the step by the golden-ratio sequence of this client's
        retry count: the spread of jitter without drawing a random number outside OpenDP (DESIGN invariant 5).
        """
        cfg = self.config
        spread = 0.5 + ((next(self._retries) * _GOLDEN) % 1.0) / 2
        delay = cfg.backoff * (2**attempt) * spread
        response = getattr(exc, "response", None)
        headers = getattr(response, "headers", None) or {}
        for name, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
            value = headers.get(name)
            if value:
                with contextlib.suppress(ValueError):
                    delay = max(delay, float(value) * scale)
                break
        return min(delay, cfg.max_backoff)

    def _describe(self, exc: Exception, *, attempts: int) -> str:
        where = f"LLM endpoint {self.config.endpoint} (model {self.config.model!r})"
        status = getattr(exc, "status_code", None)
        if status in (401, 403):
            return f"{where} refused the API key ({status}); check ${self.config.api_key_env}"
        if status == 404:
            return f"{where} answered 404: wrong --base-url (it usually ends in /v1) or unknown model"
        if status is not None:
            return f"{where} answered {status} after {attempts} tries: {getattr(exc, 'message', exc)}"
        return f"{where} cannot be reached after {attempts} tries ({type(exc).__name__}); is the server running?"


_clients: dict[LLMConfig, LLMClient] = {}
_clients_lock = threading.Lock()


def get_client(config: LLMConfig) -> LLMClient:
    """One client per configuration per process, so backends sharing a config share its concurrency limit."""
    with _clients_lock:
        if config not in _clients:
            _clients[config] = LLMClient(config)
        return _clients[config]
