"""LLM backends over any OpenAI-compatible endpoint: client, prompts, reply schemas, cache, dry-run.

The backends themselves are :class:`relguard.extract.llm.LLMExtractor` and
:class:`relguard.candidates.llm.LLMCandidates`, registered as ``llm``. Nothing here imports ``openai``
until a client is built, so :func:`status` works without the ``llm`` extra installed.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from relguard.llm.client import BASE_URL_ENV, DEFAULT_KEY_ENV, MODEL_ENV, LLMClient, LLMConfig, LLMError, Usage

__all__ = ["LLMClient", "LLMConfig", "LLMError", "Usage", "build_backends", "configured", "run_usage", "status"]

ENABLE_HINT = (
    f"To enable them, install `pip install 'relguard[llm]'`, set {BASE_URL_ENV} to an OpenAI-compatible server "
    f"(Ollama http://localhost:11434/v1, vLLM http://localhost:8000/v1, llama.cpp http://localhost:8080/v1) "
    f"or {DEFAULT_KEY_ENV} for OpenAI, and {MODEL_ENV} to the model name; then choose the llm extractor and "
    "candidates (CLI: --extractor llm --candidates llm)."
)


def configured(environ: Mapping[str, str] | None = None) -> bool:
    """Whether an endpoint and a model are configured in the environment (nothing is contacted)."""
    env = os.environ if environ is None else environ
    return bool((env.get(BASE_URL_ENV) or env.get(DEFAULT_KEY_ENV)) and env.get(MODEL_ENV))


def status(environ: Mapping[str, str] | None = None) -> str:
    """One line for the app and the CLI: is an LLM endpoint configured, and if not, how to enable it.

    Reads only the environment (never the network) and never shows the API key itself.
    """
    env = os.environ if environ is None else environ
    installed = importlib.util.find_spec("openai") is not None
    if not configured(env):
        missing = [
            name
            for name, present in (
                (f"{BASE_URL_ENV} or {DEFAULT_KEY_ENV}", env.get(BASE_URL_ENV) or env.get(DEFAULT_KEY_ENV)),
                (MODEL_ENV, env.get(MODEL_ENV)),
                ("the openai package", installed),
            )
            if not present
        ]
        return (
            f"LLM backends off ({', '.join(missing)} not set): the offline spaCy extractor and inventory pools "
            f"are used. {ENABLE_HINT}"
        )
    endpoint = env.get(BASE_URL_ENV) or "https://api.openai.com/v1"
    key = "API key set" if env.get(DEFAULT_KEY_ENV) else "no API key (fine for a local server)"
    if not installed:
        return f"LLM endpoint {endpoint} is configured but the openai package is missing: pip install 'relguard[llm]'."
    return (
        f"LLM backends available: model {env[MODEL_ENV]!r} at {endpoint}, {key}. "
        "Choose the llm extractor and candidates (CLI: --extractor llm --candidates llm) to use them."
    )


def build_backends(
    *,
    extractor: str = "spacy",
    candidates: str = "inventory",
    model: str | None = None,
    base_url: str | None = None,
    api_key_env: str | None = None,
    pool_file: str | Path | None = None,
    encoder: str | Any = "all-MiniLM-L6-v2",
) -> tuple[object, object]:
    """Backend objects for the LLM names (they need endpoint options), plain names for the rest.

    One place for the CLI and the app, so both build the same backends from the same settings; the objects
    are what :func:`relguard.prepare` needs to put model, prompt versions, calls and tokens in the report.
    ``model``/``base_url`` left empty fall back to ``RELGUARD_LLM_MODEL``/``OPENAI_BASE_URL``.
    """
    from relguard import registry

    options = {"model": model or None, "base_url": base_url or None, "api_key_env": api_key_env or None}
    extractor_obj: object = registry.create("extractor", "llm", **options) if extractor == "llm" else extractor
    candidates_obj: object = candidates
    if candidates == "llm":
        candidates_obj = registry.create("candidates", "llm", pool_file=pool_file, encoder=encoder, **options)
    elif candidates == "pool-file":
        if not pool_file:
            from relguard.errors import ConfigError

            raise ConfigError("--candidates pool-file needs --pool-file PATH (a pool file or a release report.json)")
        candidates_obj = registry.create("candidates", "pool-file", path=pool_file)
    return extractor_obj, candidates_obj


def run_usage(*backends: object) -> dict[str, int]:
    """Calls and tokens the given backends have spent so far, summed (backends without a count add nothing)."""
    totals = {"calls": 0, "prompt_tokens": 0, "completion_tokens": 0}
    for backend in backends:
        hook = getattr(backend, "provenance", None)
        if callable(hook):
            details = hook()
            for key in totals:
                totals[key] += int(details.get(key) or 0)
    return totals
