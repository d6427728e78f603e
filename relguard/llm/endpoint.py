"""Where an LLM endpoint runs, and the rule that documents leave this machine only when someone said so.

An LLM backend sends what it is given to its endpoint; for the extractor that is the documents' text. A base URL
is *on this machine* only when its host is ``localhost``, a loopback address (127.0.0.0/8, ``::1``, also written
as an IPv4-mapped ``::ffff:127.x.x.x``), ``0.0.0.0`` (which a client connects to as this host), or the URL names a
unix socket (``unix://``, ``http+unix://``). The host is read by :func:`urllib.parse.urlsplit`, so
``http://localhost@example.com`` and ``http://127.0.0.1.example.com`` are remote, as they are to the HTTP client.
A host name that merely resolves to a loopback address today is remote: the rule reads the URL, never DNS.
The client (:class:`relguard.llm.client.LLMClient`) and the model discovery reach a URL this rule calls local
directly, never through a proxy the environment names (``HTTP_PROXY``, ``ALL_PROXY``): through one, the documents
would leave the machine while the check calls the endpoint local.

Every other base URL, and no base URL at all (the ``openai`` client would then call OpenAI's hosted API), needs
``allow_remote`` (CLI ``--allow-remote-llm``, the app's confirmation). Refusing is the default because a silent
fallback to a hosted API sends a corpus away with no one having decided it.
"""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

from relguard.errors import ConfigError

#: Where the ``openai`` client sends requests when no base URL is set.
HOSTED_DEFAULT = "https://api.openai.com/v1"
ALLOW_FLAG = "--allow-remote-llm"
_SOCKET_SCHEMES = frozenset({"unix", "http+unix", "https+unix"})
_LOCAL_NAMES = frozenset({"localhost", "0.0.0.0"})


def is_local(base_url: str | None) -> bool:
    """Whether ``base_url`` points at this machine (see the module docstring); ``None`` is OpenAI's hosted API."""
    if not base_url:
        return False
    try:
        parts = urlsplit(base_url.strip())
        host = parts.hostname
    except ValueError:  # an unbalanced "[" in the host
        return False
    if parts.scheme.lower() in _SOCKET_SCHEMES:
        return True
    if parts.scheme.lower() not in ("http", "https") or not host:
        return False
    host = host.rstrip(".").lower()
    if host in _LOCAL_NAMES:
        return True
    try:
        address = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return False
    mapped = getattr(address, "ipv4_mapped", None)
    return bool(address.is_loopback or (mapped is not None and mapped.is_loopback))


def check_endpoint(base_url: str | None, *, allow_remote: bool) -> None:
    """Refuse an endpoint that is not on this machine unless ``allow_remote``; a URL that is not one is refused too.

    The message is one line that names the URL and the flag, for the CLI's ``relguard: error:`` and ``st.error``.
    """
    if base_url:
        try:
            scheme = urlsplit(base_url.strip()).scheme.lower()
        except ValueError:
            scheme = ""
        if scheme not in ("http", "https", *_SOCKET_SCHEMES):
            raise ConfigError(
                f"LLM base URL {base_url!r} is not an http:// or https:// URL; write it in full, e.g. "
                "http://127.0.0.1:8765/v1 (--base-url or OPENAI_BASE_URL)"
            )
    if allow_remote or is_local(base_url):
        return
    if not base_url:
        raise ConfigError(
            "no LLM base URL is set, and without one the openai client would send the documents to OpenAI's hosted "
            f"API ({HOSTED_DEFAULT}); set --base-url or OPENAI_BASE_URL to a server on this machine (bash "
            f"scripts/local-llm.sh --background serves one), or pass {ALLOW_FLAG} to use the hosted endpoint"
        )
    raise ConfigError(
        f"LLM base URL {base_url} is not on this machine: the documents would be sent there; pass {ALLOW_FLAG} "
        "(app: tick the confirmation) if that is allowed, or use a server on localhost / 127.0.0.1"
    )


def describe(base_url: str | None) -> str:
    """A few words for status lines: where the endpoint is and whether data would leave this machine."""
    if is_local(base_url):
        return f"{base_url} (on this machine)"
    return f"{base_url or HOSTED_DEFAULT} (NOT on this machine: documents would be sent there)"
