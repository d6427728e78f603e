"""Backends by name: one small registry per kind (extractor, candidates, encoder).

A backend registers a *factory* under a name. Factories import their optional
dependencies lazily, so an unavailable backend fails only when chosen, with
the list of available names and what to install.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from relguard.errors import BackendError

_REGISTRY: dict[str, dict[str, tuple[Callable[..., Any], str]]] = {
    "extractor": {},
    "candidates": {},
    "encoder": {},
}


def register(kind: str, name: str, factory: Callable[..., Any], *, install_hint: str = "") -> None:
    """Register ``factory`` as backend ``name`` of ``kind``; ``install_hint`` says what to install."""
    _REGISTRY[kind][name] = (factory, install_hint)


def available(kind: str) -> tuple[str, ...]:
    _load_builtin()
    return tuple(sorted(_REGISTRY[kind]))


def create(kind: str, name: str, **options: Any) -> Any:
    """Build backend ``name`` of ``kind``; unknown names and missing extras raise ``BackendError``."""
    _load_builtin()
    if kind not in _REGISTRY:
        raise BackendError(f"unknown backend kind {kind!r}; kinds are: {', '.join(_REGISTRY)}")
    entry = _REGISTRY[kind].get(name)
    if entry is None:
        names = ", ".join(available(kind)) or "none"
        raise BackendError(f"unknown {kind} backend {name!r}; available: {names}")
    factory, hint = entry
    try:
        return factory(**options)
    except ImportError as exc:
        what = hint or f"the dependencies of the {name!r} {kind} backend"
        raise BackendError(f"{kind} backend {name!r} needs {what} ({exc.name or exc})") from exc


_loaded = False


def _load_builtin() -> None:
    """Import the modules that register the built-in backends (cheap: they import lazily)."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    import relguard.backends  # noqa: F401
