"""LLM backends over any OpenAI-compatible endpoint: client, prompts, reply schemas, cache, dry-run.

The backends themselves are :class:`relguard.extract.llm.LLMExtractor` and
:class:`relguard.candidates.llm.LLMCandidates`, registered as ``llm``. Nothing here imports ``openai``
until a client is built, so :func:`status` works without the ``llm`` extra installed.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Mapping

from relguard.llm.client import BASE_URL_ENV, DEFAULT_KEY_ENV, MODEL_ENV, LLMClient, LLMConfig, LLMError, Usage
from relguard.llm.discover import LocalServer, find_local_server, find_local_servers, local_server_settings
from relguard.llm.endpoint import ALLOW_FLAG, describe, is_local

__all__ = [
    "LLMClient",
    "LLMConfig",
    "LLMError",
    "LocalServer",
    "Usage",
    "configured",
    "find_local_server",
    "find_local_servers",
    "is_local",
    "local_server_settings",
    "run_usage",
    "status",
]

ENABLE_HINT = (
    f"To enable them, install `pip install 'relguard[llm]'`, set {BASE_URL_ENV} to an OpenAI-compatible server "
    "(`bash scripts/local-llm.sh --background` serves a small model offline at http://127.0.0.1:8765/v1; "
    f"Ollama http://localhost:11434/v1, vLLM http://localhost:8000/v1, llama.cpp http://localhost:8080/v1) "
    f"or {DEFAULT_KEY_ENV} for OpenAI (a server not on this machine also needs {ALLOW_FLAG}, in the app a "
    f"confirmation), and {MODEL_ENV} to the model name; then choose the llm extractor and candidates (CLI: "
    "--extractor llm --candidates llm)."
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
    base_url = env.get(BASE_URL_ENV) or None
    endpoint = describe(base_url)
    key = "API key set" if env.get(DEFAULT_KEY_ENV) else "no API key (fine for a local server)"
    if not installed:
        return f"LLM endpoint {endpoint} is configured but the openai package is missing: pip install 'relguard[llm]'."
    remote = "" if is_local(base_url) else f" It is used only with {ALLOW_FLAG} (app: the confirmation below)."
    return (
        f"LLM backends available: model {env[MODEL_ENV]!r} at {endpoint}, {key}.{remote} "
        "Choose the llm extractor (spaCy's slots, plus the model's) and the llm candidates (CLI: --extractor llm "
        "--candidates llm) to use them."
    )


def run_usage(*backends: object) -> dict[str, int]:
    """Calls and tokens the given backends have spent so far, summed (backends without a count add nothing)."""
    totals = {"calls": 0, "prompt_tokens": 0, "completion_tokens": 0}
    for backend in backends:
        details = backend.provenance()
        for key in totals:
            totals[key] += int(details.get(key) or 0)
    return totals
