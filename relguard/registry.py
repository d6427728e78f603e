"""Backends by name, catalogue-style: each kind maps names to where the backend lives and what it needs.

The catalogue holds module paths as text, so importing the registry imports no backend (and no import circle
can form through it); a backend's module, and its optional dependency, load only when that backend is chosen.
An unknown name fails with the available names; a missing dependency with what to install. Third parties add
backends with :func:`register`. :func:`create` is typed per kind: what it returns is checked against that kind's
contract in :mod:`relguard.protocols`, so a caller never probes a backend with ``getattr``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal, overload

from relguard.errors import BackendError
from relguard.protocols import Encoder, Extractor, PoolGenerator, Sanitizer

Kind = Literal["extractor", "candidates", "encoder", "sanitizer"]
Backend = Extractor | PoolGenerator | Encoder | Sanitizer
Factory = Callable[..., Backend]
KINDS: tuple[Kind, ...] = ("extractor", "candidates", "encoder", "sanitizer")
#: The contract a backend of each kind must satisfy (checked on every object :func:`create` returns).
CONTRACTS: dict[str, type] = {
    "extractor": Extractor,
    "candidates": PoolGenerator,
    "encoder": Encoder,
    "sanitizer": Sanitizer,
}
_LLM_HINT = "the openai client (pip install 'relguard[llm]')"
_SEED_HINT = "spacy, en_core_web_sm, sentence-transformers and opendp (pip install relguard)"


@dataclass(frozen=True)
class Entry:
    """Where a backend lives (``module:attribute``), what to install for it, and whether one is shared."""

    target: str
    install_hint: str = ""
    shared: bool = False


_CATALOGUE: dict[str, dict[str, Entry | Factory]] = {
    "extractor": {
        "spacy": Entry(
            "relguard.extract.spacy:SpacyExtractor", "spacy and en_core_web_sm (pip install relguard)", True
        ),
        # An LLM never extracts alone: "llm" is the union, the offline slots kept and the model's added, so a model
        # that returns nothing (or obeys an instruction inside a document) cannot empty a release.
        "llm": Entry("relguard.extract.union:UnionExtractor", f"{_LLM_HINT}, spacy and en_core_web_sm"),
        "union": Entry("relguard.extract.union:UnionExtractor", f"{_LLM_HINT}, spacy and en_core_web_sm"),
    },
    "candidates": {
        "inventory": Entry("relguard.candidates.inventory:InventoryCandidates"),
        "llm": Entry("relguard.candidates.llm:LLMCandidates", _LLM_HINT),
        "pool-file": Entry("relguard.candidates.pool_file:PoolFileCandidates"),
    },
    "encoder": {
        # A model on its default runtime; the others compute the same d_R another way (--encoder-runtime).
        "sentence-transformers": Entry("relguard.embed:load_encoder", "sentence-transformers and onnxruntime"),
        "onnxruntime-fp32": Entry("relguard.embed:onnx_encoder", "onnxruntime (pip install relguard)"),
        "torch": Entry("relguard.embed:torch_encoder", "sentence-transformers and torch (pip install relguard)"),
    },
    # The seed papers' sanitizers, for comparison only (relguard evaluate --baselines, the Risk page).
    "sanitizer": {
        "trip-rag": Entry("relguard.evaluation.comparators.trip_rag:TripRag", _SEED_HINT),
        "pa-hdp": Entry("relguard.evaluation.comparators.pa_hdp:PaHdp", _SEED_HINT),
        "promptgraph": Entry("relguard.evaluation.comparators.promptgraph:PromptGraph", _SEED_HINT),
    },
}


def register(kind: Kind, name: str, factory: Factory) -> None:
    """Register ``factory`` as backend ``name`` of ``kind`` (a user's own extractor, pool source or encoder)."""
    _known(kind)[name] = factory


def available(kind: str) -> tuple[str, ...]:
    return tuple(sorted(_known(kind)))


#: How an extractor's name carries the strict slot mode to wherever it is built (a worker process, a Ray actor).
STRICT_SUFFIX = "+stretches"


@overload
def create(kind: Literal["extractor"], name: str, **options: object) -> Extractor: ...
@overload
def create(kind: Literal["candidates"], name: str, **options: object) -> PoolGenerator: ...
@overload
def create(kind: Literal["encoder"], name: str, **options: object) -> Encoder: ...
@overload
def create(kind: Literal["sanitizer"], name: str, **options: object) -> Sanitizer: ...
def create(kind: Kind, name: str, **options: object) -> Backend:
    """Build backend ``name`` of ``kind``; unknown names, missing extras and broken contracts raise ``BackendError``.

    An extractor named ``X+stretches`` is ``X`` in the strict slot mode (``slots="stretches"``)."""
    if kind == "extractor" and name.endswith(STRICT_SUFFIX):
        return create(kind, name.removesuffix(STRICT_SUFFIX), **options, slots="stretches")
    entry = _known(kind).get(name)
    if entry is None:
        names = ", ".join(available(kind)) or "none"
        raise BackendError(f"unknown {kind} backend {name!r}; available: {names}")
    hint = entry.install_hint if isinstance(entry, Entry) else ""
    try:
        if not isinstance(entry, Entry):
            built = entry(**options)
        elif entry.shared:
            built = _shared(entry.target, tuple(sorted(options.items())))
        else:
            built = _load(entry.target)(**options)
    except ImportError as exc:
        what = hint or f"the dependencies of the {name!r} {kind} backend"
        raise BackendError(f"{kind} backend {name!r} needs {what} ({exc.name or exc})") from exc
    contract = CONTRACTS[kind]
    if not isinstance(built, contract):
        raise BackendError(
            f"{kind} backend {name!r} built a {type(built).__name__}, which does not implement "
            f"relguard.protocols.{contract.__name__}; give it every attribute that contract declares"
        )
    return built


def _known(kind: str) -> dict[str, Entry | Factory]:
    if kind not in _CATALOGUE:
        raise BackendError(f"unknown backend kind {kind!r}; kinds are: {', '.join(KINDS)}")
    return _CATALOGUE[kind]


def _load(target: str) -> Factory:
    module, attribute = target.split(":")
    return getattr(importlib.import_module(module), attribute)


@lru_cache(maxsize=8)
def _shared(target: str, options: tuple) -> Backend:
    """One instance per target and options per process: loading a spaCy pipeline takes seconds."""
    return _load(target)(**dict(options))
