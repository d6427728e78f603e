"""Comparison sanitizers from the seed papers, behind one small interface.

Every class in ``COMPARATORS`` has a ``name``, a frozen keyword-only ``Settings`` dataclass whose
defaults are the paper's, ``describe()`` (one paragraph: what it protects and what guarantee the
paper claims) and ``sanitize(documents, *, queries=None, seed=None)``, which returns one
``SanitizedDocument`` per input document, in order, with the same ``name``.

* ``pa-hdp`` (sentences): scores against ``queries`` when given (evaluation passes the dataset's
  questions), otherwise against each document's own embedding as the stand-in query. The only
  randomized one: OpenDP draws, or seeded numpy draws of the same distributions when ``seed`` is
  given (tests and teaching only).
* ``trip-rag`` (entities): its topic is the document (the paper's own pre-indexing setting), or with
  ``queries`` the query most similar to the document. Deterministic; ``seed`` is ignored.
* ``promptgraph`` (spans): a prompt sanitizer, so ``queries`` and ``seed`` are ignored.

Each module's docstring lists the sections and equations implemented and every departure.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from relguard.evaluation.comparators.pa_hdp import PaHdp
from relguard.evaluation.comparators.promptgraph import PromptGraph
from relguard.evaluation.comparators.trip_rag import TripRag
from relguard.types import Document, SanitizedDocument


class Comparator(Protocol):
    """The shape every comparison sanitizer has."""

    name: str
    Settings: type

    @classmethod
    def describe(cls) -> str: ...

    def sanitize(
        self, documents: Sequence[Document], *, queries: Sequence[str] | None = None, seed: int | None = None
    ) -> tuple[SanitizedDocument, ...]: ...


COMPARATORS: dict[str, type[Any]] = {"trip-rag": TripRag, "pa-hdp": PaHdp, "promptgraph": PromptGraph}


def create(name: str, **settings: Any) -> Comparator:
    """The comparator ``name`` with its paper defaults overridden by ``settings`` (keyword fields)."""
    try:
        cls = COMPARATORS[name]
    except KeyError:
        raise ValueError(f"unknown comparator {name!r}; known: {', '.join(COMPARATORS)}") from None
    return cls(cls.Settings(**settings))


__all__ = ["COMPARATORS", "Comparator", "PaHdp", "PromptGraph", "TripRag", "create"]
