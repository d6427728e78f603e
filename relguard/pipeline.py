"""Orchestration of the four steps: extract → pools → distances → sample + rewrite, and the release it makes.

:func:`prepare` does everything that does not depend on ε and λ (the expensive, cacheable part);
:meth:`Prepared.probabilities` and :meth:`Prepared.draw` do the rest in milliseconds, which is what lets the app
redraw while a slider moves. :func:`sanitize` is the one-call version.

The unit of sampling is the :class:`~relguard.types.RelationGroup`: every occurrence on one aligned entity pair,
in every document, shares one outcome, and the group is keyed by public information only (DESIGN invariant 6).
Its utility is ``u(c) = −min_i d_R(r_i, c)`` over the group's relations
(:func:`~relguard.privacy.mechanism.group_distances` says why that keeps the per-relation guarantee).
"""

from __future__ import annotations

import platform
from collections.abc import Callable, Mapping, MutableMapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from datetime import UTC, datetime

import numpy as np

from relguard import registry
from relguard.candidates.embeddings import warm_public_embeddings
from relguard.candidates.pools import build_pools, pool_hash
from relguard.embed import triple_distances
from relguard.errors import ConfigError
from relguard.extract.corpus import Progress, extract_corpus
from relguard.extract.review import Review, apply_review, edits_summary
from relguard.io.write import serialize_documents
from relguard.privacy.mechanism import group_distances, outcome_probabilities
from relguard.privacy.sampling import sample_outcomes
from relguard.protocols import Encoder, Extractor, PoolGenerator
from relguard.release.leakscan import scan
from relguard.rewrite import FormVerbalizer, reconstruct
from relguard.settings import DEFAULT_ENCODER, BackendSettings, check_epsilon, check_k, check_lam
from relguard.types import (
    CandidatePool,
    Document,
    DocumentExtraction,
    Extraction,
    Guarantee,
    Outcome,
    RelationGroup,
    Release,
    Triple,
    TypePair,
)
from relguard.version import __version__

#: Provenance fields of a backend that are public: they name it and its settings, nothing computed from text.
PUBLIC_BACKEND_FIELDS = ("backend", "model", "prompt_versions", "window_sentences", "synonym_threshold")
#: Rounds of the leak scan before a release is blocked: withholding a sentence cannot create a new leak, so
#: one round settles every case seen; the others guard against a bug in that reasoning.
WITHHOLD_ROUNDS = 3


@dataclass(frozen=True)
class Backends:
    """The three backend objects of a run, built once from names (:meth:`from_settings`) or given directly."""

    extractor: Extractor
    candidates: PoolGenerator
    encoder: Encoder

    @classmethod
    def from_settings(cls, settings: BackendSettings) -> Backends:
        """Build every backend a :class:`~relguard.settings.BackendSettings` names, the LLM ones with their options."""
        encoder = registry.create("encoder", settings.encoder_backend, model=settings.encoder)
        llm = _llm_options(settings) if settings.extractor in ("llm", "union") else {}
        extractor = registry.create("extractor", settings.extractor_backend, **llm)
        return cls(extractor, candidates_from(settings, encoder=encoder), encoder)

    @classmethod
    def of(
        cls,
        *,
        extractor: str | Extractor = "spacy",
        candidates: str | PoolGenerator = "inventory",
        encoder: str | Encoder = DEFAULT_ENCODER,
    ) -> Backends:
        """Backends from names (built by the registry) or ready objects, for library callers."""
        return cls(
            registry.create("extractor", extractor) if isinstance(extractor, str) else extractor,
            registry.create("candidates", candidates) if isinstance(candidates, str) else candidates,
            registry.create("encoder", "sentence-transformers", model=encoder) if isinstance(encoder, str) else encoder,
        )


def _llm_options(settings: BackendSettings) -> dict[str, str | bool | None]:
    return {
        "model": settings.llm_model,
        "base_url": settings.base_url,
        "api_key_env": settings.api_key_env,
        "allow_remote": settings.allow_remote_llm,
    }


def candidates_from(settings: BackendSettings, *, encoder: Encoder) -> PoolGenerator:
    """The pool generator a :class:`~relguard.settings.BackendSettings` names (the batch engine builds it alone)."""
    if settings.candidates == "llm":
        return registry.create(
            "candidates", "llm", pool_file=settings.pool_file, encoder=encoder, **_llm_options(settings)
        )
    if settings.candidates == "pool-file":
        if not settings.pool_file:
            raise ConfigError("--candidates pool-file needs --pool-file PATH (a pool file or a release report.json)")
        return registry.create("candidates", "pool-file", path=settings.pool_file)
    return registry.create("candidates", settings.candidates)


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

    @property
    def triples(self) -> tuple[Triple, ...]:
        return self.extraction.triples

    @property
    def group_of_triple(self) -> np.ndarray:
        """For each canonical triple (in ``triples`` order), the index of its relation group."""
        return np.array([g for g, group in enumerate(self.groups) for _ in group.triples], dtype=np.int64)

    def pool_for(self, item: Triple | RelationGroup) -> CandidatePool:
        return self.pools[item.type_pair]

    def probabilities(self, *, epsilon: float, lam: float, allow_null: bool = True) -> np.ndarray:
        """(g, K+1) outcome probabilities per relation group, last column null; cheap, recomputed on demand.

        ``allow_null=False`` is the no-deletion ablation (paper Table 3): the null column is 0.
        """
        if not self.groups:
            return np.zeros((0, self.k + 1))
        return outcome_probabilities(self.distances, epsilon=epsilon, lam=lam, allow_null=allow_null)

    def draw(self, *, epsilon: float, lam: float, seed: int | None = None, allow_null: bool = True) -> Release:
        """Sample one outcome per relation group and rewrite every document.

        ``allow_null=False`` never deletes (the paper's Table 3 ablation, for evaluation only).
        """
        epsilon, lam = check_epsilon(epsilon), check_lam(lam)
        if self.groups:
            chosen = sample_outcomes(self.distances, epsilon=epsilon, lam=lam, seed=seed, allow_null=allow_null)
        else:
            chosen = np.zeros(0, dtype=np.int64)
        outcomes = tuple(
            Outcome(g, None if c == self.k else self.pools[g.type_pair].predicates[c])
            for g, c in zip(self.groups, chosen, strict=True)
        )
        verbalize = FormVerbalizer(self.generator.forms)
        guarantee = guarantee_of(epsilon=epsilon, lam=lam, k=self.k, seed=seed)
        public, confidential = self.provenance()
        release = Release(
            guarantee=guarantee,
            documents=reconstruct(self.extraction, outcomes, verbalize),
            outcomes=outcomes,
            pools=tuple(self.pools[p] for p in sorted(self.pools)),
            extraction=self.extraction,
            provenance=public,
            confidential=confidential,
        )
        return withhold_leaks(release, verbalize=verbalize, forms=self.generator.forms)

    def provenance(self) -> tuple[dict, dict]:
        """(public provenance for the report, confidential details for the mapping file); see :func:`provenance`."""
        return provenance(
            extractor_id=self.extraction.extractor,
            encoder_id=self.encoder_id,
            encoder_runtime=self.encoder_runtime,
            generator=self.generator,
            pools=self.pools,
            backends=(("extractor", self.extractor_backend), ("candidates", self.generator)),
            review=self.review,
            input_hashes=self.input_hashes,
        )


def guarantee_of(*, epsilon: float, lam: float, k: int, seed: int | None) -> Guarantee:
    """The guarantee a draw at these settings carries; a teaching seed marks it as not a private release."""
    return Guarantee(
        epsilon=epsilon,
        lam=lam,
        k=k,
        private_release=seed is None,
        rng="OS entropy (OpenDP make_noisy_max)" if seed is None else f"fixed teaching seed {seed}",
    )


def provenance(
    *,
    extractor_id: str,
    encoder_id: str,
    encoder_runtime: str = "",
    generator: PoolGenerator,
    pools: Mapping[TypePair, CandidatePool],
    backends: Sequence[tuple[str, Extractor | PoolGenerator | None]],
    review: Review,
    input_hashes: Mapping[str, str],
) -> tuple[dict, dict]:
    """(public provenance for the report, confidential details for the mapping file).

    Public: versions, backends by name and model, the pools and their hash, how many review edits. Confidential:
    the digests of the input files, what the LLM backends spent (calls, tokens, dropped replies) and the edits —
    each a function of the original text, so publishing it would undo the protection (DESIGN invariant 12).
    """
    sources = sorted({p.source for p in pools.values()})
    public_backends, usage = backend_provenance(backends)
    inventory = generator.content_hash()
    public = {
        "relguard_version": __version__,
        "python": platform.python_version(),
        "extractor": extractor_id,
        "encoder": encoder_id,
        **({"encoder_runtime": encoder_runtime} if encoder_runtime else {}),
        "candidates": generator.name,
        "pool_source": ", ".join(sources),
        "pool_hash": pool_hash(pools),
        **({"inventory_hash": inventory} if inventory else {}),
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
        **({"backends": public_backends} if public_backends else {}),
        **({"review_edits": edits_summary(review)} if review else {}),
    }
    confidential = {
        "input_sha256": dict(input_hashes),
        **({"backend_usage": usage} if usage else {}),
        **({"review": [asdict(e) for e in review.edits]} if review else {}),
    }
    return public, confidential


def backend_provenance(backends: Sequence[tuple[str, Extractor | PoolGenerator | None]]) -> tuple[dict, dict]:
    """Per role, the public description of each LLM backend and its confidential usage.

    Read at draw time, so calls made while drawing (LLM verbalization) are counted too. Offline backends
    describe themselves by name only and add nothing here.
    """
    public, usage = {}, {}
    for role, backend in backends:
        details = backend.provenance() if backend is not None else {}
        if set(details) - {"backend"}:
            public[role] = {k: details[k] for k in PUBLIC_BACKEND_FIELDS if k in details}
            usage[role] = {k: v for k, v in details.items() if k not in PUBLIC_BACKEND_FIELDS}
    return public, usage


def withhold_leaks(release: Release, *, verbalize: FormVerbalizer, forms: Callable | None = None) -> Release:
    """The last safety net: withhold every sentence in which the leak scan still finds an original relation.

    Reconstruction is built never to copy an original relation, but an extractor's span can miss part of the
    expression (a relation word left beside the slot). Rather than block a corpus of thousands for one
    sentence, that sentence is taken out of the output, listed in the confidential file and counted in the
    public report; the CLI then exits non-zero unless withheld sentences are allowed (docs/reliability.md).
    A leak that no sentence accounts for still blocks the export (:func:`relguard.release.leakscan.check_public_files`).
    """
    withheld: dict[str, set[int]] = {}
    reasons: list[dict] = []
    originals = {d.document.name: d for d in release.extraction.documents}
    for _ in range(WITHHOLD_ROUNDS):
        pairs = [(originals[d.name].document, d.text) for d in release.documents]
        files = {f"documents/{name}": data for name, data in serialize_documents(pairs).items()}
        leaks = [leak for leak in scan(release, files, forms=forms) if leak.document in originals]
        fresh = [leak for leak in leaks if leak.sentence not in withheld.get(leak.document, set())]
        if not fresh:
            break
        for leak in fresh:
            withheld.setdefault(leak.document, set()).add(leak.sentence)
            sentence = originals[leak.document].sentence_text(leak.sentence)
            reasons.append(
                {"document": leak.document, "sentence": leak.sentence, "kind": leak.kind, "span": leak.text,
                 "text": sentence}
            )  # fmt: skip
        release = replace(
            release, documents=reconstruct(release.extraction, release.outcomes, verbalize, withheld=withheld)
        )
    if not reasons:
        return release
    return replace(release, confidential={**release.confidential, "withheld": reasons})


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
) -> Prepared:
    """Extract, build pools and compute distances: the ε/λ-independent part of a run.

    ``backends`` (built once by the CLI or the app from their settings) wins over the three names; ``cache``
    and ``key`` let a front end reuse extractions by content (:func:`relguard.extract.corpus.extract_corpus`);
    ``review`` is an analyst's edits of the extraction, applied before pools and distances.
    """
    k = check_k(k)
    backends = backends or Backends.of(extractor=extractor, candidates=candidates, encoder=encoder)
    extraction = extract_corpus(documents, extractor=backends.extractor, progress=progress, cache=cache, key=key)
    if review:
        extraction = apply_review(extraction, review)
    return prepare_extracted(
        documents, extraction, k=k, backends=backends, input_hashes=input_hashes, review=review or Review()
    )


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
) -> Prepared:
    """Pools and d_R for an existing extraction: the K-dependent part of :func:`prepare`.

    ``extractor_backend`` is the object that made ``extraction`` (or ``backends.extractor``); the report names
    its model when it is an LLM.
    """
    k = check_k(k)
    if backends is not None:
        generator, encoder, extractor_backend = backends.candidates, backends.encoder, backends.extractor
    else:
        generator = registry.create("candidates", candidates) if isinstance(candidates, str) else candidates
        encoder = (
            registry.create("encoder", "sentence-transformers", model=encoder) if isinstance(encoder, str) else encoder
        )
    pools = build_pools(extraction.type_pairs, generator=generator, k=k)
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
    epsilon: float,
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
) -> Release:
    """Sanitize a corpus in one call: returns a :class:`Release` that carries its guarantee."""
    epsilon, lam = check_epsilon(epsilon), check_lam(lam)
    names = {"extractor": extractor, "candidates": candidates, "encoder": encoder}
    prepared = prepare(documents, k=k, backends=backends, input_hashes=input_hashes, progress=progress, review=review,
                       **names)  # fmt: skip
    return prepared.draw(epsilon=epsilon, lam=lam, seed=seed)
