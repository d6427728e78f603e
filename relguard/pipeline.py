"""The library's entry points: extract, pools and distances (:func:`prepare`), then draw (:meth:`Prepared.draw`).

:func:`prepare` does everything that does not depend on ε and λ (the expensive, cacheable part);
:meth:`Prepared.probabilities` and :meth:`Prepared.draw` do the rest in milliseconds, which is what lets the app
redraw while a slider moves. :func:`sanitize` is the one-call version. A draw is the release core's one-batch
case (:mod:`relguard.engine`): the same outcome table, per-document rewrite and leak scan as a batch run, so the
library, the app and the CLI give the same release for one seed; :func:`~relguard.engine.write_release` writes it.

The unit of sampling is the :class:`~relguard.types.RelationGroup`: every occurrence on one aligned entity pair,
in every document, shares one outcome, and the group is keyed by public information only (DESIGN invariant 6).
Its utility is ``u(c) = −min_i d_R(r_i, c)`` over the group's relations
(:func:`~relguard.privacy.mechanism.group_distances` says why that keeps the per-relation guarantee).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, MutableMapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from relguard import registry
from relguard.candidates.cache import PoolCache
from relguard.candidates.embeddings import warm_public_embeddings
from relguard.candidates.pools import build_pools
from relguard.embed import triple_distances
from relguard.engine.backends import Backends, named_pools
from relguard.engine.draw import Drawn, described, draw_step
from relguard.engine.memory import draw_release
from relguard.engine.tally import GroupTable
from relguard.errors import ConfigError
from relguard.extract.corpus import Progress, extract_corpus
from relguard.extract.review import Review, apply_review
from relguard.privacy.entity import draw_epsilons
from relguard.privacy.mechanism import group_distances, outcome_probabilities
from relguard.protocols import Encoder, Extractor, PoolGenerator
from relguard.settings import DEFAULT_ENCODER, PrivacySettings, check_k, check_lam
from relguard.types import (
    CandidatePool,
    Document,
    DocumentExtraction,
    Extraction,
    RelationGroup,
    Release,
    Triple,
    TypePair,
)

__all__ = ["Backends", "Prepared", "prepare", "prepare_extracted", "sanitize"]


@dataclass(frozen=True)
class Prepared:
    """Everything about a corpus that does not depend on ε or λ: extraction, pools and d_R.

    ``distances`` has one row per relation group (the rows of every probability table);
    ``triple_distances`` one row per canonical triple, for the confidential per-relation views.
    """

    documents: tuple[Document, ...]
    extraction: Extraction
    pools: Mapping[TypePair, CandidatePool]
    distances: np.ndarray = field(compare=False)
    k: int
    generator: PoolGenerator = field(compare=False, repr=False)
    encoder_id: str = ""
    encoder_runtime: str = ""
    input_hashes: Mapping[str, str] = field(default_factory=dict, compare=False)
    extractor_backend: Extractor | None = field(default=None, compare=False, repr=False)
    triple_distances: np.ndarray = field(default=None, compare=False, repr=False)
    review: Review = field(default_factory=Review, compare=False)

    @property
    def groups(self) -> tuple[RelationGroup, ...]:
        return self.extraction.groups

    @functools.cached_property
    def group_table(self) -> GroupTable:
        """The groups' public keys and original predicates, the draw's input: built once, read by every draw (the
        app draws again whenever a slider moves)."""
        return GroupTable({g.key: {t.predicate for t in g.triples} for g in self.groups})

    @property
    def triples(self) -> tuple[Triple, ...]:
        return self.extraction.triples

    @property
    def group_of_triple(self) -> np.ndarray:
        """For each canonical triple (in ``triples`` order), the index of its relation group."""
        return np.array([g for g, group in enumerate(self.groups) for _ in group.triples], dtype=np.int64)

    def pool_for(self, item: Triple | RelationGroup) -> CandidatePool:
        return self.pools[item.type_pair]

    def group_epsilons(self, *, epsilon: float | None = None, entity_epsilon: float | None = None) -> np.ndarray:
        """The ε each relation group is drawn at (row order): ``epsilon`` for all, or with a per-entity budget
        ``entity_epsilon`` E, ε_g = E / max(n(s), n(o)) (:mod:`relguard.privacy.entity`)."""
        keys = [g.key for g in self.groups]
        return draw_epsilons(
            keys, epsilon=entity_epsilon if epsilon is None else epsilon, entity_epsilon=entity_epsilon
        )

    def probabilities(self, *, epsilon: float | np.ndarray, lam: float, allow_null: bool = True) -> np.ndarray:
        """(g, K+1) outcome probabilities per relation group, last column null; cheap, recomputed on demand.

        ``epsilon`` is one ε, or one per group (:meth:`group_epsilons`, a per-entity budget).
        ``allow_null=False`` is the no-deletion ablation (paper Table 3): the null column is 0.
        """
        if not self.groups:
            return np.zeros((0, self.k + 1))
        return outcome_probabilities(self.distances, epsilon=epsilon, lam=lam, allow_null=allow_null)

    def draw(
        self,
        *,
        epsilon: float | None = None,
        lam: float,
        seed: int | None = None,
        allow_null: bool = True,
        entity_epsilon: float | None = None,
    ) -> Release:
        """Sample one outcome per relation group and rewrite every document (leak scan and withholding included).

        Give ``epsilon`` (every group at ε) or ``entity_epsilon`` E (each group at E / max(n(s), n(o)), so every
        entity stays within e^E). ``allow_null=False`` never deletes (the paper's Table 3 ablation, for
        evaluation only).
        """
        privacy = privacy_of(epsilon=epsilon, entity_epsilon=entity_epsilon, lam=lam, k=self.k, seed=seed)
        drawn = self.outcomes(privacy, allow_null=allow_null)
        return draw_release(
            self.extraction,
            table=drawn.outcomes,
            forms=self.generator.forms,
            provenance=drawn.public,
            confidential=drawn.confidential,
        )

    def outcomes(self, privacy: PrivacySettings, *, allow_null: bool = True) -> Drawn:
        """The draw of :meth:`draw` without the rewrite, at ``privacy`` (:func:`privacy_of` builds one): one outcome
        per relation group and its provenance. What an evaluation over many draws needs (the leakage of a release
        is a function of its outcomes); the documents are worded only when a release is made of them."""
        return draw_step(
            self.group_table,
            privacy=privacy,
            generator=self.generator,
            distances=self.distances,
            pools=self.pools,
            allow_null=allow_null,
            **self._made_by(),
        )

    def provenance(self, *, teaching: bool = False) -> tuple[dict, dict]:
        """(public provenance for the report, confidential details for the mapping file); see
        :func:`relguard.engine.draw.described`."""
        return described(self.generator, self.pools, teaching=teaching, **self._made_by())

    def _made_by(self) -> dict:
        """What a release drawn from this preparation says it was made with (:func:`.draw.described`'s fields)."""
        made = {"encoder_id": self.encoder_id, "encoder_runtime": self.encoder_runtime, "review": self.review}
        return made | {
            "extractor_id": self.extraction.extractor,
            "extractor_backend": self.extractor_backend,
            "input_hashes": self.input_hashes,
        }


def privacy_of(
    *, epsilon: float | None, entity_epsilon: float | None, lam: float, k: int, seed: int | None
) -> PrivacySettings:
    """The draw's settings from one budget: ε per relation, or E per entity (then ε is E)."""
    if entity_epsilon is not None:
        if epsilon is not None and epsilon != entity_epsilon:
            raise ConfigError("give epsilon (per relation) or entity_epsilon (per entity), not both")
        return PrivacySettings.per_entity(entity_epsilon, lam=lam, k=k, seed=seed)
    if epsilon is None:
        raise ConfigError("a draw needs epsilon (per relation) or entity_epsilon (per entity)")
    return PrivacySettings(epsilon=epsilon, lam=lam, k=k, seed=seed)


def prepare(
    documents: Sequence[Document],
    *,
    k: int,
    extractor: str | Extractor = "spacy",
    candidates: str | PoolGenerator = "inventory",
    encoder: str | Encoder = DEFAULT_ENCODER,
    backends: Backends | None = None,
    input_hashes: Mapping[str, str] | None = None,
    progress: Progress | None = None,
    cache: MutableMapping[str, DocumentExtraction] | None = None,
    key: Callable[[Document], str] | None = None,
    review: Review | None = None,
    pool_cache: PoolCache | None = None,
) -> Prepared:
    """Extract, build pools and compute distances: the ε/λ-independent part of a run.

    ``backends`` (built once by the CLI or the app from their settings) wins over the three names; ``cache``
    and ``key`` let a front end reuse extractions by content (:func:`relguard.extract.corpus.extract_corpus`);
    ``review`` is an analyst's edits of the extraction, applied before pools and distances; ``pool_cache`` keeps
    pools across calls (:mod:`relguard.candidates.cache`), so a front end that moves K builds each pool once.
    """
    k = check_k(k)
    backends = backends or Backends.of(extractor=extractor, candidates=candidates, encoder=encoder)
    extraction = extract_corpus(documents, extractor=backends.extractor, progress=progress, cache=cache, key=key)
    if review:
        extraction = apply_review(extraction, review)
    options = {"input_hashes": input_hashes, "review": review or Review(), "pool_cache": pool_cache}
    return prepare_extracted(documents, extraction, k=k, backends=backends, **options)


def prepare_extracted(
    documents: Sequence[Document],
    extraction: Extraction,
    *,
    k: int,
    candidates: str | PoolGenerator = "inventory",
    encoder: str | Encoder = DEFAULT_ENCODER,
    backends: Backends | None = None,
    input_hashes: Mapping[str, str] | None = None,
    extractor_backend: Extractor | None = None,
    review: Review | None = None,
    pool_cache: PoolCache | None = None,
) -> Prepared:
    """Pools and d_R for an existing extraction: the K-dependent part of :func:`prepare`.

    ``extractor_backend`` is the object that made ``extraction`` (or ``backends.extractor``); the report names
    its model when it is an LLM.
    """
    k = check_k(k)
    if backends is not None:
        generator, encoder, extractor_backend = backends.candidates, backends.encoder, backends.extractor
    else:
        generator = named_pools(candidates) if isinstance(candidates, str) else candidates
        encoder = (
            registry.create("encoder", "sentence-transformers", model=encoder) if isinstance(encoder, str) else encoder
        )
    pools = build_pools(extraction.type_pairs, generator=generator, k=k, cache=pool_cache)
    warm_public_embeddings(generator, encoder)
    per_triple = triple_distances(extraction.triples, pools, encoder).reshape(len(extraction.triples), k)
    owners = [g for g, group in enumerate(extraction.groups) for _ in group.triples]
    return Prepared(
        documents=tuple(documents),
        extraction=extraction,
        pools=pools,
        distances=group_distances(per_triple, owners, len(extraction.groups)),
        k=k,
        generator=generator,
        encoder_id=encoder.model_id,
        encoder_runtime=encoder.runtime,
        input_hashes=dict(input_hashes or {}),
        extractor_backend=extractor_backend,
        triple_distances=per_triple,
        review=review or Review(),
    )


def sanitize(
    documents: Sequence[Document],
    *,
    epsilon: float | None = None,
    lam: float,
    k: int,
    seed: int | None = None,
    extractor: str | Extractor = "spacy",
    candidates: str | PoolGenerator = "inventory",
    encoder: str | Encoder = DEFAULT_ENCODER,
    backends: Backends | None = None,
    input_hashes: Mapping[str, str] | None = None,
    progress: Progress | None = None,
    review: Review | None = None,
    entity_epsilon: float | None = None,
) -> Release:
    """Sanitize a corpus in one call: returns a :class:`Release` that carries its guarantee.

    Give ``epsilon`` per relation, or ``entity_epsilon`` per entity (see :meth:`Prepared.draw`).
    """
    privacy_of(epsilon=epsilon, entity_epsilon=entity_epsilon, lam=check_lam(lam), k=k, seed=seed)  # fail early
    names = {"extractor": extractor, "candidates": candidates, "encoder": encoder}
    options = {"backends": backends, "input_hashes": input_hashes, "progress": progress, "review": review}
    prepared = prepare(documents, k=k, **names, **options)
    return prepared.draw(epsilon=epsilon, lam=lam, seed=seed, entity_epsilon=entity_epsilon)
