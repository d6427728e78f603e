"""RelGuard: relation differential privacy for documents before GraphRAG indexing.

The public API is small: :func:`sanitize` for one call, :func:`prepare` when ε and λ will be tuned interactively,
the :class:`~relguard.types.Release` they produce, which knows its :class:`~relguard.types.Guarantee`,
:func:`write_release` to write it as every face does, and :class:`~relguard.settings.Settings` with
:class:`~relguard.engine.Backends` for callers that configure a run the way the CLI and the app do.
"""

from __future__ import annotations

from relguard.engine import Backends, write_release
from relguard.pipeline import Prepared, prepare, sanitize
from relguard.settings import Settings
from relguard.types import Guarantee, Release
from relguard.version import __version__

__all__ = [
    "Backends",
    "Guarantee",
    "Prepared",
    "Release",
    "Settings",
    "__version__",
    "prepare",
    "sanitize",
    "write_release",
]
