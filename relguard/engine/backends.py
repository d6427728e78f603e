"""The backend objects of a run, built once from their names (or given ready) and shared by every face.

A run needs an extractor, a pool generator and an encoder. The CLI and the app name them in a
:class:`~relguard.settings.BackendSettings` and build them here through the registry; a library caller may hand in
objects. The draw needs only the pool generator and the encoder (:class:`DrawBackends`), which a batch run loads on
a thread while extraction runs on other processes.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from relguard import registry
from relguard.candidates.embeddings import warm_public_embeddings
from relguard.candidates.exclusion import with_exclusions
from relguard.candidates.sensitive import sensitive_policy
from relguard.errors import ConfigError
from relguard.protocols import Encoder, Extractor, PoolGenerator
from relguard.rewrite.verbalize import Verbalizer
from relguard.settings import DEFAULT_ENCODER, BackendSettings
from relguard.types import Forms


@dataclass(frozen=True)
class DrawBackends:
    """What drawing and rewriting call: the pool generator (pools and their wordings) and the encoder (d_R)."""

    candidates: PoolGenerator
    encoder: Encoder


@dataclass(frozen=True)
class Backends:
    """The three backend objects of a run, built once from names (:meth:`from_settings`) or given directly."""

    extractor: Extractor
    candidates: PoolGenerator
    encoder: Encoder

    @property
    def draw(self) -> DrawBackends:
        return DrawBackends(self.candidates, self.encoder)

    @classmethod
    def from_settings(cls, settings: BackendSettings) -> Backends:
        """Every backend a :class:`~relguard.settings.BackendSettings` names, the LLM ones with their options."""
        encoder = registry.create("encoder", settings.encoder_backend, model=settings.encoder)
        options = llm_options(settings) if settings.extractor in ("llm", "union") else {}
        extractor = registry.create("extractor", settings.extractor_backend, **options)
        return cls(extractor, candidates_from(settings, encoder=encoder), encoder)

    @classmethod
    def of(
        cls,
        *,
        extractor: str | Extractor = "spacy",
        candidates: str | PoolGenerator = "inventory",
        encoder: str | Encoder = DEFAULT_ENCODER,
        sensitive: bool = True,
    ) -> Backends:
        """Backends from names (built by the registry) or ready objects, for library callers. Pools named here are
        built under the sensitive-predicate policy, as the CLI's and the app's are, unless ``sensitive=False``
        (a ready pool generator is taken as given), so the library gives the release the CLI gives."""
        pools = named_pools(candidates, sensitive=sensitive) if isinstance(candidates, str) else candidates
        return cls(
            registry.create("extractor", extractor) if isinstance(extractor, str) else extractor,
            pools,
            registry.create("encoder", "sentence-transformers", model=encoder) if isinstance(encoder, str) else encoder,
        )


def named_pools(name: str, *, sensitive: bool = True) -> PoolGenerator:
    """The pool backend ``name`` from the registry, under the sensitive-predicate policy unless ``sensitive`` is
    False: what every face builds from a name, so the library, the CLI and the app draw from the same pools."""
    pools = registry.create("candidates", name)
    return with_exclusions(pools, None, sensitive=sensitive_policy()) if sensitive else pools


def llm_options(settings: BackendSettings) -> dict[str, str | bool | None]:
    """The options an LLM backend is built with: model, endpoint, the variable holding the key, and whether an
    endpoint that is not on this machine was allowed."""
    return {
        "model": settings.llm_model,
        "base_url": settings.base_url,
        "api_key_env": settings.api_key_env,
        "allow_remote": settings.allow_remote_llm,
    }


def candidates_from(settings: BackendSettings, *, encoder: Encoder) -> PoolGenerator:
    """The pool generator a :class:`~relguard.settings.BackendSettings` names, under its exclusion policy if any
    (:mod:`relguard.candidates.exclusion`: the pools, and so the draw and the audit, never hold those)."""
    sensitive = None if settings.no_sensitive_policy else sensitive_policy()
    return with_exclusions(
        _named_candidates(settings, encoder=encoder), settings.exclude_predicates, sensitive=sensitive
    )


def _named_candidates(settings: BackendSettings, *, encoder: Encoder) -> PoolGenerator:
    if settings.candidates == "llm":
        return registry.create(
            "candidates", "llm", pool_file=settings.pool_file, encoder=encoder, **llm_options(settings)
        )
    if settings.candidates == "pool-file":
        if not settings.pool_file:
            raise ConfigError("--candidates pool-file needs --pool-file PATH (a pool file or a release report.json)")
        return registry.create("candidates", "pool-file", path=settings.pool_file)
    return registry.create("candidates", settings.candidates)


class DrawLoader:
    """Builds the pool generator and the encoder, with the inventory's embeddings, on a thread while extraction runs."""

    def __init__(self, settings: BackendSettings, given: DrawBackends | None = None) -> None:
        self._settings = settings
        self._result: DrawBackends | None = given
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._load, daemon=True)
        self._thread.start()

    def _load(self) -> None:
        try:
            if self._result is None:
                encoder = registry.create("encoder", self._settings.encoder_backend, model=self._settings.encoder)
                self._result = DrawBackends(candidates_from(self._settings, encoder=encoder), encoder)
            warm_public_embeddings(self._result.candidates, self._result.encoder)
        except BaseException as exc:  # re-raised on the main thread, where the CLI turns it into one line
            self._error = exc

    def get(self) -> DrawBackends:
        self._thread.join()
        if self._error is not None:
            raise self._error
        assert self._result is not None
        return self._result


def verbalizer_from(settings: BackendSettings, forms: Forms) -> Verbalizer | None:
    """The verbalizer the settings name: None for the offline forms (the rewrite builds them), else the LLM one."""
    if settings.verbalizer != "llm":
        return None
    from relguard.llm.client import LLMConfig
    from relguard.rewrite.llm_verbalize import LLMVerbalizer

    options = llm_options(settings)
    config = LLMConfig.from_env(
        model=options["model"],
        base_url=options["base_url"],
        api_key_env=options["api_key_env"],
        allow_remote=options["allow_remote"],
    )
    return LLMVerbalizer(forms, config)
