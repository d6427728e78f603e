"""Finding an OpenAI-compatible model server already running on this machine, for the app's backend panel.

A local server is the offline way to use the LLM backends (``scripts/local-llm.sh`` serves one on port 8765), so
the app can offer it instead of asking for a URL. Only ``127.0.0.1`` is asked, only ``GET /v1/models``, with a
short timeout and no proxy (a proxy from the environment would otherwise see the request); nothing is sent about
documents. The ports are the usual ones: 8765 (``scripts/local-llm.sh``), 8080 (llama.cpp's ``llama-server``),
11434 (Ollama), 8000 (vLLM); ``$RELGUARD_LLM_PORTS`` ("8765,9000") replaces them for a server elsewhere.
"""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from relguard.errors import ConfigError

DEFAULT_PORTS = (8765, 8080, 11434, 8000)
PORTS_ENV = "RELGUARD_LLM_PORTS"
_NAMES = {8765: "scripts/local-llm.sh", 8080: "llama.cpp", 11434: "Ollama", 8000: "vLLM"}
#: The model alias scripts/local-llm.sh serves, for when its server is too busy to list it.
_SCRIPT_MODEL = {8765: "qwen2.5-coder-1.5b-instruct"}


@dataclass(frozen=True)
class LocalServer:
    """A server on this machine: its base URL (ending in ``/v1``) and the model names it serves.

    ``busy`` means it accepted the connection but did not answer in time: llama-cpp-python's server holds one lock
    for every route, so while it generates, even ``/v1/models`` waits (model names then unknown; ask again later).
    """

    base_url: str
    models: tuple[str, ...]
    port: int
    busy: bool = False

    @property
    def label(self) -> str:
        """How the app names it: "llama.cpp at http://127.0.0.1:8080/v1 (2 models)"."""
        kind = _NAMES.get(self.port, "OpenAI-compatible server")
        if self.busy:
            return f"{kind} at {self.base_url} (busy: it did not list its models in time)"
        return f"{kind} at {self.base_url} ({len(self.models)} model{'s' * (len(self.models) != 1)})"

    def environment(self, model: str | None = None) -> dict[str, str]:
        """The variables that point RelGuard at this server (first model unless one is named)."""
        chosen = model or (self.models[0] if self.models else _SCRIPT_MODEL.get(self.port, ""))
        return {"OPENAI_BASE_URL": self.base_url, "RELGUARD_LLM_MODEL": chosen}


def probe(base_url: str, *, timeout: float = 0.5) -> tuple[str, ...] | None:
    """The model names at ``base_url`` (``…/v1``), or None when nothing OpenAI-compatible answers in time."""
    answer = _ask(base_url, timeout)
    return answer if isinstance(answer, tuple) else None


def _ask(base_url: str, timeout: float) -> tuple[str, ...] | str:
    """Model names; ``"busy"`` for a connection that got no answer in time; ``"none"`` for anything else."""
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(base_url.rstrip("/") + "/models", timeout=timeout) as response:
            data = json.loads(response.read(1 << 20))
    except TimeoutError:
        return "busy"
    except urllib.error.URLError as exc:
        return "busy" if isinstance(exc.reason, TimeoutError) else "none"
    except (OSError, ValueError):
        return "none"
    entries = data.get("data") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        return "none"
    return tuple(str(e["id"]) for e in entries if isinstance(e, dict) and e.get("id"))


def ports_from_env() -> tuple[int, ...]:
    """``$RELGUARD_LLM_PORTS`` as ports, else :data:`DEFAULT_PORTS`; a bad value says which variable to fix."""
    value = os.environ.get(PORTS_ENV, "").strip()
    if not value:
        return DEFAULT_PORTS
    try:
        ports = tuple(int(p) for p in value.replace(" ", "").split(",") if p)
    except ValueError:
        ports = ()
    if not ports or not all(0 < p < 65536 for p in ports):
        raise ConfigError(f"{PORTS_ENV}={value!r}: give comma-separated port numbers, for example 8765,8080")
    return ports


def find_local_servers(
    *, ports: Sequence[int] | None = None, host: str = "127.0.0.1", timeout: float = 0.5
) -> tuple[LocalServer, ...]:
    """Every server on ``host`` among ``ports`` that lists a model, or is busy, in the order of ``ports``.

    ``ports`` defaults to :func:`ports_from_env`. They are asked in parallel, so the whole call takes at most about
    ``timeout`` seconds.
    """
    ports = ports_from_env() if ports is None else tuple(ports)
    urls = [f"http://{host}:{port}/v1" for port in ports]
    with ThreadPoolExecutor(max_workers=max(1, len(urls)), thread_name_prefix="relguard-probe") as pool:
        answers = list(pool.map(lambda url: _ask(url, timeout), urls))
    found = []
    for url, answer, port in zip(urls, answers, ports, strict=True):
        if answer == "busy":
            found.append(LocalServer(url, (), port, busy=True))
        elif isinstance(answer, tuple) and answer:
            found.append(LocalServer(url, answer, port))
    return tuple(found)


def find_local_server(**options: Any) -> LocalServer | None:
    """The first local server that listed its models (see :func:`find_local_servers`), else the first busy one."""
    found = find_local_servers(**options)
    return next((s for s in found if not s.busy), found[0] if found else None)


def local_server_settings() -> tuple[str, dict[str, str]]:
    """What the app's backend panel shows and fills in when asked to find a server: one line, and the variables.

    The variables are empty when none answers or ``$RELGUARD_LLM_PORTS`` is wrong (the line then says so).
    """
    try:
        found = find_local_server()
    except ConfigError as exc:
        return str(exc), {}
    if found is None:
        return "No model server answers on 127.0.0.1; start one: bash scripts/local-llm.sh --background", {}
    return f"Using {found.label}.", found.environment()
