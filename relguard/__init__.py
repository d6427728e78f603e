"""RelGuard: relation differential privacy for documents before GraphRAG indexing.

The public API is small: :func:`sanitize` for one call, :func:`prepare` when
ε and λ will be tuned interactively, and the :class:`~relguard.types.Release`
they produce, which knows its guarantee and can write itself out.
"""

from __future__ import annotations

__version__ = "0.1.0"

from relguard.pipeline import Prepared, prepare, sanitize

__all__ = ["Prepared", "__version__", "prepare", "sanitize"]
